package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/wiretest"
)

// recLimiter is a Limiter that records, in one log shared with the mock
// API, each wait and each observation.
type recLimiter struct {
	mu      sync.Mutex
	log     []string
	obs     []chat.RateObservation
	waitErr func(n int) error // the error of the nth wait (from 1); nil: none
	waits   int
}

func (l *recLimiter) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, line)
}

func (l *recLimiter) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.log...)
}

func (l *recLimiter) Wait(ctx context.Context, key chat.LimitKey) error {
	l.add(fmt.Sprintf("wait %s %s", key.AppID, key.Class))
	l.mu.Lock()
	l.waits++
	n, f := l.waits, l.waitErr
	l.mu.Unlock()
	if f != nil {
		return f(n)
	}
	return nil
}

func (l *recLimiter) Observe(_ context.Context, key chat.LimitKey, obs chat.RateObservation) {
	l.add(fmt.Sprintf("observe %s %s %d", key.AppID, key.Class, obs.Status))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.obs = append(l.obs, obs)
}

// newLimitedMock returns a client that consults lim, over a wire mock.
func newLimitedMock(t *testing.T, lim *recLimiter, opts ...chat.Option) (*chat.Client, *wiretest.Mock) {
	return wiretest.Chat(t, append(opts, chat.WithLimiter(lim))...)
}

// serveLogged makes m answer through h after logging the request in lim's log.
func serveLogged(m *wiretest.Mock, lim *recLimiter, h func(attempt int) *http.Response) {
	m.Serve(func(attempt int, req *http.Request) (*http.Response, error) {
		lim.add("send " + req.Method + " " + req.URL.EscapedPath())
		return h(attempt), nil
	})
}

func TestLimiterWaitsBeforeEveryAttemptAndObservesEveryAnswer(t *testing.T) {
	lim := &recLimiter{}
	client, m := newLimitedMock(t, lim, fastRetries)
	serveLogged(m, lim, func(attempt int) *http.Response {
		if attempt == 1 {
			return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`,
				"X-Rate-Limit", "100", "X-Rate-Limit-Remaining", "0", "Retry-After", "0", "X-Rate-Limit-Reset", "1700000060")
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"ann","name":"Ann"}}`, "X-Rate-Limit", "100", "X-Rate-Limit-Remaining", "98")
	})

	before := time.Now()
	u, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "ann", Name: "Ann"})
	require.NoError(t, err)
	assert.Equal(t, "ann", u.UID)

	assert.Equal(t, []string{
		"wait myapp core", "send POST /v3/users", "observe myapp core 429",
		"wait myapp core", "send POST /v3/users", "observe myapp core 200",
	}, lim.lines(), "a permit before each attempt, the retry's included, and each answer observed")

	require.Len(t, lim.obs, 2)
	refused, ok := lim.obs[0], lim.obs[1]
	assert.Equal(t, 100, refused.Limit)
	assert.Equal(t, 0, refused.Remaining)
	assert.Equal(t, time.Unix(1700000060, 0), refused.Reset)
	assert.Zero(t, refused.RetryAfter, "Retry-After: 0")
	assert.Equal(t, 98, ok.Remaining)
	for _, o := range lim.obs {
		assert.False(t, o.Sent.Before(before), "Sent is when the attempt got its permit")
		assert.False(t, o.Received.Before(o.Sent), "Received follows Sent")
	}
	assert.True(t, refused.Sent.Before(ok.Sent), "each attempt has its own Sent")
}

func TestLimiterObservationWithoutHeaders(t *testing.T) {
	lim := &recLimiter{}
	client, m := newLimitedMock(t, lim)
	m.Reply(http.StatusOK, `{"data":{"ok":true}}`)
	_, err := client.Users.Get(context.Background(), "ann")
	require.NoError(t, err)
	require.Len(t, lim.obs, 1)
	o := lim.obs[0]
	assert.Equal(t, http.StatusOK, o.Status)
	assert.Zero(t, o.Limit)
	assert.Equal(t, -1, o.Remaining, "no X-Rate-Limit-Remaining")
	assert.True(t, o.Reset.IsZero())
	assert.True(t, o.RefusedUntil().IsZero(), "not refused")
}

