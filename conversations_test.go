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
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":`+wire+`}`)
	c, err := client.Conversations.GetUser(context.Background(), "x", "y")
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

	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.List(ctx, nil) },
			Reply:  `{"data":[` + userConversationJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`,
			Method: http.MethodGet, Path: "/v3/conversations",
			Want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{userConv},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			Name: "List with every filter, on behalf of a user",
			Call: func(c *chat.Client) (any, error) {
				off := false
				return c.Conversations.List(ctx, &chat.ListConversationsOptions{
					PageOptions: chat.PageOptions{PerPage: 50, Page: 2}, SearchKey: "Geo rge", ConversationType: chat.ConversationUser,
					WithTags: true, Tags: []string{"a", "b"}, WithUserAndGroupTags: true, UserTags: []string{"vip"},
					GroupTags: []string{"g1", "g2"}, Unread: true, IncludeBlockedUsers: true, WithBlockedInfo: true,
					HideAgentic: true, OnlyAgentic: true, UseCursoredIndex: &off,
				}, chat.OnBehalfOf(obo))
			},
			Reply:  `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":50,"current_page":2,"total_pages":0}}}`,
			Method: http.MethodGet, Path: "/v3/conversations", OnBehalfOf: obo,
			Query: "conversationType=user&groupTags=g1,g2&hideAgentic=true&includeBlockedUsers=true&onlyAgentic=true&page=2&perPage=50" +
				"&searchKey=Geo+rge&tags=a,b&unread=true&useCursoredIndex=0&userTags=vip&withBlockedInfo=true&withTags=true&withUserAndGroupTags=true",
			Want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 50, CurrentPage: 2}}},
		},
		{
			Name: "List unique, cursored index on",
			Call: func(c *chat.Client) (any, error) {
				on := true
				return c.Conversations.List(ctx, &chat.ListConversationsOptions{Unique: true, UseCursoredIndex: &on})
			},
			Reply:  `{"data":[],"meta":{}}`,
			Method: http.MethodGet, Path: "/v3/conversations", Query: "unique=1&useCursoredIndex=1",
			Want: &chat.Page[chat.Conversation]{Data: []chat.Conversation{}},
		},
		{
			Name:   "ListAppPinned",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.ListAppPinned(ctx) },
			Reply:  `{"data":` + appPinsJSON + `}`,
			Method: http.MethodGet, Path: "/v3/conversations/pinned",
			Want: appPins,
		},
		{
			Name: "ReplaceAppPinned",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{
					PinnedConversations: []chat.ConversationRef{{GUID: "support"}, {UID: "cometchat-uid-2"}}})
			},
			Reply:  `{"data":` + appPinsJSON + `}`,
			Method: http.MethodPut, Path: "/v3/conversations/pinned",
			Body: `{"pinnedConversations":[{"guid":"support"},{"uid":"cometchat-uid-2"}]}`,
			Want: appPins,
		},
		{
			Name: "ReplaceAppPinned with nil list sends [] to clear",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{})
			},
			Reply:  `{"data":[]}`,
			Method: http.MethodPut, Path: "/v3/conversations/pinned", Body: `{"pinnedConversations":[]}`,
			Want: []chat.Conversation{},
		},
		{
			Name:   "GetUser with data as a one-element array (§15.1)",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.GetUser(ctx, uid, obo) },
			Reply:  `{"data":[` + userConversationJSON + `]}`,
			Method: http.MethodGet, Path: "/v3/users/cometchat-uid-2/conversation", OnBehalfOf: obo,
			Want: &userConv,
		},
		{
			Name:   "GetGroup with data as an object",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.GetGroup(ctx, guid, obo) },
			Reply:  `{"data":` + groupConversationJSON + `}`,
			Method: http.MethodGet, Path: "/v3/groups/project-group/conversation", OnBehalfOf: obo,
			Want: &groupConv,
		},
		{
			Name: "UpdateUser",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.UpdateUser(ctx, uid, obo, &chat.UpdateConversationRequest{Tags: []string{"archived"}})
			},
			Reply:  `{"data":[` + userConversationJSON + `]}`,
			Method: http.MethodPut, Path: "/v3/users/cometchat-uid-2/conversation", OnBehalfOf: obo,
			Body: `{"tags":["archived"]}`, Want: &userConv,
		},
		{
			Name: "UpdateGroup with nil tags sends [] to clear",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.UpdateGroup(ctx, guid, obo, &chat.UpdateConversationRequest{})
			},
			Reply:  `{"data":[` + groupConversationJSON + `]}`,
			Method: http.MethodPut, Path: "/v3/groups/project-group/conversation", OnBehalfOf: obo,
			Body: `{"tags":[]}`, Want: &groupConv,
		},
		{
			Name: "ResetUser with a body",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.ResetUser(ctx, uid, obo, &chat.ResetConversationRequest{DeleteMessagesPermanently: true, PreserveOrder: true})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-2/conversation", OnBehalfOf: obo,
			Body: `{"deleteMessagesPermanently":true,"preserveOrder":true}`, Want: okResult,
		},
		{
			Name:  "ResetUser without a body",
			Call:  func(c *chat.Client) (any, error) { return c.Conversations.ResetUser(ctx, uid, obo, nil) },
			Reply: ok, Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-2/conversation", OnBehalfOf: obo,
			Want: okResult,
		},
		{
			Name: "ResetGroup",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.ResetGroup(ctx, guid, obo, &chat.ResetConversationRequest{PreserveOrder: true})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/groups/project-group/conversation", OnBehalfOf: obo,
			Body: `{"preserveOrder":true}`, Want: okResult,
		},
		{
			Name:   "PinUser",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.PinUser(ctx, uid, obo) },
			Reply:  `{"data":` + userPinJSON + `}`,
			Method: http.MethodPost, Path: "/v3/users/cometchat-uid-2/conversation/pin", OnBehalfOf: obo, Want: pin,
		},
		{
			Name:   "UnpinUser",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.UnpinUser(ctx, uid, obo) },
			Reply:  `{"data":` + userUnpinJSON + `}`,
			Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-2/conversation/pin", OnBehalfOf: obo, Want: unpin,
		},
		{
			Name: "PinGroup",
			Call: func(c *chat.Client) (any, error) { return c.Conversations.PinGroup(ctx, guid, obo) },
			Reply: `{"data":{"conversationId":"group_project-group","conversationType":"group","pinnedBy":"cometchat-uid-1",
				"pinnedAt":1719993037}}`,
			Method: http.MethodPost, Path: "/v3/groups/project-group/conversation/pin", OnBehalfOf: obo,
			Want: &chat.Conversation{ConversationID: "group_project-group", ConversationType: chat.ConversationGroup,
				PinnedBy: obo, PinnedAt: 1719993037},
		},
		{
			Name:   "UnpinGroup",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.UnpinGroup(ctx, guid, obo) },
			Reply:  `{"data":{"conversationId":"group_project-group","conversationType":"group"}}`,
			Method: http.MethodDelete, Path: "/v3/groups/project-group/conversation/pin", OnBehalfOf: obo,
			Want: &chat.Conversation{ConversationID: "group_project-group", ConversationType: chat.ConversationGroup},
		},
		{
			Name: "MarkUserRead answers with a capitalised Message",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserRead(ctx, uid, obo, &chat.MarkReadRequest{MessageID: 42})
			},
			Reply:  `{"data":{"success":true,"Message":"Conversation marked as read."}}`,
			Method: http.MethodPost, Path: "/v3/users/cometchat-uid-2/conversation/read", OnBehalfOf: obo,
			Body: `{"messageId":42}`, Want: &chat.Result{Success: true, Message: "Conversation marked as read."},
		},
		{
			Name:  "MarkUserRead without a message id",
			Call:  func(c *chat.Client) (any, error) { return c.Conversations.MarkUserRead(ctx, uid, obo, nil) },
			Reply: ok, Method: http.MethodPost, Path: "/v3/users/cometchat-uid-2/conversation/read", OnBehalfOf: obo,
			Want: okResult,
		},
		{
			Name: "MarkGroupRead",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupRead(ctx, guid, obo, &chat.MarkReadRequest{MessageID: 50})
			},
			Reply: ok, Method: http.MethodPost, Path: "/v3/groups/project-group/conversation/read", OnBehalfOf: obo,
			Body: `{"messageId":50}`, Want: okResult,
		},
		{
			Name: "MarkUserDelivered",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserDelivered(ctx, uid, obo, &chat.MarkDeliveredRequest{MessageID: 7})
			},
			Reply:  `{"data":{"success":true,"Message":"delivered"}}`,
			Method: http.MethodPost, Path: "/v3/users/cometchat-uid-2/conversation/delivered", OnBehalfOf: obo,
			Body: `{"messageId":7}`, Want: &chat.Result{Success: true, Message: "delivered"},
		},
		{
			Name: "MarkGroupDelivered",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupDelivered(ctx, guid, obo, &chat.MarkDeliveredRequest{MessageID: 8})
			},
			Reply: ok, Method: http.MethodPost, Path: "/v3/groups/project-group/conversation/delivered", OnBehalfOf: obo,
			Body: `{"messageId":8}`, Want: okResult,
		},
		{
			Name: "MarkUserUnread",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkUserUnread(ctx, uid, obo, &chat.MarkUnreadRequest{MessageID: 5})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-2/conversation/read", OnBehalfOf: obo,
			Body: `{"messageId":5}`, Want: okResult,
		},
		{
			Name: "MarkGroupUnread",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupUnread(ctx, guid, obo, &chat.MarkUnreadRequest{MessageID: 9})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/groups/project-group/conversation/read", OnBehalfOf: obo,
			Body: `{"messageId":9}`, Want: okResult,
		},
		{
			Name: "deprecated Get",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.Get(ctx, "cometchat-uid-1_user_cometchat-uid-2", obo)
			},
			Reply:  `{"data":[` + userConversationJSON + `]}`,
			Method: http.MethodGet, Path: "/v3/conversations/cometchat-uid-1_user_cometchat-uid-2", OnBehalfOf: obo,
			Want: &userConv,
		},
		{
			Name: "deprecated Delete",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.Delete(ctx, "group_project-group", obo)
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/conversations/group_project-group", OnBehalfOf: obo,
			Want: okResult,
		},
		{
			Name:   "ids are escaped into one segment",
			Call:   func(c *chat.Client) (any, error) { return c.Conversations.PinUser(ctx, "a/../b?c", obo) },
			Reply:  `{"data":` + userPinJSON + `}`,
			Method: http.MethodPost, Path: "/v3/users/a%2F..%2Fb%3Fc/conversation/pin", OnBehalfOf: obo, Want: pin,
		},
		{
			Name: "positional onBehalfOf wins over the option",
			Call: func(c *chat.Client) (any, error) {
				return c.Conversations.MarkGroupRead(ctx, guid, obo, nil, chat.OnBehalfOf("someone-else"))
			},
			Reply: ok, Method: http.MethodPost, Path: "/v3/groups/project-group/conversation/read", OnBehalfOf: obo,
			Want: okResult,
		},
	})
}

