package chattest_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
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

// triggersFired lists the triggers of the deliveries made so far, in
// order.
func triggersFired(srv *chattest.Server) []string {
	var out []string
	for _, d := range srv.Deliveries() {
		out = append(out, d.Trigger)
	}
	return out
}

// TestWebhookReceiptsToAll: the mark that makes a one-on-one message
// received, or read, by its recipient fires message_delivered_to_all or
// message_read_by_all, once, with the receipt's shape; a read mark makes it
// received too; the sender's own marks fire nothing.
func TestWebhookReceiptsToAll(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "to-all", recv.URL, webhook.TriggerMessageDeliveredToAll, webhook.TriggerMessageReadByAll)

	first, err := client.Messages.Send(ctx, toUser("bob", "lunch?"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Conversations.MarkUserDelivered(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	re, ok := recv.next(t).(*webhook.ReceiptEvent)
	require.True(t, ok)
	assert.Equal(t, webhook.TriggerMessageDeliveredToAll, re.Trigger())
	assert.Equal(t, "alice", re.Receiver, "to the message's sender")
	assert.Equal(t, chat.ReceiverUser, re.ReceiverType)
	assert.Equal(t, "receipts", re.Type)
	assert.Equal(t, "bob", re.Sender, "from the recipient who completed it")
	assert.Equal(t, "alice", re.MessageSender)
	assert.Equal(t, webhook.Receipt{Action: webhook.ReceiptDeliveredToAll, MessageID: first.ID,
		User: chat.User{UID: "bob", Name: "Bob", Status: chat.UserOffline}, Timestamp: chat.TimestampOf(t0)}, re.Body)

	_, err = client.Conversations.MarkUserDelivered(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	_, err = client.Conversations.MarkUserRead(ctx, "bob", "alice", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"message_delivered_to_all"}, triggersFired(srv), "a mark made again, or the sender's, fires nothing")

	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	re = recv.next(t).(*webhook.ReceiptEvent)
	assert.Equal(t, webhook.TriggerMessageReadByAll, re.Trigger())
	assert.Equal(t, webhook.ReceiptReadByAll, re.Body.Action)
	assert.Equal(t, first.ID, re.Body.MessageID)

	// Reading a message not yet received makes it received and read.
	second, err := client.Messages.Send(ctx, toUser("bob", "noon?"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", nil)
	require.NoError(t, err)
	for _, want := range []webhook.Trigger{webhook.TriggerMessageDeliveredToAll, webhook.TriggerMessageReadByAll} {
		re = recv.next(t).(*webhook.ReceiptEvent)
		assert.Equal(t, want, re.Trigger())
		assert.Equal(t, second.ID, re.Body.MessageID)
	}
	assert.Len(t, srv.Deliveries(), 4)
}

// TestWebhookGroupReceiptsToAll: in a group, the to-all triggers fire when
// the last member who had joined when the message was sent (active, not
// its sender) receives or reads it; later members and deactivated ones do
// not count.
func TestWebhookGroupReceiptsToAll(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	seed(srv, "alice", "bob", "carol", "dave", "erin")
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Type: chat.GroupPublic, Owner: "alice"}, "bob", "carol", "erin")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "to-all", recv.URL, webhook.TriggerMessageDeliveredToAll, webhook.TriggerMessageReadByAll)
	_, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"erin"}})
	require.NoError(t, err)

	clk.Set(t0.Add(time.Minute))
	sent, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup,
		Data: chat.MessageData{Text: "standup"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	clk.Set(t0.Add(2 * time.Minute))
	_, err = client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"dave"}})
	require.NoError(t, err)

	// The message marked is the one sent, not the action message of
	// dave's joining (which dave received).
	id := mustID(t, sent.ID)
	_, err = client.Conversations.MarkGroupRead(ctx, "team", "bob", &chat.MarkReadRequest{MessageID: id})
	require.NoError(t, err)
	assert.Empty(t, triggersFired(srv), "carol has not received it")
	_, err = client.Conversations.MarkGroupDelivered(ctx, "team", "carol", &chat.MarkDeliveredRequest{MessageID: id})
	require.NoError(t, err)
	re, ok := recv.next(t).(*webhook.ReceiptEvent)
	require.True(t, ok)
	assert.Equal(t, webhook.TriggerMessageDeliveredToAll, re.Trigger())
	assert.Equal(t, "team", re.Receiver)
	assert.Equal(t, chat.ReceiverGroup, re.ReceiverType)
	assert.Equal(t, "carol", re.Sender)
	assert.Equal(t, sent.ID, re.Body.MessageID)

	_, err = client.Conversations.MarkGroupRead(ctx, "team", "carol", &chat.MarkReadRequest{MessageID: id})
	require.NoError(t, err)
	re = recv.next(t).(*webhook.ReceiptEvent)
	assert.Equal(t, webhook.TriggerMessageReadByAll, re.Trigger())
	assert.Equal(t, "carol", re.Body.User.UID)
	assert.Equal(t, []string{"message_delivered_to_all", "message_read_by_all"}, triggersFired(srv))
}

// TestWebhookReceiptUser: the user of every receipt delivery (the two
// receipts and the two to-all triggers) carries hasBlockedMe when the
// reader blocked the message's sender, and no deactivatedAt for an active
// user, as the service sends them.
func TestWebhookReceiptUser(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	triggers := []webhook.Trigger{webhook.TriggerMessageDeliveryReceipt, webhook.TriggerMessageDeliveredToAll,
		webhook.TriggerMessageReadReceipt, webhook.TriggerMessageReadByAll}
	hookTo(t, srv, "receipts", recv.URL, triggers...)

	_, err := client.Messages.Send(ctx, toUser("bob", "hi bob"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, toUser("carol", "hi carol"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Blocked.Block(ctx, "bob", &chat.BlockUsersRequest{BlockedUIDs: []string{"alice"}})
	require.NoError(t, err)

	for _, reader := range []struct {
		uid     string
		blocked bool
	}{{"bob", true}, {"carol", false}} {
		t.Run(reader.uid, func(t *testing.T) {
			from := len(srv.Deliveries())
			_, err := client.Conversations.MarkUserDelivered(ctx, "alice", reader.uid, nil)
			require.NoError(t, err)
			_, err = client.Conversations.MarkUserRead(ctx, "alice", reader.uid, nil)
			require.NoError(t, err)
			for _, want := range triggers {
				re, ok := recv.next(t).(*webhook.ReceiptEvent)
				require.True(t, ok)
				assert.Equal(t, want, re.Trigger())
				assert.Equal(t, reader.uid, re.Body.User.UID)
				assert.Equal(t, reader.blocked, re.Body.User.HasBlockedMe, "%s: hasBlockedMe", want)
				assert.Zero(t, re.Body.User.DeactivatedAt)
			}
			u, _ := srv.User(reader.uid)
			sent := srv.Deliveries()[from:]
			require.Len(t, sent, len(triggers))
			for _, d := range sent {
				var payload struct {
					Body struct {
						User map[string]any `json:"user"`
					} `json:"body"`
				}
				require.NoError(t, json.Unmarshal(d.Data, &payload))
				want := map[string]any{"uid": reader.uid, "name": u.Name, "status": "offline"}
				if reader.blocked {
					want["hasBlockedMe"] = true
				}
				assert.Equal(t, want, payload.Body.User, "%s, as sent", d.Trigger)
			}
		})
	}
}
