package fake

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// maxCollaborators is how many collaborators an app may have.
const maxCollaborators = 25

// POST /apps/{appId}/collaborators
//
// Adds admins and moderators (or changes the role of members already on
// the team) and removes collaboratorsToRemove, all or nothing. Validation:
// every item a valid email address, none in two lists, at most 25 members
// after the change (400 ERR_BAD_REQUEST). Refusals: the management
// account's own address (mgmtOwnerEmail) 403 ERR_SELF_ACTION_DENIED;
// the app's owner, for a tenant's app, 409 ERR_ALREADY_AN_OWNER; removing
// someone not on the team 404 ERR_NOT_A_COLLABORATOR. The answer has, per
// list, an object of {"success": true} by address, or [] for an empty
// list.
func (st *state) updateCollaborators(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Admins                []string `json:"admins"`
		Moderators            []string `json:"moderators"`
		CollaboratorsToRemove []string `json:"collaboratorsToRemove"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	seen := map[string]string{}
	lists := []struct {
		field string
		items []string
	}{{"admins", b.Admins}, {"moderators", b.Moderators}, {"collaboratorsToRemove", b.CollaboratorsToRemove}}
	for _, l := range lists {
		for i, e := range l.items {
			field := l.field + "." + strconv.Itoa(i)
			e = strings.ToLower(e)
			checkEmail(&v, field, e)
			if other, dup := seen[e]; dup {
				v.add(field, "The %s is also in %s.", field, other)
			}
			seen[e] = l.field
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	member := func(email string) int {
		return slices.IndexFunc(a.team, func(m *management.Collaborator) bool { return m.Email == email })
	}
	size := len(a.team)
	for _, e := range append(slices.Clone(b.Admins), b.Moderators...) {
		e = strings.ToLower(e)
		switch {
		case e == mgmtOwnerEmail:
			return nil, errSelfActionDenied()
		case e == a.app.AppOwner.Email:
			return nil, errAlreadyAnOwner(e)
		case member(e) < 0:
			size++
		}
	}
	for _, e := range b.CollaboratorsToRemove {
		if member(strings.ToLower(e)) < 0 {
			return nil, errNotACollaborator(strings.ToLower(e))
		}
		size--
	}
	if size > maxCollaborators {
		return nil, validationError(map[string][]string{"collaborators": {fmt.Sprintf("An app can have at most %d collaborators.", maxCollaborators)}})
	}

	out := map[string]any{}
	set := func(field string, items []string, role management.CollaboratorRole) {
		if len(items) == 0 {
			out[field] = []any{}
			return
		}
		res := map[string]chat.Result{}
		for _, e := range items {
			e = strings.ToLower(e)
			res[e] = chat.Result{Success: true}
			if role == "" {
				a.team = slices.Delete(a.team, member(e), member(e)+1)
				continue
			}
			if i := member(e); i >= 0 {
				a.team[i].Role = role
				continue
			}
			st.teamSeq++
			name, _, _ := strings.Cut(e, "@")
			a.team = append(a.team, &management.Collaborator{ID: strconv.FormatInt(st.teamSeq, 10), Name: name, Email: e,
				Role: role, CreatedAt: c.timestamp()})
		}
		out[field] = res
	}
	set("admins", b.Admins, management.RoleAdmin)
	set("moderators", b.Moderators, management.RoleModerator)
	set("collaboratorsToRemove", b.CollaboratorsToRemove, "")
	return data(out), nil
}

// GET /apps/{appId}/collaborators
//
// The team in the order members joined; the owner is not listed.
func (st *state) listCollaborators(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	out := make([]management.Collaborator, len(a.team))
	for i, m := range a.team {
		out[i] = *m
	}
	return data(out), nil
}

// defaultSettings are a new app's settings: the service's defaults
// (updateOnGroupActions and updateOnReplies true), false
// for the other boolean keys and [] for the advanced push features.
func defaultSettings() map[management.SettingKey]any {
	return map[management.SettingKey]any{
		management.SettingUpdateOnGroupActions:          true,
		management.SettingUpdateOnReplies:               true,
		management.SettingUpdateOnMessageActions:        false,
		management.SettingUpdateOnCallActivity:          false,
		management.SettingUpdateOnCustomMessage:         false,
		management.SettingThreadsUpdateOnMessageActions: false,
		management.SettingPushAccessible:                false,
		management.SettingPushEnabled:                   false,
		management.SettingPushAdvancedEnabled:           false,
		management.SettingPushAdvancedIncluded:          []string{},
	}
}

// POST /apps/{appId}/settings
//
// Body {"settings": {key: value}}: every key a known
// [management.SettingKey], each value of the setting's type (a boolean, or
// for core.notifications.push.advanced.included an array of strings). The
// settings are recorded; they do not change how the chat API behaves.
func (st *state) mapSettings(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Settings map[management.SettingKey]json.RawMessage `json:"settings"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if len(b.Settings) == 0 {
		v.add("settings", "The settings field is required.")
	}
	values := map[management.SettingKey]any{}
	for k, raw := range b.Settings {
		field := "settings." + string(k)
		def, known := defaultSettings()[k]
		switch def.(type) {
		case bool:
			var val bool
			if json.Unmarshal(raw, &val) != nil {
				v.add(field, "The %s field must be a boolean.", field)
				continue
			}
			values[k] = val
		case []string:
			var val []string
			if json.Unmarshal(raw, &val) != nil || val == nil {
				v.add(field, "The %s field must be an array of strings.", field)
				continue
			}
			values[k] = val
		default:
			if !known {
				v.add(field, "The setting %s is not a known setting.", k)
			}
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	out := map[management.SettingKey]chat.Result{}
	for k, val := range values {
		a.settings[k] = val
		out[k] = mgmtResult("Added setting(s) successfully.")
	}
	return data(out), nil
}

// GET /apps/{appId}/settings
func (st *state) listSettings(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	return data(clone(a.settings)), nil
}

// DELETE /apps/{appId}/settings
//
// Resets the keys named to their defaults. The fake reads the keys from
// {"settings": [key, ...]} (what the SDK sends) or {"settings": {key:
// value}} (see CHOICES.md). Every key must be a known
// [management.SettingKey].
func (st *state) unmapSettings(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var keys []management.SettingKey
	if json.Unmarshal(b.Settings, &keys) != nil {
		var m map[management.SettingKey]json.RawMessage
		if json.Unmarshal(b.Settings, &m) != nil {
			return nil, validationError(map[string][]string{"settings": {"The settings must be a list of setting keys."}})
		}
		for k := range m {
			keys = append(keys, k)
		}
	}
	var v validator
	if len(keys) == 0 {
		v.add("settings", "The settings field is required.")
	}
	defaults := defaultSettings()
	for _, k := range keys {
		if _, known := defaults[k]; !known {
			v.add("settings."+string(k), "The setting %s is not known.", k)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	for _, k := range keys {
		a.settings[k] = defaults[k]
	}
	return data(mgmtResult("Removed setting(s) successfully.")), nil
}
