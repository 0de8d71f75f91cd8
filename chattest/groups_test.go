package chattest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// memberScopes lists the members of guid as "uid:scope", in the order the
// server lists them.
func memberScopes(t *testing.T, client *chat.Client, guid string) []string {
	t.Helper()
	return faketest.MemberScopes(t, client, guid)
}

// bannedUIDs lists the users banned from guid.
func bannedUIDs(t *testing.T, client *chat.Client, guid string) []string {
	t.Helper()
	var out []string
	for u, err := range client.Bans.All(t.Context(), guid, nil) {
		require.NoError(t, err)
		out = append(out, u.UID)
	}
	return out
}

// groupGUIDs lists the guids of a page of groups.
func groupGUIDs(p *chat.Page[chat.Group]) []string {
	return ids(p.Data, func(g chat.Group) string { return g.GUID })
}

func membersCountp(n int) *int { return &n }

func TestGroupLifecycle(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob")

	g, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{
		GUID: "Project-Group", Name: "Project Group", Description: "For the project", Icon: "https://example.com/g.png",
		Metadata: map[string]any{"floor": 3.0}, Tags: []string{"work"},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, &chat.Group{
		GUID: "project-group", Name: "Project Group", Description: "For the project", Icon: "https://example.com/g.png",
		Type: chat.GroupPublic, Scope: chat.MemberAdmin, MembersCount: 1, JoinedAt: chat.TimestampOf(t0), HasJoined: true,
		ConversationID: "group_project-group", Owner: "alice", Tags: []string{"work"}, Metadata: map[string]any{"floor": 3.0},
		CreatedAt: chat.TimestampOf(t0),
	}, g, "the creator owns the group and is its admin; the guid is lower-cased; the type defaults to public; no updatedAt before an update")

	g, err = client.Groups.Get(ctx, "PROJECT-GROUP")
	require.NoError(t, err)
	assert.Equal(t, 1, g.MembersCount)
	assert.False(t, g.HasJoined, "without onBehalfOf nothing is relative to a user")
	assert.Empty(t, g.Scope)
	assert.Zero(t, g.JoinedAt)

	g, err = client.Groups.Get(ctx, "project-group", chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.False(t, g.HasJoined, "bob is not a member")
	assert.Empty(t, g.Scope)

	clk.Set(t0.Add(time.Hour))
	g, err = client.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{
		Name: "Renamed", Tags: []string{"work", "q3"}, Metadata: map[string]any{"floor": 4.0}, Unset: []string{"icon"},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "Renamed", g.Name)
	assert.Equal(t, []string{"work", "q3"}, g.Tags)
	assert.Equal(t, map[string]any{"floor": 4.0}, g.Metadata)
	assert.Empty(t, g.Icon)
	assert.Equal(t, "For the project", g.Description, "unchanged")
	assert.Equal(t, "alice", g.UpdatedBy)
	assert.Equal(t, chat.TimestampOf(t0.Add(time.Hour)), g.UpdatedAt)
	assert.Equal(t, chat.TimestampOf(t0), g.CreatedAt)
	assert.Equal(t, chat.MemberAdmin, g.Scope)

	g, err = client.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{Unset: []string{"description", "metadata"}})
	require.NoError(t, err)
	assert.Empty(t, g.Description)
	assert.Nil(t, g.Metadata)
	assert.Equal(t, "app_system", g.UpdatedBy)

	stored, ok := srv.Group("project-group")
	require.True(t, ok)
	assert.Equal(t, "Renamed", stored.Name)

	res, err := client.Groups.Delete(ctx, "project-group", chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.NotEmpty(t, res.Message)

	_, err = client.Groups.Get(ctx, "project-group")
	requireAPIError(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Groups.Delete(ctx, "project-group")
	requireAPIError(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, ok = srv.Group("project-group")
	assert.False(t, ok)

	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "project-group", Name: "Again"})
	require.NoError(t, err, "a deleted group's guid can be used again")
}

func TestGroupCreateRules(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave", "erin")

	g, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "nobody", Name: "Nobody's"})
	require.NoError(t, err)
	assert.Equal(t, "app_system", g.Owner, "without owner or onBehalfOf the system user owns the group")
	assert.Zero(t, g.MembersCount)
	assert.False(t, g.HasJoined)

	g, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{
		GUID: "team", Name: "Team", Type: chat.GroupPrivate, Owner: "Alice",
		Members: &chat.AddMembersRequest{
			Admins: []string{"bob"}, Moderators: []string{"carol", "bob"}, Participants: []string{"dave", "alice", "zed"},
			UsersToBan: []string{"erin"},
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "alice", g.Owner)
	assert.Equal(t, chat.MemberAdmin, g.Scope, "without onBehalfOf the answer is relative to the owner")
	assert.True(t, g.HasJoined)
	assert.Equal(t, 4, g.MembersCount, "the owner, bob, carol and dave; zed does not exist")
	assert.Equal(t, []string{"alice:admin", "bob:admin", "carol:moderator", "dave:participant"}, memberScopes(t, client, "team"))
	assert.Equal(t, []string{"erin"}, bannedUIDs(t, client, "team"))

	g, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "bobs", Name: "Bob's", Owner: "bob"}, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	assert.Equal(t, "carol", g.Owner, "a user creates groups as themself: the body's owner is ignored, as update ignores it")
	assert.True(t, g.HasJoined, "carol, the owner, is a member")
	assert.Equal(t, []string{"carol:admin"}, memberScopes(t, client, "bobs"))

	for _, tt := range []struct {
		name    string
		req     *chat.CreateGroupRequest
		status  int
		code    string
		details []string
	}{
		{"bad guid", &chat.CreateGroupRequest{GUID: "a b", Name: "G"}, 400, "ERR_BAD_REQUEST", []string{"guid"}},
		{"long guid", &chat.CreateGroupRequest{GUID: strings.Repeat("g", 101), Name: "G"}, 400, "ERR_BAD_REQUEST", []string{"guid"}},
		{"long name", &chat.CreateGroupRequest{GUID: "g", Name: strings.Repeat("n", 101)}, 400, "ERR_BAD_REQUEST", []string{"name"}},
		{"bad type", &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: "secret"}, 400, "ERR_BAD_REQUEST", []string{"type"}},
		{"long description and password", &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPassword,
			Password: chat.Secret(strings.Repeat("p", 101)), Description: strings.Repeat("d", 256)}, 400, "ERR_BAD_REQUEST", []string{"description", "password"}},
		{"26 tags", &chat.CreateGroupRequest{GUID: "g", Name: "G", Tags: slices.Repeat([]string{"t"}, 26)}, 400, "ERR_BAD_REQUEST", []string{"tags"}},
		{"long tag", &chat.CreateGroupRequest{GUID: "g", Name: "G", Tags: []string{strings.Repeat("t", 101)}}, 400, "ERR_BAD_REQUEST", []string{"tags"}},
		{"big metadata", &chat.CreateGroupRequest{GUID: "g", Name: "G", Metadata: map[string]any{"k": strings.Repeat("m", 6000)}}, 400, "ERR_BAD_REQUEST", []string{"metadata"}},
		{"password group without password", &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPassword}, 400, "ERR_EMPTY_GROUP_PASS", []string{"password"}},
		{"existing guid", &chat.CreateGroupRequest{GUID: "TEAM", Name: "G"}, 409, "ERR_GUID_ALREADY_EXISTS", nil},
		{"unknown owner", &chat.CreateGroupRequest{GUID: "g", Name: "G", Owner: "zed"}, 404, "ERR_UID_NOT_FOUND", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.Groups.Create(ctx, tt.req)
			if errors.Is(err, chat.ErrInvalidArgument) {
				// The SDK checks the limits before sending; the fake
				// checks them too.
				body, err := json.Marshal(tt.req)
				require.NoError(t, err)
				r := do(t, srv, "POST", "/v3/groups", string(body), key(srv))
				assert.Equal(t, tt.status, r.resp.StatusCode)
				e := r.errorBody(t)
				assert.Equal(t, tt.code, e["code"])
				details, _ := e["details"].(map[string]any)
				assert.ElementsMatch(t, tt.details, slices.Collect(maps.Keys(details)))
				return
			}
			sentinel := map[int]error{400: chat.ErrBadRequest, 404: chat.ErrNotFound, 409: chat.ErrConflict}[tt.status]
			ce := requireAPIError(t, err, tt.status, tt.code, sentinel)
			var fields []string
			for f := range ce.Details {
				fields = append(fields, f)
			}
			slices.Sort(fields)
			assert.Equal(t, tt.details, fields)
		})
	}
	_, ok := srv.Group("g")
	assert.False(t, ok, "no failed create stored a group")

	g, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "locked", Name: "Locked", Type: chat.GroupPassword, Password: "s3cret"})
	require.NoError(t, err)
	assert.Equal(t, chat.GroupPassword, g.Type)
}

