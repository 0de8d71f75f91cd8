package chat

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// Option configures a [Client] in [NewClient].
type Option func(*options)

type options struct {
	region        Region
	httpClient    *http.Client
	baseURL       string
	loopbackHTTP  bool
	userAgent     string
	logger        *slog.Logger
	retry         RetryPolicy
	timeout       time.Duration
	maxRespBytes  int64
	limiter       Limiter
	invalidOption string
}

// RetryPolicy says how often and how long the client retries a failed
// request. See [WithRetryPolicy] for which requests are retried.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt; 0 turns
	// retries off. No value of a policy may be negative.
	MaxRetries int
	// MinWait is the first backoff; each later one doubles, up to MaxWait,
	// with jitter. Zero means the default (250ms).
	MinWait time.Duration
	// MaxWait caps the exponential backoff. Zero means the default (10s).
	MaxWait time.Duration
	// MaxServerWait is the longest wait the client accepts from a server's
	// Retry-After or X-Rate-Limit-Reset; when the server asks for longer, the
	// error is returned at once. Zero means the default (60s).
	MaxServerWait time.Duration
}

// DefaultRetryPolicy is the policy of a client built without
// [WithRetryPolicy]: 3 retries, backoff from 250ms to 10s, server-requested
// waits up to 60s.
func DefaultRetryPolicy() RetryPolicy { return RetryPolicy(rest.DefaultRetryPolicy) }

// WithRegion selects the app's region: [RegionUS] (the default),
// [RegionEU] or [RegionIN]. NewClient rejects any other value.
func WithRegion(r Region) Option { return func(o *options) { o.region = r } }

// WithHTTPClient sends requests through hc: its Transport, TLS configuration,
// Timeout (per attempt) and Jar are honoured, and retries wrap it. The SDK
// does not modify hc; it adds its redirect rules to a copy. Without this
// option the client uses an [http.Client] over [NewTransport].
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.httpClient = hc } }

// WithBaseURL replaces the scheme and host (and adds an optional path
// prefix), for tests and proxies. The API version prefix is still added:
// WithBaseURL("https://127.0.0.1:8443") sends a threaded reply to
// https://127.0.0.1:8443/v3/messages/{id}/thread. The calls API uses the same
// address. Only https is accepted unless [WithInsecureLoopback] is given.
func WithBaseURL(u string) Option { return func(o *options) { o.baseURL = u } }

// WithInsecureLoopback allows a plain http:// base URL whose host is a
// loopback address (localhost, 127.0.0.0/8, ::1). It exists for tests against
// a local fake; the API key then travels unencrypted over loopback. Other
// hosts still require https.
func WithInsecureLoopback() Option { return func(o *options) { o.loopbackHTTP = true } }

// WithUserAgent replaces the User-Agent header, which by default names the
// SDK and its version ("chat-go/0.1.0").
func WithUserAgent(ua string) Option { return func(o *options) { o.userAgent = ua } }

// WithLogger logs to l: at debug level, one line per request, attempt and
// response (method, path, status, attempt, duration), never a credential or
// auth token. Without this option nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithRetryPolicy replaces the retry policy ([DefaultRetryPolicy]).
//
// GET is retried on connection errors, on status 429, 500, 502, 503 and
// 504, and on a 2xx whose body is cut short or not JSON. PUT and DELETE are
// retried on 429, 500, 502, 503 and 504, and on connection errors only when
// the connection failed before the request was sent. POST and PATCH are
// retried only on 429 (the service did not process the request) and when
// the connection failed before the request was sent; never after a 5xx. No
// write is sent again after its answer was lost, where the server may have
// acted: the caller gets the error and decides. Waits grow exponentially with jitter, honour Retry-After (seconds or
// HTTP date) and X-Rate-Limit-Reset, and end at once when the context is
// done.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(o *options) {
		if problem := rest.RetryPolicy(p).Problem(); problem != "" {
			o.invalidOption = problem
			return
		}
		o.retry = p
	}
}

// WithoutRetries sends every request once.
func WithoutRetries() Option { return WithRetryPolicy(RetryPolicy{}) }

// WithTimeout bounds each call, retries and waits included. A call's context
// deadline, if sooner, still applies. The default is no bound beyond the
// context's.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithMaxResponseBytes caps how much of a response body the client reads
// (default 32 MiB), so that a broken or hostile server cannot exhaust memory.
// A larger body fails the call.
func WithMaxResponseBytes(n int64) Option { return func(o *options) { o.maxRespBytes = n } }

// WithLimiter paces the client's requests with l: before every attempt,
// retries included, the client waits for l's permit for the request's app
// and class ([ClassCore] or [ClassStandard]), and l learns from every
// answer's X-Rate-Limit, X-Rate-Limit-Remaining, Retry-After and
// X-Rate-Limit-Reset headers. A wait ends when the call's context does
// (and counts against [WithTimeout]); an error from l fails the call
// without sending it.
//
// Use [NewRateLimiter] for the service's budgets in one process, or any
// [Limiter] of your own, e.g. one shared by several processes. Without
// this option (or with a nil l) the client does no client-side limiting
// and relies on its retries of 429 answers ([WithRetryPolicy]).
func WithLimiter(l Limiter) Option { return func(o *options) { o.limiter = l } }

// RequestOption changes a single call, e.g. [OnBehalfOf].
type RequestOption = rest.RequestOption

// OnBehalfOf makes a call act as the user uid (the onBehalfOf header), for
// operations where the API allows it as an option. Operations that require
// it take the UID as a positional argument instead, which wins over this
// option.
func OnBehalfOf(uid string) RequestOption {
	return func(s *rest.Settings) { s.OnBehalfOf = uid }
}

// WithHeader adds a header to a single call, for headers the SDK has no
// option for.
func WithHeader(key, value string) RequestOption {
	return func(s *rest.Settings) {
		if s.Header == nil {
			s.Header = http.Header{}
		}
		s.Header.Add(key, value)
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
