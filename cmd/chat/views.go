package main

// What the table of operations (operations.go) says of some operations
// for people: flags with friendlier names, arguments that go into the
// body, and which members of the answers a table shows.

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// The ways a column shows a value.

// showTime shows a Unix time in UTC, RFC 3339.
func showTime(_ *cli, v json.RawMessage) string {
	n, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
	if err != nil {
		return scalarText(v)
	}
	return when(chat.Timestamp(n))
}

// showJoined shows a list of text joined with commas.
func showJoined(_ *cli, v json.RawMessage) string {
	var s []string
	if json.Unmarshal(v, &s) != nil {
		return scalarText(v)
	}
	return strings.Join(s, ", ")
}

// showYesNo shows a JSON boolean as yes or no.
func showYesNo(_ *cli, v json.RawMessage) string {
	var b bool
	_ = json.Unmarshal(v, &b)
	return yesNo(b)
}

// showURL shows a URL with any password in it redacted.
func showURL(_ *cli, v json.RawMessage) string {
	s := scalarText(v)
	if p, err := url.Parse(s); err == nil && p.User != nil {
		return p.Redacted()
	}
	return s
}

// showSet shows whether a credential is set, not the credential.
func showSet(_ *cli, v json.RawMessage) string {
	if scalarText(v) == "" {
		return ""
	}
	return "(set)"
}

// showObject shows free-form JSON (metadata) compactly; nothing for an
// empty object.
func showObject(_ *cli, v json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil || buf.String() == "{}" || buf.String() == "null" {
		return ""
	}
	return buf.String()
}

// showOwnKey shows an API key, or that it is the one the command uses.
func showOwnKey(c *cli, v json.RawMessage) string {
	key := scalarText(v)
	if c.settings != nil && key != "" && key == c.settings.APIKey {
		return redacted + " (this command's)"
	}
	return key
}

// showAppKey shows an app's key of scope, from its apiKeys (keyed by key).
func showAppKey(scope chat.Scope) func(*cli, json.RawMessage) string {
	return func(_ *cli, v json.RawMessage) string {
		var keys map[string]struct {
			APIKey string     `json:"apiKey"`
			Scope  chat.Scope `json:"scope"`
		}
		_ = json.Unmarshal(v, &keys)
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			if keys[k].Scope == scope {
				return cmpOr(keys[k].APIKey, k)
			}
		}
		return ""
	}
}

