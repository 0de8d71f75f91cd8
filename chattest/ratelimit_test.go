package chattest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// rateHeaders returns the X-Rate-Limit and X-Rate-Limit-Remaining headers
// of a raw request.
func rateHeaders(t *testing.T, srv *chattest.Server, method, path, body string) (limit, remaining string) {
	t.Helper()
	resp, _ := fetch(t, srv, method, path, body)
	return resp.Header.Get("X-Rate-Limit"), resp.Header.Get("X-Rate-Limit-Remaining")
}

func TestRateLimitOffReportsTheServiceBudgets(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice", "bob")

	cases := []struct {
		name, method, path, body string
		limit, remaining         string
	}{
		{"create user is core", "POST", "/v3/users", `{"uid":"carol","name":"Carol"}`, "10000", "9999"},
		{"get user is standard", "GET", "/v3/users/alice", "", "20000", "19999"},
		{"a second core request", "POST", "/v3/users", `{}`, "10000", "9998"},
		{"delete user is core", "DELETE", "/v3/users/bob", "", "10000", "9997"},
		{"deactivate users is standard", "DELETE", "/v3/users", `{"uidsToDeactivate":["carol"]}`, "20000", "19998"},
		{"update user is standard", "PUT", "/v3/users/alice", `{"name":"Al"}`, "20000", "19997"},
		{"an unknown path is standard", "GET", "/v3/nothing", "", "20000", "19996"},
	}
	for _, tc := range cases {
		limit, remaining := rateHeaders(t, srv, tc.method, tc.path, tc.body)
		assert.Equal(t, tc.limit, limit, tc.name)
		assert.Equal(t, tc.remaining, remaining, tc.name)
	}

	t.Run("nothing is refused", func(t *testing.T) {
		h := srv.Handler()
		var last *httptest.ResponseRecorder
		for range 10000 {
			req := httptest.NewRequest("POST", "/v3/users", nil)
			req.Header.Set("apikey", srv.APIKey())
			last = httptest.NewRecorder()
			h.ServeHTTP(last, req)
			require.Equal(t, 400, last.Code, "the body is missing, and the budget does not matter")
		}
		assert.Equal(t, "0", last.Header().Get("X-Rate-Limit-Remaining"), "over budget")
		assert.Empty(t, last.Header().Get("Retry-After"))
	})
}

func TestRateLimitEnforced(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, _ := start(t, chattest.WithClock(clk.Now), chattest.WithRateLimit(2, 3))
	seed(srv, "alice", "bob")
	client := srv.Client(fastRetries(3))
	ctx := t.Context()
	windowEnd := time.Unix(t0.Unix()/60*60+60, 0) // t0 is 20s into its minute
	require.Equal(t, 40*time.Second, windowEnd.Sub(t0))

	create := func(uid string) error {
		_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
		return err
	}
	require.NoError(t, create("carol"))
	require.NoError(t, create("dave"))

	err := create("erin")
	ce := requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
	assert.Equal(t, 1, ce.Attempts, "the SDK does not wait 40s when it accepts 1ms")
	assert.Equal(t, 40*time.Second, ce.RetryAfter)
	assert.Equal(t, windowEnd, ce.RateLimitReset)
	assert.Equal(t, 2, ce.RateLimit)
	assert.Equal(t, 0, ce.RateLimitRemaining)
	_, ok := srv.User("erin")
	assert.False(t, ok, "a refused request is not processed")
	log := srv.Requests()
	assert.Equal(t, 429, log[len(log)-1].Status)

	_, err = client.Users.Delete(ctx, "carol", nil)
	requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
	_, ok = srv.User("carol")
	assert.True(t, ok, "delete user is core too")

	t.Run("the classes are independent", func(t *testing.T) {
		for range 3 {
			_, err := client.Users.Get(ctx, "alice")
			require.NoError(t, err)
		}
		_, err := client.Users.Get(ctx, "alice")
		ce := requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
		assert.Equal(t, 3, ce.RateLimit)
		_, err = client.Users.Update(ctx, "alice", &chat.UpdateUserRequest{Name: "Al"})
		requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
		u, _ := srv.User("alice")
		assert.Equal(t, "Alice", u.Name, "not processed")
	})

	t.Run("the wire of a refusal", func(t *testing.T) {
		clk.Set(windowEnd.Add(-1500 * time.Millisecond))
		resp, body := fetch(t, srv, "POST", "/v3/users", `{"uid":"erin","name":"Erin"}`)
		assert.Equal(t, 429, resp.StatusCode)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		assert.Equal(t, "2", resp.Header.Get("Retry-After"), "1.5s rounded up")
		assert.Equal(t, strconv.FormatInt(windowEnd.Unix(), 10), resp.Header.Get("X-Rate-Limit-Reset"))
		assert.Equal(t, "2", resp.Header.Get("X-Rate-Limit"))
		assert.Equal(t, "0", resp.Header.Get("X-Rate-Limit-Remaining"))
		var e struct{ Error map[string]any }
		require.NoError(t, json.Unmarshal([]byte(body), &e))
		assert.Equal(t, "ERR_TOO_MANY_REQUESTS", e.Error["code"])
		assert.Equal(t, "chat-api", e.Error["source"])

		clk.Set(windowEnd.Add(-time.Nanosecond))
		resp, _ = fetch(t, srv, "POST", "/v3/users", `{}`)
		assert.Equal(t, "1", resp.Header.Get("Retry-After"), "at least 1")
	})

	t.Run("the next minute refills the budgets", func(t *testing.T) {
		clk.Set(windowEnd)
		require.NoError(t, create("erin"))
		_, err := client.Users.Get(ctx, "erin")
		require.NoError(t, err)
		limit, remaining := rateHeaders(t, srv, "POST", "/v3/users", `{}`)
		assert.Equal(t, []string{"2", "0"}, []string{limit, remaining})
		limit, remaining = rateHeaders(t, srv, "GET", "/v3/users/erin", "")
		assert.Equal(t, []string{"3", "1"}, []string{limit, remaining})
		resp, _ := fetch(t, srv, "POST", "/v3/users", `{}`)
		assert.Equal(t, "60", resp.Header.Get("Retry-After"), "a whole minute from its start")
	})
}

