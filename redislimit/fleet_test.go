package redislimit_test

// A fleet against chattest enforcing the service's budgets: clients in
// goroutines of this process and in worker processes (this test binary
// started again, see runAsFleetWorker) create users as fast as they can,
// each process with its own Limiter on one Redis. Time is scaled: the
// fake's clock runs 60 times as fast, so its budget per minute is a budget
// per real second, and the Limiters count per second.

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/redislimit"
)

// envFleetWorker holds a worker's fleetConfig, in JSON: a test binary
// started with it runs the worker instead of the tests.
const envFleetWorker = "CHAT_TEST_FLEET_WORKER"

// fleetConfig is what one member of the fleet (a process, or a client in
// this process standing for one) is told.
type fleetConfig struct {
	Name          string // prefixes the uids it creates
	URL           string // chattest's
	AppID         string
	APIKey        string
	CertFile      string // chattest's certificate, PEM
	RedisAddr     string
	Prefix        string
	Budget        int // core requests per second, shared by the fleet
	Goroutines    int
	Start, End    time.Time // when to start and stop creating users; a zero End: until stopped
	FallbackShare float64   // the fallback share
}

// fleetResult is what a member reports.
type fleetResult struct {
	Name      string
	Created   []string // uids created
	Surfaced  int      // calls failing with a 429
	Failed    int      // calls failing otherwise
	FirstErr  string
	Slowest   time.Duration // the longest call
	LastDone  time.Time     // when its last call returned
	Degraded  bool          // its Limiter ended on its fallback
	Warnings  int           // warnings its Limiter logged
	Recovered int           // recoveries its Limiter logged
}

// fleetMember is a running member: its Limiter and client.
type fleetMember struct {
	cfg     fleetConfig
	limiter *redislimit.Limiter
	client  *chat.Client
	rdb     *redis.Client
	logs    *logRecords
	stop    chan struct{} // closed to end a run without End
}

