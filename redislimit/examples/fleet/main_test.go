package main

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fleetExampleRedis returns the test Redis's address, or skips tb.
func fleetExampleRedis(tb testing.TB) string {
	tb.Helper()
	addr := os.Getenv("CHAT_TEST_REDIS_ADDR")
	if addr == "" {
		tb.Skip("needs a Redis server: set CHAT_TEST_REDIS_ADDR=host:port (.ci/run starts one)")
	}
	return addr
}

// runFleetExample runs the example against the test Redis, and asserts
// that no 429 reached a caller and Redis answered throughout. It returns
// the example's output and the share of the budget it reports, in percent.
func runFleetExample(tb testing.TB) (out string, share float64) {
	tb.Helper()
	var b strings.Builder
	err := run(context.Background(), config{redisAddr: fleetExampleRedis(tb), servers: 3, duration: 2 * time.Second, budget: 300}, &b)
	require.NoError(tb, err, b.String())
	out = b.String()
	assert.Contains(tb, out, "429s surfaced to callers: 0;")
	assert.NotContains(tb, out, "Redis unreachable")
	m := regexp.MustCompile(`: ([0-9.]+)% of the budget`).FindStringSubmatch(out)
	require.NotNil(tb, m, out)
	share, err = strconv.ParseFloat(m[1], 64)
	require.NoError(tb, err)
	return out, share
}

// TestFleetExample runs the example against the test Redis: no 429
// reaches a caller, and the servers share the budget through Redis
// throughout. BenchmarkFleetExample reports the share of the budget used.
func TestFleetExample(t *testing.T) {
	out, _ := runFleetExample(t)
	t.Log("\n" + out)
}

// BenchmarkFleetExample runs the example against the test Redis and
// reports the share of the budget the fleet uses (%budget: 90-100%).
func BenchmarkFleetExample(b *testing.B) {
	var share float64
	for b.Loop() {
		_, share = runFleetExample(b)
	}
	b.ReportMetric(share, "%budget")
}

// TestFleetExampleWithoutRedis: with no Redis, the servers pace on their
// own at their share, and the run still completes within the budget.
func TestFleetExampleWithoutRedis(t *testing.T) {
	if os.Getenv("CHAT_TEST_REDIS_ADDR") == "" {
		t.Skip("runs with the Redis tests")
	}
	var out strings.Builder
	err := run(context.Background(), config{redisAddr: "127.0.0.1:1", servers: 2, duration: time.Second, budget: 300}, &out)
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "429s surfaced to callers: 0;")
	assert.Contains(t, out.String(), "server 0: Redis unreachable, paced on its own at 1/2 of the budget")
	assert.Contains(t, out.String(), "server 1: Redis unreachable")
}
