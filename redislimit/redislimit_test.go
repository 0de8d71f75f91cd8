package redislimit_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/redislimit"
)

// TestMain runs a fleet worker when started as one by
// TestFleetSharesOneBudget (fleet_test.go), and otherwise the tests, which
// must leave no goroutine behind.
func TestMain(m *testing.M) {
	if runAsFleetWorker() {
		return
	}
	goleak.VerifyTestMain(m)
}

// logRecords is a slog.Handler keeping the records logged, for tests.
type logRecords struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (h *logRecords) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecords) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *logRecords) WithGroup(string) slog.Handler            { return h }
func (h *logRecords) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, r.Clone())
	return nil
}

// count returns how many records of level were logged.
func (h *logRecords) count(level slog.Level) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.recs {
		if r.Level == level {
			n++
		}
	}
	return n
}

// messages returns the records' messages with their attributes.
func (h *logRecords) messages() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		s := r.Level.String() + " " + r.Message
		r.Attrs(func(a slog.Attr) bool { s += " " + a.String(); return true })
		out = append(out, s)
	}
	return out
}

func newLimiter(t testing.TB, rdb redis.Cmdable, opts ...redislimit.Option) *redislimit.Limiter {
	t.Helper()
	l, err := redislimit.New(rdb, opts...)
	require.NoError(t, err)
	return l
}

func TestNewRefusesInvalidOptions(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for name, tc := range map[string]struct {
		rdb  redis.Cmdable
		opt  redislimit.Option
		want string
	}{
		"nil client":       {nil, nil, "rdb must not be nil"},
		"zero share":       {rdb, redislimit.WithFallback(0), "fallback share 0 is not in (0, 1]"},
		"share above one":  {rdb, redislimit.WithFallback(1.5), "fallback share 1.5 is not in (0, 1]"},
		"NaN share":        {rdb, redislimit.WithFallback(math.NaN()), "fallback share NaN is not in (0, 1]"},
		"zero timeout":     {rdb, redislimit.WithTimeout(0), "timeout 0s is not positive"},
		"negative probing": {rdb, redislimit.WithProbeInterval(-time.Second), "probe interval -1s is not positive"},
	} {
		t.Run(name, func(t *testing.T) {
			l, err := redislimit.New(tc.rdb, tc.opt)
			assert.Nil(t, l)
			assert.EqualError(t, err, "redislimit: "+tc.want)
		})
	}
	l, err := redislimit.New(rdb, nil, redislimit.WithFallback(1))
	require.NoError(t, err, "a nil option is ignored, a share of 1 is valid")
	assert.NotNil(t, l)
}

// TestPrintingHidesRedisOptions prints a Limiter whose Redis client has a
// password with every verb: the password never shows.
func TestPrintingHidesRedisOptions(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", Username: "fleet", Password: "s3cret-redis-password"})
	defer rdb.Close()
	l := newLimiter(t, rdb, redislimit.WithPrefix("prod:"), redislimit.WithFallback(0.25))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		s := fmt.Sprintf(verb, l)
		assert.NotContains(t, s, "s3cret", verb)
		assert.NotContains(t, fmt.Sprintf(verb, struct{ L *redislimit.Limiter }{l}), "s3cret", verb)
	}
	assert.Equal(t, `redislimit.Limiter{prefix: "prod:", core: 10000, standard: 20000 per 1m0s, fallback at 0.25 of the budgets}`, l.String())
}

// TestKeysAreAppAndClass checks the keys a permit leaves in Redis, and
// that each app and class has a budget of its own.
func TestKeysAreAppAndClass(t *testing.T) {
	rdb := sharedRedis(t)
	prefix := uniquePrefix()
	// One request a minute: a second permit of a key would come a minute later.
	l := newLimiter(t, rdb, redislimit.WithPrefix(prefix), redislimit.WithLimits(chat.RateLimits{Core: 2, Standard: 2}))
	ctx := t.Context()
	core := chat.LimitKey{AppID: "app1", Class: chat.ClassCore}
	require.NoError(t, l.Wait(ctx, core))

	n, err := rdb.Exists(ctx, "rate:"+prefix+"{app1}:core").Result()
	require.NoError(t, err)
	assert.EqualValues(t, 1, n, "redis_rate's key for app1's core budget")
	ttl, err := rdb.TTL(ctx, "rate:"+prefix+"{app1}:core").Result()
	require.NoError(t, err)
	assert.Positive(t, ttl, "the key expires")

	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	err = l.Wait(short, core)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the next core permit of app1 is a minute away")
	assert.ErrorContains(t, err, `the core budget of app "app1" has no permit before the context's deadline`)

	for _, other := range []chat.LimitKey{{AppID: "app1", Class: chat.ClassStandard}, {AppID: "app2", Class: chat.ClassCore}} {
		assert.NoError(t, l.Wait(short, other), "%+v has its own budget", other)
	}
	n, err = rdb.Exists(ctx, "rate:"+prefix+"{app1}:standard", "rate:"+prefix+"{app2}:core").Result()
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
}

