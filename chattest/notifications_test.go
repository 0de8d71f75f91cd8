package chattest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestNotificationSettings(t *testing.T) {
	_, client := start(t)
	ctx := t.Context()
	n := client.Notifications

	s, err := n.GetSettings(ctx)
	require.NoError(t, err)
	require.NotNil(t, s.Preferences)
	assert.Equal(t, chat.NotifyAll, *s.Preferences.Group.MessagesSetting)
	assert.True(t, *s.Preferences.Group.MessagesOverride)
	assert.Equal(t, chat.NotifyNone, *s.Preferences.Group.MemberLeftSetting)
	assert.Equal(t, &chat.DaySchedule{From: 0, To: 2359}, s.Preferences.Mute.SchedulePreferenceSetting.Monday)
	assert.Equal(t, "default", s.Sound.Chat)
	assert.Equal(t, chat.PrivacyTemplateDefault, *s.Templates.UsePrivacyTemplate)
	assert.Equal(t, "{{message.data.text}}", s.Templates.TextMessageTemplateDefault.Body)

	// A partial update changes what it sends, false and 0 included, and
	// nothing else.
	res, err := n.UpdateSettings(ctx, &chat.NotificationSettings{
		Preferences: &chat.NotificationPreferences{
			Group: &chat.GroupNotificationPreferences{MessagesSetting: new(chat.NotifyMentions), MessagesOverride: new(false)},
			SMS:   &chat.DigestPreferences{MaxPerDay: new(0)},
			Mute: &chat.MuteNotificationPreferences{SchedulePreferenceSetting: &chat.WeekSchedule{
				Sunday: &chat.DaySchedule{From: 900, To: 1730, DND: true}}},
			Push:                         &chat.PushPayloadPreferences{CustomJSON: map[string]any{"app": "demo"}},
			BypassPreferencesForMentions: new(true),
		},
		Sound:     &chat.NotificationSound{Call: "ring"},
		Templates: &chat.NotificationTemplates{TextMessageTemplatePrivacy: &chat.TextTemplate{Body: "You have a message"}},
	})
	require.NoError(t, err)
	assert.True(t, res.Success)
	s, err = n.GetSettings(ctx)
	require.NoError(t, err)
	p := s.Preferences
	assert.Equal(t, chat.NotifyMentions, *p.Group.MessagesSetting)
	assert.False(t, *p.Group.MessagesOverride)
	assert.Equal(t, chat.NotifyAll, *p.Group.RepliesSetting, "untouched")
	assert.Equal(t, 0, *p.SMS.MaxPerDay)
	assert.Equal(t, 7200, *p.SMS.IntervalInSeconds, "untouched")
	assert.Equal(t, &chat.DaySchedule{From: 900, To: 1730, DND: true}, p.Mute.SchedulePreferenceSetting.Sunday)
	assert.Equal(t, &chat.DaySchedule{From: 0, To: 2359}, p.Mute.SchedulePreferenceSetting.Monday, "untouched")
	assert.Equal(t, map[string]any{"app": "demo"}, p.Push.CustomJSON)
	assert.True(t, *p.BypassPreferencesForMentions)
	assert.Equal(t, &chat.NotificationSound{Chat: "default", Call: "ring"}, s.Sound)
	assert.Equal(t, "You have a message", s.Templates.TextMessageTemplatePrivacy.Body)
	assert.NotEmpty(t, s.Templates.TextMessageTemplatePrivacy.TitleOneOnOne, "untouched")

	for name, bad := range map[string]struct {
		req   *chat.NotificationSettings
		field string
	}{
		"messages 4": {&chat.NotificationSettings{Preferences: &chat.NotificationPreferences{
			Group: &chat.GroupNotificationPreferences{MessagesSetting: new(chat.NotificationSetting(4))}}}, "preferences.group.messagesSetting"},
		"member left 3": {&chat.NotificationSettings{Preferences: &chat.NotificationPreferences{
			Group: &chat.GroupNotificationPreferences{MemberLeftSetting: new(chat.NotifyMentions)}}}, "preferences.group.memberLeftSetting"},
		"call 3": {&chat.NotificationSettings{Preferences: &chat.NotificationPreferences{
			Call: &chat.CallNotificationPreferences{EndedSetting: new(chat.NotificationSetting(3))}}}, "preferences.call.endedSetting"},
		"schedule 2460": {&chat.NotificationSettings{Preferences: &chat.NotificationPreferences{Mute: &chat.MuteNotificationPreferences{
			SchedulePreferenceSetting: &chat.WeekSchedule{Friday: &chat.DaySchedule{From: 2460}}}}}, "preferences.mute.schedulePreferenceSetting.friday.from"},
		"negative interval": {&chat.NotificationSettings{Preferences: &chat.NotificationPreferences{
			Email: &chat.DigestPreferences{IntervalInSeconds: new(-1)}}}, "preferences.email.intervalInSeconds"},
		"privacy template 4": {&chat.NotificationSettings{Templates: &chat.NotificationTemplates{
			UsePrivacyTemplate: new(chat.PrivacyTemplateSetting(4))}}, "templates.usePrivacyTemplate"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := n.UpdateSettings(ctx, bad.req)
			e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
			assert.Contains(t, e.Details, bad.field)
		})
	}

	_, err = n.ResetSettings(ctx)
	require.NoError(t, err)
	s, err = n.GetSettings(ctx)
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyAll, *s.Preferences.Group.MessagesSetting)
	assert.Equal(t, &chat.NotificationSound{Chat: "default", Call: "default"}, s.Sound)
}

