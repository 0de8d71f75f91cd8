package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

const settingsJSON = `{
	"preferences": {
		"group": {"messagesSetting": 2, "messagesOverride": true, "reactionsSetting": 3, "memberLeftSetting": 1, "memberLeftOverride": false},
		"oneOnOne": {"messagesSetting": 3, "messagesOverride": false},
		"call": {"initiatedSetting": 2, "initiatedOverride": false},
		"mute": {"dndPreferenceSetting": 1, "dndPreferenceOverride": true,
			"schedulePreferenceSetting": {"monday": {"from": 0, "to": 2359, "dnd": false}}},
		"email": {"notifyForUnreadOnly": true, "intervalInSeconds": 120, "maxPerDay": 0},
		"push": {"includeMessageObjectSetting": false, "customJson": {"k": "v"}},
		"bypassPreferencesForMentions": false
	},
	"sound": {"chat": "default", "call": "ring"},
	"templates": {"usePrivacyTemplate": 1, "textMessageTemplateDefault": {"titleOneOnOne": "{{senderDetails.name}}", "body": "{{message.data.text}}"},
		"mediaMessageTemplateDefault": {"body_image": "sent an image"}}
}`

func TestNotificationSettingsWire(t *testing.T) {
	ctx := context.Background()
	want := &chat.NotificationSettings{
		Preferences: &chat.NotificationPreferences{
			Group: &chat.GroupNotificationPreferences{
				MessagesSetting: new(chat.NotifyAll), MessagesOverride: new(true),
				ReactionsSetting:  new(chat.NotifyReactionsOnAllMessages),
				MemberLeftSetting: new(chat.NotifyNone), MemberLeftOverride: new(false),
			},
			OneOnOne: &chat.OneOnOneNotificationPreferences{MessagesSetting: new(chat.NotifyMentions), MessagesOverride: new(false)},
			Call:     &chat.CallNotificationPreferences{InitiatedSetting: new(chat.NotifyAll), InitiatedOverride: new(false)},
			Mute: &chat.MuteNotificationPreferences{
				DNDPreferenceSetting: new(chat.DNDDisabled), DNDPreferenceOverride: new(true),
				SchedulePreferenceSetting: &chat.WeekSchedule{Monday: &chat.DaySchedule{From: 0, To: 2359}},
			},
			Email:                        &chat.DigestPreferences{NotifyForUnreadOnly: new(true), IntervalInSeconds: new(120), MaxPerDay: new(0)},
			Push:                         &chat.PushPayloadPreferences{IncludeMessageObjectSetting: new(false), CustomJSON: map[string]any{"k": "v"}},
			BypassPreferencesForMentions: new(false),
		},
		Sound: &chat.NotificationSound{Chat: "default", Call: "ring"},
		Templates: &chat.NotificationTemplates{
			UsePrivacyTemplate:          new(chat.PrivacyTemplateDefault),
			TextMessageTemplateDefault:  &chat.TextTemplate{TitleOneOnOne: "{{senderDetails.name}}", Body: "{{message.data.text}}"},
			MediaMessageTemplateDefault: &chat.MediaTemplate{BodyImage: "sent an image"},
		},
	}
	success := &chat.Result{Success: true}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "GetSettings",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetSettings(ctx) },
			Reply:  `{"data":` + settingsJSON + `}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/settings",
			Want: want,
		},
		{
			Name: "UpdateSettings sends false and 0 and only what is set",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateSettings(ctx, &chat.NotificationSettings{
					Preferences: &chat.NotificationPreferences{
						Group: &chat.GroupNotificationPreferences{MessagesSetting: new(chat.NotifyNone), MessagesOverride: new(false)},
						SMS:   &chat.DigestPreferences{MaxPerDay: new(0)},
						Mute: &chat.MuteNotificationPreferences{SchedulePreferenceSetting: &chat.WeekSchedule{
							Sunday: &chat.DaySchedule{From: 0, To: 900, DND: false}}},
						BypassPreferencesForMentions: new(true),
					},
					Templates: &chat.NotificationTemplates{UsePrivacyTemplate: new(chat.PrivacyTemplateUserOverride),
						SMSContentTemplatePrivacy: &chat.SMSTemplate{BodyGroup: "New message"}},
				})
			},
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodPatch, Path: "/v3/notifications/v1/settings",
			Body: `{"preferences":{"group":{"messagesSetting":1,"messagesOverride":false},"sms":{"maxPerDay":0},
				"mute":{"schedulePreferenceSetting":{"sunday":{"from":0,"to":900,"dnd":false}}},"bypassPreferencesForMentions":true},
				"templates":{"usePrivacyTemplate":3,"smsContentTemplatePrivacy":{"bodyGroup":"New message"}}}`,
			Want: success,
		},
		{
			Name:   "ResetSettings",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.ResetSettings(ctx) },
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/v1/settings",
			Want: success,
		},
	})
}

// TestNotificationSecretsNotPrinted checks that the types carrying
// credentials print them as REDACTED with every verb, and still encode
// them as JSON.
func TestNotificationSecretsNotPrinted(t *testing.T) {
	const secret = "s3cr3t-value-never-printed"
	values := []any{
		chat.FCMProvider{ProviderID: "fcm", ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", PrivateKey: secret}},
		&chat.FCMServiceAccount{PrivateKey: secret},
		chat.APNsProvider{ProviderID: "apns", P8Key: secret},
		chat.CustomPushProvider{WebhookURL: "https://h", BasicAuthPassword: secret},
		chat.CustomSMSProvider{BasicAuthPassword: secret},
		chat.CustomEmailProvider{BasicAuthPassword: secret},
		chat.UpdateCustomProviderRequest{BasicAuthPassword: secret},
		chat.TwilioProvider{TwilioAuthToken: secret},
		&chat.SendGridProvider{SendGridAPIKey: secret},
		chat.PushToken{AuthToken: secret, Token: secret + "2"},
		[]chat.PushToken{{Token: secret}},
		chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, Token: secret, AuthToken: secret + "2"},
		chat.ListPushTokensOptions{AuthToken: secret},
		chat.UnregisterPushTokensRequest{AuthToken: secret},
		chat.DeletePushTokenRequest{AuthToken: secret},
		chat.NotificationLog{ID: "l", PushToken: secret},
	}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, secret, "%T printed with %s", v, verb)
			assert.NotContains(t, out, fmt.Sprintf("%x", secret), "%T printed with %s", v, verb)
		}
		assert.Contains(t, fmt.Sprintf("%+v", v), "REDACTED", "%T", v)
	}
	b, err := json.Marshal(chat.APNsProvider{P8Key: secret})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"p8Key":"`+secret+`"`, "JSON keeps the secret")
}
