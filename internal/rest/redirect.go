package rest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// ErrRedirectRefused is returned by the redirect policy; it is not retried.
var ErrRedirectRefused = errors.New("redirect refused")

// Idempotent reports whether a request with this method may be repeated
// without changing the outcome.
func Idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// CheckRedirect wraps next (which may be nil, for net/http's default) with
// the SDK's rules:
//   - a POST or PATCH is never redirected;
//   - nothing is sent over plain http, unless loopbackHTTP (the client's
//     loopback opt-in) is set and the target is a loopback host;
//   - a request with a body (a PUT or DELETE whose body may carry a
//     secret) is not sent to another origin;
//   - once a redirect leaves the first request's origin (its scheme, host
//     name or port), that request and every later one of the chain go
//     without the credential headers and without an Authorization or
//     Cookie header, even when a later redirect comes back to the first
//     origin: the other host chose where it goes. (net/http itself keeps
//     Authorization for another port of the same host name, and sends it
//     again when a chain comes back.)
func CheckRedirect(next func(*http.Request, []*http.Request) error, loopbackHTTP bool, credentialHeaders ...string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if !Idempotent(first.Method) {
			return http.ErrUseLastResponse
		}
		if !strings.EqualFold(req.URL.Scheme, "https") &&
			!(loopbackHTTP && strings.EqualFold(req.URL.Scheme, "http") && IsLoopback(req.URL.Hostname())) {
			return fmt.Errorf("%w: %s:// is not https", ErrRedirectRefused, req.URL.Scheme)
		}
		left := !sameOrigin(req.URL, first.URL)
		for _, r := range via[1:] {
			left = left || !sameOrigin(r.URL, first.URL)
		}
		if left {
			if req.Body != nil && req.Body != http.NoBody || req.ContentLength > 0 {
				return fmt.Errorf("%w: a request with a body is not sent to another host", ErrRedirectRefused)
			}
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("%w: stopped after 10 redirects", ErrRedirectRefused)
		}
		return nil
	}
}

// sameOrigin reports whether a and b have the same scheme, host name and
// port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// ParseBase checks a base address given with a WithBaseURL option and
// returns it with suffix (a version prefix such as "/v3", or "") appended
// to its path. The second result says what is wrong, or is "".
func ParseBase(raw string, allowLoopbackHTTP bool, suffix string) (*url.URL, string) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "is not a valid URL"
	}
	switch {
	case u.Host == "":
		return nil, "must be an absolute URL with a host"
	case u.User != nil:
		return nil, "must not contain credentials"
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, "must not contain a query or fragment"
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !allowLoopbackHTTP {
			return nil, "must use https (plain http is allowed only for loopback tests, with WithInsecureLoopback)"
		}
		if !IsLoopback(u.Hostname()) {
			return nil, "may use plain http only for a loopback host"
		}
	default:
		return nil, "must use https"
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/") + suffix}, ""
}

// IsLoopback reports whether host is "localhost" or a loopback IP.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ValidHeader reports whether v can be sent as a header value: no control
// characters.
func ValidHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// ValidHeaderName reports whether k is a header field name as HTTP defines
// it: one or more token characters (RFC 9110, section 5.1), so no space,
// colon, CR or LF.
func ValidHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}
