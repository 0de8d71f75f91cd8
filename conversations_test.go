package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// Reference examples (chat-core §2.10, §10.5, §10.6), as the service sends
// them: the count is a string.
const (
	groupConversationJSON = `{"conversationId":"group_project-group","conversationType":"group","unreadMessageCount":"0",
 "createdAt":1630071782,"updatedAt":1630481413,
 "lastMessage":{"id":"50","conversationId":"group_project-group","sender":"app_system","receiverType":"group","receiver":"project-group",
   "category":"action","type":"groupMember","data":{"action":"unbanned"},"sentAt":1630305562,"updatedAt":1630305562},
 "conversationWith":{"guid":"project-group","name":"Project Group1","type":"private","scope":"participant","membersCount":4,
   "joinedAt":1630071782,"conversationId":"group_project-group","hasJoined":true,"createdAt":1630071341,
   "owner":"cometchat-uid-4","updatedAt":1630308875,"updatedBy":"cometchat-uid-4"}}`

	userConversationJSON = `{"conversationId":"cometchat-uid-1_user_cometchat-uid-2","conversationType":"user","unreadMessageCount":"3",
 "createdAt":1630071782,"updatedAt":1630481413,"tags":["archived"],
 "lastMessage":{"id":"7","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-2","receiverType":"user",
   "receiver":"cometchat-uid-1","category":"message","type":"text","data":{"text":"hi"},"sentAt":1630481413,"updatedAt":1630481413},
 "conversationWith":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
   "conversationId":"cometchat-uid-1_user_cometchat-uid-2"}}`

	userPinJSON   = `{"conversationId":"cometchat-uid-1_user_cometchat-uid-2","conversationType":"user","pinnedBy":"cometchat-uid-1","pinnedAt":1719993037}`
	userUnpinJSON = `{"conversationId":"cometchat-uid-1_user_cometchat-uid-2","conversationType":"user"}`
	appPinsJSON   = `[{"conversationId":"group_support","conversationType":"group","pinnedBy":"app_system","pinnedAt":1719993037},
 {"conversationId":"cometchat-uid-1_user_cometchat-uid-2","conversationType":"user","pinnedBy":"app_system","pinnedAt":1719993037}]`
)

func decodeConversation(t *testing.T, wire string) chat.Conversation {
	t.Helper()
	m := newMockAPI(t)
	m.Reply(http.StatusOK, `{"data":`+wire+`}`)
	c, err := m.client.Conversations.GetUser(context.Background(), "x", "y")
	require.NoError(t, err)
	return *c
}

