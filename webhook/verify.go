package webhook

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// DefaultMaxBodyBytes is the largest delivery body a [Verifier] reads when
// its MaxBodyBytes is zero: 1 MiB. The service caps a message at 65,536
// characters; the largest payloads (a group created with many members, a
// moderation failure with a response body) stay well below it.
const DefaultMaxBodyBytes = 1 << 20

// Verifier checks and decodes the deliveries of one webhook. Set Username
// and Password to the webhook's username and password (the webhook must
// have useBasicAuth set). A Verifier is safe for concurrent use once it is
// set up.
//
// HTTP Basic auth is the only way deliveries authenticate: there is no
// signature header.
//
// Printing a Verifier (with any fmt verb) shows the password as REDACTED.
type Verifier struct {
	// Username is the webhook's Basic auth username.
	Username string
	// Password is the webhook's Basic auth password.
	Password string
	// Unauthenticated accepts deliveries without checking credentials, for
	// a webhook without useBasicAuth. Without it, a Verifier with no
	// Username rejects every delivery with ErrNoCredentials, so that
	// credentials missing from the configuration do not turn the check off.
	Unauthenticated bool
	// MaxBodyBytes is the largest body read; a larger one is an error,
	// ErrTooLarge, and is not read further. Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
}

// Format prints the verifier with its password redacted, for every verb.
func (v Verifier) Format(f fmt.State, verb rune) {
	type verifier Verifier
	p := verifier(v)
	if p.Password != "" {
		p.Password = "REDACTED"
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), p)
}

// Verify checks that r is a delivery of v's webhook and decodes it. In
// order, it checks that r is a POST (else ErrMethod), its Basic auth
// credentials (else ErrUnauthorized; username and password are both
// compared in constant time, so a wrong guess does not tell which one was
// wrong nor how much of it), that its Content-Type, when it has one, is
// JSON (else ErrContentType), and that its body is at most the limit (else
// ErrTooLarge; a declared Content-Length over the limit is rejected without
// reading). Then it decodes the body like [Decode].
//
// Verify reads r.Body but does not close it: the HTTP server does.
func (v *Verifier) Verify(r *http.Request) (Event, error) {
	if err := v.check(r); err != nil {
		return nil, err
	}
	body, err := v.read(r)
	if err != nil {
		return nil, err
	}
	return Decode(body)
}

// check checks everything but the body.
func (v *Verifier) check(r *http.Request) error {
	if v == nil {
		return ErrNoCredentials
	}
	if r.Method != http.MethodPost {
		return fmt.Errorf("%w, not %.20q", ErrMethod, r.Method)
	}
	if !v.Unauthenticated {
		if v.Username == "" {
			return ErrNoCredentials
		}
		user, pass, ok := r.BasicAuth()
		// Compare digests so that the comparison takes the same time
		// whatever the lengths, and both fields always, without an early
		// exit that would tell which one was wrong.
		gotUser, wantUser := sha256.Sum256([]byte(user)), sha256.Sum256([]byte(v.Username))
		gotPass, wantPass := sha256.Sum256([]byte(pass)), sha256.Sum256([]byte(v.Password))
		match := subtle.ConstantTimeCompare(gotUser[:], wantUser[:]) & subtle.ConstantTimeCompare(gotPass[:], wantPass[:])
		if !ok || match != 1 {
			return ErrUnauthorized
		}
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return fmt.Errorf("%w: Content-Type %.100q", ErrContentType, ct)
	}
	return nil
}

// isJSON reports whether the media type ct is JSON: application/json or a
// +json type.
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// read reads r's body, at most the limit.
func (v *Verifier) read(r *http.Request) ([]byte, error) {
	limit := v.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	if r.ContentLength > limit {
		return nil, fmt.Errorf("%w: %d bytes declared, the limit is %d", ErrTooLarge, r.ContentLength, limit)
	}
	if r.Body == nil {
		return nil, fmt.Errorf("%w: no body", ErrInvalidPayload)
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	// Read one byte more than the limit, to tell a body of exactly the
	// limit from a larger one.
	if _, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1)); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, fmt.Errorf("%w: %w", ErrTooLarge, err)
		}
		return nil, fmt.Errorf("webhook: reading the body: %w", err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	return buf.Bytes(), nil
}
