package chattest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// seen is what a consumer of the outbox read of one event.
type seen struct {
	seq      uint64
	triggers []string
}

// A consumer subscribed to the outbox reads one event per change, in
// order, each holding what the change fired: nothing else tells it.
func TestOutboxOneEventPerChange(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	var got []seen
	st := srv.st
	st.mu.Lock()
	st.out.subscribe(func(e *event) {
		s := seen{seq: e.seq}
		for _, h := range e.hooks {
			s.triggers = append(s.triggers, h.trigger)
		}
		got = append(got, s)
	})
	st.mu.Unlock()
	events := func() []seen {
		st.mu.Lock()
		defer st.mu.Unlock()
		return append([]seen(nil), got...)
	}

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"}) // a seeding call: one event
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err := mc.Webhooks.Create(t.Context(), srv.AppID(), &management.CreateWebhookRequest{ID: "h", Name: "h", URL: "http://127.0.0.1:1/hook"})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), srv.AppID(), "h", []webhook.Trigger{webhook.TriggerMessageSent})
	require.NoError(t, err)
	before := len(events())
	client := srv.Client(chat.WithoutRetries())
	_, err = client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Users.Get(t.Context(), "bob") // a read: an event that fired nothing
	require.NoError(t, err)
	_, err = client.Users.Get(t.Context(), "nobody")
	require.Error(t, err)

	all := events()
	require.Len(t, all, before+3)
	for i, e := range all {
		assert.Equal(t, uint64(i+1), e.seq, "in order, none missing")
	}
	assert.Equal(t, []seen{{seq: 1}, {seq: 2}}, all[:2], "the seeding calls")
	assert.Equal(t, []string{"message_sent"}, all[before].triggers, "the send fired message_sent, once")
	assert.Empty(t, all[before+1].triggers)
	assert.Empty(t, all[before+2].triggers)
}
