package rest

import (
	"net/url"
	"strings"
)

// Redacted replaces secrets (API keys, auth tokens) wherever the SDK shows a
// request: in errors and in log lines.
const Redacted = "REDACTED"

// Path is a request path built from segments, each escaped on its own so that
// no input can add a segment, a query or a fragment, or climb with "..".
// The zero Path is the root.
type Path struct {
	escaped  string // what is sent, e.g. "/users/a%2Fb/auth_tokens/tok"
	redacted string // what is shown; "" when it equals escaped
	bad      bool   // a segment was empty, "." or ".."
	secrets  []string
}

// NewPath joins segments into a Path.
func NewPath(segments ...string) Path {
	var p Path
	n := 0
	for _, s := range segments {
		n += len(s) + 1
	}
	var b strings.Builder
	b.Grow(n + n/4)
	for _, s := range segments {
		p.bad = p.bad || !validSegment(s)
		b.WriteByte('/')
		b.WriteString(escapeSegment(s))
	}
	p.escaped = b.String()
	return p
}

// Secret returns p with one more segment whose value is a secret (an auth
// token or an API key): it is sent as given but shown as [Redacted].
func (p Path) Secret(segment string) Path {
	shown := p.Redacted()
	p.bad = p.bad || !validSegment(segment)
	p.escaped += "/" + escapeSegment(segment)
	p.redacted = shown + "/" + Redacted
	p.secrets = append(p.secrets[:len(p.secrets):len(p.secrets)], segment)
	return p
}

// Escaped is the path as it goes on the wire.
func (p Path) Escaped() string { return p.escaped }

// Redacted is the path with secret segments replaced, safe to print.
func (p Path) Redacted() string {
	if p.redacted == "" {
		return p.escaped
	}
	return p.redacted
}

// Valid reports whether every segment is non-empty and not a dot segment.
func (p Path) Valid() bool { return !p.bad }

func validSegment(s string) bool {
	return s != "" && s != "." && s != ".."
}

// escapeSegment escapes s for use as exactly one path segment.
func escapeSegment(s string) string {
	for i := 0; i < len(s); i++ {
		if !unreserved(s[i]) {
			return url.PathEscape(s)
		}
	}
	return s
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~'
}
