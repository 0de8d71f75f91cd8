package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// memberJSON is the reference's list-members item (chat-core §2.3).
const memberJSON = `{"uid":"cometchat-uid-5","name":"John Paul","avatar":"https://example.com/jp.png","status":"offline","role":"default",
 "scope":"moderator","joinedAt":1638360106,"createdAt":1629869270,
 "conversationId":"cometchat-uid-4_user_cometchat-uid-5"}`

var memberValue = chat.GroupMember{
	UID: "cometchat-uid-5", Name: "John Paul", Avatar: "https://example.com/jp.png", Status: chat.UserOffline, Role: "default",
	Scope: chat.MemberModerator, JoinedAt: 1638360106, CreatedAt: 1629869270,
	ConversationID: "cometchat-uid-4_user_cometchat-uid-5",
}

// addedJSON is an "added" action message as add-members returns it.
const addedJSON = `{"id":"7","conversationId":"group_g","sender":"app_system","receiverType":"group","receiver":"g",
 "category":"action","type":"groupMember","data":{"action":"added"},"sentAt":1638360106}`

var addedValue = &chat.Message{ID: "7", ConversationID: "group_g", Sender: "app_system", ReceiverType: chat.ReceiverGroup,
	Receiver: "g", Category: chat.CategoryAction, Type: chat.MessageTypeGroupMember,
	Data: chat.MessageData{Action: "added"}, SentAt: 1638360106}

