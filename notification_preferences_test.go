package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/chatrest/chat"
)

func TestNotificationPreferencesWire(t *testing.T) {
	ctx := context.Background()
	success := &chat.Result{Success: true}
	const effectiveJSON = `{"preferences":{"group":{"messagesSetting":3,"messagesOverride":true},"oneOnOne":{"messagesSetting":2,"messagesOverride":true},
		"mute":{"dndPreferenceSetting":2,"dndPreferenceOverride":true}},"templates":{"usePrivacyTemplate":2}}`
	effective := &chat.NotificationSettings{
		Preferences: &chat.NotificationPreferences{
			Group:    &chat.GroupNotificationPreferences{MessagesSetting: new(chat.NotifyMentions), MessagesOverride: new(true)},
			OneOnOne: &chat.OneOnOneNotificationPreferences{MessagesSetting: new(chat.NotifyAll), MessagesOverride: new(true)},
			Mute:     &chat.MuteNotificationPreferences{DNDPreferenceSetting: new(chat.DNDEnabled), DNDPreferenceOverride: new(true)},
		},
		Templates: &chat.NotificationTemplates{UsePrivacyTemplate: new(chat.PrivacyTemplatePrivacy)},
	}
	runWire(t, []wireCase{
		{
			name:     "GetPreferences",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetPreferences(ctx, "alice") },
			response: `{"data":` + effectiveJSON + `}`,
			method:   http.MethodGet, path: "/v3/notifications/v1/preferences", query: "uid=alice",
			want: effective,
		},
		{
			name: "UpdatePreferences",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdatePreferences(ctx, "a b&c", &chat.UpdatePreferencesRequest{
					GroupPreferences:    &chat.UserGroupPreferences{Messages: new(chat.NotifyMentions), MemberLeft: new(chat.NotifyNone)},
					OneOnOnePreferences: &chat.UserOneOnOnePreferences{Reactions: new(chat.NotifyReactionsOnOwnMessages)},
					MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDEnabled),
						Schedule: &chat.WeekSchedule{Friday: &chat.DaySchedule{From: 900, To: 1730, DND: true}}},
					UsePrivacyTemplate: new(false),
				})
			},
			response: `{"data":` + effectiveJSON + `}`,
			method:   http.MethodPatch, path: "/v3/notifications/v1/preferences", query: "uid=a+b%26c",
			body: `{"groupPreferences":{"groupMessages":3,"groupMemberLeft":1},"oneOnOnePreferences":{"oneOnOneReactions":2},
				"mutePreferences":{"dnd":2,"schedule":{"friday":{"from":900,"to":1730,"dnd":true}}},"usePrivacyTemplate":false}`,
			want: effective,
		},
		{
			name: "ResetPreferences",
			call: func(c *chat.Client) (any, error) { return c.Notifications.ResetPreferences(ctx, "alice") },
			response: `{"data":{"groupPreferences":{"groupMessages":2,"groupReactions":2},"oneOnOnePreferences":{"oneOnOneMessages":2},
				"mutePreferences":{"dnd":1},"usePrivacyTemplate":false}}`,
			method: http.MethodDelete, path: "/v3/notifications/v1/preferences", query: "uid=alice",
			want: &chat.UserNotificationPreferences{
				GroupPreferences:    &chat.UserGroupPreferences{Messages: new(chat.NotifyAll), Reactions: new(chat.NotifyReactionsOnOwnMessages)},
				OneOnOnePreferences: &chat.UserOneOnOnePreferences{Messages: new(chat.NotifyAll)},
				MutePreferences:     &chat.UserMutePreferences{DND: new(chat.DNDDisabled)},
				UsePrivacyTemplate:  new(false),
			},
		},
		{
			name:     "ListMuted",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.ListMuted(ctx, "alice") },
			response: `{"data":{"mutedConversations":[{"id":"bob","type":"oneOnOne","until":1893456000000},{"id":"team","type":"group","until":1893456000000}]}}`,
			method:   http.MethodGet, path: "/v3/notifications/v1/preferences/mute", query: "uid=alice",
			want: []chat.MutedConversation{
				{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000},
				{ID: "team", Type: chat.MutedGroup, Until: 1893456000000},
			},
		},
		{
			name: "Mute",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.Mute(ctx, "alice", &chat.MuteRequest{Conversations: []chat.MutedConversation{
					{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000}}})
			},
			response: `{"data":{"success":true}}`,
			method:   http.MethodPut, path: "/v3/notifications/v1/preferences/mute", query: "uid=alice",
			body: `{"conversations":[{"id":"bob","type":"oneOnOne","until":1893456000000}]}`,
			want: success,
		},
		{
			name: "Unmute sends only id and type",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.Unmute(ctx, "alice", &chat.UnmuteRequest{Conversations: []chat.MutedConversation{
					{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000}, {ID: "team", Type: chat.MutedGroup}}})
			},
			response: `{"data":{"success":true}}`,
			method:   http.MethodDelete, path: "/v3/notifications/v1/preferences/mute", query: "uid=alice",
			body: `{"conversations":[{"id":"bob","type":"oneOnOne"},{"id":"team","type":"group"}]}`,
			want: success,
		},
		{
			name:     "GetTimezone",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetTimezone(ctx, "alice") },
			response: `{"data":{"timezone":"Asia/Kolkata"}}`,
			method:   http.MethodGet, path: "/v3/notifications/v1/preferences/timezone", query: "uid=alice",
			want: "Asia/Kolkata",
		},
		{
			name: "UpdateTimezone",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateTimezone(ctx, "alice", &chat.UpdateTimezoneRequest{Timezone: "Europe/Paris"})
			},
			response: `{"data":{"timezone":"Europe/Paris"}}`,
			method:   http.MethodPatch, path: "/v3/notifications/v1/preferences/timezone", query: "uid=alice",
			body: `{"timezone":"Europe/Paris"}`, want: "Europe/Paris",
		},
		{
			name:     "GetContactDetails",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.GetContactDetails(ctx, "alice") },
			response: `{"data":{"email":"alice@example.com","phno":"+14155550100"}}`,
			method:   http.MethodGet, path: "/v3/notifications/v1/contact-details", obo: "alice",
			want: &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"},
		},
		{
			name: "UpdateContactDetails wins over an onBehalfOf option",
			call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{PhoneNumber: "+14155550100"}, chat.OnBehalfOf("bob"))
			},
			response: `{"data":{"email":"alice@example.com","phno":"+14155550100"}}`,
			method:   http.MethodPatch, path: "/v3/notifications/v1/contact-details", obo: "alice",
			body: `{"phno":"+14155550100"}`,
			want: &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"},
		},
		{
			name:     "DeleteContactDetails",
			call:     func(c *chat.Client) (any, error) { return c.Notifications.DeleteContactDetails(ctx, "alice") },
			response: `{"data":{"success":true}}`,
			method:   http.MethodDelete, path: "/v3/notifications/v1/contact-details", obo: "alice",
			want: success,
		},
	})
}

