package webhooks_test

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/webhooks"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// A message sent is one event of its change, which the webhooks render as
// one trigger, delivered once to the webhook that listens to it.
func TestOneDeliveryPerEvent(t *testing.T) {
	hooks := webhooks.NewEvents(false)
	cfg := fake.DefaultConfig()
	cfg.Consumers = append(cfg.Consumers, hooks.Subscriber)
	cfg.Check()
	core, err := fake.Open(cfg)
	require.NoError(t, err)
	api, mgmt := httptest.NewServer(core), httptest.NewServer(core.Management())
	defer func() {
		hooks.Stop()
		mgmt.Close()
		api.Close()
		require.NoError(t, core.Close())
	}()
	core.AddUser(chat.User{UID: "alice", Name: "Alice"})
	core.AddUser(chat.User{UID: "bob", Name: "Bob"})

	mc, err := management.NewClient(core.ManagementKey(), core.ManagementSecret(), chat.WithBaseURL(mgmt.URL), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	_, err = mc.Webhooks.Create(t.Context(), core.AppID(), &management.CreateWebhookRequest{ID: "h", Name: "h", URL: "http://127.0.0.1:1/hook"})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), core.AppID(), "h", []webhook.Trigger{webhook.TriggerMessageSent})
	require.NoError(t, err)
	client, err := chat.NewClient(core.AppID(), core.APIKey(), chat.WithBaseURL(api.URL), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	_, err = client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	require.NoError(t, hooks.Await(t.Context(), 1))
	d := hooks.Deliveries()
	require.Len(t, d, 1, "the webhooks rendered it as one trigger")
	assert.Equal(t, "message_sent", d[0].Trigger)
	assert.Equal(t, "h", d[0].WebhookID)
}