func TestGroupCreateRawMembers(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice")
	for _, tt := range []struct {
		name, body, field string
	}{
		{"unknown list", `{"guid":"g","name":"G","members":{"owners":["alice"]}}`, "members.owners"},
		{"empty list", `{"guid":"g","name":"G","members":{"admins":[]}}`, "members.admins"},
		{"not a list", `{"guid":"g","name":"G","members":{"admins":"alice"}}`, "members.admins"},
		{"not an object", `{"guid":"g","name":"G","members":["alice"]}`, "members"},
		{"26 users", `{"guid":"g","name":"G","members":{"participants":["` + strings.Join(numberedUIDs("u", 26), `","`) + `"]}}`, "members.participants"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, srv, http.MethodPost, "/v3/groups", tt.body, key(srv))
			assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
			e := r.errorBody(t)
			assert.Equal(t, "ERR_BAD_REQUEST", e["code"])
			assert.Contains(t, e["details"], tt.field)
		})
	}
}

// numberedUIDs returns n uids prefix0, prefix1, ...
func numberedUIDs(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func TestGroupUpdateRules(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "alice"}, "bob:moderator")

	_, err := client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Type: chat.GroupPassword})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_EMPTY_GROUP_PASS", chat.ErrBadRequest)
	g, err := client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Type: chat.GroupPassword, Password: "pw"})
	require.NoError(t, err)
	assert.Equal(t, chat.GroupPassword, g.Type)
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Type: chat.GroupPassword, Name: "Still locked"})
	require.NoError(t, err, "the group keeps its password")
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Type: chat.GroupPublic})
	require.NoError(t, err)
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Type: chat.GroupPassword})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_EMPTY_GROUP_PASS", chat.ErrBadRequest)

	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Unset: []string{"name"}})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "unset")

	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Name: "By bob"}, chat.OnBehalfOf("bob"))
	requireAPIError(t, err, http.StatusForbidden, "ERR_GROUP_NO_ADMIN_SCOPE", chat.ErrForbidden)
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Name: "By carol"}, chat.OnBehalfOf("carol"))
	requireAPIError(t, err, http.StatusForbidden, "ERR_GROUP_NOT_JOINED", chat.ErrForbidden)
	_, err = client.Groups.Delete(ctx, "g", chat.OnBehalfOf("bob"))
	requireAPIError(t, err, http.StatusForbidden, "ERR_GROUP_NO_ADMIN_SCOPE", chat.ErrForbidden)

	// Ownership: ignored with onBehalfOf; the new owner must be a member,
	// and becomes an admin.
	g, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Owner: "bob"}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "alice", g.Owner, "owner is ignored with onBehalfOf")
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Owner: "carol"})
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_MEMBER", chat.ErrNotFound)
	_, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Owner: "zed"})
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	g, err = client.Groups.Update(ctx, "g", &chat.UpdateGroupRequest{Owner: "BOB"})
	require.NoError(t, err)
	assert.Equal(t, "bob", g.Owner)
	assert.Equal(t, []string{"alice:admin", "bob:admin"}, memberScopes(t, client, "g"))
	_, err = client.Members.Kick(ctx, "g", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_GROUP_NO_SCOPE_CLEARANCE", chat.ErrForbidden)
	_, err = client.Members.Kick(ctx, "g", "alice")
	require.NoError(t, err, "the former owner is an ordinary admin")
}

