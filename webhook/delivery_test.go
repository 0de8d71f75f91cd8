package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

func TestNewEnvelope(t *testing.T) {
	msg := chat.Message{ID: "1", Sender: "alice", Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}
	cases := []struct {
		name     string
		trigger  webhook.Trigger
		data     any
		wantData string
		wantType string
	}{
		{"an event", webhook.TriggerMessageSent, &webhook.MessageEvent{Message: msg},
			`{"message":{"id":"1","sender":"alice","receiverType":"user","receiver":"bob","data":{"text":"hi"}}}`, ""},
		{"a map", webhook.TriggerCallStarted, map[string]any{"sessionId": "s1", "created_at": 1},
			`{"created_at":1,"sessionId":"s1"}`, "call"},
		{"raw JSON", webhook.TriggerMeetingEnded, json.RawMessage(`{"sessionId":"s1"}`), `{"sessionId":"s1"}`, "meet"},
		{"bytes", webhook.TriggerRecordingGenerated, []byte(`{"duration":"1.5"}`), `{"duration":"1.5"}`, ""},
		{"nil", "poll_created", nil, `{}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, err := webhook.NewEnvelope(tc.trigger, tc.data)
			require.NoError(t, err)
			assert.Equal(t, string(tc.trigger), env.Trigger)
			assert.JSONEq(t, tc.wantData, string(env.Data))
			assert.Equal(t, tc.wantType, env.Type)
			assert.Empty(t, env.AppID)
		})
	}

	_, err := webhook.NewEnvelope(webhook.TriggerMessageSent, []byte(`{"message":`))
	assert.ErrorContains(t, err, "not valid JSON")
	_, err = webhook.NewEnvelope(webhook.TriggerMessageSent, make(chan int))
	assert.ErrorContains(t, err, "encoding the data")
}

func TestNewEnvelopeRoundTrip(t *testing.T) {
	// An event built by hand decodes back through an envelope.
	want := &webhook.RecordingEvent{SessionID: "s1", RecordingURL: "https://example.com/r.mp4", Duration: 21.433, StartTime: 1696934692}
	env, err := webhook.NewEnvelope(webhook.TriggerRecordingGenerated, want)
	require.NoError(t, err)
	ev, err := webhook.DecodeEnvelope(env)
	require.NoError(t, err)
	got := as[*webhook.RecordingEvent](t, ev)
	assert.Same(t, env, got.Envelope())
	want.Delivery, want.Raw = env, env.Data
	assert.Equal(t, want, got)

	_, err = webhook.DecodeEnvelope(nil)
	assert.ErrorIs(t, err, webhook.ErrInvalidPayload)
}

func TestNewDelivery(t *testing.T) {
	ctx := context.Background()
	req, err := webhook.NewDelivery(ctx, "https://example.com/hook", webhook.TriggerMessageSent,
		&webhook.MessageEvent{Message: chat.Message{ID: "1", Data: chat.MessageData{Text: "hi"}}}, hookUser, hookPassword)
	require.NoError(t, err)
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "https://example.com/hook", req.URL.String())
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	user, pass, ok := req.BasicAuth()
	assert.True(t, ok)
	assert.Equal(t, hookUser, user)
	assert.Equal(t, hookPassword, pass)
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	assert.JSONEq(t, `{"trigger":"message_sent","data":{"message":{"id":"1","data":{"text":"hi"}}},"appId":"","region":"","webhook":""}`, string(body))

	// What it builds is what a Verifier accepts.
	req, err = webhook.NewDelivery(ctx, "https://example.com/hook", webhook.TriggerMessageSent,
		&webhook.MessageEvent{Message: chat.Message{ID: "1", Data: chat.MessageData{Text: "hi"}}}, hookUser, hookPassword)
	require.NoError(t, err)
	ev, err := verifier().Verify(req)
	require.NoError(t, err)
	assert.Equal(t, "hi", as[*webhook.MessageEvent](t, ev).Message.Data.Text)

	// Without a username, no Authorization header.
	req, err = webhook.NewDelivery(ctx, "https://example.com/hook", webhook.TriggerCallStarted, nil, "", "")
	require.NoError(t, err)
	assert.Empty(t, req.Header.Get("Authorization"))

	_, err = webhook.NewDelivery(ctx, "https://example.com/hook", webhook.TriggerCallStarted, []byte("{"), "", "")
	assert.EqualError(t, err, "webhook: NewEnvelope: data is not valid JSON")
	_, err = webhook.NewDelivery(ctx, "://bad url", webhook.TriggerCallStarted, nil, "", "")
	var ue *url.Error
	if assert.ErrorAs(t, err, &ue) {
		assert.Equal(t, "parse", ue.Op)
		assert.Equal(t, "://bad url", ue.URL)
	}
	_, err = webhook.NewRequest(ctx, "https://example.com/hook", nil, "", "")
	assert.EqualError(t, err, "webhook: NewRequest: env must not be nil")
}