func TestNotificationPreferenceArguments(t *testing.T) {
	ctx := context.Background()
	conv := []chat.MutedConversation{{ID: "bob", Type: chat.MutedOneOnOne}}
	tests := []argCase[*chat.NotificationsService]{
		{"GetPreferences empty uid", func(s *chat.NotificationsService) error { _, err := s.GetPreferences(ctx, ""); return err }, "uid"},
		{"UpdatePreferences empty uid", func(s *chat.NotificationsService) error {
			_, err := s.UpdatePreferences(ctx, "", &chat.UpdatePreferencesRequest{})
			return err
		}, "uid"},
		{"UpdatePreferences nil", func(s *chat.NotificationsService) error { _, err := s.UpdatePreferences(ctx, "a", nil); return err }, "req"},
		{"ResetPreferences empty uid", func(s *chat.NotificationsService) error { _, err := s.ResetPreferences(ctx, ""); return err }, "uid"},
		{"ListMuted empty uid", func(s *chat.NotificationsService) error { _, err := s.ListMuted(ctx, ""); return err }, "uid"},
		{"Mute empty uid", func(s *chat.NotificationsService) error {
			_, err := s.Mute(ctx, "", &chat.MuteRequest{Conversations: conv})
			return err
		}, "uid"},
		{"Mute nothing", func(s *chat.NotificationsService) error { _, err := s.Mute(ctx, "a", &chat.MuteRequest{}); return err }, "req.Conversations"},
		{"Mute nil", func(s *chat.NotificationsService) error { _, err := s.Mute(ctx, "a", nil); return err }, "req.Conversations"},
		{"Unmute empty uid", func(s *chat.NotificationsService) error {
			_, err := s.Unmute(ctx, "", &chat.UnmuteRequest{Conversations: conv})
			return err
		}, "uid"},
		{"Unmute nothing", func(s *chat.NotificationsService) error { _, err := s.Unmute(ctx, "a", nil); return err }, "req.Conversations"},
		{"GetTimezone empty uid", func(s *chat.NotificationsService) error { _, err := s.GetTimezone(ctx, ""); return err }, "uid"},
		{"UpdateTimezone nil", func(s *chat.NotificationsService) error { _, err := s.UpdateTimezone(ctx, "a", nil); return err }, "req"},
		{"UpdateTimezone empty", func(s *chat.NotificationsService) error {
			_, err := s.UpdateTimezone(ctx, "a", &chat.UpdateTimezoneRequest{})
			return err
		}, "req.Timezone"},
		{"UpdateTimezone empty uid", func(s *chat.NotificationsService) error {
			_, err := s.UpdateTimezone(ctx, "", &chat.UpdateTimezoneRequest{Timezone: "UTC"})
			return err
		}, "uid"},
		{"GetContactDetails empty", func(s *chat.NotificationsService) error { _, err := s.GetContactDetails(ctx, ""); return err }, "onBehalfOf"},
		{"UpdateContactDetails empty", func(s *chat.NotificationsService) error {
			_, err := s.UpdateContactDetails(ctx, "", &chat.UpdateContactDetailsRequest{Email: "a@b.c"})
			return err
		}, "onBehalfOf"},
		{"UpdateContactDetails nothing", func(s *chat.NotificationsService) error {
			_, err := s.UpdateContactDetails(ctx, "a", &chat.UpdateContactDetailsRequest{})
			return err
		}, "req"},
		{"DeleteContactDetails empty", func(s *chat.NotificationsService) error { _, err := s.DeleteContactDetails(ctx, ""); return err }, "onBehalfOf"},
	}
	runArgs(t, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}