// The tables of the answers.
var (
	userColumns = []column{
		{name: "uid", key: "uid"}, {name: "name", key: "name"}, {name: "status", key: "status"},
		{name: "statusMessage", key: "statusMessage"}, {name: "role", key: "role"}, {name: "avatar", key: "avatar"},
		{name: "link", key: "link"}, {name: "tags", key: "tags", show: showJoined}, {name: "metadata", key: "metadata", show: showObject},
		{name: "createdAt", key: "createdAt", show: showTime}, {name: "updatedAt", key: "updatedAt", show: showTime},
		{name: "lastActiveAt", key: "lastActiveAt", show: showTime}, {name: "authToken", key: "authToken", optional: true},
	}
	userListColumns = []column{
		{name: "UID", key: "uid"}, {name: "NAME", key: "name"}, {name: "STATUS", key: "status"},
		{name: "ROLE", key: "role"}, {name: "CREATED", key: "createdAt", show: showTime},
	}
	deactivateColumns = []column{
		{name: "deactivated", key: "deactivatedUids", show: showJoined},
		{name: "already deactivated", key: "alreadyDeactivatedUids", show: showJoined},
		{name: "not found", key: "notFound", show: showJoined},
	}
	reactivateColumns = []column{
		{name: "reactivated", key: "reactivatedUids", show: showJoined},
		{name: "not deactivated", key: "nonDeactivatedUids", show: showJoined},
		{name: "not found", key: "notFound", show: showJoined},
	}
	resultColumns = []column{{name: "success", key: "success", show: showYesNo}, {name: "message", key: "message"}}
	groupColumns  = []column{
		{name: "guid", key: "guid"}, {name: "name", key: "name"}, {name: "type", key: "type"},
		{name: "description", key: "description"}, {name: "icon", key: "icon"}, {name: "owner", key: "owner"},
		{name: "membersCount", key: "membersCount"}, {name: "conversationId", key: "conversationId"},
		{name: "tags", key: "tags", show: showJoined}, {name: "metadata", key: "metadata", show: showObject},
		{name: "createdAt", key: "createdAt", show: showTime}, {name: "updatedAt", key: "updatedAt", show: showTime},
	}
	groupListColumns = []column{
		{name: "GUID", key: "guid"}, {name: "NAME", key: "name"}, {name: "TYPE", key: "type"},
		{name: "MEMBERS", key: "membersCount"}, {name: "OWNER", key: "owner"}, {name: "CREATED", key: "createdAt", show: showTime},
	}
	memberListColumns = []column{
		{name: "UID", key: "uid"}, {name: "NAME", key: "name"}, {name: "SCOPE", key: "scope"},
		{name: "STATUS", key: "status"}, {name: "JOINED", key: "joinedAt", show: showTime},
	}
	scopeColumns   = []column{{name: "guid", key: "guid"}, {name: "uid", key: "uid"}, {name: "scope", key: "scope"}}
	messageColumns = []column{
		{name: "id", key: "id"}, {name: "muid", key: "muid"}, {name: "conversationId", key: "conversationId"},
		{name: "sender", key: "sender"}, {name: "receiverType", key: "receiverType"}, {name: "receiver", key: "receiver"},
		{name: "category", key: "category"}, {name: "type", key: "type"}, {name: "text", key: "data.text"},
		{name: "parentId", key: "parentId"}, {name: "replyCount", key: "replyCount", show: showCount},
		{name: "tags", key: "tags", show: showJoined}, {name: "metadata", key: "data.metadata", show: showObject},
		{name: "sentAt", key: "sentAt", show: showTime}, {name: "editedAt", key: "editedAt", show: showTime},
		{name: "deletedAt", key: "deletedAt", show: showTime},
	}
	apiKeyColumns = []column{
		{name: "apiKey", key: "apiKey"}, {name: "name", key: "name"}, {name: "scope", key: "scope"},
		{name: "createdAt", key: "createdAt", show: showTime},
	}
	apiKeyListColumns = []column{
		{name: "KEY", key: "apiKey", show: showOwnKey}, {name: "NAME", key: "name"}, {name: "SCOPE", key: "scope"},
		{name: "CREATED", key: "createdAt", show: showTime},
	}
	tokenColumns = []column{
		{name: "uid", key: "uid"}, {name: "authToken", key: "authToken"}, {name: "platform", key: "platform"},
		{name: "userAgent", key: "userAgent"}, {name: "createdAt", key: "createdAt", show: showTime},
	}
	tokenListColumns = []column{
		{name: "TOKEN", key: "authToken"}, {name: "PLATFORM", key: "platform"}, {name: "CREATED", key: "createdAt", show: showTime},
	}
	appColumns = []column{
		{name: "id", key: "id"}, {name: "name", key: "name"}, {name: "region", key: "region"},
		{name: "version", key: "version"}, {name: "state", key: "state"}, {name: "plan", key: "plan"},
		{name: "owner", key: "owner"}, {name: "createdAt", key: "createdAt", show: showTime},
		{name: "restApiKey", key: "apiKeys", show: showAppKey(chat.ScopeFullAccess), optional: true},
		{name: "authKey", key: "apiKeys", show: showAppKey(chat.ScopeAuthOnly), optional: true},
	}
	appListColumns = []column{
		{name: "ID", key: "id"}, {name: "NAME", key: "name"}, {name: "REGION", key: "region"},
		{name: "STATE", key: "state"}, {name: "PLAN", key: "plan"}, {name: "CREATED", key: "createdAt", show: showTime},
	}
	webhookColumns = []column{
		{name: "id", key: "id"}, {name: "name", key: "name"}, {name: "url", key: "webhookURL", show: showURL},
		{name: "enabled", key: "enabled", show: showYesNo}, {name: "retryOnFailure", key: "retryOnFailure", show: showYesNo},
		{name: "useBasicAuth", key: "useBasicAuth", show: showYesNo}, {name: "username", key: "username"},
		{name: "password", key: "password", show: showSet, optional: true},
		{name: "createdAt", key: "createdAt", show: showTime}, {name: "updatedAt", key: "updatedAt", show: showTime},
	}
	webhookListColumns = []column{
		{name: "ID", key: "id"}, {name: "NAME", key: "name"}, {name: "URL", key: "webhookURL", show: showURL},
		{name: "ENABLED", key: "enabled", show: showYesNo}, {name: "CREATED", key: "createdAt", show: showTime},
	}
	triggerListColumns = []column{{name: "TRIGGER", key: "id"}, {name: "CATEGORY", key: "category"}, {name: "DESCRIPTION", key: "description"}}
)

