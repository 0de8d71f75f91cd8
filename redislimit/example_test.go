package redislimit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/redislimit"
)

// Each server of a fleet builds one Limiter at start-up, on the fleet's
// Redis, and gives it to its clients. New sends nothing to Redis: the
// first request does.
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: "redis.internal:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	limiter, err := redislimit.New(rdb,
		redislimit.WithFallback(0.25), // Redis down: each of 4 servers at a quarter of the budgets
	)
	if err != nil {
		log.Fatal(err)
	}
	client, err := chat.NewClient("my-app", "my-api-key", chat.WithLimiter(limiter))
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()
	fmt.Println(limiter)
	// Output:
	// redislimit.Limiter{prefix: "chat:", core: 10000, standard: 20000 per 1m0s, fallback at 0.25 of the budgets}
}

// A Limiter failing closed refuses requests while Redis is unreachable:
// the calls of its clients fail, unsent, with an error matching
// ErrUnavailable. It logs the outage once.
func ExampleWithFailClosed() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}) // nothing listens there
	defer rdb.Close()
	limiter, err := redislimit.New(rdb, redislimit.WithFailClosed(), redislimit.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		log.Fatal(err)
	}
	err = limiter.Wait(context.Background(), chat.LimitKey{AppID: "my-app", Class: chat.ClassCore})
	fmt.Println(errors.Is(err, redislimit.ErrUnavailable), limiter.Degraded())
	// Output:
	// true true
}
