package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// serviceDelivery returns the body of a delivery the live service made,
// kept in testdata/service/name.json.
func serviceDelivery(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "service", name+".json"))
	require.NoError(t, err)
	return b
}

// TestDecodeServiceDeliveries decodes deliveries as the live service sent
// them, with what the reference does not list, and checks what a receiver
// reads.
func TestDecodeServiceDeliveries(t *testing.T) {
	cases := []struct {
		name  string
		check func(t *testing.T, ev webhook.Event)
	}{
		{"user-connection-status-changed", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.UserConnectionEvent](t, ev)
			assert.Equal(t, webhook.Connection{
				Action: "connected", Platform: "javascript", ConnectedAt: 1718804540012,
				AppInfo: webhook.AppInfo{Version: "4.0.11", APIVersion: "3.0", Origin: "https://app.example.com",
					UTS: 1718804539870, ClientIP: "203.0.113.7"},
				UserAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
			}, e.CurrentConnection)
			assert.Equal(t, time.UnixMilli(1718804539870), e.CurrentConnection.AppInfo.UTS.Time())
			assert.Equal(t, chat.UserAvailable, e.Status)
			assert.True(t, e.UserPresenceChanged)
		}},
		{"call-participant-joined", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ParticipantEvent](t, ev)
			assert.Equal(t, webhook.Occupant{Name: "Andrew Joseph", JoinedAt: 1718804600}, e.Occupant)
			require.NotNil(t, e.InitialConfig)
			assert.Equal(t, webhook.CallConfig{
				IsAudioMuted: "false", IsVideoMuted: "true", IsAudioOnly: "false", Mode: "DEFAULT", SDK: "javascript",
				Platform: "web", CallVersion: "v2", StartRecordingOnCallStart: "false",
			}, *e.InitialConfig)
			assert.True(t, e.InitialConfig.IsVideoMuted.Bool())
			assert.False(t, e.InitialConfig.IsAudioMuted.Bool())
			assert.Equal(t, "call", e.Envelope().Type)
		}},
		{"moderation-engine-approved", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ModerationEvent](t, ev)
			assert.Equal(t, "approved", e.Status())
			require.Len(t, e.Moderation, 1)
			match := e.Moderation[0]
			require.NotNil(t, match.Filter)
			assert.Equal(t, webhook.ModerationFilter{
				ObjectID: "6672f0c1e4b0a1d2c3e4f5a6", Type: chat.RuleFilterSender, Entity: chat.RuleFilterUser,
				Operand: "role", Operator: chat.FilterEquals, Value: json.RawMessage(`"trusted"`),
			}, *match.Filter)
			assert.Zero(t, match.Condition, "a filter matched, not a condition")
			assert.Equal(t, webhook.ModerationRule{ID: "trusted-senders", Name: "Trusted senders", RevisionID: "rev-3",
				Action: []string{"approveMessage"}}, match.Rule)
		}},
		{"message-delivery-receipt", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ReceiptEvent](t, ev)
			assert.Equal(t, webhook.Receipt{Action: webhook.ReceiptDelivered, MessageID: "812", Timestamp: 1718804710,
				User: chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserAvailable,
					HasBlockedMe: true, DeactivatedAt: 1718800000}}, e.Body)
		}},
		{"message-delivered-to-all", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ReceiptEvent](t, ev)
			assert.Equal(t, webhook.TriggerMessageDeliveredToAll, e.Trigger())
			assert.Equal(t, &webhook.ReceiptEvent{Base: e.Base,
				Receiver: "cometchat-guid-1", ReceiverType: chat.ReceiverGroup, Type: "receipts",
				Sender: "cometchat-uid-2", MessageSender: "cometchat-uid-1",
				Body: webhook.Receipt{Action: webhook.ReceiptDeliveredToAll, MessageID: "813", Timestamp: 1718804720,
					User: chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserAvailable}},
			}, e)
		}},
		{"message-read-by-all", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.ReceiptEvent](t, ev)
			assert.Equal(t, webhook.TriggerMessageReadByAll, e.Trigger())
			assert.Equal(t, webhook.ReceiptReadByAll, e.Body.Action)
			assert.Equal(t, "813", e.Body.MessageID)
			assert.Equal(t, "cometchat-uid-3", e.Sender)
		}},
		{"bot-after-message", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.BotMessageEvent](t, ev)
			env := e.Envelope()
			assert.Equal(t, &webhook.Origin{Platform: "web", Language: "reactjs", Resource: "chat-widget"}, env.Origin)
			assert.Equal(t, "3.0", env.ChatAPIVersion)
			assert.Equal(t, "support-bot", env.Bot)
			assert.Equal(t, "2248348660ad9bd4", env.AppID)
			assert.Empty(t, env.Webhook)
			assert.Equal(t, "814", e.Message.ID)
			assert.Equal(t, "support-bot", e.Message.Receiver)
			assert.Equal(t, "hi", e.Message.Data.Text)
			sender, err := e.Message.Actor()
			require.NoError(t, err)
			assert.Equal(t, "Andrew Joseph", sender.Name)
		}},
		{"message-deleted", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.MessageActionEvent](t, ev)
			assert.Equal(t, chat.ActionDeleted, e.Action())
			require.NotNil(t, e.Target)
			assert.Equal(t, "815", e.Target.ID)
			assert.Equal(t, chat.Timestamp(1718804760), e.Target.DeletedAt)
			assert.Equal(t, "cometchat-uid-1", e.Target.DeletedBy)
		}},
		{"message-sent-mentions", func(t *testing.T, ev webhook.Event) {
			e := as[*webhook.MessageEvent](t, ev)
			want := chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserAvailable, Role: "default"}
			assert.Equal(t, map[string]*chat.User{"cometchat-uid-2": &want}, e.Message.Data.Mentions)
			assert.Equal(t, map[string]chat.User{"cometchat-uid-2": want}, e.Mentions)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := serviceDelivery(t, tc.name)
			ev, err := webhook.Decode(body)
			require.NoError(t, err)
			assert.True(t, ev.Trigger().Known())
			assert.JSONEq(t, string(body), string(ev.Envelope().Raw), "the envelope keeps the body")
			tc.check(t, ev)
		})
	}
}