// TestLimitersShareABudget: two Limiters (two processes) on one Redis and
// prefix draw on one budget; another prefix is another budget.
func TestLimitersShareABudget(t *testing.T) {
	rdb := sharedRedis(t)
	prefix := uniquePrefix()
	limits := redislimit.WithLimits(chat.RateLimits{Core: 2})
	a := newLimiter(t, rdb, redislimit.WithPrefix(prefix), limits)
	b := newLimiter(t, newRedis(t, redisAddr(t)), redislimit.WithPrefix(prefix), limits)
	other := newLimiter(t, rdb, redislimit.WithPrefix(uniquePrefix()), limits)
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}

	require.NoError(t, a.Wait(t.Context(), key))
	short, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	assert.ErrorIs(t, b.Wait(short, key), context.DeadlineExceeded, "a took the budget's permit")
	assert.NoError(t, other.Wait(short, key), "another prefix, another budget")
}

// TestWaitReturnsWhenContextEnds: a waiter leaves as soon as its context
// is cancelled, and so do the goroutines queued behind it in the process.
func TestWaitReturnsWhenContextEnds(t *testing.T) {
	l := newLimiter(t, sharedRedis(t), redislimit.WithPrefix(uniquePrefix()), redislimit.WithLimits(chat.RateLimits{Core: 2}))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
	require.NoError(t, l.Wait(t.Context(), key))

	ctx, cancel := context.WithCancel(t.Context())
	errs := make(chan error, 3)
	for range 3 {
		go func() { errs <- l.Wait(ctx, key) }()
	}
	cancel()
	for range 3 {
		assert.ErrorIs(t, <-errs, context.Canceled)
	}
	assert.ErrorIs(t, l.Wait(ctx, key), context.Canceled, "a done context gets no permit")
}

// TestA429HoldsEveryProcess: a 429 observed by one Limiter holds the class
// back in another sharing the budget, until the time the service asked.
func TestA429HoldsEveryProcess(t *testing.T) {
	rdb := sharedRedis(t)
	prefix := uniquePrefix()
	a := newLimiter(t, rdb, redislimit.WithPrefix(prefix))
	b := newLimiter(t, rdb, redislimit.WithPrefix(prefix))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassStandard}

	now := time.Now()
	a.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: 0, RetryAfter: 400 * time.Millisecond, Received: now})
	until := now.Add(400 * time.Millisecond)

	pttl := holdInRedis(t, rdb, prefix+"{app}:standard:hold")
	assert.True(t, pttl > 0 && pttl <= 400*time.Millisecond, "the hold expires when it ends: %v", pttl)

	short, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, b.Wait(short, key), context.DeadlineExceeded, "b is held back")
	require.NoError(t, b.Wait(t.Context(), key))
	assert.False(t, time.Now().Before(until.Truncate(time.Millisecond)), "b's permit came after the hold")

	// An earlier hold does not shorten a later one.
	b.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: time.Minute, Received: time.Now()})
	a.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: time.Second, Received: time.Now()})
	assert.Greater(t, holdInRedis(t, rdb, prefix+"{app}:standard:hold"), 50*time.Second, "the minute's hold stays")
}

