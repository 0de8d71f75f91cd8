package engine

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/rest"
)

// OperationClass is a rate-limit class. The service counts each app's
// requests of a class against a budget of its own, per minute. The values
// are short lower-case words, usable in keys.
type OperationClass string

const (
	// ClassCore is the core operations: creating and deleting a user
	// (POST /v3/users, DELETE /v3/users/{uid}), creating a group
	// (POST /v3/groups) and joining one, which for the REST API is adding
	// members (POST /v3/groups/{guid}/members). The service also counts
	// users' connections, which are not REST calls, as core. Their budget
	// is [DefaultCoreBudget] requests a minute.
	ClassCore OperationClass = "core"
	// ClassStandard is every other operation, the calls API's included.
	// Its budget is [DefaultStandardBudget] requests a minute. The data
	// import endpoints count as standard, and each also has a budget of
	// its own (60 requests a minute) which their answers report and the
	// BulkImport methods keep to: a [Limiter] makes them wait for a
	// standard permit but does not learn from their answers.
	ClassStandard OperationClass = "standard"
)

// The service's budgets per minute, which a [RateLimiter] uses when
// [RateLimits] sets none.
const (
	DefaultCoreBudget     = 10000
	DefaultStandardBudget = 20000
)

// LimitKey names the budget a request draws on: its app and its class.
type LimitKey struct {
	// AppID is the app of the client sending the request.
	AppID string
	// Class is the request's class.
	Class OperationClass
}

// RateObservation is what one answer said about the budget of its
// request's class, read from its headers. Fields whose header was absent
// or unreadable are zero (Remaining: -1).
type RateObservation struct {
	// Status is the HTTP status; 429 means the request was refused, not
	// processed.
	Status int
	// Limit is X-Rate-Limit: the class's budget per minute.
	Limit int
	// Remaining is X-Rate-Limit-Remaining: what is left of the budget in
	// the current minute; -1 when absent.
	Remaining int
	// RetryAfter is Retry-After (seconds or an HTTP date), as a wait from
	// Received.
	RetryAfter time.Duration
	// Reset is X-Rate-Limit-Reset: when the budget refills.
	Reset time.Time
	// Sent is when the attempt got its permit from the limiter and was
	// sent.
	Sent time.Time
	// Received is when the answer arrived.
	Received time.Time
}

// RefusedUntil returns, for a refused request (status 429), until when the
// service asks its class to wait: Received plus RetryAfter, else Reset. It
// is the zero time for other answers, or when the server said neither.
func (o RateObservation) RefusedUntil() time.Time {
	switch {
	case o.Status != http.StatusTooManyRequests:
		return time.Time{}
	case o.RetryAfter > 0:
		return o.Received.Add(o.RetryAfter)
	}
	return o.Reset
}

// Limiter paces the requests of clients built with [github.com/chatrest/chat.WithLimiter], so that
// they stay within the app's budgets instead of meeting 429s. The client
// calls Wait before every attempt, retries included, and Observe with
// every answer it receives (except the data import endpoints' answers,
// which report budgets of their own). A Limiter is used by many goroutines
// at once.
//
// [RateLimiter] is the in-process implementation. Another, for instance
// one that shares the budgets of several processes through a store, only
// needs these two methods: the key names the app and the class.
type Limiter interface {
	// Wait blocks until a request of key may be sent, and returns nil; or
	// until ctx is done, and returns ctx.Err(). Any error fails the call
	// without sending the request (a retry's error ends the retries).
	Wait(ctx context.Context, key LimitKey) error
	// Observe learns from an answer to a request of key: the budget the
	// service reports, what is left of it, and after a 429 how long to
	// hold the class back. ctx is the call's.
	Observe(ctx context.Context, key LimitKey, obs RateObservation)
}

// classify returns the class of a request with this method and escaped
// path (below the version prefix), and whether its answers report that
// class's budget (the data import endpoints' report their own).
func classify(method, escapedPath string) (OperationClass, bool) {
	core, observe := rest.Core(method, escapedPath)
	if core {
		return ClassCore, observe
	}
	return ClassStandard, observe
}

// observe reads the rate-limit headers of resp: X-Rate-Limit,
// X-Rate-Limit-Remaining, the wait it asks for (serverWait) and
// X-Rate-Limit-Reset (Unix seconds).
func observe(resp *http.Response, sent, received time.Time) RateObservation {
	h := resp.Header
	o := RateObservation{Status: resp.StatusCode, Remaining: -1, Sent: sent, Received: received}
	if n, err := strconv.Atoi(h.Get("X-Rate-Limit")); err == nil && n > 0 {
		o.Limit = n
	}
	if n, err := strconv.Atoi(h.Get("X-Rate-Limit-Remaining")); err == nil && n >= 0 {
		o.Remaining = n
	}
	o.RetryAfter, _ = serverWait(resp.StatusCode, h, received)
	if s, err := strconv.ParseInt(h.Get("X-Rate-Limit-Reset"), 10, 64); err == nil && s > 0 && s <= rest.MaxUnix {
		o.Reset = time.Unix(s, 0)
	}
	return o
}