// knownTriggers are the triggers the package decodes into typed events,
// each with a payload of its shape (the decoding table's).
func knownTriggers(t *testing.T) map[webhook.Trigger]string {
	t.Helper()
	out := map[webhook.Trigger]string{}
	for _, tc := range decodeCases() {
		out[tc.trigger] = payload(t, tc.trigger)
	}
	for _, tr := range append(webhook.Triggers(), webhook.TriggerUserMentioned, webhook.TriggerAfterMessage) {
		require.Contains(t, out, tr, "no payload for %s", tr)
	}
	return out
}

// rawOf returns the event's Raw, the field every event type has from Base.
func rawOf(t *testing.T, ev webhook.Event) json.RawMessage {
	t.Helper()
	f := reflect.ValueOf(ev).Elem().FieldByName("Raw")
	require.True(t, f.IsValid(), "%T has no Raw", ev)
	return f.Interface().(json.RawMessage)
}

// TestDecodeKeepsWhatItDoesNotModel sends, for every trigger the package
// knows, a delivery with a member the package does not know in the
// envelope and one in the data: the event decodes as without them, and
// both are read from the raw copies.
func TestDecodeKeepsWhatItDoesNotModel(t *testing.T) {
	for trigger, data := range knownTriggers(t) {
		t.Run(string(trigger), func(t *testing.T) {
			extraData := strings.Replace(data, "{", `{"futureField":{"added":[1,"two"]},`, 1)
			body := strings.Replace(envelope(trigger, extraData), "{", `{"deliveryId":"d-42",`, 1)
			ev, err := webhook.Decode([]byte(body))
			require.NoError(t, err)
			assert.Equal(t, trigger, ev.Trigger())

			var env map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(ev.Envelope().Raw, &env))
			assert.JSONEq(t, `"d-42"`, string(env["deliveryId"]))
			var got map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(rawOf(t, ev), &got))
			assert.JSONEq(t, `{"added":[1,"two"]}`, string(got["futureField"]))

			for _, tc := range decodeCases() {
				if tc.trigger == trigger {
					tc.check(t, ev) // the modelled fields read as without the extras
				}
			}
		})
	}
}

