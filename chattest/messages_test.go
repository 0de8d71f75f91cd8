package chattest_test

import (
	"context"
	"fmt"
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

func toGroup(guid, s string) *chat.SendMessageRequest {
	return &chat.SendMessageRequest{Receiver: guid, ReceiverType: chat.ReceiverGroup, Data: text(s)}
}

// send sends a message on behalf of from (the app when from is empty) and
// returns it.
func send(t *testing.T, client *chat.Client, from string, req *chat.SendMessageRequest) *chat.Message {
	t.Helper()
	return faketest.Send(t, client, from, req)
}

func TestMessageGetUpdateDelete(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	msg := send(t, client, "alice", &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "helo", Metadata: map[string]any{"v": 1.0}}, Tags: []string{"draft"}})

	got, err := client.Messages.Get(ctx, msg.ID)
	require.NoError(t, err)
	assert.Equal(t, "helo", got.Data.Text)
	assert.Equal(t, []string{"draft"}, got.Tags)
	got, err = client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, "alice", got.Sender)
	_, err = client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("carl"))
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.Get(ctx, "999")
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)

	// Only the sender edits.
	_, err = client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{Data: text("hacked")}, chat.OnBehalfOf("bob"))
	requireAPIError(t, err, 403, "ERR_MESSAGE_NOT_A_SENDER", chat.ErrForbidden)

	clk.Set(t0.Add(time.Minute))
	action, err := client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{Data: text("hello"), Tags: []string{"final"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	t1 := chat.TimestampOf(t0.Add(time.Minute))
	assert.True(t, action.IsAction())
	assert.Equal(t, chat.MessageTypeMessage, action.Type)
	assert.Equal(t, chat.ActionEdited, action.Data.Action)
	assert.Equal(t, "alice", action.Sender)
	assert.Equal(t, msg.ConversationID, action.ConversationID)
	assert.Equal(t, t1, action.SentAt)
	edited, err := action.Target()
	require.NoError(t, err)
	assert.Equal(t, msg.ID, edited.ID)
	assert.Equal(t, "hello", edited.Data.Text)
	assert.Equal(t, map[string]any{"v": 1.0}, edited.Data.Metadata, "metadata not sent is kept")
	assert.Equal(t, []string{"final"}, edited.Tags)
	assert.Equal(t, t1, edited.EditedAt)
	assert.Equal(t, "alice", edited.EditedBy)
	by, err := action.Actor()
	require.NoError(t, err)
	assert.Equal(t, "alice", by.UID)
	forUser, err := action.Data.Entities.For.User()
	require.NoError(t, err)
	assert.Equal(t, "bob", forUser.UID)

	stored, ok := srv.Message(msg.ID)
	require.True(t, ok)
	assert.Equal(t, "hello", stored.Data.Text)
	assert.Equal(t, t1, stored.EditedAt)
	assert.Equal(t, t1, stored.UpdatedAt)
	assert.Equal(t, msg.SentAt, stored.SentAt)
	stored, ok = srv.Message(action.ID)
	require.True(t, ok, "the action message is stored")
	assert.Equal(t, chat.CategoryAction, stored.Category)

	// The app edits any message.
	action, err = client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Metadata: map[string]any{"v": 2.0}}})
	require.NoError(t, err)
	edited, err = action.Target()
	require.NoError(t, err)
	assert.Equal(t, "app_system", edited.EditedBy)
	assert.Equal(t, "hello", edited.Data.Text, "text not sent is kept")
	assert.Equal(t, map[string]any{"v": 2.0}, edited.Data.Metadata)

	_, err = client.Messages.Update(ctx, action.ID, &chat.UpdateMessageRequest{Data: text("x")})
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)
	_, err = client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{Tags: make([]string, 26)})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "refused by the SDK (the fake's check: TestRawErrors)")

	// Delete: soft, then permanent.
	_, err = client.Messages.Delete(ctx, msg.ID, nil, chat.OnBehalfOf("bob"))
	requireAPIError(t, err, 403, "ERR_MESSAGE_NOT_A_SENDER", chat.ErrForbidden)
	clk.Set(t0.Add(2 * time.Minute))
	t2 := chat.TimestampOf(t0.Add(2 * time.Minute))
	deletion, err := client.Messages.Delete(ctx, msg.ID, nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, chat.ActionDeleted, deletion.Data.Action)
	deleted, err := deletion.Target()
	require.NoError(t, err)
	assert.Equal(t, t2, deleted.DeletedAt)
	assert.Equal(t, "alice", deleted.DeletedBy)
	got, err = client.Messages.Get(ctx, msg.ID)
	require.NoError(t, err, "a soft-deleted message stays")
	assert.Equal(t, t2, got.DeletedAt)
	assert.Equal(t, "alice", got.DeletedBy)
	_, err = client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{Data: text("x")})
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)
	_, err = client.Messages.Delete(ctx, msg.ID, nil)
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)

	deletion, err = client.Messages.Delete(ctx, msg.ID, &chat.DeleteMessageRequest{Permanent: true})
	require.NoError(t, err)
	assert.Equal(t, "app_system", deletion.Sender)
	_, err = client.Messages.Get(ctx, msg.ID)
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	_, ok = srv.Message(deletion.ID)
	assert.True(t, ok, "the action outlives the message")
	_, err = client.Messages.Delete(ctx, msg.ID, nil)
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
}

func TestMessageEditInThread(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	parent := send(t, client, "alice", toUser("bob", "parent"))
	reply, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "reply"))
	require.NoError(t, err)

	_, err = client.Messages.Update(ctx, reply.ID, &chat.UpdateMessageRequest{Data: text("reply, edited")}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	p, _ := srv.Message(parent.ID)
	assert.Equal(t, "reply, edited", p.LastReply.Data.Text, "the parent's lastReply follows an edit")

	_, err = client.Messages.Delete(ctx, reply.ID, &chat.DeleteMessageRequest{Permanent: true}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	p, _ = srv.Message(parent.ID)
	assert.Zero(t, p.ReplyCount)
	assert.Nil(t, p.LastReply)

	_, err = client.Messages.SendThread(ctx, reply.ID, "bob", toUser("alice", "x"))
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)

	// Deleting a parent permanently removes its thread.
	r2, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "again"))
	require.NoError(t, err)
	_, err = client.Messages.Delete(ctx, parent.ID, &chat.DeleteMessageRequest{Permanent: true})
	require.NoError(t, err)
	_, ok := srv.Message(r2.ID)
	assert.False(t, ok)
}

