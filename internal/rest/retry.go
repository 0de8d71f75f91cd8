package rest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// RetryPolicy says how often and how long the client retries a failed request.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt; 0 turns
	// retries off.
	MaxRetries int
	// MinWait is the first backoff; each later one doubles, up to MaxWait,
	// with jitter.
	MinWait time.Duration
	// MaxWait caps the exponential backoff.
	MaxWait time.Duration
	// MaxServerWait is the longest Retry-After or X-Rate-Limit-Reset delay
	// the client waits for; a server asking for a longer wait gets its error
	// returned at once instead.
	MaxServerWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without one: 3
// retries, backoff from 250ms to 10s, server-requested waits up to 60s.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, MinWait: 250 * time.Millisecond, MaxWait: 10 * time.Second, MaxServerWait: time.Minute}

// withDefaults returns p with its zero waits replaced by the defaults, as
// the public RetryPolicy types document: zero means the default.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MinWait <= 0 {
		p.MinWait = DefaultRetryPolicy.MinWait
	}
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultRetryPolicy.MaxWait
	}
	if p.MaxServerWait <= 0 {
		p.MaxServerWait = DefaultRetryPolicy.MaxServerWait
	}
	return p
}

// Problem says what is wrong with p, or is "" when it is valid: no value
// may be negative.
func (p RetryPolicy) Problem() string {
	if p.MaxRetries < 0 || p.MinWait < 0 || p.MaxWait < 0 || p.MaxServerWait < 0 {
		return "retry policy values must not be negative"
	}
	return ""
}

// callState follows one call across its attempts. It travels in the
// request's context, which go-retryablehttp hands to CheckRetry.
type callState struct {
	idempotent bool        // PUT, DELETE and the safe methods: repeating one changes nothing more
	safe       bool        // GET, HEAD, OPTIONS: the request changes nothing
	gotConn    atomic.Bool // the current attempt obtained a connection
	attempts   int
	shownPath  string // the path with secrets redacted, without the base's prefix
	method     string
	call       *Call // the call, whose credentials are scrubbed from errors and logs

	// ctx and trace are set by withState. They live in the state so that
	// attaching the state to a context and tracing its connections cost no
	// allocations of their own.
	ctx   stateContext
	trace httptrace.ClientTrace
	body  io.LimitedReader // the response body, read up to MaxResponseBytes+1
}

type stateKey struct{}

// stateContext is the call's context with its state attached: what
// context.WithValue(ctx, stateKey{}, st) gives, held inside st.
type stateContext struct {
	context.Context
	st *callState
}

func (c *stateContext) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.st
	}
	return c.Context.Value(key)
}

func stateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(stateKey{}).(*callState)
	return st
}

// withState attaches st to ctx. For a method that writes it also traces
// whether an attempt obtained a connection: a request that never had one was
// certainly not received, so it may be sent again.
func withState(ctx context.Context, st *callState) context.Context {
	st.ctx = stateContext{Context: ctx, st: st}
	ctx = &st.ctx
	if !st.safe {
		st.trace.GotConn = st.gotConnection
		ctx = httptrace.WithClientTrace(ctx, &st.trace)
	}
	return ctx
}

func (st *callState) gotConnection(httptrace.GotConnInfo) { st.gotConn.Store(true) }

// safe reports whether a request with this method only reads.
func safe(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// idempotent reports whether a request with this method may be repeated
// without changing the outcome.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// checkRetry decides, after each attempt, whether to try again.
//
// GET is retried on connection errors, 429, 500, 502, 503 and 504 (and, by
// Do, on a 2xx whose body is cut short or not JSON). PUT and DELETE are
// retried on 429, 500, 502, 503 and 504, which the service answered, and
// on connection errors only when no connection was obtained: never when the
// answer was lost after the request was sent, which the service may have
// applied. POST and PATCH are retried only on 429 (the service did not
// process the request) and when no connection was obtained; never after a
// 5xx or a timeout, where the server may have acted.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := stateFrom(ctx)
	if st == nil {
		return false, nil
	}
	st.attempts++
	gotConn := st.gotConn.Swap(false)
	c.logAttempt(ctx, st, resp, err)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if st.attempts > c.Retry.MaxRetries {
		return false, nil // the call's budget, counted across Do's own repeats
	}
	if err != nil {
		if !transient(err) {
			return false, nil
		}
		// A write whose request may have reached the service is not sent
		// again: it would be applied twice (a PUT's side effects, such as
		// an edit's action message and webhook event, repeat).
		return st.safe || !gotConn, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return c.serverWaitAcceptable(ctx, resp), nil
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return st.idempotent && c.serverWaitAcceptable(ctx, resp), nil
	}
	return false, nil
}

