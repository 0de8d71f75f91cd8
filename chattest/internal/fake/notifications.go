package fake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/chatrest/chat"
)

// notificationsState holds notification settings, providers, preferences,
// push tokens and logs, all in one store so that its names stay apart from
// the other areas'.
type notificationsState struct {
	notif *notifStore
}

func (n *notificationsState) init() { n.notif = newNotifStore() }

// notifStore is the notifications area of the app.
type notifStore struct {
	// settings are the app's notification settings as JSON (numbers as
	// json.Number): preferences, sound and templates.
	settings map[string]any

	fcm, apns providerList // push providers, by id, with a default

	// single are the custom push, Twilio, custom SMS, SendGrid and custom
	// email providers, by spec name; absent: not configured.
	single map[string]map[string]any

	users map[string]*notifUser // by uid

	tokens []chat.PushToken // in registration order

	logs      []*notifLogRec // in the order written
	logSeq    int64
	scannedID int64 // the last message id turned into log entries
}

func newNotifStore() *notifStore {
	return &notifStore{
		settings: defaultNotifSettings(),
		fcm:      newProviderList(),
		apns:     newProviderList(),
		single:   map[string]map[string]any{},
		users:    map[string]*notifUser{},
	}
}

// notifUser is what the notifications area keeps per user.
type notifUser struct {
	// prefs are the user's own choices as JSON, in the shape of the
	// update-preferences body.
	prefs    map[string]any
	mutes    []chat.MutedConversation
	timezone string
	contact  chat.ContactDetails
}

// notifUser returns the notification record of uid, creating it, for the
// change in progress to set.
func (st *state) notifUser(uid string) *notifUser {
	n := st.notif
	u := n.users[uid]
	if u == nil {
		u = &notifUser{prefs: map[string]any{}}
		n.users[uid] = u
	}
	touch(st, &n.users, uid)
	return u
}

func notificationRoutes() []route {
	routes := []route{
		{pattern: "GET /v3/notifications/v1/settings", reach: appOnly, handle: (*state).getNotifSettings},
		{pattern: "PATCH /v3/notifications/v1/settings", reach: appOnly, handle: (*state).updateNotifSettings},
		{pattern: "DELETE /v3/notifications/v1/settings", reach: appOnly, handle: (*state).resetNotifSettings},
	}
	routes = append(routes, notifProviderRoutes()...)
	routes = append(routes, notifPreferenceRoutes()...)
	routes = append(routes, notifTokenRoutes()...)
	routes = append(routes, notifLogRoutes()...)
	return routes
}