// TestNothingLeftHoldsUntilReset: an answer saying nothing is left of the
// budget holds the class until X-Rate-Limit-Reset, in every process.
func TestNothingLeftHoldsUntilReset(t *testing.T) {
	rdb := sharedRedis(t)
	prefix := uniquePrefix()
	a := newLimiter(t, rdb, redislimit.WithPrefix(prefix))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
	reset := time.Now().Add(30 * time.Second).Truncate(time.Second)
	observed := time.Now()
	a.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusOK, Remaining: 0, Reset: reset, Received: observed})
	pttl := holdInRedis(t, rdb, prefix+"{app}:core:hold")
	assert.True(t, pttl > reset.Sub(observed)-time.Second && pttl <= reset.Sub(observed), "held until the reset: %v", pttl)

	a.Observe(t.Context(), chat.LimitKey{AppID: "app", Class: chat.ClassStandard},
		chat.RateObservation{Status: http.StatusOK, Remaining: 5, Reset: reset, Received: time.Now()})
	assert.Zero(t, rdb.Exists(t.Context(), prefix+"{app}:standard:hold").Val(), "something left: no hold")
}

// TestSmallerBudgetReported: the Limiter paces at a smaller budget the
// service reports, never at a larger one.
func TestSmallerBudgetReported(t *testing.T) {
	l := newLimiter(t, sharedRedis(t), redislimit.WithPrefix(uniquePrefix()))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
	assert.Equal(t, chat.DefaultCoreBudget, l.Budget(key))
	l.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusOK, Limit: 600, Remaining: -1})
	assert.Equal(t, 600, l.Budget(key))
	l.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusOK, Limit: 50000, Remaining: -1})
	assert.Equal(t, chat.DefaultCoreBudget, l.Budget(key), "no more than configured")

	// Two a minute reported: one permit now, the next a minute later.
	l.Observe(t.Context(), key, chat.RateObservation{Status: http.StatusOK, Limit: 2, Remaining: -1})
	require.NoError(t, l.Wait(t.Context(), key))
	short, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	assert.ErrorIs(t, l.Wait(short, key), context.DeadlineExceeded, "paced at the reported budget")
}

// TestUnansweringRedisFallsBackAtOnce: a Redis that accepts connections
// and never answers costs a request the timeout, once; the requests that
// follow take the fallback without asking it until the probe interval has
// passed.
func TestUnansweringRedisFallsBackAtOnce(t *testing.T) {
	redisAddr(t)
	silent := newSilentRedis(t)
	rdb := newRedis(t, silent.Addr())
	logs := &logRecords{}
	l := newLimiter(t, rdb, redislimit.WithTimeout(100*time.Millisecond), redislimit.WithProbeInterval(time.Hour),
		redislimit.WithLogger(slog.New(logs)), redislimit.WithFallback(0.5))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassStandard}

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // a hang fails the test, not the run
	defer cancel()
	require.NoError(t, l.Wait(ctx, key), "the fallback gives the permit")
	assert.True(t, l.Degraded())
	accepted := silent.Accepted()
	for range 20 {
		require.NoError(t, l.Wait(ctx, key))
	}
	assert.Equal(t, accepted, silent.Accepted(), "no new connection to the silent Redis before the probe")
	assert.Equal(t, 1, logs.count(slog.LevelWarn), "one warning per outage: %q", logs.messages())
	assert.Contains(t, logs.messages()[0], "pacing this process on its own at a share of the budgets")
	assert.Contains(t, logs.messages()[0], "share=0.5")
}

// TestFailClosedWithoutRedis: failing closed, Wait refuses at once when
// Redis is unreachable, and says why.
func TestFailClosedWithoutRedis(t *testing.T) {
	redisAddr(t)
	rdb := newRedis(t, "127.0.0.1:"+strconv.Itoa(freePort(t))) // nothing listens
	logs := &logRecords{}
	l := newLimiter(t, rdb, redislimit.WithFailClosed(), redislimit.WithLogger(slog.New(logs)))
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
	for range 3 {
		err := l.Wait(t.Context(), key)
		require.ErrorIs(t, err, redislimit.ErrUnavailable)
		assert.ErrorContains(t, err, `redislimit: no permit for the core budget of app "app": redislimit: Redis is unavailable (no answer within 250ms`)
		assert.False(t, errors.Is(err, context.DeadlineExceeded))
	}
	assert.Equal(t, 1, logs.count(slog.LevelWarn), "%q", logs.messages())
	assert.Contains(t, logs.messages()[0], "refusing requests until it answers (fail closed)")
}