func TestThreadRules(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	parent := send(t, client, "alice", toUser("bob", "parent"))

	_, err := client.Messages.SendThread(ctx, parent.ID, "carl", toUser("bob", "not my conversation"))
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.SendThread(ctx, parent.ID, "alice", toUser("carl", "another conversation"))
	requireAPIError(t, err, 400, "ERR_WRONG_MESSAGE_THREAD", chat.ErrBadRequest)

	srv.AddGroup(chat.Group{GUID: "g"}, "alice", "bob")
	_, err = client.Members.Add(ctx, "g", &chat.AddMembersRequest{Participants: []string{"carl"}})
	require.NoError(t, err)
	var added *chat.Message
	for m, err := range client.Messages.AllGroupMessages(ctx, "g", nil) {
		require.NoError(t, err)
		added = m
	}
	require.NotNil(t, added)
	_, err = client.Messages.SendThread(ctx, added.ID, "alice", toGroup("g", "on an action"))
	requireAPIError(t, err, 400, "ERR_WRONG_MESSAGE_THREAD_CATEGORY", chat.ErrBadRequest)
}

func TestGroupMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl", "dave")
	srv.AddGroup(chat.Group{GUID: "Team", Name: "Team", Owner: "alice"}, "bob:moderator", "carl")

	m1 := send(t, client, "bob", toGroup("team", "hi team"))
	assert.Equal(t, "group_team", m1.ConversationID)
	assert.Equal(t, "team", m1.Receiver)
	g, err := m1.Data.Entities.Receiver.Group()
	require.NoError(t, err)
	assert.Equal(t, "Team", g.Name)
	assert.Equal(t, 3, g.MembersCount)
	send(t, client, "", toGroup("team", "from the app"))

	_, err = client.Messages.Send(ctx, toGroup("team", "let me in"), chat.OnBehalfOf("dave"))
	requireAPIError(t, err, 403, "ERR_GROUP_NOT_JOINED", chat.ErrForbidden)
	_, err = client.Messages.Send(ctx, toGroup("nowhere", "x"), chat.OnBehalfOf("alice"))
	requireAPIError(t, err, 404, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Send(ctx, toGroup("nowhere", "x"))
	requireAPIError(t, err, 404, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)

	_, err = client.Messages.ListGroupMessages(ctx, "team", nil, chat.OnBehalfOf("dave"))
	requireAPIError(t, err, 403, "ERR_GROUP_NOT_JOINED", chat.ErrForbidden)
	_, err = client.Messages.ListGroupMessages(ctx, "nowhere", nil)
	requireAPIError(t, err, 404, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Get(ctx, m1.ID, chat.OnBehalfOf("dave"))
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist

	// Member changes emit action messages into the group's conversation.
	_, err = client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"dave"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	page, err := client.Messages.ListGroupMessages(ctx, "team", &chat.ListGroupMessagesOptions{ConversationFilters: chat.ConversationFilters{Category: chat.CategoryAction}}, chat.OnBehalfOf("dave"))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	added := page.Data[0]
	assert.Equal(t, chat.MessageTypeGroupMember, added.Type)
	assert.Equal(t, "added", added.Data.Action)
	assert.Equal(t, "app_system", added.Sender)
	assert.Equal(t, "group_team", added.ConversationID)
	by, err := added.Data.Entities.By.User()
	require.NoError(t, err)
	assert.Equal(t, "alice", by.UID)
	on, err := added.Data.Entities.On.User()
	require.NoError(t, err)
	assert.Equal(t, "dave", on.UID)
	forGroup, err := added.Data.Entities.For.Group()
	require.NoError(t, err)
	assert.Equal(t, "team", forGroup.GUID)
	assert.Equal(t, 4, forGroup.MembersCount)
	_, err = added.Target()
	assert.EqualError(t, err, `chat: a "groupMember" action is not about a message`, "a member action is about a user")

	var all []string
	for m, err := range client.Messages.AllGroupMessages(ctx, "team", &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1}}) {
		require.NoError(t, err)
		all = append(all, m.Data.Text+m.Data.Action)
	}
	assert.Equal(t, []string{"hi team", "from the app", "added"}, all)

	// Moderators and admins delete others' messages; participants do not.
	_, err = client.Messages.Delete(ctx, m1.ID, nil, chat.OnBehalfOf("carl"))
	requireAPIError(t, err, 403, "ERR_MESSAGE_NOT_A_SENDER", chat.ErrForbidden)
	_, err = client.Messages.Update(ctx, m1.ID, &chat.UpdateMessageRequest{Data: text("x")}, chat.OnBehalfOf("alice"))
	requireAPIError(t, err, 403, "ERR_MESSAGE_NOT_A_SENDER", chat.ErrForbidden)
	deletion, err := client.Messages.Delete(ctx, m1.ID, nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	forEntity, err := deletion.Data.Entities.For.Group()
	require.NoError(t, err)
	assert.Equal(t, "team", forEntity.GUID)
}

func TestBotMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "helper-bot")
	form := &chat.SendMessageRequest{
		Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryInteractive, Type: chat.MessageTypeForm,
		Data: chat.MessageData{
			InteractionGoal: &chat.InteractionGoal{Type: chat.GoalAllOf, ElementIDs: []string{"name", "submit"}},
			InteractiveData: &chat.InteractiveData{
				Title:         "Sign up",
				FormFields:    []chat.InteractiveElement{{ElementType: chat.ElementTextInput, ElementID: "name", Label: "Name"}},
				SubmitElement: &chat.InteractiveElement{ElementType: chat.ElementButton, ElementID: "submit", ButtonText: "Go"},
			},
		},
	}
	msg, err := client.Messages.SendAsBot(ctx, "Helper-Bot", form)
	require.NoError(t, err)
	assert.Equal(t, "helper-bot", msg.Sender)
	assert.Equal(t, "alice_user_helper-bot", msg.ConversationID)
	assert.Equal(t, chat.CategoryInteractive, msg.Category)
	require.NotNil(t, msg.Data.InteractiveData)
	assert.Equal(t, "Sign up", msg.Data.InteractiveData.Title)
	assert.Equal(t, "submit", msg.Data.InteractiveData.SubmitElement.ElementID)

	_, err = client.Messages.SendAsBot(ctx, "no-bot", form)
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.SendAsBot(ctx, "helper-bot", toUser("nobody", "x"))
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
}

