// Package management is the Management API: apps, tenants, collaborators,
// app settings, extensions, webhooks and their triggers, for accounts with
// multi-tenancy. It is served on https://apimgmt.cometchat.io, independent
// of any app or region, and authenticated with a management key and secret
// (headers "key" and "secret"), never with an app's API key.
//
//	mc, err := management.NewClient(key, secret)
//	if err != nil { ... }
//	hook, err := mc.Webhooks.Get(ctx, appID, "orders-hook")
//
// Failed calls return a [*chat.Error] and bad arguments a
// [*chat.ArgumentError], as in package chat, so the same [errors.Is] checks
// ([chat.ErrNotFound], ...) apply.
package management

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// DefaultBaseURL is the Management API's address.
const DefaultBaseURL = "https://apimgmt.cometchat.io"

// Client talks to the Management API. Create it with [NewClient]; it is
// safe for concurrent use.
//
// Printing a Client (with any fmt verb) shows its address, never its key or
// secret.
type Client struct {
	// Apps creates, lists and deletes apps and requests usage reports.
	Apps *AppsService
	// Tenants adds tenants: an account with its first app.
	Tenants *TenantsService
	// Collaborators adds, removes and lists an app's team members.
	Collaborators *CollaboratorsService
	// Settings maps, lists and unmaps an app's settings.
	Settings *SettingsService
	// Extensions lists, enables and configures an app's extensions.
	Extensions *ExtensionsService
	// Webhooks manages an app's webhooks and their triggers.
	Webhooks *WebhooksService
	// Moderation is the deprecated management variant of moderation rules,
	// keyword lists and blocked messages; use
	// [github.com/chatrest/chat.Client.Moderation] instead.
	Moderation *ModerationService

	rc *rest.Client
	hc *http.Client
}

// Option configures a [Client] in [NewClient].
type Option func(*options)

type options struct {
	httpClient    *http.Client
	baseURL       string
	loopbackHTTP  bool
	userAgent     string
	logger        *slog.Logger
	retry         chat.RetryPolicy
	timeout       time.Duration
	maxRespBytes  int64
	invalidOption string
}

// WithHTTPClient sends requests through hc, as [chat.WithHTTPClient] does:
// its Transport, TLS configuration, Timeout and Jar are honoured and
// retries wrap it; hc itself is not modified.
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.httpClient = hc } }

// WithBaseURL sends requests to u instead of [DefaultBaseURL], e.g. a
// proxy or a test server. It must be an https URL with no query, fragment
// or credentials; plain http is accepted only with [WithInsecureLoopback].
func WithBaseURL(u string) Option { return func(o *options) { o.baseURL = u } }

// WithInsecureLoopback allows a plain http [WithBaseURL] when its host is a
// loopback address, for tests.
func WithInsecureLoopback() Option { return func(o *options) { o.loopbackHTTP = true } }

// WithUserAgent replaces the User-Agent header.
func WithUserAgent(ua string) Option { return func(o *options) { o.userAgent = ua } }

// WithLogger logs each request and its outcome at debug level, as
// [chat.WithLogger] does; the key and secret are never logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithRetryPolicy replaces [chat.DefaultRetryPolicy], as
// [chat.WithRetryPolicy] does: zero waits mean the defaults, and which
// requests are retried is the same (a POST only when it cannot have
// reached the service, or on 429).
func WithRetryPolicy(p chat.RetryPolicy) Option {
	return func(o *options) {
		if problem := rest.RetryPolicy(p).Problem(); problem != "" {
			o.invalidOption = problem
			return
		}
		o.retry = p
	}
}

// WithoutRetries turns retries off.
func WithoutRetries() Option { return WithRetryPolicy(chat.RetryPolicy{}) }

// WithTimeout bounds every call, retries included.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithMaxResponseBytes caps the response body read (default 32 MiB).
func WithMaxResponseBytes(n int64) Option { return func(o *options) { o.maxRespBytes = n } }

// NewClient returns a Management API client authenticated with key and
// secret, which it sends as the "key" and "secret" headers of every
// request. Both must be non-empty; otherwise, or when an option is invalid,
// NewClient returns a [*chat.ArgumentError] naming the problem.
func NewClient(key, secret string, opts ...Option) (*Client, error) {
	o := options{retry: chat.DefaultRetryPolicy()}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	switch {
	case key == "":
		return nil, argError("key", "must not be empty")
	case !rest.ValidHeader(key):
		return nil, argError("key", "contains a control character")
	case secret == "":
		return nil, argError("secret", "must not be empty")
	case !rest.ValidHeader(secret):
		return nil, argError("secret", "contains a control character")
	case o.invalidOption != "":
		return nil, argError("options", o.invalidOption)
	case o.maxRespBytes < 0:
		return nil, argError("options", "max response bytes must not be negative")
	case o.timeout < 0:
		return nil, argError("options", "timeout must not be negative")
	}
	base, _ := url.Parse(DefaultBaseURL)
	if o.baseURL != "" {
		u, problem := rest.ParseBase(o.baseURL, o.loopbackHTTP, "")
		if problem != "" {
			return nil, argError("baseURL", problem)
		}
		base = u
	}
	rc, hc := rest.NewFromConfig(base, rest.Config{
		HTTPClient:        o.httpClient,
		NewTransport:      func() http.RoundTripper { return chat.NewTransport() },
		CredentialHeaders: []string{"key", "secret", "Authorization"},
		LoopbackHTTP:      o.loopbackHTTP,
		Auth: func(h http.Header) {
			h["Key"] = []string{key}
			h["Secret"] = []string{secret}
		},
		Secrets:          func() []string { return []string{key, secret} },
		UserAgent:        cmp.Or(o.userAgent, "chat-go/"+chat.Version+" (management)"),
		Logger:           o.logger,
		Timeout:          o.timeout,
		MaxResponseBytes: o.maxRespBytes,
		Retry:            rest.RetryPolicy(o.retry),
		NewError:         func(f *rest.Failure) error { return (*chat.Error)(f) },
		NewArgError:      argError,
	})
	c := &Client{rc: rc, hc: hc}
	c.Apps = &AppsService{rc: rc}
	c.Tenants = newTenantsService(rc, key, secret)
	c.Collaborators = &CollaboratorsService{rc: rc}
	c.Settings = &SettingsService{rc: rc}
	c.Extensions = &ExtensionsService{rc: rc}
	c.Webhooks = &WebhooksService{rc: rc}
	c.Moderation = &ModerationService{rc: rc}
	return c, nil
}

func argError(name, problem string) error { return &chat.ArgumentError{Name: name, Problem: problem} }

// BaseURL is the address the client sends to.
func (c *Client) BaseURL() string { return c.rc.Base() }

// CloseIdleConnections closes the idle connections of the client's
// transport. The client stays usable.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// String describes the client without its key or secret.
func (c *Client) String() string {
	if c == nil {
		return "management.Client(nil)"
	}
	return fmt.Sprintf("management.Client{BaseURL: %q}", c.BaseURL())
}

// GoString is String, so that %#v does not show the credentials either.
func (c *Client) GoString() string { return c.String() }

// Format prints [Client.String] for every verb.
func (c *Client) Format(f fmt.State, verb rune) { io.WriteString(f, c.String()) }

// RequestOption changes one call: [chat.WithHeader] works here too, and
// [WithWebhookVersion] selects the webhook implementation.
type RequestOption = chat.RequestOption
