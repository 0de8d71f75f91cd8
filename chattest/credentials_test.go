package chattest_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/memstore"
	"github.com/chatrest/chat/management"
)

// Two servers of the same app id, started alike and changed alike, issue
// different credentials, and neither accepts the other's: auth tokens
// (through the client API's login), API keys created through the API, the
// keys of apps created through the management API, their own API keys and
// management credentials.
func TestCredentialsAreNotShared(t *testing.T) {
	ctx := context.Background()
	type issued struct {
		srv            *chattest.Server
		token, key     string
		appKey, access string
	}
	var servers [2]issued
	for i := range servers {
		srv, c := start(t, chattest.WithAppID("same-app"))
		seed(srv, "alice")
		tok := mint(t, c, "alice")
		assert.Regexp(t, `^alice_1700000000[0-9a-f]{30}$`, tok, "{uid}_, the time in seconds, then hex, as the service's")
		key, err := c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "ci", Scope: chat.ScopeFullAccess})
		require.NoError(t, err)
		assert.Regexp(t, `^[0-9a-f]{40}$`, string(key.APIKey))
		mc := srv.ManagementClient()
		app, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "Shop", Region: chat.RegionUS})
		require.NoError(t, err)
		appKey, ok := app.APIKeys.Key(chat.ScopeFullAccess)
		require.True(t, ok)
		got := listedApp(t, srv, app.ID)
		servers[i] = issued{srv, tok, string(key.APIKey), appKey, string(got.AccessKey)}
	}
	a, b := servers[0], servers[1]
	assert.NotEqual(t, a.token, b.token)
	assert.NotEqual(t, a.key, b.key)
	assert.NotEqual(t, a.appKey, b.appKey)
	assert.NotEqual(t, a.access, b.access)
	assert.NotEqual(t, a.srv.APIKey(), b.srv.APIKey())
	assert.NotEqual(t, a.srv.ManagementKey(), b.srv.ManagementKey())
	assert.NotEqual(t, a.srv.ManagementSecret(), b.srv.ManagementSecret())

	for _, pair := range [][2]issued{{a, b}, {b, a}} {
		own, other := pair[0], pair[1]
		r := do(t, own.srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(own.srv, own.token))
		assert.Equal(t, http.StatusOK, r.resp.StatusCode, "its own server logs the token in")
		r = do(t, own.srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(own.srv, other.token))
		assert.Equal(t, http.StatusUnauthorized, r.resp.StatusCode, "the other server's token: %v", r.body)

		_, err := own.srv.ClientWithAPIKey(own.key, chat.WithoutRetries()).Users.List(ctx, nil)
		assert.NoError(t, err)
		for _, key := range []string{other.key, other.srv.APIKey()} {
			_, err = own.srv.ClientWithAPIKey(key, chat.WithoutRetries()).Users.List(ctx, nil)
			requireAPIError(t, err, http.StatusUnauthorized, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized)
		}
		_, err = own.srv.ManagementClientWith(other.srv.ManagementKey(), other.srv.ManagementSecret(), chat.WithoutRetries()).Apps.List(ctx, nil)
		requireAPIError(t, err, http.StatusUnauthorized, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized)
	}
}

// A store keeps the credentials its servers issued, and its own:
// after a restart, and on a server started from its export, the auth
// token, the API keys (created through the API and by AddAPIKey) and the
// management app's keys issued before still work, and the server's own
// API key and management credentials are the same.
func TestStoreKeepsTheCredentialsIssued(t *testing.T) {
	ctx := context.Background()
	store := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	c := srv.Client(chat.WithoutRetries())
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	tok := mint(t, c, "alice")
	key, err := c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "ci", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)
	seeded := srv.AddAPIKey("seeded", chat.ScopeFullAccess)
	app, err := srv.ManagementClient().Apps.Create(ctx, &management.CreateAppRequest{Name: "Shop", Region: chat.RegionUS})
	require.NoError(t, err)
	own, mgmtKey, mgmtSecret := srv.APIKey(), srv.ManagementKey(), srv.ManagementSecret()
	c.CloseIdleConnections()
	var export bytes.Buffer
	require.NoError(t, srv.Export(&export))
	srv.Close()
	file := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(file, export.Bytes(), 0o600))

	check := func(t *testing.T, srv *chattest.Server) {
		r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
		assert.Equal(t, http.StatusOK, r.resp.StatusCode, "the token issued before: %v", r.body)
		for _, k := range []chat.Secret{key.APIKey, seeded.APIKey} {
			_, err := srv.ClientWithAPIKey(string(k), chat.WithoutRetries()).Users.Get(ctx, "alice")
			assert.NoError(t, err, "a key issued before")
		}
		assert.Equal(t, app.APIKeys, listedApp(t, srv, app.ID).APIKeys, "the app's keys")
	}
	t.Run("restart", func(t *testing.T) {
		srv, err := chattest.OpenServer(chattest.WithStore(store))
		require.NoError(t, err)
		defer srv.Close()
		assert.Equal(t, own, srv.APIKey(), "its own key, generated at the first start")
		assert.Equal(t, mgmtKey, srv.ManagementKey())
		assert.Equal(t, mgmtSecret, srv.ManagementSecret())
		check(t, srv)
	})
	t.Run("export", func(t *testing.T) {
		assert.Contains(t, export.String(), tok, "a state file holds the credentials its changes issued")
		srv, err := chattest.OpenServer(chattest.WithSeedFile(file))
		require.NoError(t, err)
		defer srv.Close()
		check(t, srv)
	})
}

// listedApp returns the app id as the management API lists it.
func listedApp(t *testing.T, srv *chattest.Server, id string) management.App {
	t.Helper()
	page, err := srv.ManagementClient().Apps.List(context.Background(), nil)
	require.NoError(t, err)
	for _, a := range page.Data {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("app %s is not listed", id)
	return management.App{}
}
