package chat

import (
	"context"
	"net/http"
)

// NotificationsService manages push, email and SMS notifications: the app's
// notification settings and templates, the FCM, APNs, Twilio, SendGrid and
// custom providers that deliver them, each user's preferences, muted
// conversations, timezone and contact details, the devices' push tokens,
// and the delivery logs. Get it from [Client.Notifications].
//
// Provider configurations and push tokens carry credentials (private keys,
// auth tokens, API keys, passwords). The SDK never logs them; printing one
// of these types with fmt shows its secrets as REDACTED, while JSON
// encoding keeps them. Errors returned by the calls that send them have
// them scrubbed too.
type NotificationsService struct{ c *caller }

// NotificationSetting says when a notification is sent for an event, in
// the app's settings and in a user's preferences. Its meaning depends on
// the event:
//
//   - messages, replies and quoted replies: [NotifyNone], [NotifyAll] or
//     [NotifyMentions];
//   - reactions: [NotifyNone], [NotifyReactionsOnOwnMessages] or
//     [NotifyReactionsOnAllMessages];
//   - member events, message edits and deletes, calls: [NotifyNone] or
//     [NotifyAll].
//
// Unknown values decode as they are.
type NotificationSetting int

// Notification settings. Several names share a value: use the one that
// reads right for the event.
const (
	NotifyNone                   NotificationSetting = 1 // don't notify
	NotifyAll                    NotificationSetting = 2 // notify for every message, reply or event
	NotifyMentions               NotificationSetting = 3 // notify only for messages that mention the user
	NotifyReactionsOnOwnMessages NotificationSetting = 2 // notify for reactions to the user's own messages
	NotifyReactionsOnAllMessages NotificationSetting = 3 // notify for reactions to any message
)

// PrivacyTemplateSetting says which templates the app's notifications use.
type PrivacyTemplateSetting int

// Privacy template settings.
const (
	PrivacyTemplateDefault      PrivacyTemplateSetting = 1 // the default templates
	PrivacyTemplatePrivacy      PrivacyTemplateSetting = 2 // the privacy templates, which hide the content
	PrivacyTemplateUserOverride PrivacyTemplateSetting = 3 // the default templates, unless the user chooses privacy
)

// DNDSetting turns Do Not Disturb off or on.
type DNDSetting int

// Do Not Disturb settings.
const (
	DNDDisabled DNDSetting = 1
	DNDEnabled  DNDSetting = 2
)

// NotificationSettings are the app's notification settings: when to
// notify, the sounds and the templates. [NotificationsService.GetSettings]
// fills every field; in [NotificationsService.UpdateSettings] only the
// fields set are sent and changed. The per-user calls
// ([NotificationsService.GetPreferences], UpdatePreferences) answer in
// this shape with the user's effective preferences.
type NotificationSettings struct {
	// Preferences say when notifications are sent.
	Preferences *NotificationPreferences `json:"preferences,omitempty"`
	// Sound names the sounds notifications play.
	Sound *NotificationSound `json:"sound,omitempty"`
	// Templates are the notifications' titles and bodies.
	Templates *NotificationTemplates `json:"templates,omitempty"`
}

// NotificationPreferences say when notifications are sent, per kind of
// conversation and event. Each *Override field says whether users may
// change the app's value for themselves. Fields are pointers so that an
// update can send false and 0 and leave unset fields unchanged; write
// new(chat.NotifyNone) or new(false) to set one.
type NotificationPreferences struct {
	Group    *GroupNotificationPreferences    `json:"group,omitempty"`
	OneOnOne *OneOnOneNotificationPreferences `json:"oneOnOne,omitempty"`
	Call     *CallNotificationPreferences     `json:"call,omitempty"`
	Mute     *MuteNotificationPreferences     `json:"mute,omitempty"`
	// Email and SMS pace the email and SMS notifications.
	Email *DigestPreferences `json:"email,omitempty"`
	SMS   *DigestPreferences `json:"sms,omitempty"`
	// Push says what push payloads carry.
	Push *PushPayloadPreferences `json:"push,omitempty"`
	// BypassPreferencesForMentions notifies users who are mentioned even
	// when their preferences would not.
	BypassPreferencesForMentions *bool `json:"bypassPreferencesForMentions,omitempty"`
}