// serverWaitAcceptable reports whether the delay the server asks for (if
// any) is within the policy's cap and ends before the context's deadline.
// A wait the SDK cannot read is too long.
func (c *Client) serverWaitAcceptable(ctx context.Context, resp *http.Response) bool {
	d, asked := serverWait(resp.StatusCode, resp.Header, time.Now())
	if !asked {
		return true
	}
	if d > c.Retry.MaxServerWait {
		return false
	}
	if dl, ok := ctx.Deadline(); ok && time.Now().Add(d).After(dl) {
		return false
	}
	return true
}

// backoff is the wait before retry number attempt+1: the server's
// Retry-After or X-Rate-Limit-Reset when it sent one, otherwise exponential
// from min to max with jitter (a random point in the upper half).
func (c *Client) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, asked := serverWait(resp.StatusCode, resp.Header, time.Now()); asked {
			return d
		}
	}
	d := maxWait
	if attempt < 30 {
		if e := minWait << attempt; e > 0 && e < maxWait {
			d = e
		}
	}
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// TooLong is the wait that a Retry-After or X-Rate-Limit-Reset header the
// SDK cannot read (text, a negative number, a number too large to
// represent) stands for: longer than any cap, so the call returns its
// error at once instead of retrying.
const TooLong = time.Duration(math.MaxInt64)

// serverWait reads the wait an answer asks for: Retry-After, in seconds or
// as an HTTP date; else, for a 429, until X-Rate-Limit-Reset (Unix
// seconds). asked is false when it asks for none. Every loop of the SDK
// that waits for a server reads the wait here.
func serverWait(status int, h http.Header, now time.Time) (d time.Duration, asked bool) {
	if v := h.Get("Retry-After"); v != "" {
		return retryAfter(v, now), true
	}
	if status != http.StatusTooManyRequests {
		return 0, false
	}
	if v := h.Get("X-Rate-Limit-Reset"); v != "" {
		s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || s <= 0 || s > MaxUnix {
			return TooLong, true
		}
		return max(time.Unix(s, 0).Sub(now), 0), true
	}
	return 0, false
}

// retryAfter reads a Retry-After value: seconds or an HTTP date (a date
// past is no wait); anything else is TooLong.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(TooLong/time.Second) {
			return TooLong
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return TooLong
}

// transient reports whether a transport error may go away on its own.
// Certificate problems and redirect refusals do not.
func transient(err error) bool {
	var (
		certErr    *tls.CertificateVerificationError
		unknownCA  x509.UnknownAuthorityError
		hostErr    x509.HostnameError
		invalidErr x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, context.Canceled),
		errors.Is(err, errRedirectRefused),
		errors.As(err, &certErr), errors.As(err, &unknownCA),
		errors.As(err, &hostErr), errors.As(err, &invalidErr):
		return false
	}
	return true
}

func (c *Client) logAttempt(ctx context.Context, st *callState, resp *http.Response, err error) {
	if c.Logger == nil || !c.Logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", st.method),
		slog.String("path", c.basePath+st.shownPath),
		slog.Int("attempt", st.attempts),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", redactErr(err, c.base+st.shownPath, c.callSecrets(st.call)).Error()))
	} else {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	c.Logger.LogAttrs(ctx, slog.LevelDebug, "chat: attempt", attrs...)
}
