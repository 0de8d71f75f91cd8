//lint:file-ignore SA1019 the deprecated conversation operations are tested on purpose

package chattest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// startClocked is start with a clock the test moves.
func startClocked(t *testing.T) (*chattest.Server, *chat.Client, *faketest.Clock) {
	t.Helper()
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	return srv, client, clk
}

// dm sends text from one user to another and returns the message id as a
// number.
func dm(t *testing.T, client *chat.Client, from, to, s string) int64 {
	t.Helper()
	m, err := client.Messages.Send(t.Context(), toUser(to, s), chat.OnBehalfOf(from))
	require.NoError(t, err)
	id, err := strconv.ParseInt(m.ID, 10, 64)
	require.NoError(t, err)
	return id
}

// groupPost sends text from a user to a group and returns the message id.
func groupPost(t *testing.T, client *chat.Client, from, guid, s string) int64 {
	t.Helper()
	m, err := client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: guid, ReceiverType: chat.ReceiverGroup, Data: text(s)},
		chat.OnBehalfOf(from))
	require.NoError(t, err)
	id, err := strconv.ParseInt(m.ID, 10, 64)
	require.NoError(t, err)
	return id
}

// convSummary is "conversationId:unread" for each conversation.
func convSummary(p *chat.Page[chat.Conversation]) []string {
	return ids(p.Data, func(c chat.Conversation) string { return c.ConversationID + ":" + strconv.Itoa(c.UnreadMessageCount) })
}

func listFor(t *testing.T, client *chat.Client, uid string, opts *chat.ListConversationsOptions) []string {
	t.Helper()
	reqOpts := []chat.RequestOption{}
	if uid != "" {
		reqOpts = append(reqOpts, chat.OnBehalfOf(uid))
	}
	p, err := client.Conversations.List(t.Context(), opts, reqOpts...)
	require.NoError(t, err)
	return convSummary(p)
}