func TestBlockedUsersCannotMessage(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	srv.AddGroup(chat.Group{GUID: "team"}, "alice", "bob")
	fromAlice := send(t, client, "alice", toGroup("team", "before the block"))
	fromBob := send(t, client, "bob", toGroup("team", "from bob"))
	_, err := client.Blocked.Block(ctx, "bob", &chat.BlockUsersRequest{BlockedUIDs: []string{"alice"}})
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	requireAPIError(t, err, 403, "ERR_BLOCKED_SENDER", chat.ErrForbidden)
	_, err = client.Messages.Send(ctx, toUser("alice", "hi"), chat.OnBehalfOf("bob"))
	requireAPIError(t, err, 403, "ERR_BLOCKED_RECEIVER", chat.ErrForbidden)
	send(t, client, "", toUser("bob", "the app is never blocked"))
	send(t, client, "alice", toGroup("team", "groups are not affected"))

	page, err := client.Messages.ListGroupMessages(ctx, "team", &chat.ListGroupMessagesOptions{HideMessagesFromBlockedUsers: true}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, []string{fromBob.ID}, pageIDs(page), "bob hides alice's messages")
	page, err = client.Messages.ListGroupMessages(ctx, "team", nil, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Contains(t, pageIDs(page), fromAlice.ID)
	all, err := client.Messages.List(ctx, &chat.ListMessagesOptions{HideMessagesFromBlockedUsers: true}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Contains(t, pageIDs(all), fromBob.ID, "alice blocked nobody")

	_, err = client.Blocked.Unblock(ctx, "bob", &chat.UnblockUsersRequest{BlockedUIDs: []string{"alice"}})
	require.NoError(t, err)
	send(t, client, "alice", toUser("bob", "hi again"))
}

func TestMessagesListFilters(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	srv.AddGroup(chat.Group{GUID: "team"}, "alice", "bob")
	at := func(min int) { clk.Set(t0.Add(time.Duration(min) * time.Minute)) }
	ts := func(min int) chat.Timestamp { return chat.TimestampOf(t0.Add(time.Duration(min) * time.Minute)) }

	at(0)
	m1 := send(t, client, "alice", &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: text("Hello <@uid:bob>, see https://example.com"), Tags: []string{"greeting"}})
	at(1)
	m2 := send(t, client, "bob", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Type: chat.MessageTypeImage,
		Data:            chat.MessageData{Text: "a photo", Attachments: []chat.Attachment{{URL: "https://files.example/a.png", Name: "a.png"}}},
		QuotedMessageID: m1.ID})
	at(2)
	m3 := send(t, client, "alice", toGroup("team", "team news"))
	at(3)
	m4 := send(t, client, "carl", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryCustom,
		Type: "poll", Data: chat.MessageData{CustomData: map[string]any{"q": "lunch?"}}, Tags: []string{"poll", "lunch"}})
	at(4)
	m5, err := client.Messages.SendThread(ctx, m1.ID, "bob", toUser("alice", "a reply"))
	require.NoError(t, err)
	at(5)
	_, err = client.Messages.AddReaction(ctx, m2.ID, "👍", "alice")
	require.NoError(t, err)
	editAction, err := client.Messages.Update(ctx, m3.ID, &chat.UpdateMessageRequest{Data: text("team news, edited")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	at(6)
	deleteAction, err := client.Messages.Delete(ctx, m4.ID, nil)
	require.NoError(t, err)
	all := []string{m1.ID, m2.ID, m3.ID, m4.ID, m5.ID, editAction.ID, deleteAction.ID}

	cases := []struct {
		name string
		opts chat.ListMessagesOptions
		obo  string
		want []string
	}{
		{"everything", chat.ListMessagesOptions{}, "", all},
		{"as bob: his conversations only", chat.ListMessagesOptions{}, "bob", []string{m1.ID, m2.ID, m3.ID, m5.ID, editAction.ID}},
		{"as carl", chat.ListMessagesOptions{}, "carl", []string{m4.ID, deleteAction.ID}},
		{"category", chat.ListMessagesOptions{Category: chat.CategoryCustom}, "", []string{m4.ID}},
		{"categories", chat.ListMessagesOptions{Categories: []chat.Category{chat.CategoryCustom, chat.CategoryAction}}, "", []string{m4.ID, editAction.ID, deleteAction.ID}},
		{"type", chat.ListMessagesOptions{Type: chat.MessageTypeImage}, "", []string{m2.ID}},
		{"types", chat.ListMessagesOptions{Types: []chat.MessageType{chat.MessageTypeImage, "poll"}}, "", []string{m2.ID, m4.ID}},
		{"sender", chat.ListMessagesOptions{Sender: "Carl"}, "", []string{m4.ID}},
		{"senders", chat.ListMessagesOptions{Senders: []string{"bob", "carl"}}, "", []string{m2.ID, m4.ID, m5.ID}},
		{"sender with onBehalfOf: common conversations", chat.ListMessagesOptions{Sender: "carl"}, "bob", nil},
		{"receiverType", chat.ListMessagesOptions{ReceiverType: chat.ReceiverGroup}, "", []string{m3.ID, editAction.ID}},
		{"conversationId", chat.ListMessagesOptions{ConversationID: "alice_user_bob"}, "", []string{m1.ID, m2.ID, m5.ID}},
		{"tags", chat.ListMessagesOptions{Tags: []string{"lunch", "greeting"}}, "", []string{m1.ID, m4.ID}},
		{"hideReplies", chat.ListMessagesOptions{HideReplies: true, Category: chat.CategoryMessage}, "", []string{m1.ID, m2.ID, m3.ID}},
		{"hideDeleted", chat.ListMessagesOptions{HideDeleted: true, Senders: []string{"carl"}}, "", nil},
		{"onlyDeleted", chat.ListMessagesOptions{OnlyDeleted: true}, "", []string{m4.ID}},
		{"hasAttachments", chat.ListMessagesOptions{HasAttachments: true}, "", []string{m2.ID}},
		{"attachmentTypes", chat.ListMessagesOptions{AttachmentTypes: chat.AttachmentImage}, "", []string{m2.ID}},
		{"attachmentTypes none", chat.ListMessagesOptions{AttachmentTypes: chat.AttachmentVideo}, "", nil},
		{"hasMentions", chat.ListMessagesOptions{HasMentions: true}, "", []string{m1.ID}},
		{"mentionedUids", chat.ListMessagesOptions{MentionedUIDs: []string{"carl", "bob"}}, "", []string{m1.ID}},
		{"hasLinks", chat.ListMessagesOptions{HasLinks: true}, "", []string{m1.ID}},
		{"hasReactions", chat.ListMessagesOptions{HasReactions: true}, "", []string{m2.ID}},
		{"searchKey", chat.ListMessagesOptions{SearchKey: "TEAM NEWS"}, "", []string{m3.ID}},
		{"fromTimestamp", chat.ListMessagesOptions{FromTimestamp: ts(4)}, "", []string{m5.ID, editAction.ID, deleteAction.ID}},
		{"fromTimestamp and toTimestamp", chat.ListMessagesOptions{FromTimestamp: ts(1), ToTimestamp: ts(2)}, "", []string{m2.ID, m3.ID}},
		{"toTimestamp alone is ignored", chat.ListMessagesOptions{ToTimestamp: ts(0)}, "", all},
		{"sentAt range", chat.ListMessagesOptions{SentFrom: ts(2), SentTo: ts(3)}, "", []string{m3.ID, m4.ID}},
		{"sentAt from", chat.ListMessagesOptions{SentFrom: ts(6)}, "", []string{deleteAction.ID}},
		{"updatedAt range: updated messages only", chat.ListMessagesOptions{UpdatedFrom: ts(0)}, "", []string{m3.ID, m4.ID}},
		{"updatedAt to", chat.ListMessagesOptions{UpdatedTo: ts(5)}, "", []string{m3.ID}},
		{"editedAt range", chat.ListMessagesOptions{EditedFrom: ts(5), EditedTo: ts(5)}, "", []string{m3.ID}},
		{"editedAt none", chat.ListMessagesOptions{EditedFrom: ts(6)}, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Limit = 100
			var reqOpts []chat.RequestOption
			if tc.obo != "" {
				reqOpts = append(reqOpts, chat.OnBehalfOf(tc.obo))
			}
			page, err := client.Messages.List(ctx, &opts, reqOpts...)
			require.NoError(t, err)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, pageIDs(page))
		})
	}

	t.Run("tags shown with withTags only", func(t *testing.T) {
		page, err := client.Messages.List(ctx, &chat.ListMessagesOptions{Tags: []string{"greeting"}})
		require.NoError(t, err)
		require.Len(t, page.Data, 1)
		assert.Empty(t, page.Data[0].Tags)
		page, err = client.Messages.List(ctx, &chat.ListMessagesOptions{Tags: []string{"greeting"}, WithTags: true})
		require.NoError(t, err)
		assert.Equal(t, []string{"greeting"}, page.Data[0].Tags)
	})
	t.Run("hideQuotedMessages", func(t *testing.T) {
		page, err := client.Messages.List(ctx, &chat.ListMessagesOptions{Type: chat.MessageTypeImage})
		require.NoError(t, err)
		require.NotNil(t, page.Data[0].QuotedMessage)
		page, err = client.Messages.List(ctx, &chat.ListMessagesOptions{Type: chat.MessageTypeImage, HideQuotedMessages: true})
		require.NoError(t, err)
		assert.Nil(t, page.Data[0].QuotedMessage)
	})
	t.Run("reactions relative to onBehalfOf", func(t *testing.T) {
		page, err := client.Messages.List(ctx, &chat.ListMessagesOptions{HasReactions: true}, chat.OnBehalfOf("alice"))
		require.NoError(t, err)
		yes := true
		assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 1, ReactedByMe: &yes}}, page.Data[0].Data.Reactions)
	})
	t.Run("default limit and bad parameters", func(t *testing.T) {
		page, err := client.Messages.List(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, 10, page.Meta.Current.Limit)
		_, err = client.Messages.List(ctx, &chat.ListMessagesOptions{ReceiverType: "room"})
		requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		_, err = client.Messages.List(ctx, &chat.ListMessagesOptions{AttachmentTypes: "gif"})
		requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		_, err = client.Messages.List(ctx, &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1001}})
		requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	})
}

func TestUserMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	var withBob []string
	for i := range 5 {
		withBob = append(withBob, send(t, client, "alice", toUser("bob", fmt.Sprint("a", i))).ID)
		send(t, client, "alice", toUser("carl", "to carl"))
		withBob = append(withBob, send(t, client, "bob", toUser("alice", fmt.Sprint("b", i))).ID)
	}

	page, err := client.Messages.ListUserMessages(ctx, "bob", &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 4}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, withBob[:4], pageIDs(page))
	require.NotNil(t, page.Meta.Pagination)
	assert.Equal(t, chat.Pagination{Total: 10, Count: 4, PerPage: 4, CurrentPage: 1, TotalPages: 3}, *page.Meta.Pagination)
	require.NotNil(t, page.Meta.Cursor, "the cursor is in meta, as in the reference's example")
	assert.Equal(t, &chat.Cursor{ID: withBob[3], Direction: chat.DirectionAfter}, page.Meta.Cursor)
	assert.Nil(t, page.Meta.Next)

	var got []string
	for m, err := range client.Messages.AllUserMessages(ctx, "bob", &chat.ListUserMessagesOptions{PerPage: 3}, chat.OnBehalfOf("alice")) {
		require.NoError(t, err)
		got = append(got, m.ID)
	}
	assert.Equal(t, withBob, got, "AllUserMessages follows meta.cursor")

	got = nil
	for m, err := range client.Messages.AllUserMessages(ctx, "alice", &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 3, Direction: chat.DirectionBefore}, ConversationFilters: chat.ConversationFilters{Sender: "bob"}}, chat.OnBehalfOf("bob")) {
		require.NoError(t, err)
		assert.Equal(t, "bob", m.Sender)
		got = append(got, m.ID)
	}
	assert.Equal(t, []string{withBob[9], withBob[7], withBob[5], withBob[3], withBob[1]}, got, "newest first")

	page, err = client.Messages.ListUserMessages(ctx, "carl", nil)
	require.NoError(t, err)
	assert.Len(t, page.Data, 5, "without onBehalfOf: every one-on-one message of carl")
	_, err = client.Messages.ListUserMessages(ctx, "nobody", nil, chat.OnBehalfOf("alice"))
	requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
}

