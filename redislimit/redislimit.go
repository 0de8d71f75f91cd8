// Package redislimit shares the chat REST API's rate budgets between
// processes through Redis: a [chat.Limiter] for a fleet of servers.
//
// The service counts each app's requests against budgets per minute, one
// per operation class (10,000 core and 20,000 standard requests). A
// [chat.RateLimiter] keeps one process within them; the processes of a
// fleet, each with its own, overrun them together and meet 429s. A
// [Limiter] keeps the budgets in Redis instead, with the generic cell rate
// algorithm of github.com/go-redis/redis_rate, keyed by app id and class,
// so that any number of processes, each with its own clients, draw on one
// budget:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis.internal:6379"})
//	limiter, err := redislimit.New(rdb, redislimit.WithFallback(0.25))
//	...
//	client, err := chat.NewClient(appID, apiKey, chat.WithLimiter(limiter))
//
// # Pace
//
// A Limiter lets 97% of a class's budget through per window, evenly, in
// bursts of at most 1% of the budget, as a [chat.RateLimiter] does: the
// whole fleet together then runs at 97% of the budget and meets no 429.
// Redis's clock is the fleet's, so the processes' clocks do not matter.
//
// Within a process, the goroutines waiting for a permit of one key queue,
// and only the first asks Redis: a permit costs one round trip to Redis
// per process, plus one per process contending for the same permit.
//
// # What the service says
//
//   - A 429 holds the class back, in every process, for the wait the
//     service asks for: Retry-After, counted from the answer's arrival,
//     else X-Rate-Limit-Reset less the process's time; at most one window,
//     and at most the SDK's cap on server waits (a minute). So does an
//     answer saying nothing is left of the budget (X-Rate-Limit-Remaining:
//     0), until X-Rate-Limit-Reset. The process hands Redis the wait, and
//     Redis times it with its own clock: a process whose clock is ahead or
//     behind neither lengthens nor shortens a Retry-After's hold. A longer
//     hold is never shortened by a shorter one. The processes learn of a
//     hold from Redis within 50 ms. A hold found in Redis beyond the cap,
//     whoever wrote it, is cut to the cap from when it is read.
//   - An answer reporting a smaller budget (X-Rate-Limit) than the one
//     configured makes the process pace its class at that budget; a larger
//     one is not used.
//
// # When Redis is unreachable
//
// A command to Redis that fails, or does not answer within the timeout
// ([WithTimeout]), makes the Limiter take its fallback, and log once, at
// warning level, that it did:
//
//   - by default ([WithFallback]), each process paces on its own, with an
//     in-process [chat.RateLimiter] at a share of the budgets (10% unless
//     set: choose 1 / the fleet's size);
//   - with [WithFailClosed], Wait returns an error matching
//     [ErrUnavailable], and the calls fail without being sent.
//
// Requests then take the fallback at once, without waiting for Redis, and
// one request per probe interval ([WithProbeInterval]) tries Redis again.
// When Redis answers, the Limiter logs at info level that it is back, and
// the processes share the budgets again. A caller's context ends a wait in
// every case.
//
// # Keys
//
// For app A and class C (core or standard), with the prefix P
// ([WithPrefix], default "chat:"), the Limiter keeps the cell rate state in
// "rate:P{A}:C" (redis_rate adds "rate:") and a hold after a 429 in
// "P{A}:C:hold", which expires when the hold ends and holds its end in
// Unix milliseconds by Redis's clock; both expire on their own. The braces
// make both keys of an app fall in one slot of a Redis Cluster.
package redislimit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/chatrest/chat"
)

// ErrUnavailable is matched (with [errors.Is]) by the error of Wait when
// Redis is unreachable and the Limiter fails closed ([WithFailClosed]).
// Calls of a client using the Limiter then fail with it, unsent.
var ErrUnavailable = errors.New("redislimit: Redis is unavailable")

// The share of a budget a Limiter lets through per window, and the share
// it lets through at once: those of [chat.RateLimiter], so that no window
// of the service's counts more than 98% of a budget.
const (
	paceShare  = 0.97
	burstShare = 0.01
)