// newFleetMember makes the Redis client, Limiter and chat client of cfg.
func newFleetMember(cfg fleetConfig, opts ...redislimit.Option) (*fleetMember, error) {
	pemBytes, err := os.ReadFile(cfg.CertFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pemBytes) {
		return nil, errors.New("no certificate in " + cfg.CertFile)
	}
	m := &fleetMember{cfg: cfg, logs: &logRecords{}, stop: make(chan struct{})}
	m.rdb = redis.NewClient(&redis.Options{Addr: cfg.RedisAddr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond, PoolSize: 4})
	base := []redislimit.Option{
		redislimit.WithPrefix(cfg.Prefix),
		redislimit.WithLimits(chat.RateLimits{Core: cfg.Budget, Standard: 2 * cfg.Budget, Per: time.Second}),
		redislimit.WithLogger(slog.New(m.logs)),
	}
	if cfg.FallbackShare > 0 {
		base = append(base, redislimit.WithFallback(cfg.FallbackShare))
	}
	m.limiter, err = redislimit.New(m.rdb, append(base, opts...)...)
	if err != nil {
		m.rdb.Close()
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig.RootCAs = roots
	tr.MaxIdleConnsPerHost = cfg.Goroutines
	m.client, err = chat.NewClient(cfg.AppID, cfg.APIKey, chat.WithBaseURL(cfg.URL),
		chat.WithHTTPClient(&http.Client{Transport: tr}), chat.WithLimiter(m.limiter))
	if err != nil {
		m.rdb.Close()
		return nil, err
	}
	return m, nil
}

func (m *fleetMember) close() {
	m.client.CloseIdleConnections()
	m.rdb.Close()
}

// running reports whether a run goes on: until cfg.End, or without one
// until m.stop is closed.
func (m *fleetMember) running() bool {
	if !m.cfg.End.IsZero() {
		return time.Now().Before(m.cfg.End)
	}
	select {
	case <-m.stop:
		return false
	default:
		return true
	}
}

// run creates users from cfg.Start while running with cfg.Goroutines
// goroutines, and reports.
func (m *fleetMember) run() fleetResult {
	time.Sleep(time.Until(m.cfg.Start)) // every member starts at once
	res := fleetResult{Name: m.cfg.Name}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range m.cfg.Goroutines {
		wg.Go(func() {
			for i := 0; m.running(); i++ {
				uid := fmt.Sprintf("%s-g%d-%d", m.cfg.Name, g, i)
				begin := time.Now()
				_, err := m.client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: uid, Name: uid})
				took, done := time.Since(begin), time.Now()
				mu.Lock()
				res.Slowest = max(res.Slowest, took)
				if done.After(res.LastDone) {
					res.LastDone = done
				}
				switch {
				case err == nil:
					res.Created = append(res.Created, uid)
				case errors.Is(err, chat.ErrRateLimited):
					res.Surfaced++
				default:
					res.Failed++
					if res.FirstErr == "" {
						res.FirstErr = err.Error()
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.Degraded = m.limiter.Degraded()
	res.Warnings = m.logs.count(slog.LevelWarn)
	res.Recovered = m.logs.count(slog.LevelInfo)
	return res
}

// runAsFleetWorker runs a worker process when the environment says so: it
// prints its fleetResult as JSON on stdout, and reports true.
func runAsFleetWorker() bool {
	raw := os.Getenv(envFleetWorker)
	if raw == "" {
		return false
	}
	var cfg fleetConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "fleet worker:", err)
		os.Exit(2)
	}
	m, err := newFleetMember(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleet worker:", err)
		os.Exit(2)
	}
	res := m.run()
	m.close()
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		os.Exit(2)
	}
	return true
}

// fleet is a chattest server enforcing a core budget per real second, and
// what the members of a run share.
type fleet struct {
	srv    *chattest.Server
	budget int
	base   fleetConfig
}

func newFleet(t testing.TB, budget int, redisAddr string) *fleet {
	t.Helper()
	srv := chattest.NewServer(chattest.WithFastClock(60), chattest.WithRateLimit(budget, 2*budget))
	t.Cleanup(srv.Close)
	cert := filepath.Join(t.TempDir(), "chattest.pem")
	require.NoError(t, os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	return &fleet{srv: srv, budget: budget, base: fleetConfig{
		URL: srv.URL(), AppID: srv.AppID(), APIKey: srv.APIKey(), CertFile: cert,
		RedisAddr: redisAddr, Prefix: uniquePrefix(), Budget: budget,
	}}
}

// serverCounts returns the core requests the server answered 201 and 429.
func (f *fleet) serverCounts() (created, refused int) {
	for _, r := range f.srv.Requests() {
		if r.Route != "POST /v3/users" {
			continue
		}
		switch r.Status {
		case http.StatusCreated, http.StatusOK:
			created++
		case http.StatusTooManyRequests:
			refused++
		}
	}
	return created, refused
}

// check asserts what the callers and the server saw over a run from start
// to the members' last call: no 429 surfaced, no failure, each user
// created once, and returns the rate achieved as a share of the budget.
func (f *fleet) check(t testing.TB, start time.Time, results []fleetResult) (share float64) {
	t.Helper()
	var last time.Time
	seen := map[string]bool{}
	for _, r := range results {
		assert.Zero(t, r.Surfaced, "%s: 429s surfaced to callers", r.Name)
		assert.Zero(t, r.Failed, "%s: failed calls, the first: %s", r.Name, r.FirstErr)
		for _, uid := range r.Created {
			assert.False(t, seen[uid], "%s created twice", uid)
			seen[uid] = true
		}
		if r.LastDone.After(last) {
			last = r.LastDone
		}
	}
	created, refused := f.serverCounts()
	assert.Equal(t, len(seen), created, "users the server created, against calls that succeeded")
	assert.Equal(t, created+refused, f.srv.RequestCount("POST /v3/users"), "every request created a user or was refused")
	for uid := range seen {
		if _, ok := f.srv.User(uid); !ok {
			t.Errorf("%s reported created, not on the server", uid)
		}
	}
	took := last.Sub(start)
	share = float64(created) / took.Seconds() / float64(f.budget)
	t.Logf("%d members: %d users in %v, %.1f%% of the budget; %d requests refused by the server (retried, not surfaced)",
		len(results), created, took.Round(time.Millisecond), 100*share, refused)
	return share
}

// runSharedFleet runs a fleet of four members, two in this process and two
// in worker processes, each with its own Limiter and four goroutines
// creating users, for four seconds against a budget of 300 core requests
// a second, and returns it with when it started and what each member saw.
func runSharedFleet(t testing.TB) (f *fleet, start time.Time, results []fleetResult) {
	t.Helper()
	addr := redisAddr(t)
	const budget, members, goroutines = 300, 4, 4
	f = newFleet(t, budget, addr)
	start = time.Now().Add(2 * time.Second) // time for the workers to start
	end := start.Add(4 * time.Second)

	results = make([]fleetResult, members)
	var wg sync.WaitGroup
	for i := range members {
		cfg := f.base
		cfg.Name, cfg.Goroutines, cfg.Start, cfg.End = fmt.Sprintf("m%d", i), goroutines, start, end
		if i%2 == 0 { // in this process
			m, err := newFleetMember(cfg)
			require.NoError(t, err)
			t.Cleanup(m.close)
			wg.Go(func() { results[i] = m.run() })
			continue
		}
		raw, err := json.Marshal(cfg)
		require.NoError(t, err)
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
		cmd.Env = append(os.Environ(), envFleetWorker+"="+string(raw))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Start())
		wg.Go(func() {
			if err := cmd.Wait(); err != nil {
				t.Errorf("worker %s: %v\n%s", cfg.Name, err, stderr.String())
				return
			}
			if err := json.Unmarshal([]byte(stdout.String()), &results[i]); err != nil {
				t.Errorf("worker %s: %v in %q", cfg.Name, err, stdout.String())
			}
		})
	}
	wg.Wait()
	return f, start, results
}

// TestFleetSharesOneBudget runs the shared fleet (runSharedFleet): every
// member creates users without falling back or warning, no 429 reaches a
// caller, no call fails, and no user is created twice.
// BenchmarkFleetSharesOneBudget reports the share of the budget it
// achieves.
func TestFleetSharesOneBudget(t *testing.T) {
	f, start, results := runSharedFleet(t)
	if t.Failed() {
		return
	}
	for _, r := range results {
		assert.NotEmpty(t, r.Created, "member %s created users", r.Name)
		assert.False(t, r.Degraded, "member %s fell back", r.Name)
		assert.Zero(t, r.Warnings, "member %s logged a warning", r.Name)
	}
	f.check(t, start, results)
}

// BenchmarkFleetSharesOneBudget runs the shared fleet (runSharedFleet) and
// reports the rate it achieves as a share of the budget (%budget; the
// Limiters pace at 90-100%), failing as TestFleetSharesOneBudget does
// when a 429 reaches a caller, a call fails or a user is created twice.
//
//	CHAT_TEST_REDIS_ADDR=127.0.0.1:6379 go test -run '^$' -bench Fleet -benchtime 1x .
func BenchmarkFleetSharesOneBudget(b *testing.B) {
	var share float64
	for b.Loop() {
		f, start, results := runSharedFleet(b)
		if b.Failed() {
			return
		}
		share = f.check(b, start, results)
	}
	b.ReportMetric(100*share, "%budget")
}