func TestGroupsList(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	at := func(s int64) chat.Timestamp { return chat.Timestamp(t0.Unix() + s) }
	srv.AddGroup(chat.Group{GUID: "alpha", Name: "Alpha", Owner: "alice", Tags: []string{"red"}, CreatedAt: at(1)}, "bob")
	srv.AddGroup(chat.Group{GUID: "beta", Name: "Beta", Type: chat.GroupPassword, Tags: []string{"blue"}, CreatedAt: at(2), UpdatedAt: at(20)})
	srv.AddGroup(chat.Group{GUID: "gamma", Name: "Gamma", Type: chat.GroupPrivate, Owner: "bob", CreatedAt: at(3)}, "carol:moderator", "alice")
	srv.AddGroup(chat.Group{GUID: "delta", Name: "Delta", Type: chat.GroupPrivate, Owner: "carol", CreatedAt: at(4), UpdatedAt: at(10)})

	list := func(opts *chat.ListGroupsOptions, reqOpts ...chat.RequestOption) []string {
		t.Helper()
		p, err := client.Groups.List(ctx, opts, reqOpts...)
		require.NoError(t, err)
		return groupGUIDs(p)
	}
	assert.Equal(t, []string{"beta", "delta", "gamma", "alpha"}, list(nil), "most recently updated first")
	assert.Equal(t, []string{"alpha", "beta", "delta", "gamma"}, list(&chat.ListGroupsOptions{SortBy: chat.GroupSortByName}))
	assert.Equal(t, []string{"delta", "gamma", "beta", "alpha"}, list(&chat.ListGroupsOptions{SortBy: chat.GroupSortByCreatedAt, SortOrder: chat.SortDescending}))
	assert.Equal(t, []string{"gamma", "delta", "beta", "alpha"}, list(&chat.ListGroupsOptions{SortBy: chat.GroupSortByGUID, SortOrder: chat.SortDescending}))
	assert.Equal(t, []string{"beta", "delta"}, list(&chat.ListGroupsOptions{SearchKey: "TA"}), "names or guids containing ta, case-insensitively")
	assert.Equal(t, []string{"alpha"}, list(&chat.ListGroupsOptions{SearchKey: "lph", SearchIn: []string{"guid"}}))
	assert.Equal(t, []string{"beta"}, list(&chat.ListGroupsOptions{Type: chat.GroupPassword}))
	assert.Equal(t, []string{"beta"}, list(&chat.ListGroupsOptions{Type: "protected"}), "protected is the other name of password groups")
	assert.Equal(t, []string{"beta", "alpha"}, list(&chat.ListGroupsOptions{Types: []chat.GroupType{chat.GroupPublic, chat.GroupPassword}}))
	assert.Equal(t, []string{"beta", "alpha"}, list(&chat.ListGroupsOptions{Tags: []string{"red", "blue"}}))
	assert.Equal(t, []string{"delta", "alpha"}, list(&chat.ListGroupsOptions{GUID: "ALPHA", GUIDs: []string{"delta"}}))
	assert.Equal(t, []string{"delta", "gamma"}, list(&chat.ListGroupsOptions{CreatedFrom: at(3), CreatedTo: at(4)}))
	assert.Equal(t, []string{"beta", "delta"}, list(&chat.ListGroupsOptions{UpdatedFrom: at(0)}), "only groups updated since creation")
	assert.Equal(t, []string{"delta"}, list(&chat.ListGroupsOptions{UpdatedTo: at(15)}))
	assert.Equal(t, []string{"gamma"}, list(&chat.ListGroupsOptions{MembersCountGTE: membersCountp(3)}))
	assert.Equal(t, []string{"delta", "alpha"}, list(&chat.ListGroupsOptions{MembersCountLTE: membersCountp(2), MembersCountGTE: membersCountp(1)}))
	assert.Equal(t, []string{"beta"}, list(&chat.ListGroupsOptions{MembersCountEQ: membersCountp(0)}), "an explicit 0 filters")

	// With onBehalfOf, private groups the user has not joined are hidden,
	// and hasJoined keeps the joined ones.
	assert.Equal(t, []string{"beta", "gamma", "alpha"}, list(nil, chat.OnBehalfOf("alice")))
	assert.Equal(t, []string{"gamma", "alpha"}, list(&chat.ListGroupsOptions{HasJoined: true}, chat.OnBehalfOf("alice")))
	p, err := client.Groups.List(ctx, &chat.ListGroupsOptions{HasJoined: true}, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	require.Len(t, p.Data, 2)
	assert.Equal(t, "delta", p.Data[0].GUID)
	assert.Equal(t, chat.MemberAdmin, p.Data[0].Scope)
	assert.Equal(t, "gamma", p.Data[1].GUID)
	assert.Equal(t, chat.MemberModerator, p.Data[1].Scope)
	assert.True(t, p.Data[1].HasJoined)
	assert.Equal(t, 3, p.Data[1].MembersCount)

	// Groups show their tags, with or without withTags.
	for _, withTags := range []bool{false, true} {
		p, err = client.Groups.List(ctx, &chat.ListGroupsOptions{GUID: "alpha", WithTags: withTags})
		require.NoError(t, err)
		assert.Equal(t, []string{"red"}, p.Data[0].Tags)
	}

	// Pages and the updatedAt cursor.
	p, err = client.Groups.List(ctx, &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 3}})
	require.NoError(t, err)
	assert.Equal(t, []string{"beta", "delta", "gamma"}, groupGUIDs(p))
	assert.Equal(t, &chat.Pagination{Total: 4, Count: 3, PerPage: 3, CurrentPage: 1, TotalPages: 2}, p.Meta.Pagination)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionBefore, UpdatedAt: at(3)}, p.Meta.Cursor)
	p, err = client.Groups.List(ctx, &chat.ListGroupsOptions{Direction: p.Meta.Cursor.Direction, UpdatedAt: p.Meta.Cursor.UpdatedAt})
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha"}, groupGUIDs(p), "prepend: updated before the cursor")
	assert.Equal(t, []string{"delta", "beta"}, list(&chat.ListGroupsOptions{Direction: chat.DirectionAfter, UpdatedAt: at(3)}), "append: updated after, oldest first")

	var all []string
	for g, err := range client.Groups.All(ctx, &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 1}}) {
		require.NoError(t, err)
		all = append(all, g.GUID)
	}
	assert.Equal(t, []string{"beta", "delta", "gamma", "alpha"}, all)

	for _, bad := range []string{"sortBy=size", "sortOrder=up", "affix=middle", "type=secret", "types=public,secret",
		"membersCount%5Bgte%5D=-1", "perPage=1001", "searchIn=tags", "hasJoined=maybe"} {
		r := do(t, srv, http.MethodGet, "/v3/groups?"+bad, "", key(srv))
		assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, bad)
	}
	r := do(t, srv, http.MethodGet, "/v3/groups?hasJoined=true", "", key(srv))
	assert.Equal(t, http.StatusOK, r.resp.StatusCode, "hasJoined without onBehalfOf is ignored")
	assert.Len(t, r.body["data"], 4)
}

