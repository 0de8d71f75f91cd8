package redislimit_test

// Redis stopped in the middle of a run, as a crash or a lost machine would
// stop it, then started again.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/redislimit"
)

// eventually waits until cond holds, checking every 10ms, and fails t when
// it does not within limit.
func eventually(t *testing.T, limit time.Duration, cond func() bool, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("not within %v: %s", limit, what)
		case <-tick.C:
		}
	}
}

// TestRedisStoppedMidRun runs a fleet of three members (one process each,
// here three Limiters on their own Redis clients) at the budget; kills
// Redis after 1.5s, and starts it again 1.5s later. While it is down each
// member paces on its own at a third of the budget, as configured; every
// member logs one warning when Redis goes and one notice when it is back;
// no call fails, none waits longer than a second, no 429 reaches a caller
// and no user is created twice.
func TestRedisStoppedMidRun(t *testing.T) {
	rp := startRedis(t)
	const budget, members, goroutines = 300, 3, 4
	f := newFleet(t, budget, rp.Addr())
	start := time.Now().Add(200 * time.Millisecond)
	end := start.Add(4500 * time.Millisecond)

	ms := make([]*fleetMember, members)
	for i := range ms {
		cfg := f.base
		cfg.Name, cfg.Goroutines, cfg.Start, cfg.End, cfg.FallbackShare = fmt.Sprintf("m%d", i), goroutines, start, end, 1.0/members
		m, err := newFleetMember(cfg, redislimit.WithProbeInterval(100*time.Millisecond))
		require.NoError(t, err)
		defer m.close()
		ms[i] = m
	}
	results := make([]fleetResult, members)
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Go(func() { results[i] = m.run() })
	}

	allDegraded := func(want bool) func() bool {
		return func() bool {
			for _, m := range ms {
				if m.limiter.Degraded() != want {
					return false
				}
			}
			return true
		}
	}
	time.Sleep(time.Until(start.Add(1500 * time.Millisecond)))
	created, _ := f.serverCounts()
	rp.Stop()
	down := time.Now()
	eventually(t, 2*time.Second, allDegraded(true), "every member takes its fallback")
	time.Sleep(time.Until(down.Add(1500 * time.Millisecond)))
	during, _ := f.serverCounts()
	up := time.Now()
	rp.Start()
	eventually(t, 2*time.Second, allDegraded(false), "every member shares the budget again")
	wg.Wait()

	share := f.check(t, start, results)
	outage := float64(during-created) / up.Sub(down).Seconds() / budget
	t.Logf("while Redis was down: %.1f%% of the budget (three members at a third each)", 100*outage)
	// When Redis dies, each member loses up to the timeout (250ms) on the
	// command under way before it falls back: about 5% of this run.
	assert.True(t, share >= 0.80 && share <= 1.0, "the fleet achieved %.1f%% of the budget, not 80-100%%", 100*share)
	for _, r := range results {
		assert.Equal(t, 1, r.Warnings, "%s: one warning for the outage", r.Name)
		assert.Equal(t, 1, r.Recovered, "%s: one notice for the recovery", r.Name)
		assert.False(t, r.Degraded, "%s ended sharing the budget", r.Name)
		assert.Less(t, r.Slowest, time.Second, "%s: the longest call", r.Name)
	}
	for _, m := range ms {
		msgs := m.logs.messages()
		require.Len(t, msgs, 2)
		assert.Contains(t, msgs[0], "WARN redislimit: Redis is unreachable; pacing this process on its own at a share of the budgets until it answers")
		assert.Contains(t, msgs[0], "share=0.333")
		assert.Contains(t, msgs[1], "INFO redislimit: Redis answers again; sharing the budgets")
	}
}

// TestFailClosedStopsCallsWhileRedisIsDown: a client whose Limiter fails
// closed sends nothing while Redis is down, and its calls fail at once
// with ErrUnavailable; when Redis is back, calls go through again.
func TestFailClosedStopsCallsWhileRedisIsDown(t *testing.T) {
	rp := startRedis(t)
	f := newFleet(t, 300, rp.Addr())
	cfg := f.base
	cfg.Name, cfg.Goroutines = "closed", 1
	m, err := newFleetMember(cfg, redislimit.WithFailClosed(), redislimit.WithProbeInterval(50*time.Millisecond))
	require.NoError(t, err)
	defer m.close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // a hang fails the test, not the run
	defer cancel()
	create := func(uid string) error {
		_, err := m.client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
		return err
	}
	require.NoError(t, create("before"))

	rp.Stop()
	sent := f.srv.RequestCount("POST /v3/users")
	for i := range 5 {
		err := create(fmt.Sprintf("during-%d", i))
		require.ErrorIs(t, err, redislimit.ErrUnavailable)
		assert.False(t, errors.Is(err, context.DeadlineExceeded), "the call failed at once, not by the context")
	}
	assert.Equal(t, sent, f.srv.RequestCount("POST /v3/users"), "nothing sent while Redis is down")
	assert.True(t, m.limiter.Degraded())

	rp.Start()
	var after error
	eventually(t, 5*time.Second, func() bool { after = create("after"); return after == nil }, "a call succeeds once Redis is back")
	assert.False(t, m.limiter.Degraded())
	_, ok := f.srv.User("after")
	assert.True(t, ok)
	assert.Equal(t, 1, m.logs.count(slog.LevelWarn), "%q", m.logs.messages())
	assert.Equal(t, 1, m.logs.count(slog.LevelInfo), "%q", m.logs.messages())
}