// holdInRedis returns how long the hold in key has left by Redis's clock,
// and checks that the key holds the hold's end by that clock, in Unix
// milliseconds.
func holdInRedis(t *testing.T, rdb redis.Cmdable, key string) time.Duration {
	t.Helper()
	var pttl *redis.DurationCmd
	var get *redis.StringCmd
	var now *redis.TimeCmd
	_, err := rdb.TxPipelined(t.Context(), func(p redis.Pipeliner) error { // at one instant of Redis's
		pttl, get, now = p.PTTL(t.Context(), key), p.Get(t.Context(), key), p.Time(t.Context())
		return nil
	})
	require.NoError(t, err, "%s holds a hold", key)
	require.Positive(t, pttl.Val(), "%s expires when the hold ends", key)
	end, err := strconv.ParseInt(get.Val(), 10, 64)
	require.NoError(t, err, "%s holds the hold's end in Unix milliseconds: %q", key, get.Val())
	assert.InDelta(t, pttl.Val().Milliseconds(), end-now.Val().UnixMilli(), 2, "the end, by Redis's clock, is when the key expires")
	return pttl.Val()
}

// TestAHoldIgnoresProcessClocks: a process whose clock is minutes ahead,
// or behind, records a 429 asking for a second's wait: every process is
// held for that second by Redis's clock, neither for the minutes of the
// skew nor for less.
func TestAHoldIgnoresProcessClocks(t *testing.T) {
	for _, skew := range []time.Duration{5 * time.Minute, -5 * time.Minute} {
		t.Run(fmt.Sprintf("clock %+v", skew), func(t *testing.T) {
			rdb := sharedRedis(t)
			prefix := uniquePrefix()
			skewed := newLimiter(t, rdb, redislimit.WithPrefix(prefix))
			clock := func() time.Time { return time.Now().Add(skew) }
			redislimit.SetClock(skewed, clock)
			right := newLimiter(t, newRedis(t, redisAddr(t)), redislimit.WithPrefix(prefix))
			key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
			ctx := t.Context()

			// The service's clock is right: its reset is a second from now.
			skewed.Observe(ctx, key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: 0,
				RetryAfter: time.Second, Reset: time.Now().Add(time.Second), Received: clock()})
			pttl := holdInRedis(t, rdb, prefix+"{app}:core:hold")
			assert.True(t, pttl > 500*time.Millisecond && pttl <= time.Second, "held for the second asked: %v", pttl)
			for name, l := range map[string]*redislimit.Limiter{"the skewed process": skewed, "another process": right} {
				left, err := redislimit.HoldLeft(ctx, l, key)
				require.NoError(t, err)
				assert.True(t, left > 500*time.Millisecond && left <= time.Second, "%s waits the second asked: %v", name, left)
			}

			short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			assert.ErrorIs(t, right.Wait(short, key), context.DeadlineExceeded, "another process is held back")
			long, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			assert.NoError(t, right.Wait(long, key), "and gets a permit once the second has passed")

			// A longer hold set by a right clock is not shortened by a
			// shorter one from the skewed clock.
			right.Observe(ctx, key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: 30 * time.Second, Received: time.Now()})
			skewed.Observe(ctx, key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: time.Second, Received: clock()})
			assert.Greater(t, holdInRedis(t, rdb, prefix+"{app}:core:hold"), 25*time.Second, "the longer hold stays")
		})
	}
}