func TestMembers(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave", "erin", "frank")
	srv.AddUser(chat.User{UID: "gina", Name: "Gina", Status: chat.UserAvailable})
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "alice"})

	resp, err := client.Members.Add(ctx, "G", &chat.AddMembersRequest{
		Admins: []string{"Bob"}, Moderators: []string{"carol", "bob"}, Participants: []string{"dave", "gina", "alice", "zed", "dave"},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"bob"}, slices.Sorted(maps.Keys(resp.Admins)))
	assert.Equal(t, []string{"carol"}, slices.Sorted(maps.Keys(resp.Moderators)), "bob is added once, as an admin")
	assert.Equal(t, []string{"alice", "dave", "gina", "zed"}, slices.Sorted(maps.Keys(resp.Participants)))
	assert.Nil(t, resp.UsersToBan)
	for _, r := range []chat.MemberResult{resp.Admins["bob"], resp.Moderators["carol"], resp.Participants["dave"], resp.Participants["gina"]} {
		assert.True(t, r.Success)
		assert.Nil(t, r.Error)
	}
	assert.Equal(t, chat.MemberResult{Error: &chat.MemberError{Code: "ERR_ALREADY_JOINED", Message: "The user alice is already a member of the group g."}},
		resp.Participants["alice"])
	require.NotNil(t, resp.Participants["zed"].Error)
	assert.Equal(t, "ERR_UID_NOT_FOUND", resp.Participants["zed"].Error.Code)

	g, err := client.Groups.Get(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, 5, g.MembersCount)

	page, err := client.Members.List(ctx, "g", nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 5)
	assert.Equal(t, chat.GroupMember{UID: "alice", Name: "Alice", Status: chat.UserOffline, Role: "default",
		Scope: chat.MemberAdmin, JoinedAt: chat.TimestampOf(t0), CreatedAt: chat.TimestampOf(t0)}, page.Data[0], "updatedAt only once updated")
	assert.Equal(t, &chat.Pagination{Total: 5, Count: 5, PerPage: 100, CurrentPage: 1, TotalPages: 1}, page.Meta.Pagination)
	assert.Equal(t, []string{"alice:admin", "bob:admin", "carol:moderator", "dave:participant", "gina:participant"}, memberScopes(t, client, "g"))

	page, err = client.Members.List(ctx, "g", &chat.ListMembersOptions{Scopes: []chat.MemberScope{chat.MemberModerator, chat.MemberParticipant}})
	require.NoError(t, err)
	assert.Len(t, page.Data, 3)
	page, err = client.Members.List(ctx, "g", &chat.ListMembersOptions{Status: chat.UserAvailable})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "gina", page.Data[0].UID)
	page, err = client.Members.List(ctx, "g", &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: 2, Page: 3}})
	require.NoError(t, err)
	assert.Equal(t, "gina", page.Data[0].UID)
	assert.Equal(t, &chat.Pagination{Total: 5, Count: 1, PerPage: 2, CurrentPage: 3, TotalPages: 3}, page.Meta.Pagination)
	var walked []string
	for m, err := range client.Members.All(ctx, "g", &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: 2}}) {
		require.NoError(t, err)
		walked = append(walked, m.UID)
	}
	assert.Equal(t, []string{"alice", "bob", "carol", "dave", "gina"}, walked)

	sc, err := client.Members.ChangeScope(ctx, "g", "DAVE", &chat.ChangeScopeRequest{Scope: chat.MemberModerator})
	require.NoError(t, err)
	assert.Equal(t, &chat.ScopeChange{GUID: "g", UID: "dave", Scope: chat.MemberModerator, JoinedAt: chat.TimestampOf(t0)}, sc)
	_, err = client.Members.ChangeScope(ctx, "g", "dave", &chat.ChangeScopeRequest{Scope: chat.MemberModerator})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_SAME_SCOPE", chat.ErrBadRequest)
	_, err = client.Members.ChangeScope(ctx, "g", "erin", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_MEMBER", chat.ErrNotFound)
	_, err = client.Members.ChangeScope(ctx, "g", "dave", &chat.ChangeScopeRequest{Scope: "owner"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "scope")
	r := do(t, srv, http.MethodPut, "/v3/groups/g/members/dave", `{}`, key(srv))
	assert.Equal(t, http.StatusOK, r.resp.StatusCode)
	assert.Equal(t, "participant", r.body["data"].(map[string]any)["scope"], "a missing scope is participant")

	res, err := client.Members.Kick(ctx, "g", "dave")
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = client.Members.Kick(ctx, "g", "dave")
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_MEMBER", chat.ErrNotFound)
	g, err = client.Groups.Get(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, 4, g.MembersCount)
	resp, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"dave"}})
	require.NoError(t, err)
	assert.True(t, resp.Participants["dave"].Success, "a kicked user can be added again")

	// A deleted user is no longer listed or counted.
	_, err = client.Users.Delete(ctx, "gina", nil)
	require.NoError(t, err)
	g, err = client.Groups.Get(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, 4, g.MembersCount)
	assert.NotContains(t, memberScopes(t, client, "g"), "gina:participant")
}