func reactionIDs(p *chat.Page[chat.Reaction]) []string {
	return ids(p.Data, func(r chat.Reaction) string { return r.UID + ":" + r.Reaction })
}

func TestReactions(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	msg := send(t, client, "alice", toUser("bob", "react to me"))

	got, err := client.Messages.AddReaction(ctx, msg.ID, "👍", "bob")
	require.NoError(t, err)
	yes, no := true, false
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 1, ReactedByMe: &yes}}, got.Data.Reactions)
	clk.Set(t0.Add(time.Second))
	got, err = client.Messages.AddReaction(ctx, msg.ID, "👍", "alice")
	require.NoError(t, err)
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2, ReactedByMe: &yes}}, got.Data.Reactions)
	got, err = client.Messages.AddReaction(ctx, msg.ID, "🎉", "alice")
	require.NoError(t, err)
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2, ReactedByMe: &yes}, {Reaction: "🎉", Count: 1, ReactedByMe: &yes}}, got.Data.Reactions)
	again, err := client.Messages.AddReaction(ctx, msg.ID, "🎉", "alice")
	require.NoError(t, err)
	assert.Equal(t, got.Data.Reactions, again.Data.Reactions, "one reaction per user and emoji")

	asBob, err := client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2, ReactedByMe: &yes}, {Reaction: "🎉", Count: 1, ReactedByMe: &no}}, asBob.Data.Reactions)
	asApp, err := client.Messages.Get(ctx, msg.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2}, {Reaction: "🎉", Count: 1}}, asApp.Data.Reactions, "no reactedByMe for the app")

	page, err := client.Messages.ListReactions(ctx, msg.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"bob:👍", "alice:👍", "alice:🎉"}, reactionIDs(page))
	r := page.Data[0]
	assert.Equal(t, msg.ID, r.MessageID)
	assert.Equal(t, chat.TimestampOf(t0), r.ReactedAt)
	require.NotNil(t, r.ReactedBy)
	assert.Equal(t, "Bob", r.ReactedBy.Name)
	assert.Equal(t, &chat.PageCount{Limit: 10, Count: 3}, page.Meta.Current)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, ID: page.Data[2].ID}, page.Meta.Next, "next is {affix, id}")

	page, err = client.Messages.ListReactionsFor(ctx, msg.ID, "👍", nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, []string{"bob:👍", "alice:👍"}, reactionIDs(page))

	var all []string
	for r, err := range client.Messages.AllReactions(ctx, msg.ID, &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Limit: 1}}) {
		require.NoError(t, err)
		all = append(all, r.UID+":"+r.Reaction)
	}
	assert.Equal(t, []string{"bob:👍", "alice:👍", "alice:🎉"}, all)
	all = nil
	for r, err := range client.Messages.AllReactionsFor(ctx, msg.ID, "👍", &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Limit: 1}}) {
		require.NoError(t, err)
		all = append(all, r.UID)
	}
	assert.Equal(t, []string{"bob", "alice"}, all)

	got, err = client.Messages.RemoveReaction(ctx, msg.ID, "👍", "bob")
	require.NoError(t, err)
	assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 1, ReactedByMe: &no}, {Reaction: "🎉", Count: 1, ReactedByMe: &no}}, got.Data.Reactions)
	_, err = client.Messages.RemoveReaction(ctx, msg.ID, "👍", "bob")
	require.NoError(t, err, "removing a reaction one does not have is not an error")
	page, err = client.Messages.ListReactionsFor(ctx, msg.ID, "👍", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"alice:👍"}, reactionIDs(page))

	// A text code with reserved characters travels as one path segment.
	_, err = client.Messages.AddReaction(ctx, msg.ID, ":a/b?c", "bob")
	require.NoError(t, err)
	page, err = client.Messages.ListReactionsFor(ctx, msg.ID, ":a/b?c", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"bob::a/b?c"}, reactionIDs(page))

	_, err = client.Messages.AddReaction(ctx, msg.ID, "👍", "carl")
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.AddReaction(ctx, "999", "👍", "bob")
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.ListReactions(ctx, msg.ID, nil, chat.OnBehalfOf("carl"))
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.Delete(ctx, msg.ID, nil)
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, msg.ID, "👍", "bob")
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)
}

