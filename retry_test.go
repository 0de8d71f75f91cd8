package chat_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// fastRetries retries 3 times with waits of a millisecond or two, so that
// the tests do not sleep.
var fastRetries = chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond})

// retryCall is one SDK method, by HTTP method.
type retryCall struct {
	name       string
	idempotent bool // PUT, DELETE and GET
	safe       bool // GET: it only reads
	call       func(ctx context.Context, c *chat.Client) error
	path       string
	body       string // the JSON body each attempt must carry; "" for none
}

var retryCalls = []retryCall{
	{
		name: "GET Users.Get", idempotent: true, safe: true, path: "/v3/users/u1",
		call: func(ctx context.Context, c *chat.Client) error { _, err := c.Users.Get(ctx, "u1"); return err },
	},
	{
		name: "PUT Users.Update", idempotent: true, path: "/v3/users/u1", body: `{"name":"New Name","tags":["a"]}`,
		call: func(ctx context.Context, c *chat.Client) error {
			_, err := c.Users.Update(ctx, "u1", &chat.UpdateUserRequest{Name: "New Name", Tags: []string{"a"}})
			return err
		},
	},
	{
		name: "DELETE Users.Delete", idempotent: true, path: "/v3/users/u1", body: `{"permanent":true}`,
		call: func(ctx context.Context, c *chat.Client) error {
			_, err := c.Users.Delete(ctx, "u1", &chat.DeleteUserRequest{Permanent: true})
			return err
		},
	},
	{
		name: "POST Messages.Send", path: "/v3/messages", body: `{"receiver":"u2","receiverType":"user","data":{"text":"hi"},"muid":"m1"}`,
		call: func(ctx context.Context, c *chat.Client) error {
			_, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "u2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}, MUID: "m1"})
			return err
		},
	},
	{
		name: "POST Messages.SendThread", path: "/v3/messages/42/thread", body: `{"receiver":"u2","receiverType":"user","data":{"text":"hi"},"muid":"m1"}`,
		call: func(ctx context.Context, c *chat.Client) error {
			_, err := c.Messages.SendThread(ctx, "42", "u1", &chat.SendMessageRequest{Receiver: "u2", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}, MUID: "m1"})
			return err
		},
	},
}