func TestMembersLimits(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	srv.AddGroup(chat.Group{GUID: "g", Name: "G"})
	uids := numberedUIDs("u", 26)
	seed(srv, uids...)

	resp, err := client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: uids[:25]})
	require.NoError(t, err)
	assert.Len(t, resp.Participants, 25)
	g, _ := srv.Group("g")
	assert.Equal(t, 25, g.MembersCount)

	body := `{"participants":["` + strings.Join(uids[:20], `","`) + `"],"admins":["` + strings.Join(uids[20:], `","`) + `"]}`
	r := do(t, srv, http.MethodPost, "/v3/groups/g/members", body, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, "26 users in one call")
	assert.Contains(t, r.errorBody(t)["details"], "participants", "the list that overflows")

	for _, body := range []string{`{}`, ``, `{"admins":[]}`, `{"owners":["u0"]}`, `{"participants":[""]}`, `[]`} {
		r := do(t, srv, http.MethodPost, "/v3/groups/g/members", body, key(srv))
		assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, body)
		assert.Equal(t, "ERR_BAD_REQUEST", r.errorBody(t)["code"], body)
	}
}

func TestMemberPermissions(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "owner", "admin", "mod", "mod2", "part", "part2", "outsider", "newbie")
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "owner"}, "admin:admin", "mod:moderator", "mod2:moderator", "part", "part2")
	as := chat.OnBehalfOf

	forbidden := func(err error, code string) {
		t.Helper()
		requireAPIError(t, err, http.StatusForbidden, code, chat.ErrForbidden)
	}

	// Participants cannot kick, ban, add or re-scope.
	_, err := client.Members.Kick(ctx, "g", "part2", as("part"))
	forbidden(err, "ERR_GROUP_NO_MODERATOR_SCOPE")
	_, err = client.Bans.Ban(ctx, "g", "part2", as("part"))
	forbidden(err, "ERR_GROUP_NO_MODERATOR_SCOPE")
	_, err = client.Bans.Unban(ctx, "g", "part2", as("part"))
	forbidden(err, "ERR_GROUP_NO_MODERATOR_SCOPE")
	_, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"newbie"}}, as("part"))
	forbidden(err, "ERR_GROUP_NO_MODERATOR_SCOPE")
	_, err = client.Members.ChangeScope(ctx, "g", "part2", &chat.ChangeScopeRequest{Scope: chat.MemberModerator}, as("part"))
	forbidden(err, "ERR_GROUP_NO_MODERATOR_SCOPE")

	// Non-members cannot act at all.
	_, err = client.Members.Kick(ctx, "g", "part", as("outsider"))
	forbidden(err, "ERR_GROUP_NOT_JOINED")

	// Moderators cannot touch admins, nor make anyone an admin.
	_, err = client.Members.ChangeScope(ctx, "g", "admin", &chat.ChangeScopeRequest{Scope: chat.MemberParticipant}, as("mod"))
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Members.ChangeScope(ctx, "g", "part", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin}, as("mod"))
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Members.Kick(ctx, "g", "admin", as("mod"))
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Bans.Ban(ctx, "g", "admin", as("mod"))
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	resp, err := client.Members.Add(ctx, "g", &chat.AddMembersRequest{Admins: []string{"newbie"}, UsersToBan: []string{"admin"}}, as("mod"))
	require.NoError(t, err, "per-user failures do not fail the call")
	assert.Equal(t, "ERR_GROUP_NO_SCOPE_CLEARANCE", resp.Admins["newbie"].Error.Code)
	assert.Equal(t, "ERR_GROUP_NO_SCOPE_CLEARANCE", resp.UsersToBan["admin"].Error.Code)

	// Nobody acts on themselves or on the owner, not even the app.
	_, err = client.Members.Kick(ctx, "g", "mod", as("mod"))
	forbidden(err, "ERR_GROUP_NO_SELF_ACTION")
	_, err = client.Members.ChangeScope(ctx, "g", "admin", &chat.ChangeScopeRequest{Scope: chat.MemberModerator}, as("admin"))
	forbidden(err, "ERR_GROUP_NO_SELF_ACTION")
	_, err = client.Members.Kick(ctx, "g", "owner", as("admin"))
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Members.Kick(ctx, "g", "owner")
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Bans.Ban(ctx, "g", "owner")
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")
	_, err = client.Members.ChangeScope(ctx, "g", "owner", &chat.ChangeScopeRequest{Scope: chat.MemberParticipant})
	forbidden(err, "ERR_GROUP_NO_SCOPE_CLEARANCE")

	// What moderators and admins may do.
	resp, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Moderators: []string{"newbie"}}, as("mod"))
	require.NoError(t, err)
	assert.True(t, resp.Moderators["newbie"].Success)
	_, err = client.Members.ChangeScope(ctx, "g", "part", &chat.ChangeScopeRequest{Scope: chat.MemberModerator}, as("mod"))
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "g", "mod2", as("mod"))
	require.NoError(t, err, "a moderator may kick a moderator")
	_, err = client.Bans.Ban(ctx, "g", "part2", as("mod"))
	require.NoError(t, err)
	_, err = client.Bans.Unban(ctx, "g", "part2", as("mod"))
	require.NoError(t, err)
	_, err = client.Members.ChangeScope(ctx, "g", "mod", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin}, as("admin"))
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "g", "mod", as("admin"))
	require.NoError(t, err, "an admin may kick an admin")

	assert.Equal(t, []string{"owner:admin", "admin:admin", "part:moderator", "newbie:moderator"}, memberScopes(t, client, "g"))
}

