package chat_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// TestMain fails the package's tests when a goroutine is still running
// after they end: no test, client call or fake server may leave one behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// attemptSignal is a slog.Handler that signals each "chat: attempt" line:
// the client logs it when an attempt has failed and it decides to retry or
// not, just before it waits.
type attemptSignal chan<- struct{}

func (a attemptSignal) Enabled(context.Context, slog.Level) bool { return true }
func (a attemptSignal) WithAttrs([]slog.Attr) slog.Handler       { return a }
func (a attemptSignal) WithGroup(string) slog.Handler            { return a }
func (a attemptSignal) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "chat: attempt" {
		select {
		case a <- struct{}{}:
		default:
		}
	}
	return nil
}

// A call cancelled while it waits to retry, or while the server holds its
// request, returns the context's error at once; once the client's idle
// connections are closed, nothing of it keeps running.
func TestCancelledCallLeavesNoGoroutine(t *testing.T) {
	const route = "GET /v3/users/{uid}"
	srv := chattest.NewServer()
	t.Cleanup(srv.Close)
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	opt := goleak.IgnoreCurrent()

	attempts := make(chan struct{}, 1)
	client := srv.Client(chat.WithLogger(slog.New(attemptSignal(attempts))),
		chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 5, MinWait: time.Hour, MaxWait: time.Hour}))
	get := func(ctx context.Context) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := client.Users.Get(ctx, "alice")
			done <- err
		}()
		return done
	}
	returns := func(t *testing.T, done <-chan error) {
		t.Helper()
		select {
		case err := <-done:
			require.ErrorIs(t, err, context.Canceled)
		case <-time.After(10 * time.Second):
			t.Fatal("the cancelled call did not return")
		}
	}

	t.Run("while waiting to retry", func(t *testing.T) {
		require.NoError(t, srv.Fail(chattest.Fault{Route: route, Kind: chattest.FaultStatus, Status: 503, Times: 1}))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		done := get(ctx)
		<-attempts // the 503 is in: the call now waits an hour to retry
		cancel()
		returns(t, done)
	})

	t.Run("while the server holds the request", func(t *testing.T) {
		require.NoError(t, srv.Fail(chattest.Fault{Route: route, Delay: time.Hour, Times: 1}))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		n := srv.RequestCount(route)
		done := get(ctx)
		require.NoError(t, srv.AwaitRequests(t.Context(), route, n+1))
		cancel()
		returns(t, done)
	})

	// The transport keeps the connection of a cancelled HTTP/2 request
	// busy until the server answers a ping; then it is idle, and closing
	// idle connections ends its goroutines. Nothing else may remain.
	deadline := time.Now().Add(10 * time.Second)
	for {
		client.CloseIdleConnections()
		err := goleak.Find(opt) // retries for a while itself
		if err == nil || time.Now().After(deadline) {
			require.NoError(t, err)
			break
		}
	}
}
