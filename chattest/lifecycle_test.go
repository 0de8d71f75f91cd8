package chattest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// rawAs sends a request of the server API on behalf of uid (the app when
// uid is "") and returns the status and the body.
func rawAs(t *testing.T, srv *chattest.Server, uid, method, path, body string) (int, string) {
	t.Helper()
	h := key(srv)
	if uid != "" {
		h["onBehalfOf"] = uid
	}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	resp := faketest.SendRaw(t, srv, method, path, body, h)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// requireNowhere asserts that none of the answers uid gets from the
// server API's reads (message lists, search, threads, conversations, and
// paths) holds secret.
func requireNowhere(t *testing.T, srv *chattest.Server, uid, secret string, paths ...string) {
	t.Helper()
	paths = append(paths, "/v3/messages?perPage=100", "/v3/messages?searchKey="+url.QueryEscape(secret),
		"/v3/conversations", "/v3/threads")
	for _, p := range paths {
		_, body := rawAs(t, srv, uid, http.MethodGet, p, "")
		assert.NotContains(t, body, secret, "GET %s as %s", p, uid)
	}
}

// requireStoredNowhere asserts that no stored message, as the app sees
// it, holds secret.
func requireStoredNowhere(t *testing.T, srv *chattest.Server, secret string) {
	t.Helper()
	all, err := json.Marshal(srv.Messages())
	require.NoError(t, err)
	assert.NotContains(t, string(all), secret, "the stored messages")
}

// requireCode asserts that err is the API's answer status with code.
func requireCode(t *testing.T, err error, status int, code string) {
	t.Helper()
	var e *chat.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, status, e.StatusCode)
	assert.Equal(t, code, e.Code)
}