// defaultNotifSettingsJSON are the settings of a new app, the service's
// defaults (the email and SMS pacing and the templates are the fake's
// own).
const defaultNotifSettingsJSON = `{
"preferences": {
	"group": {
		"messagesSetting": 2, "messagesOverride": true, "repliesSetting": 2, "repliesOverride": true,
		"quotedRepliesSetting": 2, "quotedRepliesOverride": true, "reactionsSetting": 2, "reactionsOverride": true,
		"memberLeftSetting": 1, "memberLeftOverride": true, "memberAddedSetting": 1, "memberAddedOverride": true,
		"memberJoinedSetting": 1, "memberJoinedOverride": true, "memberKickedSetting": 1, "memberKickedOverride": true,
		"memberBannedSetting": 1, "memberBannedOverride": true, "memberUnbannedSetting": 1, "memberUnbannedOverride": true,
		"memberScopeChangedSetting": 1, "memberScopeChangedOverride": true,
		"messageEditedSetting": 2, "messageDeletedSetting": 2
	},
	"oneOnOne": {
		"messagesSetting": 2, "messagesOverride": true, "repliesSetting": 2, "repliesOverride": true,
		"quotedRepliesSetting": 2, "quotedRepliesOverride": true, "reactionsSetting": 2, "reactionsOverride": true,
		"messageEditedSetting": 2, "messageDeletedSetting": 2
	},
	"call": {
		"initiatedSetting": 1, "initiatedOverride": false, "ongoingSetting": 1, "ongoingOverride": false,
		"cancelledSetting": 1, "cancelledOverride": false, "busySetting": 1, "busyOverride": false,
		"rejectedSetting": 1, "rejectedOverride": false, "unansweredSetting": 1, "unansweredOverride": false,
		"endedSetting": 1, "endedOverride": false
	},
	"mute": {
		"dndPreferenceSetting": 1, "dndPreferenceOverride": true,
		"schedulePreferenceSetting": {
			"monday": {"from": 0, "to": 2359, "dnd": false}, "tuesday": {"from": 0, "to": 2359, "dnd": false},
			"wednesday": {"from": 0, "to": 2359, "dnd": false}, "thursday": {"from": 0, "to": 2359, "dnd": false},
			"friday": {"from": 0, "to": 2359, "dnd": false}, "saturday": {"from": 0, "to": 2359, "dnd": false},
			"sunday": {"from": 0, "to": 2359, "dnd": false}
		},
		"schedulePreferenceOverride": true, "mutedGroupsOverride": true, "mutedOneOnOnesOverride": true
	},
	"email": {"notifyForUnreadOnly": true, "intervalInSeconds": 7200, "maxPerDay": 20, "maxPerDayPerConversation": 5},
	"sms": {"notifyForUnreadOnly": true, "intervalInSeconds": 7200, "maxPerDay": 20, "maxPerDayPerConversation": 5},
	"push": {
		"includeMessageObjectSetting": true, "includeSenderMetadataSetting": false, "includeReceiverMetadataSetting": false,
		"trimTextFieldSetting": false, "includeMessageMetadataSetting": false, "customJson": {}
	},
	"bypassPreferencesForMentions": false
},
"sound": {"chat": "default", "call": "default"},
"templates": {
	"usePrivacyTemplate": 1,
	"textMessageTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}", "body": "{{message.data.text}}"},
	"textMessageTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}", "body": "New message"},
	"mediaMessageTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}",
		"body_image": "📷 Has sent an image", "body_audio": "🔈 Has sent an audio", "body_video": "🎥 Has sent a video", "body_file": "📄 Has sent a file"},
	"mediaMessageTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}",
		"body_image": "New message", "body_audio": "New message", "body_video": "New message", "body_file": "New message"},
	"customMessageTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}", "body": "", "body_fallback": "New message"},
	"customMessageTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{groupDetails.name}}", "body": "", "body_fallback": "New message"},
	"interactiveFormTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "{{message.data.interactiveData.title}}"},
	"interactiveFormTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New message"},
	"interactiveCardTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "{{message.data.interactiveData.text}}"},
	"interactiveCardTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New message"},
	"interactiveSchedulerTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New invite"},
	"interactiveSchedulerTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New invite"},
	"interactiveCustomTemplateDefault": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New message"},
	"interactiveCustomTemplatePrivacy": {"titleOneOnOne": "{{message.data.entities.sender.entity.name}}",
		"titleGroup": "{{message.data.entities.sender.entity.name}} @ {{message.data.entities.receiver.entity.name}}", "body": "New message"},
	"emailSubjectTemplateDefault": {"subjectGroup": "New messages in {{groupDetails.name}}", "subjectOneOnOne": "New messages from {{senderDetails.name}}"},
	"emailSubjectTemplatePrivacy": {"subjectGroup": "New messages", "subjectOneOnOne": "New messages"},
	"smsContentTemplateDefault": {"bodyGroup": "{{messages.length}} new messages in {{groupDetails.name}}", "bodyOneOnOne": "{{messages.length}} new messages from {{senderDetails.name}}"},
	"smsContentTemplatePrivacy": {"bodyGroup": "You have new messages", "bodyOneOnOne": "You have new messages"}
}
}`

// defaultNotifSettings returns a fresh copy of the default settings.
func defaultNotifSettings() map[string]any {
	m, err := decodeJSONObject([]byte(defaultNotifSettingsJSON))
	if err != nil {
		panic("chattest: unreachable: the default notification settings do not decode: " + err.Error())
	}
	return m
}

// decodeJSONObject decodes a JSON object keeping numbers as json.Number.
func decodeJSONObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// jsonObjectOf returns v encoded and decoded as a JSON object: the fields
// of a typed body that are set, or a deep copy of a map.
func jsonObjectOf(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{}
	}
	m, err := decodeJSONObject(b)
	if err != nil {
		return map[string]any{}
	}
	return m
}

// mergeJSON merges src into dst: objects key by key, other values (and
// the free-form customJson object) replaced whole.
func mergeJSON(dst, src map[string]any) {
	for k, v := range src {
		sub, ok := v.(map[string]any)
		cur, isObj := dst[k].(map[string]any)
		if ok && isObj && k != "customJson" {
			mergeJSON(cur, sub)
			continue
		}
		dst[k] = v
	}
}

