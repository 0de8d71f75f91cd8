package chat

import (
	"cmp"
	"context"
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

	"github.com/chatrest/chat/internal/hooks"
	"github.com/chatrest/chat/internal/rest"
)

// caller sends requests to one address of the platform's APIs with one set
// of credentials: it holds what every call to that address shares, and
// [caller.send] (request.go) is the call. A [Client] holds one for the chat
// API and one for the calls API; package management gets its own through
// internal/hooks. It is safe for concurrent use.
type caller struct {
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

// httpClient returns the client the callers built from o send through:
// a copy of WithHTTPClient's, or one over [NewTransport] that trusts the
// WithCAFile certificates besides the system's.
func (o *options) httpClient() (*http.Client, error) {
	if o.userClient != nil {
		if o.caFile != "" {
			return nil, newArgError("WithCAFile", "does not apply with WithHTTPClient: add the certificates to that client's TLS configuration")
		}
		cp := *o.userClient // the user's client is not modified
		return &cp, nil
	}
	t := NewTransport()
	if o.caFile != "" {
		pem, err := os.ReadFile(o.caFile)
		if err != nil {
			return nil, newArgError("WithCAFile", err.Error())
		}
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, newArgError("WithCAFile", fmt.Sprintf("%s holds no PEM certificate", o.caFile))
		}
		t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: t}, nil
}

// newCaller builds a caller for base from o, sending the credential
// headers creds (name → value) through a copy of hc (whose transport it
// shares). A WithBaseURL address replaces base's scheme and host and keeps
// its path.
func (o *options) newCaller(base *url.URL, creds map[string]string, hc *http.Client) (*caller, error) {
	if o.baseURL != "" {
		u, problem := rest.ParseBase(o.baseURL, o.loopbackHTTP, base.Path)
		if problem != "" {
			return nil, newArgError("baseURL", problem)
		}
		base = u
	}
	auth, secrets := http.Header{}, []string(nil)
	for name, v := range creds {
		switch {
		case !rest.ValidHeaderName(name):
			return nil, newArgError("credentials", fmt.Sprintf("the header name %q is not valid", name))
		case v == "":
			return nil, newArgError("credentials", "the "+name+" header must not be empty")
		case !rest.ValidHeader(v):
			return nil, newArgError("credentials", "the "+name+" header contains a control character")
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
	secrets = rest.WithEncodings(secrets)

	hcp := *hc
	hc = &hcp
	credentialHeaders := []string{"onBehalfOf"}
	for name := range auth {
		credentialHeaders = append(credentialHeaders, name)
	}
	hc.CheckRedirect = rest.CheckRedirect(hc.CheckRedirect, o.loopbackHTTP, credentialHeaders...)

	attempts := *hc
	attempts.Transport = sharedTransport{cmp.Or(hc.Transport, http.DefaultTransport)}

	retry := o.retry.withDefaults()
	return &caller{
		http:      hc,
		attempts:  &attempts,
		base:      strings.TrimSuffix(base.String(), "/"),
		basePath:  strings.TrimSuffix(base.Path, "/"),
		auth:      func() http.Header { return auth },
		secrets:   func() []string { return secrets },
		userAgent: []string{cmp.Or(o.userAgent, "chat-go/"+Version)}[:1:1],
		logger:    o.logger,
		timeout:   o.timeout,
		maxBytes:  cmp.Or(o.maxRespBytes, 32<<20),
		retry:     retry,
		backoff:   retry.backoff,
		limiter:   o.limiter,
	}, nil
}

// sharedTransport is the transport every call of a client shares, seen
// through RoundTrip alone. go-retryablehttp closes its HTTP client's idle
// connections whenever a call gives up (its retries spent, its context
// ended during a backoff, a permit refused); through this wrapper,
// http.Client.CloseIdleConnections finds nothing to close, and the
// connections the other calls are using stay in the pool.
// [Client.CloseIdleConnections] closes them through the transport itself.
type sharedTransport struct{ rt http.RoundTripper }

func (t sharedTransport) RoundTrip(r *http.Request) (*http.Response, error) { return t.rt.RoundTrip(r) }

// withBase returns a copy of c that sends to base with the same client,
// credentials and settings.
func (c *caller) withBase(base *url.URL) *caller {
	cp := *c
	cp.base = strings.TrimSuffix(base.String(), "/")
	cp.basePath = strings.TrimSuffix(base.Path, "/")
	return &cp
}

// Do sends req and decodes the JSON body of a successful answer into out,
// as [Client.Do] does: package management's services call it.
func (c *caller) Do(ctx context.Context, req *Request, out any, opts ...RequestOption) error {
	return c.send(ctx, req, out, opts)
}

// BaseURL is the address c sends to, path prefix included.
func (c *caller) BaseURL() string { return c.base }

// CloseIdleConnections closes the idle connections of c's transport.
func (c *caller) CloseIdleConnections() { c.http.CloseIdleConnections() }

func init() {
	// Package management's client is a caller for the Management API's
	// address per set of credentials (its key and secret, and HTTP Basic
	// auth for adding a tenant), all over one transport.
	hooks.NewCaller = func(baseURL string, creds []map[string]string, opts any) ([]any, error) {
		o, err := newOptions(opts.([]Option))
		if err != nil {
			return nil, err
		}
		switch {
		case o.regionSet:
			return nil, newArgError("options", "WithRegion does not apply: the address is given")
		case o.limiter != nil:
			return nil, newArgError("options", "WithLimiter applies to an app's chat API only")
		}
		base, problem := rest.ParseBase(baseURL, false, "")
		if problem != "" {
			return nil, newArgError("baseURL", problem)
		}
		hc, err := o.httpClient()
		if err != nil {
			return nil, err
		}
		callers := make([]any, len(creds))
		for i, cr := range creds {
			if callers[i], err = o.newCaller(base, cr, hc); err != nil {
				return nil, err
			}
		}
		return callers, nil
	}
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