func TestNotificationPushProviders(t *testing.T) {
	_, client := start(t)
	ctx := t.Context()
	n := client.Notifications

	list, err := n.ListFCMProviders(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)
	fcm := &chat.FCMProvider{ProviderID: "fcm-main", ServiceAccountFilename: "sa.json",
		ServiceAccountCreds:   &chat.FCMServiceAccount{ProjectID: "demo", ClientEmail: "sa@demo.iam", PrivateKey: "-----KEY-----", PrivateKeyID: "k1"},
		NotificationInPayload: &chat.FCMNotificationInPayload{Android: chat.FCMPayloadFlags{Chat: true}}}
	_, err = n.AddFCMProvider(ctx, fcm)
	require.NoError(t, err)
	_, err = n.AddFCMProvider(ctx, fcm)
	requireAPIError(t, err, http.StatusConflict, "ERR_PROVIDER_ALREADY_EXISTS", chat.ErrConflict)
	_, err = n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-2"})
	e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, e.Details, "serviceAccountCreds")
	list, err = n.ListFCMProviders(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.FCMProvider{*fcm}, list)

	_, err = n.UpdateFCMProvider(ctx, &chat.FCMProvider{ProviderID: "nope", ServiceAccountCreds: fcm.ServiceAccountCreds})
	requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
	updated := *fcm
	updated.ServiceAccountFilename = "sa-2.json"
	updated.NotificationInPayload = nil
	_, err = n.UpdateFCMProvider(ctx, &updated)
	require.NoError(t, err)
	list, err = n.ListFCMProviders(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.FCMProvider{updated}, list, "the update replaces the configuration")

	_, err = n.SetDefaultFCMProvider(ctx, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
	_, err = n.SetDefaultFCMProvider(ctx, "fcm-main")
	require.NoError(t, err)
	res, err := n.DeleteFCMProvider(ctx, "fcm-main")
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = n.DeleteFCMProvider(ctx, "fcm-main")
	requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)

	apns := &chat.APNsProvider{ProviderID: "apns-main", KeyID: "K", TeamID: "T", BundleID: "com.demo", P8KeyFilename: "k.p8", P8Key: "p8", IncludeMutableContent: true}
	_, err = n.AddAPNsProvider(ctx, apns)
	require.NoError(t, err)
	_, err = n.AddAPNsProvider(ctx, apns)
	requireAPIError(t, err, http.StatusConflict, "ERR_PROVIDER_ALREADY_EXISTS", chat.ErrConflict)
	_, err = n.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns-2"})
	e = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Subset(t, detailKeys(e.Details), []string{"keyId", "teamId", "bundleId", "p8Key"})
	prod := *apns
	prod.ProductionMode, prod.IncludeMutableContent = true, false
	_, err = n.UpdateAPNsProvider(ctx, &prod)
	require.NoError(t, err)
	apnsList, err := n.ListAPNsProviders(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.APNsProvider{prod}, apnsList)
	_, err = n.SetDefaultAPNsProvider(ctx, "apns-main")
	require.NoError(t, err)
	_, err = n.DeleteAPNsProvider(ctx, "apns-main")
	require.NoError(t, err)
	_, err = n.SetDefaultAPNsProvider(ctx, "apns-main")
	requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
}

func detailKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestNotificationSingleProviders runs the life of each provider the app
// has at most one of: none, saved, saved again (refused), updated in
// part, read, deleted.
func TestNotificationSingleProviders(t *testing.T) {
	_, client := start(t)
	ctx := t.Context()
	n := client.Notifications
	tests := []struct {
		name   string
		get    func() (any, error)
		save   func() (any, error)
		update func() (any, error)
		del    func() (*chat.Result, error)
		saved  any
		after  any // after the update
		bad    func() error
		badKey string
	}{
		{
			name: "custom push",
			get:  func() (any, error) { return n.GetCustomPushProvider(ctx) },
			save: func() (any, error) {
				return n.AddCustomPushProvider(ctx, &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/push"})
			},
			update: func() (any, error) {
				return n.UpdateCustomPushProvider(ctx, &chat.UpdateCustomProviderRequest{UseBasicAuth: new(true), BasicAuthUsername: "u", BasicAuthPassword: "p"})
			},
			del:   func() (*chat.Result, error) { return n.DeleteCustomPushProvider(ctx) },
			saved: &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/push"},
			after: &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/push", UseBasicAuth: true, BasicAuthUsername: "u", BasicAuthPassword: "p"},
			bad: func() error {
				_, err := n.AddCustomPushProvider(ctx, &chat.CustomPushProvider{WebhookURL: "http://hooks.demo/push"})
				return err
			},
			badKey: "webhookURL",
		},
		{
			name: "Twilio",
			get:  func() (any, error) { return n.GetTwilioProvider(ctx) },
			save: func() (any, error) {
				return n.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok", TwilioSenderPhoneNumber: "+15550100"})
			},
			update: func() (any, error) {
				return n.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioSenderPhoneNumber: "+15550199", IsEnabled: new(false)})
			},
			del:   func() (*chat.Result, error) { return n.DeleteTwilioProvider(ctx) },
			saved: &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok", TwilioSenderPhoneNumber: "+15550100"}, // isEnabled only once sent
			after: &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "tok", TwilioSenderPhoneNumber: "+15550199", IsEnabled: new(false)},
			bad: func() error {
				_, err := n.UpdateTwilioProvider(ctx, &chat.TwilioProvider{})
				return err
			},
			badKey: "", // updating nothing is fine; checked below as not found before saving
		},
		{
			name: "custom SMS",
			get:  func() (any, error) { return n.GetCustomSMSProvider(ctx) },
			save: func() (any, error) {
				return n.AddCustomSMSProvider(ctx, &chat.CustomSMSProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/sms"})
			},
			update: func() (any, error) {
				return n.UpdateCustomSMSProvider(ctx, &chat.UpdateCustomProviderRequest{UseStoredPhoneNumber: new(true)})
			},
			del:   func() (*chat.Result, error) { return n.DeleteCustomSMSProvider(ctx) },
			saved: &chat.CustomSMSProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/sms"},
			after: &chat.CustomSMSProvider{IsEnabled: true, UseStoredPhoneNumber: true, WebhookURL: "https://hooks.demo/sms"},
			bad: func() error {
				_, err := n.AddCustomSMSProvider(ctx, &chat.CustomSMSProvider{WebhookURL: "https://hooks.demo/sms", UseBasicAuth: true})
				return err
			},
			badKey: "basicAuthPassword",
		},
		{
			name: "SendGrid",
			get:  func() (any, error) { return n.GetSendGridProvider(ctx) },
			save: func() (any, error) {
				return n.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: "SG.k", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "7",
					SenderName: "Demo", SenderEmail: "no-reply@demo.test"})
			},
			update: func() (any, error) {
				return n.UpdateSendGridProvider(ctx, &chat.SendGridProvider{AllowEmailReplies: new(true), SenderEmailForReplies: "replies@demo.test"})
			},
			del: func() (*chat.Result, error) { return n.DeleteSendGridProvider(ctx) },
			saved: &chat.SendGridProvider{SendGridAPIKey: "SG.k", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "7",
				SenderName: "Demo", SenderEmail: "no-reply@demo.test", AllowEmailReplies: new(false)}, // isEnabled only once sent
			after: &chat.SendGridProvider{SendGridAPIKey: "SG.k", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "7",
				SenderName: "Demo", SenderEmail: "no-reply@demo.test", AllowEmailReplies: new(true),
				SenderEmailForReplies: "replies@demo.test", RepliesWebhook: "https://test-app.notifications.chattest.invalid/email/v1/replies"},
			bad: func() error {
				_, err := n.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: "SG.k", SendGridTemplateID: "d-1", SendGridUnsubscribeGroupID: "7",
					SenderName: "Demo", SenderEmail: "not an address"})
				return err
			},
			badKey: "senderEmail",
		},
		{
			name: "custom email",
			get:  func() (any, error) { return n.GetCustomEmailProvider(ctx) },
			save: func() (any, error) {
				return n.AddCustomEmailProvider(ctx, &chat.CustomEmailProvider{IsEnabled: true, UseStoredEmailID: true, WebhookURL: "https://hooks.demo/email"})
			},
			update: func() (any, error) {
				return n.UpdateCustomEmailProvider(ctx, &chat.UpdateCustomProviderRequest{IsEnabled: new(false), WebhookURL: "https://hooks.demo/email2"})
			},
			del:   func() (*chat.Result, error) { return n.DeleteCustomEmailProvider(ctx) },
			saved: &chat.CustomEmailProvider{IsEnabled: true, UseStoredEmailID: true, WebhookURL: "https://hooks.demo/email"},
			after: &chat.CustomEmailProvider{IsEnabled: false, UseStoredEmailID: true, WebhookURL: "https://hooks.demo/email2"},
			bad: func() error {
				_, err := n.AddCustomEmailProvider(ctx, &chat.CustomEmailProvider{WebhookURL: "ftp://hooks.demo"})
				return err
			},
			badKey: "webhookURL",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.get()
			requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
			_, err = tt.update()
			requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
			_, err = tt.del()
			requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
			if tt.badKey != "" {
				e := requireAPIError(t, tt.bad(), http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
				assert.Contains(t, e.Details, tt.badKey)
			}

			got, err := tt.save()
			require.NoError(t, err)
			assert.Equal(t, tt.saved, got)
			_, err = tt.save()
			requireAPIError(t, err, http.StatusConflict, "ERR_PROVIDER_ALREADY_EXISTS", chat.ErrConflict)
			got, err = tt.update()
			require.NoError(t, err)
			assert.Equal(t, tt.after, got)
			got, err = tt.get()
			require.NoError(t, err)
			assert.Equal(t, tt.after, got)
			res, err := tt.del()
			require.NoError(t, err)
			assert.True(t, res.Success)
			_, err = tt.get()
			requireAPIError(t, err, http.StatusNotFound, "ERR_PROVIDER_NOT_FOUND", chat.ErrNotFound)
		})
	}
}

