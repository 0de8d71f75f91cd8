package management

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/chatrest/chat"
)

// SettingsService manages an app's settings. Get it from [Client.Settings].
//
// Settings are app-wide switches keyed by dotted names ([SettingKey]); most
// hold a boolean, a few an array. Mapping a key sets it; unmapping resets
// it to its default.
type SettingsService struct{ c caller }

// SettingKey names an app setting.
type SettingKey string

// Setting keys. Unless noted, they hold booleans;
// the defaults are the service's.
const (
	// SettingUpdateOnGroupActions: group actions (member joined, left,
	// banned...) become the conversation's last message and count as
	// unread. Default true.
	SettingUpdateOnGroupActions SettingKey = "core.conversations.updateOnGroupActions"
	// SettingUpdateOnReplies: thread replies become the conversation's last
	// message (they never count as unread). Default true.
	SettingUpdateOnReplies SettingKey = "core.conversations.updateOnReplies"
	// SettingUpdateOnMessageActions: message actions (edited, deleted)
	// become the conversation's last message and count as unread. Default
	// false.
	SettingUpdateOnMessageActions SettingKey = "core.conversations.updateOnMessageActions"
	// SettingUpdateOnCallActivity: call activity (initiated, accepted,
	// rejected) becomes the conversation's last message and counts as
	// unread. Default false.
	SettingUpdateOnCallActivity SettingKey = "core.conversations.updateOnCallActivity"
	// SettingUpdateOnCustomMessage: custom messages become the
	// conversation's last message.
	SettingUpdateOnCustomMessage SettingKey = "core.conversations.updateOnCustomMessage"
	// SettingThreadsUpdateOnMessageActions: message actions in threads
	// update the thread. Default false.
	SettingThreadsUpdateOnMessageActions SettingKey = "core.threads.updateOnMessageActions"
	// SettingPushAccessible: the enhanced push notifications are available
	// to the app.
	SettingPushAccessible SettingKey = "core.notifications.push.accessible"
	// SettingPushEnabled: enhanced push notifications are on. Default
	// false.
	SettingPushEnabled SettingKey = "core.notifications.push.enabled"
	// SettingPushAdvancedEnabled: the advanced push features are on.
	SettingPushAdvancedEnabled SettingKey = "core.notifications.push.advanced.enabled"
	// SettingPushAdvancedIncluded is an array naming the advanced push
	// features included: "preferences", "templates",
	// "providers.multiple". Read it with [AppSettings.Strings].
	SettingPushAdvancedIncluded SettingKey = "core.notifications.push.advanced.included"
)

// Map sets the settings of the app appID to the values given, and returns
// the outcome for each key. It sends {"settings": {key: value, ...}}.
//
// API: POST /apps/{appId}/settings (management)
func (s *SettingsService) Map(ctx context.Context, appID string, settings map[SettingKey]bool, opts ...chat.RequestOption) (Results, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if len(settings) == 0 {
		return nil, argError("settings", "must not be empty")
	}
	for k := range settings {
		if k == "" {
			return nil, argError("settings", "must not have an empty key")
		}
	}
	body := struct {
		Settings map[SettingKey]bool `json:"settings"`
	}{settings}
	out, err := do[Results](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "settings"}, Body: body}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// AppSettings are an app's settings by key, each value as the service sent
// it (a boolean, or for a few keys an array). Read them with
// [AppSettings.Bool] and [AppSettings.Strings], or decode a value
// yourself.
type AppSettings map[SettingKey]json.RawMessage

// Bool returns the boolean value of key; ok is false when the key is absent
// or does not hold a boolean.
func (s AppSettings) Bool(key SettingKey) (value, ok bool) {
	raw, found := s[key]
	if !found {
		return false, false
	}
	if err := json.Unmarshal(raw, &value); err != nil {
		return false, false
	}
	return value, true
}

// Strings returns the array of strings key holds; ok is false when the key
// is absent or does not hold an array of strings.
func (s AppSettings) Strings(key SettingKey) (values []string, ok bool) {
	raw, found := s[key]
	if !found {
		return nil, false
	}
	if err := json.Unmarshal(raw, &values); err != nil || values == nil {
		return nil, false
	}
	return values, true
}

// List returns the settings of the app appID.
//
// API: GET /apps/{appId}/settings (management)
func (s *SettingsService) List(ctx context.Context, appID string, opts ...chat.RequestOption) (AppSettings, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	out, err := do[AppSettings](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "settings"}}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// Unmap resets the settings keys of the app appID to their defaults. It
// sends them as {"settings": [key, ...]}.
//
// API: DELETE /apps/{appId}/settings (management)
func (s *SettingsService) Unmap(ctx context.Context, appID string, keys []SettingKey, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, argError("keys", "must not be empty")
	}
	for _, k := range keys {
		if k == "" {
			return nil, argError("keys", "must not hold an empty key")
		}
	}
	body := struct {
		Settings []SettingKey `json:"settings"`
	}{keys}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: []string{"apps", appID, "settings"}, Body: body}, opts)
}
