package chat

import (
	"context"
	"net/http"
	"net/url"

	"github.com/chatrest/chat/internal/engine"
)

// UserNotificationPreferences are a user's own notification preferences,
// as [NotificationsService.ResetPreferences] answers them. A user's
// choice applies only where the app's settings allow users to override
// (the *Override fields of [NotificationPreferences]).
type UserNotificationPreferences struct {
	GroupPreferences    *UserGroupPreferences    `json:"groupPreferences,omitempty"`
	OneOnOnePreferences *UserOneOnOnePreferences `json:"oneOnOnePreferences,omitempty"`
	MutePreferences     *UserMutePreferences     `json:"mutePreferences,omitempty"`
	// UsePrivacyTemplate chooses the privacy templates, where the app's
	// UsePrivacyTemplate is [PrivacyTemplateUserOverride].
	UsePrivacyTemplate *bool `json:"usePrivacyTemplate,omitempty"`
}

// UpdatePreferencesRequest is the body of
// [NotificationsService.UpdatePreferences]: only the fields set are sent
// and changed. Write new(chat.NotifyNone) or new(false) to set a field.
type UpdatePreferencesRequest struct {
	GroupPreferences    *UserGroupPreferences    `json:"groupPreferences,omitempty"`
	OneOnOnePreferences *UserOneOnOnePreferences `json:"oneOnOnePreferences,omitempty"`
	MutePreferences     *UserMutePreferences     `json:"mutePreferences,omitempty"`
	UsePrivacyTemplate  *bool                    `json:"usePrivacyTemplate,omitempty"`
}

// UserGroupPreferences are a user's choices for group conversations:
// messages, replies and quoted replies take [NotifyNone], [NotifyAll] or
// [NotifyMentions]; reactions [NotifyNone], [NotifyReactionsOnOwnMessages]
// or [NotifyReactionsOnAllMessages]; member events [NotifyNone] or
// [NotifyAll].
type UserGroupPreferences struct {
	Messages           *NotificationSetting `json:"groupMessages,omitempty"`
	Replies            *NotificationSetting `json:"groupReplies,omitempty"`
	QuotedReplies      *NotificationSetting `json:"groupQuotedReplies,omitempty"`
	Reactions          *NotificationSetting `json:"groupReactions,omitempty"`
	MemberLeft         *NotificationSetting `json:"groupMemberLeft,omitempty"`
	MemberAdded        *NotificationSetting `json:"groupMemberAdded,omitempty"`
	MemberJoined       *NotificationSetting `json:"groupMemberJoined,omitempty"`
	MemberKicked       *NotificationSetting `json:"groupMemberKicked,omitempty"`
	MemberBanned       *NotificationSetting `json:"groupMemberBanned,omitempty"`
	MemberUnbanned     *NotificationSetting `json:"groupMemberUnbanned,omitempty"`
	MemberScopeChanged *NotificationSetting `json:"groupMemberScopeChanged,omitempty"`
}

// UserOneOnOnePreferences are a user's choices for one-on-one
// conversations, with the values of [UserGroupPreferences].
type UserOneOnOnePreferences struct {
	Messages      *NotificationSetting `json:"oneOnOneMessages,omitempty"`
	Replies       *NotificationSetting `json:"oneOnOneReplies,omitempty"`
	QuotedReplies *NotificationSetting `json:"oneOnOneQuotedReplies,omitempty"`
	Reactions     *NotificationSetting `json:"oneOnOneReactions,omitempty"`
}

// UserMutePreferences are a user's Do Not Disturb switch and schedule.
type UserMutePreferences struct {
	DND      *DNDSetting   `json:"dnd,omitempty"`
	Schedule *WeekSchedule `json:"schedule,omitempty"`
}

// userQuery is the uid query parameter of the per-user calls.
func userQuery(uid string) url.Values { return url.Values{"uid": {uid}} }

func preferencesPath(segments ...string) []string {
	return notificationsPath(append([]string{"v1", "preferences"}, segments...)...)
}

// GetPreferences returns the notification preferences in effect for the
// user uid: the app's settings with the user's choices applied where the
// app allows them.
//
// API: GET /v3/notifications/v1/preferences (onBehalfOf not supported)
func (s *NotificationsService) GetPreferences(ctx context.Context, uid string, opts ...RequestOption) (*NotificationSettings, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return do[NotificationSettings](ctx, s.c, &Request{Method: http.MethodGet, Path: preferencesPath(), Query: userQuery(uid)}, opts)
}

