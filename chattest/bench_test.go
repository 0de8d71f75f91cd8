package chattest_test

// How many requests a second chattest serves through the SDK, over its
// HTTPS loopback server: what a test suite built on it can expect.
// BENCHMARKS.md reports them (go run ./internal/benchreport).

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
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

// BenchmarkUsersGetFloor measures Users.Get through the SDK from 32
// goroutines against chattest and, in the same run, against a trivial
// handler that answers the same bytes chattest answers (the floor): the
// same httptest TLS server with HTTP/2, the same client and transport.
// Each iteration sends a batch of 128 requests to each, in alternating
// order, so that both see the same load of a shared machine. It reports
// both rates and their ratio (chattest/floor): what chattest's own work
// costs. BENCHMARKS.md reports them.
func BenchmarkUsersGetFloor(b *testing.B) {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice", Metadata: map[string]any{"team": "blue"}})
	benchFloor(b, srv, http.MethodGet, "/v3/users/alice", "", nil, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Users.Get(ctx, "alice")
		return err
	})
}

// BenchmarkMessagesSendFloor is BenchmarkUsersGetFloor for Messages.Send:
// a text message from one user to another. chattest stores every message
// sent; the floor answers what chattest answered to the first.
func BenchmarkMessagesSendFloor(b *testing.B) {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "sender", Name: "Sender"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	const body = `{"receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"Hello Bob"}}`
	benchFloor(b, srv, http.MethodPost, "/v3/messages", body, map[string]string{"onBehalfOf": "sender"}, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hello Bob"},
		}, chat.OnBehalfOf("sender"))
		return err
	})
}

// benchFloor runs call against srv and against a trivial handler that
// answers what srv answers to the request method path, with body and
// header, and reports the rates and their ratio. The trivial handler reads
// the request body, as any handler does, and counts X-Rate-Limit-Remaining
// down in windows of a minute as chattest does, so that it answers the
// same bytes: a header whose value changes costs HTTP/2's header
// compression more than one that does not.
func benchFloor(b *testing.B, srv *chattest.Server, method, path, body string, header map[string]string, call func(context.Context, *chat.Client) error) {
	b.Helper()
	req, err := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("apikey", srv.APIKey())
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s %s: %d %s %v", method, path, resp.StatusCode, answer, err)
	}
	hdr := resp.Header.Clone()
	hdr.Del("Date")
	hdr.Del("Content-Length")
	hdr.Del("X-Rate-Limit-Remaining")
	limit, err := strconv.Atoi(hdr.Get("X-Rate-Limit"))
	if err != nil {
		b.Fatalf("X-Rate-Limit: %v", err)
	}

	var window, used atomic.Int64
	floor := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		for k, v := range hdr {
			w.Header()[k] = v
		}
		if now := time.Now().Unix() / 60; window.Swap(now) != now {
			used.Store(0)
		}
		w.Header()["X-Rate-Limit-Remaining"] = []string{strconv.Itoa(max(limit-int(used.Add(1)), 0))}
		w.Write(answer)
	}))
	floor.EnableHTTP2 = true
	floor.StartTLS()
	defer floor.Close()
	pool := x509.NewCertPool()
	pool.AddCert(floor.Certificate())
	t := chat.NewTransport()
	t.Proxy = nil
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	defer t.CloseIdleConnections()
	floorClient, err := chat.NewClient(srv.AppID(), srv.APIKey(), chat.WithBaseURL(floor.URL), chat.WithHTTPClient(&http.Client{Transport: t}))
	if err != nil {
		b.Fatal(err)
	}
	clients := [2]*chat.Client{srv.Client(), floorClient}

	const batch, goroutines = 128, 32
	var took [2]time.Duration
	round := 0
	for b.Loop() {
		for k := range 2 {
			side := (round + k) % 2
			start := time.Now()
			err := faketest.InParallel(batch, goroutines, func(int) error { return call(context.Background(), clients[side]) })
			if err != nil {
				b.Fatal(err)
			}
			took[side] += time.Since(start)
		}
		round++
	}
	n := float64(b.N * batch)
	b.ReportMetric(n/took[0].Seconds(), "chattest-req/s")
	b.ReportMetric(n/took[1].Seconds(), "floor-req/s")
	b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "ratio")
}
