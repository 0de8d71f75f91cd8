// Package hooks lends the SDK's other packages what package chat keeps out
// of its API: its request engine, to package management, and a rate
// limiter paced by another clock, to package chattest. Package chat sets
// each hook in its init; nothing changes them afterwards.
//
// The hooks are typed with any where they carry package chat's types,
// which this package cannot name: chat imports it.
package hooks

import "time"

// NewCaller returns package chat's request engine for the API at baseURL
// (https, with an optional path prefix such as "/v3"), one per set of
// credential headers in creds (name → value), all over one transport: each
// sends its headers with every request and scrubs them from every error and
// log line. opts is a []chat.Option (chat.WithRegion and chat.WithLimiter
// are refused). Each engine it returns has the methods
//
//	Do(ctx context.Context, req *chat.Request, out any, opts ...chat.RequestOption) error
//	BaseURL() string
//	CloseIdleConnections()
//
// Problems are reported as a *chat.ArgumentError.
var NewCaller func(baseURL string, creds []map[string]string, opts any) ([]any, error)

// Clock is a clock that runs at its own pace: chattest's, which may run
// faster than the real one.
type Clock interface {
	// At returns the time on the clock when the real clock reads t.
	At(t time.Time) time.Time
	// Real returns how long d on the clock lasts on the real clock.
	Real(d time.Duration) time.Duration
}

// NewRateLimiter returns chat.NewRateLimiter(limits) paced by clock: it
// counts its windows, paces and reads the service's Retry-After and
// X-Rate-Limit-Reset on that clock. limits is a chat.RateLimits; the
// result a *chat.RateLimiter.
var NewRateLimiter func(limits any, clock Clock) any