func TestConversationUserLifecycle(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	conv := client.Conversations

	_, err := conv.GetUser(ctx, "alice", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	assert.Empty(t, listFor(t, client, "bob", nil), "no messages, no conversation")

	m1 := dm(t, client, "alice", "bob", "one")
	clk.Set(t0.Add(time.Minute))
	m2 := dm(t, client, "alice", "bob", "two")
	dm(t, client, "alice", "bob", "three")
	clk.Set(t0.Add(2 * time.Minute))
	reply := dm(t, client, "bob", "alice", "hi")
	_, err = client.Messages.SendThread(ctx, strconv.FormatInt(m1, 10), "alice", toUser("bob", "in a thread"))
	require.NoError(t, err)

	// Each user has the conversation, with the other as conversationWith
	// and their own unread count; thread replies do not count.
	got, err := conv.GetUser(ctx, "alice", "bob")
	require.NoError(t, err, "data comes as a one-element array and decodes")
	assert.Equal(t, "alice_user_bob", got.ConversationID)
	assert.Equal(t, chat.ConversationUser, got.ConversationType)
	assert.Equal(t, 3, got.UnreadMessageCount, `"3" on the wire`)
	assert.Equal(t, chat.TimestampOf(t0), got.CreatedAt)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), got.UpdatedAt)
	require.NotNil(t, got.LastMessage)
	assert.Equal(t, strconv.FormatInt(reply, 10), got.LastMessage.ID)
	with, err := got.User()
	require.NoError(t, err)
	assert.Equal(t, "alice", with.UID)
	assert.Equal(t, "Alice", with.Name)
	assert.Equal(t, "alice_user_bob", with.ConversationID)
	_, err = got.Group()
	assert.EqualError(t, err, "chat: the conversation is with a user, not a group")

	forAlice, err := conv.GetUser(ctx, "bob", "alice")
	require.NoError(t, err)
	assert.Equal(t, 1, forAlice.UnreadMessageCount)
	with, err = forAlice.User()
	require.NoError(t, err)
	assert.Equal(t, "bob", with.UID)

	// Read up to m2: one left. Unread after m1: two. Read all: none.
	res, err := conv.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: m2})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.NotEmpty(t, res.Message, `the "Message" key decodes`)
	assert.Equal(t, []string{"alice_user_bob:1"}, listFor(t, client, "bob", nil))
	_, err = conv.MarkUserUnread(ctx, "alice", "bob", &chat.MarkUnreadRequest{MessageID: m1})
	require.NoError(t, err)
	assert.Equal(t, []string{"alice_user_bob:2"}, listFor(t, client, "bob", nil))
	_, err = conv.MarkUserRead(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"alice_user_bob:0"}, listFor(t, client, "bob", nil))
	res, err = conv.MarkUserDelivered(ctx, "alice", "bob", &chat.MarkDeliveredRequest{MessageID: m2})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, []string{"alice_user_bob:1"}, listFor(t, client, "alice", nil), "bob's marks are bob's")

	_, err = conv.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: 999})
	requireAPIError(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.MarkUserUnread(ctx, "alice", "bob", nil)
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "messageId")

	// Tags are bob's own.
	tagged, err := conv.UpdateUser(ctx, "alice", "bob", &chat.UpdateConversationRequest{Tags: []string{"work", "urgent"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"work", "urgent"}, tagged.Tags)
	page, err := conv.List(ctx, &chat.ListConversationsOptions{WithTags: true, Tags: []string{"urgent"}}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, []string{"work", "urgent"}, page.Data[0].Tags)
	page, err = conv.List(ctx, nil, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Empty(t, page.Data[0].Tags, "tags only with withTags")
	assert.Empty(t, listFor(t, client, "alice", &chat.ListConversationsOptions{Tags: []string{"urgent"}}))
	_, err = conv.UpdateUser(ctx, "alice", "bob", &chat.UpdateConversationRequest{Tags: make([]string, 26)})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "refused by the SDK (the fake's check: TestRawErrors)")
	cleared, err := conv.UpdateUser(ctx, "alice", "bob", &chat.UpdateConversationRequest{})
	require.NoError(t, err)
	assert.Empty(t, cleared.Tags)

	// Pins: idempotent, first pinnedAt kept.
	pin, err := conv.PinUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, &chat.Conversation{ConversationID: "alice_user_bob", ConversationType: chat.ConversationUser,
		PinnedBy: "bob", PinnedAt: chat.TimestampOf(t0.Add(2 * time.Minute))}, pin)
	clk.Set(t0.Add(3 * time.Minute))
	again, err := conv.PinUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, pin, again)
	got, err = conv.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, "bob", got.PinnedBy)
	unpin, err := conv.UnpinUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, &chat.Conversation{ConversationID: "alice_user_bob", ConversationType: chat.ConversationUser}, unpin)
	_, err = conv.UnpinUser(ctx, "alice", "bob")
	require.NoError(t, err, "unpin is idempotent")
	got, err = conv.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Empty(t, got.PinnedBy)
	assert.Zero(t, got.PinnedAt)

	// Reset hides the conversation from bob only, until a new message.
	res, err = conv.ResetUser(ctx, "alice", "bob", &chat.ResetConversationRequest{PreserveOrder: true})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Empty(t, listFor(t, client, "bob", nil))
	_, err = conv.GetUser(ctx, "alice", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	_, err = conv.PinUser(ctx, "alice", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	assert.Equal(t, []string{"alice_user_bob:1"}, listFor(t, client, "alice", nil))
	_, err = conv.ResetUser(ctx, "alice", "bob", nil)
	require.NoError(t, err, "resetting again succeeds")
	clk.Set(t0.Add(4 * time.Minute))
	m5 := dm(t, client, "alice", "bob", "are you there?")
	got, err = conv.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, 1, got.UnreadMessageCount, "only the message after the reset")
	assert.Equal(t, strconv.FormatInt(m5, 10), got.LastMessage.ID)
	assert.Equal(t, chat.TimestampOf(t0), got.CreatedAt)

	// Inspection from the server matches.
	seen, ok := srv.Conversation("bob", "alice_user_bob")
	require.True(t, ok)
	assert.Equal(t, 1, seen.UnreadMessageCount)
	_, ok = srv.Conversation("carol", "alice_user_bob")
	assert.False(t, ok)

	// Errors of the path and the header.
	_, err = conv.GetUser(ctx, "nobody", "bob")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.GetUser(ctx, "alice", "nobody")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.GetUser(ctx, "bob", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	_, err = conv.GetUser(ctx, "carol", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	_, err = conv.MarkUserRead(ctx, "carol", "bob", nil)
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	r := do(t, srv, http.MethodGet, "/v3/users/alice/conversation", "", key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode, "onBehalfOf is required")
}

// TestConversationOrderInOneSecond: conversations whose last messages
// were sent in the same second list the newest last message first, on the
// server API and the client API, one-on-one and group conversations alike,
// and their pages follow that order.
func TestConversationOrderInOneSecond(t *testing.T) {
	srv, client := start(t) // every message is sent at t0
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave")
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Type: chat.GroupPublic, Owner: "alice"}, "bob")
	token := mint(t, client, "alice")

	// listed is alice's list on the server API, the SDK's iterator one
	// conversation a page, and the client API, page by page, as the
	// client SDKs ask for it.
	listed := func(t *testing.T) []string {
		t.Helper()
		got := listFor(t, client, "alice", nil)
		var walked []string
		for c, err := range client.Conversations.All(ctx, &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 1}},
			chat.OnBehalfOf("alice")) {
			require.NoError(t, err)
			walked = append(walked, c.ConversationID)
		}
		var paged []string
		for page := 1; page <= len(got); page++ {
			r := do(t, srv, http.MethodGet, "/v3.0/conversations?per_page=1&page="+strconv.Itoa(page), "", as(srv, token))
			require.Equal(t, http.StatusOK, r.resp.StatusCode, "%v", r.body)
			data, _ := r.body["data"].([]any)
			require.Len(t, data, 1, "page %d", page)
			paged = append(paged, data[0].(map[string]any)["conversationId"].(string))
		}
		ids := make([]string, len(got))
		for i, s := range got {
			ids[i], _, _ = strings.Cut(s, ":")
		}
		assert.Equal(t, ids, walked, "the iterator's pages")
		assert.Equal(t, ids, paged, "the client API's pages")
		return ids
	}

	dm(t, client, "alice", "bob", "1")
	dm(t, client, "alice", "carol", "2")
	groupPost(t, client, "bob", "team", "3")
	dm(t, client, "dave", "alice", "4")
	assert.Equal(t, []string{"alice_user_dave", "group_team", "alice_user_carol", "alice_user_bob"}, listed(t))

	dm(t, client, "bob", "alice", "5")
	assert.Equal(t, []string{"alice_user_bob", "alice_user_dave", "group_team", "alice_user_carol"}, listed(t),
		"a new message brings its conversation first")
	groupPost(t, client, "alice", "team", "6")
	assert.Equal(t, []string{"group_team", "alice_user_bob", "alice_user_dave", "alice_user_carol"}, listed(t))
}