func TestMembersWire(t *testing.T) {
	ctx := context.Background()
	membersPage := `{"data":[` + memberJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}},
		"cursor":{"updatedAt":1638360106,"affix":"prepend"}}`
	wantPage := &chat.Page[chat.GroupMember]{
		Data:   []chat.GroupMember{memberValue},
		Meta:   chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}},
		Cursor: &chat.Cursor{UpdatedAt: 1638360106, Direction: chat.DirectionBefore},
	}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Add",
			Call: func(c *chat.Client) (any, error) {
				return c.Members.Add(ctx, "g", &chat.AddMembersRequest{
					Admins: []string{"a1"}, Moderators: []string{"m1"}, Participants: []string{"p1", "p2"}, UsersToBan: []string{"b1"},
				})
			},
			Reply: `{"data":{"admins":{"a1":{"success":true,"data":` + addedJSON + `}},
				"moderators":{"m1":{"success":false,"error":{"code":"ERR_ALREADY_JOINED","message":"already a member"}}},
				"participants":{"p1":{"success":true,"data":` + addedJSON + `},"p2":{"success":false,"message":"failed"}},
				"usersToBan":{"b1":{"success":true}}}}`,
			Method: http.MethodPost, Path: "/v3/groups/g/members",
			Body: `{"admins":["a1"],"moderators":["m1"],"participants":["p1","p2"],"usersToBan":["b1"]}`,
			Want: &chat.AddMembersResponse{
				Admins:       map[string]chat.MemberResult{"a1": {Success: true, Data: addedValue}},
				Moderators:   map[string]chat.MemberResult{"m1": {Error: &chat.MemberError{Code: "ERR_ALREADY_JOINED", Message: "already a member"}}},
				Participants: map[string]chat.MemberResult{"p1": {Success: true, Data: addedValue}, "p2": {Message: "failed"}},
				UsersToBan:   map[string]chat.MemberResult{"b1": {Success: true}},
			},
		},
		{
			Name: "Add on behalf of a user leaves out empty lists",
			Call: func(c *chat.Client) (any, error) {
				return c.Members.Add(ctx, "my group", &chat.AddMembersRequest{Participants: []string{"p1"}, Admins: []string{}},
					chat.OnBehalfOf("cometchat-uid-4"))
			},
			Reply:  `{"data":{"participants":{"p1":{"success":true}}}}`,
			Method: http.MethodPost, Path: "/v3/groups/my%20group/members", OnBehalfOf: "cometchat-uid-4",
			Body: `{"participants":["p1"]}`,
			Want: &chat.AddMembersResponse{Participants: map[string]chat.MemberResult{"p1": {Success: true}}},
		},
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.Members.List(ctx, "g", nil) },
			Reply:  membersPage,
			Method: http.MethodGet, Path: "/v3/groups/g/members",
			Want: wantPage,
		},
		{
			Name: "List with filters",
			Call: func(c *chat.Client) (any, error) {
				return c.Members.List(ctx, "g/1", &chat.ListMembersOptions{
					PageOptions: chat.PageOptions{PerPage: 10, Page: 3}, Status: chat.UserAvailable,
					Scopes: []chat.MemberScope{chat.MemberAdmin, chat.MemberModerator},
				})
			},
			Reply:  membersPage,
			Method: http.MethodGet, Path: "/v3/groups/g%2F1/members", Query: "page=3&perPage=10&scopes=admin,moderator&status=available",
			Want: wantPage,
		},
		{
			Name: "ChangeScope",
			Call: func(c *chat.Client) (any, error) {
				return c.Members.ChangeScope(ctx, "g", "cometchat-uid-5", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
			},
			Reply:  `{"data":{"guid":"g","uid":"cometchat-uid-5","scope":"admin","joinedAt":1638360106}}`,
			Method: http.MethodPut, Path: "/v3/groups/g/members/cometchat-uid-5", Body: `{"scope":"admin"}`,
			Want: &chat.ScopeChange{GUID: "g", UID: "cometchat-uid-5", Scope: chat.MemberAdmin, JoinedAt: 1638360106},
		},
		{
			Name: "ChangeScope on behalf of a user escapes the uid",
			Call: func(c *chat.Client) (any, error) {
				return c.Members.ChangeScope(ctx, "g", "a#b", &chat.ChangeScopeRequest{Scope: chat.MemberParticipant}, chat.OnBehalfOf("u1"))
			},
			Reply:  `{"data":{"guid":"g","uid":"a#b","scope":"participant","joinedAt":"1638360106"}}`,
			Method: http.MethodPut, Path: "/v3/groups/g/members/a%23b", OnBehalfOf: "u1", Body: `{"scope":"participant"}`,
			Want: &chat.ScopeChange{GUID: "g", UID: "a#b", Scope: chat.MemberParticipant, JoinedAt: 1638360106},
		},
		{
			Name:   "Kick",
			Call:   func(c *chat.Client) (any, error) { return c.Members.Kick(ctx, "g", "cometchat-uid-5") },
			Reply:  `{"data":{"success":true,"message":"kicked"}}`,
			Method: http.MethodDelete, Path: "/v3/groups/g/members/cometchat-uid-5",
			Want: &chat.Result{Success: true, Message: "kicked"},
		},
		{
			Name:   "Kick on behalf of a user",
			Call:   func(c *chat.Client) (any, error) { return c.Members.Kick(ctx, "g", "u2", chat.OnBehalfOf("u1")) },
			Reply:  `{"data":{"success":true,"message":"kicked"}}`,
			Method: http.MethodDelete, Path: "/v3/groups/g/members/u2", OnBehalfOf: "u1",
			Want: &chat.Result{Success: true, Message: "kicked"},
		},
	})
}

func TestMembersAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"u1","scope":"admin"},{"uid":"u2","scope":"participant"}],"meta":{"pagination":{"per_page":2,"current_page":1}}}`,
		"2": `{"data":[{"uid":"u3","scope":"participant"}],"meta":{"pagination":{"per_page":2,"current_page":2}}}`,
	})
	got := collectKeys(t, client.Members.All(context.Background(), "g", &chat.ListMembersOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(mem *chat.GroupMember) string { return mem.UID + ":" + string(mem.Scope) })
	assert.Equal(t, []string{"u1:admin", "u2:participant", "u3:participant"}, got)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/groups/g/members")
		wiretest.NoOnBehalfOf(t, r)
		assert.Equal(t, fmt.Sprintf("page=%d&perPage=2", i+1), r.RawQuery)
	}
}

