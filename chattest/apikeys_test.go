package chattest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestAPIKeys(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()

	auth, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "Mobile login"})
	require.NoError(t, err)
	assert.Equal(t, chat.ScopeAuthOnly, auth.Scope, "authOnly by default")
	assert.Regexp(t, `^[0-9a-f]{40}$`, string(auth.APIKey))
	assert.Equal(t, chat.TimestampOf(t0), auth.CreatedAt)
	full, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "Backend", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)

	page, err := client.APIKeys.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 3)
	assert.Equal(t, chat.Secret(srv.APIKey()), page.Data[0].APIKey, "the seeded key comes first")
	assert.Equal(t, 3, page.Meta.Pagination.Total)
	page, err = client.APIKeys.List(ctx, &chat.ListAPIKeysOptions{Scope: chat.ScopeAuthOnly})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, auth.APIKey, page.Data[0].APIKey)
	page, err = client.APIKeys.List(ctx, &chat.ListAPIKeysOptions{SearchKey: "back"})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, full.APIKey, page.Data[0].APIKey)

	got, err := client.APIKeys.Get(ctx, string(auth.APIKey))
	require.NoError(t, err)
	assert.Equal(t, "Mobile login", got.Name)
	upd, err := client.APIKeys.Update(ctx, string(auth.APIKey), &chat.UpdateAPIKeyRequest{Name: "Login", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)
	assert.Equal(t, "Login", upd.Name)
	assert.Equal(t, chat.ScopeFullAccess, upd.Scope)

	_, err = client.APIKeys.Update(ctx, srv.APIKey(), &chat.UpdateAPIKeyRequest{Name: "me"})
	requireAPIError(t, err, 400, "ERR_APIKEY_NO_SELF_ACTION", chat.ErrForbidden)
	_, err = client.APIKeys.Delete(ctx, srv.APIKey())
	requireAPIError(t, err, 400, "ERR_APIKEY_NO_SELF_ACTION", chat.ErrForbidden)
	// The other full key may delete the seeded one.
	_, err = srv.ClientWithAPIKey(string(full.APIKey)).APIKeys.Delete(ctx, srv.APIKey())
	require.NoError(t, err)
	_, err = client.Users.List(ctx, nil)
	requireAPIError(t, err, 401, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized)

	res, err := srv.ClientWithAPIKey(string(full.APIKey)).APIKeys.Delete(ctx, string(auth.APIKey))
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = srv.ClientWithAPIKey(string(full.APIKey)).APIKeys.Get(ctx, string(auth.APIKey))
	requireAPIError(t, err, 404, "ERR_APIKEY_NOT_FOUND", chat.ErrNotFound)
}

func TestAPIKeyQuota(t *testing.T) {
	_, client := start(t)
	ctx := t.Context()
	for i := range 24 { // the seeded key is the 25th
		_, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: fmt.Sprint("key ", i)})
		require.NoError(t, err)
	}
	_, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "one too many"})
	requireAPIError(t, err, 400, "ERR_PLAN_QUOTA_RESTRICTION", chat.ErrLimitExceeded)
}

func TestAuthOnlyKey(t *testing.T) {
	srv, _ := start(t)
	ctx := t.Context()
	key := srv.AddAPIKey("login", "")
	assert.Equal(t, chat.ScopeAuthOnly, key.Scope)
	client := srv.ClientWithAPIKey(string(key.APIKey), chat.WithoutRetries())

	u, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "eve", Name: "Eve"})
	require.NoError(t, err)
	assert.Equal(t, "eve", u.UID)
	tok, err := client.AuthTokens.Create(ctx, "eve", nil)
	require.NoError(t, err)
	assert.Equal(t, "eve", tok.UID)

	forbidden := map[string]func() error{
		"get user":   func() error { _, err := client.Users.Get(ctx, "eve"); return err },
		"list users": func() error { _, err := client.Users.List(ctx, nil); return err },
		"update user": func() error {
			_, err := client.Users.Update(ctx, "eve", &chat.UpdateUserRequest{Name: "E"})
			return err
		},
		"list tokens":  func() error { _, err := client.AuthTokens.List(ctx, "eve", nil); return err },
		"list keys":    func() error { _, err := client.APIKeys.List(ctx, nil); return err },
		"create key":   func() error { _, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "x"}); return err },
		"send message": func() error { _, err := client.Messages.Send(ctx, toUser("eve", "hi")); return err },
	}
	for name, call := range forbidden {
		t.Run(name, func(t *testing.T) {
			err := call()
			requireAPIError(t, err, 403, "AUTH_ERR_NO_ACCESS", chat.ErrForbidden)
			assert.ErrorIs(t, err, chat.ErrUnauthorized, "an AUTH_ERR_* code")
		})
	}
}

func TestSocialRoutesNeedAFullAccessKey(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice")
	k := srv.AddAPIKey("login", chat.ScopeAuthOnly)
	client := srv.ClientWithAPIKey(string(k.APIKey), chat.WithoutRetries())
	ctx := t.Context()
	for name, call := range map[string]func() error{
		"conversations": func() error { _, err := client.Conversations.List(ctx, nil); return err },
		"friends":       func() error { _, err := client.Friends.List(ctx, "alice", nil); return err },
		"blocked":       func() error { _, err := client.Blocked.List(ctx, "alice", nil); return err },
		"roles":         func() error { _, err := client.Roles.List(ctx, nil); return err },
		"permissions":   func() error { _, err := client.Permissions.ListRole(ctx, "default"); return err },
		"moderation":    func() error { _, err := client.Moderation.ListReasons(ctx, nil); return err },
	} {
		t.Run(name, func(t *testing.T) {
			requireAPIError(t, call(), http.StatusForbidden, "AUTH_ERR_NO_ACCESS", chat.ErrUnauthorized)
		})
	}
}
