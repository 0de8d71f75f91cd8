package chattest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/memstore"
)

// nested returns a JSON document of arrays (or objects) depth deep.
func nested(depth int, objects bool) string {
	if objects {
		return strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
	}
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// Bodies nested 10,000 levels deep (as deep as encoding/json reads) and
// deeper, sent to routes of every kind (the server API, one that reads no
// body, the client API's login, the management API), leave a store (a
// data directory) that opens again with what it held, and a state file that
// starts a server; the requests answered with an error are not kept.
func TestDeepBodiesKeepTheStoreUsable(t *testing.T) {
	ctx := context.Background()
	store := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	c := srv.Client(chat.WithoutRetries())
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	tok := mint(t, c, "alice")

	send := func(base, method, path, body string, header map[string]string) int {
		req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := srv.HTTPClient().Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	key := map[string]string{"apikey": srv.APIKey()}
	mgmt := map[string]string{"key": srv.ManagementKey(), "secret": srv.ManagementSecret()}
	statuses := map[int]int{}
	for _, depth := range []int{10_000, 10_001} {
		for _, objects := range []bool{false, true} {
			body := nested(depth, objects)
			for _, r := range []struct {
				base, method, path string
				header             map[string]string
			}{
				{srv.URL(), "POST", "/v3/users", key},
				{srv.URL(), "PUT", "/v3/users/alice", key},
				{srv.URL(), "POST", "/v3/users/alice/auth_tokens", key},
				{srv.URL(), "DELETE", "/v3/users/nobody", key},
				{srv.URL(), "DELETE", "/v3/apikeys/" + strings.Repeat("0", 40), key},
				{srv.URL(), "PUT", "/v3.0/me", as(srv, tok)},
				{srv.URL(), "POST", "/v3.0/messages", as(srv, tok)},
				{srv.ManagementURL(), "POST", "/apps", mgmt},
				{srv.ManagementURL(), "PUT", "/apps/" + srv.AppID() + "/settings", mgmt},
			} {
				statuses[send(r.base, r.method, r.path, body, r.header)]++
			}
		}
	}
	require.NotZero(t, statuses[http.StatusBadRequest], "%v", statuses)
	require.NotZero(t, statuses[http.StatusOK], "a route that reads no body took one: %v", statuses)
	c.CloseIdleConnections()
	var export bytes.Buffer
	require.NoError(t, srv.Export(&export))
	srv.Close()
	assert.False(t, strings.Contains(export.String(), `"status":400`), "a request answered with an error is not kept")

	again, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err, "the store opens again")
	u, ok := again.User("alice")
	require.True(t, ok)
	assert.Equal(t, "Alice", u.Name)
	again.Close()

	file := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(file, export.Bytes(), 0o600))
	seeded, err := chattest.OpenServer(chattest.WithSeedFile(file))
	require.NoError(t, err, "the state file starts a server")
	_, ok = seeded.User("alice")
	assert.True(t, ok)
	seeded.Close()
}

// A store keeps the state a request left, not the request: a request
// whose query or onBehalfOf header is not UTF-8 is answered as a server
// without a store answers it, and the store opens again with what it
// left.
func TestStoreKeepsWhatAnyRequestLeft(t *testing.T) {
	store := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	memory := chattest.NewServer()
	defer memory.Close()
	for _, s := range []*chattest.Server{srv, memory} {
		seed(s, "alice", "bob")
	}
	for _, r := range []struct{ path, onBehalfOf string }{
		{"/v3/messages?x=%ff\xff", "alice"},
		{"/v3/messages", "alice\xff"},
	} {
		var status [2]int
		for i, s := range []*chattest.Server{srv, memory} {
			resp := faketest.SendRaw(t, s, "POST", r.path, `{"receiver":"bob","receiverType":"user","data":{"text":"hi"}}`,
				map[string]string{"apikey": s.APIKey(), "onBehalfOf": r.onBehalfOf, "Content-Type": "application/json"})
			resp.Body.Close()
			status[i] = resp.StatusCode
		}
		assert.Equal(t, status[1], status[0], r.path)
	}
	sent := srv.Messages()
	srv.Close()
	again, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	defer again.Close()
	assert.Equal(t, sent, again.Messages())
}