func TestConversationListOrderAndFilters(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol", "dave")
	srv.AddUser(chat.User{UID: "erin", Name: "Erin Support", Tags: []string{"staff"}})

	dm(t, client, "alice", "bob", "a->b")
	clk.Set(t0.Add(time.Minute))
	dm(t, client, "carol", "bob", "c->b")
	dm(t, client, "dave", "bob", "d->b")
	clk.Set(t0.Add(2 * time.Minute))
	dm(t, client, "erin", "alice", "e->a")
	dm(t, client, "bob", "erin", "b->e")

	// With onBehalfOf: the newest last message first; of two sent in the
	// same second (carol's and dave's), the later.
	assert.Equal(t, []string{"bob_user_erin:0", "bob_user_dave:1", "bob_user_carol:1", "alice_user_bob:1"},
		listFor(t, client, "bob", nil))
	// Without: by owner, then the same order; one-on-one conversations
	// show once per user.
	assert.Equal(t, []string{
		"alice_user_erin:1", "alice_user_bob:0",
		"bob_user_erin:0", "bob_user_dave:1", "bob_user_carol:1", "alice_user_bob:1",
		"bob_user_carol:0", "bob_user_dave:0",
		"bob_user_erin:1", "alice_user_erin:0",
	}, listFor(t, client, "", nil))
	assert.Equal(t, []string{"alice_user_erin:1", "alice_user_bob:0", "bob_user_erin:0", "bob_user_dave:1", "bob_user_carol:1"},
		listFor(t, client, "", &chat.ListConversationsOptions{Unique: true}), "unique: each conversation once")

	// Filters.
	assert.Equal(t, []string{"bob_user_carol:1"}, listFor(t, client, "bob", &chat.ListConversationsOptions{SearchKey: "CAR"}))
	assert.Equal(t, []string{"bob_user_erin:0"}, listFor(t, client, "bob", &chat.ListConversationsOptions{SearchKey: "support"}))
	assert.Equal(t, []string{"bob_user_dave:1", "bob_user_carol:1", "alice_user_bob:1"},
		listFor(t, client, "bob", &chat.ListConversationsOptions{Unread: true}))
	assert.Equal(t, []string{"bob_user_erin:0"}, listFor(t, client, "bob", &chat.ListConversationsOptions{UserTags: []string{"staff"}}))
	assert.Empty(t, listFor(t, client, "bob", &chat.ListConversationsOptions{GroupTags: []string{"staff"}}))
	assert.Empty(t, listFor(t, client, "bob", &chat.ListConversationsOptions{ConversationType: chat.ConversationGroup}))
	assert.Len(t, listFor(t, client, "bob", &chat.ListConversationsOptions{ConversationType: chat.ConversationUser, HideAgentic: true}), 4)
	assert.Empty(t, listFor(t, client, "bob", &chat.ListConversationsOptions{OnlyAgentic: true}))
	page, err := client.Conversations.List(ctx, &chat.ListConversationsOptions{UserTags: []string{"staff"}, WithUserAndGroupTags: true},
		chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	erin, err := page.Data[0].User()
	require.NoError(t, err)
	assert.Equal(t, []string{"staff"}, erin.Tags)
	page, err = client.Conversations.List(ctx, &chat.ListConversationsOptions{UserTags: []string{"staff"}}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	erin, err = page.Data[0].User()
	require.NoError(t, err)
	assert.Empty(t, erin.Tags, "user tags only with withUserAndGroupTags")

	// Pages and the iterator.
	page, err = client.Conversations.List(ctx, &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 3, Page: 2}},
		chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, []string{"alice_user_bob:1"}, convSummary(page))
	assert.Equal(t, &chat.Pagination{Total: 4, Count: 1, PerPage: 3, CurrentPage: 2, TotalPages: 2}, page.Meta.Pagination)
	var all []string
	for c, err := range client.Conversations.All(ctx, &chat.ListConversationsOptions{PageOptions: chat.PageOptions{PerPage: 1}}, chat.OnBehalfOf("bob")) {
		require.NoError(t, err)
		all = append(all, c.ConversationID)
	}
	assert.Equal(t, []string{"bob_user_erin", "bob_user_dave", "bob_user_carol", "alice_user_bob"}, all)

	// Blocked users: left out unless asked, with their block status on request.
	srv.Block("bob", "dave")
	assert.Equal(t, []string{"bob_user_erin:0", "bob_user_carol:1", "alice_user_bob:1"}, listFor(t, client, "bob", nil))
	page, err = client.Conversations.List(ctx, &chat.ListConversationsOptions{IncludeBlockedUsers: true, WithBlockedInfo: true,
		SearchKey: "dave"}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	dave, err := page.Data[0].User()
	require.NoError(t, err)
	assert.True(t, dave.BlockedByMe)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), dave.BlockedByMeAt)

	// Query validation on the server (the SDK refuses unique with
	// onBehalfOf before sending).
	r := do(t, srv, http.MethodGet, "/v3/conversations?unique=1", "", key(srv, "onBehalfOf", "bob"))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
	assert.Contains(t, r.errorBody(t)["details"], "unique")
	r = do(t, srv, http.MethodGet, "/v3/conversations?conversationType=channel&useCursoredIndex=2", "", key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
	assert.Contains(t, r.errorBody(t)["details"], "conversationType")
	assert.Contains(t, r.errorBody(t)["details"], "useCursoredIndex")
	r = do(t, srv, http.MethodGet, "/v3/conversations?useCursoredIndex=0", "", key(srv, "onBehalfOf", "alice"))
	require.Equal(t, http.StatusOK, r.resp.StatusCode)
	first := r.body["data"].([]any)[0].(map[string]any)
	assert.Equal(t, "1", first["unreadMessageCount"], "the count is a string on the wire")
}

