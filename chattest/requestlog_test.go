package chattest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func TestRequestLogRecordsTheWire(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()

	hi := toUser("bob", "hi")
	hi.MUID = "m1"
	_, err := client.Messages.Send(ctx, hi, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Users.Get(ctx, "a/b")
	require.ErrorIs(t, err, chat.ErrNotFound)
	_, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
	require.NoError(t, err)
	resp, _ := fetch(t, srv, "GET", "/v3/nothing?x=1", "")
	require.Equal(t, 404, resp.StatusCode)

	log := srv.Requests()
	require.Len(t, log, 4)

	send := log[0]
	assert.Equal(t, t0, send.Time)
	assert.Equal(t, "POST", send.Method)
	assert.Equal(t, "/v3/messages", send.Path)
	assert.Equal(t, "POST /v3/messages", send.Route)
	assert.Empty(t, send.Query)
	assert.Equal(t, []string{chattest.Redacted}, send.Header["Apikey"])
	assert.Equal(t, "alice", send.Header.Get("onBehalfOf"))
	assert.Equal(t, "application/json", send.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(send.Header.Get("User-Agent"), "chat-go/"))
	assert.JSONEq(t, `{"receiver":"bob","receiverType":"user","data":{"text":"hi"},"muid":"m1"}`, send.Body)
	assert.Equal(t, 200, send.Status)
	assert.Equal(t, chattest.Fault{}, send.Fault)

	get := log[1]
	assert.Equal(t, "/v3/users/a%2Fb", get.Path, "escaped, as received")
	assert.Equal(t, "GET /v3/users/{uid}", get.Route)
	assert.Equal(t, 404, get.Status)
	assert.Empty(t, get.Body)

	assert.Equal(t, url.Values{"perPage": {"5"}, "page": {"2"}}, log[2].Query)
	assert.Equal(t, "GET /v3/users", log[2].Route)

	assert.Equal(t, "", log[3].Route, "no route matched")
	assert.Equal(t, "/v3/nothing", log[3].Path)
	assert.Equal(t, url.Values{"x": {"1"}}, log[3].Query)
	assert.Equal(t, 404, log[3].Status)
}

func TestRequestLogNeverHoldsCredentials(t *testing.T) {
	// A key with characters that paths, queries and JSON escape.
	const mainKey = "k+y/=<&>0123456789"
	srv, _ := start(t, chattest.WithAPIKey(mainKey))
	require.Equal(t, mainKey, srv.APIKey())
	client := srv.Client()
	ctx := t.Context()
	seed(srv, "alice")

	created, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob", WithAuthToken: true})
	require.NoError(t, err)
	require.NotEmpty(t, created.AuthToken)
	tok, err := client.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	_, err = client.AuthTokens.Get(ctx, "alice", tok.AuthToken)
	require.NoError(t, err)
	_, err = client.AuthTokens.Update(ctx, "alice", tok.AuthToken, &chat.UpdateAuthTokenRequest{Platform: "ios"})
	require.NoError(t, err)
	_, err = client.AuthTokens.Get(ctx, "alice", "not-a-token-but-in-its-place")
	require.ErrorIs(t, err, chat.ErrNotFound)

	key, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "made", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)
	_, err = client.APIKeys.Get(ctx, key.APIKey)
	require.NoError(t, err)
	_, err = client.APIKeys.Delete(ctx, key.APIKey)
	require.NoError(t, err)
	seeded := srv.AddAPIKey("seeded", chat.ScopeAuthOnly)
	_, err = srv.ClientWithAPIKey(seeded.APIKey).Users.Create(ctx, &chat.CreateUserRequest{UID: "carol", Name: "Carol"})
	require.NoError(t, err)
	_, err = srv.ClientWithAPIKey("wrong-key-0123").Users.List(ctx, nil)
	require.ErrorIs(t, err, chat.ErrUnauthorized)

	// Credentials where they do not belong: in a message, a query, headers
	// and a body's apiKey field.
	secrets := []string{mainKey, created.AuthToken, tok.AuthToken, key.APIKey, seeded.APIKey, "wrong-key-0123",
		"not-a-token-but-in-its-place", "bearer-token-0123", "mgmt-key-0123", "mgmt-secret-0123", "in-a-field-0123"}
	leak := "keys " + mainKey + " " + key.APIKey + " " + seeded.APIKey + " tokens " + created.AuthToken + " " + tok.AuthToken
	_, err = client.Messages.Send(ctx, toUser("bob", leak), chat.OnBehalfOf("alice"),
		chat.WithHeader("X-Debug", leak), chat.WithHeader("Authorization", "Bearer bearer-token-0123"),
		chat.WithHeader("Key", "mgmt-key-0123"), chat.WithHeader("Secret", "mgmt-secret-0123"))
	require.NoError(t, err)
	_, err = client.Users.List(ctx, &chat.ListUsersOptions{SearchKey: tok.AuthToken})
	require.NoError(t, err)
	resp, _ := fetch(t, srv, "POST", "/v3/nothing?k="+url.QueryEscape(mainKey), `{"nested":[{"APIKEY":"in-a-field-0123"}],"also":"`+strings.ReplaceAll(mainKey, "/", `\/`)+`"}`)
	require.Equal(t, 404, resp.StatusCode)
	resp, _ = fetch(t, srv, "GET", "/v3/users/"+escapeAll(mainKey), "")
	require.Equal(t, 404, resp.StatusCode)

	log := srv.Requests()
	forms := func(s string) []string {
		j, _ := json.Marshal(s)
		return []string{s, url.PathEscape(s), url.QueryEscape(s), string(j[1 : len(j)-1]), escapeAll(s)}
	}
	js, err := json.Marshal(log)
	require.NoError(t, err)
	shown := map[string]string{
		"%v":   fmt.Sprintf("%v", log),
		"%+v":  fmt.Sprintf("%+v", log),
		"%#v":  fmt.Sprintf("%#v", log),
		"JSON": string(js),
	}
	for _, r := range log {
		shown[r.Method+" "+r.Path+" %+v"] = fmt.Sprintf("%+v", r)
	}
	for name, text := range shown {
		for _, s := range secrets {
			for _, f := range forms(s) {
				assert.NotContains(t, text, f, "%s shows %q", name, s)
			}
		}
	}

	// What is not a credential is still there.
	byPath := map[string]chattest.Request{}
	for _, r := range log {
		byPath[r.Method+" "+r.Path] = r
	}
	assert.Contains(t, byPath, "GET /v3/users/alice/auth_tokens/REDACTED")
	assert.Contains(t, byPath, "PUT /v3/users/alice/auth_tokens/REDACTED")
	assert.Contains(t, byPath, "GET /v3/apikeys/REDACTED")
	assert.Contains(t, byPath, "DELETE /v3/apikeys/REDACTED")
	msg := byPath["POST /v3/messages"]
	assert.Contains(t, msg.Body, `"text":"keys REDACTED REDACTED REDACTED tokens REDACTED REDACTED"`)
	assert.Equal(t, "keys REDACTED REDACTED REDACTED tokens REDACTED REDACTED", msg.Header.Get("X-Debug"))
	for _, h := range []string{"Apikey", "Authorization", "Key", "Secret"} {
		assert.Equal(t, []string{chattest.Redacted}, msg.Header[h], h)
	}
	assert.Equal(t, "alice", msg.Header.Get("onBehalfOf"))
	assert.Equal(t, chattest.Redacted, byPath["GET /v3/users"].Query.Get("searchKey"))
	assert.Equal(t, url.Values{"k": {chattest.Redacted}}, byPath["POST /v3/nothing"].Query)
	assert.JSONEq(t, `{"nested":[{"APIKEY":"REDACTED"}],"also":"REDACTED"}`, byPath["POST /v3/nothing"].Body)
	assert.Contains(t, byPath, "GET /v3/users/REDACTED")
}

