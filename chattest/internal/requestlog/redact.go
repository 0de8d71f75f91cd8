package requestlog

import "github.com/chatrest/chat/internal/redact"

// The rules of what the request log and the dashboard hide, and the
// redaction itself, are the SDK's one set (internal/redact): the same
// idea of a credential as the client's errors and the command line's
// output. This file gives them the credentials the server knows.

// Shown returns a text of the state as the dashboard shows it (a message,
// a webhook's URL, a delivery's error): with the credentials the server
// knows, the values written after a name that holds a credential and the
// passwords of URLs redacted, as in the request log; Redacted when it
// would still show one, decoded.
func (l *Log) Shown(s string) string {
	return redact.NewRedactor(scrubber{known: &l.secrets}).Value(s)
}