// objAt returns the object at the path of keys in m, or nil.
func objAt(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

// intIn reads an integer field of m; ok is false when it is absent.
func intIn(m map[string]any, key string) (n int64, ok bool) {
	num, isNum := m[key].(json.Number)
	if !isNum {
		return 0, false
	}
	n, err := num.Int64()
	return n, err == nil
}

// boolIn reads a boolean field of m; absent is false.
func boolIn(m map[string]any, key string) bool {
	b, _ := m[key].(bool)
	return b
}

// checkSettingRange adds a problem when the integer at key of m is not in
// [1, hi].
func checkSettingRange(v *validator, field string, m map[string]any, key string, hi int64) {
	if _, present := m[key]; !present {
		return
	}
	if n, ok := intIn(m, key); !ok || n < 1 || n > hi {
		v.add(field+"."+key, "The %s.%s field must be an integer between 1 and %d.", field, key, hi)
	}
}

// checkNonNegative adds a problem when the integer at key of m is
// negative.
func checkNonNegative(v *validator, field string, m map[string]any, key string) {
	if n, ok := intIn(m, key); ok && n < 0 {
		v.add(field+"."+key, "The %s.%s field must be at least 0.", field, key)
	}
}

// weekDays are the keys of a schedule.
var weekDays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// checkSchedule validates the days of a schedule: from and to are times
// of day written hhmm, 0 to 2359.
func checkSchedule(v *validator, field string, sched map[string]any) {
	for _, day := range weekDays {
		d := objAt(sched, day)
		if d == nil {
			continue
		}
		for _, k := range []string{"from", "to"} {
			n, ok := intIn(d, k)
			if !ok || n < 0 || n > 2359 || n%100 > 59 {
				v.add(field+"."+day+"."+k, "The %s.%s.%s field must be a time of day from 0 to 2359 (hhmm).", field, day, k)
			}
		}
	}
}

// threeWay are the settings that take 1, 2 or 3; the others take 1 or 2.
var threeWay = map[string]bool{"messagesSetting": true, "repliesSetting": true, "quotedRepliesSetting": true, "reactionsSetting": true}

// checkNotifSettings validates an update of the app settings, given as
// the JSON of its fields that are set.
func checkNotifSettings(patch map[string]any) error {
	var v validator
	if p := objAt(patch, "preferences"); p != nil {
		for _, kind := range []string{"group", "oneOnOne", "call"} {
			for k := range objAt(p, kind) {
				if strings.HasSuffix(k, "Setting") {
					hi := int64(2)
					if threeWay[k] && kind != "call" {
						hi = 3
					}
					checkSettingRange(&v, "preferences."+kind, objAt(p, kind), k, hi)
				}
			}
		}
		if mute := objAt(p, "mute"); mute != nil {
			checkSettingRange(&v, "preferences.mute", mute, "dndPreferenceSetting", 2)
			checkSchedule(&v, "preferences.mute.schedulePreferenceSetting", objAt(mute, "schedulePreferenceSetting"))
		}
		for _, kind := range []string{"email", "sms"} {
			for _, k := range []string{"intervalInSeconds", "maxPerDay", "maxPerDayPerConversation"} {
				checkNonNegative(&v, "preferences."+kind, objAt(p, kind), k)
			}
		}
	}
	if t := objAt(patch, "templates"); t != nil {
		checkSettingRange(&v, "templates", t, "usePrivacyTemplate", 3)
	}
	return v.err()
}

// GET /v3/notifications/v1/settings
func (st *state) getNotifSettings(c *call) (any, error) {
	st.notifSync()
	return data(st.notif.settings), nil
}

// PATCH /v3/notifications/v1/settings
//
// The fields sent are merged into the settings; fields the SDK's
// [chat.NotificationSettings] does not know are ignored.
func (st *state) updateNotifSettings(c *call) (any, error) {
	st.notifSync()
	var b chat.NotificationSettings
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	patch := jsonObjectOf(b)
	if err := checkNotifSettings(patch); err != nil {
		return nil, err
	}
	mergeJSON(st.notif.settings, patch)
	return data(chat.Result{Success: true}), nil
}

// DELETE /v3/notifications/v1/settings
func (st *state) resetNotifSettings(c *call) (any, error) {
	st.notifSync()
	st.notif.settings = defaultNotifSettings()
	touchField(st, &st.notif.settings)
	return data(chat.Result{Success: true}), nil
}

// notifUserOf brings the notification logs up to date (notifSync) and
// returns the notification record of the user named by the uid query
// parameter, which must be an active user.
func (st *state) notifUserOf(c *call) (*notifUser, error) {
	st.notifSync()
	uid := strings.ToLower(c.r.URL.Query().Get("uid"))
	if uid == "" {
		return nil, validationError(map[string][]string{"uid": {"The uid field is required."}})
	}
	if st.activeUser(uid) == nil {
		return nil, errUIDNotFound(uid)
	}
	return st.notifUser(uid), nil
}

// Error codes of the notifications area.
const (
	codeProviderNotFound = "ERR_PROVIDER_NOT_FOUND"
	codeProviderExists   = "ERR_PROVIDER_ALREADY_EXISTS"
	codeTokenNotFound    = "ERR_TOKEN_NOT_FOUND"
	codeTokenExists      = "ERR_TOKEN_ALREADY_EXISTS"
)

func errProviderNotFound(kind, id string) *apiError {
	msg := "The " + kind + " provider is not configured."
	if id != "" {
		msg = "The " + kind + " provider " + id + " does not exist."
	}
	return newAPIError(http.StatusNotFound, codeProviderNotFound, msg, "")
}

func errProviderExists(kind, id string) *apiError {
	msg := "The " + kind + " provider is already configured; update it instead."
	if id != "" {
		msg = "The " + kind + " provider " + id + " already exists."
	}
	return newAPIError(http.StatusConflict, codeProviderExists, msg, "")
}