func TestBans(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave")
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "alice"}, "bob", "carol")

	res, err := client.Bans.Ban(ctx, "g", "BOB")
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, []string{"alice:admin", "carol:participant"}, memberScopes(t, client, "g"), "a banned member is removed")
	g, _ := srv.Group("g")
	assert.Equal(t, 2, g.MembersCount)
	_, ok := seenScope(t, client, "g", "bob")
	assert.False(t, ok)

	_, err = client.Bans.Ban(ctx, "g", "bob")
	requireAPIError(t, err, http.StatusConflict, "ERR_ALREADY_BANNED", chat.ErrConflict)
	_, err = client.Bans.Ban(ctx, "g", "zed")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Bans.Ban(ctx, "g", "dave")
	require.NoError(t, err, "a user who is not a member can be banned")
	assert.Equal(t, []string{"bob", "dave"}, bannedUIDs(t, client, "g"))

	page, err := client.Bans.List(ctx, "g", &chat.ListBannedOptions{PageOptions: chat.PageOptions{PerPage: 1}})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, chat.User{UID: "bob", Name: "Bob", Status: chat.UserOffline, Role: "default",
		CreatedAt: chat.TimestampOf(t0)}, page.Data[0], "updatedAt only once updated")
	assert.Equal(t, &chat.Pagination{Total: 2, Count: 1, PerPage: 1, CurrentPage: 1, TotalPages: 2}, page.Meta.Pagination)

	resp, err := client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"bob"}})
	require.NoError(t, err)
	assert.False(t, resp.Participants["bob"].Success)
	assert.Equal(t, "ERR_BANNED_GROUPMEMBER", resp.Participants["bob"].Error.Code)

	_, err = client.Bans.Unban(ctx, "g", "bob")
	require.NoError(t, err)
	assert.Equal(t, []string{"dave"}, bannedUIDs(t, client, "g"))
	assert.Equal(t, []string{"alice:admin", "carol:participant"}, memberScopes(t, client, "g"), "unbanning does not add back")
	_, err = client.Bans.Unban(ctx, "g", "bob")
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_BANNED_USER", chat.ErrNotFound)

	resp, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"bob"}, UsersToBan: []string{"carol", "dave", "alice"}})
	require.NoError(t, err)
	assert.True(t, resp.Participants["bob"].Success, "an unbanned user can be added again")
	assert.Equal(t, chat.MemberResult{Success: true}, resp.UsersToBan["carol"])
	assert.Equal(t, "ERR_ALREADY_BANNED", resp.UsersToBan["dave"].Error.Code)
	assert.Equal(t, "ERR_GROUP_NO_SCOPE_CLEARANCE", resp.UsersToBan["alice"].Error.Code, "the owner cannot be banned")
	assert.Equal(t, []string{"alice:admin", "bob:participant"}, memberScopes(t, client, "g"))
	assert.Equal(t, []string{"dave", "carol"}, bannedUIDs(t, client, "g"))
}

