package chat

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/chatrest/chat/internal/engine"
)

// Option configures a [Client] in [NewClient] (and a management client):
// the With... functions make one.
type Option = engine.Option

// WithRegion selects the app's region: [RegionUS] (the default),
// [RegionEU] or [RegionIN]. NewClient rejects any other value.
func WithRegion(r Region) Option {
	return func(o *engine.Options) { o.Region, o.RegionSet = string(r), true }
}

// WithHTTPClient sends requests through hc: its Transport, TLS configuration,
// Timeout (per attempt) and Jar are honoured, and retries wrap it. The SDK
// does not modify hc; it adds its redirect rules to a copy. Without this
// option the client uses an [http.Client] over [NewTransport].
func WithHTTPClient(hc *http.Client) Option { return func(o *engine.Options) { o.HTTPClient = hc } }

// WithCAFile makes the client trust the certificates of the PEM file at
// path, besides the system's: for a server whose certificate no public
// authority signed, such as a local server's self-signed one or a
// company proxy's. It works the same on every operating system. An empty
// path adds none, so that the option can take an environment variable
// that may be unset:
//
//	client, err := chat.NewClient(appID, apiKey,
//		chat.WithBaseURL(os.Getenv("CHAT_BASE_URL")), chat.WithCAFile(os.Getenv("CHAT_CA_FILE")))
//
// NewClient fails with an [*ArgumentError] naming WithCAFile when the file
// cannot be read or holds no certificate, and when [WithHTTPClient] is given
// too: then add the certificates to that client's TLS configuration.
func WithCAFile(path string) Option { return func(o *engine.Options) { o.CAFile = path } }

// WithBaseURL replaces the scheme and host (and adds an optional path
// prefix), for tests and proxies; an empty u keeps the region's address. The API version prefix is still added:
// WithBaseURL("https://127.0.0.1:8443") sends a threaded reply to
// https://127.0.0.1:8443/v3/messages/{id}/thread. The calls API uses the same
// address. Only https is accepted unless [WithInsecureLoopback] is given.
func WithBaseURL(u string) Option { return func(o *engine.Options) { o.BaseURL = u } }

// WithInsecureLoopback allows a plain http:// base URL whose host is a
// loopback address (localhost, 127.0.0.0/8, ::1). It exists for tests against
// a local fake; the API key then travels unencrypted over loopback. Other
// hosts still require https.
func WithInsecureLoopback() Option { return func(o *engine.Options) { o.LoopbackHTTP = true } }

// WithUserAgent replaces the User-Agent header, which by default names the
// SDK and its version ("chat-go/0.1.0").
func WithUserAgent(ua string) Option { return func(o *engine.Options) { o.UserAgent = ua } }

// WithLogger logs to l: at debug level, one line per request, attempt and
// response (method, path, whether it acts on behalf of a user, attempt
// number, status or error, attempts made), never a credential or auth
// token. Without this option nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(o *engine.Options) { o.Logger = l } }

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
	return func(o *engine.Options) {
		if p.MaxRetries < 0 || p.MinWait < 0 || p.MaxWait < 0 || p.MaxServerWait < 0 {
			o.Invalid = "retry policy values must not be negative"
			return
		}
		o.Retry = p
	}
}

// WithoutRetries sends every request once.
func WithoutRetries() Option { return WithRetryPolicy(RetryPolicy{}) }

// WithTimeout bounds each call, retries and waits included. A call's context
// deadline, if sooner, still applies. The default is no bound beyond the
// context's.
func WithTimeout(d time.Duration) Option { return func(o *engine.Options) { o.Timeout = d } }

// WithMaxResponseBytes caps how much of a response body the client reads
// (default 32 MiB), so that a broken or hostile server cannot exhaust memory.
// A larger body fails the call.
func WithMaxResponseBytes(n int64) Option { return func(o *engine.Options) { o.MaxRespBytes = n } }

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
func WithLimiter(l Limiter) Option { return func(o *engine.Options) { o.Limiter = l } }

// RequestOption changes a single call: [OnBehalfOf], [WithHeader] and
// [CaptureResponse] make one. Every method of the SDK takes them last.
type RequestOption = engine.RequestOption

// OnBehalfOf makes a call act as the user uid (the onBehalfOf header), for
// operations where the API allows it as an option. Operations that require
// it take the UID as a positional argument instead, which wins over this
// option.
func OnBehalfOf(uid string) RequestOption { return func(o *engine.CallOptions) { o.OnBehalfOf = uid } }

// WithHeader sets a header of a single call, for headers the SDK has no
// option for; a later WithHeader of the same name replaces it, and an
// empty value removes it. A name that is not a valid header field name, or
// a value with a control character, fails the call before anything is
// sent.
func WithHeader(key, value string) RequestOption {
	return func(o *engine.CallOptions) {
		if o.Header == nil {
			o.Header = http.Header{}
		}
		if value == "" {
			o.Header.Del(key)
			return
		}
		o.Header.Set(key, value)
	}
}

// actingUser returns the UID opts make a call act as: the OnBehalfOf
// option's, or an onBehalfOf header's; "" when none.
func actingUser(opts []RequestOption) string {
	var o engine.CallOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.OnBehalfOf != "" {
		return o.OnBehalfOf
	}
	return o.Header.Get("onBehalfOf")
}

// CaptureResponse makes a call fill r with what its final attempt was
// answered, on success and on error: the status, the headers, the
// rate-limit budget and the number of attempts. A call that got no answer
// (a connection refused, a context ended before any answer) leaves r's
// StatusCode zero.
//
//	var resp chat.Response
//	user, err := client.Users.Get(ctx, "alice", chat.CaptureResponse(&resp))
//	log.Println(resp.StatusCode, resp.RateLimit.Remaining)
func CaptureResponse(r *Response) RequestOption { return func(o *engine.CallOptions) { o.Capture = r } }

// Response is what a call's final attempt was answered, for
// [CaptureResponse]: its status, headers, rate-limit budget, request id
// and the number of attempts.
type Response = engine.Response
