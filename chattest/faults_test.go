package chattest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// streamReset ends the error of a request whose HTTP/2 stream the fake
// reset: a connection dropped, or a body cut short.
const streamReset = "INTERNAL_ERROR; received from peer"

// noLeaks fails the test if goroutines it started outlive it. Call it
// before anything registers a cleanup, so that it runs after them all
// (servers closed, connections gone).
func noLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// fastRetries retries up to retries times without waiting (more than a
// microsecond) and never accepts to wait for a server's Retry-After.
func fastRetries(retries int) chat.Option {
	return chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: retries, MinWait: time.Microsecond,
		MaxWait: time.Microsecond, MaxServerWait: time.Millisecond})
}

// fetch sends a raw request with the server's key and returns the answer
// and its whole body.
func fetch(t *testing.T, srv *chattest.Server, method, path, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("apikey", srv.APIKey())
	hc := srv.HTTPClient()
	defer hc.CloseIdleConnections()
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

const getUser = "GET /v3/users/{uid}"

// requireStatus asserts that err is an API error with status and code, and
// returns it.
func requireStatus(t *testing.T, err error, status int, code string) *chat.Error {
	t.Helper()
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, status, ce.StatusCode, "status")
	assert.Equal(t, code, ce.Code, "code")
	return ce
}

func TestFaultAnswers(t *testing.T) {
	cases := []struct {
		name        string
		fault       chattest.Fault
		status      int
		contentType string
		code        string // JSON answers
		html        string // HTML answers
		retryAfter  string
	}{
		{"500 is the service failing", chattest.Fault{Kind: chattest.FaultStatus, Status: 500},
			500, "application/json", "ERR_MISSION_FAILED", "", ""},
		{"503 with Retry-After rounded up", chattest.Fault{Kind: chattest.FaultStatus, Status: 503, RetryAfter: 1500 * time.Millisecond},
			503, "application/json", "ERR_MISSION_FAILED", "", "2"},
		{"429 without the limiter", chattest.Fault{Kind: chattest.FaultStatus, Status: 429, RetryAfter: time.Second},
			429, "application/json", "ERR_TOO_MANY_REQUESTS", "", "1"},
		{"a code of the caller's", chattest.Fault{Kind: chattest.FaultStatus, Status: 404, Code: "ERR_UID_NOT_FOUND"},
			404, "application/json", "ERR_UID_NOT_FOUND", "", ""},
		{"400", chattest.Fault{Kind: chattest.FaultStatus, Status: 400}, 400, "application/json", "ERR_BAD_REQUEST", "", ""},
		{"other 4xx", chattest.Fault{Kind: chattest.FaultStatus, Status: 409}, 409, "application/json", "ERR_OPERATION_FAILED", "", ""},
		{"502 is the gateway's page", chattest.Fault{Kind: chattest.FaultStatus, Status: 502},
			502, "text/html; charset=utf-8", "", "502 Bad Gateway", ""},
		{"504 is the gateway's page", chattest.Fault{Kind: chattest.FaultStatus, Status: 504},
			504, "text/html; charset=utf-8", "", "504 Gateway Timeout", ""},
		{"502 with a code is the service's", chattest.Fault{Kind: chattest.FaultStatus, Status: 502, Code: "ERR_EXCEPTION"},
			502, "application/json", "ERR_EXCEPTION", "", ""},
		{"HTML defaults to 502", chattest.Fault{Kind: chattest.FaultHTML},
			502, "text/html; charset=utf-8", "", "502 Bad Gateway", ""},
		{"HTML 503 with Retry-After", chattest.Fault{Kind: chattest.FaultHTML, Status: 503, RetryAfter: 30 * time.Second},
			503, "text/html; charset=utf-8", "", "503 Service Unavailable", "30"},
		{"HTML 200", chattest.Fault{Kind: chattest.FaultHTML, Status: 200},
			200, "text/html; charset=utf-8", "", "200 OK", ""},
		{"invalid JSON", chattest.Fault{Kind: chattest.FaultInvalidJSON}, 200, "application/json", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := start(t)
			seed(srv, "alice")
			tc.fault.Route, tc.fault.Times = getUser, 1
			srv.Fail(tc.fault)

			resp, body := fetch(t, srv, "GET", "/v3/users/alice", "")
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, tc.contentType, resp.Header.Get("Content-Type"))
			assert.Equal(t, tc.retryAfter, resp.Header.Get("Retry-After"))
			switch {
			case tc.code != "":
				var e struct{ Error map[string]any }
				require.NoError(t, json.Unmarshal([]byte(body), &e), body)
				assert.Equal(t, tc.code, e.Error["code"])
				assert.Equal(t, "chat-api", e.Error["source"])
				assert.NotEmpty(t, e.Error["message"])
				assert.Equal(t, "20000", resp.Header.Get("X-Rate-Limit"), "the service's answers carry the budget")
			case tc.html != "":
				assert.Contains(t, body, "<title>"+tc.html+"</title>")
				assert.Empty(t, resp.Header.Get("X-Rate-Limit"), "a proxy's page does not")
			default:
				assert.False(t, json.Valid([]byte(body)), body)
			}
			_, err := srv.Client(chat.WithoutRetries()).Users.Delete(t.Context(), "alice", nil)
			require.NoError(t, err, "the fault was for GET, and used up")
			_, err = srv.Client(chat.WithoutRetries()).Users.Get(t.Context(), "alice")
			require.ErrorIs(t, err, chat.ErrNotFound, "the faulted GET did not hide a change: the service answers again")

			log := srv.Requests()
			require.Len(t, log, 3)
			assert.Equal(t, tc.status, log[0].Status)
			assert.Equal(t, tc.fault.Kind, log[0].Fault.Kind)
			assert.Equal(t, chattest.Fault{}, log[1].Fault)
		})
	}
}