func TestConversationsWire(t *testing.T) {
	ctx := context.Background()
	userConv := decodeConversation(t, userConversationJSON)
	groupConv := decodeConversation(t, groupConversationJSON)
	ok := `{"data":{"success":true,"message":"done"}}`
	okResult := &chat.Result{Success: true, Message: "done"}
	pin := &chat.Conversation{ConversationID: "cometchat-uid-1_user_cometchat-uid-2", ConversationType: chat.ConversationUser,
		PinnedBy: "cometchat-uid-1", PinnedAt: 1719993037}
	unpin := &chat.Conversation{ConversationID: "cometchat-uid-1_user_cometchat-uid-2", ConversationType: chat.ConversationUser}
	appPins := []chat.Conversation{
		{ConversationID: "group_support", ConversationType: chat.ConversationGroup, PinnedBy: "app_system", PinnedAt: 1719993037},
		{ConversationID: "cometchat-uid-1_user_cometchat-uid-2", ConversationType: chat.ConversationUser, PinnedBy: "app_system", PinnedAt: 1719993037},
	}
	const uid, guid, obo = "cometchat-uid-2", "project-group", "cometchat-uid-1"

	runWire(t, []wireCase{
		{
			name:     "List without options",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.List(ctx, nil) },
			response: `{"data":[` + userConversationJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`,
			method:   http.MethodGet, path: "/v3/conversations",
			want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{userConv},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			name: "List with every filter, on behalf of a user",
			call: func(c *chat.Client) (any, error) {
				off := false
				return c.Conversations.List(ctx, &chat.ListConversationsOptions{
					PageOptions: chat.PageOptions{PerPage: 50, Page: 2}, SearchKey: "Geo rge", ConversationType: chat.ConversationUser,
					WithTags: true, Tags: []string{"a", "b"}, WithUserAndGroupTags: true, UserTags: []string{"vip"},
					GroupTags: []string{"g1", "g2"}, Unread: true, IncludeBlockedUsers: true, WithBlockedInfo: true,
					HideAgentic: true, OnlyAgentic: true, UseCursoredIndex: &off,
				}, chat.OnBehalfOf(obo))
			},
			response: `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":50,"current_page":2,"total_pages":0}}}`,
			method:   http.MethodGet, path: "/v3/conversations", obo: obo,
			query: "conversationType=user&groupTags=g1,g2&hideAgentic=true&includeBlockedUsers=true&onlyAgentic=true&page=2&perPage=50" +
				"&searchKey=Geo+rge&tags=a,b&unread=true&useCursoredIndex=0&userTags=vip&withBlockedInfo=true&withTags=true&withUserAndGroupTags=true",
			want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 50, CurrentPage: 2}}},
		},
		{
			name: "List unique, cursored index on",
			call: func(c *chat.Client) (any, error) {
				on := true
				return c.Conversations.List(ctx, &chat.ListConversationsOptions{Unique: true, UseCursoredIndex: &on})
			},
			response: `{"data":[],"meta":{}}`,
			method:   http.MethodGet, path: "/v3/conversations", query: "unique=1&useCursoredIndex=1",
			want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{}},
		},
		{
			name:     "ListAppPinned",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.ListAppPinned(ctx) },
			response: `{"data":` + appPinsJSON + `}`,
			method:   http.MethodGet, path: "/v3/conversations/pinned",
			want: appPins,
		},
		{
			name: "ReplaceAppPinned",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{
					PinnedConversations: []chat.ConversationRef{{GUID: "support"}, {UID: "cometchat-uid-2"}}})
			},
			response: `{"data":` + appPinsJSON + `}`,
			method:   http.MethodPut, path: "/v3/conversations/pinned",
			body: `{"pinnedConversations":[{"guid":"support"},{"uid":"cometchat-uid-2"}]}`,
			want: appPins,
		},
		{
			name: "ReplaceAppPinned with nil list sends [] to clear",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{})
			},
			response: `{"data":[]}`,
			method:   http.MethodPut, path: "/v3/conversations/pinned", body: `{"pinnedConversations":[]}`,
			want: []chat.Conversation{},
		},
		{
			name:     "GetUser with data as a one-element array (§15.1)",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.GetUser(ctx, uid, obo) },
			response: `{"data":[` + userConversationJSON + `]}`,
			method:   http.MethodGet, path: "/v3/users/cometchat-uid-2/conversation", obo: obo,
			want: &userConv,
		},
		{
			name:     "GetGroup with data as an object",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.GetGroup(ctx, guid, obo) },
			response: `{"data":` + groupConversationJSON + `}`,
			method:   http.MethodGet, path: "/v3/groups/project-group/conversation", obo: obo,
			want: &groupConv,
		},
		{
			name: "UpdateUser",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.UpdateUser(ctx, uid, obo, &chat.UpdateConversationRequest{Tags: []string{"archived"}})
			},
			response: `{"data":[` + userConversationJSON + `]}`,
			method:   http.MethodPut, path: "/v3/users/cometchat-uid-2/conversation", obo: obo,
			body: `{"tags":["archived"]}`, want: &userConv,
		},
		{
			name: "UpdateGroup with nil tags sends [] to clear",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.UpdateGroup(ctx, guid, obo, &chat.UpdateConversationRequest{})
			},
			response: `{"data":[` + groupConversationJSON + `]}`,
			method:   http.MethodPut, path: "/v3/groups/project-group/conversation", obo: obo,
			body: `{"tags":[]}`, want: &groupConv,
		},
		{
			name: "ResetUser with a body",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.ResetUser(ctx, uid, obo, &chat.ResetConversationRequest{DeleteMessagesPermanently: true, PreserveOrder: true})
			},
			response: ok, method: http.MethodDelete, path: "/v3/users/cometchat-uid-2/conversation", obo: obo,
			body: `{"deleteMessagesPermanently":true,"preserveOrder":true}`, want: okResult,
		},
		{
			name:     "ResetUser without a body",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.ResetUser(ctx, uid, obo, nil) },
			response: ok, method: http.MethodDelete, path: "/v3/users/cometchat-uid-2/conversation", obo: obo,
			want: okResult,
		},
		{
			name: "ResetGroup",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.ResetGroup(ctx, guid, obo, &chat.ResetConversationRequest{PreserveOrder: true})
			},
			response: ok, method: http.MethodDelete, path: "/v3/groups/project-group/conversation", obo: obo,
			body: `{"preserveOrder":true}`, want: okResult,
		},
		{
			name:     "PinUser",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.PinUser(ctx, uid, obo) },
			response: `{"data":` + userPinJSON + `}`,
			method:   http.MethodPost, path: "/v3/users/cometchat-uid-2/conversation/pin", obo: obo, want: pin,
		},
		{
			name:     "UnpinUser",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.UnpinUser(ctx, uid, obo) },
			response: `{"data":` + userUnpinJSON + `}`,
			method:   http.MethodDelete, path: "/v3/users/cometchat-uid-2/conversation/pin", obo: obo, want: unpin,
		},
		{
			name: "PinGroup",
			call: func(c *chat.Client) (any, error) { return c.Conversations.PinGroup(ctx, guid, obo) },
			response: `{"data":{"conversationId":"group_project-group","conversationType":"group","pinnedBy":"cometchat-uid-1",
				"pinnedAt":1719993037}}`,
			method: http.MethodPost, path: "/v3/groups/project-group/conversation/pin", obo: obo,
			want: &chat.Conversation{ConversationID: "group_project-group", ConversationType: chat.ConversationGroup,
				PinnedBy: obo, PinnedAt: 1719993037},
		},
		{
			name:     "UnpinGroup",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.UnpinGroup(ctx, guid, obo) },
			response: `{"data":{"conversationId":"group_project-group","conversationType":"group"}}`,
			method:   http.MethodDelete, path: "/v3/groups/project-group/conversation/pin", obo: obo,
			want: &chat.Conversation{ConversationID: "group_project-group", ConversationType: chat.ConversationGroup},
		},
		{
			name: "MarkUserRead answers with a capitalised Message",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserRead(ctx, uid, obo, &chat.MarkReadRequest{MessageID: 42})
			},
			response: `{"data":{"success":true,"Message":"Conversation marked as read."}}`,
			method:   http.MethodPost, path: "/v3/users/cometchat-uid-2/conversation/read", obo: obo,
			body: `{"messageId":42}`, want: &chat.Result{Success: true, Message: "Conversation marked as read."},
		},
		{
			name:     "MarkUserRead without a message id",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.MarkUserRead(ctx, uid, obo, nil) },
			response: ok, method: http.MethodPost, path: "/v3/users/cometchat-uid-2/conversation/read", obo: obo,
			want: okResult,
		},
		{
			name: "MarkGroupRead",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupRead(ctx, guid, obo, &chat.MarkReadRequest{MessageID: 50})
			},
			response: ok, method: http.MethodPost, path: "/v3/groups/project-group/conversation/read", obo: obo,
			body: `{"messageId":50}`, want: okResult,
		},
		{
			name: "MarkUserDelivered",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserDelivered(ctx, uid, obo, &chat.MarkDeliveredRequest{MessageID: 7})
			},
			response: `{"data":{"success":true,"Message":"delivered"}}`,
			method:   http.MethodPost, path: "/v3/users/cometchat-uid-2/conversation/delivered", obo: obo,
			body: `{"messageId":7}`, want: &chat.Result{Success: true, Message: "delivered"},
		},
		{
			name: "MarkGroupDelivered",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupDelivered(ctx, guid, obo, &chat.MarkDeliveredRequest{MessageID: 8})
			},
			response: ok, method: http.MethodPost, path: "/v3/groups/project-group/conversation/delivered", obo: obo,
			body: `{"messageId":8}`, want: okResult,
		},
		{
			name: "MarkUserUnread",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserUnread(ctx, uid, obo, &chat.MarkUnreadRequest{MessageID: 5})
			},
			response: ok, method: http.MethodDelete, path: "/v3/users/cometchat-uid-2/conversation/read", obo: obo,
			body: `{"messageId":5}`, want: okResult,
		},
		{
			name: "MarkGroupUnread",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupUnread(ctx, guid, obo, &chat.MarkUnreadRequest{MessageID: 9})
			},
			response: ok, method: http.MethodDelete, path: "/v3/groups/project-group/conversation/read", obo: obo,
			body: `{"messageId":9}`, want: okResult,
		},
		{
			name: "deprecated Get",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.Get(ctx, "cometchat-uid-1_user_cometchat-uid-2", obo)
			},
			response: `{"data":[` + userConversationJSON + `]}`,
			method:   http.MethodGet, path: "/v3/conversations/cometchat-uid-1_user_cometchat-uid-2", obo: obo,
			want: &userConv,
		},
		{
			name: "deprecated Delete",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.Delete(ctx, "group_project-group", obo)
			},
			response: ok, method: http.MethodDelete, path: "/v3/conversations/group_project-group", obo: obo,
			want: okResult,
		},
		{
			name:     "ids are escaped into one segment",
			call:     func(c *chat.Client) (any, error) { return c.Conversations.PinUser(ctx, "a/../b?c", obo) },
			response: `{"data":` + userPinJSON + `}`,
			method:   http.MethodPost, path: "/v3/users/a%2F..%2Fb%3Fc/conversation/pin", obo: obo, want: pin,
		},
		{
			name: "positional onBehalfOf wins over the option",
			call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupRead(ctx, guid, obo, nil, chat.OnBehalfOf("someone-else"))
			},
			response: ok, method: http.MethodPost, path: "/v3/groups/project-group/conversation/read", obo: obo,
			want: okResult,
		},
	})
}