func TestRateObservationRefusedUntil(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	reset := at.Add(45 * time.Second)
	tests := []struct {
		name string
		obs  chat.RateObservation
		want time.Time
	}{
		{"Retry-After wins", chat.RateObservation{Status: 429, RetryAfter: 15 * time.Second, Reset: reset, Received: at}, at.Add(15 * time.Second)},
		{"else the reset", chat.RateObservation{Status: 429, Reset: reset, Received: at}, reset},
		{"neither", chat.RateObservation{Status: 429, Received: at}, time.Time{}},
		{"not refused", chat.RateObservation{Status: 200, RetryAfter: time.Second, Reset: reset, Received: at}, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.obs.RefusedUntil())
		})
	}
}

// TestLimiterClasses checks the class each operation waits for, and that
// the data import endpoints, whose answers report budgets of their own,
// are not observed.
func TestLimiterClasses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		call    func(c *chat.Client) error
		class   chat.OperationClass
		observe bool
	}{
		{"create user", func(c *chat.Client) error {
			_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "ann", Name: "Ann"})
			return err
		}, chat.ClassCore, true},
		{"delete user", func(c *chat.Client) error { _, err := c.Users.Delete(ctx, "ann", nil); return err }, chat.ClassCore, true},
		{"create group", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g1", Name: "G", Type: chat.GroupPublic})
			return err
		}, chat.ClassCore, true},
		{"add members", func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "g1", &chat.AddMembersRequest{Participants: []string{"ann"}})
			return err
		}, chat.ClassCore, true},
		{"get user", func(c *chat.Client) error { _, err := c.Users.Get(ctx, "ann"); return err }, chat.ClassStandard, true},
		{"update user", func(c *chat.Client) error {
			_, err := c.Users.Update(ctx, "ann", &chat.UpdateUserRequest{Name: "A"})
			return err
		}, chat.ClassStandard, true},
		{"delete group", func(c *chat.Client) error { _, err := c.Groups.Delete(ctx, "g1"); return err }, chat.ClassStandard, true},
		{"list members", func(c *chat.Client) error { _, err := c.Members.List(ctx, "g1", nil); return err }, chat.ClassStandard, true},
		{"data import", func(c *chat.Client) error {
			_, err := c.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "ann", Name: "Ann"}})
			return err
		}, chat.ClassStandard, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := &recLimiter{}
			client, m := newLimitedMock(t, lim)
			m.Reply(http.StatusOK, `{"data":{"ok":true}}`, "X-Rate-Limit", "60", "X-Rate-Limit-Remaining", "59")
			_ = tt.call(client) // the answer may not decode into every result: the class is what counts
			want := []string{"wait myapp " + string(tt.class)}
			if tt.observe {
				want = append(want, "observe myapp "+string(tt.class)+" 200")
			}
			assert.Equal(t, want, lim.lines())
		})
	}
}

func TestLimiterErrorFailsTheCallUnsent(t *testing.T) {
	down := errors.New("limiter store down")
	lim := &recLimiter{waitErr: func(int) error { return down }}
	client, m := newLimitedMock(t, lim)
	_, err := client.Users.Get(context.Background(), "ann")
	assert.ErrorIs(t, err, down)
	assert.Zero(t, m.Calls(), "nothing sent")
}

func TestLimiterErrorEndsTheRetries(t *testing.T) {
	down := errors.New("limiter store down")
	lim := &recLimiter{waitErr: func(n int) error {
		if n > 1 {
			return down
		}
		return nil
	}}
	client, m := newLimitedMock(t, lim, fastRetries)
	m.Reply(http.StatusServiceUnavailable, `{"error":{"code":"ERR_MISSION_FAILED"}}`)
	_, err := client.Users.Get(context.Background(), "ann")
	assert.ErrorIs(t, err, down)
	assert.Equal(t, 1, m.Calls(), "the retry was not sent")
}

// waitingCtx tells, through asked, when a wait selects on its Done
// channel: the waiter is then blocked.
type waitingCtx struct {
	context.Context
	once  sync.Once
	asked chan struct{}
}

func (c *waitingCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.asked) })
	return c.Context.Done()
}

