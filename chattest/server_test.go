package chattest_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// t0 is the fixed time of the tests' clocks.
var t0 = faketest.T0

// start returns a server at t0 (unless opts set another clock) and a client
// of its fullAccess key; the server closes when the test ends.
func start(t *testing.T, opts ...chattest.Option) (*chattest.Server, *chat.Client) {
	t.Helper()
	return faketest.Start(t, opts...)
}

// seed adds active users without going through the API.
func seed(srv *chattest.Server, uids ...string) { faketest.Seed(srv, uids...) }

// requireAPIError asserts that err is the API error code with status, that
// errors.Is matches sentinel, and returns it.
func requireAPIError(t *testing.T, err error, status int, code string, sentinel error) *chat.Error {
	t.Helper()
	return faketest.RequireServiceError(t, err, status, code, sentinel)
}

// ids lists what id makes of each of items, in order.
func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func text(s string) chat.MessageData { return chat.MessageData{Text: s} }

func toUser(uid, s string) *chat.SendMessageRequest { return faketest.ToUser(uid, s) }

func TestConversation(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()

	alice, err := client.Users.Create(ctx, &chat.CreateUserRequest{
		UID: "Alice", Name: "Alice Liddell", Tags: []string{"vip"}, Metadata: map[string]any{"team": "red"}, WithAuthToken: true,
	})
	require.NoError(t, err)
	assert.Equal(t, "alice", alice.UID, "uids are lower-cased")
	assert.Equal(t, "Alice Liddell", alice.Name)
	assert.Equal(t, "default", alice.Role)
	assert.Equal(t, chat.UserOffline, alice.Status)
	assert.Equal(t, []string{"vip"}, alice.Tags)
	assert.Equal(t, map[string]any{"team": "red"}, alice.Metadata)
	assert.Equal(t, chat.TimestampOf(t0), alice.CreatedAt)
	assert.Regexp(t, `^alice_[0-9a-f]{40}$`, string(alice.AuthToken))

	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err)
	tok, err := client.AuthTokens.Create(ctx, "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, "bob", tok.UID)
	assert.Regexp(t, `^bob_[0-9a-f]{40}$`, string(tok.AuthToken))
	assert.Equal(t, chat.TimestampOf(t0), tok.CreatedAt)

	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, MUID: "m-1", Tags: []string{"greeting"},
		Data: chat.MessageData{Text: "Hello Bob", Metadata: map[string]any{"k": "v"}},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "1", msg.ID)
	assert.Equal(t, "alice_user_bob", msg.ConversationID)
	assert.Equal(t, "alice", msg.Sender)
	assert.Equal(t, "bob", msg.Receiver)
	assert.Equal(t, chat.ReceiverUser, msg.ReceiverType)
	assert.Equal(t, chat.CategoryMessage, msg.Category)
	assert.Equal(t, chat.MessageTypeText, msg.Type)
	assert.Equal(t, "m-1", msg.MUID)
	assert.Equal(t, []string{"greeting"}, msg.Tags)
	assert.Equal(t, "Hello Bob", msg.Data.Text)
	assert.Equal(t, map[string]any{"k": "v"}, msg.Data.Metadata)
	assert.Equal(t, chat.TimestampOf(t0), msg.SentAt)
	assert.Equal(t, chat.TimestampOf(t0), msg.UpdatedAt)
	require.NotNil(t, msg.Data.Entities)
	sender, err := msg.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, "alice", sender.UID)
	assert.Empty(t, sender.Tags, "entities carry no tags")
	receiver, err := msg.Data.Entities.Receiver.User()
	require.NoError(t, err)
	assert.Equal(t, "bob", receiver.UID)
	assert.Equal(t, "alice_user_bob", receiver.ConversationID)

	reply, err := client.Messages.SendThread(ctx, msg.ID, "bob", toUser("alice", "Hi Alice"))
	require.NoError(t, err)
	assert.Equal(t, "2", reply.ID)
	assert.Equal(t, "1", reply.ParentID)
	assert.Equal(t, "bob", reply.Sender)
	assert.Equal(t, "alice_user_bob", reply.ConversationID, "the uids are sorted")

	page, err := client.Messages.ListThreadMessages(ctx, msg.ID, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "2", page.Data[0].ID)
	assert.Equal(t, "1", page.Data[0].ParentID)
	assert.Equal(t, &chat.PageCount{Limit: 10, Count: 1}, page.Meta.Current)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, ID: "2", SentAt: chat.TimestampOf(t0)}, page.Meta.Next)

	parent, ok := srv.Message("1")
	require.True(t, ok)
	assert.Equal(t, 1, parent.ReplyCount)
	require.NotNil(t, parent.LastReply)
	assert.Equal(t, "2", parent.LastReply.ID)
	assert.Equal(t, "Hi Alice", parent.LastReply.Data.Text)

	fromApp, err := client.Messages.Send(ctx, toUser("alice", "Welcome"))
	require.NoError(t, err)
	assert.Equal(t, "app_system", fromApp.Sender, "without onBehalfOf the app sends")
	assert.Equal(t, "alice_user_app_system", fromApp.ConversationID)

	srv.AddGroup(chat.Group{GUID: "team", Name: "Team"}, "alice")
	toGroup, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "Team", ReceiverType: chat.ReceiverGroup, Category: chat.CategoryCustom, Type: "poll",
		Data: chat.MessageData{CustomData: map[string]any{"q": "lunch?"}},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "group_team", toGroup.ConversationID)
	assert.Equal(t, chat.MessageType("poll"), toGroup.Type)
	group, err := toGroup.Data.Entities.Receiver.Group()
	require.NoError(t, err)
	assert.Equal(t, "team", group.GUID)

	quoting, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: text("+1"), QuotedMessageID: "1",
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	require.NotNil(t, quoting.QuotedMessage)
	assert.Equal(t, "Hello Bob", quoting.QuotedMessage.Data.Text)

	all := srv.Messages()
	assert.Equal(t, []string{"1", "2", "3", "4", "5"}, messageIDs(all))
	all[0].Data.Metadata["k"] = "changed"
	again, _ := srv.Message("1")
	assert.Equal(t, "v", again.Data.Metadata["k"], "Messages returns copies")
}