// GroupNotificationPreferences say when to notify for events of group
// conversations.
type GroupNotificationPreferences struct {
	MessagesSetting            *NotificationSetting `json:"messagesSetting,omitempty"`
	MessagesOverride           *bool                `json:"messagesOverride,omitempty"`
	RepliesSetting             *NotificationSetting `json:"repliesSetting,omitempty"`
	RepliesOverride            *bool                `json:"repliesOverride,omitempty"`
	QuotedRepliesSetting       *NotificationSetting `json:"quotedRepliesSetting,omitempty"`
	QuotedRepliesOverride      *bool                `json:"quotedRepliesOverride,omitempty"`
	ReactionsSetting           *NotificationSetting `json:"reactionsSetting,omitempty"`
	ReactionsOverride          *bool                `json:"reactionsOverride,omitempty"`
	MemberLeftSetting          *NotificationSetting `json:"memberLeftSetting,omitempty"`
	MemberLeftOverride         *bool                `json:"memberLeftOverride,omitempty"`
	MemberAddedSetting         *NotificationSetting `json:"memberAddedSetting,omitempty"`
	MemberAddedOverride        *bool                `json:"memberAddedOverride,omitempty"`
	MemberJoinedSetting        *NotificationSetting `json:"memberJoinedSetting,omitempty"`
	MemberJoinedOverride       *bool                `json:"memberJoinedOverride,omitempty"`
	MemberKickedSetting        *NotificationSetting `json:"memberKickedSetting,omitempty"`
	MemberKickedOverride       *bool                `json:"memberKickedOverride,omitempty"`
	MemberBannedSetting        *NotificationSetting `json:"memberBannedSetting,omitempty"`
	MemberBannedOverride       *bool                `json:"memberBannedOverride,omitempty"`
	MemberUnbannedSetting      *NotificationSetting `json:"memberUnbannedSetting,omitempty"`
	MemberUnbannedOverride     *bool                `json:"memberUnbannedOverride,omitempty"`
	MemberScopeChangedSetting  *NotificationSetting `json:"memberScopeChangedSetting,omitempty"`
	MemberScopeChangedOverride *bool                `json:"memberScopeChangedOverride,omitempty"`
	MessageEditedSetting       *NotificationSetting `json:"messageEditedSetting,omitempty"`
	MessageDeletedSetting      *NotificationSetting `json:"messageDeletedSetting,omitempty"`
}

// OneOnOneNotificationPreferences say when to notify for events of
// one-on-one conversations.
type OneOnOneNotificationPreferences struct {
	MessagesSetting       *NotificationSetting `json:"messagesSetting,omitempty"`
	MessagesOverride      *bool                `json:"messagesOverride,omitempty"`
	RepliesSetting        *NotificationSetting `json:"repliesSetting,omitempty"`
	RepliesOverride       *bool                `json:"repliesOverride,omitempty"`
	QuotedRepliesSetting  *NotificationSetting `json:"quotedRepliesSetting,omitempty"`
	QuotedRepliesOverride *bool                `json:"quotedRepliesOverride,omitempty"`
	ReactionsSetting      *NotificationSetting `json:"reactionsSetting,omitempty"`
	ReactionsOverride     *bool                `json:"reactionsOverride,omitempty"`
	MessageEditedSetting  *NotificationSetting `json:"messageEditedSetting,omitempty"`
	MessageDeletedSetting *NotificationSetting `json:"messageDeletedSetting,omitempty"`
}