// TestRetryTable checks, for each method and each way an attempt can fail,
// how many attempts the server sees.
func TestRetryTable(t *testing.T) {
	errorBody := func(code string) string { return `{"error":{"code":"` + code + `","message":"failed"}}` }
	outcomes := []struct {
		name string
		// respond answers every attempt.
		respond func(*http.Request) (*http.Response, error)
		status  int   // 0 for a transport error
		cause   error // the transport error
		// attempts expected for idempotent methods and for POST.
		idempotentAttempts, postAttempts int
	}{
		{
			name: "connection refused before any connection",
			respond: func(*http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED)
			},
			cause:              syscall.ECONNREFUSED,
			idempotentAttempts: 4, postAttempts: 4,
		},
		{
			name:               "certificate not trusted",
			respond:            func(*http.Request) (*http.Response, error) { return nil, x509.UnknownAuthorityError{} },
			cause:              x509.UnknownAuthorityError{},
			idempotentAttempts: 1, postAttempts: 1,
		},
		{name: "429", status: 429, idempotentAttempts: 4, postAttempts: 4},
		{name: "429 with Retry-After 0", status: 429, idempotentAttempts: 4, postAttempts: 4,
			respond: func(*http.Request) (*http.Response, error) {
				return wiretest.JSONResponse(429, errorBody("ERR_TOO_MANY_REQUESTS"), "Retry-After", "0"), nil
			}},
		{name: "429 with a reset already passed", status: 429, idempotentAttempts: 4, postAttempts: 4,
			respond: func(*http.Request) (*http.Response, error) {
				return wiretest.JSONResponse(429, errorBody("ERR_TOO_MANY_REQUESTS"), "X-Rate-Limit-Reset", fmt.Sprint(time.Now().Add(-time.Minute).Unix())), nil
			}},
		{name: "500", status: 500, idempotentAttempts: 4, postAttempts: 1},
		{name: "501", status: 501, idempotentAttempts: 1, postAttempts: 1},
		{name: "502", status: 502, idempotentAttempts: 4, postAttempts: 1},
		{name: "503", status: 503, idempotentAttempts: 4, postAttempts: 1},
		{name: "503 with Retry-After 0", status: 503, idempotentAttempts: 4, postAttempts: 1,
			respond: func(*http.Request) (*http.Response, error) {
				return wiretest.JSONResponse(503, errorBody("ERR_X"), "Retry-After", "0"), nil
			}},
		{name: "504", status: 504, idempotentAttempts: 4, postAttempts: 1},
		{name: "400", status: 400, idempotentAttempts: 1, postAttempts: 1},
		{name: "404", status: 404, idempotentAttempts: 1, postAttempts: 1},
		{name: "409", status: 409, idempotentAttempts: 1, postAttempts: 1},
	}
	for _, c := range retryCalls {
		for _, o := range outcomes {
			t.Run(c.name+"/"+o.name, func(t *testing.T) {
				client, m := wiretest.Chat(t, fastRetries)
				respond := o.respond
				if respond == nil {
					respond = func(*http.Request) (*http.Response, error) {
						return wiretest.JSONResponse(o.status, errorBody(fmt.Sprintf("ERR_%d", o.status))), nil
					}
				}
				m.Serve(func(_ int, req *http.Request) (*http.Response, error) { return respond(req) })

				err := c.call(context.Background(), client)
				want := o.postAttempts
				if c.idempotent {
					want = o.idempotentAttempts
				}
				if o.status != 0 {
					ce := wiretest.RequireAPIError(t, err)
					assert.Equal(t, o.status, ce.StatusCode)
					assert.Equal(t, want, ce.Attempts, "Error.Attempts")
				} else {
					require.ErrorIs(t, err, o.cause)
					assert.NotErrorAs(t, err, new(*chat.Error))
				}
				assert.Equal(t, want, m.Calls(), "attempts")
				for i, r := range m.Requests() {
					assert.Equal(t, c.path, r.Path, "attempt %d", i+1)
					if c.body != "" {
						assert.JSONEq(t, c.body, string(r.Body), "body of attempt %d", i+1)
					}
				}
			})
		}
	}
}

func TestRetryThenSuccess(t *testing.T) {
	for _, c := range retryCalls {
		t.Run(c.name, func(t *testing.T) {
			client, m := wiretest.Chat(t, fastRetries)
			m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
				switch attempt {
				case 1:
					return nil, syscall.ECONNREFUSED
				case 2:
					return wiretest.JSONResponse(429, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0"), nil
				}
				return wiretest.JSONResponse(200, `{"data":{"uid":"u1","id":"1","success":true}}`), nil
			})
			require.NoError(t, c.call(context.Background(), client))
			assert.Equal(t, 3, m.Calls())
		})
	}
}

func TestWithoutRetries(t *testing.T) {
	// The error each answer gives, not retried.
	wantErr := map[string]error{"connection refused": syscall.ECONNREFUSED, "429": chat.ErrRateLimited, "503": chat.ErrServer}
	responders := map[string]func(*http.Request) (*http.Response, error){
		"connection refused": func(*http.Request) (*http.Response, error) { return nil, syscall.ECONNREFUSED },
		"429": func(*http.Request) (*http.Response, error) {
			return wiretest.JSONResponse(429, `{}`, "Retry-After", "0"), nil
		},
		"503": func(*http.Request) (*http.Response, error) { return wiretest.JSONResponse(503, `{}`), nil },
	}
	for _, c := range retryCalls {
		for name, respond := range responders {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				client, m := wiretest.Chat(t, chat.WithoutRetries())
				m.Serve(func(_ int, req *http.Request) (*http.Response, error) { return respond(req) })
				require.ErrorIs(t, c.call(context.Background(), client), wantErr[name])
				assert.Equal(t, 1, m.Calls())
			})
		}
	}
}