// holdRefresh is how long a process trusts what it last read of a key's
// hold in Redis: the processes learn of another's 429 within it.
const holdRefresh = 50 * time.Millisecond

// Limiter is a [chat.Limiter] whose budgets are kept in Redis and shared by
// every Limiter using the same Redis and prefix: one per process of a
// fleet, each serving any number of clients. Create it with [New]. It is
// safe for concurrent use and needs no closing (the Redis client is the
// caller's to close): it keeps no goroutine running. Each command to Redis
// runs in a goroutine that ends with it, so that the caller can be let go
// at the timeout, and while Redis is unreachable one goroutine per probe
// interval pings it.
//
// Printing a Limiter (with any fmt verb) shows its prefix and mode, never
// its Redis client's options.
type Limiter struct {
	rdb      redis.Cmdable
	gcra     *redis_rate.Limiter
	cfg      config
	core     int // budgets per window
	standard int
	local    *chat.RateLimiter // the fallback; nil when failing closed
	now      func() time.Time  // the process's clock; tests set it apart from the others'

	mu   sync.Mutex
	keys map[chat.LimitKey]*keyState

	hmu       sync.Mutex
	down      bool      // Redis is unreachable
	epoch     uint64    // counts the changes of down: a command's answer counts only in the epoch it was sent in
	lastErr   error     // why, while down
	nextProbe time.Time // while down, when to try Redis again
	probing   bool      // a probe is under way
}

// keyState is what a process knows of one app and class.
type keyState struct {
	turn       chan struct{} // held by the goroutine asking Redis for a permit of the key
	rateKey    string        // redis_rate's key, without its "rate:"
	holdKey    string
	configured int

	mu       sync.Mutex
	budget   int       // paced at: configured, or less as reported
	held     time.Time // no permit before, by the process's clock
	holdRead time.Time // when held was last read from Redis
}

// New returns a Limiter keeping its budgets in rdb: a *redis.Client,
// *redis.ClusterClient or *redis.Ring. The options set the budgets, the
// keys' prefix, and what happens when Redis is unreachable; New reports an
// invalid one. It sends nothing to Redis.
func New(rdb redis.Cmdable, opts ...Option) (*Limiter, error) {
	if rdb == nil {
		return nil, errors.New("redislimit: rdb must not be nil")
	}
	cfg := config{prefix: DefaultPrefix, share: DefaultFallbackShare, timeout: DefaultTimeout, probeInterval: DefaultProbeInterval}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if cfg.problem != "" {
		return nil, errors.New("redislimit: " + cfg.problem)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	if cfg.limits.Per <= 0 {
		cfg.limits.Per = time.Minute
	}
	l := &Limiter{rdb: rdb, gcra: redis_rate.NewLimiter(rdb), cfg: cfg, core: cfg.limits.Core, standard: cfg.limits.Standard,
		keys: map[chat.LimitKey]*keyState{}, now: time.Now}
	if l.core <= 0 {
		l.core = chat.DefaultCoreBudget
	}
	if l.standard <= 0 {
		l.standard = chat.DefaultStandardBudget
	}
	if !cfg.failClosed {
		l.local = chat.NewRateLimiter(chat.RateLimits{
			Core:     max(1, int(float64(l.core)*cfg.share)),
			Standard: max(1, int(float64(l.standard)*cfg.share)),
			Per:      cfg.limits.Per,
		})
	}
	return l, nil
}

func (l *Limiter) state(key chat.LimitKey) *keyState {
	l.mu.Lock()
	defer l.mu.Unlock()
	ks := l.keys[key]
	if ks == nil {
		n := l.standard
		if key.Class == chat.ClassCore {
			n = l.core
		}
		name := l.cfg.prefix + "{" + key.AppID + "}:" + string(key.Class)
		ks = &keyState{turn: make(chan struct{}, 1), rateKey: name, holdKey: name + ":hold", configured: n, budget: n}
		l.keys[key] = ks
	}
	return ks
}

// limit is the cell rate of the key's budget.
func (ks *keyState) limit(per time.Duration) redis_rate.Limit {
	ks.mu.Lock()
	n := ks.budget
	ks.mu.Unlock()
	return redis_rate.Limit{
		Rate:   max(1, int(float64(n)*paceShare)),
		Burst:  max(1, int(float64(n)*burstShare)),
		Period: per,
	}
}

// Budget returns the budget per window that key is paced at: the one
// configured, or a smaller one the service reported.
func (l *Limiter) Budget(key chat.LimitKey) int {
	ks := l.state(key)
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return ks.budget
}

// Degraded reports whether the Limiter has found Redis unreachable and
// takes its fallback; a health check can report it.
func (l *Limiter) Degraded() bool {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	return l.down
}

// Wait blocks until a request of key may be sent, by the budget shared in
// Redis, and returns nil; or until ctx is done, and returns ctx.Err(). When
// ctx has a deadline before the permit, it returns at once an error
// matching [context.DeadlineExceeded]. While Redis is unreachable it takes
// the fallback: the local limiter's wait, or an error matching
// [ErrUnavailable].
func (l *Limiter) Wait(ctx context.Context, key chat.LimitKey) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ks := l.state(key)
	select {
	case ks.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-ks.turn }()
	for {
		ok, epoch := l.tryRedis()
		if !ok {
			return l.fallback(ctx, key)
		}
		wait, err := l.ask(ctx, ks)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return ctxErr
			}
			l.markDown(err, epoch)
			continue // take the fallback
		}
		l.markUp(epoch)
		if wait <= 0 {
			return nil
		}
		if err := sleep(ctx, wait, key); err != nil {
			return err
		}
	}
}

