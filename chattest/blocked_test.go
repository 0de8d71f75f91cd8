package chattest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestBlockedUsers(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")

	res, err := client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"Bob", "nobody"}})
	require.NoError(t, err)
	assert.True(t, res["bob"].Success)
	assert.False(t, res["nobody"].Success)
	clk.Set(t0.Add(time.Minute))
	_, err = client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"carol", "bob"}})
	require.NoError(t, err)

	page, err := client.Blocked.List(ctx, "alice", nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	bob := page.Data[0]
	assert.Equal(t, "bob", bob.UID)
	assert.True(t, bob.BlockedByMe)
	assert.Equal(t, chat.TimestampOf(t0), bob.BlockedByMeAt, "blocking again keeps the first time")
	assert.Equal(t, chat.TimestampOf(t0), bob.BlockedAt)
	assert.Equal(t, "alice_user_bob", bob.ConversationID)
	assert.Equal(t, "carol", page.Data[1].UID)
	assert.Equal(t, chat.TimestampOf(t0.Add(time.Minute)), page.Data[1].BlockedAt)
	assert.Equal(t, []string{"bob", "carol"}, srv.Blocked("alice"))

	var all []string
	for u, err := range client.Blocked.All(ctx, "alice", &chat.ListBlockedOptions{PageOptions: chat.PageOptions{PerPage: 1}}) {
		require.NoError(t, err)
		all = append(all, u.UID)
	}
	assert.Equal(t, []string{"bob", "carol"}, all)

	_, err = client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"ALICE"}})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_CANNOT_BLOCK_SELF", chat.ErrBadRequest)
	_, err = client.Blocked.Block(ctx, "nobody", &chat.BlockUsersRequest{BlockedUIDs: []string{"bob"}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	un, err := client.Blocked.Unblock(ctx, "alice", &chat.UnblockUsersRequest{BlockedUIDs: []string{"bob", "nobody"}})
	require.NoError(t, err)
	assert.True(t, un["bob"].Success)
	assert.Equal(t, []string{"carol"}, srv.Blocked("alice"))
	r := do(t, srv, http.MethodDelete, "/v3/users/alice/blockedusers", `{}`, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, "blockedUids is required")
}