// TestAHoldNeverOutlastsTheWaitAsked: the hold in Redis ends when the wait
// the service asked for, counted from the answer's arrival, does; and no
// later than the SDK's cap on server waits, or one window.
func TestAHoldNeverOutlastsTheWaitAsked(t *testing.T) {
	rdb := sharedRedis(t)
	ctx := t.Context()
	type observed struct {
		name  string
		per   time.Duration // the limits' window; 0 for a minute
		obs   func(now time.Time) chat.RateObservation
		least time.Duration // the hold lasts more than this
		most  time.Duration // and no more than this
	}
	refused := func(retryAfter time.Duration, received time.Time) chat.RateObservation {
		return chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: retryAfter, Received: received}
	}
	for _, c := range []observed{
		{name: "Retry-After", obs: func(now time.Time) chat.RateObservation { return refused(2*time.Second, now) },
			least: 1500 * time.Millisecond, most: 2 * time.Second},
		{name: "Retry-After counted from the arrival", obs: func(now time.Time) chat.RateObservation {
			return refused(time.Second, now.Add(-300*time.Millisecond))
		}, least: 200 * time.Millisecond, most: 700 * time.Millisecond},
		{name: "Retry-After without the arrival's time", obs: func(time.Time) chat.RateObservation { return refused(time.Second, time.Time{}) },
			least: 500 * time.Millisecond, most: time.Second},
		{name: "Retry-After of an hour", obs: func(now time.Time) chat.RateObservation { return refused(time.Hour, now) },
			least: 55 * time.Second, most: chat.DefaultRetryPolicy().MaxServerWait},
		{name: "Retry-After longer than the window", per: 2 * time.Second,
			obs:   func(now time.Time) chat.RateObservation { return refused(time.Minute, now) },
			least: 1500 * time.Millisecond, most: 2 * time.Second},
		{name: "X-Rate-Limit-Reset", obs: func(now time.Time) chat.RateObservation {
			return chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: 0, Reset: now.Add(3 * time.Second), Received: now}
		}, least: 2500 * time.Millisecond, most: 3 * time.Second},
		{name: "X-Rate-Limit-Reset in an hour", obs: func(now time.Time) chat.RateObservation {
			return chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: 0, Reset: now.Add(time.Hour), Received: now}
		}, least: 55 * time.Second, most: chat.DefaultRetryPolicy().MaxServerWait},
		{name: "nothing left until X-Rate-Limit-Reset in an hour", obs: func(now time.Time) chat.RateObservation {
			return chat.RateObservation{Status: http.StatusOK, Remaining: 0, Reset: now.Add(time.Hour), Received: now}
		}, least: 55 * time.Second, most: chat.DefaultRetryPolicy().MaxServerWait},
	} {
		t.Run(c.name, func(t *testing.T) {
			prefix := uniquePrefix()
			l := newLimiter(t, rdb, redislimit.WithPrefix(prefix), redislimit.WithLimits(chat.RateLimits{Per: c.per}))
			key := chat.LimitKey{AppID: "app", Class: chat.ClassStandard}
			l.Observe(ctx, key, c.obs(time.Now()))
			pttl := holdInRedis(t, rdb, prefix+"{app}:standard:hold")
			assert.True(t, pttl > c.least && pttl <= c.most, "held %v, not in (%v, %v]", pttl, c.least, c.most)
			left, err := redislimit.HoldLeft(ctx, l, key)
			require.NoError(t, err)
			assert.True(t, left > c.least && left <= c.most, "Wait would wait %v, not in (%v, %v]", left, c.least, c.most)
		})
	}
}

// TestAHoldReadFromRedisIsCapped: a hold that another writer left in Redis
// (an older release, a limiter with other limits, an operator) holds the
// class back no longer than the Limiter's own cap: one window, and at most
// the SDK's cap on server waits.
func TestAHoldReadFromRedisIsCapped(t *testing.T) {
	rdb := sharedRedis(t)
	ctx := t.Context()
	key := chat.LimitKey{AppID: "app", Class: chat.ClassCore}
	for _, c := range []struct {
		name string
		per  time.Duration // the limits' window; 0 for a minute
		most time.Duration
	}{
		{"a minute's window", 0, chat.DefaultRetryPolicy().MaxServerWait},
		{"a window of 200ms", 200 * time.Millisecond, 200 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			prefix := uniquePrefix()
			l := newLimiter(t, rdb, redislimit.WithPrefix(prefix), redislimit.WithLimits(chat.RateLimits{Per: c.per}))
			require.NoError(t, rdb.Set(ctx, prefix+"{app}:core:hold", "0", 10*time.Minute).Err())
			left, err := redislimit.HoldLeft(ctx, l, key)
			require.NoError(t, err)
			assert.True(t, left > 0 && left <= c.most, "a 10-minute hold in Redis holds the class %v, not at most %v", left, c.most)
		})
	}

	t.Run("Wait", func(t *testing.T) {
		prefix := uniquePrefix()
		l := newLimiter(t, rdb, redislimit.WithPrefix(prefix), redislimit.WithLimits(chat.RateLimits{Per: 200 * time.Millisecond}))
		require.NoError(t, rdb.Set(ctx, prefix+"{app}:core:hold", "0", 10*time.Minute).Err())
		long, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		assert.NoError(t, l.Wait(long, key), "the permit comes once a window has passed, not in 10 minutes")
	})
}
