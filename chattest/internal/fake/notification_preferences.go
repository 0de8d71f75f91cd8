package fake

import (
	"encoding/json"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	// The time zone database is embedded so that timezones validate the
	// same on every machine, with or without a system database.
	_ "time/tzdata"

	"github.com/chatrest/chat"
)

func notifPreferenceRoutes() []route {
	return []route{
		{pattern: "GET /v3/notifications/v1/preferences", reach: appOnly, handle: (*state).getUserPreferences},
		{pattern: "PATCH /v3/notifications/v1/preferences", reach: appOnly, handle: (*state).updateUserPreferences},
		{pattern: "DELETE /v3/notifications/v1/preferences", reach: appOnly, handle: (*state).resetUserPreferences},
		{pattern: "GET /v3/notifications/v1/preferences/mute", reach: appOnly, handle: (*state).listMuted},
		{pattern: "PUT /v3/notifications/v1/preferences/mute", reach: appOnly, handle: (*state).muteConversations},
		{pattern: "DELETE /v3/notifications/v1/preferences/mute", reach: appOnly, handle: (*state).unmuteConversations},
		{pattern: "GET /v3/notifications/v1/preferences/timezone", reach: appOnly, handle: (*state).getTimezone},
		{pattern: "PATCH /v3/notifications/v1/preferences/timezone", reach: appOnly, handle: (*state).updateTimezone},
		{pattern: "GET /v3/notifications/v1/contact-details", obo: oboRequired, reach: ownData, handle: (*state).getContactDetails},
		{pattern: "PATCH /v3/notifications/v1/contact-details", obo: oboRequired, reach: ownData, handle: (*state).updateContactDetails},
		{pattern: "DELETE /v3/notifications/v1/contact-details", obo: oboRequired, reach: ownData, handle: (*state).deleteContactDetails},
	}
}

// The user-level preference names, as in groupMessages and
// oneOnOneMessages; the app-level ones are messagesSetting and
// messagesOverride.
var (
	groupChoices    = []string{"Messages", "Replies", "QuotedReplies", "Reactions", "MemberLeft", "MemberAdded", "MemberJoined", "MemberKicked", "MemberBanned", "MemberUnbanned", "MemberScopeChanged"}
	oneOnOneChoices = groupChoices[:4]
)

// appName is the app-level name of a user-level choice: "messages" for
// "Messages".
func appName(choice string) string { return strings.ToLower(choice[:1]) + choice[1:] }

// applyChoices sets, in the app-level preferences eff, each of the user's
// choices (keys prefix+choice) that the app lets users override.
func applyChoices(eff, choices map[string]any, prefix string, names []string) {
	for _, name := range names {
		val, ok := choices[prefix+name]
		if ok && boolIn(eff, appName(name)+"Override") {
			eff[appName(name)+"Setting"] = val
		}
	}
}

// notifEffective returns the settings in effect for the user u, in the
// app settings' shape: the app's group, oneOnOne and mute preferences
// with u's choices applied where the app lets users override them, the
// app's sound, and its templates with u's privacy choice applied when the
// app leaves it to users.
func (st *state) notifEffective(u *notifUser) map[string]any {
	app := st.notif.settings
	group := jsonObjectOf(objAt(app, "preferences", "group"))
	oneOnOne := jsonObjectOf(objAt(app, "preferences", "oneOnOne"))
	mute := jsonObjectOf(objAt(app, "preferences", "mute"))
	templates := jsonObjectOf(objAt(app, "templates"))
	if u != nil {
		applyChoices(group, objAt(u.prefs, "groupPreferences"), "group", groupChoices)
		applyChoices(oneOnOne, objAt(u.prefs, "oneOnOnePreferences"), "oneOnOne", oneOnOneChoices)
		if mp := objAt(u.prefs, "mutePreferences"); mp != nil {
			if d, ok := mp["dnd"]; ok && boolIn(mute, "dndPreferenceOverride") {
				mute["dndPreferenceSetting"] = d
			}
			if sched := objAt(mp, "schedule"); sched != nil && boolIn(mute, "schedulePreferenceOverride") {
				cur := objAt(mute, "schedulePreferenceSetting")
				if cur == nil {
					cur = map[string]any{}
					mute["schedulePreferenceSetting"] = cur
				}
				mergeJSON(cur, jsonObjectOf(sched))
			}
		}
		if n, _ := intIn(templates, "usePrivacyTemplate"); n == int64(chat.PrivacyTemplateUserOverride) {
			if private, ok := u.prefs["usePrivacyTemplate"].(bool); ok {
				templates["usePrivacyTemplate"] = json.Number("1")
				if private {
					templates["usePrivacyTemplate"] = json.Number("2")
				}
			}
		}
	}
	return map[string]any{
		"preferences": map[string]any{"group": group, "oneOnOne": oneOnOne, "mute": mute},
		"sound":       jsonObjectOf(objAt(app, "sound")),
		"templates":   templates,
	}
}