// showCount shows a number, 0 when absent.
func showCount(_ *cli, v json.RawMessage) string {
	if s := scalarText(v); s != "" {
		return s
	}
	return "0"
}

// deleteUserTable shows the answer of users delete: a permanent delete
// answers whether it deleted the user; a soft delete answers as users
// deactivate does, and the SDK reads its success from that.
func deleteUserTable(t *table, data json.RawMessage) {
	var r chat.DeleteUserResponse
	_ = json.Unmarshal(data, &r)
	t.row("success", yesNo(r.Success))
	t.row("message", r.Message)
	if len(r.DeactivatedUIDs)+len(r.AlreadyDeactivatedUIDs)+len(r.NotFound) > 0 {
		t.row("deactivated", strings.Join(r.DeactivatedUIDs, ", "))
		t.row("already deactivated", strings.Join(r.AlreadyDeactivatedUIDs, ", "))
		t.row("not found", strings.Join(r.NotFound, ", "))
	}
}

// resultsTable shows answers that map ids to a result each: a row per id
// with what became of it, for each member of parts (member, what success
// is called; member "" is the answer itself). A failure shows the
// service's code and reason, which it sends either as the result's
// message or as its error object (see [chat.MemberResult]).
func resultsTable(parts ...[2]string) func(*table, json.RawMessage) {
	return func(t *table, data json.RawMessage) {
		var whole map[string]json.RawMessage
		_ = json.Unmarshal(data, &whole)
		for _, part := range parts {
			raw := data
			if part[0] != "" {
				raw = whole[part[0]]
			}
			var results map[string]chat.MemberResult
			_ = json.Unmarshal(raw, &results)
			for _, id := range slices.Sorted(maps.Keys(results)) {
				status := part[1]
				if r := results[id]; !r.Success {
					status = failure(r)
				}
				t.row(id, status)
			}
		}
	}
}

// failure says why the result r failed: "failed", the service's code
// when it sent one, and its reason.
func failure(r chat.MemberResult) string {
	s := "failed"
	if r.Error != nil && r.Error.Code != "" {
		s += ": " + r.Error.Code
	}
	if reason := strings.TrimSpace(r.Reason()); reason != "" {
		s += ": " + reason
	}
	return s
}

// The options of the commands for people.

func userOptions(create bool) []option {
	opts := []option{
		{flag: "name", key: "name", usage: "the display name", required: create},
		{flag: "avatar", key: "avatar", usage: "the URL of the user's picture"},
		{flag: "link", key: "link", usage: "the URL of the user's profile"},
		{flag: "role", key: "role", usage: "the user's role"},
		{flag: "status-message", key: "statusMessage", usage: "the user's status message"},
		{flag: "metadata", key: "metadata", kind: optJSON, usage: "free-form JSON object about the user"},
		{flag: "tag", key: "tags", kind: optList, usage: "a tag"},
	}
	if create {
		return append(opts, option{flag: "with-auth-token", key: "withAuthToken", kind: optBool, usage: "also mint an auth token for the user, and show it"})
	}
	return append(opts, option{flag: "unset", key: "unset", kind: optList, usage: "remove these fields: avatar, link, metadata, statusMessage"})
}

