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

// TestFleetExample runs the example against the test Redis: the fleet uses
// 90-100% of the budget, and no 429 reaches a caller.
func TestFleetExample(t *testing.T) {
	addr := os.Getenv("CHAT_TEST_REDIS_ADDR")
	if addr == "" {
		t.Skip("needs a Redis server: set CHAT_TEST_REDIS_ADDR=host:port (.ci/run starts one)")
	}
	var out strings.Builder
	err := run(context.Background(), config{redisAddr: addr, servers: 3, duration: 2 * time.Second, budget: 300}, &out)
	require.NoError(t, err, out.String())
	t.Log("\n" + out.String())
	assert.Contains(t, out.String(), "429s surfaced to callers: 0;")
	assert.NotContains(t, out.String(), "Redis unreachable")
	m := regexp.MustCompile(`: ([0-9.]+)% of the budget`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	share, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	assert.True(t, share >= 90 && share <= 100, "%.1f%% of the budget", share)
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
