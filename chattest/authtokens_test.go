package chattest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestAuthTokens(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")

	first, err := client.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	same, err := client.AuthTokens.Create(ctx, "alice", &chat.CreateAuthTokenRequest{})
	require.NoError(t, err)
	assert.Equal(t, first.AuthToken, same.AuthToken, "without force the newest token is returned")
	second, err := client.AuthTokens.Create(ctx, "alice", &chat.CreateAuthTokenRequest{Force: true})
	require.NoError(t, err)
	assert.NotEqual(t, first.AuthToken, second.AuthToken)
	again, err := client.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	assert.Equal(t, second.AuthToken, again.AuthToken)

	page, err := client.AuthTokens.List(ctx, "alice", nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	assert.Equal(t, []string{string(first.AuthToken), string(second.AuthToken)}, []string{string(page.Data[0].AuthToken), string(page.Data[1].AuthToken)})
	assert.Equal(t, &chat.Pagination{Total: 2, Count: 2, PerPage: 100, CurrentPage: 1, TotalPages: 1}, page.Meta.Pagination)

	upd, err := client.AuthTokens.Update(ctx, "alice", string(first.AuthToken), &chat.UpdateAuthTokenRequest{
		Platform: "ios", UserAgent: "app/1.0", AppInfo: map[string]any{"version": "1.0"},
	})
	require.NoError(t, err)
	assert.Equal(t, "ios", upd.Platform)
	assert.Equal(t, "app/1.0", upd.UserAgent)
	assert.JSONEq(t, `{"version":"1.0"}`, string(upd.AppInfo))
	got, err := client.AuthTokens.Get(ctx, "alice", string(first.AuthToken))
	require.NoError(t, err)
	assert.Equal(t, "ios", got.Platform)

	_, err = client.AuthTokens.Get(ctx, "alice", "alice_0000")
	requireAPIError(t, err, 404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound)
	_, err = client.AuthTokens.List(ctx, "nobody", nil)
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	res, err := client.AuthTokens.Delete(ctx, "alice", string(first.AuthToken))
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = client.AuthTokens.Get(ctx, "alice", string(first.AuthToken))
	requireAPIError(t, err, 404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound)

	res, err = client.AuthTokens.Flush(ctx, "alice")
	require.NoError(t, err)
	assert.True(t, res.Success)
	page, err = client.AuthTokens.List(ctx, "alice", nil)
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	_, err = client.AuthTokens.Get(ctx, "alice", string(second.AuthToken))
	requireAPIError(t, err, 404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound)
}

func TestAuthTokensRoll(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	var first string
	for i := range 101 {
		tok, err := client.AuthTokens.Create(ctx, "alice", &chat.CreateAuthTokenRequest{Force: true})
		require.NoError(t, err)
		if i == 0 {
			first = string(tok.AuthToken)
		}
	}
	page, err := client.AuthTokens.List(ctx, "alice", &chat.ListAuthTokensOptions{PageOptions: chat.PageOptions{PerPage: 30}})
	require.NoError(t, err)
	assert.Equal(t, &chat.Pagination{Total: 100, Count: 30, PerPage: 30, CurrentPage: 1, TotalPages: 4}, page.Meta.Pagination)
	_, err = client.AuthTokens.Get(ctx, "alice", first)
	requireAPIError(t, err, 404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound)
}
