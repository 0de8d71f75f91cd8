package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat/internal/rest"
)

func TestServerWait(t *testing.T) {
	now := time.Date(2021, 7, 1, 12, 0, 0, 0, time.UTC)
	unix := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"15"}}, 15 * time.Second, true},
		{"seconds with blanks", http.Header{"Retry-After": {" 15 "}}, 15 * time.Second, true},
		{"zero seconds", http.Header{"Retry-After": {"0"}}, 0, true},
		{"huge seconds are too long", http.Header{"Retry-After": {"99999999999999"}}, tooLong, true},
		{"seconds beyond int64 are too long", http.Header{"Retry-After": {"99999999999999999999999"}}, tooLong, true},
		{"negative seconds are too long", http.Header{"Retry-After": {"-5"}}, tooLong, true},
		{"fractional seconds are too long", http.Header{"Retry-After": {"1.5"}}, tooLong, true},
		{"garbage is too long", http.Header{"Retry-After": {"soon"}}, tooLong, true},
		{"HTTP date", http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second, true},
		{"RFC 850 date", http.Header{"Retry-After": {now.Add(time.Minute).Format(time.RFC850)}}, time.Minute, true},
		{"ANSI C date", http.Header{"Retry-After": {now.Add(2 * time.Second).Format(time.ANSIC)}}, 2 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"a date far ahead", http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}, tooLong, true},
		{"rate-limit reset", http.Header{"X-Rate-Limit-Reset": {unix(20 * time.Second)}}, 20 * time.Second, true},
		{"rate-limit reset passed", http.Header{"X-Rate-Limit-Reset": {unix(-20 * time.Second)}}, 0, true},
		{"rate-limit reset zero is too long", http.Header{"X-Rate-Limit-Reset": {"0"}}, tooLong, true},
		{"rate-limit reset garbage is too long", http.Header{"X-Rate-Limit-Reset": {"tomorrow"}}, tooLong, true},
		{"rate-limit reset beyond int64 is too long", http.Header{"X-Rate-Limit-Reset": {"99999999999999999999999"}}, tooLong, true},
		{"rate-limit reset after the year 9999 is too long", http.Header{"X-Rate-Limit-Reset": {"999999999999"}}, tooLong, true},
		{"Retry-After wins over the reset", http.Header{"Retry-After": {"3"}, "X-Rate-Limit-Reset": {unix(time.Hour)}}, 3 * time.Second, true},
		{"a garbage Retry-After does not fall back to the reset", http.Header{"Retry-After": {"soon"}, "X-Rate-Limit-Reset": {unix(5 * time.Second)}}, tooLong, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := serverWait(http.StatusTooManyRequests, tt.header, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("the reset is a wait only for a 429", func(t *testing.T) {
		_, ok := serverWait(http.StatusNotFound, http.Header{"X-Rate-Limit-Reset": {unix(20 * time.Second)}}, now)
		assert.False(t, ok)
		d, ok := serverWait(http.StatusServiceUnavailable, http.Header{"Retry-After": {"2"}}, now)
		assert.True(t, ok)
		assert.Equal(t, 2*time.Second, d)
	})
	t.Run("a success or redirect asks for no wait", func(t *testing.T) {
		for _, status := range []int{http.StatusOK, http.StatusNoContent, http.StatusMovedPermanently} {
			_, ok := serverWait(status, http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}, now)
			assert.False(t, ok, status)
		}
	})
}

func TestBackoffBounds(t *testing.T) {
	c := DefaultRetryPolicy()
	const minWait, maxWait = 100 * time.Millisecond, 2 * time.Second
	for attempt := range 40 {
		step := maxWait
		if attempt < 30 && minWait<<attempt < maxWait {
			step = minWait << attempt
		}
		t.Run(fmt.Sprintf("attempt %d", attempt), func(t *testing.T) {
			lo, hi := step, time.Duration(0)
			for range 500 {
				d := c.backoff(minWait, maxWait, attempt, nil)
				assert.GreaterOrEqual(t, d, step/2)
				assert.LessOrEqual(t, d, step)
				lo, hi = min(lo, d), max(hi, d)
			}
			assert.Less(t, lo, hi, "no jitter")
		})
	}

	t.Run("overflowing shift is capped at the maximum", func(t *testing.T) {
		for _, attempt := range []int{29, 30, 31, 63, 64, 1000} {
			d := c.backoff(time.Hour, 2*time.Hour, attempt, nil)
			assert.GreaterOrEqual(t, d, time.Hour)
			assert.LessOrEqual(t, d, 2*time.Hour)
		}
	})
	t.Run("tiny waits", func(t *testing.T) {
		assert.Equal(t, time.Duration(1), c.backoff(1, 1, 0, nil))
		assert.Equal(t, time.Duration(0), c.backoff(0, 0, 3, nil))
	})
	t.Run("the server's delay is used as given", func(t *testing.T) {
		resp := &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {"7"}}}
		for attempt := range 4 {
			assert.Equal(t, 7*time.Second, c.backoff(minWait, maxWait, attempt, resp))
		}
		zero := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"0"}}}
		assert.Zero(t, c.backoff(minWait, maxWait, 2, zero))
	})
	t.Run("no wait is longer than MaxServerWait", func(t *testing.T) {
		for _, v := range []string{"Fri, 31 Dec 9999 23:59:59 GMT", "86400", "soon"} {
			resp := &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {v}}}
			assert.Equal(t, time.Minute, c.backoff(minWait, maxWait, 0, resp), v)
		}
	})
	t.Run("a success's Retry-After is no wait", func(t *testing.T) {
		// A GET whose 200 was cut short is retried after the backoff,
		// whatever Retry-After the 200 carried.
		resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}}
		d := c.backoff(minWait, maxWait, 0, resp)
		assert.GreaterOrEqual(t, d, minWait/2)
		assert.LessOrEqual(t, d, minWait)
	})
	t.Run("a response without a delay backs off exponentially", func(t *testing.T) {
		d := c.backoff(minWait, maxWait, 1, &http.Response{Header: http.Header{}})
		assert.GreaterOrEqual(t, d, minWait)
		assert.LessOrEqual(t, d, 2*minWait)
	})
}

func TestIdempotent(t *testing.T) {
	for method, want := range map[string]bool{
		http.MethodGet: true, http.MethodHead: true, http.MethodPut: true, http.MethodDelete: true, http.MethodOptions: true,
		http.MethodPost: false, http.MethodPatch: false, "": false, "get": false,
	} {
		assert.Equal(t, want, rest.Idempotent(method), method)
	}
}

func TestTransient(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", &url.Error{Op: "Get", URL: "u", Err: syscall.ECONNREFUSED}, true},
		{"connection reset", syscall.ECONNRESET, true},
		{"deadline of one attempt", &url.Error{Op: "Get", URL: "u", Err: context.DeadlineExceeded}, true},
		{"cancelled", fmt.Errorf("x: %w", context.Canceled), false},
		{"redirect refused", &url.Error{Op: "Get", URL: "u", Err: fmt.Errorf("%w: 10", rest.ErrRedirectRefused)}, false},
		{"unknown authority", &url.Error{Op: "Get", URL: "u", Err: x509.UnknownAuthorityError{}}, false},
		{"wrong host", x509.HostnameError{Host: "evil"}, false},
		{"expired", x509.CertificateInvalidError{Reason: x509.Expired}, false},
		{"verification", &tls.CertificateVerificationError{Err: errors.New("bad")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, transient(tt.err))
		})
	}
}
