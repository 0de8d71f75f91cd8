package engine

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
)

// Version is the SDK's version, sent in the default User-Agent.
const Version = "0.1.0"

// Caller sends requests to one address of the platform's APIs with one set
// of credentials: it holds what every call to that address shares, and
// [Caller.Send] (request.go) is the call. A chat.Client holds one for the
// chat API and one for the calls API; a management.Client one per set of
// credentials ([NewCallers]). It is safe for concurrent use.
type Caller struct {
	http     *http.Client // the user's client or one over NewTransport, copied, with the SDK's redirect rules
	attempts *http.Client // http over a sharedTransport: the client go-retryablehttp sends each attempt through
	base     string       // scheme, host and path prefix, without a trailing slash
	basePath string       // the path prefix of base, e.g. "/v3"

	// The credential headers, and their values in the forms a server may
	// echo them in. Held by closures, so that no printing of the caller,
	// or of a value holding it, can reach them: fmt prints a func as its
	// address.
	auth    func() http.Header
	secrets func() []string

	userAgent []string // []string{User-Agent}, shared by every request
	logger    *slog.Logger
	timeout   time.Duration
	maxBytes  int64
	retry     RetryPolicy
	backoff   retryablehttp.Backoff // retry.backoff, made once
	limiter   Limiter
	appID     string // names the budgets a limiter keeps
}

// NewHTTPClient returns the client the callers built from o send through:
// a copy of WithHTTPClient's, or one over [NewTransport] that trusts the
// WithCAFile certificates besides the system's.
func (o *Options) NewHTTPClient() (*http.Client, error) {
	if o.HTTPClient != nil {
		if o.CAFile != "" {
			return nil, NewArgError("WithCAFile", "does not apply with WithHTTPClient: add the certificates to that client's TLS configuration")
		}
		cp := *o.HTTPClient // the user's client is not modified
		return &cp, nil
	}
	t := NewTransport()
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, NewArgError("WithCAFile", err.Error())
		}
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, NewArgError("WithCAFile", fmt.Sprintf("%s holds no PEM certificate", o.CAFile))
		}
		t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: t}, nil
}

// NewCaller builds a caller for base from o, sending the credential
// headers creds (name → value) through a copy of hc (whose transport it
// shares); appID, when not empty, names the budgets its limiter keeps. A
// WithBaseURL address replaces base's scheme and host and keeps its path.
func (o *Options) NewCaller(base *url.URL, appID string, creds map[string]string, hc *http.Client) (*Caller, error) {
	if o.BaseURL != "" {
		u, problem := rest.ParseBase(o.BaseURL, o.LoopbackHTTP, base.Path)
		if problem != "" {
			return nil, NewArgError("baseURL", problem)
		}
		base = u
	}
	auth, secrets := http.Header{}, []string(nil)
	for name, v := range creds {
		switch {
		case !rest.ValidHeaderName(name):
			return nil, NewArgError("credentials", fmt.Sprintf("the header name %q is not valid", name))
		case v == "":
			return nil, NewArgError("credentials", "the "+name+" header must not be empty")
		case !rest.ValidHeader(v):
			return nil, NewArgError("credentials", "the "+name+" header contains a control character")
		}
		auth[http.CanonicalHeaderKey(name)] = []string{v}[:1:1]
		secrets = append(secrets, v)
		if scheme, cred, ok := strings.Cut(v, " "); ok && strings.EqualFold(name, "Authorization") {
			secrets = append(secrets, cred)
			if plain, err := base64.StdEncoding.DecodeString(cred); err == nil && strings.EqualFold(scheme, "Basic") {
				user, password, _ := strings.Cut(string(plain), ":")
				secrets = append(secrets, string(plain), user, password)
			}
		}
	}
	secrets = redact.WithEncodings(secrets)

	hcp := *hc
	hc = &hcp
	credentialHeaders := []string{"onBehalfOf"}
	for name := range auth {
		credentialHeaders = append(credentialHeaders, name)
	}
	hc.CheckRedirect = rest.CheckRedirect(hc.CheckRedirect, o.LoopbackHTTP, credentialHeaders...)

	attempts := *hc
	attempts.Transport = sharedTransport{cmp.Or(hc.Transport, http.DefaultTransport)}

	retry := o.Retry.withDefaults()
	return &Caller{
		http:      hc,
		attempts:  &attempts,
		base:      strings.TrimSuffix(base.String(), "/"),
		basePath:  strings.TrimSuffix(base.Path, "/"),
		auth:      func() http.Header { return auth },
		secrets:   func() []string { return secrets },
		userAgent: []string{cmp.Or(o.UserAgent, "chat-go/"+Version)}[:1:1],
		logger:    o.Logger,
		timeout:   o.Timeout,
		maxBytes:  cmp.Or(o.MaxRespBytes, 32<<20),
		retry:     retry,
		backoff:   retry.backoff,
		limiter:   o.Limiter,
		appID:     appID,
	}, nil
}

