// Package redact is the one home of what the SDK, chattest and the command
// line hold to be a credential, and of the functions that hide one: the
// [Secret] type of the SDK's credential fields, the values a request
// carries ([SecretsIn], [WithEncodings], [Scrub]), and the JSON field
// names the APIs use for credentials.
package redact

import (
	"fmt"
	"io"
	"log/slog"
	"net/url"
)

// Redacted replaces a credential wherever one would show: in errors, log
// lines, the request log and the command line's output.
const Redacted = "REDACTED"

// Secret is a credential the API sends or receives: an API key, an auth
// token, a group's or a webhook's password, a push or email provider's
// key. On the wire it is a JSON string like any other, and string(s) is its
// value; but printing it with any fmt verb, or logging it with log/slog,
// shows REDACTED (an empty Secret shows as ""), and an error of a call whose
// request carried it never shows it, even when the service echoes it back.
type Secret string

// String returns REDACTED, or "" for an empty Secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return Redacted
}

// GoString is String, so that %#v hides the value too.
func (s Secret) GoString() string { return s.String() }

// Format prints String for every verb (%v, %s, %q, %x, %d, ...).
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	io.WriteString(f, s.String())
}

// LogValue makes log/slog show String.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// EncodeValues adds s's value to a query under key: a Secret in a
// request's query (encoded by github.com/google/go-querystring, which
// calls this method) is sent as its value, while printing it still shows
// REDACTED.
func (s Secret) EncodeValues(key string, v *url.Values) error {
	v.Add(key, string(s))
	return nil
}