func TestRetryServerWait(t *testing.T) {
	tests := []struct {
		name    string
		opts    []chat.Option
		ctx     func() (context.Context, context.CancelFunc)
		call    retryCall
		header  []string
		status  int
		check   func(t *testing.T, ce *chat.Error)
		wantErr bool
	}{
		{
			name: "Retry-After above MaxServerWait (default 60s) is returned at once", status: 429, call: retryCalls[0],
			header: []string{"Retry-After", "120"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, 120*time.Second, ce.RetryAfter) },
		},
		{
			name: "Retry-After above a configured MaxServerWait", status: 429, call: retryCalls[3],
			opts:   []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond, MaxServerWait: 5 * time.Second})},
			header: []string{"Retry-After", "10"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, 10*time.Second, ce.RetryAfter) },
		},
		{
			name: "Retry-After as a date beyond MaxServerWait", status: 503, call: retryCalls[1],
			header: []string{"Retry-After", time.Now().Add(2 * time.Hour).UTC().Format(http.TimeFormat)},
			check:  func(t *testing.T, ce *chat.Error) { assert.Greater(t, ce.RetryAfter, time.Hour) },
		},
		{
			name: "X-Rate-Limit-Reset beyond MaxServerWait", status: 429, call: retryCalls[4],
			header: []string{"X-Rate-Limit-Reset", fmt.Sprint(time.Now().Add(time.Hour).Unix())},
			check:  func(t *testing.T, ce *chat.Error) { assert.False(t, ce.RateLimitReset.IsZero()) },
		},
		{
			name: "Retry-After too large for int64 is too long", status: 429, call: retryCalls[0],
			header: []string{"Retry-After", "99999999999999999999999"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, time.Duration(math.MaxInt64), ce.RetryAfter) },
		},
		{
			name: "a garbage Retry-After on a 503 is too long", status: 503, call: retryCalls[1],
			header: []string{"Retry-After", "in a while"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, time.Duration(math.MaxInt64), ce.RetryAfter) },
		},
		{
			name: "a negative Retry-After is too long", status: 429, call: retryCalls[3],
			header: []string{"Retry-After", "-1"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, time.Duration(math.MaxInt64), ce.RetryAfter) },
		},
		{
			name: "an unreadable X-Rate-Limit-Reset is too long", status: 429, call: retryCalls[4],
			header: []string{"X-Rate-Limit-Reset", "tomorrow"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, time.Duration(math.MaxInt64), ce.RetryAfter) },
		},
		{
			name: "Retry-After that would pass the context deadline", status: 429, call: retryCalls[0],
			opts: []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond, MaxServerWait: 3 * time.Hour})},
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), time.Hour)
			},
			header: []string{"Retry-After", "7200"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, 2*time.Hour, ce.RetryAfter) },
		},
		{
			name: "Retry-After that would pass the client timeout", status: 503, call: retryCalls[2],
			opts: []chat.Option{chat.WithTimeout(time.Hour),
				chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond, MaxServerWait: 3 * time.Hour})},
			header: []string{"Retry-After", "7200"},
			check:  func(t *testing.T, ce *chat.Error) { assert.Equal(t, 2*time.Hour, ce.RetryAfter) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t, append([]chat.Option{fastRetries}, tt.opts...)...)
			m.Reply(tt.status, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, tt.header...)
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()

			err := tt.call.call(ctx, client)
			ce := wiretest.RequireAPIError(t, err)
			assert.Equal(t, tt.status, ce.StatusCode)
			assert.Equal(t, 1, m.Calls(), "attempts")
			assert.Equal(t, 1, ce.Attempts)
			tt.check(t, ce)
		})
	}
}