func pageIDs(p *chat.Page[chat.Message]) []string { return messageIDs(p.Data) }

// messageIDs lists the ids of ms.
func messageIDs(ms []chat.Message) []string { return faketest.MessageIDs(ms) }

func TestThreadCursorBySentAt(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(ctx, toUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	var ids []string
	for i := range 6 {
		clk.Set(t0.Add(time.Duration(i/2) * time.Minute)) // two replies a minute
		r, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "r"))
		require.NoError(t, err)
		ids = append(ids, r.ID)
	}
	minute1 := chat.TimestampOf(t0.Add(time.Minute))

	page, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{SentAt: minute1}})
	require.NoError(t, err)
	assert.Equal(t, ids[2:], pageIDs(page), "a sentAt cursor alone is inclusive")

	page, err = client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{SentAt: minute1, Direction: chat.DirectionBefore}})
	require.NoError(t, err)
	assert.Equal(t, []string{ids[3], ids[2], ids[1], ids[0]}, pageIDs(page))
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionBefore, ID: ids[0], SentAt: chat.TimestampOf(t0)}, page.Meta.Next)
}

func TestUsersAllPages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	var want []string
	for i := 22; i >= 0; i-- { // created in reverse: listed by uid within a second
		uid := fmt.Sprintf("user-%02d", i)
		_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: "User " + uid})
		require.NoError(t, err)
		want = append([]string{uid}, want...)
	}
	srv.AddUser(chat.User{UID: "zoe", Name: "Zoe", CreatedAt: chat.TimestampOf(t0.Add(-time.Hour))})
	want = append([]string{"zoe"}, want...) // created earlier: listed first

	var got []string
	for u, err := range client.Users.All(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5}}) {
		require.NoError(t, err)
		got = append(got, u.UID)
	}
	assert.Equal(t, want, got)

	page, err := client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
	require.NoError(t, err)
	assert.Equal(t, &chat.Pagination{Total: 24, Count: 5, PerPage: 5, CurrentPage: 2, TotalPages: 5}, page.Meta.Pagination)
	assert.Len(t, page.Data, 5)
	page, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 5}})
	require.NoError(t, err)
	assert.Equal(t, &chat.Pagination{Total: 24, Count: 4, PerPage: 5, CurrentPage: 5, TotalPages: 5}, page.Meta.Pagination)
	page, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 6}})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	page, err = client.Users.List(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, &chat.Pagination{Total: 24, Count: 24, PerPage: 100, CurrentPage: 1, TotalPages: 1}, page.Meta.Pagination)
}