func TestConversationPinLimits(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "bob", "u1", "u2", "u3", "u4", "u5", "u6")
	for i := 1; i <= 6; i++ {
		dm(t, client, fmt.Sprintf("u%d", i), "bob", "hi")
	}
	conv := client.Conversations
	for i := 1; i <= 5; i++ {
		_, err := conv.PinUser(ctx, fmt.Sprintf("u%d", i), "bob")
		require.NoError(t, err)
	}
	_, err := conv.PinUser(ctx, "u6", "bob")
	requireAPIError(t, err, http.StatusBadRequest, "ERR_PINNED_CONVERSATIONS_LIMIT_EXCEEDED", chat.ErrLimitExceeded)
	_, err = conv.PinUser(ctx, "u1", "bob")
	require.NoError(t, err, "pinning a pinned conversation again is not a sixth pin")
	_, err = conv.UnpinUser(ctx, "u1", "bob")
	require.NoError(t, err)
	_, err = conv.PinUser(ctx, "u6", "bob")
	require.NoError(t, err)

	// App pins: per conversation partner or group, for every user.
	pins, err := conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{
		{UID: "U1"}, {UID: "u1"},
	}})
	require.NoError(t, err)
	assert.Equal(t, []chat.Conversation{{ConversationID: "user_u1", ConversationType: chat.ConversationUser,
		PinnedBy: "app_system", PinnedAt: chat.TimestampOf(t0)}}, pins, "duplicates are kept once")
	listed, err := conv.ListAppPinned(ctx)
	require.NoError(t, err)
	assert.Equal(t, pins, listed)
	got, err := conv.GetUser(ctx, "u1", "bob")
	require.NoError(t, err)
	assert.Equal(t, "app_system", got.PinnedBy)
	_, err = conv.PinUser(ctx, "u1", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_SYSTEM_PINNED_CONVERSATION", chat.ErrForbidden)
	_, err = conv.UnpinUser(ctx, "u1", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_SYSTEM_PINNED_CONVERSATION", chat.ErrForbidden)

	six := make([]chat.ConversationRef, 6)
	for i := range six {
		six[i] = chat.ConversationRef{UID: fmt.Sprintf("u%d", i+1)}
	}
	_, err = conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: six})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_SYSTEM_PINNED_CONVERSATIONS_LIMIT_EXCEEDED", chat.ErrLimitExceeded)
	_, err = conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{{}}})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "pinnedConversations.0")
	_, err = conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{{GUID: "nope"}}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{{UID: "nobody"}}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	cleared, err := conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{})
	require.NoError(t, err)
	assert.Empty(t, cleared)
	_, err = conv.UnpinUser(ctx, "u1", "bob")
	require.NoError(t, err, "no longer app-pinned")
}