func TestLimiterWaitEndsWithTheContext(t *testing.T) {
	lim := chat.NewRateLimiter(chat.RateLimits{})
	client, m := wiretest.Chat(t, chat.WithLimiter(lim))
	// A refusal blocks the core class for 30 seconds.
	m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "30")
	_, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "ann", Name: "Ann"})
	assert.ErrorIs(t, err, chat.ErrRateLimited)
	require.Equal(t, 1, m.Calls())

	parent, cancel := context.WithCancel(context.Background())
	ctx := &waitingCtx{Context: parent, asked: make(chan struct{})}
	go func() {
		<-ctx.asked
		cancel()
	}()
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, m.Calls(), "the blocked create was not sent")
}

func TestLimiterWaitCountsAgainstTheTimeout(t *testing.T) {
	lim := chat.NewRateLimiter(chat.RateLimits{})
	client, m := wiretest.Chat(t, chat.WithLimiter(lim), chat.WithTimeout(time.Second))
	m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "30")
	_, err := client.Users.Delete(context.Background(), "ann", nil)
	assert.ErrorIs(t, err, chat.ErrRateLimited)

	start := time.Now()
	_, err = client.Users.Delete(context.Background(), "bob", nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "no permit within the client's timeout")
	assert.Less(t, time.Since(start), time.Second, "refused at once, not at the timeout")
	assert.Equal(t, 1, m.Calls())

	m.Reply(http.StatusOK, `{"data":{"ok":true}}`)
	_, err = client.Users.Get(context.Background(), "bob")
	assert.NoError(t, err, "the standard class is not blocked")
	assert.Equal(t, 2, m.Calls())
}

// TestRateLimiterLearnsSmallerBudgets checks that an answer's X-Rate-Limit
// below the configured budget paces its class at it, and that a larger one
// restores the configured budget but never exceeds it.
func TestRateLimiterLearnsSmallerBudgets(t *testing.T) {
	lim := chat.NewRateLimiter(chat.RateLimits{})
	client, m := wiretest.Chat(t, chat.WithLimiter(lim))
	std := chat.LimitKey{AppID: wiretest.AppID, Class: chat.ClassStandard}
	core := chat.LimitKey{AppID: wiretest.AppID, Class: chat.ClassCore}
	assert.Equal(t, chat.DefaultStandardBudget, lim.Budget(std))
	assert.Equal(t, chat.DefaultCoreBudget, lim.Budget(core))

	m.Reply(http.StatusOK, `{"data":{"ok":true}}`, "X-Rate-Limit", "60", "X-Rate-Limit-Remaining", "59")
	_, err := client.Users.Get(context.Background(), "ann")
	require.NoError(t, err)
	assert.Equal(t, 60, lim.Budget(std), "the service's smaller budget")
	assert.Equal(t, chat.DefaultCoreBudget, lim.Budget(core), "the other class keeps its own")
	assert.Equal(t, chat.DefaultStandardBudget, lim.Budget(chat.LimitKey{AppID: "other", Class: chat.ClassStandard}), "other apps keep theirs")

	// At 60 a minute, in bursts of one, a permit comes every second.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	require.NoError(t, lim.Wait(ctx, std), "one permit at hand")
	assert.ErrorIs(t, lim.Wait(ctx, std), context.DeadlineExceeded, "the next is a second away")
	assert.NoError(t, ctx.Err(), "refused at once")

	lim.Observe(context.Background(), std, chat.RateObservation{Status: http.StatusOK, Limit: 50000, Remaining: -1})
	assert.Equal(t, chat.DefaultStandardBudget, lim.Budget(std), "never above the configured budget")
}

func TestRateLimiterBudgets(t *testing.T) {
	lim := chat.NewRateLimiter(chat.RateLimits{Core: 5, Standard: 7, Per: time.Hour})
	assert.Equal(t, 5, lim.Budget(chat.LimitKey{AppID: "a", Class: chat.ClassCore}))
	assert.Equal(t, 7, lim.Budget(chat.LimitKey{AppID: "a", Class: chat.ClassStandard}))
	assert.Equal(t, 7, lim.Budget(chat.LimitKey{AppID: "a", Class: "other"}), "an unknown class has the standard budget")
}

