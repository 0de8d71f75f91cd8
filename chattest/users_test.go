package chattest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

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
