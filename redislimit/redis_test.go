package redislimit_test

// The tests' Redis servers. The tests run against a real redis-server:
// CHAT_TEST_REDIS_ADDR names one already running (.ci/run installs
// Debian's redis-server and starts it on a free loopback port), and
// CHAT_TEST_REDIS_SERVER the binary, from which the tests that stop Redis
// mid-run start servers of their own. Without CHAT_TEST_REDIS_ADDR the
// tests are skipped; .ci/run fails when any was.

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

const (
	envRedisAddr   = "CHAT_TEST_REDIS_ADDR"
	envRedisServer = "CHAT_TEST_REDIS_SERVER"
)

// redisAddr returns the address of the shared test Redis, or skips t.
func redisAddr(t testing.TB) string {
	t.Helper()
	addr := os.Getenv(envRedisAddr)
	if addr == "" {
		t.Skipf("needs a Redis server: set %s=host:port (.ci/run starts one)", envRedisAddr)
	}
	return addr
}

// newRedis returns a client of the Redis at addr, closed when t ends.
func newRedis(t testing.TB, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// sharedRedis returns a client of the shared test Redis, or skips t.
func sharedRedis(t testing.TB) *redis.Client {
	t.Helper()
	rdb := newRedis(t, redisAddr(t))
	require.NoError(t, rdb.Ping(t.Context()).Err(), "the Redis of %s", envRedisAddr)
	return rdb
}

// uniquePrefix returns a key prefix no other test uses, so that tests
// sharing one Redis (and, between runs, its leftovers) share no budget.
func uniquePrefix() string { return "test:" + rand.Text()[:12] + ":" }

// redisProc is a redis-server of a test's own, which the test stops and
// starts again on the same address.
type redisProc struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// startRedis starts a redis-server of t's own on a free loopback port,
// stopped when t ends. It skips t when no Redis is configured, and fails
// it when one is but the binary is missing.
func startRedis(t testing.TB) *redisProc {
	t.Helper()
	redisAddr(t)
	bin := os.Getenv(envRedisServer)
	if bin == "" {
		var err error
		bin, err = exec.LookPath("redis-server")
		require.NoError(t, err, "set %s to the redis-server binary", envRedisServer)
	}
	p := &redisProc{t: t, bin: bin, dir: t.TempDir()}
	t.Cleanup(p.Stop)
	for range 5 { // a port found free may be taken before the server binds it
		p.port = freePort(t)
		if p.start() {
			return p
		}
	}
	t.Fatal("redis-server did not start on any of 5 free ports")
	return nil
}

// Addr returns the server's address.
func (p *redisProc) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port)) }

// Start starts the server again, on the same port, after Stop.
func (p *redisProc) Start() {
	p.t.Helper()
	require.True(p.t, p.start(), "redis-server did not start again on port %d", p.port)
}

// start starts the server and waits until it answers; false when it
// exited first (its port was taken).
func (p *redisProc) start() bool {
	p.t.Helper()
	p.cmd = exec.Command(p.bin, "--port", strconv.Itoa(p.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", p.dir, "--daemonize", "no", "--loglevel", "warning")
	require.NoError(p.t, p.cmd.Start())
	done := make(chan struct{})
	p.done = done
	cmd := p.cmd
	go func() { cmd.Wait(); close(done) }()

	rdb := redis.NewClient(&redis.Options{Addr: p.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if rdb.Ping(ctx).Err() == nil {
			return true
		}
		select {
		case <-done:
			return false
		case <-ctx.Done():
			p.t.Fatalf("redis-server on port %d did not answer within 10s", p.port)
		case <-tick.C:
		}
	}
}

// Stop kills the server, as a crash or a lost machine would, and waits
// until it has exited.
func (p *redisProc) Stop() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Kill()
	<-p.done
	p.cmd = nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// silentRedis is a loopback listener that accepts connections and never
// answers, as a Redis behind a dropped network link: it counts the
// connections it accepts.
type silentRedis struct {
	ln       net.Listener
	accepted chan net.Conn
}

func newSilentRedis(t testing.TB) *silentRedis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &silentRedis{ln: ln, accepted: make(chan net.Conn, 1000)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepted <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		close(s.accepted)
		for c := range s.accepted {
			c.Close()
		}
	})
	return s
}

func (s *silentRedis) Addr() string { return s.ln.Addr().String() }

// Accepted returns how many connections it has accepted.
func (s *silentRedis) Accepted() int { return len(s.accepted) }

// String names the server, for messages.
func (p *redisProc) String() string { return fmt.Sprintf("redis-server on %s", p.Addr()) }