func TestFaultRetriedBySDK(t *testing.T) {
	noLeaks(t)
	srv, _ := start(t)
	seed(srv, "alice")
	client := srv.Client(fastRetries(3))

	t.Run("429 then success", func(t *testing.T) {
		srv.ResetRequests()
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultStatus, Status: 429, Times: 1})
		u, err := client.Users.Get(t.Context(), "alice")
		require.NoError(t, err)
		assert.Equal(t, "alice", u.UID)
		log := srv.Requests()
		require.Len(t, log, 2, "two attempts")
		assert.Equal(t, []int{429, 200}, []int{log[0].Status, log[1].Status})
		assert.Equal(t, chattest.FaultStatus, log[0].Fault.Kind)
		assert.Equal(t, 2, srv.RequestCount(getUser))
	})

	t.Run("a POST is retried after 429, the service did not act", func(t *testing.T) {
		srv.ResetRequests()
		srv.Fail(chattest.Fault{Route: "POST /v3/messages", Kind: chattest.FaultStatus, Status: 429, Times: 2})
		_, err := client.Messages.Send(t.Context(), toUser("alice", "hi"))
		require.NoError(t, err)
		assert.Equal(t, 3, srv.RequestCount("POST /v3/messages"))
		assert.Len(t, srv.Messages(), 1)
	})

	t.Run("a POST is not retried after 500", func(t *testing.T) {
		srv.ResetRequests()
		srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultStatus, Status: 500, Times: 1})
		_, err := client.Users.Create(t.Context(), &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
		ce := requireStatus(t, err, 500, "ERR_MISSION_FAILED")
		assert.Equal(t, 1, ce.Attempts)
		assert.Equal(t, 1, srv.RequestCount("POST /v3/users"))
		_, ok := srv.User("bob")
		assert.False(t, ok, "the fault answered in place of the service")
	})

	t.Run("a GET is retried after 503 and 502 pages", func(t *testing.T) {
		srv.ResetRequests()
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultStatus, Status: 503, Times: 1})
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultHTML, Times: 1})
		_, err := client.Users.Get(t.Context(), "alice")
		require.NoError(t, err)
		log := srv.Requests()
		require.Len(t, log, 3)
		assert.Equal(t, []int{503, 502, 200}, []int{log[0].Status, log[1].Status, log[2].Status}, "the first fault added applies first")
	})

	t.Run("a Retry-After longer than the client accepts ends the retries", func(t *testing.T) {
		srv.ResetRequests()
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultStatus, Status: 503, RetryAfter: time.Minute, Times: 1})
		_, err := client.Users.Get(t.Context(), "alice")
		ce := requireStatus(t, err, 503, "ERR_MISSION_FAILED")
		assert.Equal(t, time.Minute, ce.RetryAfter)
		assert.Equal(t, 1, srv.RequestCount(getUser))
	})
}