func TestPins(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	msg := send(t, client, "alice", toUser("bob", "pin me"))

	pinned, err := client.Messages.Pin(ctx, msg.ID)
	require.NoError(t, err)
	assert.Equal(t, "app_system", pinned.PinnedBy)
	assert.Equal(t, chat.TimestampOf(t0), pinned.PinnedAt)
	stored, _ := srv.Message(msg.ID)
	assert.Equal(t, "app_system", stored.PinnedBy)
	asBob, err := client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, "app_system", asBob.PinnedBy, "a pin is seen by everyone")

	unpinned, err := client.Messages.Unpin(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err, "any party may unpin")
	assert.Empty(t, unpinned.PinnedBy)
	assert.Zero(t, unpinned.PinnedAt)
	_, err = client.Messages.Unpin(ctx, msg.ID)
	require.NoError(t, err, "unpin is idempotent")

	pinned, err = client.Messages.Pin(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, "bob", pinned.PinnedBy)

	_, err = client.Messages.Pin(ctx, msg.ID, chat.OnBehalfOf("carl"))
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.Pin(ctx, "999")
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Unpin(ctx, "999")
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)

	// 100 pins per conversation, app and user pins together.
	var seeded []string
	for i := range 99 {
		m := srv.AddMessage(chat.Message{Sender: "bob", Receiver: "alice", ReceiverType: chat.ReceiverUser, Data: text(fmt.Sprint(i))})
		seeded = append(seeded, m.ID)
	}
	for _, id := range seeded[:98] {
		_, err := client.Messages.Pin(ctx, id)
		require.NoError(t, err)
	}
	_, err = client.Messages.Pin(ctx, seeded[98], chat.OnBehalfOf("alice"))
	require.NoError(t, err, "the 100th pin")
	_, err = client.Messages.Pin(ctx, seeded[98])
	require.NoError(t, err, "pinning a pinned message again is not a new pin")
	over := send(t, client, "alice", toUser("bob", "one too many"))
	_, err = client.Messages.Pin(ctx, over.ID)
	requireAPIError(t, err, 400, "ERR_PINNED_MESSAGES_LIMIT_EXCEEDED", chat.ErrLimitExceeded)
	other := send(t, client, "alice", toUser("carl", "another conversation"))
	_, err = client.Messages.Pin(ctx, other.ID)
	require.NoError(t, err, "the limit is per conversation")
	_, err = client.Messages.Unpin(ctx, seeded[0])
	require.NoError(t, err)
	_, err = client.Messages.Pin(ctx, over.ID)
	require.NoError(t, err, "a freed slot can be used")
	_, err = client.Messages.Delete(ctx, seeded[1], &chat.DeleteMessageRequest{Permanent: true})
	require.NoError(t, err)
	_, err = client.Messages.Pin(ctx, seeded[0])
	require.NoError(t, err, "a permanently deleted message frees its pin")
}

func TestSaves(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	msg := send(t, client, "alice", toUser("bob", "save me"))

	saved, err := client.Messages.Save(ctx, msg.ID, "bob")
	require.NoError(t, err)
	assert.Equal(t, chat.TimestampOf(t0), saved.SavedAt)
	clk.Set(t0.Add(time.Hour))
	saved, err = client.Messages.Save(ctx, msg.ID, "bob")
	require.NoError(t, err)
	assert.Equal(t, chat.TimestampOf(t0), saved.SavedAt, "the first savedAt stays")

	asBob, err := client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, chat.TimestampOf(t0), asBob.SavedAt)
	asAlice, err := client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Zero(t, asAlice.SavedAt, "savedAt is only for the user who saved")
	asApp, err := client.Messages.Get(ctx, msg.ID)
	require.NoError(t, err)
	assert.Zero(t, asApp.SavedAt)
	view, _ := srv.MessageAs(msg.ID, "bob")
	assert.Equal(t, chat.TimestampOf(t0), view.SavedAt)

	unsaved, err := client.Messages.Unsave(ctx, msg.ID, "bob")
	require.NoError(t, err)
	assert.Zero(t, unsaved.SavedAt)
	_, err = client.Messages.Unsave(ctx, msg.ID, "bob")
	require.NoError(t, err, "unsave is idempotent")

	_, err = client.Messages.Save(ctx, msg.ID, "carl")
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.Save(ctx, "999", "bob")
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)

	// 100 saved messages per user.
	for i := range 100 {
		m := srv.AddMessage(chat.Message{Sender: "alice", Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: text(fmt.Sprint(i))})
		_, err := client.Messages.Save(ctx, m.ID, "bob")
		require.NoError(t, err)
	}
	_, err = client.Messages.Save(ctx, msg.ID, "bob")
	requireAPIError(t, err, 400, "ERR_SAVED_MESSAGES_LIMIT_EXCEEDED", chat.ErrLimitExceeded)
	_, err = client.Messages.Save(ctx, msg.ID, "alice")
	require.NoError(t, err, "the limit is per user")
}