// UpdatePreferences changes the user uid's notification preferences and
// returns those in effect. A choice the app does not let users override
// is ignored, not refused.
//
// API: PATCH /v3/notifications/v1/preferences (onBehalfOf not supported)
func (s *NotificationsService) UpdatePreferences(ctx context.Context, uid string, req *UpdatePreferencesRequest, opts ...RequestOption) (*NotificationSettings, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[NotificationSettings](ctx, s.c, &Request{Method: http.MethodPatch, Path: preferencesPath(), Query: userQuery(uid), Body: req}, opts)
}

// ResetPreferences drops the user uid's own notification preferences, so
// that the app's settings apply, and returns them.
//
// API: DELETE /v3/notifications/v1/preferences (onBehalfOf not supported)
func (s *NotificationsService) ResetPreferences(ctx context.Context, uid string, opts ...RequestOption) (*UserNotificationPreferences, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return do[UserNotificationPreferences](ctx, s.c, &Request{Method: http.MethodDelete, Path: preferencesPath(), Query: userQuery(uid)}, opts)
}

// MutedConversationType is the kind of a muted conversation. Unknown values
// decode as they are.
type MutedConversationType string

// Muted conversation types.
const (
	MutedOneOnOne MutedConversationType = "oneOnOne"
	MutedGroup    MutedConversationType = "group"
)

// MutedConversation is a conversation a user muted.
type MutedConversation struct {
	// ID is the other user's uid or the group's guid.
	ID   string                `json:"id"`
	Type MutedConversationType `json:"type"`
	// Until is when the mute ends, in Unix milliseconds (not seconds):
	// time.UnixMilli(Until). It must be in the future when muting; Unmute
	// does not send it.
	Until int64 `json:"until,omitempty"`
}

// MuteRequest is the body of [NotificationsService.Mute].
type MuteRequest struct {
	// Conversations are muted until their Until; at least one is required.
	Conversations []MutedConversation `json:"conversations"`
}

// UnmuteRequest is the body of [NotificationsService.Unmute].
type UnmuteRequest struct {
	// Conversations are unmuted (their Until is ignored); at least one is
	// required.
	Conversations []MutedConversation `json:"conversations"`
}

// ListMuted returns the conversations the user uid has muted.
//
// API: GET /v3/notifications/v1/preferences/mute (onBehalfOf not supported)
func (s *NotificationsService) ListMuted(ctx context.Context, uid string, opts ...RequestOption) ([]MutedConversation, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	out, err := do[struct {
		MutedConversations []MutedConversation `json:"mutedConversations"`
	}](ctx, s.c, &Request{Method: http.MethodGet, Path: preferencesPath("mute"), Query: userQuery(uid)}, opts)
	if err != nil {
		return nil, err
	}
	return out.MutedConversations, nil
}

// Validate checks r as [NotificationsService.Mute] does before sending: at
// least one conversation; a nil r names none. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *MuteRequest) Validate() error {
	if r == nil || len(r.Conversations) == 0 {
		return newArgError("req.Conversations", "must not be empty")
	}
	return nil
}

// Validate checks r as [NotificationsService.Unmute] does before sending:
// at least one conversation; a nil r names none. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *UnmuteRequest) Validate() error {
	if r == nil || len(r.Conversations) == 0 {
		return newArgError("req.Conversations", "must not be empty")
	}
	return nil
}

// Mute mutes conversations for the user uid.
//
// API: PUT /v3/notifications/v1/preferences/mute (onBehalfOf not supported)
func (s *NotificationsService) Mute(ctx context.Context, uid string, req *MuteRequest, opts ...RequestOption) (*Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPut, Path: preferencesPath("mute"), Query: userQuery(uid), Body: req}, opts)
}

// Unmute unmutes conversations for the user uid. Only the id and type of
// each conversation are sent.
//
// API: DELETE /v3/notifications/v1/preferences/mute (onBehalfOf not supported)
func (s *NotificationsService) Unmute(ctx context.Context, uid string, req *UnmuteRequest, opts ...RequestOption) (*Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	body := UnmuteRequest{Conversations: make([]MutedConversation, len(req.Conversations))}
	for i, c := range req.Conversations {
		body.Conversations[i] = MutedConversation{ID: c.ID, Type: c.Type}
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: preferencesPath("mute"), Query: userQuery(uid), Body: &body}, opts)
}

// userTimezone is the body and answer of the timezone calls.
type userTimezone struct {
	Timezone string `json:"timezone"`
}