func TestNotificationUserPreferences(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	n := client.Notifications

	_, err := n.GetPreferences(ctx, "nobody")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	_, err = n.UpdatePreferences(ctx, "nobody", &chat.UpdatePreferencesRequest{})
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	eff, err := n.GetPreferences(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyAll, *eff.Preferences.Group.MessagesSetting, "the app's value")
	assert.Nil(t, eff.Preferences.Call, "the user view has group, oneOnOne and mute")

	eff, err = n.UpdatePreferences(ctx, "ALICE", &chat.UpdatePreferencesRequest{
		GroupPreferences:    &chat.UserGroupPreferences{Messages: new(chat.NotifyMentions), MemberJoined: new(chat.NotifyAll)},
		OneOnOnePreferences: &chat.UserOneOnOnePreferences{Reactions: new(chat.NotifyReactionsOnAllMessages)},
		MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDEnabled),
			Schedule: &chat.WeekSchedule{Saturday: &chat.DaySchedule{From: 1000, To: 1800, DND: true}}},
		UsePrivacyTemplate: new(true),
	})
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyMentions, *eff.Preferences.Group.MessagesSetting)
	assert.Equal(t, chat.NotifyAll, *eff.Preferences.Group.MemberJoinedSetting)
	assert.Equal(t, chat.NotifyReactionsOnAllMessages, *eff.Preferences.OneOnOne.ReactionsSetting)
	assert.Equal(t, chat.DNDEnabled, *eff.Preferences.Mute.DNDPreferenceSetting)
	assert.Equal(t, &chat.DaySchedule{From: 1000, To: 1800, DND: true}, eff.Preferences.Mute.SchedulePreferenceSetting.Saturday)
	assert.Equal(t, chat.PrivacyTemplateDefault, *eff.Templates.UsePrivacyTemplate, "the app does not leave the choice to users")
	got, err := n.GetPreferences(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, eff, got)

	// The app takes back the messages override and leaves the template
	// choice to users.
	_, err = n.UpdateSettings(ctx, &chat.NotificationSettings{
		Preferences: &chat.NotificationPreferences{Group: &chat.GroupNotificationPreferences{MessagesOverride: new(false)}},
		Templates:   &chat.NotificationTemplates{UsePrivacyTemplate: new(chat.PrivacyTemplateUserOverride)},
	})
	require.NoError(t, err)
	got, err = n.GetPreferences(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyAll, *got.Preferences.Group.MessagesSetting, "not overridable: the app's value")
	assert.Equal(t, chat.NotifyAll, *got.Preferences.Group.MemberJoinedSetting, "still the user's")
	assert.Equal(t, chat.PrivacyTemplatePrivacy, *got.Templates.UsePrivacyTemplate, "the user's privacy choice")

	for name, bad := range map[string]struct {
		req   *chat.UpdatePreferencesRequest
		field string
	}{
		"member left 3": {&chat.UpdatePreferencesRequest{GroupPreferences: &chat.UserGroupPreferences{MemberLeft: new(chat.NotificationSetting(3))}},
			"groupPreferences.groupMemberLeft"},
		"messages 0": {&chat.UpdatePreferencesRequest{OneOnOnePreferences: &chat.UserOneOnOnePreferences{Messages: new(chat.NotificationSetting(0))}},
			"oneOnOnePreferences.oneOnOneMessages"},
		"dnd 3": {&chat.UpdatePreferencesRequest{MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDSetting(3))}}, "mutePreferences.dnd"},
		"to 1299": {&chat.UpdatePreferencesRequest{MutePreferences: &chat.UserMutePreferences{Schedule: &chat.WeekSchedule{
			Monday: &chat.DaySchedule{To: 1299}}}}, "mutePreferences.schedule.monday.to"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := n.UpdatePreferences(ctx, "alice", bad.req)
			e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
			assert.Contains(t, e.Details, bad.field)
		})
	}

	reset, err := n.ResetPreferences(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyAll, *reset.GroupPreferences.Messages)
	assert.Equal(t, chat.NotifyNone, *reset.GroupPreferences.MemberJoined)
	assert.Equal(t, chat.NotifyReactionsOnOwnMessages, *reset.OneOnOnePreferences.Reactions)
	assert.Equal(t, chat.DNDDisabled, *reset.MutePreferences.DND)
	assert.Equal(t, &chat.DaySchedule{From: 0, To: 2359}, reset.MutePreferences.Schedule.Saturday)
	assert.False(t, *reset.UsePrivacyTemplate)
	got, err = n.GetPreferences(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, chat.NotifyNone, *got.Preferences.Group.MemberJoinedSetting)
	assert.Equal(t, chat.DNDDisabled, *got.Preferences.Mute.DNDPreferenceSetting)
}