// ask asks Redis for a permit of ks: 0 when granted, else how long to wait
// before asking again.
func (l *Limiter) ask(ctx context.Context, ks *keyState) (time.Duration, error) {
	if d, err := l.hold(ctx, ks); err != nil || d > 0 {
		return d, err
	}
	limit := ks.limit(l.cfg.limits.Per)
	res, err := bounded(ctx, l.cfg.timeout, func(ctx context.Context) (*redis_rate.Result, error) {
		return l.gcra.Allow(ctx, ks.rateKey, limit)
	})
	if err != nil {
		return 0, err
	}
	if res.Allowed > 0 {
		return 0, nil
	}
	return max(res.RetryAfter, time.Millisecond), nil
}

// hold returns how long the key is held back after a 429, asking Redis how
// long the hold has left when what the process knows of it is older than
// holdRefresh.
func (l *Limiter) hold(ctx context.Context, ks *keyState) (time.Duration, error) {
	now := l.now()
	ks.mu.Lock()
	held, fresh := ks.held, now.Sub(ks.holdRead) < holdRefresh
	ks.mu.Unlock()
	if !fresh {
		left, err := bounded(ctx, l.cfg.timeout, func(ctx context.Context) (time.Duration, error) {
			return l.rdb.PTTL(ctx, ks.holdKey).Result()
		})
		if err != nil {
			return 0, err
		}
		if most := l.maxHold(); left > most {
			// Longer than a Limiter holds: another writer's hold, cut
			// to the cap for every process, from now.
			if _, err := bounded(ctx, l.cfg.timeout, func(ctx context.Context) (any, error) {
				return capScript.Run(ctx, l.rdb, []string{ks.holdKey}, most.Milliseconds()).Result()
			}); err != nil {
				return 0, err
			}
			left = most
		}
		if left > 0 { // -2 ns: no hold; -1 ns: a key without expiry, not ours
			held = later(held, now.Add(left))
		}
		ks.mu.Lock()
		ks.held, ks.holdRead = later(ks.held, held), now
		ks.mu.Unlock()
	}
	return held.Sub(now), nil
}

