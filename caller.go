package chat

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/chatrest/chat/internal/rest"
)

// Caller sends requests to one address of the platform's APIs through the
// SDK's one request path: path escaping, JSON bodies and queries, the
// credentials, retries, rate limiting, response decoding, errors, and the
// scrubbing of every credential from them. A [Client] holds one for the
// chat API and one for the calls API; package management builds its own
// with [NewCaller]. A Caller is safe for concurrent use.
//
// Most programs never use a Caller directly; [Client.Do] sends a request
// the SDK has no method for.
//
// Printing a Caller (with any fmt verb) shows its address, never its
// credentials.
type Caller struct {
	http     *retryablehttp.Client
	hc       *http.Client // the client requests go through, whose idle connections CloseIdleConnections closes
	base     string       // scheme, host and path prefix, without a trailing slash
	basePath string       // the path prefix of base, e.g. "/v3"

	loopbackHTTP bool               // plain http allowed to loopback hosts
	auth         func() http.Header // the credential headers; their slices are shared by every request
	secrets      func() []string    // the credentials' values and the forms a server may echo them in
	userAgent    []string           // []string{User-Agent}, shared by every request
	logger       *slog.Logger
	timeout      time.Duration
	maxBytes     int64
	retry        RetryPolicy
	limiter      Limiter
	appID        string // names the budgets a limiter keeps; "" for APIs outside an app
}

// Credentials are the headers that authenticate a [Caller]'s requests, by
// name: {"apikey": key} for the chat API, {"key": key, "secret": secret}
// for the management API. They are sent with every request, dropped when a
// redirect leaves the API's host, and scrubbed from every error and log
// line, as is the part after the scheme of an Authorization value
// ("Basic ...").
type Credentials map[string]Secret

// NewCaller returns a Caller for the API at baseURL (https, with an
// optional path prefix such as "/v3") authenticated with creds. The
// options are those of [NewClient]; a [WithBaseURL] address replaces
// baseURL's scheme and host and keeps its path ("https://127.0.0.1:8443"
// with "https://example.com/v3" sends to https://127.0.0.1:8443/v3).
// [WithRegion] and [WithLimiter], which concern an app's chat API, are
// refused. Problems are reported as an [*ArgumentError].
func NewCaller(baseURL string, creds Credentials, opts ...Option) (*Caller, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	switch {
	case o.regionSet:
		return nil, newArgError("options", "WithRegion does not apply to a Caller: its address is given")
	case o.limiter != nil:
		return nil, newArgError("options", "WithLimiter applies to an app's chat API only")
	}
	base, err := parseCallerBase(baseURL)
	if err != nil {
		return nil, err
	}
	return o.newCaller(base, creds)
}

// parseCallerBase checks the address NewCaller is given.
func parseCallerBase(raw string) (*url.URL, error) {
	u, problem := rest.ParseBase(raw, false, "")
	if problem != "" {
		return nil, newArgError("baseURL", problem)
	}
	return u, nil
}

// newCaller builds a Caller for base from o. A WithBaseURL address replaces
// base's scheme and host.
func (o *options) newCaller(base *url.URL, creds Credentials) (*Caller, error) {
	if o.baseURL != "" {
		u, problem := rest.ParseBase(o.baseURL, o.loopbackHTTP, base.Path)
		if problem != "" {
			return nil, newArgError("baseURL", problem)
		}
		base = u
	}
	c := &Caller{
		hc:           o.httpClient,
		loopbackHTTP: o.loopbackHTTP,
		userAgent:    []string{cmp.Or(o.userAgent, "chat-go/"+Version)}[:1:1],
		logger:       o.logger,
		timeout:      o.timeout,
		maxBytes:     cmp.Or(o.maxRespBytes, 32<<20),
		retry:        o.retry.withDefaults(),
		limiter:      o.limiter,
	}
	if c.hc == nil {
		c.hc = &http.Client{Transport: NewTransport()}
	}
	if err := c.setCredentials(creds); err != nil {
		return nil, err
	}
	c.setBase(base)
	return c, nil
}