// RateLimits are the budgets of a [RateLimiter]. The zero value is the
// service's.
type RateLimits struct {
	// Core is the budget of core operations per Per; 0 or less means
	// [DefaultCoreBudget].
	Core int
	// Standard is the budget of standard operations per Per; 0 or less
	// means [DefaultStandardBudget].
	Standard int
	// Per is the window the service counts budgets in; 0 or less means a
	// minute, as the service counts.
	Per time.Duration
}

// Clock is a clock that runs at its own pace: chattest's, which may run
// faster than the real one. A [RateLimiter] counts its windows, paces and
// reads the service's Retry-After and X-Rate-Limit-Reset on its clock.
type Clock interface {
	// At returns the time on the clock when the real clock reads t.
	At(t time.Time) time.Time
	// Real returns how long d on the clock lasts on the real clock.
	Real(d time.Duration) time.Duration
}

// realClock is the real clock, which a RateLimiter paces by unless
// [NewPacedRateLimiter] gives another.
type realClock struct{}

func (realClock) At(t time.Time) time.Time           { return t }
func (realClock) Real(d time.Duration) time.Duration { return d }

// paceShare is the share of a budget a RateLimiter lets through per
// window, and burstShare the share it lets through at once: 97% and 1%,
// so that no window of the service's counts more than 98% of a budget
// (the last window's burst included) and the rest absorbs the jitter of
// requests between the limiter and the service.
const (
	paceShare  = 0.97
	burstShare = 0.01
)

// RateLimiter is the in-process [Limiter], over golang.org/x/time/rate:
// a token bucket per app and class. Create it with [NewRateLimiter] and
// give it to [github.com/chatrest/chat.WithLimiter]; one RateLimiter may serve several clients,
// which then share the budgets of their app (each app has its own). It is
// safe for concurrent use.
//
// It lets through 97% of a class's budget per window, evenly, in bursts
// of at most 1% of the budget (one request at least). The service counts
// budgets in fixed windows of a minute: however the windows fall, none
// counts more than 98% of the budget, and requests delayed on their way by
// up to 2% of a window still do not exceed it. A client creating users as
// fast as it can thus runs at 97% of the core budget, and meets no 429.
//
// It adapts to what the service says:
//   - An answer reporting a smaller budget (X-Rate-Limit) than the one
//     configured paces its class at that budget, until an answer reports a
//     larger one again; a larger budget than the one configured is not
//     used, so that a budget divided between processes stays divided.
//   - An answer reporting that less is left of the budget
//     (X-Rate-Limit-Remaining) than the limiter would let through before
//     the window ends (other processes share the budget) holds the class
//     back by the difference. The limiter takes the service's windows to
//     be aligned on Per on the local clock (calendar minutes); it ignores
//     this header in answers to requests sent in the first 5% of a window,
//     which a service whose clock differs a little may have counted in the
//     window before.
//   - A refused request (429) blocks its class until the wait the service
//     asks for has passed (Retry-After, else X-Rate-Limit-Reset; at most
//     one window): the retry and every other request of the class wait.
//
// Wait returns ctx.Err() as soon as ctx is done, and when ctx has a
// deadline before the permit, it returns at once an error matching
// [context.DeadlineExceeded], without taking the permit.
type RateLimiter struct {
	core, standard int
	per            time.Duration
	clock          Clock // the service's clock: its windows, its paces, its Retry-After and X-Rate-Limit-Reset

	mu      sync.Mutex
	buckets map[LimitKey]*bucket
}

// NewRateLimiter returns a RateLimiter with the budgets of limits; zero
// fields take the service's values: 10,000 core and 20,000 standard
// requests a minute.
func NewRateLimiter(limits RateLimits) *RateLimiter { return NewPacedRateLimiter(limits, realClock{}) }

// NewPacedRateLimiter is [NewRateLimiter] paced by clock: chattest's
// Server.RateLimiter, whose clock may run faster than the real one.
func NewPacedRateLimiter(limits RateLimits, clock Clock) *RateLimiter {
	l := &RateLimiter{core: limits.Core, standard: limits.Standard, per: limits.Per, clock: clock, buckets: map[LimitKey]*bucket{}}
	if l.core <= 0 {
		l.core = DefaultCoreBudget
	}
	if l.standard <= 0 {
		l.standard = DefaultStandardBudget
	}
	if l.per <= 0 {
		l.per = time.Minute
	}
	return l
}