func TestConversationsArguments(t *testing.T) {
	ctx := context.Background()
	c := func(f func(s *chat.ConversationsService) error) func(*chat.Client) error {
		return func(cl *chat.Client) error { return f(cl.Conversations) }
	}
	tests := []argCase[*chat.Client]{
		{"List unique with the OnBehalfOf option", c(func(s *chat.ConversationsService) error {
			_, err := s.List(ctx, &chat.ListConversationsOptions{Unique: true}, chat.OnBehalfOf("u"))
			return err
		}), "opts.Unique"},
		{"List unique with an onBehalfOf header", c(func(s *chat.ConversationsService) error {
			_, err := s.List(ctx, &chat.ListConversationsOptions{Unique: true}, chat.WithHeader("onBehalfOf", "u"))
			return err
		}), "opts.Unique"},
		{"ReplaceAppPinned nil", c(func(s *chat.ConversationsService) error { _, err := s.ReplaceAppPinned(ctx, nil); return err }), "req"},
		{"GetUser empty uid", c(func(s *chat.ConversationsService) error { _, err := s.GetUser(ctx, "", "u"); return err }), "uid"},
		{"GetUser empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.GetUser(ctx, "b", ""); return err }), "onBehalfOf"},
		{"GetGroup dot guid", c(func(s *chat.ConversationsService) error { _, err := s.GetGroup(ctx, "..", "u"); return err }), "guid"},
		{"GetGroup empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.GetGroup(ctx, "g", ""); return err }), "onBehalfOf"},
		{"UpdateUser nil", c(func(s *chat.ConversationsService) error { _, err := s.UpdateUser(ctx, "b", "u", nil); return err }), "req"},
		{"UpdateUser empty onBehalfOf", c(func(s *chat.ConversationsService) error {
			_, err := s.UpdateUser(ctx, "b", "", &chat.UpdateConversationRequest{})
			return err
		}), "onBehalfOf"},
		{"UpdateGroup nil", c(func(s *chat.ConversationsService) error { _, err := s.UpdateGroup(ctx, "g", "u", nil); return err }), "req"},
		{"ResetUser empty uid", c(func(s *chat.ConversationsService) error { _, err := s.ResetUser(ctx, "", "u", nil); return err }), "uid"},
		{"ResetGroup empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.ResetGroup(ctx, "g", "", nil); return err }), "onBehalfOf"},
		{"PinUser empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.PinUser(ctx, "b", ""); return err }), "onBehalfOf"},
		{"UnpinUser empty uid", c(func(s *chat.ConversationsService) error { _, err := s.UnpinUser(ctx, "", "u"); return err }), "uid"},
		{"PinGroup empty guid", c(func(s *chat.ConversationsService) error { _, err := s.PinGroup(ctx, "", "u"); return err }), "guid"},
		{"UnpinGroup empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.UnpinGroup(ctx, "g", ""); return err }), "onBehalfOf"},
		{"MarkUserRead empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.MarkUserRead(ctx, "b", "", nil); return err }), "onBehalfOf"},
		{"MarkGroupRead empty guid", c(func(s *chat.ConversationsService) error { _, err := s.MarkGroupRead(ctx, "", "u", nil); return err }), "guid"},
		{"MarkUserDelivered empty uid", c(func(s *chat.ConversationsService) error { _, err := s.MarkUserDelivered(ctx, "", "u", nil); return err }), "uid"},
		{"MarkGroupDelivered empty onBehalfOf", c(func(s *chat.ConversationsService) error {
			_, err := s.MarkGroupDelivered(ctx, "g", "", nil)
			return err
		}), "onBehalfOf"},
		{"MarkUserUnread empty onBehalfOf", c(func(s *chat.ConversationsService) error { _, err := s.MarkUserUnread(ctx, "b", "", nil); return err }), "onBehalfOf"},
		{"MarkGroupUnread empty guid", c(func(s *chat.ConversationsService) error { _, err := s.MarkGroupUnread(ctx, "", "u", nil); return err }), "guid"},
		{"Get empty id", c(func(s *chat.ConversationsService) error {
			_, err := s.Get(ctx, "", "u")
			return err
		}), "conversationID"},
		{"Get empty onBehalfOf", c(func(s *chat.ConversationsService) error {
			_, err := s.Get(ctx, "a_user_b", "")
			return err
		}), "onBehalfOf"},
		{"Delete empty onBehalfOf", c(func(s *chat.ConversationsService) error {
			_, err := s.Delete(ctx, "a_user_b", "")
			return err
		}), "onBehalfOf"},
		{"Delete dot id", c(func(s *chat.ConversationsService) error {
			_, err := s.Delete(ctx, ".", "u")
			return err
		}), "conversationID"},
	}
	runArgs(t, wholeClient, tests)
}

func TestConversationsAll(t *testing.T) {
	m := newMockAPI(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"conversationId":"a_user_b","unreadMessageCount":"1"},
		{"conversationId":"a_user_c","unreadMessageCount":"0"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"conversationId":"group_g","unreadMessageCount":"12"}],
		"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	var ids []string
	var counts []int
	opts := &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 2}, Unread: true}
	for c, err := range m.client.Conversations.All(context.Background(), opts, chat.OnBehalfOf("a")) {
		require.NoError(t, err)
		ids = append(ids, c.ConversationID)
		counts = append(counts, c.UnreadMessageCount)
	}
	assert.Equal(t, []string{"a_user_b", "a_user_c", "group_g"}, ids)
	assert.Equal(t, []int{1, 0, 12}, counts, "string counts decode as numbers")
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "page=1&perPage=2&unread=true", reqs[0].RawQuery)
	assert.Equal(t, "page=2&perPage=2&unread=true", reqs[1].RawQuery)
	assert.Equal(t, "a", reqs[1].Header.Get("onBehalfOf"))
	assert.Equal(t, 0, opts.Page, "the options are not modified")

	t.Run("unique with onBehalfOf yields the argument error", func(t *testing.T) {
		m := newMockAPI(t)
		var errs []error
		for _, err := range m.client.Conversations.All(context.Background(), &chat.ListConversationsOptions{Unique: true}, chat.OnBehalfOf("a")) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		wiretest.RequireArgError(t, errs[0], "opts.Unique")
		assert.Zero(t, m.Calls())
	})
}

func TestConversationWith(t *testing.T) {
	user := decodeConversation(t, userConversationJSON)
	assert.Equal(t, 3, user.UnreadMessageCount, `"3" decodes as 3`)
	assert.Equal(t, []string{"archived"}, user.Tags)
	require.NotNil(t, user.LastMessage)
	assert.Equal(t, "hi", user.LastMessage.Data.Text)
	u, err := user.User()
	require.NoError(t, err)
	assert.Equal(t, &chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserOffline, Role: "default",
		CreatedAt: 1596537299, ConversationID: "cometchat-uid-1_user_cometchat-uid-2"}, u)
	_, err = user.Group()
	assert.ErrorContains(t, err, `conversation is with a user, not a group`)

	group := decodeConversation(t, groupConversationJSON)
	assert.Equal(t, 0, group.UnreadMessageCount)
	g, err := group.Group()
	require.NoError(t, err)
	assert.Equal(t, "project-group", g.GUID)
	assert.Equal(t, chat.MemberParticipant, g.Scope)
	assert.True(t, g.HasJoined)
	assert.Equal(t, 4, g.MembersCount)
	assert.Equal(t, "cometchat-uid-4", g.UpdatedBy)
	_, err = group.User()
	assert.Error(t, err)

	t.Run("lenient inside conversationWith", func(t *testing.T) {
		c := chat.Conversation{ConversationWith: json.RawMessage(`{"guid":"g","membersCount":"7","createdAt":"1630071341"}`)}
		g, err := c.Group()
		require.NoError(t, err, "no conversationType: decoded as asked")
		assert.Equal(t, 7, g.MembersCount)
		assert.Equal(t, chat.Timestamp(1630071341), g.CreatedAt)
	})
	t.Run("no conversationWith", func(t *testing.T) {
		pin := decodeConversation(t, userPinJSON)
		_, err := pin.User()
		assert.ErrorContains(t, err, "no conversationWith")
		var nilConv *chat.Conversation
		_, err = nilConv.Group()
		assert.Error(t, err)
	})
	t.Run("broken conversationWith", func(t *testing.T) {
		c := chat.Conversation{ConversationType: chat.ConversationUser, ConversationWith: json.RawMessage(`["x"]`)}
		_, err := c.User()
		assert.Error(t, err)
	})
}

func TestConversationJSONRoundTrip(t *testing.T) {
	// The count is written as the client encodes it (a number); everything
	// else, conversationWith included, comes back byte for byte in meaning.
	for name, wire := range map[string]string{
		"group": `{"conversationId":"group_project-group","conversationType":"group","unreadMessageCount":0,
			"createdAt":1630071782,"updatedAt":1630481413,
			"lastMessage":{"id":"50","category":"action","type":"groupMember","data":{"action":"unbanned"},"sentAt":1630305562,"updatedAt":1630305562},
			"conversationWith":{"guid":"project-group","name":"Project Group1","type":"private","scope":"participant","membersCount":4,
			  "joinedAt":1630071782,"conversationId":"group_project-group","hasJoined":true,"createdAt":1630071341,
			  "owner":"cometchat-uid-4","updatedAt":1630308875,"updatedBy":"cometchat-uid-4","unknownField":{"kept":[1,2]}},
			"tags":["t"],"pinnedBy":"app_system","pinnedAt":1719993037}`,
		"user": `{"conversationId":"a_user_b","conversationType":"user","unreadMessageCount":3,
			"conversationWith":{"uid":"b","name":"B","blockedByMe":true,"blockedByMeAt":1700000000}}`,
	} {
		t.Run(name, func(t *testing.T) {
			var c chat.Conversation
			require.NoError(t, json.Unmarshal([]byte(wire), &c))
			out, err := json.Marshal(&c)
			require.NoError(t, err)
			assert.JSONEq(t, wire, string(out))
		})
	}
}