func TestUsersListFilters(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	srv.AddUser(chat.User{UID: "ann", Name: "Zed Ann", Tags: []string{"red"}, Role: "admin"})
	srv.AddUser(chat.User{UID: "bea", Name: "Anna Bea", Tags: []string{"blue", "green"}, Status: chat.UserAvailable})
	srv.AddUser(chat.User{UID: "cid", Name: "Cid", CreatedAt: chat.TimestampOf(t0.Add(time.Hour))})

	list := func(o *chat.ListUsersOptions) []string {
		t.Helper()
		page, err := client.Users.List(ctx, o)
		require.NoError(t, err)
		var uids []string
		for _, u := range page.Data {
			uids = append(uids, u.UID)
		}
		return uids
	}
	assert.Equal(t, []string{"ann", "bea"}, list(&chat.ListUsersOptions{SearchKey: "An"}), "prefix of uid or name, any case")
	assert.Equal(t, []string{"ann"}, list(&chat.ListUsersOptions{SearchKey: "an", SearchIn: []string{"uid"}}))
	assert.Equal(t, []string{"bea"}, list(&chat.ListUsersOptions{SearchKey: "an", SearchIn: []string{"name"}}))
	assert.Equal(t, []string{"ann", "bea"}, list(&chat.ListUsersOptions{Tags: []string{"red", "green"}}), "any tag")
	assert.Equal(t, []string{"ann"}, list(&chat.ListUsersOptions{Role: "admin"}))
	assert.Equal(t, []string{"bea", "cid"}, list(&chat.ListUsersOptions{Roles: []string{"default"}}))
	assert.Equal(t, []string{"bea"}, list(&chat.ListUsersOptions{Status: "available"}))
	assert.Equal(t, []string{"ann", "cid"}, list(&chat.ListUsersOptions{Status: "offline"}))
	assert.Equal(t, []string{"cid"}, list(&chat.ListUsersOptions{CreatedFrom: chat.TimestampOf(t0.Add(time.Minute))}))
	assert.Equal(t, []string{"ann", "bea"}, list(&chat.ListUsersOptions{CreatedTo: chat.TimestampOf(t0)}), "inclusive")

	page, err := client.Users.List(ctx, &chat.ListUsersOptions{SearchKey: "ann", SearchIn: []string{"uid"}})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Empty(t, page.Data[0].Tags, "tags only with withTags")
	page, err = client.Users.List(ctx, &chat.ListUsersOptions{SearchKey: "ann", SearchIn: []string{"uid"}, WithTags: true})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, []string{"red"}, page.Data[0].Tags)

	_, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 1001}})
	ce := requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "perPage")
}

func TestUserLifecycle(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "dan", Name: "Dan", Avatar: "https://a/1.png", Tags: []string{"x"}})
	require.NoError(t, err)

	got, err := client.Users.Get(ctx, "DAN")
	require.NoError(t, err)
	assert.Equal(t, "dan", got.UID)
	assert.Equal(t, "https://a/1.png", got.Avatar)
	assert.Empty(t, got.Tags, "get does not return tags")
	assert.Empty(t, got.AuthToken)

	upd, err := client.Users.Update(ctx, "dan", &chat.UpdateUserRequest{Name: "Daniel", Tags: []string{"y", "z"}, Role: "Mod", Unset: []string{"avatar"}})
	require.NoError(t, err)
	assert.Equal(t, "Daniel", upd.Name)
	assert.Equal(t, []string{"y", "z"}, upd.Tags, "tags are replaced")
	assert.Equal(t, "mod", upd.Role)
	assert.Empty(t, upd.Avatar)
	stored, ok := srv.User("dan")
	require.True(t, ok)
	assert.Equal(t, "Daniel", stored.Name)
	assert.Equal(t, []string{"y", "z"}, stored.Tags)

	// A soft delete deactivates the user, and answers as a deactivation.
	res, err := client.Users.Delete(ctx, "dan", nil)
	require.NoError(t, err)
	assert.Equal(t, &chat.DeleteUserResponse{Result: chat.Result{Success: true},
		DeactivateUsersResponse: chat.DeactivateUsersResponse{DeactivatedUIDs: []string{"dan"}}}, res)
	_, err = client.Users.Get(ctx, "dan")
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, ok = srv.User("dan")
	assert.True(t, ok, "a soft-deleted user is kept, deactivated")
	deactivated, err := client.Users.List(ctx, &chat.ListUsersOptions{OnlyDeactivated: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"dan"}, ids(deactivated.Data, func(u chat.User) string { return u.UID }))
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "dan", Name: "Dan"})
	requireAPIError(t, err, 400, "ERR_UID_ALREADY_EXISTS", chat.ErrConflict)
	res, err = client.Users.Delete(ctx, "dan", &chat.DeleteUserRequest{Permanent: false})
	require.NoError(t, err)
	assert.Equal(t, &chat.DeleteUserResponse{Result: chat.Result{Success: true},
		DeactivateUsersResponse: chat.DeactivateUsersResponse{AlreadyDeactivatedUIDs: []string{"dan"}}}, res)
	re, err := client.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: []string{"dan"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"dan"}, re.ReactivatedUIDs, "a soft delete can be undone")
	_, err = client.Users.Get(ctx, "dan")
	require.NoError(t, err)

	res, err = client.Users.Delete(ctx, "dan", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	assert.Equal(t, &chat.DeleteUserResponse{Result: chat.Result{Success: true, Message: "User dan has been deleted successfully."}}, res)
	_, ok = srv.User("dan")
	assert.False(t, ok)
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "dan", Name: "Dan again"})
	require.NoError(t, err, "a permanent delete frees the uid")
	_, err = client.Users.Delete(ctx, "nobody", nil)
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
}

func TestPermanentDeleteRemovesMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	m1, err := client.Messages.Send(ctx, toUser("bob", "to bob"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	m2, err := client.Messages.Send(ctx, toUser("carl", "to carl"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.SendThread(ctx, m1.ID, "alice", toUser("bob", "in bob's thread"))
	require.NoError(t, err)
	_, err = client.Messages.SendThread(ctx, m2.ID, "carl", toUser("alice", "carl replies"))
	require.NoError(t, err)
	srv.AddMessage(chat.Message{Sender: "bob", Receiver: "carl", ReceiverType: chat.ReceiverUser, ParentID: m2.ID, Data: chat.MessageData{Text: "bob chimes in"}})

	_, err = client.Users.Delete(ctx, "bob", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	var left []string
	for _, m := range srv.Messages() {
		left = append(left, m.Data.Text)
	}
	assert.Equal(t, []string{"to carl", "carl replies"}, left)
	parent, ok := srv.Message(m2.ID)
	require.True(t, ok)
	assert.Equal(t, 1, parent.ReplyCount)
	assert.Equal(t, "carl replies", parent.LastReply.Data.Text)
}

func TestDeactivateReactivate(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")

	res, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"Bob", "Nobody", "bob"}})
	require.NoError(t, err)
	assert.Equal(t, &chat.DeactivateUsersResponse{DeactivatedUIDs: []string{"bob"}, NotFound: []string{"Nobody"}}, res,
		"unknown uids as sent")
	res, err = client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"bob", "carl"}})
	require.NoError(t, err)
	assert.Equal(t, &chat.DeactivateUsersResponse{DeactivatedUIDs: []string{"carl"}, AlreadyDeactivatedUIDs: []string{"bob"}}, res)
	re, err := client.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: []string{"carl"}})
	require.NoError(t, err)
	assert.Equal(t, &chat.ReactivateUsersResponse{ReactivatedUIDs: []string{"carl"}}, re)

	_, err = client.Users.Get(ctx, "bob")
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Send(ctx, toUser("alice", "hi"), chat.OnBehalfOf("bob"))
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Send(ctx, toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.AuthTokens.Create(ctx, "bob", nil)
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	uids := func(o *chat.ListUsersOptions) []string {
		t.Helper()
		var out []string
		for u, err := range client.Users.All(ctx, o) {
			require.NoError(t, err)
			out = append(out, u.UID)
		}
		return out
	}
	assert.Equal(t, []string{"alice", "carl"}, uids(nil))
	assert.Equal(t, []string{"alice", "bob", "carl"}, uids(&chat.ListUsersOptions{WithDeactivated: true}))
	assert.Equal(t, []string{"bob"}, uids(&chat.ListUsersOptions{OnlyDeactivated: true}))
	_, ok := srv.User("bob")
	assert.True(t, ok, "User shows deactivated users")

	re, err = client.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: []string{"BOB", "Ghost", "alice"}})
	require.NoError(t, err)
	assert.Equal(t, &chat.ReactivateUsersResponse{ReactivatedUIDs: []string{"bob"}, NotFound: []string{"Ghost"},
		NonDeactivatedUIDs: []string{"alice"}}, re)
	_, err = client.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, []string{"alice", "bob", "carl"}, uids(nil))
}

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

