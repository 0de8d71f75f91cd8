package chattest_test

// How many requests a second chattest serves through the SDK, over its
// HTTPS loopback server: what a test suite built on it can expect.
// BENCHMARKS.md reports them (go run ./internal/benchreport).

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// BenchmarkServerThroughput sends Users.Get and Messages.Send to one
// chattest server, from one goroutine (serial) and from 32 (parallel32),
// and reports requests per second (req/s).
func BenchmarkServerThroughput(b *testing.B) {
	ops := []struct {
		name string
		call func(ctx context.Context, c *chat.Client, i int64) error
	}{
		{"users-get", func(ctx context.Context, c *chat.Client, i int64) error {
			_, err := c.Users.Get(ctx, "user-"+strconv.FormatInt(i%100, 10))
			return err
		}},
		{"messages-send", func(ctx context.Context, c *chat.Client, i int64) error {
			_, err := c.Messages.Send(ctx, &chat.SendMessageRequest{
				Receiver: "user-" + strconv.FormatInt(i%100, 10), ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Text: "Hello " + strconv.FormatInt(i, 10)},
			}, chat.OnBehalfOf("sender"))
			return err
		}},
	}
	for _, op := range ops {
		for _, goroutines := range []int{1, 32} {
			name := op.name + "/serial"
			if goroutines > 1 {
				name = op.name + "/parallel" + strconv.Itoa(goroutines)
			}
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				srv := chattest.NewServer()
				defer srv.Close()
				srv.AddUser(chat.User{UID: "sender", Name: "Sender"})
				for i := range 100 {
					srv.AddUser(chat.User{UID: "user-" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i)})
				}
				c := srv.Client()
				defer c.CloseIdleConnections()
				var n atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				if goroutines == 1 {
					for i := 0; i < b.N; i++ {
						if err := op.call(ctx, c, int64(i)); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					b.SetParallelism(max(1, goroutines/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := op.call(ctx, c, n.Add(1)); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			})
		}
	}
}