func TestFaultDropAfterActing(t *testing.T) {
	noLeaks(t)
	srv, _ := start(t)
	seed(srv, "alice", "bob")
	client := srv.Client(fastRetries(3))
	srv.Fail(chattest.Fault{Route: "POST /v3/messages", Kind: chattest.FaultDropAfter, Times: 1})

	_, err := client.Messages.Send(t.Context(), toUser("bob", "once"), chat.OnBehalfOf("alice"))
	require.ErrorContains(t, err, streamReset)
	var ce *chat.Error
	assert.False(t, errors.As(err, &ce), "no answer, so no API error: %v", err)

	msgs := srv.Messages()
	require.Len(t, msgs, 1, "stored once: the SDK did not send the POST again")
	assert.Equal(t, "once", msgs[0].Data.Text)
	assert.Equal(t, 1, srv.RequestCount("POST /v3/messages"))
	log := srv.Requests()
	require.Len(t, log, 1)
	assert.Equal(t, 0, log[0].Status, "nothing was answered")
	assert.Equal(t, chattest.FaultDropAfter, log[0].Fault.Kind)

	t.Run("a PUT is not sent again either, but applied once", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: "PUT /v3/users/{uid}", Kind: chattest.FaultDropAfter, Times: 1})
		_, err := client.Users.Update(t.Context(), "bob", &chat.UpdateUserRequest{Name: "Robert"})
		require.ErrorContains(t, err, streamReset)
		assert.Equal(t, 1, srv.RequestCount("PUT /v3/users/{uid}"))
		u, ok := srv.User("bob")
		require.True(t, ok)
		assert.Equal(t, "Robert", u.Name, "the service applied it")
	})

	t.Run("a GET is retried and answered", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultDropAfter, Times: 1})
		u, err := client.Users.Get(t.Context(), "bob")
		require.NoError(t, err)
		assert.Equal(t, "Robert", u.Name)
		assert.Equal(t, 2, srv.RequestCount(getUser))
	})
}

func TestFaultDropBeforeActing(t *testing.T) {
	noLeaks(t)
	srv, _ := start(t)
	seed(srv, "alice")
	client := srv.Client(fastRetries(3))

	t.Run("a GET is retried and succeeds", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultDropBefore, Times: 1})
		u, err := client.Users.Get(t.Context(), "alice")
		require.NoError(t, err)
		assert.Equal(t, "alice", u.UID)
		assert.Equal(t, 2, srv.RequestCount(getUser))
	})

	t.Run("a POST fails and nothing is stored", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultDropBefore, Times: 1})
		_, err := client.Users.Create(t.Context(), &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
		require.ErrorContains(t, err, streamReset)
		assert.Equal(t, 1, srv.RequestCount("POST /v3/users"), "the connection was in use: the SDK cannot know it was not processed")
		_, ok := srv.User("bob")
		assert.False(t, ok)
		log := srv.Requests()
		last := log[len(log)-1]
		assert.Equal(t, "POST /v3/users", last.Route)
		assert.Equal(t, 0, last.Status)
		assert.Contains(t, last.Body, `"uid":"bob"`, "logged although dropped")
	})
}

func TestFaultTruncate(t *testing.T) {
	noLeaks(t)
	srv, _ := start(t)
	seed(srv, "alice")
	srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultTruncate, Times: 1})

	u, err := srv.Client(fastRetries(3)).Users.Get(t.Context(), "alice")
	require.NoError(t, err, "a GET whose answer was cut short is sent again")
	assert.Equal(t, "alice", u.UID)
	assert.Equal(t, 2, srv.RequestCount(getUser))
	assert.Equal(t, 200, srv.Requests()[0].Status, "the status was sent")

	srv.Fail(chattest.Fault{Route: "PUT /v3/users/{uid}", Kind: chattest.FaultTruncate, Times: 1})
	_, err = srv.Client(fastRetries(3)).Users.Update(t.Context(), "alice", &chat.UpdateUserRequest{Name: "Al"})
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 200, ce.StatusCode)
	assert.Empty(t, ce.Code)
	assert.ErrorContains(t, ce.Err, streamReset, "the cause: the body ended early")
	assert.Equal(t, 1, srv.RequestCount("PUT /v3/users/{uid}"), "a write the service acted on is not sent again")

	t.Run("on the wire", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultTruncate, Times: 1})
		req, err := http.NewRequestWithContext(t.Context(), "GET", srv.URL()+"/v3/users/alice", nil)
		require.NoError(t, err)
		req.Header.Set("apikey", srv.APIKey())
		hc := srv.HTTPClient()
		defer hc.CloseIdleConnections()
		resp, err := hc.Do(req)
		require.NoError(t, err, "the status and headers arrive")
		defer resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		got, err := io.ReadAll(resp.Body)
		require.ErrorContains(t, err, streamReset)
		require.Positive(t, resp.ContentLength)
		assert.Equal(t, resp.ContentLength/2, int64(len(got)), "half the body")
	})
}