// bounded runs the Redis command cmd, and returns its result; or, when
// Redis has not answered within timeout, an error saying so; or, when ctx
// is done first, ctx.Err(). It returns then even when the Redis client
// does not honour contexts' deadlines (go-redis without
// ContextTimeoutEnabled): the command ends later, by the client's own
// timeouts, in a goroutine of its own.
func bounded[T any](ctx context.Context, timeout time.Duration, cmd func(context.Context) (T, error)) (T, error) {
	opCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := cmd(opCtx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil && ctx.Err() == nil && opCtx.Err() != nil {
			r.err = fmt.Errorf("no answer within %v: %w", timeout, r.err)
		}
		return r.v, r.err
	case <-opCtx.Done():
		var zero T
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		return zero, fmt.Errorf("no answer within %v", timeout)
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// sleep waits d, unless ctx ends first or its deadline comes before.
func sleep(ctx context.Context, d time.Duration, key chat.LimitKey) error {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return fmt.Errorf("redislimit: the %s budget of app %q has no permit before the context's deadline: %w", key.Class, key.AppID, context.DeadlineExceeded)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// tryRedis reports whether a request should ask Redis: while Redis is
// reachable; and the epoch, which the request's answer is to be reported
// with. While Redis is not reachable, it starts a probe once per probe
// interval, which the requests do not wait for.
func (l *Limiter) tryRedis() (bool, uint64) {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	if !l.down {
		return true, l.epoch
	}
	if !l.probing && !l.now().Before(l.nextProbe) {
		l.probing = true
		go l.probe(l.epoch)
	}
	return false, l.epoch
}

// probe pings Redis, and marks it reachable when it answers: the outage
// of epoch is over.
func (l *Limiter) probe(epoch uint64) {
	_, err := bounded(context.Background(), l.cfg.timeout, func(ctx context.Context) (string, error) {
		return l.rdb.Ping(ctx).Result()
	})
	l.hmu.Lock()
	l.probing, l.nextProbe = false, l.now().Add(l.cfg.probeInterval)
	if err != nil {
		l.lastErr = err
	}
	l.hmu.Unlock()
	if err == nil {
		l.markUp(epoch)
	}
}

// markDown records that Redis failed a command sent in epoch, and logs it
// when it was reachable. A command sent before Redis was last found
// unreachable, or reachable again, tells nothing of Redis since: its
// failure is ignored.
func (l *Limiter) markDown(err error, epoch uint64) {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	if epoch != l.epoch {
		return
	}
	l.lastErr = err
	if l.down {
		return
	}
	l.down, l.nextProbe, l.epoch = true, l.now().Add(l.cfg.probeInterval), l.epoch+1
	if l.cfg.failClosed {
		l.cfg.logger.Warn("redislimit: Redis is unreachable; refusing requests until it answers (fail closed)",
			"err", err.Error(), "prefix", l.cfg.prefix, "probe_interval", l.cfg.probeInterval)
		return
	}
	l.cfg.logger.Warn("redislimit: Redis is unreachable; pacing this process on its own at a share of the budgets until it answers",
		"err", err.Error(), "prefix", l.cfg.prefix, "share", l.cfg.share, "probe_interval", l.cfg.probeInterval)
}

// markUp records that Redis answered a command sent in epoch, and logs it
// when it was unreachable. An answer to a command sent before Redis was
// last found unreachable tells nothing of Redis since: it is ignored.
func (l *Limiter) markUp(epoch uint64) {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	if !l.down || epoch != l.epoch {
		return
	}
	l.down, l.lastErr, l.epoch = false, nil, l.epoch+1
	l.cfg.logger.Info("redislimit: Redis answers again; sharing the budgets", "prefix", l.cfg.prefix)
}

// fallback is Wait while Redis is unreachable.
func (l *Limiter) fallback(ctx context.Context, key chat.LimitKey) error {
	if l.local != nil {
		return l.local.Wait(ctx, key)
	}
	l.hmu.Lock()
	cause := l.lastErr
	l.hmu.Unlock()
	return fmt.Errorf("redislimit: no permit for the %s budget of app %q: %w (%v)", key.Class, key.AppID, ErrUnavailable, cause)
}

// Observe learns from an answer to a request of key, as the package doc
// says: a 429, or nothing left of the budget, holds the class back in
// every process sharing the budget; a smaller budget reported is paced
// at. The fallback learns from every answer too.
func (l *Limiter) Observe(ctx context.Context, key chat.LimitKey, obs chat.RateObservation) {
	if l.local != nil {
		l.local.Observe(ctx, key, obs)
	}
	ks := l.state(key)
	now := l.now()
	wait := l.serverWait(obs, now).Truncate(time.Millisecond)
	ks.mu.Lock()
	if obs.Limit > 0 {
		ks.budget = min(ks.configured, obs.Limit)
	}
	until := now.Add(wait)
	if wait <= 0 || !until.After(ks.held) {
		ks.mu.Unlock()
		return
	}
	ks.held = until
	ks.mu.Unlock()
	l.hmu.Lock()
	down, epoch := l.down, l.epoch
	l.hmu.Unlock()
	if down {
		return // the fallback holds itself back
	}
	// Share the hold: a longer one replaces it, a shorter one does not.
	_, err := bounded(context.WithoutCancel(ctx), l.cfg.timeout, func(ctx context.Context) (any, error) {
		return holdScript.Run(ctx, l.rdb, []string{ks.holdKey}, wait.Milliseconds()).Result()
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		l.markDown(err, epoch)
	}
}

// serverWait returns how long, from now, obs asks its class to be held
// back: after a 429, Retry-After, else X-Rate-Limit-Reset (as
// [chat.RateObservation.RefusedUntil] reads them), else a second of a
// minute; after an answer saying nothing is left of the budget,
// X-Rate-Limit-Reset. It is at most one window and at most the SDK's cap
// on server waits; 0 or less for no hold.
func (l *Limiter) serverWait(obs chat.RateObservation, now time.Time) time.Duration {
	if obs.Received.IsZero() {
		obs.Received = now
	}
	var wait time.Duration
	switch {
	case obs.Status == http.StatusTooManyRequests:
		until := obs.RefusedUntil()
		if until.IsZero() {
			return min(l.cfg.limits.Per/60, l.maxHold()) // no hint: a second of a minute
		}
		wait = until.Sub(now)
	case obs.Remaining == 0 && obs.Status < 300 && !obs.Reset.IsZero():
		wait = obs.Reset.Sub(now)
	}
	return min(wait, l.maxHold())
}

// maxHold is the longest a hold lasts: one window, and no longer than the
// SDK's clients wait for a server by default.
func (l *Limiter) maxHold() time.Duration {
	return min(l.cfg.limits.Per, chat.DefaultRetryPolicy().MaxServerWait)
}

// holdScript holds KEYS[1] for ARGV[1] milliseconds by Redis's clock,
// unless it is held longer already: the key expires when the hold ends,
// and holds its end, in Unix milliseconds by Redis's clock, for operators.
// capScript cuts a longer hold of KEYS[1] to ARGV[1] milliseconds the same
// way, and leaves a shorter one (or none) alone.
var (
	holdScript = redis.NewScript(setHold(`ms > redis.call("PTTL", KEYS[1])`))
	capScript  = redis.NewScript(setHold(`ms < redis.call("PTTL", KEYS[1])`))
)

// setHold is the script that holds KEYS[1] for ARGV[1] milliseconds when
// cond holds.
func setHold(cond string) string {
	return `
local ms = tonumber(ARGV[1])
if ` + cond + ` then
  local t = redis.call("TIME")
  local at = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ms
  redis.call("SET", KEYS[1], string.format("%.0f", at), "PX", ms)
end
return 0
`
}

// String describes the Limiter: its prefix and what it does when Redis is
// unreachable.
func (l *Limiter) String() string {
	mode := "fail closed"
	if l.local != nil {
		mode = fmt.Sprintf("fallback at %g of the budgets", l.cfg.share)
	}
	return fmt.Sprintf("redislimit.Limiter{prefix: %q, core: %d, standard: %d per %v, %s}", l.cfg.prefix, l.core, l.standard, l.cfg.limits.Per, mode)
}

// GoString is String, for %#v.
func (l *Limiter) GoString() string { return l.String() }

// Format prints String with every verb, so that no verb shows the Redis
// client's options (its password among them).
func (l *Limiter) Format(f fmt.State, _ rune) { io.WriteString(f, l.String()) }

var _ chat.Limiter = (*Limiter)(nil)