func TestMembersArguments(t *testing.T) {
	ctx := context.Background()
	uids := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return out
	}
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Add empty guid", Call: func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "", &chat.AddMembersRequest{Participants: []string{"u"}})
			return err
		}, Arg: "guid"},
		{Name: "Add nil request", Call: func(c *chat.Client) error { _, err := c.Members.Add(ctx, "g", nil); return err }, Arg: "req"},
		{Name: "Add naming nobody", Call: func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "g", &chat.AddMembersRequest{Admins: []string{}})
			return err
		}, Arg: "req"},
		{Name: "Add an empty uid", Call: func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "g", &chat.AddMembersRequest{Moderators: []string{"m", ""}})
			return err
		}, Arg: "req.Moderators[1]"},
		{Name: "Add 26 participants", Call: func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: uids("p", 26)})
			return err
		}, Arg: "req.Participants"},
		{Name: "Add 26 across the lists names the list that overflows", Call: func(c *chat.Client) error {
			_, err := c.Members.Add(ctx, "g", &chat.AddMembersRequest{Admins: uids("a", 10), Moderators: uids("m", 10),
				Participants: uids("p", 5), UsersToBan: uids("b", 1)})
			return err
		}, Arg: "req.UsersToBan"},
		{Name: "ChangeScope empty guid", Call: func(c *chat.Client) error {
			_, err := c.Members.ChangeScope(ctx, "", "u", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
			return err
		}, Arg: "guid"},
		{Name: "ChangeScope empty uid", Call: func(c *chat.Client) error {
			_, err := c.Members.ChangeScope(ctx, "g", "", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
			return err
		}, Arg: "uid"},
		{Name: "ChangeScope nil request", Call: func(c *chat.Client) error {
			_, err := c.Members.ChangeScope(ctx, "g", "u", nil)
			return err
		}, Arg: "req"},
		{Name: "ChangeScope empty scope", Call: func(c *chat.Client) error {
			_, err := c.Members.ChangeScope(ctx, "g", "u", &chat.ChangeScopeRequest{})
			return err
		}, Arg: "req.Scope"},
		{Name: "List empty guid", Call: func(c *chat.Client) error { _, err := c.Members.List(ctx, "", nil); return err }, Arg: "guid"},
		{Name: "Kick dot uid", Call: func(c *chat.Client) error { _, err := c.Members.Kick(ctx, "g", ".."); return err }, Arg: "uid"},
		{Name: "Kick empty guid", Call: func(c *chat.Client) error { _, err := c.Members.Kick(ctx, "", "u"); return err }, Arg: "guid"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)

	t.Run("25 distinct users, repeats and case folded, are sent", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		admins := uids("u", 25)
		_, err := client.Members.Add(ctx, "g", &chat.AddMembersRequest{Admins: admins, Participants: []string{"U0", "u1"}})
		require.NoError(t, err)
		body := decodeBody(t, m.Only())
		assert.Len(t, body["admins"], 25)
		assert.Equal(t, []any{"U0", "u1"}, body["participants"])
	})
}

// TestGroupMemberDecoding feeds the member model the inconsistencies of
// reference §15.1 through the client.
func TestGroupMemberDecoding(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":[{"uid":5,"name":"Five","scope":"participant","joinedAt":"1638360106","createdAt":null}],
		"meta":{"pagination":{"total":"1","count":"1","per_page":"100","current_page":"1","total_pages":"1"}}}`)
	page, err := client.Members.List(context.Background(), "g", nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.GroupMember{{UID: "5", Name: "Five", Scope: chat.MemberParticipant, JoinedAt: 1638360106}}, page.Data)
	assert.Equal(t, 1, page.Meta.Pagination.Total)
}

func TestGroupMemberJSONRoundTrip(t *testing.T) {
	full := `{"uid":"u","name":"U","avatar":"a","link":"l","metadata":{"k":"v"},"status":"available","role":"r",
		"scope":"admin","joinedAt":2,"createdAt":1,"updatedAt":3,"lastActiveAt":4,"conversationId":"a_user_u"}`
	var mem chat.GroupMember
	require.NoError(t, json.Unmarshal([]byte(full), &mem))
	out, err := json.Marshal(mem)
	require.NoError(t, err)
	assert.JSONEq(t, full, string(out))

	resp := `{"admins":{"a":{"success":true,"data":{"id":"1","category":"action","type":"groupMember","data":{"action":"added"}}}},
		"usersToBan":{"b":{"success":false,"error":{"code":"ERR_ALREADY_BANNED","message":"m"}}}}`
	var r chat.AddMembersResponse
	require.NoError(t, json.Unmarshal([]byte(resp), &r))
	out, err = json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, resp, string(out))
}

// TestChangeScopeValidate holds the Validate of the scope change to the checks
// their methods run before sending.
func TestChangeScopeValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a scope", Value: &chat.ChangeScopeRequest{Scope: chat.MemberModerator}},
		{Name: "no scope", Value: &chat.ChangeScopeRequest{}, Field: "req.Scope"},
	})
}
