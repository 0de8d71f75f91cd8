package main

import (
	"io"

	"github.com/chatrest/chat/internal/redact"
)

// The command's redaction is the SDK's (internal/redact): one idea of a
// credential for the client, chattest and the command line.

// redacted replaces a configured credential wherever the command would
// print it.
const redacted = redact.Redacted

// redactor writes to an output of the command with every credential the
// command was configured with (the API key, the management key and
// secret, a password it was given) replaced by REDACTED.
type redactor = redact.Writer

func newRedactor(w io.Writer) *redactor { return redact.NewWriter(w) }

// redactJSON returns the JSON raw of an answer as the command shows it:
// stored credentials (a webhook's or a group's password, an app's access
// key) and the members named in extra as REDACTED, URLs' passwords hidden,
// everything else byte for byte as it was.
func redactJSON(raw []byte, extra ...string) []byte { return redact.Answer(raw, extra...) }
