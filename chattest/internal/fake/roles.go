package fake

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/chatrest/chat"
)

// maxRoles is how many roles an app may have, "default" included.
const maxRoles = 25

// roleRec is a stored role; seq orders the list ("default" first).
type roleRec struct {
	r   chat.Role
	seq int64
}

func roleRoutes() []route {
	return []route{
		{pattern: "POST /v3/roles", reach: appOnly, handle: (*state).createRole},
		{pattern: "GET /v3/roles", reach: appOnly, handle: (*state).listRoles},
		{pattern: "GET /v3/roles/{role}", reach: appOnly, handle: (*state).getRole},
		{pattern: "PUT /v3/roles/{role}", reach: appOnly, handle: (*state).updateRole},
		{pattern: "DELETE /v3/roles/{role}", reach: appOnly, handle: (*state).deleteRole},
		{pattern: "POST /v3/roles/{role}/restrictedfeatures", reach: appOnly, handle: (*state).restrictFeatures},
		{pattern: "GET /v3/roles/{role}/restrictedfeatures", reach: appOnly, handle: (*state).listRestrictedFeatures},
		{pattern: "DELETE /v3/roles/{role}/restrictedfeatures", reach: appOnly, handle: (*state).allowFeatures},
	}
}

// pathRole returns the role named by the path's {role} (lower-cased).
func (st *state) pathRole(c *call) (*roleRec, error) {
	id := strings.ToLower(c.r.PathValue("role"))
	if r := st.roles[id]; r != nil {
		return r, nil
	}
	return nil, errRoleNotFound(id)
}

// checkAudience validates a role setting: "all" or "friendsOnly".
func checkAudience(v *validator, field string, a chat.Audience) {
	if a != "" && a != chat.AudienceAll && a != chat.AudienceFriendsOnly {
		v.add(field, `The %s must be "all" or "friendsOnly".`, field)
	}
}

// roleBody is the body of create-role and update-role.
type roleBody struct {
	Role        string             `json:"role"`
	Name        *string            `json:"name"`
	Description *string            `json:"description"`
	Metadata    map[string]any     `json:"metadata"`
	Settings    *chat.RoleSettings `json:"settings"`
	Unset       []string           `json:"unset"`
}

func (b *roleBody) check(v *validator, create bool) {
	if create || b.Name != nil {
		name := ""
		if b.Name != nil {
			name = *b.Name
		}
		checkText(v, "name", name, true, 100)
	}
	if b.Description != nil {
		checkText(v, "description", *b.Description, false, 255)
	}
	if b.Settings != nil {
		checkAudience(v, "settings.listUsers", b.Settings.ListUsers)
		checkAudience(v, "settings.sendMessagesTo", b.Settings.SendMessagesTo)
	}
}

// POST /v3/roles
//
// A role id already in use is a 400 with details (see CHOICES.md).
func (st *state) createRole(c *call) (any, error) {
	var b roleBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	id := strings.ToLower(b.Role)
	var v validator
	checkID(&v, "role", id)
	b.check(&v, true)
	if err := v.err(); err != nil {
		return nil, err
	}
	if st.roles[id] != nil {
		return nil, errTaken("role")
	}
	if len(st.roles) >= maxRoles {
		return nil, errRoleQuota()
	}
	r := chat.Role{Role: id, Name: *b.Name, Metadata: b.Metadata, Settings: b.Settings, CreatedAt: c.timestamp()}
	if b.Description != nil {
		r.Description = *b.Description
	}
	return data(st.putRole(r).r), nil
}

// putRole stores r, replacing a role with its id but keeping its place.
func (st *state) putRole(r chat.Role) *roleRec {
	rec := st.roles[r.Role]
	if rec == nil {
		st.roleSeq++
		rec = &roleRec{seq: st.roleSeq}
		st.roles[r.Role] = rec
		touchField(st, &st.roles)
	}
	rec.r = clone(r)
	return rec
}

