package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestNotificationLogsWire(t *testing.T) {
	ctx := context.Background()
	const logJSON = `{"_id":"67e3c56babf90e20e2652edb","processingStartedAtMS":1742980459696,"processingEndedAtMS":1742980459738,
		"totalProcessingTimeInMS":42,"component":"notifications-core","channel":"push","provider":"apns","messageId":3939,"reactionId":69,
		"trigger":"message_reaction_added","messageSentAtMS":1742980459000,"sender":"cometchat-uid-4","reactionSender":"cometchat-uid-1",
		"receiver":"cometchat-guid-1","reactionReceiver":"g-muted-yes","receiverType":"group","member":"g-muted-yes",
		"tokenType":"apns_ios_device","pushToken":"pushtoken123","providerId":"apns-provider","payload":{"type":"apns"},
		"notificationTriggered":false,"reason":"MUTE_PREFERENCE"}`
	entry := chat.NotificationLog{
		ID: "67e3c56babf90e20e2652edb", ProcessingStartedAtMS: 1742980459696, ProcessingEndedAtMS: 1742980459738,
		TotalProcessingTimeInMS: 42, Component: "notifications-core", Channel: chat.ChannelPush, Provider: chat.ProviderAPNs,
		MessageID: 3939, ReactionID: 69, Trigger: chat.TriggerMessageReactionAdded, MessageSentAtMS: 1742980459000,
		Sender: "cometchat-uid-4", ReactionSender: "cometchat-uid-1", Receiver: "cometchat-guid-1", ReactionReceiver: "g-muted-yes",
		ReceiverType: chat.ReceiverGroup, Member: "g-muted-yes", TokenType: chat.PushPlatformAPNsIOSDevice, PushToken: "pushtoken123",
		ProviderID: "apns-provider", Payload: []byte(`{"type":"apns"}`), Reason: chat.ReasonMutePreference,
	}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "ListLogs with every filter",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.ListLogs(ctx, &chat.ListLogsOptions{
					MessageID: 3939, ReactionID: 69, From: 1742980000000, To: 1742990000000,
					MessageCategory: chat.CategoryMessage, MessageType: "text", Trigger: chat.TriggerAfterMessage,
					Sender: "a", ReactionSender: "b", Receiver: "g 1", ReceiverType: chat.ReceiverGroup, ReactionReceiver: "c", Member: "d",
					Channel: chat.ChannelPush, Provider: chat.ProviderFCM, NotificationTriggered: new(false), Reason: chat.ReasonDNDPreference,
					Success: new(true), Direction: chat.DirectionAfter, LogID: "67e3", Limit: 5,
				})
			},
			Reply: `{"data":[` + logJSON + `],"meta":{"previous":{"affix":"prepend","logId":"67e3c56babf90e20e2652edb","messageId":3939},
				"current":{"limit":5,"count":1},"next":{"affix":"append","logId":"67e3c56babf90e20e2652edb"}}}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/logs",
			Query: "affix=append&channel=push&from=1742980000000&limit=5&logId=67e3&member=d&messageCategory=message&messageId=3939" +
				"&messageType=text&notificationTriggered=false&provider=fcm&reactionId=69&reactionReceiver=c&reactionSender=b" +
				"&reason=DND_PREFERENCE&receiver=g+1&receiverType=group&sender=a&success=true&to=1742990000000&trigger=after_message",
			Want: &chat.Page[chat.NotificationLog]{Data: []chat.NotificationLog{entry}, Meta: chat.PageMeta{
				Current:  &chat.PageCount{Limit: 5, Count: 1},
				Next:     &chat.Cursor{Direction: chat.DirectionAfter, ID: "67e3c56babf90e20e2652edb"},
				Previous: &chat.Cursor{Direction: chat.DirectionBefore, ID: "67e3c56babf90e20e2652edb", MessageID: 3939},
			}},
		},
		{
			Name:   "ListLogs with the reference's messageId cursors",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.ListLogs(ctx, nil) },
			Reply:  `{"data":[],"meta":{"current":{"limit":10,"count":0},"next":{"affix":"append","messageId":3939}}}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/logs",
			Want: &chat.Page[chat.NotificationLog]{Data: []chat.NotificationLog{}, Meta: chat.PageMeta{
				Current: &chat.PageCount{Limit: 10}, Next: &chat.Cursor{Direction: chat.DirectionAfter, MessageID: 3939},
			}},
		},
	})
}

func TestNotificationAllLogs(t *testing.T) {
	page := func(ids []string, limit int, next string) string {
		var items []string
		for _, id := range ids {
			items = append(items, `{"_id":"`+id+`","notificationTriggered":true}`)
		}
		meta := fmt.Sprintf(`{"current":{"limit":%d,"count":%d}`, limit, len(ids))
		if next != "" {
			meta += `,"next":{"affix":"append","logId":"` + next + `"}`
		}
		return `{"data":[` + strings.Join(items, ",") + `],"meta":` + meta + `}}`
	}
	collect := func(t *testing.T, client *chat.Client, opts *chat.ListLogsOptions) []string {
		t.Helper()
		return collectKeys(t, client.Notifications.AllLogs(context.Background(), opts), func(l *chat.NotificationLog) string { return l.ID })
	}

	t.Run("follows meta.next.logId", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("logId", map[string]string{
			"":  page([]string{"a", "b"}, 2, "b"),
			"b": page([]string{"c"}, 2, ""),
		})
		opts := &chat.ListLogsOptions{Limit: 2, Sender: "alice"}
		assert.Equal(t, []string{"a", "b", "c"}, collect(t, client, opts))
		reqs := m.Requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "limit=2&sender=alice", reqs[0].RawQuery)
		assert.Equal(t, "affix=append&limit=2&logId=b&sender=alice", reqs[1].RawQuery)
		assert.Equal(t, &chat.ListLogsOptions{Limit: 2, Sender: "alice"}, opts, "opts unchanged")
	})
	t.Run("continues after a full page without a cursor", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("logId", map[string]string{
			"":  page([]string{"a", "b"}, 2, ""),
			"b": page(nil, 2, ""),
		})
		assert.Equal(t, []string{"a", "b"}, collect(t, client, &chat.ListLogsOptions{Direction: chat.DirectionAfter}))
		reqs := m.Requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "affix=append&logId=b", reqs[1].RawQuery)
	})
	t.Run("stops after a short page without a cursor", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, page([]string{"a"}, 2, ""))
		assert.Equal(t, []string{"a"}, collect(t, client, nil))
		assert.Equal(t, 1, m.Calls())
	})
	t.Run("an error ends the walk", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusUnauthorized, `{"error":{"code":"AUTH_ERR_APIKEY_NOT_FOUND","message":"no key"}}`)
		for l, err := range client.Notifications.AllLogs(context.Background(), nil) {
			assert.Nil(t, l)
			assert.ErrorIs(t, err, chat.ErrUnauthorized)
		}
		assert.Equal(t, 1, m.Calls())
	})
}