func TestRateLimitOneClassEnforced(t *testing.T) {
	srv, _ := start(t, chattest.WithRateLimit(1, 0))
	seed(srv, "alice")
	for range 3 {
		limit, _ := rateHeaders(t, srv, "GET", "/v3/users/alice", "")
		assert.Equal(t, "20000", limit, "a budget below 1 is not enforced")
	}
	limit, remaining := rateHeaders(t, srv, "POST", "/v3/users", `{}`)
	assert.Equal(t, []string{"1", "0"}, []string{limit, remaining})
	resp, _ := fetch(t, srv, "POST", "/v3/users", `{}`)
	assert.Equal(t, 429, resp.StatusCode)
}

func TestRateLimitAndFaults(t *testing.T) {
	srv, _ := start(t, chattest.WithRateLimit(1, 0))
	client := srv.Client(fastRetries(3))
	create := func(uid string) error {
		_, err := client.Users.Create(t.Context(), &chat.CreateUserRequest{UID: uid, Name: uid})
		return err
	}

	srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultStatus, Status: 503, Times: 1})
	srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultDropBefore, Times: 1})
	require.ErrorIs(t, create("alice"), chat.ErrServer)
	require.ErrorContains(t, create("alice"), streamReset)
	require.NoError(t, create("alice"), "requests answered by a fault did not reach the service's budget")

	srv.Fail(chattest.Fault{Route: "POST /v3/users", Kind: chattest.FaultDropAfter, Times: 1})
	require.ErrorContains(t, create("bob"), streamReset)
	_, ok := srv.User("bob")
	assert.False(t, ok, "the service refused it, then the answer was dropped")
	log := srv.Requests()
	assert.Equal(t, 0, log[len(log)-1].Status)
	assert.Equal(t, 4, srv.RequestCount("POST /v3/users"))
	assert.True(t, strings.HasPrefix(log[len(log)-1].Body, `{"uid":"bob"`))
}

func TestRateLimitOverBudgetIsNotRetriedForever(t *testing.T) {
	// A client that accepts the server's wait would sleep until the window
	// ends; one that does not gets the 429 at once, whatever its retries.
	srv, _ := start(t, chattest.WithRateLimit(1, 1))
	client := srv.Client(fastRetries(5))
	_, err := client.APIKeys.List(t.Context(), nil)
	require.NoError(t, err)
	_, err = client.APIKeys.List(t.Context(), nil)
	ce := requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
	assert.Equal(t, 1, ce.Attempts)
	assert.Equal(t, 2, srv.RequestCount("GET /v3/apikeys"))
	assert.Equal(t, http.StatusTooManyRequests, srv.Requests()[1].Status)
}

func TestRateLimitGroups(t *testing.T) {
	srv, _ := start(t, chattest.WithRateLimit(2, 0))
	seed(srv, "alice", "bob")
	client := srv.Client(fastRetries(3))
	ctx := t.Context()

	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g1", Name: "G1", Type: chat.GroupPublic})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "g1", &chat.AddMembersRequest{Participants: []string{"bob"}})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "g1", &chat.AddMembersRequest{Participants: []string{"alice"}})
	requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited) // adding members is core
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g2", Name: "G2", Type: chat.GroupPublic})
	requireAPIError(t, err, 429, "ERR_TOO_MANY_REQUESTS", chat.ErrRateLimited)
	_, ok := srv.Group("g2")
	assert.False(t, ok)

	_, err = client.Groups.Get(ctx, "g1")
	require.NoError(t, err, "standard")
	_, err = client.Groups.Delete(ctx, "g1")
	require.NoError(t, err, "deleting a group is standard")
}

func ExampleWithRateLimit() {
	noon := time.Date(2025, 1, 1, 12, 0, 30, 0, time.UTC)
	srv := chattest.NewServer(chattest.WithRateLimit(1, 100), chattest.WithClock(func() time.Time { return noon }))
	defer srv.Close()
	// Retry, but do not wait for the window to end.
	client := srv.Client(chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MaxServerWait: time.Millisecond}))
	ctx := context.Background()

	_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	fmt.Println(err)
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.StatusCode, ce.Code, ce.RetryAfter, ce.RateLimitReset.UTC().Format(time.TimeOnly))
	}
	_, err = client.Users.Get(ctx, "alice")
	fmt.Println(err)
	// Output:
	// <nil>
	// 429 ERR_TOO_MANY_REQUESTS 30s 12:01:00
	// <nil>
}