// TestEnvelopeSentAgainKeepsWhatItDoesNotModel replays a decoded delivery
// with NewRequest: the members the package does not model go with it, and
// a field changed since wins over what was received.
func TestEnvelopeSentAgainKeepsWhatItDoesNotModel(t *testing.T) {
	body := serviceDelivery(t, "bot-after-message")
	body = []byte(strings.Replace(string(body), `"trigger"`, `"deliveryId":"d-42","Region":"eu","trigger"`, 1))
	ev, err := webhook.Decode(body)
	require.NoError(t, err)
	env := ev.Envelope()
	env.AppID = "app-2"

	req, err := webhook.NewRequest(context.Background(), "https://example.com/bot", env, "", "")
	require.NoError(t, err)
	sent, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(sent, &got))
	assert.Equal(t, "d-42", got["deliveryId"], "an unknown member goes again")
	assert.Equal(t, "app-2", got["appId"], "a changed field wins")
	assert.NotContains(t, got, "Region", "a member a field decoded (names match ignoring case) is that field's")
	assert.Equal(t, "us", got["region"], "the field as decoded (the last of the two)")
	assert.Equal(t, "support-bot", got["bot"])
	assert.Equal(t, map[string]any{"platform": "web", "language": "reactjs", "resource": "chat-widget"}, got["origin"])

	again, err := webhook.Decode(sent)
	require.NoError(t, err)
	assert.Equal(t, ev.(*webhook.BotMessageEvent).Message, as[*webhook.BotMessageEvent](t, again).Message)

	// An envelope built by hand encodes its fields only.
	b, err := json.Marshal(&webhook.Envelope{Trigger: "message_sent", Data: json.RawMessage(`{}`)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"trigger":"message_sent","data":{},"appId":"","region":"","webhook":""}`, string(b))
	_, err = json.Marshal(&webhook.Envelope{Trigger: "message_sent", Data: json.RawMessage(`{}`), Raw: json.RawMessage(`[1]`)})
	assert.ErrorContains(t, err, "webhook: encoding the envelope's Raw: not a JSON object", "a Raw that is not an object")
}

// TestNewDeliveryOfTheNewTriggers builds deliveries of the receipt
// triggers the reference does not list, and of a bot's after_message, and
// decodes them back.
func TestNewDeliveryOfTheNewTriggers(t *testing.T) {
	ctx := context.Background()
	receipt := &webhook.ReceiptEvent{Receiver: "g1", ReceiverType: chat.ReceiverGroup, Type: "receipts", Sender: "bob", MessageSender: "alice",
		Body: webhook.Receipt{Action: webhook.ReceiptReadByAll, MessageID: "7", Timestamp: 1718804730, User: chat.User{UID: "bob"}}}
	for _, trigger := range []webhook.Trigger{webhook.TriggerMessageDeliveredToAll, webhook.TriggerMessageReadByAll} {
		req, err := webhook.NewDelivery(ctx, "https://example.com/hook", trigger, receipt, hookUser, hookPassword)
		require.NoError(t, err)
		ev, err := verifier().Verify(req)
		require.NoError(t, err)
		got := as[*webhook.ReceiptEvent](t, ev)
		assert.Equal(t, trigger, got.Trigger())
		assert.Equal(t, receipt.Body, got.Body)
		assert.Equal(t, "bob", got.Sender)
	}

	msg := chat.Message{ID: "9", Sender: "alice", Receiver: "support-bot", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}
	env, err := webhook.NewEnvelope(webhook.TriggerAfterMessage, &webhook.BotMessageEvent{Message: msg})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"9","sender":"alice","receiverType":"user","receiver":"support-bot","data":{"text":"hi"}}`, string(env.Data),
		"a bot's data is the message itself")
	env.Bot, env.ChatAPIVersion, env.Origin = "support-bot", "3.0", &webhook.Origin{Platform: "web"}
	req, err := webhook.NewRequest(ctx, "https://example.com/bot", env, hookUser, hookPassword)
	require.NoError(t, err)
	ev, err := verifier().Verify(req)
	require.NoError(t, err)
	bot := as[*webhook.BotMessageEvent](t, ev)
	assert.Equal(t, msg, bot.Message)
	assert.Equal(t, "support-bot", bot.Envelope().Bot)
	assert.Equal(t, &webhook.Origin{Platform: "web"}, bot.Envelope().Origin)
}

