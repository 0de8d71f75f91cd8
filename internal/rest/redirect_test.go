package rest

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckRedirect(t *testing.T) {
	req := func(method, rawURL string, kv ...string) *http.Request {
		r, err := http.NewRequest(method, rawURL, nil)
		require.NoError(t, err)
		for i := 0; i+1 < len(kv); i += 2 {
			r.Header.Set(kv[i], kv[i+1])
		}
		return r
	}
	policy := CheckRedirect(nil, false, "apikey", "onBehalfOf")

	t.Run("POST and PATCH are not followed", func(t *testing.T) {
		for _, m := range []string{http.MethodPost, http.MethodPatch} {
			first := req(m, "https://a.example.com/v3/messages")
			next := req(http.MethodGet, "https://a.example.com/v3/messages/1")
			assert.ErrorIs(t, policy(next, []*http.Request{first}), http.ErrUseLastResponse, m)
		}
	})

	tests := []struct {
		name    string
		next    string
		keepKey bool
	}{
		{"same host", "https://a.example.com/v3/users/2", true},
		{"another host", "https://b.example.com/v3/users/2", false},
		{"another port", "https://a.example.com:8443/v3/users/2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := req(http.MethodGet, "https://a.example.com/v3/users/1", "apikey", "k", "onBehalfOf", "u")
			next := req(http.MethodGet, tt.next, "apikey", "k", "onBehalfOf", "u", "Accept", "application/json")
			require.NoError(t, policy(next, []*http.Request{first}))
			assert.Equal(t, tt.keepKey, next.Header.Get("apikey") != "")
			assert.Equal(t, tt.keepKey, next.Header.Get("onBehalfOf") != "")
			assert.Equal(t, "application/json", next.Header.Get("Accept"), "other headers kept")
		})
	}

	t.Run("never down to plain http", func(t *testing.T) {
		for _, next := range []string{"http://a.example.com/v3/users/2", "http://127.0.0.1/v3/users/2", "HTTP://a.example.com/x", "ftp://a.example.com/x"} {
			first := req(http.MethodGet, "https://a.example.com/v3/users/1", "apikey", "k")
			err := policy(req(http.MethodGet, next, "apikey", "k"), []*http.Request{first})
			assert.ErrorIs(t, err, ErrRedirectRefused, next)
		}
	})

	t.Run("plain http to loopback only with the opt-in", func(t *testing.T) {
		loopback := CheckRedirect(nil, true, "apikey")
		first := req(http.MethodGet, "http://127.0.0.1:8080/v3/users/1", "apikey", "k")
		for next, ok := range map[string]bool{
			"http://127.0.0.1:8080/v3/users/2": true, "http://localhost:9090/x": true, "http://[::1]/x": true,
			"https://b.example.com/x": true, "http://b.example.com/x": false, "http://10.0.0.1/x": false,
		} {
			err := loopback(req(http.MethodGet, next), []*http.Request{first})
			if ok {
				assert.NoError(t, err, next)
			} else {
				assert.ErrorIs(t, err, ErrRedirectRefused, next)
			}
		}
	})

	t.Run("a body is not sent to another host", func(t *testing.T) {
		first := req(http.MethodPut, "https://a.example.com/v3/x", "apikey", "k")
		withBody := func(u string) *http.Request {
			r, err := http.NewRequest(http.MethodPut, u, strings.NewReader(`{"secret":"s"}`))
			require.NoError(t, err)
			return r
		}
		assert.ErrorIs(t, policy(withBody("https://b.example.com/v3/x"), []*http.Request{first}), ErrRedirectRefused)
		assert.NoError(t, policy(withBody("https://a.example.com/v3/y"), []*http.Request{first}), "the same host")
	})

	t.Run("stops after 10 redirects", func(t *testing.T) {
		var via []*http.Request
		for range 10 {
			via = append(via, req(http.MethodGet, "https://a.example.com/x"))
		}
		err := policy(req(http.MethodGet, "https://a.example.com/y"), via)
		assert.ErrorIs(t, err, ErrRedirectRefused)
	})

	t.Run("the caller's policy runs after the SDK's", func(t *testing.T) {
		sentinel := errors.New("mine")
		var sawKey string
		p := CheckRedirect(func(r *http.Request, _ []*http.Request) error { sawKey = r.Header.Get("apikey"); return sentinel }, false, "apikey")
		first := req(http.MethodGet, "https://a.example.com/1", "apikey", "k")
		err := p(req(http.MethodGet, "https://b.example.com/2", "apikey", "k"), []*http.Request{first})
		assert.ErrorIs(t, err, sentinel)
		assert.Empty(t, sawKey, "the caller's policy saw the key")
	})
}

func TestValidHeaderValue(t *testing.T) {
	for v, want := range map[string]bool{
		"cometchat-uid-1": true, "with space": true, "tab\there": true, "ünïcode": true, "": true,
		"cr\r": false, "lf\n": false, "nul\x00": false, "del\x7f": false, "\x1b[31m": false,
	} {
		assert.Equal(t, want, ValidHeader(v), "%q", v)
	}
}
