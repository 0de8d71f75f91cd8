package chattest_test

// The SDK's bulk user creation against a fake that enforces the service's
// per-minute budgets, with time scaled so that a minute of the fake lasts
// a fraction of a real second: the client's RateLimiter must hold the
// budget (no 429, no user created twice) while using nearly all of it.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// rateRun is the outcome of creating users through CreateMany against a
// fake enforcing budget core requests a minute, with a clock speed times
// as fast as the real one.
type rateRun struct {
	users    int
	took     time.Duration
	surfaced int // results failing with a 429
	failed   int // results failing otherwise
	refused  int // requests the server answered 429
	posts    int // POST /v3/users requests the server received
	stored   int // distinct users the server holds
}

// createAtRateLimit creates users users with concurrency requests at once.
func createAtRateLimit(tb testing.TB, users, budget, speed, concurrency int) rateRun {
	tb.Helper()
	srv := chattest.NewServer(chattest.WithFastClock(speed), chattest.WithRateLimit(budget, 2*budget))
	defer srv.Close()
	client := srv.Client(chat.WithLimiter(srv.RateLimiter(chat.RateLimits{})))
	defer client.CloseIdleConnections()

	reqs := userRequests(users)
	start := time.Now()
	res, err := client.Users.BulkCreate(context.Background(), reqs, &chat.BulkOptions{Concurrency: concurrency})
	run := rateRun{users: users, took: time.Since(start)}
	require.NoError(tb, err)

	for _, r := range res {
		switch {
		case errors.Is(r.Err, chat.ErrRateLimited):
			run.surfaced++
		case r.Err != nil:
			run.failed++
			tb.Errorf("user %s: %v", r.Key, r.Err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			run.refused++
		}
	}
	run.posts = srv.RequestCount("POST /v3/users")
	for _, r := range reqs {
		if _, ok := srv.User(r.UID); ok {
			run.stored++
		}
	}
	return run
}

// userRequests are the creations of the users user-00000 ... of n.
func userRequests(n int) []chat.CreateUserRequest {
	reqs := make([]chat.CreateUserRequest, n)
	for i := range reqs {
		reqs[i] = chat.CreateUserRequest{UID: fmt.Sprintf("user-%05d", i), Name: fmt.Sprintf("User %d", i)}
	}
	return reqs
}

// rate is the share of the budget achieved, in percent.
func (r rateRun) rate(budget int, per time.Duration) float64 {
	perSecond := float64(r.users) / r.took.Seconds()
	return 100 * perSecond / (float64(budget) / per.Seconds())
}

// checkRateRun asserts that a run of createAtRateLimit kept the server's
// budget for the caller: no 429 reached it, every user was created once,
// and every request beyond one a user was one the server refused, sent
// again. How many the server refused depends on how late requests arrive
// after their permit, which a loaded machine stretches on a clock 60 times
// as fast: BenchmarkCreateUsersAtRateLimit reports it (server-429s).
func checkRateRun(tb testing.TB, run rateRun) {
	tb.Helper()
	assert.Zero(tb, run.surfaced, "429s surfaced to the caller")
	assert.Zero(tb, run.failed, "calls that failed otherwise")
	assert.Equal(tb, run.users, run.stored, "every user created")
	assert.Equal(tb, run.users+run.refused, run.posts, "each user sent once, and again only when the server refused it")
}

// TestCreateManyHoldsTheServersBudget creates users faster than the budget
// allows and checks that the limiter kept every request within it for the
// caller (checkRateRun). The pace itself is reported by
// BenchmarkCreateUsersAtRateLimit, not asserted.
func TestCreateManyHoldsTheServersBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("takes two seconds")
	}
	const users, budget = 600, 300 // per minute of a clock 60 times as fast: per second
	run := createAtRateLimit(t, users, budget, 60, 8)
	checkRateRun(t, run)
	t.Logf("%d users in %v: %.1f%% of the budget, %d requests refused by the server", users, run.took.Round(time.Millisecond),
		run.rate(budget, time.Second), run.refused)
}

// BenchmarkCreateUsersAtRateLimit creates 10,000 users through CreateMany
// (32 requests at once) against chattest enforcing 1,000 core requests a
// minute, with a clock 60 times as fast: 1,000 a real second. It reports
// the rate achieved as a share of the budget (the limiter paces at 97%),
// the 429s surfaced to the caller and refused by the server, and the
// requests beyond one a user; it fails as TestCreateManyHoldsTheServersBudget
// does (checkRateRun).
func BenchmarkCreateUsersAtRateLimit(b *testing.B) {
	const users, budget, speed = 10000, 1000, 60
	var last rateRun
	for b.Loop() {
		last = createAtRateLimit(b, users, budget, speed, 32)
		checkRateRun(b, last)
	}
	b.ReportMetric(last.rate(budget, time.Second), "%budget")
	b.ReportMetric(float64(users)/last.took.Seconds(), "users/s")
	b.ReportMetric(float64(last.surfaced), "429s")
	b.ReportMetric(float64(last.refused), "server-429s")
	b.ReportMetric(float64(last.posts-users), "duplicates")
}

// TestRateLimiterPacesByTheServersClock creates 90 users through a client
// whose limiter comes from Server.RateLimiter, against a server enforcing
// 60 core requests a minute on a clock 60 times as fast: the limiter paces
// by the server's minutes, so the creations spread over at least a minute
// and a half of the server's time (its users' createdAt), none refused.
// A limiter pacing by the real clock would spread them over an hour of
// the server's: the test tells the clocks apart by that factor of 60, with
// room for a loaded machine; the pace itself is
// BenchmarkCreateUsersAtRateLimit's %budget.
func TestRateLimiterPacesByTheServersClock(t *testing.T) {
	const users, budget = 90, 60
	srv := chattest.NewServer(chattest.WithFastClock(60), chattest.WithRateLimit(budget, 2*budget))
	defer srv.Close()
	client := srv.Client(chat.WithLimiter(srv.RateLimiter(chat.RateLimits{})))
	defer client.CloseIdleConnections()
	reqs := userRequests(users)
	res, err := client.Users.BulkCreate(t.Context(), reqs, &chat.BulkOptions{Concurrency: 8})
	require.NoError(t, err)
	var first, last chat.Timestamp
	for i, r := range res {
		require.NoError(t, r.Err, "user %d", i)
		u, ok := srv.User(r.Key)
		require.True(t, ok)
		if first == 0 || u.CreatedAt < first {
			first = u.CreatedAt
		}
		last = max(last, u.CreatedAt)
	}
	for _, r := range srv.Requests() {
		assert.NotEqual(t, http.StatusTooManyRequests, r.Status, "a request refused over budget")
	}
	// 90 requests at 97% of 60 a minute, the first in a burst: at least 88
	// seconds of the server's time between the first and the last.
	spread := time.Duration(last-first) * time.Second
	assert.GreaterOrEqual(t, spread, 80*time.Second, "paced faster than the server's budget")
	assert.Less(t, spread, 30*time.Minute, "paced by the real clock, not the server's")
	assert.Equal(t, budget, srv.RateLimiter(chat.RateLimits{}).Budget(chat.LimitKey{AppID: srv.AppID(), Class: chat.ClassCore}))
}