// seenScope returns uid's scope in guid as a group seen on their behalf.
func seenScope(t *testing.T, client *chat.Client, guid, uid string) (chat.MemberScope, bool) {
	t.Helper()
	g, err := client.Groups.Get(t.Context(), guid, chat.OnBehalfOf(uid))
	require.NoError(t, err)
	return g.Scope, g.HasJoined
}

func TestGroupNotFound(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	for name, call := range map[string]func() error{
		"Get": func() error { _, err := client.Groups.Get(ctx, "nope"); return err },
		"Update": func() error {
			_, err := client.Groups.Update(ctx, "nope", &chat.UpdateGroupRequest{Name: "x"})
			return err
		},
		"Delete": func() error { _, err := client.Groups.Delete(ctx, "nope"); return err },
		"Add": func() error {
			_, err := client.Members.Add(ctx, "nope", &chat.AddMembersRequest{Admins: []string{"alice"}})
			return err
		},
		"List": func() error { _, err := client.Members.List(ctx, "nope", nil); return err },
		"ChangeScope": func() error {
			_, err := client.Members.ChangeScope(ctx, "nope", "alice", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
			return err
		},
		"Kick":   func() error { _, err := client.Members.Kick(ctx, "nope", "alice"); return err },
		"Ban":    func() error { _, err := client.Bans.Ban(ctx, "nope", "alice"); return err },
		"Unban":  func() error { _, err := client.Bans.Unban(ctx, "nope", "alice"); return err },
		"Banned": func() error { _, err := client.Bans.List(ctx, "nope", nil); return err },
	} {
		t.Run(name, func(t *testing.T) {
			requireAPIError(t, call(), http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
		})
	}

	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "alice"})
	_, err := client.Groups.Get(ctx, "g", chat.OnBehalfOf("ghost"))
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Members.List(ctx, "g", nil, chat.OnBehalfOf("ghost"))
	require.NoError(t, err, "list members does not read onBehalfOf")
}