// bucket is the budget of one key.
type bucket struct {
	per        time.Duration
	configured int // the budget per window given to NewRateLimiter

	mu           sync.Mutex
	lim          *rate.Limiter
	budget       int       // the budget paced at: configured, or less as reported
	blockedUntil time.Time // no permit before, after a 429
}

func (l *RateLimiter) bucket(key LimitKey) *bucket {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		n := l.standard
		if key.Class == ClassCore {
			n = l.core
		}
		b = &bucket{per: l.per, configured: n, budget: n}
		b.lim = rate.NewLimiter(b.pace(n), burstOf(n))
		l.buckets[key] = b
	}
	return b
}

// pace is the rate a budget of n per window is let through at.
func (b *bucket) pace(n int) rate.Limit {
	return rate.Limit(float64(n) * paceShare / b.per.Seconds())
}

// burstOf is how many requests of a budget of n may go at once.
func burstOf(n int) int { return max(1, int(float64(n)*burstShare)) }

// Budget returns the budget per window that key is paced at: the one
// configured, or a smaller one the service reported.
func (l *RateLimiter) Budget(key LimitKey) int {
	b := l.bucket(key)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.budget
}

// Wait blocks until a request of key may be sent, as [Limiter] says.
func (l *RateLimiter) Wait(ctx context.Context, key LimitKey) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b := l.bucket(key)
	for {
		b.mu.Lock()
		now := l.now()
		var r *rate.Reservation
		d := b.blockedUntil.Sub(now)
		if d <= 0 {
			r = b.lim.ReserveN(now, 1) // always granted: the burst is at least 1
			d = r.DelayFrom(now)
		}
		b.mu.Unlock()
		if d <= 0 {
			return nil
		}
		d = l.clock.Real(d)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
			l.cancel(b, r)
			return fmt.Errorf("chat: the %s budget of app %q has no permit before the context's deadline: %w", key.Class, key.AppID, context.DeadlineExceeded)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			l.cancel(b, r)
			return ctx.Err()
		case <-t.C:
		}
		if r == nil {
			continue // the block has passed: take a permit
		}
		b.mu.Lock()
		blocked := l.now().Before(b.blockedUntil)
		b.mu.Unlock()
		if !blocked {
			return nil
		}
		// A 429 blocked the class during the wait: wait for the block too.
	}
}

// now is the time on the limiter's clock.
func (l *RateLimiter) now() time.Time { return l.clock.At(time.Now()) }

// at is the time on the limiter's clock when the real clock read t; the
// zero time stays zero.
func (l *RateLimiter) at(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return l.clock.At(t)
}

// cancel gives back the permit of r, if any, when its wait is abandoned.
func (l *RateLimiter) cancel(b *bucket, r *rate.Reservation) {
	if r == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r.CancelAt(l.now())
}

// Observe learns from an answer, as [RateLimiter] says.
func (l *RateLimiter) Observe(_ context.Context, key LimitKey, obs RateObservation) {
	b := l.bucket(key)
	b.mu.Lock()
	defer b.mu.Unlock()
	now := l.now()
	obs.Sent, obs.Received = l.at(obs.Sent), l.at(obs.Received)
	if obs.Limit > 0 {
		b.setBudget(now, min(b.configured, obs.Limit))
	}
	if obs.Status == http.StatusTooManyRequests {
		until := obs.RefusedUntil()
		if until.IsZero() {
			until = now.Truncate(b.per).Add(b.per) // the window's end
		}
		if latest := now.Add(b.per); until.After(latest) {
			until = latest
		}
		if until.After(b.blockedUntil) {
			b.blockedUntil = until
		}
		return
	}
	if obs.Remaining >= 0 {
		b.holdBack(now, obs)
	}
}

// setBudget paces the bucket at a budget of n per window.
func (b *bucket) setBudget(now time.Time, n int) {
	if n == b.budget {
		return
	}
	b.budget = n
	b.lim.SetLimitAt(now, b.pace(n))
	b.lim.SetBurstAt(now, burstOf(n))
}

// holdBack reserves what the bucket would let through before the window
// ends beyond what the service says is left, so that it lets through no
// more than that.
func (b *bucket) holdBack(now time.Time, obs RateObservation) {
	start := now.Truncate(b.per)
	if obs.Sent.Before(start.Add(b.per / 20)) {
		return // perhaps counted in the window before
	}
	// What goes out before the window's end: the tokens at hand (or, when
	// requests are queued, none) and what the pace adds.
	left := start.Add(b.per).Sub(now).Seconds()
	due := float64(b.lim.Limit())*left + max(b.lim.TokensAt(now), 0)
	excess := int(math.Ceil(due - float64(obs.Remaining)))
	for burst := b.lim.Burst(); excess > 0; excess -= burst {
		b.lim.ReserveN(now, min(excess, burst))
	}
}