func TestRetryCancelledDuringBackoff(t *testing.T) {
	// Waits of an hour: if the call returns at all, the wait was cut short.
	slow := chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Hour, MaxWait: time.Hour})

	t.Run("cancelled by the first attempt", func(t *testing.T) {
		for _, c := range retryCalls {
			t.Run(c.name, func(t *testing.T) {
				client, m := wiretest.Chat(t, slow)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				m.Serve(func(int, *http.Request) (*http.Response, error) {
					cancel()
					return wiretest.JSONResponse(429, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`), nil
				})
				err := c.call(ctx, client)
				assert.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, 1, m.Calls())
			})
		}
	})

	t.Run("cancelled while waiting", func(t *testing.T) {
		for _, c := range retryCalls {
			t.Run(c.name, func(t *testing.T) {
				client, m := wiretest.Chat(t, slow)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				attempted := make(chan struct{}, 4)
				m.Serve(func(int, *http.Request) (*http.Response, error) {
					attempted <- struct{}{}
					return wiretest.JSONResponse(429, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`), nil
				})
				go func() {
					<-attempted
					cancel()
				}()
				err := c.call(ctx, client)
				assert.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, 1, m.Calls())
			})
		}
	})
}

// countingTransport counts the round trips it is asked for.
type countingTransport struct {
	rt http.RoundTripper
	n  atomic.Int32
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.rt.RoundTrip(req)
}

// TestRetryRefusedPort sends to a real loopback port nobody listens on: no
// connection is ever made, so even a POST is retried.
func TestRetryRefusedPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	for _, c := range retryCalls {
		t.Run(c.name, func(t *testing.T) {
			tr := chat.NewTransport()
			t.Cleanup(tr.CloseIdleConnections)
			counter := &countingTransport{rt: tr}
			client, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL("http://"+addr), chat.WithInsecureLoopback(),
				chat.WithHTTPClient(&http.Client{Transport: counter}), fastRetries)
			require.NoError(t, err)

			err = c.call(context.Background(), client)
			require.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.Equal(t, int32(4), counter.n.Load(), "attempts")
		})
	}
}

// TestRetryAfterRequestSent uses a server that reads each request and then
// hangs up without answering: the request may have been acted on, so a
// write (POST, PUT, DELETE) is sent exactly once, while a GET is retried.
func TestRetryAfterRequestSent(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		seen[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)

	for _, c := range retryCalls {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			clear(seen)
			mu.Unlock()
			tr := chat.NewTransport()
			t.Cleanup(tr.CloseIdleConnections)
			client, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL(srv.URL), chat.WithInsecureLoopback(),
				chat.WithHTTPClient(&http.Client{Transport: tr}), fastRetries)
			require.NoError(t, err)

			err = c.call(context.Background(), client)
			require.ErrorIs(t, err, io.EOF)

			want := 1
			if c.safe {
				want = 4
			}
			mu.Lock()
			defer mu.Unlock()
			total := 0
			for _, n := range seen {
				total += n
			}
			assert.Equal(t, want, total, "requests the server read: %v", seen)
		})
	}
}

