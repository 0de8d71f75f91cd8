package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
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
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "GetPreferences",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetPreferences(ctx, "alice") },
			Reply:  `{"data":` + effectiveJSON + `}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/preferences", Query: "uid=alice",
			Want: effective,
		},
		{
			Name: "UpdatePreferences",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdatePreferences(ctx, "a b&c", &chat.UpdatePreferencesRequest{
					GroupPreferences:    &chat.UserGroupPreferences{Messages: new(chat.NotifyMentions), MemberLeft: new(chat.NotifyNone)},
					OneOnOnePreferences: &chat.UserOneOnOnePreferences{Reactions: new(chat.NotifyReactionsOnOwnMessages)},
					MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDEnabled),
						Schedule: &chat.WeekSchedule{Friday: &chat.DaySchedule{From: 900, To: 1730, DND: true}}},
					UsePrivacyTemplate: new(false),
				})
			},
			Reply:  `{"data":` + effectiveJSON + `}`,
			Method: http.MethodPatch, Path: "/v3/notifications/v1/preferences", Query: "uid=a+b%26c",
			Body: `{"groupPreferences":{"groupMessages":3,"groupMemberLeft":1},"oneOnOnePreferences":{"oneOnOneReactions":2},
				"mutePreferences":{"dnd":2,"schedule":{"friday":{"from":900,"to":1730,"dnd":true}}},"usePrivacyTemplate":false}`,
			Want: effective,
		},
		{
			Name: "ResetPreferences",
			Call: func(c *chat.Client) (any, error) { return c.Notifications.ResetPreferences(ctx, "alice") },
			Reply: `{"data":{"groupPreferences":{"groupMessages":2,"groupReactions":2},"oneOnOnePreferences":{"oneOnOneMessages":2},
				"mutePreferences":{"dnd":1},"usePrivacyTemplate":false}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/v1/preferences", Query: "uid=alice",
			Want: &chat.UserNotificationPreferences{
				GroupPreferences:    &chat.UserGroupPreferences{Messages: new(chat.NotifyAll), Reactions: new(chat.NotifyReactionsOnOwnMessages)},
				OneOnOnePreferences: &chat.UserOneOnOnePreferences{Messages: new(chat.NotifyAll)},
				MutePreferences:     &chat.UserMutePreferences{DND: new(chat.DNDDisabled)},
				UsePrivacyTemplate:  new(false),
			},
		},
		{
			Name:   "ListMuted",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.ListMuted(ctx, "alice") },
			Reply:  `{"data":{"mutedConversations":[{"id":"bob","type":"oneOnOne","until":1893456000000},{"id":"team","type":"group","until":1893456000000}]}}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/preferences/mute", Query: "uid=alice",
			Want: []chat.MutedConversation{
				{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000},
				{ID: "team", Type: chat.MutedGroup, Until: 1893456000000},
			},
		},
		{
			Name: "Mute",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.Mute(ctx, "alice", &chat.MuteRequest{Conversations: []chat.MutedConversation{
					{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000}}})
			},
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodPut, Path: "/v3/notifications/v1/preferences/mute", Query: "uid=alice",
			Body: `{"conversations":[{"id":"bob","type":"oneOnOne","until":1893456000000}]}`,
			Want: success,
		},
		{
			Name: "Unmute sends only id and type",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.Unmute(ctx, "alice", &chat.UnmuteRequest{Conversations: []chat.MutedConversation{
					{ID: "bob", Type: chat.MutedOneOnOne, Until: 1893456000000}, {ID: "team", Type: chat.MutedGroup}}})
			},
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/v1/preferences/mute", Query: "uid=alice",
			Body: `{"conversations":[{"id":"bob","type":"oneOnOne"},{"id":"team","type":"group"}]}`,
			Want: success,
		},
		{
			Name:   "GetTimezone",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetTimezone(ctx, "alice") },
			Reply:  `{"data":{"timezone":"Asia/Kolkata"}}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/preferences/timezone", Query: "uid=alice",
			Want: "Asia/Kolkata",
		},
		{
			Name: "UpdateTimezone",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateTimezone(ctx, "alice", &chat.UpdateTimezoneRequest{Timezone: "Europe/Paris"})
			},
			Reply:  `{"data":{"timezone":"Europe/Paris"}}`,
			Method: http.MethodPatch, Path: "/v3/notifications/v1/preferences/timezone", Query: "uid=alice",
			Body: `{"timezone":"Europe/Paris"}`, Want: "Europe/Paris",
		},
		{
			Name:   "GetContactDetails",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.GetContactDetails(ctx, "alice") },
			Reply:  `{"data":{"email":"alice@example.com","phno":"+14155550100"}}`,
			Method: http.MethodGet, Path: "/v3/notifications/v1/contact-details", OnBehalfOf: "alice",
			Want: &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"},
		},
		{
			Name: "UpdateContactDetails wins over an onBehalfOf option",
			Call: func(c *chat.Client) (any, error) {
				return c.Notifications.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{PhoneNumber: "+14155550100"}, chat.OnBehalfOf("bob"))
			},
			Reply:  `{"data":{"email":"alice@example.com","phno":"+14155550100"}}`,
			Method: http.MethodPatch, Path: "/v3/notifications/v1/contact-details", OnBehalfOf: "alice",
			Body: `{"phno":"+14155550100"}`,
			Want: &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"},
		},
		{
			Name:   "DeleteContactDetails",
			Call:   func(c *chat.Client) (any, error) { return c.Notifications.DeleteContactDetails(ctx, "alice") },
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodDelete, Path: "/v3/notifications/v1/contact-details", OnBehalfOf: "alice",
			Want: success,
		},
	})
}