// userPreferences is the effective settings of a user as their
// preferences' answers show them: the app's settings a user cannot choose
// (edited and deleted messages, email subjects and SMS contents) left
// out.
func userPreferences(eff map[string]any) map[string]any {
	for _, kind := range []string{"group", "oneOnOne"} {
		prefs := objAt(eff, "preferences", kind)
		delete(prefs, "messageEditedSetting")
		delete(prefs, "messageDeletedSetting")
	}
	templates := objAt(eff, "templates")
	for k := range templates {
		if strings.HasPrefix(k, "emailSubjectTemplate") || strings.HasPrefix(k, "smsContentTemplate") {
			delete(templates, k)
		}
	}
	return eff
}

// userLevel turns effective settings back into the user-level shape of
// the reset answer.
func userLevel(eff map[string]any) map[string]any {
	pick := func(prefs map[string]any, prefix string, names []string) map[string]any {
		out := map[string]any{}
		for _, name := range names {
			if v, ok := prefs[appName(name)+"Setting"]; ok {
				out[prefix+name] = v
			}
		}
		return out
	}
	mute := objAt(eff, "preferences", "mute")
	privacy, _ := intIn(objAt(eff, "templates"), "usePrivacyTemplate")
	return map[string]any{
		"groupPreferences":    pick(objAt(eff, "preferences", "group"), "group", groupChoices),
		"oneOnOnePreferences": pick(objAt(eff, "preferences", "oneOnOne"), "oneOnOne", oneOnOneChoices),
		"mutePreferences":     map[string]any{"dnd": mute["dndPreferenceSetting"], "schedule": mute["schedulePreferenceSetting"]},
		"usePrivacyTemplate":  privacy == int64(chat.PrivacyTemplatePrivacy),
	}
}

// checkUserPreferences validates an update of a user's preferences, given
// as the JSON of its fields that are set.
func checkUserPreferences(patch map[string]any) error {
	var v validator
	group := objAt(patch, "groupPreferences")
	for i, name := range groupChoices {
		hi := int64(2)
		if i < len(oneOnOneChoices) {
			hi = 3
		}
		checkSettingRange(&v, "groupPreferences", group, "group"+name, hi)
	}
	for _, name := range oneOnOneChoices {
		checkSettingRange(&v, "oneOnOnePreferences", objAt(patch, "oneOnOnePreferences"), "oneOnOne"+name, 3)
	}
	if mute := objAt(patch, "mutePreferences"); mute != nil {
		checkSettingRange(&v, "mutePreferences", mute, "dnd", 2)
		checkSchedule(&v, "mutePreferences.schedule", objAt(mute, "schedule"))
	}
	return v.err()
}

// GET /v3/notifications/v1/preferences?uid=
//
// It answers with the preferences in effect for the user, in the app
// settings' shape ({preferences: {group, oneOnOne, mute}, sound,
// templates}).
func (st *state) getUserPreferences(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	return data(userPreferences(st.notifEffective(u))), nil
}

// PATCH /v3/notifications/v1/preferences?uid=
//
// The choices are stored as sent; those the app does not let users
// override are kept but have no effect (no error). It answers as GET
// does.
func (st *state) updateUserPreferences(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	var b chat.UpdatePreferencesRequest
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	patch := jsonObjectOf(b)
	if err := checkUserPreferences(patch); err != nil {
		return nil, err
	}
	mergeJSON(u.prefs, patch)
	return data(userPreferences(st.notifEffective(u))), nil
}

// DELETE /v3/notifications/v1/preferences?uid=
//
// It drops the user's choices and answers with the app's settings in the
// user-level shape.
func (st *state) resetUserPreferences(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	u.prefs = map[string]any{}
	return data(userLevel(st.notifEffective(u))), nil
}

// activeMutes returns u's mutes that have not ended at nowMS, dropping the
// others.
func (u *notifUser) activeMutes(nowMS int64) []chat.MutedConversation {
	u.mutes = slices.DeleteFunc(u.mutes, func(m chat.MutedConversation) bool { return m.Until <= nowMS })
	return append([]chat.MutedConversation{}, u.mutes...) // [] when none
}