// CallNotificationPreferences say when to notify for call events; each
// setting is [NotifyNone] or [NotifyAll].
type CallNotificationPreferences struct {
	InitiatedSetting   *NotificationSetting `json:"initiatedSetting,omitempty"`
	InitiatedOverride  *bool                `json:"initiatedOverride,omitempty"`
	OngoingSetting     *NotificationSetting `json:"ongoingSetting,omitempty"`
	OngoingOverride    *bool                `json:"ongoingOverride,omitempty"`
	CancelledSetting   *NotificationSetting `json:"cancelledSetting,omitempty"`
	CancelledOverride  *bool                `json:"cancelledOverride,omitempty"`
	BusySetting        *NotificationSetting `json:"busySetting,omitempty"`
	BusyOverride       *bool                `json:"busyOverride,omitempty"`
	RejectedSetting    *NotificationSetting `json:"rejectedSetting,omitempty"`
	RejectedOverride   *bool                `json:"rejectedOverride,omitempty"`
	UnansweredSetting  *NotificationSetting `json:"unansweredSetting,omitempty"`
	UnansweredOverride *bool                `json:"unansweredOverride,omitempty"`
	EndedSetting       *NotificationSetting `json:"endedSetting,omitempty"`
	EndedOverride      *bool                `json:"endedOverride,omitempty"`
}

// MuteNotificationPreferences are the Do Not Disturb and schedule
// defaults, and whether users may mute conversations.
type MuteNotificationPreferences struct {
	DNDPreferenceSetting       *DNDSetting   `json:"dndPreferenceSetting,omitempty"`
	DNDPreferenceOverride      *bool         `json:"dndPreferenceOverride,omitempty"`
	SchedulePreferenceSetting  *WeekSchedule `json:"schedulePreferenceSetting,omitempty"`
	SchedulePreferenceOverride *bool         `json:"schedulePreferenceOverride,omitempty"`
	MutedGroupsOverride        *bool         `json:"mutedGroupsOverride,omitempty"`
	MutedOneOnOnesOverride     *bool         `json:"mutedOneOnOnesOverride,omitempty"`
}

// WeekSchedule is a notification schedule per day of the week; a nil day
// is left unchanged by an update.
type WeekSchedule struct {
	Monday    *DaySchedule `json:"monday,omitempty"`
	Tuesday   *DaySchedule `json:"tuesday,omitempty"`
	Wednesday *DaySchedule `json:"wednesday,omitempty"`
	Thursday  *DaySchedule `json:"thursday,omitempty"`
	Friday    *DaySchedule `json:"friday,omitempty"`
	Saturday  *DaySchedule `json:"saturday,omitempty"`
	Sunday    *DaySchedule `json:"sunday,omitempty"`
}

// DaySchedule is one day of a [WeekSchedule]. From and To are times of day
// written as hours*100+minutes, 0 to 2359 (e.g. 930 for 09:30); all three
// fields are always sent.
type DaySchedule struct {
	From int `json:"from"`
	To   int `json:"to"`
	// DND turns Do Not Disturb on for the day.
	DND bool `json:"dnd"`
}

// DigestPreferences pace email or SMS notifications.
type DigestPreferences struct {
	// NotifyForUnreadOnly includes only messages still unread; false
	// includes all messages.
	NotifyForUnreadOnly *bool `json:"notifyForUnreadOnly,omitempty"`
	// IntervalInSeconds is how long to wait before notifying.
	IntervalInSeconds *int `json:"intervalInSeconds,omitempty"`
	// MaxPerDay caps the notifications a user gets per day.
	MaxPerDay *int `json:"maxPerDay,omitempty"`
	// MaxPerDayPerConversation caps them per conversation and day.
	MaxPerDayPerConversation *int `json:"maxPerDayPerConversation,omitempty"`
}

// PushPayloadPreferences say what push payloads carry.
type PushPayloadPreferences struct {
	IncludeMessageObjectSetting    *bool `json:"includeMessageObjectSetting,omitempty"`
	IncludeSenderMetadataSetting   *bool `json:"includeSenderMetadataSetting,omitempty"`
	IncludeReceiverMetadataSetting *bool `json:"includeReceiverMetadataSetting,omitempty"`
	TrimTextFieldSetting           *bool `json:"trimTextFieldSetting,omitempty"`
	IncludeMessageMetadataSetting  *bool `json:"includeMessageMetadataSetting,omitempty"`
	// CustomJSON is added to every payload.
	CustomJSON map[string]any `json:"customJson,omitempty"`
}