func TestNotificationPreferenceArguments(t *testing.T) {
	ctx := context.Background()
	conv := []chat.MutedConversation{{ID: "bob", Type: chat.MutedOneOnOne}}
	tests := []wiretest.ArgCase[*chat.NotificationsService]{
		{Name: "GetPreferences empty uid", Call: func(s *chat.NotificationsService) error { _, err := s.GetPreferences(ctx, ""); return err }, Arg: "uid"},
		{Name: "UpdatePreferences empty uid", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdatePreferences(ctx, "", &chat.UpdatePreferencesRequest{})
			return err
		}, Arg: "uid"},
		{Name: "UpdatePreferences nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdatePreferences(ctx, "a", nil); return err }, Arg: "req"},
		{Name: "ResetPreferences empty uid", Call: func(s *chat.NotificationsService) error { _, err := s.ResetPreferences(ctx, ""); return err }, Arg: "uid"},
		{Name: "ListMuted empty uid", Call: func(s *chat.NotificationsService) error { _, err := s.ListMuted(ctx, ""); return err }, Arg: "uid"},
		{Name: "Mute empty uid", Call: func(s *chat.NotificationsService) error {
			_, err := s.Mute(ctx, "", &chat.MuteRequest{Conversations: conv})
			return err
		}, Arg: "uid"},
		{Name: "Mute nothing", Call: func(s *chat.NotificationsService) error { _, err := s.Mute(ctx, "a", &chat.MuteRequest{}); return err }, Arg: "req.Conversations"},
		{Name: "Mute nil", Call: func(s *chat.NotificationsService) error { _, err := s.Mute(ctx, "a", nil); return err }, Arg: "req.Conversations"},
		{Name: "Unmute empty uid", Call: func(s *chat.NotificationsService) error {
			_, err := s.Unmute(ctx, "", &chat.UnmuteRequest{Conversations: conv})
			return err
		}, Arg: "uid"},
		{Name: "Unmute nothing", Call: func(s *chat.NotificationsService) error { _, err := s.Unmute(ctx, "a", nil); return err }, Arg: "req.Conversations"},
		{Name: "GetTimezone empty uid", Call: func(s *chat.NotificationsService) error { _, err := s.GetTimezone(ctx, ""); return err }, Arg: "uid"},
		{Name: "UpdateTimezone nil", Call: func(s *chat.NotificationsService) error { _, err := s.UpdateTimezone(ctx, "a", nil); return err }, Arg: "req"},
		{Name: "UpdateTimezone empty", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateTimezone(ctx, "a", &chat.UpdateTimezoneRequest{})
			return err
		}, Arg: "req.Timezone"},
		{Name: "UpdateTimezone empty uid", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateTimezone(ctx, "", &chat.UpdateTimezoneRequest{Timezone: "UTC"})
			return err
		}, Arg: "uid"},
		{Name: "GetContactDetails empty", Call: func(s *chat.NotificationsService) error { _, err := s.GetContactDetails(ctx, ""); return err }, Arg: "onBehalfOf"},
		{Name: "UpdateContactDetails empty", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateContactDetails(ctx, "", &chat.UpdateContactDetailsRequest{Email: "a@b.c"})
			return err
		}, Arg: "onBehalfOf"},
		{Name: "UpdateContactDetails nothing", Call: func(s *chat.NotificationsService) error {
			_, err := s.UpdateContactDetails(ctx, "a", &chat.UpdateContactDetailsRequest{})
			return err
		}, Arg: "req"},
		{Name: "DeleteContactDetails empty", Call: func(s *chat.NotificationsService) error { _, err := s.DeleteContactDetails(ctx, ""); return err }, Arg: "onBehalfOf"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.NotificationsService { return c.Notifications }, tests)
}

// TestNotificationPreferencesValidate holds the Validate of the preference requests to the checks
// their methods run before sending.
func TestNotificationPreferencesValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a mute", Value: &chat.MuteRequest{Conversations: []chat.MutedConversation{{ID: "g", Type: chat.MutedGroup}}}},
		{Name: "a mute of nothing", Value: &chat.MuteRequest{}, Field: "req.Conversations"},
		{Name: "a nil mute", Value: (*chat.MuteRequest)(nil), Field: "req.Conversations"},
		{Name: "an unmute", Value: &chat.UnmuteRequest{Conversations: []chat.MutedConversation{{ID: "u", Type: chat.MutedOneOnOne}}}},
		{Name: "an unmute of nothing", Value: &chat.UnmuteRequest{}, Field: "req.Conversations"},
		{Name: "a nil unmute", Value: (*chat.UnmuteRequest)(nil), Field: "req.Conversations"},
		{Name: "a time zone", Value: &chat.UpdateTimezoneRequest{Timezone: "Asia/Kolkata"}},
		{Name: "no time zone", Value: &chat.UpdateTimezoneRequest{}, Field: "req.Timezone"},
		{Name: "a phone number", Value: &chat.UpdateContactDetailsRequest{PhoneNumber: "+14155550100"}},
		{Name: "an email address", Value: &chat.UpdateContactDetailsRequest{Email: "a@example.com"}},
		{Name: "no contact detail", Value: &chat.UpdateContactDetailsRequest{}, Field: "req"},
		{Name: "nil contact details", Value: (*chat.UpdateContactDetailsRequest)(nil), Field: "req"},
	})
}
