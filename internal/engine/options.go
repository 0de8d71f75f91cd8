package engine

import (
	"log/slog"
	"net/http"
	"time"
)

// Option configures the callers a client builds; package chat's With...
// functions make them.
type Option func(*Options)

// Options are what a client's Options set. Package chat documents each.
type Options struct {
	Region       string // chat.WithRegion; "" is the default region
	RegionSet    bool   // chat.WithRegion was given
	HTTPClient   *http.Client
	CAFile       string
	BaseURL      string
	LoopbackHTTP bool
	UserAgent    string
	Logger       *slog.Logger
	Retry        RetryPolicy
	Timeout      time.Duration
	MaxRespBytes int64
	Limiter      Limiter
	// Invalid, when not empty, says what an option was given wrong.
	Invalid string
}

// NewOptions applies opts over the defaults and checks the result.
func NewOptions(opts []Option) (*Options, error) {
	o := &Options{Retry: DefaultRetryPolicy()}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	switch {
	case o.Invalid != "":
		return nil, NewArgError("options", o.Invalid)
	case o.MaxRespBytes < 0:
		return nil, NewArgError("options", "max response bytes must not be negative")
	case o.Timeout < 0:
		return nil, NewArgError("options", "timeout must not be negative")
	}
	return o, nil
}

// RequestOption changes a single call; package chat's OnBehalfOf,
// WithHeader and CaptureResponse make them.
type RequestOption func(*CallOptions)

// CallOptions are what a call's RequestOptions set.
type CallOptions struct {
	OnBehalfOf string
	Header     http.Header
	Capture    *Response
}

// Response is what a call's final attempt was answered, for
// [github.com/chatrest/chat.CaptureResponse].
type Response struct {
	// StatusCode is the HTTP status, e.g. 200; zero when no answer came.
	StatusCode int
	// Header holds the answer's headers.
	Header http.Header
	// RateLimit is what the answer said about the budget of the call's
	// rate-limit class (X-Rate-Limit, X-Rate-Limit-Remaining, Retry-After,
	// X-Rate-Limit-Reset).
	RateLimit RateObservation
	// RequestID is the answer's X-Request-Id header, when it has one: the
	// id to quote to the service's support.
	RequestID string
	// Attempts is how many times the request was sent, retries included.
	Attempts int
}