// TestRetryUnreadableSuccess: a GET answered 200 with a body that is not
// JSON is sent again within the budget and succeeds; a POST or a PUT so
// answered is not (the service acted), and its error says why.
func TestRetryUnreadableSuccess(t *testing.T) {
	fast := chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond})
	broken := func(attempt int, _ *http.Request) (*http.Response, error) {
		if attempt == 1 {
			return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"alice"`), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"alice","name":"Alice"}}`), nil
	}

	t.Run("GET recovers", func(t *testing.T) {
		client, m := wiretest.Chat(t, fast)
		m.Serve(broken)
		u, err := client.Users.Get(t.Context(), "alice")
		require.NoError(t, err)
		assert.Equal(t, "Alice", u.Name)
		assert.Equal(t, 2, m.Calls())
	})
	t.Run("GET gives up after the budget", func(t *testing.T) {
		client, m := wiretest.Chat(t, fast)
		m.Reply(http.StatusOK, `<html>maintenance</html>`)
		_, err := client.Users.Get(t.Context(), "alice")
		var ce *chat.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 3, m.Calls(), "1 attempt + MaxRetries 2")
		assert.Equal(t, 3, ce.Attempts)
		assert.Contains(t, ce.Message, "decoding response")
	})
	for _, write := range []struct {
		name string
		call func(c *chat.Client) error
	}{
		{"POST", func(c *chat.Client) error {
			_, err := c.Users.Create(t.Context(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
			return err
		}},
		{"PUT", func(c *chat.Client) error {
			_, err := c.Users.Update(t.Context(), "alice", &chat.UpdateUserRequest{Name: "Alice"})
			return err
		}},
	} {
		t.Run(write.name+" is not resent", func(t *testing.T) {
			client, m := wiretest.Chat(t, fast)
			m.Serve(broken)
			err := write.call(client)
			var ce *chat.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, http.StatusOK, ce.StatusCode)
			assert.Equal(t, 1, m.Calls())
		})
	}
}

// TestHostileServerWaits answers hostile-server calls with Retry-After and
// X-Rate-Limit-Reset beyond the cap or unreadable, and within it, the bulk
// import included, and with zero-valued retry policies: one reading and one
// cap of every wait. Every scenario asserts all of the promises of
// hostileEnv.check.
func TestHostileServerWaits(t *testing.T) { runHostile(t, hostileServerWaits()) }

// hostileServerWaits is TestHostileServerWaits's part of the hostile-server table.
func hostileServerWaits() hostileSection {
	s := hostileSection{title: "server waits (class 4): Retry-After and X-Rate-Limit-Reset beyond the cap or unreadable, and within it; " +
		"the bulk import's own 429 loop; zero-valued retry policies", test: "TestHostileServerWaits (retry_test.go)"}
	add := s.add
	for ra := 1; ra < len(hostileRetryAfters); ra++ {
		add(hostileScenario{Call: "Users.Get", Status: 503, Body: bodyAPIError, RetryAfter: ra},
			hostileScenario{Call: "Messages.Send", Status: 429, Body: bodyAPIError, RetryAfter: ra})
	}
	for reset := 1; reset < len(hostileResets); reset++ {
		add(hostileScenario{Call: "Users.Get", Status: 429, Body: bodyAPIError, Reset: reset})
	}
	for _, ra := range []int{1, 2, 3, 4, 7} {
		add(hostileScenario{Call: "DataImport.BulkImportGroups", Status: 429, Body: bodyAPIError, RetryAfter: ra})
	}
	add(hostileScenario{Call: "DataImport.BulkImportGroups", Status: 429, Body: bodyAPIError, Reset: 3},
		hostileScenario{Call: "DataImport.BulkImportGroups", Status: 429, Body: bodyAPIError, RetryAfter: 3, Deadline: true},
		hostileScenario{Call: "management Webhooks.Create", Status: 429, Body: bodyAPIError, RetryAfter: 4},
		hostileScenario{Call: "management Webhooks.Update", Status: 503, Body: bodyAPIError, RetryAfter: 7},
		hostileScenario{Call: "Users.All", Status: 429, Body: bodyAPIError, RetryAfter: 4},
		hostileScenario{Call: "Users.Get", Status: 503, Body: bodyAPIError, ZeroPolicy: true},
		hostileScenario{Call: "Users.Get", Status: 429, Body: bodyAPIError, RetryAfter: 2, ZeroPolicy: true},
		hostileScenario{Call: "management Webhooks.Create", Status: 429, Body: bodyAPIError, ZeroPolicy: true},
		hostileScenario{Call: "management Webhooks.Create", Status: 429, Body: bodyAPIError, RetryAfter: 2, ZeroPolicy: true},
		hostileScenario{Call: "management Webhooks.Update", Status: 503, Body: bodyAPIError, ZeroPolicy: true})
	return s
}