func TestFaultHTMLThroughSDK(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice")
	srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultHTML})

	_, err := srv.Client(fastRetries(2)).Users.Get(t.Context(), "alice")
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 502, ce.StatusCode)
	assert.Empty(t, ce.Code)
	assert.Contains(t, ce.Message, "text/html")
	assert.Equal(t, 3, ce.Attempts)
	assert.Equal(t, 3, srv.RequestCount(getUser), "the fault applies until cleared")

	srv.ClearFaults()
	_, err = srv.Client().Users.Get(t.Context(), "alice")
	require.NoError(t, err)
}

func TestFaultInvalidJSONThroughSDK(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultInvalidJSON, Times: 1})

	_, err := client.Users.Get(t.Context(), "alice")
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 200, ce.StatusCode)
	assert.Contains(t, ce.Message, "decoding response")
	var se *json.SyntaxError
	assert.ErrorAs(t, ce.Err, &se)
}

func TestFaultDelay(t *testing.T) {
	t.Run("longer than the client's timeout", func(t *testing.T) {
		noLeaks(t)
		srv, _ := start(t)
		seed(srv, "alice")
		srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour})
		_, err := srv.Client(chat.WithTimeout(20*time.Millisecond)).Users.Get(t.Context(), "alice")
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})

	t.Run("the wait ends when the client leaves", func(t *testing.T) {
		noLeaks(t)
		srv, client := start(t)
		seed(srv, "alice")
		srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour, Times: 1})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() {
			_, err := client.Users.Get(ctx, "alice")
			done <- err
		}()
		require.NoError(t, srv.AwaitRequests(t.Context(), getUser, 1))
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)

		// The handler left its wait without serving: a recorder shows it,
		// as the handler is called directly.
		srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour, Times: 1})
		rctx, rcancel := context.WithCancel(t.Context())
		req := httptest.NewRequestWithContext(rctx, "GET", "/v3/users/alice", nil)
		req.Header.Set("apikey", srv.APIKey())
		rec := httptest.NewRecorder()
		aborted := make(chan any)
		go func() {
			defer func() { aborted <- recover() }()
			srv.Handler().ServeHTTP(rec, req)
		}()
		require.NoError(t, srv.AwaitRequests(t.Context(), getUser, 2))
		rcancel()
		assert.Equal(t, http.ErrAbortHandler, <-aborted, "the connection is dropped")
		assert.Empty(t, rec.Body.String(), "nothing was answered")
		log := srv.Requests()
		require.Len(t, log, 2)
		assert.Equal(t, 0, log[1].Status)
		assert.Equal(t, time.Hour, log[1].Fault.Delay)
	})

	t.Run("the wait ends when the server closes", func(t *testing.T) {
		noLeaks(t)
		srv := chattest.NewServer()
		srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
		srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour})
		done := make(chan error)
		go func() {
			_, err := srv.Client(chat.WithoutRetries()).Users.Get(context.Background(), "alice")
			done <- err
		}()
		require.NoError(t, srv.AwaitRequests(t.Context(), getUser, 1))
		srv.Close() // returns at once, not in an hour
		// The connection ends without an answer: the body cut short or the
		// stream reset, as the close and the request race.
		var ue *url.Error
		require.ErrorAs(t, <-done, &ue)
		assert.Equal(t, "Get", ue.Op)
		assert.Equal(t, srv.URL()+"/v3/users/alice", ue.URL)
		assert.EqualError(t, srv.AwaitRequests(t.Context(), getUser, 2), "chattest: AwaitRequests: the server closed", "nothing more arrives")
	})

	t.Run("then the request is served", func(t *testing.T) {
		srv, client := start(t)
		seed(srv, "alice")
		srv.Fail(chattest.Fault{Route: getUser, Delay: time.Millisecond, Times: 1})
		u, err := client.Users.Get(t.Context(), "alice")
		require.NoError(t, err)
		assert.Equal(t, "alice", u.UID)
		assert.Equal(t, 200, srv.Requests()[0].Status)
	})
}