// GET /v3/roles
func (st *state) listRoles(c *call) (any, error) {
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	recs := make([]*roleRec, 0, len(st.roles))
	for _, r := range st.roles {
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
	page, meta := paginate(recs, pq)
	out := make([]chat.Role, len(page))
	for i, r := range page {
		out[i] = r.r
	}
	return chat.Page[chat.Role]{Data: out, Meta: meta}, nil
}

// GET /v3/roles/{role}
func (st *state) getRole(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	return data(r.r), nil
}

// PUT /v3/roles/{role}
//
// Settings given replace the role's settings as a whole.
func (st *state) updateRole(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	var b roleBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	b.check(&v, false)
	for _, f := range b.Unset {
		if f != "settings" && f != "description" && f != "metadata" {
			v.add("unset", `The unset items must be "settings", "description" or "metadata".`)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if b.Name != nil {
		r.r.Name = *b.Name
	}
	if b.Description != nil {
		r.r.Description = *b.Description
	}
	if b.Metadata != nil {
		r.r.Metadata = b.Metadata
	}
	if b.Settings != nil {
		r.r.Settings = b.Settings
	}
	for _, f := range b.Unset {
		switch f {
		case "settings":
			r.r.Settings = nil
		case "description":
			r.r.Description = ""
		case "metadata":
			r.r.Metadata = nil
		}
	}
	r.r.UpdatedAt = c.timestamp()
	return data(r.r), nil
}

// DELETE /v3/roles/{role}
//
// The "default" role cannot be deleted (403 ERR_ROLE_DELETE_DENIED). Users
// keep the name of a deleted role, and
// its restricted features and permissions go with it.
func (st *state) deleteRole(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	if r.r.Role == chat.DefaultRole {
		return nil, errRoleDeleteDenied(r.r.Role)
	}
	delete(st.roles, r.r.Role)
	touchField(st, &st.roles)
	delete(st.restricted, r.r.Role)
	touchField(st, &st.restricted)
	delete(st.rolePerms, r.r.Role)
	touchField(st, &st.rolePerms)
	return data(chat.Result{Success: true, Message: "The role " + r.r.Role + " has been deleted successfully."}), nil
}

// restrictableFeatures are the features a role can be restricted from,
// with the API path each guards, written as the service writes paths
// ("{{guid}}"). Answers prefix keys with "u."; requests may send
// them with or without it.
var restrictableFeatures = map[string]string{
	"addMember": "/v3/groups/{{guid}}/members", "ban": "/v3/groups/{{guid}}/bannedusers/{{uid}}",
	"blockUser": "/v3/users/{{uid}}/blockedusers", "changeScope": "/v3/groups/{{guid}}/members/{{uid}}",
	"createCall": "/v3/calls", "createGroup": "/v3/groups", "createMessage": "/v3/messages",
	"createMessageThread": "/v3/messages/{{id}}/thread", "deleteCall": "/v3/calls/{{sessionId}}",
	"deleteConversationForUser": "/v3/users/{{uid}}/conversation", "deleteGroup": "/v3/groups/{{guid}}",
	"deleteGroupMessages": "/v3/groups/{{guid}}/messages", "deleteMessage": "/v3/messages/{{id}}",
	"getBlockedUsers": "/v3/users/{{uid}}/blockedusers", "getCall": "/v3/calls/{{sessionId}}",
	"getConversation": "/v3/users/{{uid}}/conversation", "getGroup": "/v3/groups/{{guid}}",
	"getGroupMessages": "/v3/groups/{{guid}}/messages", "getMember": "/v3/groups/{{guid}}/members/{{uid}}",
	"getMessage": "/v3/messages/{{id}}", "getMyDetails": "/v3/me", "getUser": "/v3/users/{{uid}}",
	"getUserMessages": "/v3/users/{{uid}}/messages", "joinGroup": "/v3/groups/{{guid}}/members",
	"kickMember": "/v3/groups/{{guid}}/members/{{uid}}", "leaveGroup": "/v3/groups/{{guid}}/members",
	"listBannedUsers": "/v3/groups/{{guid}}/bannedusers", "listCalls": "/v3/calls",
	"listConversations": "/v3/conversations", "listGroupMembers": "/v3/groups/{{guid}}/members",
	"listGroups": "/v3/groups", "listMessages": "/v3/messages", "listSettings": "/v3/settings",
	"listThreadedMessages": "/v3/messages/{{id}}/thread", "listUsers": "/v3/users", "logout": "/v3/me/logout",
	"massMemberOperate": "/v3/groups/{{guid}}/members", "patchOwner": "/v3/groups/{{guid}}/owner",
	"unban": "/v3/groups/{{guid}}/bannedusers/{{uid}}", "unblockUser": "/v3/users/{{uid}}/blockedusers",
	"updateAuthToken": "/v3/users/{{uid}}/auth_tokens/{{authToken}}", "updateCall": "/v3/calls/{{sessionId}}",
	"updateGroup": "/v3/groups/{{guid}}", "updateMessage": "/v3/messages/{{id}}",
}

// restrictedFeature returns the feature named key ("listUsers" or "u.listUsers").
func restrictedFeature(key string, now chat.Timestamp) (chat.RestrictedFeature, bool) {
	name := strings.TrimPrefix(key, "u.")
	p, ok := restrictableFeatures[name]
	if !ok {
		return chat.RestrictedFeature{}, false
	}
	return chat.RestrictedFeature{Title: featureTitle(name), Description: "Restricts " + p + ".", Key: "u." + name, Path: p, CreatedAt: now}, true
}

// featureTitle turns a camelCase key into words: "listUsers" is "List users".
func featureTitle(key string) string {
	var b strings.Builder
	for i, r := range key {
		switch {
		case i == 0:
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsUpper(r):
			b.WriteRune(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// POST /v3/roles/{role}/restrictedfeatures (deprecated)
//
// The answer is keyed by the keys as sent; an unknown key fails its entry.
// Restrictions are stored and listed, not enforced.
func (st *state) restrictFeatures(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	keys, err := stringsField(c, "featuresToRestrict", true)
	if err != nil {
		return nil, err
	}
	out := map[string]chat.Result{}
	for _, k := range keys {
		f, ok := restrictedFeature(k, c.timestamp())
		if !ok {
			out[k] = chat.Result{Message: "The feature " + k + " does not exist."}
			continue
		}
		if st.restricted[r.r.Role] == nil {
			st.restricted[r.r.Role] = map[string]chat.RestrictedFeature{}
		}
		if _, done := st.restricted[r.r.Role][f.Key]; !done {
			st.restricted[r.r.Role][f.Key] = f
			touchField(st, &st.restricted)
		}
		out[k] = chat.Result{Success: true, Message: "The feature " + k + " has been restricted for the role " + r.r.Role + "."}
	}
	return data(out), nil
}

// GET /v3/roles/{role}/restrictedfeatures (deprecated)
//
// Features come ordered by key.
func (st *state) listRestrictedFeatures(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	out := make([]chat.RestrictedFeature, 0, len(st.restricted[r.r.Role]))
	for _, f := range st.restricted[r.r.Role] {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	page, meta := paginate(out, pq)
	return chat.Page[chat.RestrictedFeature]{Data: page, Meta: meta}, nil
}

// DELETE /v3/roles/{role}/restrictedfeatures (deprecated)
//
// featuresToAllow or allowAll is required; allowing a feature that is not
// restricted succeeds.
func (st *state) allowFeatures(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	keys, err := stringsField(c, "featuresToAllow", false)
	if err != nil {
		return nil, err
	}
	var b struct {
		AllowAll bool `json:"allowAll"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if len(keys) == 0 && !b.AllowAll {
		return nil, validationError(map[string][]string{"featuresToAllow": {"The featuresToAllow field is required when allowAll is not true."}})
	}
	if b.AllowAll {
		delete(st.restricted, r.r.Role)
		touchField(st, &st.restricted)
	}
	for _, k := range keys {
		delete(st.restricted[r.r.Role], "u."+strings.TrimPrefix(k, "u."))
		touchField(st, &st.restricted)
	}
	return data(chat.Result{Success: true, Message: "The features have been allowed for the role " + r.r.Role + "."}), nil
}

// stringsField reads the body's array of strings named field, without
// repeats, in order; required says it must not be empty.
func stringsField(c *call, field string, required bool) ([]string, error) {
	var b map[string]any
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	raw, ok := b[field]
	if !ok || raw == nil {
		if required {
			return nil, validationError(map[string][]string{field: {"The " + field + " field is required."}})
		}
		return nil, nil
	}
	items, ok := raw.([]any)
	var out []string
	for _, it := range items {
		s, isStr := it.(string)
		if !isStr {
			ok = false
			break
		}
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if !ok {
		return nil, validationError(map[string][]string{field: {"The " + field + " field must be an array of strings."}})
	}
	if required && len(out) == 0 {
		return nil, validationError(map[string][]string{field: {"The " + field + " field is required."}})
	}
	return out, nil
}