var userListOptions = []option{
	{flag: "search", key: "searchKey", usage: "keep users whose name or uid contains this text"},
	{flag: "status", key: "status", usage: "keep users with this status: available or offline"},
	{flag: "role", key: "roles", kind: optList, usage: "keep users with one of these roles"},
	{flag: "tag", key: "tags", kind: optList, usage: "keep users with one of these tags"},
	{flag: "deactivated", usage: "deactivated users: exclude, include or only", def: "exclude", choices: []choice{
		{value: "exclude"}, {value: "include", set: map[string]any{"withDeactivated": true}}, {value: "only", set: map[string]any{"onlyDeactivated": true}},
	}},
}

func groupOptions(create bool) []option {
	opts := []option{
		{flag: "name", key: "name", usage: "the display name", required: create},
		{flag: "type", key: "type", usage: "public, password or private"},
		{flag: "password", key: "password", kind: optSecret, usage: "the password of a password group (visible in the process list: prefer --password-stdin)"},
		{flag: "password-stdin", key: "password", kind: optStdin, usage: "read the password of a password group from standard input"},
		{flag: "icon", key: "icon", usage: "the URL of the group's picture"},
		{flag: "description", key: "description", usage: "the group's description"},
		{flag: "owner", key: "owner", usage: "the owner's uid"},
		{flag: "metadata", key: "metadata", kind: optJSON, usage: "free-form JSON object about the group"},
		{flag: "tag", key: "tags", kind: optList, usage: "a tag"},
	}
	if create {
		return opts
	}
	return append(opts, option{flag: "unset", key: "unset", kind: optList, usage: "remove these fields: icon, description, metadata"})
}

var groupListOptions = []option{
	{flag: "search", key: "searchKey", usage: "keep groups whose name or guid contains this text"},
	{flag: "type", key: "types", kind: optList, usage: "keep groups of these types: public, password, private"},
	{flag: "tag", key: "tags", kind: optList, usage: "keep groups with one of these tags"},
}

// memberAddOptions say where the users of members add go: banned with
// --ban, else in the members of --scope.
var memberAddOptions = []option{
	{flag: "ban", kind: optBool, usage: "ban the users from the group instead", argsTo: "usersToBan"},
	{flag: "scope", usage: "the members' scope: participant, moderator or admin", def: string(chat.MemberParticipant), choices: []choice{
		{value: string(chat.MemberParticipant), argsTo: "participants"},
		{value: string(chat.MemberModerator), argsTo: "moderators"},
		{value: string(chat.MemberAdmin), argsTo: "admins"},
	}},
}

func webhookOptions(create bool) []option {
	return []option{
		{flag: "name", key: "name", usage: "the webhook's name", required: create},
		{flag: "url", key: "webhookURL", usage: "the https URL events are delivered to", required: create},
		{flag: "basic-auth", key: "useBasicAuth", kind: optBool, usage: "deliver with HTTP Basic credentials (--username, --password-stdin)"},
		{flag: "username", key: "username", usage: "the Basic credentials' user name"},
		{flag: "password-stdin", key: "password", kind: optStdin, usage: "read the Basic credentials' password from standard input"},
		{flag: "enabled", key: "enabled", kind: optBool, def: "true", always: create, usage: "deliver events (--enabled=false to pause)"},
		{flag: "retry", key: "retryOnFailure", kind: optBool, usage: "retry failed deliveries"},
	}
}

// scopes are the scopes of a group's members.
func scopes() []string {
	return []string{string(chat.MemberParticipant), string(chat.MemberModerator), string(chat.MemberAdmin)}
}

// triggerIDs are the triggers a webhook can subscribe to.
func triggerIDs() []string {
	var ids []string
	for _, t := range webhook.Triggers() {
		ids = append(ids, string(t))
	}
	return ids
}