// TestRateLimiterPaces checks that permits come at the budget's pace: with
// 10 an hour, in bursts of one, the second is minutes away, and a wait
// that would pass the deadline is refused at once, keeping the permit for
// others.
func TestRateLimiterPaces(t *testing.T) {
	lim := chat.NewRateLimiter(chat.RateLimits{Core: 10, Standard: 10, Per: time.Hour})
	key := chat.LimitKey{AppID: "a", Class: chat.ClassCore}
	require.NoError(t, lim.Wait(context.Background(), key), "the first permit is at hand")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := lim.Wait(ctx, key)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NoError(t, ctx.Err(), "refused at once")

	assert.NoError(t, lim.Wait(context.Background(), chat.LimitKey{AppID: "b", Class: chat.ClassCore}), "another app has its own budget")
	assert.NoError(t, lim.Wait(context.Background(), chat.LimitKey{AppID: "a", Class: chat.ClassStandard}), "another class has its own budget")

	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	assert.ErrorIs(t, lim.Wait(done, chat.LimitKey{AppID: "c", Class: chat.ClassCore}), context.Canceled, "a done context gets no permit")
}

// TestRateLimiterHoldsBackWhenLittleIsLeft checks that an answer saying
// less is left of the budget than the limiter would let through before the
// window ends holds the class back, unless the request was sent at the
// window's start (the service may have counted it in the window before).
func TestRateLimiterHoldsBackWhenLittleIsLeft(t *testing.T) {
	const per = time.Hour // long, so that the window never ends during the test
	key := chat.LimitKey{AppID: "a", Class: chat.ClassCore}
	// sentInWindow is a send time the limiter trusts: past the first 5% of
	// the current window.
	sentInWindow := func() time.Time {
		now := time.Now()
		if trusted := now.Truncate(per).Add(per / 20); now.Before(trusted) {
			return trusted
		}
		return now
	}
	tests := []struct {
		name      string
		sent      func() time.Time
		remaining int
		held      bool
	}{
		{"nothing left", sentInWindow, 0, true},
		{"plenty left", sentInWindow, 600, false},
		{"sent as the window began", func() time.Time { return time.Now().Truncate(per) }, 0, false},
		{"no header", sentInWindow, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := chat.NewRateLimiter(chat.RateLimits{Core: 600, Per: per})
			lim.Observe(context.Background(), key, chat.RateObservation{Status: 200, Limit: 600, Remaining: tt.remaining, Sent: tt.sent(), Received: time.Now()})
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			err := lim.Wait(ctx, key)
			if tt.held {
				assert.ErrorIs(t, err, context.DeadlineExceeded)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

// TestRateLimiterBlocksARefusedClass checks that a 429 blocks its class,
// and only it, for the wait the service asks, at most one window.
func TestRateLimiterBlocksARefusedClass(t *testing.T) {
	core := chat.LimitKey{AppID: "a", Class: chat.ClassCore}
	refuse := func(lim *chat.RateLimiter, retryAfter time.Duration, reset time.Time) {
		lim.Observe(context.Background(), core, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1,
			RetryAfter: retryAfter, Reset: reset, Received: time.Now()})
	}
	waitWithin := func(lim *chat.RateLimiter, d time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		return lim.Wait(ctx, core)
	}

	t.Run("Retry-After", func(t *testing.T) {
		lim := chat.NewRateLimiter(chat.RateLimits{})
		refuse(lim, 30*time.Second, time.Time{})
		assert.ErrorIs(t, waitWithin(lim, 5*time.Second), context.DeadlineExceeded)
		assert.NoError(t, lim.Wait(context.Background(), chat.LimitKey{AppID: "a", Class: chat.ClassStandard}))
		assert.NoError(t, lim.Wait(context.Background(), chat.LimitKey{AppID: "b", Class: chat.ClassCore}))
	})
	t.Run("X-Rate-Limit-Reset", func(t *testing.T) {
		lim := chat.NewRateLimiter(chat.RateLimits{})
		refuse(lim, 0, time.Now().Add(30*time.Second))
		assert.ErrorIs(t, waitWithin(lim, 5*time.Second), context.DeadlineExceeded)
	})
	t.Run("until the wait has passed", func(t *testing.T) {
		lim := chat.NewRateLimiter(chat.RateLimits{})
		start := time.Now()
		refuse(lim, 30*time.Millisecond, time.Time{})
		require.NoError(t, lim.Wait(context.Background(), core))
		assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
	})
	t.Run("at most one window", func(t *testing.T) {
		lim := chat.NewRateLimiter(chat.RateLimits{Per: 50 * time.Millisecond})
		refuse(lim, time.Hour, time.Time{})
		assert.NoError(t, waitWithin(lim, 10*time.Second), "the block ends with the window, not in an hour")
	})
}

// speedClock is a clock that runs speed times as fast as the real one from
// start, as chattest's WithFastClock does.
type speedClock struct {
	start time.Time
	speed time.Duration
}

func (c speedClock) At(t time.Time) time.Time { return c.start.Add(t.Sub(c.start) * c.speed) }

func (c speedClock) Real(d time.Duration) time.Duration { return d / c.speed }

// TestRateLimiterPacesByItsClock gives a RateLimiter a clock 100 times as
// fast as the real one and a budget of 600 a minute: 60 permits come at
// the budget's pace on that clock (about 5.6 of its seconds after the
// burst of 6), which on the real clock is a twentieth of a second. A 429
// asking to wait 30 seconds blocks the class for 30 seconds of the clock.
func TestRateLimiterPacesByItsClock(t *testing.T) {
	clock := speedClock{start: time.Now(), speed: 100}
	key := chat.LimitKey{AppID: "a", Class: chat.ClassCore}
	lim := engine.NewPacedRateLimiter(chat.RateLimits{Core: 600}, clock) // as chattest's Server.RateLimiter paces
	// On the real clock the 60 permits would take 5.6 seconds; a wait past
	// this deadline fails at once.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var first, last time.Time
	for i := range 60 {
		require.NoError(t, lim.Wait(ctx, key), "permit %d", i)
		if i == 0 {
			first = clock.At(time.Now())
		}
	}
	last = clock.At(time.Now())
	paced := float64(60-6) / (600 * 0.97 / 60) // seconds of the clock for the permits beyond the burst
	assert.GreaterOrEqual(t, last.Sub(first).Seconds(), paced-0.1, "the permits came faster than the budget on the clock")

	received := time.Now()
	lim.Observe(context.Background(), key, chat.RateObservation{Status: http.StatusTooManyRequests, Remaining: -1, RetryAfter: 30 * time.Second, Received: received})
	require.NoError(t, lim.Wait(ctx, key), "30 seconds of the clock pass within the deadline")
	assert.GreaterOrEqual(t, clock.At(time.Now()).Sub(clock.At(received)), 30*time.Second, "the block ended early on the clock")
}

// End to end, against chattest.

// classLimiter records, for each answer, the class the SDK gave its
// request and the budget the fake reported.
type classLimiter struct {
	mu  sync.Mutex
	got map[string]int // "class limit" -> answers
}

func (l *classLimiter) Wait(context.Context, chat.LimitKey) error { return nil }

func (l *classLimiter) Observe(_ context.Context, key chat.LimitKey, obs chat.RateObservation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got[fmt.Sprintf("%s %d", key.Class, obs.Limit)]++
}

// TestLimiterClassesMatchTheFakes checks, over real HTTP, that the class
// the SDK gives each request is the one whose budget the fake reports.
func TestLimiterClassesMatchTheFakes(t *testing.T) {
	srv := chattest.NewServer(chattest.WithRateLimit(1000, 2000))
	t.Cleanup(srv.Close)
	lim := &classLimiter{got: map[string]int{}}
	client := srv.Client(chat.WithLimiter(lim))
	ctx := t.Context()

	_, err := client.Users.BulkCreate(ctx, []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}, {UID: "bob", Name: "Bob"}}, nil)
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic})
	require.NoError(t, err)
	_, err = client.Members.BulkAdd(ctx, "g", []chat.MemberToAdd{{UID: "ann"}}, nil)
	require.NoError(t, err)
	_, err = client.Users.Delete(ctx, "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"core 1000": 5}, lim.got)

	_, err = client.Users.Get(ctx, "ann")
	require.NoError(t, err)
	_, err = client.Users.BulkUpdate(ctx, []chat.UserUpdate{{UID: "ann", Request: chat.UpdateUserRequest{Name: "A"}}}, nil)
	require.NoError(t, err)
	_, err = client.Members.List(ctx, "g", nil)
	require.NoError(t, err)
	_, err = client.Groups.Delete(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"core 1000": 5, "standard 2000": 4}, lim.got)
}
