package rest

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
		{"huge seconds are too long", http.Header{"Retry-After": {"99999999999999"}}, TooLong, true},
		{"seconds beyond int64 are too long", http.Header{"Retry-After": {"99999999999999999999999"}}, TooLong, true},
		{"negative seconds are too long", http.Header{"Retry-After": {"-5"}}, TooLong, true},
		{"fractional seconds are too long", http.Header{"Retry-After": {"1.5"}}, TooLong, true},
		{"garbage is too long", http.Header{"Retry-After": {"soon"}}, TooLong, true},
		{"HTTP date", http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second, true},
		{"RFC 850 date", http.Header{"Retry-After": {now.Add(time.Minute).Format(time.RFC850)}}, time.Minute, true},
		{"ANSI C date", http.Header{"Retry-After": {now.Add(2 * time.Second).Format(time.ANSIC)}}, 2 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"a date far ahead", http.Header{"Retry-After": {"Fri, 31 Dec 9999 23:59:59 GMT"}}, TooLong, true},
		{"rate-limit reset", http.Header{"X-Rate-Limit-Reset": {unix(20 * time.Second)}}, 20 * time.Second, true},
		{"rate-limit reset passed", http.Header{"X-Rate-Limit-Reset": {unix(-20 * time.Second)}}, 0, true},
		{"rate-limit reset zero is too long", http.Header{"X-Rate-Limit-Reset": {"0"}}, TooLong, true},
		{"rate-limit reset garbage is too long", http.Header{"X-Rate-Limit-Reset": {"tomorrow"}}, TooLong, true},
		{"rate-limit reset beyond int64 is too long", http.Header{"X-Rate-Limit-Reset": {"99999999999999999999999"}}, TooLong, true},
		{"rate-limit reset after the year 9999 is too long", http.Header{"X-Rate-Limit-Reset": {"999999999999"}}, TooLong, true},
		{"Retry-After wins over the reset", http.Header{"Retry-After": {"3"}, "X-Rate-Limit-Reset": {unix(time.Hour)}}, 3 * time.Second, true},
		{"a garbage Retry-After does not fall back to the reset", http.Header{"Retry-After": {"soon"}, "X-Rate-Limit-Reset": {unix(5 * time.Second)}}, TooLong, true},
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
}

func TestBackoffBounds(t *testing.T) {
	c := &Client{}
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
		resp := &http.Response{Header: http.Header{"Retry-After": {"7"}}}
		for attempt := range 4 {
			assert.Equal(t, 7*time.Second, c.backoff(minWait, maxWait, attempt, resp))
		}
		zero := &http.Response{Header: http.Header{"Retry-After": {"0"}}}
		assert.Zero(t, c.backoff(minWait, maxWait, 2, zero))
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
		assert.Equal(t, want, idempotent(method), method)
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
		{"redirect refused", &url.Error{Op: "Get", URL: "u", Err: fmt.Errorf("%w: 10", errRedirectRefused)}, false},
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

// TestCheckRetry drives the retry decision directly, attempt by attempt.
func TestCheckRetry(t *testing.T) {
	c := &Client{Retry: RetryPolicy{MaxRetries: 3, MaxServerWait: time.Minute}}
	resp := func(status int, kv ...string) *http.Response {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return &http.Response{StatusCode: status, Header: h}
	}
	tests := []struct {
		name       string
		method     string
		gotConn    bool
		resp       *http.Response
		err        error
		want       bool
		wantErr    bool
		cancelled  bool
		noDeadline bool
	}{
		{name: "GET 503", method: "GET", resp: resp(503), want: true},
		{name: "GET 501", method: "GET", resp: resp(501)},
		{name: "GET 200", method: "GET", resp: resp(200)},
		{name: "PUT 500", method: "PUT", resp: resp(500), want: true},
		{name: "POST 503", method: "POST", resp: resp(503)},
		{name: "PATCH 502", method: "PATCH", resp: resp(502)},
		{name: "POST 429", method: "POST", resp: resp(429), want: true},
		{name: "POST 429 asking for too long", method: "POST", resp: resp(429, "Retry-After", "61")},
		{name: "GET 503 asking for too long", method: "GET", resp: resp(503, "Retry-After", "3600")},
		{name: "GET error", method: "GET", err: syscall.ECONNRESET, gotConn: true, want: true},
		{name: "POST error without a connection", method: "POST", err: syscall.ECONNREFUSED, want: true},
		{name: "POST error after a connection", method: "POST", err: syscall.ECONNRESET, gotConn: true},
		{name: "PATCH error after a connection", method: "PATCH", err: syscall.ECONNRESET, gotConn: true},
		{name: "PUT error without a connection", method: "PUT", err: syscall.ECONNREFUSED, want: true},
		{name: "PUT error after a connection", method: "PUT", err: syscall.ECONNRESET, gotConn: true},
		{name: "DELETE error after a connection", method: "DELETE", err: syscall.ECONNRESET, gotConn: true},
		{name: "DELETE 503", method: "DELETE", resp: resp(503), want: true},
		{name: "GET certificate error", method: "GET", err: x509.UnknownAuthorityError{}},
		{name: "cancelled context", method: "GET", resp: resp(503), cancelled: true, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &callState{idempotent: idempotent(tt.method), safe: safe(tt.method), method: tt.method}
			ctx, cancel := context.WithCancel(withState(context.Background(), st))
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			st.gotConn.Store(tt.gotConn)
			retry, err := c.checkRetry(ctx, tt.resp, tt.err)
			assert.Equal(t, tt.want, retry)
			assert.Equal(t, tt.wantErr, err != nil, "error %v", err)
			assert.Equal(t, 1, st.attempts)
			assert.False(t, st.gotConn.Load(), "the connection flag is reset for the next attempt")
		})
	}

	t.Run("a wait past the deadline is not taken", func(t *testing.T) {
		st := &callState{idempotent: true, safe: true, method: "GET"}
		ctx, cancel := context.WithTimeout(withState(context.Background(), st), 10*time.Second)
		defer cancel()
		retry, err := c.checkRetry(ctx, resp(429, "Retry-After", "30"), nil)
		assert.NoError(t, err)
		assert.False(t, retry)
		retry, err = c.checkRetry(ctx, resp(429, "Retry-After", "1"), nil)
		assert.NoError(t, err)
		assert.True(t, retry)
	})

	t.Run("the budget counts every attempt of the call", func(t *testing.T) {
		st := &callState{idempotent: true, safe: true, method: "GET", attempts: 3}
		retry, err := c.checkRetry(withState(context.Background(), st), resp(503), nil)
		assert.NoError(t, err)
		assert.False(t, retry, "a fourth attempt would exceed MaxRetries 3")
	})

	t.Run("no state, no retry", func(t *testing.T) {
		retry, err := c.checkRetry(context.Background(), resp(503), nil)
		assert.False(t, retry)
		assert.NoError(t, err)
	})
}
