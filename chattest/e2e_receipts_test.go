package chattest_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// TestWebhookReceipts: marking a conversation delivered and read fires
// message_delivery_receipt and message_read_receipt, received typed, with
// the reader as the receipt's sender and the message's sender as its
// receiver; marks with nobody listening fire nothing.
func TestWebhookReceipts(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()

	first, err := client.Messages.Send(ctx, toUser("bob", "before the hook"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	assert.Empty(t, srv.Deliveries(), "no webhook listens yet")

	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "receipts", recv.URL, webhook.TriggerMessageDeliveryReceipt, webhook.TriggerMessageReadReceipt)
	sent, err := client.Messages.Send(ctx, toUser("bob", "after the hook"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	require.NotEqual(t, first.ID, sent.ID)

	_, err = client.Conversations.MarkUserDelivered(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	ev := recv.next(t)
	re, ok := ev.(*webhook.ReceiptEvent)
	require.True(t, ok, "a %T", ev)
	assert.Equal(t, webhook.TriggerMessageDeliveryReceipt, re.Trigger())
	assert.Equal(t, "bob", re.Sender, "the receipt comes from the reader")
	assert.Equal(t, "alice", re.Receiver, "and goes to the message's sender")
	assert.Equal(t, chat.ReceiverUser, re.ReceiverType)
	assert.Equal(t, "alice", re.MessageSender)
	assert.Equal(t, "receipts", re.Type)
	assert.Equal(t, "delivered", re.Body.Action)
	assert.Equal(t, sent.ID, re.Body.MessageID)
	assert.Equal(t, "bob", re.Body.User.UID)
	assert.NotZero(t, re.Body.Timestamp)

	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: mustID(t, sent.ID)})
	require.NoError(t, err)
	ev = recv.next(t)
	re, ok = ev.(*webhook.ReceiptEvent)
	require.True(t, ok, "a %T", ev)
	assert.Equal(t, webhook.TriggerMessageReadReceipt, re.Trigger())
	assert.Equal(t, "read", re.Body.Action)
	assert.Equal(t, sent.ID, re.Body.MessageID)
}

// TestWebhookGroupReceipts: in a group the receipt's receiver is the group.
func TestWebhookGroupReceipts(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Type: chat.GroupPublic, Owner: "alice"}, "bob")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "receipts", recv.URL, webhook.TriggerMessageReadReceipt)

	sent, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup,
		Data: chat.MessageData{Text: "standup"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Conversations.MarkGroupRead(ctx, "team", "bob", nil)
	require.NoError(t, err)

	re, ok := recv.next(t).(*webhook.ReceiptEvent)
	require.True(t, ok)
	assert.Equal(t, "team", re.Receiver)
	assert.Equal(t, chat.ReceiverGroup, re.ReceiverType)
	assert.Equal(t, "bob", re.Sender)
	assert.Equal(t, "alice", re.MessageSender)
	assert.Equal(t, sent.ID, re.Body.MessageID)
}

func mustID(t *testing.T, id string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(id, 10, 64)
	require.NoError(t, err)
	return n
}