func TestErrors(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(ctx, toUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	reply, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "reply"))
	require.NoError(t, err)

	cases := []struct {
		name     string
		call     func() error
		status   int
		code     string
		sentinel error
		detail   string // a field Details must name, if any
	}{
		{"unknown user", func() error { _, err := client.Users.Get(ctx, "nobody"); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"existing uid", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "ALICE", Name: "Alice"})
			return err
		}, 400, "ERR_UID_ALREADY_EXISTS", chat.ErrConflict, ""},
		{"bad uid characters", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "a b!", Name: "X"})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"uid too long", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: strings.Repeat("u", 101), Name: "X"})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"name too long", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "x", Name: strings.Repeat("😀", 51)})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "name"},
		{"too many tags", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "x", Name: "X", Tags: make([]string, 26)})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"unknown user update", func() error {
			_, err := client.Users.Update(ctx, "nobody", &chat.UpdateUserRequest{Name: "N"})
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown user delete", func() error { _, err := client.Users.Delete(ctx, "nobody", nil); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"empty receiver", func() error { _, err := client.Messages.Send(ctx, toUser("", "x")); return err },
			0, "", chat.ErrInvalidArgument, ""},
		{"bad receiver type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: "room", Data: text("x")})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"missing receiver type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", Data: text("x")})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"unknown receiver", func() error { _, err := client.Messages.Send(ctx, toUser("nobody", "x")); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown onBehalfOf", func() error {
			_, err := client.Messages.Send(ctx, toUser("bob", "x"), chat.OnBehalfOf("nobody"))
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown thread sender", func() error {
			_, err := client.Messages.SendThread(ctx, parent.ID, "nobody", toUser("bob", "x"))
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"message too large", func() error {
			_, err := client.Messages.Send(ctx, toUser("bob", strings.Repeat("x", 65_537)), chat.OnBehalfOf("alice"))
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"bad category", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Category: "action"})
			return err
		}, 400, "ERR_INVALID_MESSAGE_CATEGORY", chat.ErrBadRequest, "category"},
		{"bad type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Type: "gif"})
			return err
		}, 400, "ERR_INVALID_MESSAGE_TYPE", chat.ErrBadRequest, "type"},
		{"unknown quoted message", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, QuotedMessageID: "999"})
			return err
		}, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"reply to unknown message", func() error {
			_, err := client.Messages.SendThread(ctx, "999", "bob", toUser("alice", "x"))
			return err
		}, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"list unknown thread", func() error { _, err := client.Messages.ListThreadMessages(ctx, "999", nil); return err },
			404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"non-numeric message id", func() error { _, err := client.Messages.ListThreadMessages(ctx, "abc", nil); return err },
			404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"reply to a reply", func() error {
			_, err := client.Messages.SendThread(ctx, reply.ID, "alice", toUser("bob", "x"))
			return err
		}, 400, "ERR_MESSAGE_THREAD_NESTING", chat.ErrBadRequest, ""},
		{"thread limit too large", func() error {
			_, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 1001}})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "limit"},
		{"bad affix", func() error {
			_, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Direction: "sideways"}})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "affix"},
		{"unknown auth token", func() error { _, err := client.AuthTokens.Get(ctx, "alice", "alice_nope"); return err },
			404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown api key", func() error { _, err := client.APIKeys.Get(ctx, "0000"); return err },
			404, "ERR_APIKEY_NOT_FOUND", chat.ErrNotFound, ""},
		{"bad api key scope", func() error {
			_, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: " ", Scope: "root"})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "scope"},
		{"unknown key", func() error {
			_, err := srv.ClientWithAPIKey("not-a-key", chat.WithoutRetries()).Users.List(ctx, nil)
			return err
		}, 401, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized, ""},
		{"deactivate nobody named", func() error {
			_, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{}})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if tc.status == 0 { // refused by the SDK before sending
				require.ErrorIs(t, err, tc.sentinel)
				return
			}
			ce := requireAPIError(t, err, tc.status, tc.code, tc.sentinel)
			if tc.detail != "" {
				assert.NotEmpty(t, ce.Details[tc.detail], "details %v", ce.Details)
			}
		})
	}
	assert.Len(t, srv.Messages(), 2, "no failed call stored a message")
}

func TestConcurrentClients(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "hub")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 10 {
				uid := fmt.Sprintf("w%d-%d", w, i)
				if _, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid}); !assert.NoError(t, err) {
					return
				}
				_, err := client.Messages.Send(ctx, toUser("hub", uid), chat.OnBehalfOf(uid))
				assert.NoError(t, err)
				_, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 3}})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	msgs := srv.Messages()
	require.Len(t, msgs, 80)
	for i, m := range msgs {
		assert.Equal(t, fmt.Sprint(i+1), m.ID, "ids count up without gaps")
	}
	page, err := client.Users.List(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 81, page.Meta.Pagination.Total)
}

