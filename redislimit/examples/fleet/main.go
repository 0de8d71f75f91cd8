// Command fleet runs a fleet of servers that share the app's rate budget
// through Redis: each server has its own chat client and its own
// redislimit.Limiter, as separate machines would, and all of them create
// users as fast as they can. Together they hold the budget: nearly all of
// it used, no 429 seen by a caller.
//
// It runs against the in-memory fake (package chattest) enforcing a core
// budget of 600 requests a minute, on a clock 60 times as fast, so that a
// minute of budget lasts a real second:
//
//	redis-server --port 6379 --save '' &   # any Redis; -redis sets its address
//	go run ./examples/fleet                # from the redislimit directory
//
// Without a reachable Redis it runs all the same: each server logs that it
// paces on its own, at its share of the budget (1/servers).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/redislimit"
)

// config is what the flags set.
type config struct {
	redisAddr string
	servers   int
	duration  time.Duration
	budget    int // core requests a minute of the fake's clock: a real second
}

func main() {
	cfg := config{budget: 600}
	flag.StringVar(&cfg.redisAddr, "redis", envOr("REDIS_ADDR", "127.0.0.1:6379"), "the Redis the servers share")
	flag.IntVar(&cfg.servers, "servers", 3, "how many servers the fleet has")
	flag.DurationVar(&cfg.duration, "for", 5*time.Second, "how long the servers create users")
	flag.Parse()
	if err := run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fleet:", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// server is one server of the fleet: what it builds at start-up.
type server struct {
	rdb     *redis.Client
	limiter *redislimit.Limiter
	client  *chat.Client
}

// newServer is what each server of a real fleet does once at start-up:
// one Redis client, one Limiter on it, and the chat clients that use the
// Limiter (here one). appID, apiKey and the client options are the
// server's usual ones.
func newServer(redisAddr string, share float64, limits chat.RateLimits, appID, apiKey string, opts ...chat.Option) (*server, error) {
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
	limiter, err := redislimit.New(rdb,
		redislimit.WithFallback(share), // Redis down: pace this server on its own at its share
		redislimit.WithLimits(limits),  // against the real service, leave this out: 10,000 and 20,000 a minute
	)
	if err != nil {
		rdb.Close()
		return nil, err
	}
	client, err := chat.NewClient(appID, apiKey, append(opts, chat.WithLimiter(limiter))...)
	if err != nil {
		rdb.Close()
		return nil, err
	}
	return &server{rdb: rdb, limiter: limiter, client: client}, nil
}

func (s *server) close() {
	s.client.CloseIdleConnections()
	s.rdb.Close()
}

// tally is what the servers' calls returned.
type tally struct {
	mu       sync.Mutex
	created  int
	surfaced int // calls failing with a 429
	failed   int
	firstErr error
}

func (t *tally) add(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err == nil:
		t.created++
	case errors.Is(err, chat.ErrRateLimited):
		t.surfaced++
	default:
		t.failed++
		if t.firstErr == nil {
			t.firstErr = err
		}
	}
}

// run starts the fake and the fleet, lets the servers create users for
// cfg.duration, and reports to out.
func run(ctx context.Context, cfg config, out io.Writer) error {
	if cfg.servers < 1 {
		return errors.New("-servers must be at least 1")
	}
	srv := chattest.NewServer(chattest.WithFastClock(60), chattest.WithRateLimit(cfg.budget, 2*cfg.budget))
	defer srv.Close()
	limits := chat.RateLimits{Core: cfg.budget, Standard: 2 * cfg.budget, Per: time.Second} // the fake's minute
	fmt.Fprintf(out, "chattest enforces %d core requests a minute, on a clock 60 times as fast: %d a second\n", cfg.budget, cfg.budget)

	fleet := make([]*server, cfg.servers)
	for i := range fleet {
		s, err := newServer(cfg.redisAddr, 1/float64(cfg.servers), limits, srv.AppID(), srv.APIKey(),
			chat.WithBaseURL(srv.URL()), chat.WithHTTPClient(srv.HTTPClient()))
		if err != nil {
			return err
		}
		defer s.close()
		fleet[i] = s
	}
	fmt.Fprintf(out, "%d servers, each with its own client and Limiter on Redis at %s, create users for %v\n", cfg.servers, cfg.redisAddr, cfg.duration)

	var t tally
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(cfg.duration)
	for i, s := range fleet {
		for g := range 4 { // each server's request handlers
			wg.Go(func() {
				for n := 0; time.Now().Before(end) && ctx.Err() == nil; n++ {
					uid := fmt.Sprintf("server%d-%d-%d", i, g, n)
					_, err := s.client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
					t.add(err)
				}
			})
		}
	}
	wg.Wait()
	took := time.Since(start)

	refused := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	fmt.Fprintf(out, "created %d users in %v: %.1f%% of the budget\n", t.created, took.Round(time.Millisecond),
		100*float64(t.created)/took.Seconds()/float64(cfg.budget))
	fmt.Fprintf(out, "429s surfaced to callers: %d; refused by the server and retried: %d\n", t.surfaced, refused)
	for i, s := range fleet {
		if s.limiter.Degraded() {
			fmt.Fprintf(out, "server %d: Redis unreachable, paced on its own at 1/%d of the budget\n", i, cfg.servers)
		}
	}
	if t.failed > 0 {
		return fmt.Errorf("%d calls failed, the first: %w", t.failed, t.firstErr)
	}
	return nil
}
