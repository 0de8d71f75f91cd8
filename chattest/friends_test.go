package chattest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestFriends(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave")
	srv.AddUser(chat.User{UID: "zed", Name: "Zed"})
	_, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"zed"}})
	require.NoError(t, err)

	res, err := client.Friends.Add(ctx, "Alice", &chat.AddFriendsRequest{Accepted: []string{"BOB", "carol", "nobody", "zed"}})
	require.NoError(t, err)
	assert.True(t, res.Accepted["bob"].Success)
	assert.True(t, res.Accepted["carol"].Success)
	assert.False(t, res.Accepted["nobody"].Success)
	assert.NotEmpty(t, res.Accepted["nobody"].Message)
	assert.False(t, res.Accepted["zed"].Success)
	res, err = client.Friends.Add(ctx, "alice", &chat.AddFriendsRequest{Accepted: []string{"bob"}})
	require.NoError(t, err)
	assert.False(t, res.Accepted["bob"].Success, "already a friend")

	page, err := client.Friends.List(ctx, "alice", nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	assert.Equal(t, "bob", page.Data[0].UID)
	assert.Equal(t, "alice_user_bob", page.Data[0].ConversationID)
	assert.Equal(t, "carol", page.Data[1].UID)
	page, err = client.Friends.List(ctx, "bob", nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "friendship goes both ways")
	assert.Equal(t, "alice", page.Data[0].UID)
	page, err = client.Friends.List(ctx, "alice", &chat.ListFriendsOptions{SearchKey: "CAR"})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "carol", page.Data[0].UID)

	_, err = client.Friends.Add(ctx, "alice", &chat.AddFriendsRequest{Accepted: []string{"dave", "alice"}})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_CANNOT_FORM_SELF_RELATION", chat.ErrBadRequest)
	assert.Equal(t, []string{"bob", "carol"}, srv.Friends("alice"), "nothing was added")
	_, err = client.Friends.Add(ctx, "nobody", &chat.AddFriendsRequest{Accepted: []string{"bob"}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	r := do(t, srv, http.MethodPost, "/v3/users/alice/friends", `{"accepted":[`+quotedUIDs(26)+`]}`, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, "at most 25 per call on the server too")

	// addToConversations opens conversations without messages.
	_, err = client.Friends.Add(ctx, "dave", &chat.AddFriendsRequest{Accepted: []string{"carol"}, AddToConversations: true})
	require.NoError(t, err)
	c, err := client.Conversations.GetUser(ctx, "carol", "dave")
	require.NoError(t, err)
	assert.Equal(t, "carol_user_dave", c.ConversationID)
	assert.Nil(t, c.LastMessage)
	assert.Zero(t, c.UnreadMessageCount)

	removed, err := client.Friends.Remove(ctx, "alice", &chat.RemoveFriendsRequest{Friends: []string{"bob", "nobody"}})
	require.NoError(t, err)
	assert.True(t, removed.Success)
	assert.Equal(t, []string{"carol"}, srv.Friends("alice"))
	assert.Empty(t, srv.Friends("bob"))
	_, err = client.Friends.Remove(ctx, "alice", &chat.RemoveFriendsRequest{Friends: []string{"bob"}})
	require.NoError(t, err, "removing again succeeds")
	r = do(t, srv, http.MethodDelete, "/v3/users/alice/friends", `{"friends":[]}`, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
}

func quotedUIDs(n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(`"u%d"`, i)
	}
	return s
}

func TestFriendsPagesAndLimit(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	uids := make([]string, 0, 1000)
	for i := range 1000 {
		uids = append(uids, fmt.Sprintf("f%04d", i))
	}
	for _, uid := range uids {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	srv.AddFriends("alice", uids[:999]...)
	seed(srv, "bob")

	res, err := client.Friends.Add(ctx, "alice", &chat.AddFriendsRequest{Accepted: []string{uids[999], "bob"}})
	require.NoError(t, err)
	assert.True(t, res.Accepted[uids[999]].Success, "the 1000th friend")
	assert.False(t, res.Accepted["bob"].Success, "the 1001st")
	assert.Contains(t, res.Accepted["bob"].Message, "1000")

	var n int
	for f, err := range client.Friends.All(ctx, "alice", &chat.ListFriendsOptions{PageOptions: chat.PageOptions{PerPage: 300}}) {
		require.NoError(t, err)
		assert.Equal(t, uids[n], f.UID)
		n++
	}
	assert.Equal(t, 1000, n)
}
