package rest

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Class is the rate-limit class of a request: the service counts core
// operations and standard operations against budgets of their own
// (platform reference §3).
type Class uint8

const (
	// ClassStandard is every operation that is not core.
	ClassStandard Class = iota
	// ClassCore is the operations of [CoreOperations].
	ClassCore
)

// Limiter paces a Client's requests. Wait is called before every attempt,
// retries included, and Observe with every response received. A Limiter is
// used by many goroutines at once.
type Limiter interface {
	// Wait blocks until a request of class may be sent; an error fails the
	// call without sending it.
	Wait(ctx context.Context, class Class) error
	// Observe learns what a response of class said about its budget.
	Observe(ctx context.Context, class Class, obs Observation)
}

// Observation is what one response said about the budget of its request's
// class. The public clients convert it to their own type, field for field.
type Observation struct {
	Status     int
	Limit      int
	Remaining  int
	RetryAfter time.Duration
	Reset      time.Time
	Sent       time.Time
	Received   time.Time
}

// coreOperations are the operations the service counts as core: creating
// and deleting a user, creating a group, and joining one, which for the
// REST API is adding members. chattest counts the same routes (its
// corePatterns; a test keeps the two tables equal). "{}" is one path
// segment.
var coreOperations = []string{
	"POST /users",
	"DELETE /users/{}",
	"POST /groups",
	"POST /groups/{}/members",
}

// coreSegments is coreOperations split into method and path segments.
var coreSegments = func() [][]string {
	out := make([][]string, len(coreOperations))
	for i, op := range coreOperations {
		method, p, _ := strings.Cut(op, " ")
		out[i] = append([]string{method}, strings.Split(strings.TrimPrefix(p, "/"), "/")...)
	}
	return out
}()

// CoreOperations returns the operations counted as core, as "METHOD /path"
// patterns relative to the API's version prefix, with "{}" for a path
// parameter.
func CoreOperations() []string { return slices.Clone(coreOperations) }

// ownBudgetPrefix starts the paths of the data import endpoints, whose
// answers report a budget of their own (60 requests a minute per endpoint),
// not their class's: they wait for a standard permit, but the limiter does
// not learn from them.
const ownBudgetPrefix = "/data_import/"

// Classify returns the class of a request with this method and escaped
// path (relative to the version prefix), and whether its answers report
// that class's budget.
func Classify(method, escapedPath string) (class Class, observe bool) {
	if strings.HasPrefix(escapedPath, ownBudgetPrefix) {
		return ClassStandard, false
	}
	segs := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	for _, op := range coreSegments {
		if op[0] == method && matchSegments(op[1:], segs) {
			return ClassCore, true
		}
	}
	return ClassStandard, true
}

func matchSegments(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, p := range pattern {
		if p != "{}" && p != segs[i] || segs[i] == "" {
			return false
		}
	}
	return true
}

// limitState follows one call's attempts for the limiter; it travels in the
// request's context, only when the client has a limiter.
type limitState struct {
	limiter Limiter
	class   Class
	observe bool
	sent    time.Time // when the current attempt got its permit
}

type limitKey struct{}

func limitFrom(ctx context.Context) *limitState {
	ls, _ := ctx.Value(limitKey{}).(*limitState)
	return ls
}

// wait asks the limiter for the permit of the next attempt.
func (ls *limitState) wait(ctx context.Context) error {
	if err := ls.limiter.Wait(ctx, ls.class); err != nil {
		return err
	}
	ls.sent = time.Now()
	return nil
}

// prepareRetry is the retry layer's hook before each retry: the retry waits
// for a permit as the first attempt did.
func (c *Client) prepareRetry(req *http.Request) error {
	if c.Limiter == nil {
		return nil
	}
	if ls := limitFrom(req.Context()); ls != nil {
		return ls.wait(req.Context())
	}
	return nil
}

// checkAttempt is the retry layer's hook after each attempt: the limiter
// learns from the response's headers, if there is a response, before the
// retry policy decides.
func (c *Client) checkAttempt(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if c.Limiter != nil && resp != nil {
		if ls := limitFrom(ctx); ls != nil && ls.observe {
			ls.limiter.Observe(ctx, ls.class, observe(resp, ls.sent, time.Now()))
		}
	}
	return c.checkRetry(ctx, resp, err)
}

// observe reads the rate-limit headers of resp: X-Rate-Limit,
// X-Rate-Limit-Remaining, Retry-After (seconds or an HTTP date) and
// X-Rate-Limit-Reset (Unix seconds).
func observe(resp *http.Response, sent, received time.Time) Observation {
	h := resp.Header
	o := Observation{Status: resp.StatusCode, Remaining: -1, Sent: sent, Received: received}
	if n, err := strconv.Atoi(h.Get("X-Rate-Limit")); err == nil && n > 0 {
		o.Limit = n
	}
	if n, err := strconv.Atoi(h.Get("X-Rate-Limit-Remaining")); err == nil && n >= 0 {
		o.Remaining = n
	}
	o.RetryAfter, _ = serverWait(resp.StatusCode, h, received)
	if s, err := strconv.ParseInt(h.Get("X-Rate-Limit-Reset"), 10, 64); err == nil && s > 0 {
		o.Reset = time.Unix(s, 0)
	}
	return o
}