// escapeAll percent-encodes every byte of s, a valid but unusual escaping.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

func TestRequestsAreCopies(t *testing.T) {
	srv, client := start(t)
	_, err := client.Users.List(t.Context(), &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5}})
	require.NoError(t, err)
	log := srv.Requests()
	log[0].Header.Set("Apikey", "changed")
	log[0].Query.Set("perPage", "6")
	log[0].Status = 1
	again := srv.Requests()
	assert.Equal(t, chattest.Redacted, again[0].Header.Get("Apikey"))
	assert.Equal(t, "5", again[0].Query.Get("perPage"))
	assert.Equal(t, 200, again[0].Status)
}

func TestRequestCountAndReset(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()
	for range 2 {
		_, err := client.Users.Get(ctx, "alice")
		require.NoError(t, err)
	}
	_, err := client.Users.List(ctx, nil)
	require.NoError(t, err)
	fetch(t, srv, "GET", "/v3/nothing", "")

	assert.Equal(t, 2, srv.RequestCount(getUser))
	assert.Equal(t, 1, srv.RequestCount("GET /v3/users"))
	assert.Equal(t, 0, srv.RequestCount("POST /v3/users"))
	assert.Equal(t, 4, srv.RequestCount("*"))
	assert.Equal(t, 4, srv.RequestCount(""))

	srv.ResetRequests()
	assert.Empty(t, srv.Requests())
	assert.Equal(t, 0, srv.RequestCount("*"))
	assert.Equal(t, 0, srv.RequestCount(getUser))
	_, err = client.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, 1, srv.RequestCount(getUser))
	assert.Len(t, srv.Requests(), 1)

	assert.Equal(t, 0, srv.RequestCount("GET /v3/user"), "a route the server does not register has no requests")
	assert.ErrorContains(t, srv.AwaitRequests(ctx, "/v3/users", 1), `route "/v3/users" is not a pattern the server registers`)
}

func TestAwaitRequests(t *testing.T) {
	noLeaks(t)
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()

	require.NoError(t, srv.AwaitRequests(ctx, "*", 0), "already there")

	done := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := client.Users.Get(ctx, "alice")
			done <- err
		}()
	}
	require.NoError(t, srv.AwaitRequests(ctx, getUser, 3))
	for range 3 {
		require.NoError(t, <-done)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, srv.AwaitRequests(cctx, getUser, 4), context.Canceled)
}

func TestRequestLogKeepsTheMostRecent(t *testing.T) {
	srv, _ := start(t)
	h := srv.Handler()
	const n = 10000 + 5
	for i := range n {
		req := httptest.NewRequest("GET", fmt.Sprintf("/v3/users/u%d", i), nil)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	log := srv.Requests()
	require.Len(t, log, 10000)
	assert.Equal(t, "/v3/users/u5", log[0].Path)
	assert.Equal(t, fmt.Sprintf("/v3/users/u%d", n-1), log[len(log)-1].Path)
	assert.Equal(t, n, srv.RequestCount(getUser), "the count has no limit")
	assert.Equal(t, http.StatusUnauthorized, log[0].Status)
}

func ExampleServer_Requests() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	_, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice", WithAuthToken: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = client.AuthTokens.Create(context.Background(), "alice", &chat.CreateAuthTokenRequest{Force: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Route, r.Status, r.Header.Get("apikey"), r.Body)
	}
	// Output:
	// POST /v3/users POST /v3/users 200 REDACTED {"uid":"alice","name":"Alice","withAuthToken":true}
	// POST /v3/users/alice/auth_tokens POST /v3/users/{uid}/auth_tokens 200 REDACTED {"force":true}
}