func TestNotificationMutes(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice")
	n := client.Notifications
	hour := t0.Add(time.Hour).UnixMilli()

	_, err := n.ListMuted(ctx, "nobody")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	muted, err := n.ListMuted(ctx, "alice")
	require.NoError(t, err)
	assert.Empty(t, muted)

	_, err = n.Mute(ctx, "alice", &chat.MuteRequest{Conversations: []chat.MutedConversation{
		{ID: "bob", Type: chat.MutedOneOnOne, Until: hour},
		{ID: "team", Type: chat.MutedGroup, Until: t0.Add(2 * time.Hour).UnixMilli()},
	}})
	require.NoError(t, err)
	muted, err = n.ListMuted(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, []chat.MutedConversation{
		{ID: "bob", Type: chat.MutedOneOnOne, Until: hour},
		{ID: "team", Type: chat.MutedGroup, Until: t0.Add(2 * time.Hour).UnixMilli()},
	}, muted)

	_, err = n.Mute(ctx, "alice", &chat.MuteRequest{Conversations: []chat.MutedConversation{
		{ID: "bob", Type: chat.MutedOneOnOne, Until: t0.UnixMilli()},
		{ID: "x", Type: "user", Until: hour},
		{Type: chat.MutedGroup, Until: hour},
	}})
	e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.ElementsMatch(t, []string{"conversations.0.until", "conversations.1.type", "conversations.2.id"}, detailKeys(e.Details))

	// The mute of bob ends after an hour.
	clk.Set(t0.Add(90 * time.Minute))
	muted, err = n.ListMuted(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, []chat.MutedConversation{{ID: "team", Type: chat.MutedGroup, Until: t0.Add(2 * time.Hour).UnixMilli()}}, muted)

	_, err = n.Unmute(ctx, "alice", &chat.UnmuteRequest{Conversations: []chat.MutedConversation{
		{ID: "team", Type: chat.MutedGroup}, {ID: "never", Type: chat.MutedOneOnOne}}})
	require.NoError(t, err)
	muted, err = n.ListMuted(ctx, "alice")
	require.NoError(t, err)
	assert.Empty(t, muted)
}

func TestNotificationTimezoneAndContactDetails(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	n := client.Notifications

	tz, err := n.GetTimezone(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, "UTC", tz)
	tz, err = n.UpdateTimezone(ctx, "alice", &chat.UpdateTimezoneRequest{Timezone: "Asia/Kolkata"})
	require.NoError(t, err)
	assert.Equal(t, "Asia/Kolkata", tz)
	tz, err = n.GetTimezone(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, "Asia/Kolkata", tz)
	for _, bad := range []string{"Mars/Olympus_Mons", "Local", "../etc/passwd", "+05:30"} {
		_, err = n.UpdateTimezone(ctx, "alice", &chat.UpdateTimezoneRequest{Timezone: bad})
		e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		assert.Contains(t, e.Details, "timezone", bad)
	}
	_, err = n.GetTimezone(ctx, "nobody")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	cd, err := n.GetContactDetails(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, &chat.ContactDetails{}, cd)
	cd, err = n.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{Email: "alice@example.com"})
	require.NoError(t, err)
	assert.Equal(t, &chat.ContactDetails{Email: "alice@example.com"}, cd)
	cd, err = n.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{PhoneNumber: "+14155550100"})
	require.NoError(t, err)
	assert.Equal(t, &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"}, cd)
	_, err = n.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{Email: "nope", PhoneNumber: "4155550100"})
	e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.ElementsMatch(t, []string{"email", "phno"}, detailKeys(e.Details))
	cd, err = n.GetContactDetails(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, &chat.ContactDetails{Email: "alice@example.com", PhoneNumber: "+14155550100"}, cd)
	_, err = n.GetContactDetails(ctx, "nobody")
	requireAPIError(t, err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)

	res, err := n.DeleteContactDetails(ctx, "alice")
	require.NoError(t, err)
	assert.True(t, res.Success)
	cd, err = n.GetContactDetails(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, &chat.ContactDetails{}, cd)
}

// login mints a new auth token for uid.
func login(t *testing.T, client *chat.Client, uid string) string {
	t.Helper()
	tok, err := client.AuthTokens.Create(t.Context(), uid, &chat.CreateAuthTokenRequest{Force: true})
	require.NoError(t, err)
	return string(tok.AuthToken)
}

