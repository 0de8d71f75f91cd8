package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// RetryPolicy says how often and how long the client retries a failed
// request. See [github.com/chatrest/chat.WithRetryPolicy] for which requests are retried. No value
// may be negative; zero waits mean the defaults.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt; 0 turns
	// retries off.
	MaxRetries int
	// MinWait is the first backoff; each later one doubles, up to MaxWait,
	// with jitter. Zero means the default (250ms).
	MinWait time.Duration
	// MaxWait caps the exponential backoff. Zero means the default (10s).
	MaxWait time.Duration
	// MaxServerWait is the longest wait the client accepts from a server's
	// Retry-After or X-Rate-Limit-Reset; when the server asks for longer,
	// or for a wait the client cannot read, the error is returned at once.
	// Zero means the default (60s).
	MaxServerWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without
// [github.com/chatrest/chat.WithRetryPolicy]: 3 retries, backoff from 250ms to 10s, server-requested
// waits up to 60s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 3, MinWait: 250 * time.Millisecond, MaxWait: 10 * time.Second, MaxServerWait: time.Minute}
}

// withDefaults returns p with its zero waits replaced by the defaults.
func (p RetryPolicy) withDefaults() RetryPolicy {
	def := DefaultRetryPolicy()
	if p.MinWait <= 0 {
		p.MinWait = def.MinWait
	}
	if p.MaxWait <= 0 {
		p.MaxWait = def.MaxWait
	}
	if p.MaxServerWait <= 0 {
		p.MaxServerWait = def.MaxServerWait
	}
	return p
}

// retryable is the retry policy: after attempt number attempt of a call
// with this method, which ended with resp or err, it reports whether to
// send the request again. connected says whether the attempt obtained a
// connection (a write that did may have reached the service); broken,
// whether a 2xx's body was cut short or was not JSON.
//
// GET is retried on connection errors, 429, 500, 502, 503 and 504, and on a
// broken 2xx. PUT and DELETE are retried on 429, 500, 502, 503 and 504,
// which the service answered, and on connection errors only when no
// connection was obtained: never when the answer was lost after the
// request was sent, which the service may have applied (a PUT's side
// effects, such as an edit's action message and webhook event, would
// repeat). POST and PATCH are retried only on 429 (the service did not
// process the request) and when no connection was obtained; never after a
// 5xx or a timeout, where the server may have acted. A server wait beyond
// MaxServerWait, one the client cannot read, or one that would pass the
// context's deadline ends the retries.
//
// The number of retries is go-retryablehttp's RetryMax: MaxRetries, plus
// a bulk import's further retries of a 429, which no other answer uses.
func (p RetryPolicy) retryable(ctx context.Context, method string, attempt int, resp *http.Response, err error, connected, broken bool) bool {
	if attempt > p.MaxRetries && (resp == nil || resp.StatusCode != http.StatusTooManyRequests) {
		return false
	}
	if err != nil {
		return transient(err) && (safe(method) || !connected)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return p.serverWaitAcceptable(ctx, resp)
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return rest.Idempotent(method) && p.serverWaitAcceptable(ctx, resp)
	}
	return broken && safe(method)
}

// serverWaitAcceptable reports whether the delay the server asks for (if
// any) is within the policy's cap and ends before the context's deadline.
// A wait the client cannot read is too long.
func (p RetryPolicy) serverWaitAcceptable(ctx context.Context, resp *http.Response) bool {
	d, asked := serverWait(resp.StatusCode, resp.Header, time.Now())
	if !asked {
		return true
	}
	if d > p.MaxServerWait {
		return false
	}
	if dl, ok := ctx.Deadline(); ok && time.Now().Add(d).After(dl) {
		return false
	}
	return true
}

// backoff is go-retryablehttp's Backoff hook, the wait before retry number
// attempt+1: the server's Retry-After or X-Rate-Limit-Reset when it sent
// one, otherwise exponential from minWait to maxWait with jitter (a random
// point in the upper half).
func (p RetryPolicy) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, asked := serverWait(resp.StatusCode, resp.Header, time.Now()); asked {
			// retryable has refused a wait beyond the cap; the cap holds
			// here too, so that no path waits longer.
			return min(d, p.MaxServerWait)
		}
	}
	return jitteredBackoff(minWait, maxWait, attempt)
}

// jitteredBackoff is the exponential backoff before retry number attempt+1.
func jitteredBackoff(minWait, maxWait time.Duration, attempt int) time.Duration {
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

// tooLong is the wait that a Retry-After or X-Rate-Limit-Reset header the
// client cannot read (text, a negative number, a number too large to
// represent) stands for: longer than any cap, so the call returns its
// error at once instead of retrying.
const tooLong = time.Duration(math.MaxInt64)

// serverWait reads the wait an error answer asks for: Retry-After, in
// seconds or as an HTTP date; else, for a 429, until X-Rate-Limit-Reset
// (Unix seconds). asked is false when it asks for none. A success or a
// redirect asks for no wait, whatever its headers say: a 2xx retried
// because its body was cut short waits the policy's backoff. Every wait
// for a server in the SDK is read here.
func serverWait(status int, h http.Header, now time.Time) (d time.Duration, asked bool) {
	if status < 400 {
		return 0, false
	}
	if v := h.Get("Retry-After"); v != "" {
		return retryAfter(v, now), true
	}
	if status != http.StatusTooManyRequests {
		return 0, false
	}
	if v := h.Get("X-Rate-Limit-Reset"); v != "" {
		s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || s <= 0 || s > rest.MaxUnix {
			return tooLong, true
		}
		return max(time.Unix(s, 0).Sub(now), 0), true
	}
	return 0, false
}

// retryAfter reads a Retry-After value: seconds or an HTTP date (a date
// past is no wait); anything else is tooLong.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(tooLong/time.Second) {
			return tooLong
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return tooLong
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
		errors.Is(err, rest.ErrRedirectRefused),
		errors.As(err, &certErr), errors.As(err, &unknownCA),
		errors.As(err, &hostErr), errors.As(err, &invalidErr):
		return false
	}
	return true
}