// decodeMuteBody reads the conversations of a mute or unmute body into
// convs, adding to v a problem for each missing id or type (oneOnOne or
// group); err is a body that does not decode.
func decodeMuteBody(c *call, v *validator) (convs []chat.MutedConversation, err error) {
	var b struct {
		Conversations []chat.MutedConversation `json:"conversations"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if len(b.Conversations) == 0 {
		v.add("conversations", "The conversations field is required.")
	}
	for i, conv := range b.Conversations {
		field := "conversations." + strconv.Itoa(i)
		if conv.ID == "" {
			v.add(field+".id", "The %s.id field is required.", field)
		}
		if conv.Type != chat.MutedOneOnOne && conv.Type != chat.MutedGroup {
			v.add(field+".type", `The %s.type must be "oneOnOne" or "group".`, field)
		}
	}
	return b.Conversations, nil
}

// GET /v3/notifications/v1/preferences/mute?uid=
//
// Mutes that have ended are not listed.
func (st *state) listMuted(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	return data(map[string]any{"mutedConversations": u.activeMutes(c.now.UnixMilli())}), nil
}

// PUT /v3/notifications/v1/preferences/mute?uid=
//
// Each conversation needs until, in Unix milliseconds, in the future.
// Muting a conversation again changes its until. Mutes are kept even when
// the app does not let users mute (mutedGroupsOverride,
// mutedOneOnOnesOverride), but then have no effect.
func (st *state) muteConversations(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	var v validator
	convs, err := decodeMuteBody(c, &v)
	if err != nil {
		return nil, err
	}
	nowMS := c.now.UnixMilli()
	for i, conv := range convs {
		if conv.Until <= nowMS {
			v.add("conversations."+strconv.Itoa(i)+".until", "The conversations.%d.until must be a future time in Unix milliseconds.", i)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	u.activeMutes(nowMS)
	for _, conv := range convs {
		i := slices.IndexFunc(u.mutes, func(m chat.MutedConversation) bool { return m.ID == conv.ID && m.Type == conv.Type })
		if i >= 0 {
			u.mutes[i].Until = conv.Until
			continue
		}
		u.mutes = append(u.mutes, conv)
	}
	return data(chat.Result{Success: true}), nil
}

// DELETE /v3/notifications/v1/preferences/mute?uid=
//
// Conversations that are not muted are ignored.
func (st *state) unmuteConversations(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	var v validator
	convs, err := decodeMuteBody(c, &v)
	if err != nil {
		return nil, err
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	u.mutes = slices.DeleteFunc(u.mutes, func(m chat.MutedConversation) bool {
		return slices.ContainsFunc(convs, func(conv chat.MutedConversation) bool { return m.ID == conv.ID && m.Type == conv.Type })
	})
	return data(chat.Result{Success: true}), nil
}

// defaultTimezone is the timezone of a user who never set one (see
// CHOICES.md).
const defaultTimezone = "UTC"

// validTimezone reports whether tz is an IANA time zone id.
func validTimezone(tz string) bool {
	if tz == "" || tz == "Local" {
		return false
	}
	_, err := time.LoadLocation(tz)
	return err == nil
}

// GET /v3/notifications/v1/preferences/timezone?uid=
//
// A user who never set one (here or when registering a push token) is in
// UTC.
func (st *state) getTimezone(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	tz := u.timezone
	if tz == "" {
		tz = defaultTimezone
	}
	return data(map[string]string{"timezone": tz}), nil
}

// PATCH /v3/notifications/v1/preferences/timezone?uid=
//
// The timezone must be an IANA id (checked with time.LoadLocation).
func (st *state) updateTimezone(c *call) (any, error) {
	u, err := st.notifUserOf(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Timezone string `json:"timezone"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if !validTimezone(b.Timezone) {
		return nil, validationError(map[string][]string{"timezone": {"The timezone must be an IANA time zone id, e.g. Asia/Kolkata."}})
	}
	u.timezone = b.Timezone
	return data(map[string]string{"timezone": b.Timezone}), nil
}

// contactWire is the answer of the contact-details calls: both fields,
// empty when unset.
func contactWire(cd chat.ContactDetails) map[string]string {
	return map[string]string{"email": cd.Email, "phno": cd.PhoneNumber}
}

// validPhone reports whether s is a phone number with its country code:
// "+" and 7 to 15 digits (E.164).
func validPhone(s string) bool {
	if len(s) < 8 || len(s) > 16 || s[0] != '+' || s[1] == '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// GET /v3/notifications/v1/contact-details (onBehalfOf)
func (st *state) getContactDetails(c *call) (any, error) {
	st.notifSync()
	return data(contactWire(st.notifUser(c.onBehalfOf).contact)), nil
}

// PATCH /v3/notifications/v1/contact-details (onBehalfOf)
//
// email must be an address and phno a number with its country code
// (+ and 7 to 15 digits); at least one is required, and a field not sent
// is left as it is.
func (st *state) updateContactDetails(c *call) (any, error) {
	st.notifSync()
	var b struct {
		Email *string `json:"email"`
		Phno  *string `json:"phno"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if b.Email == nil && b.Phno == nil {
		v.add("email", "The email field is required when phno is not present.")
	}
	if b.Email != nil {
		if a, err := mail.ParseAddress(*b.Email); err != nil || a.Address != *b.Email {
			v.add("email", "The email must be a valid email address.")
		}
	}
	if b.Phno != nil && !validPhone(*b.Phno) {
		v.add("phno", "The phno must be a phone number with its country code, e.g. +14155550100.")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	u := st.notifUser(c.onBehalfOf)
	if b.Email != nil {
		u.contact.Email = *b.Email
	}
	if b.Phno != nil {
		u.contact.PhoneNumber = *b.Phno
	}
	return data(contactWire(u.contact)), nil
}

// DELETE /v3/notifications/v1/contact-details (onBehalfOf)
func (st *state) deleteContactDetails(c *call) (any, error) {
	st.notifSync()
	st.notifUser(c.onBehalfOf).contact = chat.ContactDetails{}
	return data(chat.Result{Success: true}), nil
}