func TestFaultRoutes(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()

	t.Run("a route's fault leaves the others alone", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: "GET /v3/users", Kind: chattest.FaultStatus, Status: 500})
		_, err := client.Users.Get(ctx, "alice")
		require.NoError(t, err)
		_, err = client.Users.List(ctx, nil)
		requireStatus(t, err, 500, "ERR_MISSION_FAILED")
		srv.ClearFaults()
		_, err = client.Users.List(ctx, nil)
		require.NoError(t, err)
	})

	t.Run("* matches every request, routed or not", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: "*", Kind: chattest.FaultStatus, Status: 503, Times: 2})
		_, err := client.Users.Get(ctx, "alice")
		requireStatus(t, err, 503, "ERR_MISSION_FAILED")
		resp, _ := fetch(t, srv, "GET", "/v3/nothing", "")
		assert.Equal(t, 503, resp.StatusCode)
		resp, _ = fetch(t, srv, "GET", "/v3/nothing", "")
		assert.Equal(t, 404, resp.StatusCode, "used up")
	})

	t.Run("an empty route is *, spaces are normalized", func(t *testing.T) {
		srv.Fail(chattest.Fault{Kind: chattest.FaultStatus, Status: 500, Times: 1})
		srv.Fail(chattest.Fault{Route: " GET   /v3/users/{uid} ", Kind: chattest.FaultStatus, Status: 502, Code: "X", Times: 1})
		_, err := client.APIKeys.List(ctx, nil)
		requireStatus(t, err, 500, "ERR_MISSION_FAILED")
		_, err = client.Users.Get(ctx, "alice")
		requireStatus(t, err, 502, "X")
	})

	t.Run("faults stay until used up or cleared", func(t *testing.T) {
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultStatus, Status: 500, Times: 2})
		srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultStatus, Status: 404})
		var statuses []int
		for range 4 {
			_, err := client.Users.Get(ctx, "alice")
			var ce *chat.Error
			require.ErrorAs(t, err, &ce)
			statuses = append(statuses, ce.StatusCode)
		}
		assert.Equal(t, []int{500, 500, 404, 404}, statuses)
		srv.ClearFaults()
		_, err := client.Users.Get(ctx, "alice")
		require.NoError(t, err)
	})
}

