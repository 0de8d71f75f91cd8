package redislimit_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/redislimit"
)

// BenchmarkWait measures a permit from a budget too large to wait for: a
// Limiter's Wait, against the hand-written floor (one redis_rate.Allow,
// the round trip every shared permit needs) and the in-process
// chat.RateLimiter, in the same run. Compare the ratios, not the times:
//
//	CHAT_TEST_REDIS_ADDR=127.0.0.1:6379 go test -run '^$' -bench Wait -count 6 .
func BenchmarkWait(b *testing.B) {
	rdb := sharedRedis(b)
	ctx := context.Background()
	key := chat.LimitKey{AppID: "bench", Class: chat.ClassStandard}
	const budget = 1 << 30 // a minute: never waited for

	b.Run("redislimit", func(b *testing.B) {
		l := newLimiter(b, rdb, redislimit.WithPrefix(uniquePrefix()), redislimit.WithLimits(chat.RateLimits{Standard: budget}))
		for b.Loop() {
			if err := l.Wait(ctx, key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("redis_rate.Allow", func(b *testing.B) {
		gcra := redis_rate.NewLimiter(rdb)
		name := uniquePrefix() + "{bench}:standard"
		limit := redis_rate.PerMinute(budget)
		for b.Loop() {
			if res, err := gcra.Allow(ctx, name, limit); err != nil || res.Allowed == 0 {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("chat.RateLimiter", func(b *testing.B) {
		l := chat.NewRateLimiter(chat.RateLimits{Standard: budget})
		for b.Loop() {
			if err := l.Wait(ctx, key); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkObserve429 measures sharing a 429's hold: a Limiter's Observe
// of a refused answer, which hands the wait to Redis in one script, against
// the floor of one SET with an expiry, in the same run.
//
//	CHAT_TEST_REDIS_ADDR=127.0.0.1:6379 go test -run '^$' -bench Observe429 -count 6 .
func BenchmarkObserve429(b *testing.B) {
	rdb := sharedRedis(b)
	ctx := context.Background()
	key := chat.LimitKey{AppID: "bench", Class: chat.ClassStandard}

	b.Run("redislimit", func(b *testing.B) {
		l := newLimiter(b, rdb, redislimit.WithPrefix(uniquePrefix()))
		for b.Loop() {
			// Each answer asks for a wait ending later than the last: each is shared.
			l.Observe(ctx, key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: time.Second, Received: time.Now()})
		}
		if l.Degraded() {
			b.Fatal("Redis failed")
		}
	})
	b.Run("SET PX", func(b *testing.B) {
		name := uniquePrefix() + "{bench}:standard:hold"
		for b.Loop() {
			if err := rdb.Set(ctx, name, "1", time.Second).Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