func TestFlag(t *testing.T) {
	for in, want := range map[webhook.Flag]bool{"true": true, "TRUE": true, " 1 ": true, "false": false, "0": false, "": false, "yes": false} {
		assert.Equal(t, want, in.Bool(), "%q", in)
	}
	// A flag sent as a JSON boolean reads as its text.
	ev, err := webhook.Decode([]byte(envelope(webhook.TriggerCallParticipantJoined, `{"initial_config":{"is_audio_only":true,"mode":"SPOTLIGHT"}}`)))
	require.NoError(t, err)
	c := as[*webhook.ParticipantEvent](t, ev).InitialConfig
	require.NotNil(t, c)
	assert.True(t, c.IsAudioOnly.Bool())
	assert.Equal(t, "SPOTLIGHT", c.Mode)
}

// TestDecodeToleratesOtherShapes: the members read on a best-effort basis
// never cost the event when the service sends them in another shape; what
// was sent stays in Raw.
func TestDecodeToleratesOtherShapes(t *testing.T) {
	for name, tc := range map[string]struct {
		trigger webhook.Trigger
		data    string
		check   func(t *testing.T, ev webhook.Event)
	}{
		"appInfo as a string": {webhook.TriggerUserConnectionStatusChanged,
			`{"currentConnection":{"action":"connected","appInfo":"4.0.11","userAgent":"curl"}}`,
			func(t *testing.T, ev webhook.Event) {
				c := as[*webhook.UserConnectionEvent](t, ev).CurrentConnection
				assert.Equal(t, webhook.Connection{Action: "connected", UserAgent: "curl"}, c)
			}},
		"appInfo that does not fit": {webhook.TriggerUserConnectionStatusChanged,
			`{"currentConnection":{"appInfo":{"version":{"major":4},"uts":"soon"}}}`,
			func(t *testing.T, ev webhook.Event) {
				assert.Zero(t, as[*webhook.UserConnectionEvent](t, ev).CurrentConnection.AppInfo)
			}},
		"initial_config as a string": {webhook.TriggerCallParticipantJoined,
			`{"sessionId":"s1","initial_config":"{\"mode\":\"DEFAULT\"}"}`,
			func(t *testing.T, ev webhook.Event) {
				e := as[*webhook.ParticipantEvent](t, ev)
				assert.Equal(t, "s1", e.SessionID)
				require.NotNil(t, e.InitialConfig)
				assert.Zero(t, *e.InitialConfig)
			}},
		"filter as a list": {webhook.TriggerModerationEngineApproved,
			`{"moderation":[{"filter":[1,2],"rule":{"id":"r1"}}]}`,
			func(t *testing.T, ev webhook.Event) {
				m := as[*webhook.ModerationEvent](t, ev).Moderation
				require.Len(t, m, 1)
				assert.Equal(t, "r1", m[0].Rule.ID)
				require.NotNil(t, m[0].Filter)
				assert.Zero(t, *m[0].Filter)
			}},
	} {
		t.Run(name, func(t *testing.T) {
			ev, err := webhook.Decode([]byte(envelope(tc.trigger, tc.data)))
			require.NoError(t, err)
			assert.JSONEq(t, tc.data, string(rawOf(t, ev)))
			tc.check(t, ev)
		})
	}
	// So is the envelope's origin.
	ev, err := webhook.Decode([]byte(`{"trigger":"after_message","data":{"id":"1"},"origin":"web","bot":"b1"}`))
	require.NoError(t, err)
	env := as[*webhook.BotMessageEvent](t, ev).Envelope()
	assert.Equal(t, &webhook.Origin{}, env.Origin)
	assert.Equal(t, "b1", env.Bot)
}