func TestConversationGroups(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	srv.AddGroup(chat.Group{GUID: "Team", Name: "The Team", Tags: []string{"internal"}}, "alice", "bob:moderator")
	conv := client.Conversations

	_, err := conv.GetGroup(ctx, "team", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	clk.Set(t0.Add(time.Minute))
	g1 := groupPost(t, client, "alice", "team", "hello team")
	g2 := groupPost(t, client, "alice", "team", "agenda")
	dm(t, client, "carol", "bob", "psst")

	got, err := conv.GetGroup(ctx, "team", "bob")
	require.NoError(t, err)
	assert.Equal(t, "group_team", got.ConversationID)
	assert.Equal(t, chat.ConversationGroup, got.ConversationType)
	assert.Equal(t, 2, got.UnreadMessageCount)
	assert.Equal(t, strconv.FormatInt(g2, 10), got.LastMessage.ID)
	g, err := got.Group()
	require.NoError(t, err)
	assert.Equal(t, "team", g.GUID)
	assert.Equal(t, "The Team", g.Name)
	assert.Equal(t, chat.MemberModerator, g.Scope, "relative to bob")
	assert.True(t, g.HasJoined)
	assert.Equal(t, 2, g.MembersCount)
	alices, err := conv.GetGroup(ctx, "team", "alice")
	require.NoError(t, err)
	assert.Zero(t, alices.UnreadMessageCount, "her own messages")

	assert.Equal(t, []string{"bob_user_carol:1", "group_team:2"}, listFor(t, client, "bob", nil))
	assert.Equal(t, []string{"group_team:2"}, listFor(t, client, "bob", &chat.ListConversationsOptions{ConversationType: chat.ConversationGroup}))
	assert.Equal(t, []string{"group_team:2"}, listFor(t, client, "bob", &chat.ListConversationsOptions{GroupTags: []string{"internal"}}))
	assert.Equal(t, []string{"group_team:2"}, listFor(t, client, "bob", &chat.ListConversationsOptions{SearchKey: "team"}))

	_, err = conv.GetGroup(ctx, "team", "carol")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	_, err = conv.GetGroup(ctx, "nope", "bob")
	requireAPIError(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)

	res, err := conv.MarkGroupRead(ctx, "team", "bob", &chat.MarkReadRequest{MessageID: g1})
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, []string{"group_team:1"}, listFor(t, client, "bob", &chat.ListConversationsOptions{ConversationType: chat.ConversationGroup}))
	_, err = conv.MarkGroupUnread(ctx, "team", "bob", &chat.MarkUnreadRequest{MessageID: 9999})
	requireAPIError(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.MarkGroupUnread(ctx, "team", "bob", &chat.MarkUnreadRequest{MessageID: g1})
	require.NoError(t, err)
	_, err = conv.MarkGroupDelivered(ctx, "team", "bob", nil)
	require.NoError(t, err)
	_, err = conv.MarkGroupRead(ctx, "team", "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"group_team:0"}, listFor(t, client, "bob", &chat.ListConversationsOptions{ConversationType: chat.ConversationGroup}))

	tagged, err := conv.UpdateGroup(ctx, "team", "bob", &chat.UpdateConversationRequest{Tags: []string{"starred"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"starred"}, tagged.Tags)
	pin, err := conv.PinGroup(ctx, "team", "bob")
	require.NoError(t, err)
	assert.Equal(t, &chat.Conversation{ConversationID: "group_team", ConversationType: chat.ConversationGroup,
		PinnedBy: "bob", PinnedAt: chat.TimestampOf(t0.Add(time.Minute))}, pin)
	unpin, err := conv.UnpinGroup(ctx, "team", "bob")
	require.NoError(t, err)
	assert.Equal(t, &chat.Conversation{ConversationID: "group_team", ConversationType: chat.ConversationGroup}, unpin)

	// An app pin of the group shows for every member.
	_, err = conv.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{{GUID: "team"}}})
	require.NoError(t, err)
	got, err = conv.GetGroup(ctx, "team", "alice")
	require.NoError(t, err)
	assert.Equal(t, "app_system", got.PinnedBy)
	_, err = conv.PinGroup(ctx, "team", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_SYSTEM_PINNED_CONVERSATION", chat.ErrForbidden)

	_, err = conv.ResetGroup(ctx, "team", "bob", &chat.ResetConversationRequest{PreserveOrder: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"bob_user_carol:1"}, listFor(t, client, "bob", nil))
	_, err = conv.GetGroup(ctx, "team", "alice")
	require.NoError(t, err, "alice keeps hers")

	// A member who leaves loses the conversation.
	_, err = client.Members.Kick(ctx, "team", "alice")
	require.NoError(t, err)
	_, err = conv.GetGroup(ctx, "team", "alice")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
}

func TestConversationDeprecated(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	dm(t, client, "alice", "bob", "hi")
	conv := client.Conversations

	got, err := conv.Get(ctx, "alice_user_bob", "bob")
	require.NoError(t, err)
	assert.Equal(t, "alice_user_bob", got.ConversationID)
	assert.Equal(t, 1, got.UnreadMessageCount)
	_, err = conv.Get(ctx, "bob_user_zed", "bob")
	requireAPIError(t, err, http.StatusNotFound, "ERR_CONVERSATION_NOT_FOUND", chat.ErrNotFound)
	_, err = conv.Get(ctx, "alice_user_bob", "carol")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
	_, err = conv.Get(ctx, "alice_user_zed", "carol")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden) // whether or not another's exists
	_, err = conv.Delete(ctx, "alice_user_bob", "carol")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)

	res, err := conv.Delete(ctx, "alice_user_bob", "bob")
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Empty(t, listFor(t, client, "bob", nil))
	assert.Empty(t, listFor(t, client, "alice", nil), "deleted for all the users")
	_, err = conv.Get(ctx, "alice_user_bob", "bob")
	requireAPIError(t, err, http.StatusForbidden, "ERR_CONVERSATION_NOT_ACCESSIBLE", chat.ErrForbidden)
}