func TestPushTokens(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	n := client.Notifications
	phone, laptop, bobs := login(t, client, "alice"), login(t, client, "alice"), login(t, client, "bob")
	register := func(auth string, platform chat.PushPlatform, token, provider string) error {
		_, err := n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: platform, Token: chat.Secret(token), AuthToken: chat.Secret(auth), ProviderID: provider})
		return err
	}

	err := register("alice_unknown", chat.PushPlatformFCMAndroid, "t", "")
	e := requireAPIError(t, err, http.StatusNotFound, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound)
	assert.NotContains(t, err.Error(), "alice_unknown")
	assert.Contains(t, e.Details, "authToken")

	// Tokens registered without a provider take the default one.
	_, err = n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-a", ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", ClientEmail: "c", PrivateKey: "k"}})
	require.NoError(t, err)
	_, err = n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-b", ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", ClientEmail: "c", PrivateKey: "k"}})
	require.NoError(t, err)
	require.NoError(t, register(phone, chat.PushPlatformFCMAndroid, "fcm-phone-1", ""))
	_, err = n.SetDefaultFCMProvider(ctx, "fcm-b")
	require.NoError(t, err)
	require.NoError(t, register(laptop, chat.PushPlatformFCMWeb, "fcm-laptop", ""))
	require.NoError(t, register(phone, chat.PushPlatformAPNsIOSVoIP, "voip-phone", "apns-x"))

	mine, err := n.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: chat.Secret(phone)})
	require.NoError(t, err)
	require.Len(t, mine, 2)
	assert.Equal(t, chat.PushToken{UID: "alice", AuthToken: chat.Secret(phone), Token: "fcm-phone-1", Type: chat.PushTokenChat,
		Platform: chat.PushPlatformFCMAndroid, ProviderID: "fcm-a", CreatedAt: "2023-11-14T22:13:20.000Z", UpdatedAt: "2023-11-14T22:13:20.000Z"}, mine[0])
	assert.Equal(t, chat.Secret("voip-phone"), mine[1].Token)
	all, err := n.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: chat.Secret(laptop), All: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"fcm-phone-1", "fcm-laptop", "voip-phone"}, tokenValues(all))
	assert.Equal(t, "fcm-b", all[1].ProviderID, "the default at registration")
	assert.Equal(t, all, srv.PushTokens("alice"))

	// A login keeps one token per kind; a token belongs to one login.
	require.NoError(t, register(phone, chat.PushPlatformFCMAndroid, "fcm-phone-2", "fcm-a"))
	assert.Equal(t, []string{"fcm-laptop", "voip-phone", "fcm-phone-2"}, tokenValues(srv.PushTokens("alice")))
	err = register(bobs, chat.PushPlatformFCMAndroid, "fcm-laptop", "")
	requireAPIError(t, err, http.StatusConflict, "ERR_TOKEN_ALREADY_EXISTS", chat.ErrConflict)
	require.NoError(t, register(laptop, chat.PushPlatformFCMWeb, "fcm-laptop", "fcm-a"), "the same token again updates it")
	assert.Equal(t, "fcm-a", srv.PushTokens("alice")[0].ProviderID)

	err = register(phone, chat.PushPlatformFCMAndroid, strings.Repeat("x", 4097), "")
	e = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, e.Details, "fcmToken")
	_, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: "fcm_tizen", Token: "t", AuthToken: chat.Secret(phone)})
	e = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, e.Details, "platform")

	// Deleting one token needs a login of its user.
	_, err = n.DeletePushToken(ctx, "voip-phone", &chat.DeletePushTokenRequest{AuthToken: chat.Secret(bobs)})
	requireAPIError(t, err, http.StatusNotFound, "ERR_TOKEN_NOT_FOUND", chat.ErrNotFound)
	removed, err := n.DeletePushToken(ctx, "voip-phone", &chat.DeletePushTokenRequest{AuthToken: chat.Secret(laptop)})
	require.NoError(t, err)
	assert.Equal(t, []string{"voip-phone"}, tokenValues(removed))
	_, err = n.DeletePushToken(ctx, "voip-phone", &chat.DeletePushTokenRequest{AuthToken: chat.Secret(laptop)})
	requireAPIError(t, err, http.StatusNotFound, "ERR_TOKEN_NOT_FOUND", chat.ErrNotFound)

	removed, err = n.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: chat.Secret(laptop)})
	require.NoError(t, err)
	assert.Equal(t, []string{"fcm-laptop"}, tokenValues(removed))
	assert.Equal(t, []string{"fcm-phone-2"}, tokenValues(srv.PushTokens("alice")))
	require.NoError(t, register(laptop, chat.PushPlatformFCMWeb, "fcm-laptop", ""))
	removed, err = n.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: chat.Secret(laptop), All: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"fcm-phone-2", "fcm-laptop"}, tokenValues(removed))
	assert.Empty(t, srv.PushTokens("alice"))

	// The timezone sent with a token becomes the user's.
	_, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformAPNsIOSDevice, Token: "dev",
		AuthToken: chat.Secret(bobs), Timezone: "Europe/Paris"})
	require.NoError(t, err)
	tz, err := n.GetTimezone(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, "Europe/Paris", tz)
}

func tokenValues(ts []chat.PushToken) []string {
	return ids(ts, func(t chat.PushToken) string { return string(t.Token) })
}

func TestPushTokensPerUserLimit(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	kinds := []chat.PushPlatform{chat.PushPlatformFCMAndroid, chat.PushPlatformAPNsIOSDevice, chat.PushPlatformAPNsIOSVoIP}
	var auth string
	for i := range 101 {
		if i%3 == 0 {
			auth = login(t, client, "alice")
		}
		_, err := client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
			Platform: kinds[i%3], Token: chat.Secret(fmt.Sprint("tok-", i)), AuthToken: chat.Secret(auth)})
		if i < 100 {
			require.NoError(t, err, i)
			continue
		}
		e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		assert.Contains(t, e.Details, "deviceToken", "the 101st token is a device token")
	}
	assert.Len(t, srv.PushTokens("alice"), 100)
}

// A reaction notifies the message's sender (not the user who reacted):
// an entry with trigger message_reaction_added and the reaction, over
// APNs with what APNs takes.
func TestNotificationLogsOfReactions(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	n := client.Notifications
	_, err := n.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns", KeyID: "k", TeamID: "t", BundleID: "com.example.app", P8Key: "p8",
		IncludeMutableContent: true})
	require.NoError(t, err)
	_, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformAPNsIOSDevice, Token: "alice-phone",
		AuthToken: chat.Secret(login(t, client, "alice")), ProviderID: "apns"})
	require.NoError(t, err)
	msg, err := client.Messages.Send(ctx, toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, msg.ID, "👍", "alice")
	require.NoError(t, err, "her own reaction notifies nobody")
	_, err = client.Messages.AddReaction(ctx, msg.ID, "😂", "bob")
	require.NoError(t, err)

	logs := srv.NotificationLogs()
	require.Len(t, logs, 1, "bob has no token; alice is told of bob's reaction only")
	l := logs[0]
	assert.Equal(t, chat.TriggerMessageReactionAdded, l.Trigger)
	assert.Equal(t, "bob", l.ReactionSender)
	assert.Equal(t, "alice", l.ReactionReceiver)
	assert.NotZero(t, l.ReactionID)
	assert.Equal(t, "alice", l.Sender, "the message's sender")
	assert.True(t, l.NotificationTriggered)
	var payload struct {
		Payload struct {
			Title, Body string
			SentAt      *int64 `json:"sentAt"`
		} `json:"payload"`
		Topic                            string
		ContentAvailable, MutableContent int
		Alert                            struct{ Title, Body string }
	}
	require.NoError(t, json.Unmarshal(l.Payload, &payload))
	assert.Equal(t, "Bob", payload.Payload.Title)
	assert.Equal(t, "Reacted to your message: 😂", payload.Payload.Body)
	assert.Nil(t, payload.Payload.SentAt, "a reaction's payload has no sentAt")
	assert.Equal(t, "com.example.app", payload.Topic)
	assert.Equal(t, 0, payload.ContentAvailable)
	assert.Equal(t, 1, payload.MutableContent)
	assert.Equal(t, "Reacted to your message: 😂", payload.Alert.Body)
}