// NotificationSound names the sounds of chat and call notifications.
type NotificationSound struct {
	Chat string `json:"chat,omitempty"`
	Call string `json:"call,omitempty"`
}

// NotificationTemplates are the titles and bodies of notifications, each
// in a default and a privacy variant (which hides the content). Templates
// use placeholders such as {{message.data.text}},
// {{message.data.entities.sender.entity.name}}, {{groupDetails.name}},
// {{senderDetails.name}} and {{messages.length}}. In an update, only the
// templates and fields set are sent.
type NotificationTemplates struct {
	// UsePrivacyTemplate says which variant is used.
	UsePrivacyTemplate *PrivacyTemplateSetting `json:"usePrivacyTemplate,omitempty"`

	TextMessageTemplateDefault     *TextTemplate    `json:"textMessageTemplateDefault,omitempty"`
	TextMessageTemplatePrivacy     *TextTemplate    `json:"textMessageTemplatePrivacy,omitempty"`
	MediaMessageTemplateDefault    *MediaTemplate   `json:"mediaMessageTemplateDefault,omitempty"`
	MediaMessageTemplatePrivacy    *MediaTemplate   `json:"mediaMessageTemplatePrivacy,omitempty"`
	PollMessageTemplateDefault     *CustomTemplate  `json:"pollMessageTemplateDefault,omitempty"`
	PollMessageTemplatePrivacy     *CustomTemplate  `json:"pollMessageTemplatePrivacy,omitempty"`
	ReminderMessageTemplateDefault *CustomTemplate  `json:"reminderMessageTemplateDefault,omitempty"`
	ReminderMessageTemplatePrivacy *CustomTemplate  `json:"reminderMessageTemplatePrivacy,omitempty"`
	CustomMessageTemplateDefault   *CustomTemplate  `json:"customMessageTemplateDefault,omitempty"`
	CustomMessageTemplatePrivacy   *CustomTemplate  `json:"customMessageTemplatePrivacy,omitempty"`
	EmailSubjectTemplateDefault    *EmailTemplate   `json:"emailSubjectTemplateDefault,omitempty"`
	EmailSubjectTemplatePrivacy    *EmailTemplate   `json:"emailSubjectTemplatePrivacy,omitempty"`
	SMSContentTemplateDefault      *SMSTemplate     `json:"smsContentTemplateDefault,omitempty"`
	SMSContentTemplatePrivacy      *SMSTemplate     `json:"smsContentTemplatePrivacy,omitempty"`
	UserMentionTemplateDefault     *MentionTemplate `json:"userMentionTemplateDefault,omitempty"`
	UserMentionTemplatePrivacy     *MentionTemplate `json:"userMentionTemplatePrivacy,omitempty"`
	GroupMentionTemplateDefault    *MentionTemplate `json:"groupMentionTemplateDefault,omitempty"`
	GroupMentionTemplatePrivacy    *MentionTemplate `json:"groupMentionTemplatePrivacy,omitempty"`

	// InteractiveFormTemplateDefault is the template of interactive form
	// messages.
	InteractiveFormTemplateDefault *TextTemplate `json:"interactiveFormTemplateDefault,omitempty"`
	// InteractiveFormTemplatePrivacy is its privacy variant.
	InteractiveFormTemplatePrivacy *TextTemplate `json:"interactiveFormTemplatePrivacy,omitempty"`
	// InteractiveCardTemplateDefault is the template of interactive card
	// messages.
	InteractiveCardTemplateDefault *TextTemplate `json:"interactiveCardTemplateDefault,omitempty"`
	// InteractiveCardTemplatePrivacy is its privacy variant.
	InteractiveCardTemplatePrivacy *TextTemplate `json:"interactiveCardTemplatePrivacy,omitempty"`
	// InteractiveSchedulerTemplateDefault is the template of scheduler
	// messages.
	InteractiveSchedulerTemplateDefault *TextTemplate `json:"interactiveSchedulerTemplateDefault,omitempty"`
	// InteractiveSchedulerTemplatePrivacy is its privacy variant.
	InteractiveSchedulerTemplatePrivacy *TextTemplate `json:"interactiveSchedulerTemplatePrivacy,omitempty"`
	// InteractiveCustomTemplateDefault is the template of custom
	// interactive messages.
	InteractiveCustomTemplateDefault *TextTemplate `json:"interactiveCustomTemplateDefault,omitempty"`
	// InteractiveCustomTemplatePrivacy is its privacy variant.
	InteractiveCustomTemplatePrivacy *TextTemplate `json:"interactiveCustomTemplatePrivacy,omitempty"`
}