func TestOptions(t *testing.T) {
	ctx := t.Context()
	srv, client := start(t, chattest.WithAppID("my-app"), chattest.WithAPIKey("secret-key-123"))
	assert.Equal(t, "my-app", srv.AppID())
	assert.Equal(t, "secret-key-123", srv.APIKey())
	assert.Equal(t, "my-app", client.AppID())
	assert.Equal(t, srv.URL()+"/v3", client.BaseURL())
	_, err := client.Users.List(ctx, nil)
	require.NoError(t, err, "the client uses the configured key")

	bad := chattest.NewServer(chattest.WithAppID("my_app"), chattest.WithAPIKey("has space"), chattest.WithClock(nil))
	defer bad.Close()
	assert.Equal(t, "test-app", bad.AppID(), "an unusable app id keeps the default")
	assert.Regexp(t, `^[0-9a-f]{40}$`, bad.APIKey(), "an unusable key keeps the default")
	_, err = bad.Client().Users.List(ctx, nil)
	require.NoError(t, err)
}

func TestClientWithInvalidOptions(t *testing.T) {
	srv, _ := start(t)
	client := srv.Client(chat.WithRegion("mars"))
	require.NotNil(t, client)
	_, err := client.Users.List(t.Context(), nil)
	require.ErrorIs(t, err, chat.ErrInvalidArgument)
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "region", ae.Name)

	_, err = srv.ClientWithAPIKey("").Users.List(t.Context(), nil)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "apiKey", ae.Name)
}

func TestServerPrintsNoKey(t *testing.T) {
	srv, _ := start(t)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		out := fmt.Sprintf(verb, srv)
		assert.NotContains(t, out, srv.APIKey(), verb)
		assert.Contains(t, out, "test-app", verb)
	}
	assert.NotContains(t, fmt.Sprint(struct{ S *chattest.Server }{srv}), srv.APIKey())
	var nilSrv *chattest.Server
	assert.Equal(t, "chattest.Server(nil)", fmt.Sprint(nilSrv))
	assert.Equal(t, fmt.Sprintf("chattest.Server{AppID: %q, URL: %q}", "test-app", srv.URL()), srv.String())
	assert.Equal(t, srv.String(), srv.GoString())
}

func TestAddUserCopies(t *testing.T) {
	srv, _ := start(t)
	meta := map[string]any{"a": "b"}
	u := srv.AddUser(chat.User{UID: "Fay", Name: "Fay", Metadata: meta, AuthToken: "x"})
	assert.Equal(t, "fay", u.UID)
	assert.Equal(t, "default", u.Role)
	assert.Equal(t, chat.UserOffline, u.Status)
	assert.Equal(t, chat.TimestampOf(t0), u.CreatedAt)
	assert.Equal(t, u.CreatedAt, u.UpdatedAt)
	assert.Empty(t, u.AuthToken)
	meta["a"] = "changed"
	stored, ok := srv.User("FAY")
	require.True(t, ok)
	assert.Equal(t, "b", stored.Metadata["a"], "AddUser keeps its own copy")
	_, ok = srv.User("nobody")
	assert.False(t, ok)
	_, ok = srv.Message("1")
	assert.False(t, ok)
}

func TestCloseIsIdempotent(t *testing.T) {
	srv := chattest.NewServer()
	client := srv.Client(chat.WithoutRetries())
	_, err := client.APIKeys.List(t.Context(), nil)
	require.NoError(t, err)
	srv.Close()
	srv.Close()
	_, err = client.APIKeys.List(t.Context(), nil)
	require.ErrorIs(t, err, syscall.ECONNREFUSED, "nothing listens after Close")
	assert.False(t, errors.As(err, new(*chat.Error)), "no answer after Close")
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

func TestUnencodableSeed(t *testing.T) {
	srv, client := start(t)
	srv.AddUser(chat.User{UID: "odd", Name: "Odd", Metadata: map[string]any{"ch": make(chan int)}})
	_, err := client.Users.Get(t.Context(), "odd")
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 500, ce.StatusCode)
	assert.Equal(t, "ERR_EXCEPTION", ce.Code)
	assert.Contains(t, ce.DevMessage, "chan", "the encoding error is the devMessage")
}