func TestConversationsArguments(t *testing.T) {
	ctx := context.Background()
	c := func(f func(s *chat.ConversationsService) error) func(*chat.Client) error {
		return func(cl *chat.Client) error { return f(cl.Conversations) }
	}
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "List unique with the OnBehalfOf option", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.List(ctx, &chat.ListConversationsOptions{Unique: true}, chat.OnBehalfOf("u"))
			return err
		}), Arg: "opts.Unique"},
		{Name: "List unique with an onBehalfOf header", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.List(ctx, &chat.ListConversationsOptions{Unique: true}, chat.WithHeader("onBehalfOf", "u"))
			return err
		}), Arg: "opts.Unique"},
		{Name: "ReplaceAppPinned nil", Call: c(func(s *chat.ConversationsService) error { _, err := s.ReplaceAppPinned(ctx, nil); return err }), Arg: "req"},
		{Name: "GetUser empty uid", Call: c(func(s *chat.ConversationsService) error { _, err := s.GetUser(ctx, "", "u"); return err }), Arg: "uid"},
		{Name: "GetUser empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.GetUser(ctx, "b", ""); return err }), Arg: "onBehalfOf"},
		{Name: "GetGroup dot guid", Call: c(func(s *chat.ConversationsService) error { _, err := s.GetGroup(ctx, "..", "u"); return err }), Arg: "guid"},
		{Name: "GetGroup empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.GetGroup(ctx, "g", ""); return err }), Arg: "onBehalfOf"},
		{Name: "UpdateUser nil", Call: c(func(s *chat.ConversationsService) error { _, err := s.UpdateUser(ctx, "b", "u", nil); return err }), Arg: "req"},
		{Name: "UpdateUser empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.UpdateUser(ctx, "b", "", &chat.UpdateConversationRequest{})
			return err
		}), Arg: "onBehalfOf"},
		{Name: "UpdateGroup nil", Call: c(func(s *chat.ConversationsService) error { _, err := s.UpdateGroup(ctx, "g", "u", nil); return err }), Arg: "req"},
		{Name: "ResetUser empty uid", Call: c(func(s *chat.ConversationsService) error { _, err := s.ResetUser(ctx, "", "u", nil); return err }), Arg: "uid"},
		{Name: "ResetGroup empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.ResetGroup(ctx, "g", "", nil); return err }), Arg: "onBehalfOf"},
		{Name: "PinUser empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.PinUser(ctx, "b", ""); return err }), Arg: "onBehalfOf"},
		{Name: "UnpinUser empty uid", Call: c(func(s *chat.ConversationsService) error { _, err := s.UnpinUser(ctx, "", "u"); return err }), Arg: "uid"},
		{Name: "PinGroup empty guid", Call: c(func(s *chat.ConversationsService) error { _, err := s.PinGroup(ctx, "", "u"); return err }), Arg: "guid"},
		{Name: "UnpinGroup empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.UnpinGroup(ctx, "g", ""); return err }), Arg: "onBehalfOf"},
		{Name: "MarkUserRead empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.MarkUserRead(ctx, "b", "", nil); return err }), Arg: "onBehalfOf"},
		{Name: "MarkGroupRead empty guid", Call: c(func(s *chat.ConversationsService) error { _, err := s.MarkGroupRead(ctx, "", "u", nil); return err }), Arg: "guid"},
		{Name: "MarkUserDelivered empty uid", Call: c(func(s *chat.ConversationsService) error { _, err := s.MarkUserDelivered(ctx, "", "u", nil); return err }), Arg: "uid"},
		{Name: "MarkGroupDelivered empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.MarkGroupDelivered(ctx, "g", "", nil)
			return err
		}), Arg: "onBehalfOf"},
		{Name: "MarkUserUnread empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error { _, err := s.MarkUserUnread(ctx, "b", "", nil); return err }), Arg: "onBehalfOf"},
		{Name: "MarkGroupUnread empty guid", Call: c(func(s *chat.ConversationsService) error { _, err := s.MarkGroupUnread(ctx, "", "u", nil); return err }), Arg: "guid"},
		{Name: "Get empty id", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.Get(ctx, "", "u")
			return err
		}), Arg: "conversationID"},
		{Name: "Get empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.Get(ctx, "a_user_b", "")
			return err
		}), Arg: "onBehalfOf"},
		{Name: "Delete empty onBehalfOf", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.Delete(ctx, "a_user_b", "")
			return err
		}), Arg: "onBehalfOf"},
		{Name: "Delete dot id", Call: c(func(s *chat.ConversationsService) error {
			_, err := s.Delete(ctx, ".", "u")
			return err
		}), Arg: "conversationID"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}

func TestConversationsAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"conversationId":"a_user_b","unreadMessageCount":"1"},
		{"conversationId":"a_user_c","unreadMessageCount":"0"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"conversationId":"group_g","unreadMessageCount":"12"}],
		"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	var ids []string
	var counts []int
	opts := &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 2}, Unread: true}
	for c, err := range client.Conversations.All(context.Background(), opts, chat.OnBehalfOf("a")) {
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
		client, m := wiretest.Chat(t)
		var errs []error
		for _, err := range client.Conversations.All(context.Background(), &chat.ListConversationsOptions{Unique: true}, chat.OnBehalfOf("a")) {
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
	assert.EqualError(t, err, "chat: the conversation is with a group, not a user")

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
		assert.EqualError(t, err, "chat: the conversation has no conversationWith")
	})
	t.Run("broken conversationWith", func(t *testing.T) {
		c := chat.Conversation{ConversationType: chat.ConversationUser, ConversationWith: json.RawMessage(`["x"]`)}
		_, err := c.User()
		assert.EqualError(t, err, "json: cannot unmarshal string into Go value of type chat.User")
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