// setCredentials makes c send creds, and builds the clients that send its
// requests: the redirect rules drop the credential headers.
func (c *Caller) setCredentials(creds Credentials) error {
	auth, names, secrets := http.Header{}, []string(nil), []string(nil)
	for name, v := range creds {
		switch {
		case !rest.ValidHeaderName(name):
			return newArgError("credentials", fmt.Sprintf("the header name %q is not valid", name))
		case v == "":
			return newArgError("credentials", "the "+name+" header must not be empty")
		case !rest.ValidHeader(string(v)):
			return newArgError("credentials", "the "+name+" header contains a control character")
		}
		auth[http.CanonicalHeaderKey(name)] = []string{string(v)}[:1:1]
		names = append(names, name)
		secrets = append(secrets, string(v))
		if scheme, cred, ok := strings.Cut(string(v), " "); ok && strings.EqualFold(name, "Authorization") {
			secrets = append(secrets, cred)
			if plain, err := base64.StdEncoding.DecodeString(cred); err == nil && strings.EqualFold(scheme, "Basic") {
				user, password, _ := strings.Cut(string(plain), ":")
				secrets = append(secrets, string(plain), user, password)
			}
		}
	}
	secrets = rest.WithEncodings(secrets)
	// Held by closures, so that no printing of the Caller, or of a value
	// holding it, can reach them: fmt prints a func as its address.
	c.auth = func() http.Header { return auth }
	c.secrets = func() []string { return secrets }
	hc := *c.hc // the caller's client is not modified
	hc.Transport = keepIdle{cmp.Or[http.RoundTripper](c.hc.Transport, http.DefaultTransport)}
	hc.CheckRedirect = rest.CheckRedirect(c.hc.CheckRedirect, c.loopbackHTTP, append(names, "onBehalfOf")...)
	c.http = &retryablehttp.Client{
		HTTPClient: &hc,
		// The policy counts the attempts of each call (RetryPolicy, and a
		// bulk import's further retries of a 429): retryablehttp's own
		// count never stops a call first.
		RetryMax:     math.MaxInt32,
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		CheckRetry:   c.checkRetry,
		Backoff:      c.backoff,
		PrepareRetry: c.prepareRetry,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	return nil
}

// setBase points c at base.
func (c *Caller) setBase(base *url.URL) {
	c.base = strings.TrimSuffix(base.String(), "/")
	c.basePath = strings.TrimSuffix(base.Path, "/")
}

// withBase returns a copy of c that sends to base with the same transport,
// credentials and settings.
func (c *Caller) withBase(base *url.URL) *Caller {
	cp := *c
	cp.setBase(base)
	return &cp
}

// WithCredentials returns a Caller that sends to the same address through
// the same transport with other credentials instead (package management
// authenticates its tenant calls with HTTP Basic auth). Invalid
// credentials give an [*ArgumentError].
func (c *Caller) WithCredentials(creds Credentials) (*Caller, error) {
	cp := *c
	if err := cp.setCredentials(creds); err != nil {
		return nil, err
	}
	return &cp, nil
}

// BaseURL is the address the Caller sends to, path prefix included, e.g.
// "https://myapp.api-us.cometchat.io/v3".
func (c *Caller) BaseURL() string { return c.base }

// CloseIdleConnections closes the idle connections of the Caller's
// transport. The Caller stays usable.
func (c *Caller) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// String describes the Caller without its credentials.
func (c Caller) String() string { return fmt.Sprintf("chat.Caller{BaseURL: %q}", c.base) }

// GoString is String, so that %#v does not show the credentials either.
func (c Caller) GoString() string { return c.String() }

// Format prints [Caller.String] for every verb.
func (c Caller) Format(f fmt.State, _ rune) { io.WriteString(f, c.String()) }

// keepIdle hides its transport's CloseIdleConnections from
// go-retryablehttp, which calls it whenever a call fails (a context ended,
// a 404 returned): on a client shared by many goroutines that would throw
// away every pooled connection whenever one call fails. Broken connections
// are still discarded by the transport itself.
type keepIdle struct{ rt http.RoundTripper }

func (k keepIdle) RoundTrip(r *http.Request) (*http.Response, error) { return k.rt.RoundTrip(r) }

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

// Do sends req to the chat API and decodes the JSON body of a successful
// answer into out (a pointer; nil discards it): the whole body, e.g.
// {"data": ...}. It is for endpoints the SDK has no method for, and goes
// through the same request path as every method: credentials, retries,
// rate limiting, errors. opts change this call only.
//
// A failed call returns a [*Error]; a bad request an [*ArgumentError]; a
// 2xx answer that leaves out at its zero value because it held no data a
// [*Error] wrapping [ErrEmptyResponse].
func (c *Client) Do(ctx context.Context, req *Request, out any, opts ...RequestOption) error {
	return c.api.Do(ctx, req, out, opts...)
}