func TestConversationFollowsEditsAndDeletes(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	first := dm(t, client, "alice", "bob", "hello")
	second := dm(t, client, "alice", "bob", "typo")

	// The app edits alice's message: the action message, sent by
	// app_system, is the conversation's last message but is not unread,
	// and the conversation stays alice's and bob's.
	_, err := client.Messages.Update(ctx, strconv.FormatInt(second, 10), &chat.UpdateMessageRequest{Data: text("fixed")})
	require.NoError(t, err)
	got, err := client.Conversations.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, 2, got.UnreadMessageCount)
	require.NotNil(t, got.LastMessage)
	assert.Equal(t, chat.CategoryAction, got.LastMessage.Category)
	assert.Equal(t, "edited", got.LastMessage.Data.Action)
	with, err := got.User()
	require.NoError(t, err)
	assert.Equal(t, "alice", with.UID)
	assert.Equal(t, []string{"alice_user_bob:0"}, listFor(t, client, "alice", nil))

	// A deleted message is neither unread nor the last message.
	_, err = client.Messages.Delete(ctx, strconv.FormatInt(first, 10), nil)
	require.NoError(t, err)
	got, err = client.Conversations.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, 1, got.UnreadMessageCount)
	assert.Equal(t, "deleted", got.LastMessage.Data.Action)
	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: first})
	requireAPIError(t, err, http.StatusNotFound, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
}
