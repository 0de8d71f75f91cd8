package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// This file holds what a program shows a user of the service's answers
// and of its own output: the command line's rules.

// Writer writes to w with every occurrence of the credentials it was
// given ([Writer.Redact]) replaced by REDACTED: whatever an answer, an
// error or a log line holds, a program writing through it never prints
// them (the command line writes its output and errors through one, with
// the API key and the management key and secret). It holds back the text
// after the last line break (or carriage return, which a progress bar
// ends its updates with) until the next one or Flush, so that a
// credential written in two pieces is still caught. It is safe for
// concurrent use.
type Writer struct {
	w io.Writer

	mu      sync.Mutex
	secrets [][]byte
	longest int
	pending []byte
}

// maxPending is how much text without a line break a Writer holds back
// before writing what cannot be part of a credential.
const maxPending = 64 << 10

// Format prints "redact.Writer" for every verb: printing a Writer never
// shows the credentials it replaces.
func (r *Writer) Format(f fmt.State, verb rune) { io.WriteString(f, "redact.Writer") }

// NewWriter returns a Writer to w that replaces no credential yet.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Redact adds the non-empty secrets to those replaced.
func (r *Writer) Redact(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		if s == "" {
			continue
		}
		r.secrets = append(r.secrets, []byte(s))
		r.longest = max(r.longest, len(s))
	}
}

// Write writes p, with the credentials replaced, up to its last line
// break; it holds back the rest.
func (r *Writer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, p...)
	end := bytes.LastIndexAny(r.pending, "\n\r") + 1
	if end == 0 && len(r.pending) > maxPending {
		// A long text without a line break: write all but what could be
		// the start of a credential, once those it holds are replaced.
		r.pending = r.replaced(r.pending)
		end = max(len(r.pending)-(r.longest-1), 0)
	}
	if end > 0 {
		if err := r.writeOut(r.pending[:end]); err != nil {
			return 0, err
		}
		r.pending = append(r.pending[:0], r.pending[end:]...)
	}
	return len(p), nil
}

// Flush writes what is held back.
func (r *Writer) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.writeOut(r.pending)
	r.pending = r.pending[:0]
	return err
}

func (r *Writer) writeOut(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := r.w.Write(r.replaced(b))
	return err
}

// replaced returns b with every credential replaced by REDACTED.
func (r *Writer) replaced(b []byte) []byte {
	for _, s := range r.secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(Redacted))
		}
	}
	return b
}

// StoredCredential reports whether a member of an answer named name holds
// a credential the service stores and answers with: a webhook's or a
// group's password, a management secret, an app's access key. No one is
// shown those. The credentials the service issues (an auth token, an API
// key) are shown to whoever asked for them, as the command line does.
func StoredCredential(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "password") || strings.HasSuffix(n, "secret") || n == "accesskey"
}

// hiddenMember reports whether a member of an answer named name is shown
// as REDACTED: a stored credential, or one of extra (in any letter case).
func hiddenMember(name string, extra []string) bool {
	return StoredCredential(name) || slices.ContainsFunc(extra, func(e string) bool { return strings.EqualFold(e, name) })
}

// Answer returns the JSON raw of an answer as shown to a user: the value
// of every member that holds a stored credential (see
// [StoredCredential]) or is named in extra replaced by "REDACTED", and
// the password of every URL in a string replaced as url.URL.Redacted does.
// Everything else stays byte for byte as it was. raw that is not JSON is
// returned as it is, for the caller's decoding to refuse.
func Answer(raw []byte, extra ...string) []byte {
	type span struct {
		start, end int
		with       []byte
	}
	var (
		edits []span
		dec   = json.NewDecoder(bytes.NewReader(raw))
		// stack holds, for each open container, whether it is an object
		// and, for an object, whether its next token is a member's name.
		stack []struct{ object, name bool }
		// hideFrom is where the hidden value being read started, and
		// hideDepth the depth of the stack it closes at; -1: none.
		hideFrom, hideDepth = 0, -1
		hideNext            bool
	)
	dec.UseNumber()
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			break
		}
		after := int(dec.InputOffset())
		// The token's first byte: past the separators before it.
		start := before + bytes.IndexFunc(raw[before:after], func(r rune) bool { return !strings.ContainsRune(" \t\r\n:,", r) })
		top := len(stack) - 1
		if top >= 0 && stack[top].object && stack[top].name {
			if _, isDelim := tok.(json.Delim); !isDelim {
				stack[top].name = false
				name, _ := tok.(string)
				hideNext = hideDepth < 0 && hiddenMember(name, extra)
				continue
			}
		}
		if top >= 0 && stack[top].object {
			stack[top].name = true // after this value, a name
		}
		hide := hideNext
		hideNext = false
		switch d, _ := tok.(json.Delim); d {
		case '{', '[':
			stack = append(stack, struct{ object, name bool }{d == '{', d == '{'})
			if hide {
				hideFrom, hideDepth = start, len(stack)-1
			}
		case '}', ']':
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].name = true
			}
			if len(stack) == hideDepth {
				edits = append(edits, span{hideFrom, after, []byte(`"` + Redacted + `"`)})
				hideDepth = -1
			}
		default:
			switch s, isString := tok.(string); {
			case hide:
				edits = append(edits, span{start, after, []byte(`"` + Redacted + `"`)})
			case isString && hideDepth < 0 && strings.Contains(s, "@"):
				if u, err := url.Parse(s); err == nil && u.User != nil {
					if _, hasPassword := u.User.Password(); hasPassword {
						var buf bytes.Buffer
						enc := json.NewEncoder(&buf)
						enc.SetEscapeHTML(false)
						enc.Encode(u.Redacted())
						edits = append(edits, span{start, after, bytes.TrimSpace(buf.Bytes())})
					}
				}
			}
		}
	}
	if len(edits) == 0 {
		return raw
	}
	out := make([]byte, 0, len(raw))
	at := 0
	for _, e := range edits {
		out = append(append(out, raw[at:e.start]...), e.with...)
		at = e.end
	}
	return append(out, raw[at:]...)
}