func TestNotificationLogs(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	seed(srv, "alice", "bob", "carol")
	n := client.Notifications
	_, err := n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm", ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", ClientEmail: "c", PrivateKey: "k"}})
	require.NoError(t, err)
	_, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, Token: "bob-phone", AuthToken: chat.Secret(login(t, client, "bob"))})
	require.NoError(t, err)
	_, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformAPNsIOSDevice, Token: "carol-phone",
		AuthToken: chat.Secret(login(t, client, "carol")), ProviderID: "apns-gone"})
	require.NoError(t, err)
	step := 0
	send := func(from string, req *chat.SendMessageRequest) {
		t.Helper()
		step++
		clk.Set(t0.Add(time.Duration(step) * time.Minute))
		_, err := client.Messages.Send(ctx, req, chat.OnBehalfOf(from))
		require.NoError(t, err)
	}

	send("alice", toUser("bob", "hi"))
	page, err := n.ListLogs(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	l := page.Data[0]
	assert.Equal(t, chat.ChannelPush, l.Channel)
	assert.Equal(t, chat.ProviderFCM, l.Provider)
	assert.Equal(t, chat.TriggerAfterMessage, l.Trigger)
	assert.Equal(t, "alice", l.Sender)
	assert.Equal(t, "bob", l.Receiver)
	assert.Equal(t, chat.ReceiverUser, l.ReceiverType)
	assert.Equal(t, chat.PushPlatformFCMAndroid, l.TokenType)
	assert.Equal(t, chat.Secret("bob-phone"), l.PushToken)
	assert.Equal(t, "fcm", l.ProviderID, "the default provider")
	assert.Equal(t, t0.Add(time.Minute).UnixMilli(), l.MessageSentAtMS)
	assert.True(t, l.NotificationTriggered)
	assert.Empty(t, l.Reason)
	var payload struct {
		Payload struct{ Title, Body string } `json:"payload"`
	}
	require.NoError(t, json.Unmarshal(l.Payload, &payload))
	assert.Equal(t, "Alice", payload.Payload.Title)
	assert.Equal(t, "hi", payload.Payload.Body)
	assert.Equal(t, &chat.PageCount{Limit: 10, Count: 1}, page.Meta.Current)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, MessageID: l.MessageID}, page.Meta.Next, "the cursors name the entries' messages")

	// Bob mutes Alice, then only wants mentions, then turns DND on.
	_, err = n.Mute(ctx, "bob", &chat.MuteRequest{Conversations: []chat.MutedConversation{
		{ID: "alice", Type: chat.MutedOneOnOne, Until: t0.Add(time.Hour).UnixMilli()}}})
	require.NoError(t, err)
	send("alice", toUser("bob", "still there?"))
	_, err = n.Unmute(ctx, "bob", &chat.UnmuteRequest{Conversations: []chat.MutedConversation{{ID: "alice", Type: chat.MutedOneOnOne}}})
	require.NoError(t, err)
	_, err = n.UpdatePreferences(ctx, "bob", &chat.UpdatePreferencesRequest{
		OneOnOnePreferences: &chat.UserOneOnOnePreferences{Messages: new(chat.NotifyMentions)}})
	require.NoError(t, err)
	send("alice", toUser("bob", "plain"))
	send("alice", toUser("bob", "hey <@uid:bob>"))
	_, err = n.UpdatePreferences(ctx, "bob", &chat.UpdatePreferencesRequest{MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDEnabled)}})
	require.NoError(t, err)
	send("alice", toUser("bob", "dnd <@uid:bob>"))
	// The app lets mentions through everything.
	_, err = n.UpdateSettings(ctx, &chat.NotificationSettings{Preferences: &chat.NotificationPreferences{BypassPreferencesForMentions: new(true)}})
	require.NoError(t, err)
	send("alice", toUser("bob", "urgent <@uid:bob>"))
	// A group message reaches bob and carol, whose provider does not exist.
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Type: chat.GroupPublic}, "alice", "bob", "carol")
	_, err = n.UpdatePreferences(ctx, "bob", &chat.UpdatePreferencesRequest{MutePreferences: &chat.UserMutePreferences{DND: new(chat.DNDDisabled)}})
	require.NoError(t, err)
	send("alice", &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: text("standup")})

	logs := srv.NotificationLogs()
	type outcome struct {
		receiver, member string
		triggered        bool
		reason           chat.NotificationReason
	}
	var got []outcome
	for _, l := range logs {
		got = append(got, outcome{l.Receiver, l.Member, l.NotificationTriggered, l.Reason})
	}
	assert.Equal(t, []outcome{
		{"bob", "", true, ""},
		{"bob", "", false, chat.ReasonMutePreference},
		{"bob", "", false, chat.ReasonMessagesPreference},
		{"bob", "", true, ""},
		{"bob", "", false, chat.ReasonDNDPreference},
		{"bob", "", true, ""},
		{"team", "bob", true, ""},
		{"team", "carol", false, chat.ReasonInvalidPushProviderID},
	}, got)
	require.NoError(t, json.Unmarshal(logs[7].Payload, &payload))
	assert.Equal(t, "Alice @ Team", payload.Payload.Title)
	assert.Equal(t, chat.ProviderAPNs, logs[7].Provider)

	// Filters.
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{NotificationTriggered: new(false), Limit: 100})
	require.NoError(t, err)
	assert.Len(t, page.Data, 4)
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Success: new(true), ReceiverType: chat.ReceiverGroup})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "bob", page.Data[0].Member)
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Reason: chat.ReasonDNDPreference})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, logs[4].ID, page.Data[0].ID)
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Provider: chat.ProviderAPNs, Member: "carol", Channel: chat.ChannelPush,
		MessageCategory: chat.CategoryMessage, MessageType: "text", Trigger: chat.TriggerAfterMessage, Sender: "alice", Receiver: "team"})
	require.NoError(t, err)
	assert.Equal(t, []string{logs[7].ID}, logIDs(page.Data))
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{From: t0.Add(2 * time.Minute).UnixMilli(), To: t0.Add(3 * time.Minute).UnixMilli()})
	require.NoError(t, err)
	assert.Equal(t, []string{logs[1].ID, logs[2].ID}, logIDs(page.Data))
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{MessageID: logs[3].MessageID})
	require.NoError(t, err)
	assert.Equal(t, []string{logs[3].ID}, logIDs(page.Data))

	// Cursors: a page continues after the _id of its last entry.
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Limit: 3})
	require.NoError(t, err)
	assert.Equal(t, logIDs(logs[:3]), logIDs(page.Data))
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, MessageID: logs[2].MessageID}, page.Meta.Next)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionBefore, MessageID: logs[0].MessageID}, page.Meta.Previous)
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Limit: 3, Direction: chat.DirectionAfter, LogID: page.Data[2].ID})
	require.NoError(t, err)
	assert.Equal(t, logIDs(logs[3:6]), logIDs(page.Data))
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Limit: 2, Direction: chat.DirectionBefore, LogID: logs[3].ID})
	require.NoError(t, err)
	assert.Equal(t, []string{logs[2].ID, logs[1].ID}, logIDs(page.Data), "backward, newest first")
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionBefore, MessageID: logs[1].MessageID}, page.Meta.Next)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, MessageID: logs[2].MessageID}, page.Meta.Previous)
	page, err = n.ListLogs(ctx, &chat.ListLogsOptions{Limit: 2, Direction: chat.DirectionBefore})
	require.NoError(t, err)
	assert.Equal(t, []string{logs[7].ID, logs[6].ID}, logIDs(page.Data), "the last entries")

	var walked []string
	for l, err := range n.AllLogs(ctx, &chat.ListLogsOptions{Limit: 3}) {
		require.NoError(t, err)
		walked = append(walked, l.ID)
	}
	assert.Equal(t, logIDs(logs), walked)
	walked = nil
	for l, err := range n.AllLogs(ctx, &chat.ListLogsOptions{Limit: 3, Direction: chat.DirectionBefore}) {
		require.NoError(t, err)
		walked = append(walked, l.ID)
	}
	backward := slices.Clone(logs)
	slices.Reverse(backward)
	assert.Equal(t, logIDs(backward), walked, "backward from the newest")
	walked = nil
	for l, err := range n.AllLogs(ctx, &chat.ListLogsOptions{Limit: 1, Receiver: "bob", NotificationTriggered: new(true)}) {
		require.NoError(t, err)
		walked = append(walked, l.ID)
	}
	assert.Equal(t, []string{logs[0].ID, logs[3].ID, logs[5].ID}, walked)

	for name, bad := range map[string]*chat.ListLogsOptions{
		"logId":        {LogID: "feedfacefeedfacefeedface"},
		"channel":      {Channel: "pigeon"},
		"receiverType": {ReceiverType: "bot"},
		"reason":       {Reason: "BAD_LUCK"},
		"affix":        {Direction: "sideways"},
		"limit":        {Limit: 1001},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := n.ListLogs(ctx, bad)
			e := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
			assert.Contains(t, e.Details, name)
		})
	}
}

func logIDs(ls []chat.NotificationLog) []string {
	return ids(ls, func(l chat.NotificationLog) string { return l.ID })
}

// TestNotificationsNeedFullAccess checks that an authOnly key cannot use
// the notifications API.
func TestNotificationsNeedFullAccess(t *testing.T) {
	srv, _ := start(t)
	key := srv.AddAPIKey("auth only", chat.ScopeAuthOnly)
	client := srv.ClientWithAPIKey(string(key.APIKey), chat.WithoutRetries())
	_, err := client.Notifications.GetSettings(t.Context())
	requireAPIError(t, err, http.StatusForbidden, "AUTH_ERR_NO_ACCESS", chat.ErrUnauthorized)
}