// A group deleted and created again with the same guid starts empty: its
// new owner, a user the old group had banned, reads none of the old
// group's messages, by list, id, thread or search.
func TestLifecycleGroupCreatedAgain(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "eve")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "club", Name: "Club", Type: chat.GroupPrivate, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob"}, UsersToBan: []string{"eve"}}})
	require.NoError(t, err)
	old, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "club", ReceiverType: chat.ReceiverGroup,
		Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: text("the old plan")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	reply, err := client.Messages.SendThread(ctx, old.ID, "bob", &chat.SendMessageRequest{Receiver: "club", ReceiverType: chat.ReceiverGroup,
		Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: text("the old reply")})
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, old.ID, "👍", "bob")
	require.NoError(t, err)

	_, err = client.Groups.Delete(ctx, "club")
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "club", Name: "New club", Type: chat.GroupPublic}, chat.OnBehalfOf("eve"))
	require.NoError(t, err)

	page, err := client.Messages.ListGroupMessages(ctx, "club", nil, chat.OnBehalfOf("eve"))
	require.NoError(t, err)
	for _, m := range page.Data {
		assert.Equal(t, chat.CategoryAction, m.Category, "only the new group's own messages: %+v", m)
		assert.NotContains(t, m.Data.Text, "old")
	}
	for _, id := range []string{old.ID, reply.ID} {
		_, err = client.Messages.Get(ctx, id, chat.OnBehalfOf("eve"))
		requireCode(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND")
		_, err = client.Messages.Get(ctx, id)
		requireCode(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND")
	}
	_, err = client.Messages.ListThreadMessages(ctx, old.ID, nil, chat.OnBehalfOf("eve"))
	requireCode(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND")
	for _, uid := range []string{"eve", "alice", "bob"} {
		requireNowhere(t, srv, uid, "the old", "/v3/groups/club/messages")
	}
	requireStoredNowhere(t, srv, "the old")
	conv, err := client.Conversations.GetGroup(ctx, "club", "eve")
	if err == nil {
		assert.Nil(t, conv.UnreadMessageCount)
	}
}

// A user deleted for good and created again with the same uid is a new
// person: not a member of the old one's groups, banned from none, with no
// blocks, friends, auth tokens or conversations.
func TestLifecycleUserCreatedAgain(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave")
	ctx := t.Context()
	for _, g := range []chat.CreateGroupRequest{
		{GUID: "inner", Name: "Inner circle", Type: chat.GroupPrivate, Members: &chat.AddMembersRequest{Participants: []string{"carol"}}},
		{GUID: "open", Name: "Open", Type: chat.GroupPublic, Members: &chat.AddMembersRequest{UsersToBan: []string{"carol"}}},
	} {
		g.Owner = "alice"
		_, err := client.Groups.Create(ctx, &g)
		require.NoError(t, err)
	}
	_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "inner", ReceiverType: chat.ReceiverGroup,
		Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: text("inner secrets")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	faketest.Send(t, client, "bob", toUser("carol", "for the old carol"))
	_, err = client.Blocked.Block(ctx, "carol", &chat.BlockUsersRequest{BlockedUIDs: []string{"dave"}})
	require.NoError(t, err)
	_, err = client.Blocked.Block(ctx, "bob", &chat.BlockUsersRequest{BlockedUIDs: []string{"carol"}})
	require.NoError(t, err)
	_, err = client.Friends.Add(ctx, "carol", &chat.AddFriendsRequest{Accepted: []string{"alice"}, AddToConversations: true})
	require.NoError(t, err)
	oldToken := mint(t, client, "carol")

	_, err = client.Users.Delete(ctx, "carol", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "carol", Name: "Another Carol"})
	require.NoError(t, err)

	groups, err := client.Groups.List(ctx, nil, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	assert.Equal(t, []string{"open"}, ids(groups.Data, func(g chat.Group) string { return g.GUID }))
	_, err = client.Groups.Get(ctx, "inner", chat.OnBehalfOf("carol"))
	requireCode(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND")
	_, err = client.Messages.ListGroupMessages(ctx, "inner", nil, chat.OnBehalfOf("carol"))
	requireCode(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND")
	requireNowhere(t, srv, "carol", "inner secrets")
	requireNowhere(t, srv, "carol", "the old carol")
	requireStoredNowhere(t, srv, "the old carol")

	status, body := rawAs(t, srv, "", http.MethodPost, "/v3/groups/open/members", `{"participants":["carol"]}`)
	assert.Equal(t, http.StatusOK, status, body)
	assert.NotContains(t, body, "ERR_BANNED", "the old carol's ban is gone")
	members, err := client.Members.List(ctx, "open", nil)
	require.NoError(t, err)
	assert.Contains(t, ids(members.Data, func(m chat.GroupMember) string { return m.UID }), "carol")

	blocked, err := client.Blocked.List(ctx, "carol", nil)
	require.NoError(t, err)
	assert.Empty(t, blocked.Data)
	blockedByBob, err := client.Blocked.List(ctx, "bob", nil)
	require.NoError(t, err)
	assert.Empty(t, blockedByBob.Data, "bob blocked the old carol")
	faketest.Send(t, client, "dave", toUser("carol", "hello, new carol"))
	faketest.Send(t, client, "bob", toUser("carol", "hello from bob"))
	friends, err := client.Friends.List(ctx, "carol", nil)
	require.NoError(t, err)
	assert.Empty(t, friends.Data)
	friendsOfAlice, err := client.Friends.List(ctx, "alice", nil)
	require.NoError(t, err)
	assert.Empty(t, friendsOfAlice.Data)
	tokens, err := client.AuthTokens.List(ctx, "carol", nil)
	require.NoError(t, err)
	assert.Empty(t, tokens.Data)
	resp := faketest.SendRaw(t, srv, http.MethodGet, "/v3.0/me", "", as(srv, oldToken))
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the old carol's auth token")

	convs, err := client.Conversations.List(ctx, nil, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	with := ids(convs.Data, func(c chat.Conversation) string { return c.ConversationID })
	assert.ElementsMatch(t, []string{"carol_user_dave", "bob_user_carol", "group_open"}, with)
}

// A message deleted for good leaves its text nowhere: not in the "edited"
// and "deleted" action messages about it, not in the conversation's
// lastMessage, not in the messages that quoted it, and not in the
// answer to the delete itself.
func TestLifecyclePermanentMessageDeleteLeavesNoText(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	m := faketest.Send(t, client, "alice", toUser("bob", "first draft"))
	_, err := client.Messages.Update(ctx, m.ID, &chat.UpdateMessageRequest{Data: text("the final words")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	quote := toUser("alice", "quoting you")
	quote.QuotedMessageID = m.ID
	q := faketest.Send(t, client, "bob", quote)
	_, err = client.Messages.AddReaction(ctx, m.ID, "🎉", "bob")
	require.NoError(t, err)

	status, body := rawAs(t, srv, "alice", http.MethodDelete, "/v3/messages/"+m.ID, `{"permanent":true}`)
	require.Equal(t, http.StatusOK, status, body)
	for _, secret := range []string{"first draft", "the final words"} {
		assert.NotContains(t, body, secret, "the delete's answer")
		for _, uid := range []string{"alice", "bob"} {
			requireNowhere(t, srv, uid, secret, "/v3/users/alice/messages", "/v3/users/bob/messages",
				"/v3/users/alice/conversation", "/v3/users/bob/conversation", "/v3/messages/"+q.ID)
		}
		requireStoredNowhere(t, srv, secret)
	}
	got, err := client.Messages.Get(ctx, q.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Nil(t, got.QuotedMessage, "the quote of a message deleted for good")
	assert.Equal(t, "quoting you", got.Data.Text)
	_, err = client.Messages.Get(ctx, m.ID)
	requireCode(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND")
}

// A user deleted for good leaves their name and metadata in no message
// that stays (the action messages of the groups they were in).
func TestLifecyclePermanentUserDeleteLeavesNoProfile(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()
	_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "zoe", Name: "Zoe Lastname", Metadata: map[string]any{"city": "Atlantis"}})
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"zoe"}}})
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "g", "zoe", chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Users.Delete(ctx, "zoe", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	for _, secret := range []string{"Zoe Lastname", "Atlantis"} {
		requireNowhere(t, srv, "alice", secret, "/v3/groups/g/messages")
		requireStoredNowhere(t, srv, secret)
	}
}

// A block stops more than new messages: the blocked user can no longer
// edit their messages in the conversation with the blocker (and the
// blocker's websocket hears nothing of it), nor react there; the blocker
// neither, as the block stops the conversation both ways.
func TestLifecycleBlockStopsEditsAndReactions(t *testing.T) {
	rt := chattest.NewMemTransport()
	srv, client := start(t, chattest.WithRealtime(rt))
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	fromBob := faketest.Send(t, client, "bob", toUser("alice", "hi alice"))
	fromAlice := faketest.Send(t, client, "alice", toUser("bob", "hi bob"))
	_, err := client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"bob"}})
	require.NoError(t, err)
	ws := online(t, rt, srv, client, "alice", "")

	for _, who := range []struct{ uid, own, other, code string }{
		{"bob", fromBob.ID, fromAlice.ID, "ERR_BLOCKED_SENDER"},
		{"alice", fromAlice.ID, fromBob.ID, "ERR_BLOCKED_RECEIVER"},
	} {
		_, err = client.Messages.Update(ctx, who.own, &chat.UpdateMessageRequest{Data: text("rewritten")}, chat.OnBehalfOf(who.uid))
		requireCode(t, err, http.StatusForbidden, who.code)
		for _, id := range []string{who.own, who.other} {
			_, err = client.Messages.AddReaction(ctx, id, "anything at all", who.uid)
			requireCode(t, err, http.StatusForbidden, who.code)
		}
	}
	got, err := client.Messages.Get(ctx, fromBob.ID)
	require.NoError(t, err)
	assert.Equal(t, "hi alice", got.Data.Text)
	assert.Empty(t, got.Data.Reactions)

	// What alice's websocket received after the block: nothing but the
	// answer to her auth frame.
	faketest.Send(t, client, "alice", toUser("carol", "marker")) // the last frame
	for {
		f, err := json.Marshal(ws.Next(t))
		require.NoError(t, err)
		if strings.Contains(string(f), "marker") {
			break
		}
		assert.NotContains(t, string(f), "rewritten")
		assert.NotContains(t, string(f), "anything at all")
	}
}
