package rest

import (
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config is what a public client's options set; [NewFromConfig] turns it into
// a Client the same way for chat, calls and management.
type Config struct {
	// HTTPClient is the caller's client; nil uses one over NewTransport.
	HTTPClient *http.Client
	// NewTransport makes the default transport.
	NewTransport func() http.RoundTripper
	// CredentialHeaders are dropped when a redirect leaves the host.
	CredentialHeaders []string
	// LoopbackHTTP is the client's opt-in to plain http for loopback
	// hosts; without it, nothing is sent over plain http, redirects
	// included.
	LoopbackHTTP     bool
	Auth             func(http.Header)
	Secrets          func() []string
	UserAgent        string
	Logger           *slog.Logger
	Timeout          time.Duration
	MaxResponseBytes int64 // 0 keeps the default
	Retry            RetryPolicy
	NewError         func(*Failure) error
	NewArgError      func(name, problem string) error
	Limiter          Limiter // nil: no client-side rate limiting
}

// NewFromConfig returns a Client for base configured by cfg, and the
// http.Client it sends through (whose idle connections the public client
// may close). The caller's http.Client is not modified: the redirect rules
// and the retry layer's guard go on a copy.
func NewFromConfig(base *url.URL, cfg Config) (*Client, *http.Client) {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: cfg.NewTransport()}
	}
	hcCopy := *hc
	hcCopy.Transport = KeepIdle(hc.Transport)
	hcCopy.CheckRedirect = CheckRedirect(hc.CheckRedirect, cfg.LoopbackHTTP, cfg.CredentialHeaders...)
	rc := New(base, &hcCopy, cfg.Retry)
	rc.Auth = cfg.Auth
	rc.Secrets = cfg.Secrets
	rc.UserAgent = cfg.UserAgent
	rc.uaHeader = []string{cfg.UserAgent}[:1:1]
	rc.Logger = cfg.Logger
	rc.Timeout = cfg.Timeout
	if cfg.MaxResponseBytes > 0 {
		rc.MaxResponseBytes = cfg.MaxResponseBytes
	}
	rc.NewError = cfg.NewError
	rc.NewArgError = cfg.NewArgError
	rc.Limiter = cfg.Limiter
	return rc, hc
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
func ValidHeader(v string) bool { return validHeaderValue(v) }