func TestMarkInteracted(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "bot")
	card := &chat.SendMessageRequest{
		Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryInteractive, Type: chat.MessageTypeCard,
		Data: chat.MessageData{
			InteractionGoal: &chat.InteractionGoal{Type: chat.GoalAnyOf, ElementIDs: []string{"yes", "no"}},
			InteractiveData: &chat.InteractiveData{Text: "Lunch?", CardActions: []chat.InteractiveElement{
				{ElementType: chat.ElementButton, ElementID: "yes", ButtonText: "Yes"},
				{ElementType: chat.ElementButton, ElementID: "no", ButtonText: "No"},
			}},
		},
	}
	msg, err := client.Messages.SendAsBot(ctx, "bot", card)
	require.NoError(t, err)

	res, err := client.Messages.MarkInteracted(ctx, msg.ID, "alice", &chat.MarkInteractedRequest{Interactions: []string{"yes"}})
	require.NoError(t, err)
	assert.True(t, res.Success)
	clk.Set(t0.Add(time.Minute))
	_, err = client.Messages.MarkInteracted(ctx, msg.ID, "alice", &chat.MarkInteractedRequest{Interactions: []string{"yes", "no"}})
	require.NoError(t, err)
	got, err := client.Messages.Get(ctx, msg.ID, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, []chat.Interaction{
		{ElementID: "yes", InteractedAt: chat.TimestampOf(t0)},
		{ElementID: "no", InteractedAt: chat.TimestampOf(t0.Add(time.Minute))},
	}, got.Data.Interactions, "an element keeps its first interactedAt")
	asApp, err := client.Messages.Get(ctx, msg.ID)
	require.NoError(t, err)
	assert.Empty(t, asApp.Data.Interactions)

	_, err = client.Messages.MarkInteracted(ctx, msg.ID, "alice", &chat.MarkInteractedRequest{Interactions: []string{"yes", "maybe"}})
	ce := requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.NotEmpty(t, ce.Details["interactions.1"], "details %v", ce.Details)
	_, err = client.Messages.MarkInteracted(ctx, msg.ID, "bot", &chat.MarkInteractedRequest{Interactions: []string{"yes"}})
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)
	_, err = client.Messages.MarkInteracted(ctx, msg.ID, "bob", &chat.MarkInteractedRequest{Interactions: []string{"yes"}})
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	plain := send(t, client, "alice", toUser("bob", "not interactive"))
	_, err = client.Messages.MarkInteracted(ctx, plain.ID, "bob", &chat.MarkInteractedRequest{Interactions: []string{"yes"}})
	requireAPIError(t, err, 400, "ERR_MESSAGE_ACTION_NOT_ALLOWED", chat.ErrForbidden)
	_, err = client.Messages.MarkInteracted(ctx, "999", "bob", &chat.MarkInteractedRequest{Interactions: []string{"yes"}})
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)

	// The sender may interact when allowed; custom content declares its
	// elements anywhere.
	allow := true
	custom, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "alice", ReceiverType: chat.ReceiverUser, Category: chat.CategoryInteractive, Type: chat.MessageTypeCustomInteractive,
		Data: chat.MessageData{AllowSenderInteraction: &allow, InteractiveData: &chat.InteractiveData{
			Raw: []byte(`{"widget":{"stars":[{"elementId":"star-1"},{"elementId":"star-2"}]}}`),
		}},
	}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"widget":{"stars":[{"elementId":"star-1"},{"elementId":"star-2"}]}}`, string(custom.Data.InteractiveData.Raw))
	_, err = client.Messages.MarkInteracted(ctx, custom.ID, "bob", &chat.MarkInteractedRequest{Interactions: []string{"star-2"}})
	require.NoError(t, err)
}

func TestThreadsList(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	srv.AddGroup(chat.Group{GUID: "team"}, "alice", "carl")
	p1 := send(t, client, "alice", toUser("bob", "thread 1"))
	p2 := send(t, client, "alice", toGroup("team", "thread 2"))
	send(t, client, "alice", toUser("bob", "no replies"))
	clk.Set(t0.Add(time.Minute))
	_, err := client.Messages.SendThread(ctx, p2.ID, "carl", toGroup("team", "r2"))
	require.NoError(t, err)
	clk.Set(t0.Add(2 * time.Minute))
	last, err := client.Messages.SendThread(ctx, p1.ID, "bob", toUser("alice", "r1"))
	require.NoError(t, err)

	page, err := client.Messages.ListThreads(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{p2.ID, p1.ID}, pageIDs(page), "by updatedAt, oldest first")
	assert.Equal(t, &chat.PageCount{Limit: 100, Count: 2}, page.Meta.Current)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, UpdatedAt: chat.TimestampOf(t0.Add(2 * time.Minute))}, page.Meta.Next)
	thread := page.Data[1]
	assert.Equal(t, 1, thread.ReplyCount)
	require.NotNil(t, thread.LastReply)
	assert.Equal(t, last.ID, thread.LastReply.ID)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), thread.UpdatedAt, "a reply moves the thread's updatedAt")

	page, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Direction: chat.DirectionBefore}})
	require.NoError(t, err)
	assert.Equal(t, []string{p1.ID, p2.ID}, pageIDs(page))

	page, err = client.Messages.ListThreads(ctx, nil, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	assert.Equal(t, []string{p1.ID}, pageIDs(page), "only the user's conversations")
	page, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{ParticipatedByMe: true}, chat.OnBehalfOf("carl"))
	require.NoError(t, err)
	assert.Equal(t, []string{p2.ID}, pageIDs(page))
	page, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{ParticipatedByMe: true}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, []string{p2.ID, p1.ID}, pageIDs(page), "alice sent both parents")

	page, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{UpdatedAt: chat.TimestampOf(t0.Add(2 * time.Minute))}})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), page.Meta.Next.UpdatedAt, "an empty page keeps the cursor")

	_, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 1001}})
	requireAPIError(t, err, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest)
}

func TestAllThreadsWithTies(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	ctx := t.Context()
	seed(srv, "alice", "bob")
	// 3 threads updated at t0, 4 at t0+1m, 1 at t0+2m, 5 at t0+3m.
	var want []string
	for i, n := range []int{3, 4, 1, 5} {
		clk.Set(t0.Add(time.Duration(i) * time.Minute))
		for range n {
			p := send(t, client, "alice", toUser("bob", "parent"))
			_, err := client.Messages.SendThread(ctx, p.ID, "bob", toUser("alice", "reply"))
			require.NoError(t, err)
			want = append(want, p.ID)
		}
	}
	for _, limit := range []int{1, 2, 3, 4, 6, 100} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			var got []string
			for m, err := range client.Messages.AllThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: limit}}) {
				require.NoError(t, err)
				got = append(got, m.ID)
			}
			assert.Equal(t, want, got, "every thread once")

			var back []string
			for m, err := range client.Messages.AllThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: limit, Direction: chat.DirectionBefore}}) {
				require.NoError(t, err)
				back = append(back, m.ID)
			}
			rev := slices.Clone(want)
			slices.Reverse(rev)
			assert.Equal(t, rev, back)
		})
	}
	page, err := client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 2}})
	require.NoError(t, err)
	assert.Equal(t, want[:3], pageIDs(page), "a run of equal updatedAt larger than the limit comes whole")
	page, err = client.Messages.ListThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 5}})
	require.NoError(t, err)
	assert.Equal(t, want[:3], pageIDs(page), "a page ends before a run it would cut")
}

func TestThreadSubscriptions(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	p := send(t, client, "alice", toUser("bob", "parent"))
	reply, err := client.Messages.SendThread(ctx, p.ID, "bob", toUser("alice", "reply"))
	require.NoError(t, err)

	res, err := client.Messages.SubscribeThread(ctx, p.ID, "bob")
	require.NoError(t, err)
	assert.Equal(t, &chat.Result{Success: true}, res)
	_, err = client.Messages.SubscribeThread(ctx, p.ID, "bob")
	require.NoError(t, err, "idempotent")
	_, err = client.Messages.SubscribeThread(ctx, p.ID, "alice")
	require.NoError(t, err)
	assert.Equal(t, []string{"alice", "bob"}, srv.ThreadSubscribers(p.ID))

	res, err = client.Messages.UnsubscribeThread(ctx, p.ID, "bob")
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = client.Messages.UnsubscribeThread(ctx, p.ID, "bob")
	require.NoError(t, err, "idempotent")
	assert.Equal(t, []string{"alice"}, srv.ThreadSubscribers(p.ID))

	_, err = client.Messages.SubscribeThread(ctx, reply.ID, "bob")
	requireAPIError(t, err, 400, "ERR_MESSAGE_THREAD_NESTING", chat.ErrBadRequest)
	_, err = client.Messages.SubscribeThread(ctx, p.ID, "carl")
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.SubscribeThread(ctx, "999", "bob")
	requireAPIError(t, err, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound)
	assert.Nil(t, srv.ThreadSubscribers("999"))
}

func TestFlagMessage(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam"})
	_, err := client.Moderation.CreateReason(ctx, &chat.CreateReasonRequest{ID: "harassment", Name: "Harassment"})
	require.NoError(t, err)
	msg := send(t, client, "alice", toUser("bob", "buy now"))

	res, err := client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam", Remark: "ads"})
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(res.Raw), "the reference's answer is an empty object")
	assert.Equal(t, []chattest.MessageFlag{{UID: "bob", ReasonID: "spam", Remark: "ads", FlaggedAt: chat.TimestampOf(t0)}}, srv.MessageFlags(msg.ID))
	_, err = client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "harassment"})
	require.NoError(t, err)
	assert.Equal(t, []chattest.MessageFlag{{UID: "bob", ReasonID: "harassment", FlaggedAt: chat.TimestampOf(t0)}}, srv.MessageFlags(msg.ID), "a second flag replaces the first")

	_, err = client.Messages.Flag(ctx, msg.ID, "carl", &chat.FlagMessageRequest{ReasonID: "spam"})
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound) // as if it did not exist
	_, err = client.Messages.Flag(ctx, "999", "bob", &chat.FlagMessageRequest{ReasonID: "spam"})
	requireAPIError(t, err, 404, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "boring"})
	requireAPIError(t, err, 404, "ERR_REASON_NOT_FOUND", chat.ErrNotFound)
	_, err = client.Moderation.DeleteReason(ctx, "spam")
	require.NoError(t, err)
	_, err = client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam"})
	requireAPIError(t, err, 404, "ERR_REASON_NOT_FOUND", chat.ErrNotFound)

	// The SDK refuses an empty reason; the fake does too.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/v3/messages/"+msg.ID+"/flagged", strings.NewReader(`{"remark":"x"}`))
	require.NoError(t, err)
	req.Header.Set("apikey", srv.APIKey())
	req.Header.Set("onBehalfOf", "bob")
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Nil(t, srv.MessageFlags("999"))
}

func TestAddMessage(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	m := srv.AddMessage(chat.Message{ID: "ignored", Sender: "Alice", Receiver: "BOB", ReceiverType: chat.ReceiverUser,
		Data:     chat.MessageData{Text: "seeded", Reactions: []chat.ReactionCount{{Reaction: "x", Count: 9}}},
		PinnedBy: "app_system", PinnedAt: 5, SavedAt: 6, ReplyCount: 9, Tags: []string{"t"}})
	assert.Equal(t, "1", m.ID)
	assert.Equal(t, "alice", m.Sender)
	assert.Equal(t, "bob", m.Receiver)
	assert.Equal(t, "alice_user_bob", m.ConversationID)
	assert.Equal(t, chat.CategoryMessage, m.Category)
	assert.Equal(t, chat.MessageTypeText, m.Type)
	assert.Equal(t, chat.TimestampOf(t0), m.SentAt)
	assert.Equal(t, m.SentAt, m.UpdatedAt)
	assert.Equal(t, chat.Timestamp(5), m.PinnedAt)
	assert.Zero(t, m.SavedAt)
	assert.Zero(t, m.ReplyCount)
	assert.Nil(t, m.Data.Reactions, "reactions are computed")

	reply := srv.AddMessage(chat.Message{Sender: "bob", Receiver: "alice", ReceiverType: chat.ReceiverUser, ParentID: m.ID, SentAt: 7, Data: text("seeded reply")})
	assert.Equal(t, m.ID, reply.ParentID)
	assert.Equal(t, chat.Timestamp(7), reply.SentAt)
	nested := srv.AddMessage(chat.Message{Sender: "bob", ParentID: reply.ID})
	assert.Empty(t, nested.ParentID, "a reply cannot have a thread")
	assert.Equal(t, "app_system", srv.AddMessage(chat.Message{Receiver: "bob", ReceiverType: chat.ReceiverUser}).Sender)

	page, err := client.Messages.ListThreadMessages(ctx, m.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{reply.ID}, pageIDs(page))
	got, err := client.Messages.Get(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, got.ReplyCount)
	assert.Equal(t, []string{"t"}, got.Tags)

	_, ok := srv.MessageAs("999", "bob")
	assert.False(t, ok)
}

func TestUserDeletionForgetsTheirMarks(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carl")
	srv.AddGroup(chat.Group{GUID: "team"}, "alice", "bob", "carl")
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam"})
	msg := send(t, client, "alice", toGroup("team", "hello"))
	_, err := client.Messages.AddReaction(ctx, msg.ID, "👍", "bob")
	require.NoError(t, err)
	_, err = client.Messages.Save(ctx, msg.ID, "bob")
	require.NoError(t, err)
	_, err = client.Messages.SubscribeThread(ctx, msg.ID, "bob")
	require.NoError(t, err)
	_, err = client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam"})
	require.NoError(t, err)
	_, err = client.Messages.Pin(ctx, msg.ID, chat.OnBehalfOf("bob"))
	require.NoError(t, err)

	_, err = client.Users.Delete(ctx, "bob", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	got, ok := srv.Message(msg.ID)
	require.True(t, ok)
	assert.Empty(t, got.Data.Reactions)
	assert.Empty(t, srv.ThreadSubscribers(msg.ID))
	assert.Empty(t, srv.MessageFlags(msg.ID))
	assert.Equal(t, "bob", got.PinnedBy, "a pin belongs to the conversation")
}

func ExampleServer_AddMessage() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	// Seed a conversation with a thread, then read it through the API.
	parent := srv.AddMessage(chat.Message{Sender: "alice", Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Ready for the demo?"}})
	srv.AddMessage(chat.Message{Sender: "bob", Receiver: "alice", ReceiverType: chat.ReceiverUser, ParentID: parent.ID,
		Data: chat.MessageData{Text: "Almost."}})

	got, err := srv.Client().Messages.Get(context.Background(), parent.ID, chat.OnBehalfOf("bob"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(got.ConversationID, got.ReplyCount, got.LastReply.Data.Text)
	// Output:
	// alice_user_bob 1 Almost.
}

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
