package chat_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// A client with a RateLimiter waits for a permit of the app's budgets
// before each request, and learns the budgets the service reports: here
// the app's core budget is 600 requests a minute, not the default 10,000.
func ExampleNewRateLimiter() {
	srv := chattest.NewServer(chattest.WithRateLimit(600, 1200))
	defer srv.Close()
	limiter := chat.NewRateLimiter(chat.RateLimits{}) // the service's budgets: 10,000 core and 20,000 standard a minute
	client := srv.Client(chat.WithLimiter(limiter))
	core := chat.LimitKey{AppID: client.AppID(), Class: chat.ClassCore}
	fmt.Println("core budget before:", limiter.Budget(core))

	u, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "ann", Name: "Ann"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", u.UID)
	fmt.Println("core budget after:", limiter.Budget(core))
	// Output:
	// core budget before: 10000
	// created ann
	// core budget after: 600
}

// countingLimiter is a Limiter written outside package chat: it counts
// the permits asked for each class, and delegates to a RateLimiter. A
// Limiter shared by several processes (through a store keyed by app and
// class) has the same two methods.
type countingLimiter struct {
	next chat.Limiter

	mu    sync.Mutex
	waits map[chat.OperationClass]int
}

func (l *countingLimiter) Wait(ctx context.Context, key chat.LimitKey) error {
	l.mu.Lock()
	l.waits[key.Class]++
	l.mu.Unlock()
	return l.next.Wait(ctx, key)
}

func (l *countingLimiter) Observe(ctx context.Context, key chat.LimitKey, obs chat.RateObservation) {
	l.next.Observe(ctx, key, obs)
}

func ExampleLimiter() {
	srv := chattest.NewServer()
	defer srv.Close()
	limiter := &countingLimiter{next: chat.NewRateLimiter(chat.RateLimits{}), waits: map[chat.OperationClass]int{}}
	client := srv.Client(chat.WithLimiter(limiter))
	ctx := context.Background()

	if _, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "ann", Name: "Ann"}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Users.Get(ctx, "ann"); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Users.Delete(ctx, "ann", nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("core:", limiter.waits[chat.ClassCore])
	fmt.Println("standard:", limiter.waits[chat.ClassStandard])
	// Output:
	// core: 2
	// standard: 1
}
