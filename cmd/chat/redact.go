package main

import (
	"bytes"
	"io"
	"sync"
)

// redacted replaces a configured credential wherever the command would
// print it.
const redacted = "REDACTED"

// redactor writes to w with every occurrence of the credentials the command
// was configured with (the API key, the management key and secret)
// replaced by REDACTED: whatever an answer, an error or a log line holds,
// the command never prints them. It holds back the text after the last
// line break (or carriage return, which a progress bar ends its updates
// with) until the next one or Flush, so that a credential written in two
// pieces is still caught. It is safe for concurrent use.
type redactor struct {
	w io.Writer

	mu      sync.Mutex
	secrets [][]byte
	longest int
	pending []byte
}

// maxPending is how much text without a line break the redactor holds
// back before writing what cannot be part of a credential.
const maxPending = 64 << 10

func newRedactor(w io.Writer) *redactor { return &redactor{w: w} }

// redact adds the non-empty secrets to those replaced.
func (r *redactor) redact(secrets ...string) {
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

func (r *redactor) Write(p []byte) (int, error) {
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
func (r *redactor) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.writeOut(r.pending)
	r.pending = r.pending[:0]
	return err
}

func (r *redactor) writeOut(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := r.w.Write(r.replaced(b))
	return err
}

// replaced returns b with every credential replaced by REDACTED.
func (r *redactor) replaced(b []byte) []byte {
	for _, s := range r.secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(redacted))
		}
	}
	return b
}