// UpdateTimezoneRequest is the body of [NotificationsService.UpdateTimezone].
type UpdateTimezoneRequest struct {
	// Timezone is an IANA time zone id, e.g. "Asia/Kolkata"; required.
	Timezone string `json:"timezone"`
}

// GetTimezone returns the time zone of the user uid (an IANA id such as
// "Asia/Kolkata"), which schedules their notifications.
//
// API: GET /v3/notifications/v1/preferences/timezone (onBehalfOf not supported)
func (s *NotificationsService) GetTimezone(ctx context.Context, uid string, opts ...RequestOption) (string, error) {
	if err := required("uid", uid); err != nil {
		return "", err
	}
	out, err := do[userTimezone](ctx, s.c, &Request{Method: http.MethodGet, Path: preferencesPath("timezone"), Query: userQuery(uid)}, opts)
	if err != nil {
		return "", err
	}
	return out.Timezone, nil
}

// Validate checks r as [NotificationsService.UpdateTimezone] does before
// sending: Timezone set. It returns an [*ArgumentError] naming the field
// at fault, or nil.
func (r *UpdateTimezoneRequest) Validate() error { return required("req.Timezone", r.Timezone) }

// UpdateTimezone sets the time zone of the user uid and returns it.
//
// API: PATCH /v3/notifications/v1/preferences/timezone (onBehalfOf not supported)
func (s *NotificationsService) UpdateTimezone(ctx context.Context, uid string, req *UpdateTimezoneRequest, opts ...RequestOption) (string, error) {
	if err := required("uid", uid); err != nil {
		return "", err
	}
	if req == nil {
		return "", newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return "", err
	}
	out, err := do[userTimezone](ctx, s.c, &Request{Method: http.MethodPatch, Path: preferencesPath("timezone"), Query: userQuery(uid), Body: req}, opts)
	if err != nil {
		return "", err
	}
	return out.Timezone, nil
}

// ContactDetails are the email address and phone number a user's email
// and SMS notifications go to.
type ContactDetails struct {
	Email string `json:"email,omitempty"`
	// PhoneNumber includes the country code, e.g. "+14155550100".
	PhoneNumber string `json:"phno,omitempty"`
}

// UpdateContactDetailsRequest is the body of
// [NotificationsService.UpdateContactDetails]: the fields set are sent and
// changed; at least one is required.
type UpdateContactDetailsRequest struct {
	Email string `json:"email,omitempty"`
	// PhoneNumber includes the country code, e.g. "+14155550100".
	PhoneNumber string `json:"phno,omitempty"`
}

func contactDetailsPath() []string { return notificationsPath("v1", "contact-details") }

// GetContactDetails returns the contact details of the user onBehalfOf.
//
// API: GET /v3/notifications/v1/contact-details (onBehalfOf required)
func (s *NotificationsService) GetContactDetails(ctx context.Context, onBehalfOf string, opts ...RequestOption) (*ContactDetails, error) {
	if err := required("onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return doWith[ContactDetails](ctx, s.c, &Request{Method: http.MethodGet, Path: contactDetailsPath(), OnBehalfOf: onBehalfOf}, engine.CallConfig{EmptyOK: true}, opts)
}

// Validate checks r as [NotificationsService.UpdateContactDetails] does
// before sending: Email or PhoneNumber set; a nil r sets neither. It
// returns an [*ArgumentError] naming the argument at fault, or nil.
func (r *UpdateContactDetailsRequest) Validate() error {
	if r == nil || r.Email == "" && r.PhoneNumber == "" {
		return newArgError("req", "must set Email or PhoneNumber")
	}
	return nil
}

// UpdateContactDetails sets the email address or phone number of the user
// onBehalfOf and returns their contact details.
//
// API: PATCH /v3/notifications/v1/contact-details (onBehalfOf required)
func (s *NotificationsService) UpdateContactDetails(ctx context.Context, onBehalfOf string, req *UpdateContactDetailsRequest, opts ...RequestOption) (*ContactDetails, error) {
	if err := required("onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return doWith[ContactDetails](ctx, s.c, &Request{Method: http.MethodPatch, Path: contactDetailsPath(), Body: req, OnBehalfOf: onBehalfOf}, engine.CallConfig{EmptyOK: true}, opts)
}

// DeleteContactDetails removes the contact details of the user onBehalfOf.
//
// API: DELETE /v3/notifications/v1/contact-details (onBehalfOf required)
func (s *NotificationsService) DeleteContactDetails(ctx context.Context, onBehalfOf string, opts ...RequestOption) (*Result, error) {
	if err := required("onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: contactDetailsPath(), OnBehalfOf: onBehalfOf}, opts)
}