func TestAddGroupSeed(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	g := srv.AddGroup(chat.Group{GUID: "Seeded", Name: "Seeded", Owner: "ALICE", Scope: chat.MemberParticipant, HasJoined: true, MembersCount: 99},
		"Bob:moderator", "carol", "nobody")
	assert.Equal(t, chat.Group{GUID: "seeded", Name: "Seeded", Type: chat.GroupPublic, Owner: "alice", MembersCount: 3,
		ConversationID: "group_seeded", CreatedAt: chat.TimestampOf(t0), UpdatedAt: chat.TimestampOf(t0)}, g)
	assert.Equal(t, []string{"alice:admin", "bob:moderator", "carol:participant"}, memberScopes(t, client, "seeded"))
	got, ok := srv.Group("SEEDED")
	require.True(t, ok)
	assert.Equal(t, g, got)

	seed(srv, "nobody")
	got, _ = srv.Group("seeded")
	assert.Equal(t, 4, got.MembersCount, "a member who becomes a user counts")

	srv.AddGroup(chat.Group{GUID: "seeded", Name: "Replaced"})
	got, _ = srv.Group("seeded")
	assert.Equal(t, "Replaced", got.Name)
	assert.Equal(t, "app_system", got.Owner)
	assert.Zero(t, got.MembersCount, "replacing drops the members")

	meta := map[string]any{"k": "v"}
	g = srv.AddGroup(chat.Group{GUID: "copied", Metadata: meta, Tags: []string{"t"}})
	meta["k"] = "changed"
	g.Tags[0] = "changed"
	got, _ = srv.Group("copied")
	assert.Equal(t, map[string]any{"k": "v"}, got.Metadata, "the server keeps its own copy")
	assert.Equal(t, []string{"t"}, got.Tags)
	got.Metadata["k"] = "changed"
	again, _ := srv.Group("copied")
	assert.Equal(t, map[string]any{"k": "v"}, again.Metadata, "answers are copies")
}

// groupActions returns the action messages stored for the group guid, as
// "action by on".
func groupActions(srv *chattest.Server, guid string) []string {
	var out []string
	for _, m := range srv.Messages() {
		if m.Category != chat.CategoryAction || m.Type != chat.MessageTypeGroupMember || m.Receiver != guid {
			continue
		}
		by, on := "?", "?"
		if e := m.Data.Entities; e != nil {
			if u, err := e.By.User(); err == nil {
				by = u.UID
			}
			if u, err := e.On.User(); err == nil {
				on = u.UID
			}
		}
		out = append(out, m.Data.Action+" "+by+" "+on)
	}
	return out
}

func TestGroupActionMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "alice"})

	resp, err := client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"bob"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	added := resp.Participants["bob"].Data
	require.NotNil(t, added, "the add answer carries the action message")
	assert.Equal(t, chat.CategoryAction, added.Category)
	assert.Equal(t, "added", added.Data.Action)
	stored, ok := srv.Message(added.ID)
	require.True(t, ok, "the answer's message is the stored one")
	assert.Equal(t, "added", stored.Data.Action)

	_, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"carol"}})
	require.NoError(t, err)
	_, err = client.Members.ChangeScope(ctx, "g", "bob", &chat.ChangeScopeRequest{Scope: chat.MemberModerator}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "g", "carol", chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	_, err = client.Bans.Ban(ctx, "g", "carol", chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Bans.Unban(ctx, "g", "carol")
	require.NoError(t, err)
	// Failures emit nothing.
	_, err = client.Members.Kick(ctx, "g", "carol")
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_MEMBER", chat.ErrNotFound)
	_, _ = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"bob"}})

	assert.Equal(t, []string{
		"added alice bob", "added app_system carol", "scopeChanged alice bob", "kicked bob carol",
		"banned alice carol", "unbanned app_system carol",
	}, groupActions(srv, "g"))
}