// sharedTransport is the transport every call of a client shares, seen
// through RoundTrip alone. go-retryablehttp closes its HTTP client's idle
// connections whenever a call gives up (its retries spent, its context
// ended during a backoff, a permit refused); through this wrapper,
// http.Client.CloseIdleConnections finds nothing to close, and the
// connections the other calls are using stay in the pool.
// [github.com/chatrest/chat.Client.CloseIdleConnections] closes them through the transport itself.
type sharedTransport struct{ rt http.RoundTripper }

func (t sharedTransport) RoundTrip(r *http.Request) (*http.Response, error) { return t.rt.RoundTrip(r) }

// WithBase returns a copy of c that sends to base with the same client,
// credentials and settings.
func (c *Caller) WithBase(base *url.URL) *Caller {
	cp := *c
	cp.base = strings.TrimSuffix(base.String(), "/")
	cp.basePath = strings.TrimSuffix(base.Path, "/")
	return &cp
}

// BaseURL is the address c sends to, path prefix included.
func (c *Caller) BaseURL() string { return c.base }

// CloseIdleConnections closes the idle connections of c's transport.
func (c *Caller) CloseIdleConnections() { c.http.CloseIdleConnections() }

// NewCallers returns a caller for the API at baseURL (https, with an
// optional path prefix) per set of credential headers in creds (name →
// value), all over one transport: package management's client, whose key
// and secret go with most requests and whose HTTP Basic credentials go
// with adding a tenant. chat.WithRegion and chat.WithLimiter, which concern an
// app's chat API, are refused. Problems are reported as an
// [*ArgumentError].
func NewCallers(baseURL string, opts []Option, creds ...map[string]string) ([]*Caller, error) {
	o, err := NewOptions(opts)
	if err != nil {
		return nil, err
	}
	switch {
	case o.RegionSet:
		return nil, NewArgError("options", "WithRegion does not apply: the address is given")
	case o.Limiter != nil:
		return nil, NewArgError("options", "WithLimiter applies to an app's chat API only")
	}
	base, problem := rest.ParseBase(baseURL, false, "")
	if problem != "" {
		return nil, NewArgError("baseURL", problem)
	}
	hc, err := o.NewHTTPClient()
	if err != nil {
		return nil, err
	}
	callers := make([]*Caller, len(creds))
	for i, cr := range creds {
		if callers[i], err = o.NewCaller(base, "", cr, hc); err != nil {
			return nil, err
		}
	}
	return callers, nil
}

// NewTransport returns the transport a client uses by default: a clone of
// [http.DefaultTransport] tuned for many concurrent calls to one host (256
// idle connections per host instead of 2, HTTP/2 when the server offers it).
// Use it as the base when you need your own TLS settings.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	t.IdleConnTimeout = 90 * time.Second
	t.ForceAttemptHTTP2 = true
	return t
}
