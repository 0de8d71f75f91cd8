package chattest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/webhook"
)

// A user's client opening the client API's websocket brings them online,
// and closing it takes them offline: a webhook subscribed to
// user_connection_status_changed gets both, and one that is not gets
// neither.
func TestWebhookUserConnectionStatusChanged(t *testing.T) {
	connected := time.Date(2026, 3, 1, 9, 30, 0, 250e6, time.UTC)
	var now atomic.Int64 // the server's clock, Unix nanoseconds
	now.Store(connected.UnixNano())
	tr := chattest.NewMemTransport()
	srv := chattest.NewServer(chattest.WithRealtime(tr), chattest.WithClock(func() time.Time { return time.Unix(0, now.Load()) }))
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice", Role: "pro"})
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "presence", recv.URL, webhook.TriggerUserConnectionStatusChanged)
	other := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "messages", other.URL, webhook.TriggerMessageSent, webhook.TriggerUserBlocked)

	s := online(t, tr, srv, client, "alice", "")
	ev := recv.next(t)
	on, ok := ev.(*webhook.UserConnectionEvent)
	require.True(t, ok, "a %T", ev)
	assert.Equal(t, webhook.TriggerUserConnectionStatusChanged, on.Trigger())
	assert.Equal(t, "presence", on.Envelope().Webhook)
	assert.Equal(t, connected, on.Timestamp.Time().UTC())
	assert.Equal(t, chat.User{UID: "alice", Name: "Alice", Status: chat.UserAvailable, Role: "pro"}, on.User)
	assert.Equal(t, chat.UserAvailable, on.Status)
	assert.Equal(t, webhook.Connection{Action: "connected", Platform: "javascript", ConnectedAt: webhook.Millis(connected.UnixMilli())},
		on.CurrentConnection)
	assert.True(t, on.UserPresenceChanged)

	// Ten minutes later the client closes its websocket.
	now.Add(int64(10 * time.Minute))
	require.NoError(t, s.Close(context.Background(), 1000, "bye"))
	ev = recv.next(t)
	off, ok := ev.(*webhook.UserConnectionEvent)
	require.True(t, ok, "a %T", ev)
	assert.Equal(t, connected.Add(10*time.Minute), off.Timestamp.Time().UTC())
	assert.Equal(t, chat.User{UID: "alice", Name: "Alice", Status: chat.UserOffline, Role: "pro"}, off.User)
	assert.Equal(t, chat.UserOffline, off.Status)
	assert.Equal(t, webhook.Connection{Action: "disconnected", Platform: "javascript", ConnectedAt: webhook.Millis(connected.UnixMilli())},
		off.CurrentConnection, "the websocket that closed, connected ten minutes before")
	assert.True(t, off.UserPresenceChanged)

	awaitHooks(t, srv, 2)
	for _, d := range srv.Deliveries() {
		assert.Equal(t, "presence", d.WebhookID, "%s went to %s", d.Trigger, d.WebhookID)
	}
	assert.Zero(t, other.hits.Load())
}