func TestFailRejectsInvalidFaults(t *testing.T) {
	srv, _ := start(t)
	cases := []struct {
		name  string
		fault chattest.Fault
		want  string
	}{
		{"unknown route", chattest.Fault{Route: "GET /v3/user/{uid}", Kind: chattest.FaultDropBefore}, "not a pattern"},
		{"route without method", chattest.Fault{Route: "/v3/users/{uid}", Kind: chattest.FaultDropBefore}, "not a pattern"},
		{"does nothing", chattest.Fault{Route: getUser}, "does nothing"},
		{"negative times", chattest.Fault{Kind: chattest.FaultDropBefore, Times: -1}, "Times"},
		{"negative delay", chattest.Fault{Delay: -time.Second}, "Delay"},
		{"negative retry-after", chattest.Fault{Kind: chattest.FaultStatus, Status: 503, RetryAfter: -1}, "RetryAfter"},
		{"unknown kind", chattest.Fault{Kind: 99}, "Kind"},
		{"status without a status", chattest.Fault{Kind: chattest.FaultStatus}, "400 to 599"},
		{"status 200", chattest.Fault{Kind: chattest.FaultStatus, Status: 200}, "400 to 599"},
		{"html 600", chattest.Fault{Kind: chattest.FaultHTML, Status: 600}, "200 to 599"},
		{"code of a page", chattest.Fault{Kind: chattest.FaultHTML, Code: "ERR_X"}, "Code"},
		{"status of a drop", chattest.Fault{Kind: chattest.FaultDropAfter, Status: 500}, "Status"},
		{"retry-after of a truncation", chattest.Fault{Kind: chattest.FaultTruncate, RetryAfter: time.Second}, "RetryAfter"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := srv.Fail(tc.fault)
			require.ErrorContains(t, err, "chattest: Fail: ", "Fail accepted %v", tc.fault)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err := srv.Client().Users.List(t.Context(), nil)
	require.NoError(t, err, "no rejected fault was added")
}

func TestFaultString(t *testing.T) {
	f := chattest.Fault{Route: getUser, Times: 1, Kind: chattest.FaultStatus, Status: 503, Code: "E", RetryAfter: time.Second, Delay: time.Millisecond}
	assert.Equal(t, `chattest.Fault{Route: "GET /v3/users/{uid}", Times: 1, Delay: 1ms, Kind: status, Status: 503, Code: "E", RetryAfter: 1s}`, f.String())
	assert.Equal(t, "chattest.Fault{}", chattest.Fault{}.String())
	assert.Equal(t, "drop-after", chattest.FaultDropAfter.String())
	assert.Equal(t, "FaultKind(42)", chattest.FaultKind(42).String())
}

// http1Client returns a client of srv that speaks HTTP/1.1 only.
func http1Client(t *testing.T, srv *chattest.Server, opts ...chat.Option) *chat.Client {
	t.Helper()
	hc := srv.HTTPClient()
	tr := hc.Transport.(*http.Transport)
	tr.Protocols = new(http.Protocols)
	tr.Protocols.SetHTTP1(true)
	t.Cleanup(hc.CloseIdleConnections)

	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.URL()+"/v3/apikeys", nil)
	require.NoError(t, err)
	req.Header.Set("apikey", srv.APIKey())
	resp, err := hc.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 1, resp.ProtoMajor)
	srv.ResetRequests()

	return srv.Client(append([]chat.Option{chat.WithHTTPClient(hc)}, opts...)...)
}

func TestFaultsOverHTTP1(t *testing.T) {
	noLeaks(t)
	srv, _ := start(t)
	seed(srv, "alice", "bob")
	client := http1Client(t, srv, fastRetries(3))
	ctx := t.Context()

	srv.Fail(chattest.Fault{Route: "POST /v3/messages", Kind: chattest.FaultDropAfter, Times: 1})
	_, err := client.Messages.Send(ctx, toUser("bob", "once"), chat.OnBehalfOf("alice"))
	require.ErrorIs(t, err, io.EOF)
	assert.Len(t, srv.Messages(), 1)
	assert.Equal(t, 1, srv.RequestCount("POST /v3/messages"))

	srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultDropBefore, Times: 1})
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "carol", Name: "Carol"})
	require.ErrorIs(t, err, io.EOF)
	_, ok := srv.User("carol")
	assert.False(t, ok)

	srv.Fail(chattest.Fault{Route: "PUT /v3/users/{uid}", Kind: chattest.FaultTruncate, Times: 1})
	_, err = client.Users.Update(ctx, "alice", &chat.UpdateUserRequest{Name: "Al"})
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 200, ce.StatusCode)
	assert.ErrorIs(t, ce.Err, io.ErrUnexpectedEOF)

	srv.Fail(chattest.Fault{Route: getUser, Kind: chattest.FaultDropBefore, Times: 1})
	_, err = client.Users.Get(ctx, "alice")
	require.NoError(t, err, "retried")

	srv.Fail(chattest.Fault{Route: getUser, Delay: time.Hour, Times: 1})
	_, err = http1Client(t, srv, chat.WithTimeout(20*time.Millisecond)).Users.Get(ctx, "alice")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func ExampleServer_Fail() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	client := srv.Client(chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	ctx := context.Background()

	// The next lookup of a user fails with 503: the SDK retries it.
	srv.Fail(chattest.Fault{Route: "GET /v3/users/{uid}", Kind: chattest.FaultStatus, Status: 503, Times: 1})
	u, err := client.Users.Get(ctx, "alice")
	fmt.Println(u.Name, err, srv.RequestCount("GET /v3/users/{uid}"))

	// The next message is stored, but its answer is lost: the SDK does not
	// send the POST again, so the message is not duplicated.
	srv.Fail(chattest.Fault{Route: "POST /v3/messages", Kind: chattest.FaultDropAfter, Times: 1})
	_, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Hello"}})
	fmt.Println(err != nil, len(srv.Messages()))
	// Output:
	// Alice <nil> 2
	// true 1
}