// TextTemplate is the template of text message notifications, and of
// interactive ones.
type TextTemplate struct {
	TitleOneOnOne string `json:"titleOneOnOne,omitempty"`
	TitleGroup    string `json:"titleGroup,omitempty"`
	Body          string `json:"body,omitempty"`
}

// MediaTemplate is the template of media message notifications, with a
// body per kind of media.
type MediaTemplate struct {
	TitleOneOnOne string `json:"titleOneOnOne,omitempty"`
	TitleGroup    string `json:"titleGroup,omitempty"`
	BodyImage     string `json:"body_image,omitempty"`
	BodyAudio     string `json:"body_audio,omitempty"`
	BodyVideo     string `json:"body_video,omitempty"`
	BodyFile      string `json:"body_file,omitempty"`
}

// CustomTemplate is the template of poll, reminder and custom message
// notifications; BodyFallback is used when Body cannot be filled.
type CustomTemplate struct {
	TitleOneOnOne string `json:"titleOneOnOne,omitempty"`
	TitleGroup    string `json:"titleGroup,omitempty"`
	Body          string `json:"body,omitempty"`
	BodyFallback  string `json:"body_fallback,omitempty"`
}

// EmailTemplate is the subject of email notifications.
type EmailTemplate struct {
	SubjectGroup    string `json:"subjectGroup,omitempty"`
	SubjectOneOnOne string `json:"subjectOneOnOne,omitempty"`
}

// SMSTemplate is the content of SMS notifications.
type SMSTemplate struct {
	BodyGroup    string `json:"bodyGroup,omitempty"`
	BodyOneOnOne string `json:"bodyOneOnOne,omitempty"`
}

// MentionTemplate is the template of notifications for messages that
// mention a user or a group (group mentions use TitleGroup, Body and
// BodyFallback).
type MentionTemplate struct {
	TitleOneOnOne string `json:"titleOneOnOne,omitempty"`
	TitleGroup    string `json:"titleGroup,omitempty"`
	BodyOneOnOne  string `json:"bodyOneOnOne,omitempty"`
	BodyGroup     string `json:"bodyGroup,omitempty"`
	Body          string `json:"body,omitempty"`
	BodyFallback  string `json:"body_fallback,omitempty"`
}

// GetSettings returns the app's notification settings.
//
// API: GET /v3/notifications/v1/settings (onBehalfOf not supported)
func (s *NotificationsService) GetSettings(ctx context.Context, opts ...RequestOption) (*NotificationSettings, error) {
	return do[NotificationSettings](ctx, s.c, &Request{Method: http.MethodGet, Path: notificationsPath("v1", "settings")}, opts)
}

// UpdateSettings changes the app's notification settings: only the fields
// set in req are sent and changed.
//
// API: PATCH /v3/notifications/v1/settings (onBehalfOf not supported)
func (s *NotificationsService) UpdateSettings(ctx context.Context, req *NotificationSettings, opts ...RequestOption) (*Result, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPatch, Path: notificationsPath("v1", "settings"), Body: req}, opts)
}

// ResetSettings restores the app's default notification settings.
//
// API: DELETE /v3/notifications/v1/settings (onBehalfOf not supported)
func (s *NotificationsService) ResetSettings(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: notificationsPath("v1", "settings")}, opts)
}

// notificationsPath is /notifications/{segments...}.
func notificationsPath(segments ...string) []string {
	return append([]string{"notifications"}, segments...)
}
