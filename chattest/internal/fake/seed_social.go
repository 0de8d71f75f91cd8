package fake

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// AddFriends makes uid and each of friends friends (both ways), without
// going through the API; existing friendships are kept. UIDs are
// lower-cased and need not be users yet, but only active users are listed.
// The limit of 1000 friends is not enforced.
func (s *Core) AddFriends(uid string, friends ...string) {
	seeded(s, "AddFriends", friendsArgs{uid, friends}, (*state).seedFriends)
}

// friendsArgs are the arguments of [Server.AddFriends].
type friendsArgs struct {
	UID     string   `json:"uid"`
	Friends []string `json:"friends"`
}

// seedFriends is [Server.AddFriends] with st.mu held.
func (st *state) seedFriends(a friendsArgs) struct{} {
	uid, friends := strings.ToLower(a.UID), a.Friends
	now := chat.TimestampOf(st.clock())
	for _, f := range friends {
		if f = strings.ToLower(f); f != uid && st.friends[uid][f] == nil {
			st.socialSeq++
			for _, p := range [][2]string{{uid, f}, {f, uid}} {
				if st.friends[p[0]] == nil {
					st.friends[p[0]] = map[string]*socialRel{}
				}
				st.friends[p[0]][p[1]] = &socialRel{since: now, seq: st.socialSeq}
			}
		}
	}
	return struct{}{}
}

// Friends returns the uids of uid's friends, in the order they became
// friends, deleted and deactivated users included.
func (s *Core) Friends(uid string) []string {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return related(st.friends[strings.ToLower(uid)])
}

// Block makes blocker block blocked, without going through the API, as of
// the server's time; blocking again keeps the first time. Messages call
// isBlocked, so a blocked user's messages to blocker are refused.
func (s *Core) Block(blocker, blocked string) {
	seeded(s, "Block", blockArgs{blocker, blocked}, (*state).seedBlock)
}

// blockArgs are the arguments of [Server.Block].
type blockArgs struct {
	Blocker string `json:"blocker"`
	Blocked string `json:"blocked"`
}

// seedBlock is [Server.Block] with st.mu held.
func (st *state) seedBlock(a blockArgs) struct{} {
	st.addBlock(strings.ToLower(a.Blocker), strings.ToLower(a.Blocked), chat.TimestampOf(st.clock()))
	return struct{}{}
}

// Blocked returns the uids blocker has blocked, in the order blocked.
func (s *Core) Blocked(blocker string) []string {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return related(st.blocks[strings.ToLower(blocker)])
}

func related(rel map[string]*socialRel) []string {
	out := make([]string, 0, len(rel))
	for uid := range rel {
		out = append(out, uid)
	}
	sort.Slice(out, func(i, j int) bool { return rel[out[i]].seq < rel[out[j]].seq })
	return out
}

// AddRole stores r without going through the API and returns it as stored:
// Role lower-cased, Name the role id when empty, CreatedAt the server's
// time when zero, UpdatedAt CreatedAt when zero. A role with the same id
// ("default" included) is replaced, keeping its place in the list. AddRole
// does not validate r nor enforce the limit of 25 roles; its Metadata must
// be JSON-encodable.
func (s *Core) AddRole(r chat.Role) chat.Role { return seeded(s, "AddRole", r, (*state).seedRole) }

// seedRole is [Server.AddRole] with st.mu held.
func (st *state) seedRole(r chat.Role) chat.Role {
	r = clone(r)
	r.Role = strings.ToLower(r.Role)
	if r.Name == "" {
		r.Name = r.Role
	}
	now := chat.TimestampOf(st.clock())
	st.stampDefaults(now)
	if r.CreatedAt == 0 {
		r.CreatedAt = now
	}
	if r.UpdatedAt == 0 {
		r.UpdatedAt = r.CreatedAt
	}
	return clone(st.putRole(r).r)
}

// Role returns the stored role (matched case-insensitively); the "default"
// role always exists.
func (s *Core) Role(role string) (chat.Role, bool) {
	r := synced(s, func(st *state) *chat.Role {
		st.stampDefaults(chat.TimestampOf(st.clock()))
		if r := st.roles[strings.ToLower(role)]; r != nil {
			c := clone(r.r)
			return &c
		}
		return nil
	})
	if r == nil {
		return chat.Role{}, false
	}
	return *r, true
}

// SetRolePermissions sets permissions of role without going through the
// API (or checking that the role exists), keyed by permission id with a
// string or []string value each; values are not checked against the
// definitions. A nil value returns the permission to its default.
func (s *Core) SetRolePermissions(role string, perms map[string]any) {
	seeded(s, "SetRolePermissions", permsArgs{Role: role, Perms: perms}, (*state).seedRolePermissions)
}

// permsArgs are the arguments of [Server.SetRolePermissions] and
// [Server.SetScopePermissions].
type permsArgs struct {
	Role  string           `json:"role,omitempty"`
	GUID  string           `json:"guid,omitempty"`
	Scope chat.MemberScope `json:"scope,omitempty"`
	Perms map[string]any   `json:"perms"`
}

// seedRolePermissions is [Server.SetRolePermissions] with st.mu held.
func (st *state) seedRolePermissions(a permsArgs) struct{} {
	role := strings.ToLower(a.Role)
	st.rolePerms[role] = mergePermissions(st.rolePerms[role], a.Perms)
	return struct{}{}
}

// RolePermissions returns the role permissions in force for role: every
// role permission, at its default or as set.
func (s *Core) RolePermissions(role string) map[string]any {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return effectivePermissions(rolePermDefs, st.rolePerms[strings.ToLower(role)])
}

// SetScopePermissions sets permissions of the members of the group guid
// with scope, as [Server.SetRolePermissions] does for roles.
func (s *Core) SetScopePermissions(guid string, scope chat.MemberScope, perms map[string]any) {
	seeded(s, "SetScopePermissions", permsArgs{GUID: guid, Scope: scope, Perms: perms}, (*state).seedScopePermissions)
}

// seedScopePermissions is [Server.SetScopePermissions] with st.mu held.
func (st *state) seedScopePermissions(a permsArgs) struct{} {
	k := scopeKey{strings.ToLower(a.GUID), a.Scope}
	st.scopePerms[k] = mergePermissions(st.scopePerms[k], a.Perms)
	return struct{}{}
}

// ScopePermissions returns the scope permissions in force for the members
// of the group guid with scope.
func (s *Core) ScopePermissions(guid string, scope chat.MemberScope) map[string]any {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return effectivePermissions(scopePermDefs, st.scopePerms[scopeKey{strings.ToLower(guid), scope}])
}

func mergePermissions(set, perms map[string]any) map[string]any {
	if set == nil {
		set = map[string]any{}
	}
	for k, v := range clone(perms) {
		if v == nil {
			delete(set, k)
		} else {
			set[k] = v
		}
	}
	return set
}

// AddModerationReason stores r without going through the API and returns
// it as stored: CreatedAt the server's time when zero, UpdatedAt CreatedAt
// when zero. Set Default for a built-in reason. A reason with the same id
// is replaced, keeping its place in the list.
func (s *Core) AddModerationReason(r chat.ModerationReason) chat.ModerationReason {
	return seeded(s, "AddModerationReason", r, (*state).seedReason)
}

// seedReason is [Server.AddModerationReason] with st.mu held.
func (st *state) seedReason(r chat.ModerationReason) chat.ModerationReason {
	if r.CreatedAt == 0 {
		r.CreatedAt = chat.TimestampOf(st.clock())
	}
	if r.UpdatedAt == 0 {
		r.UpdatedAt = r.CreatedAt
	}
	return st.putReason(r).r
}

// Conversation returns the conversation conversationID (e.g.
// "alice_user_bob" or "group_team") as the API shows it to the user uid,
// tags included. ok is false when uid does not own it or cannot see it
// (no message yet, or reset since the last one).
func (s *Core) Conversation(uid, conversationID string) (c chat.Conversation, ok bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	uid = strings.ToLower(uid)
	cv := st.conv(strings.ToLower(conversationID))
	if cv == nil || !st.hasOwner(cv, uid) || !st.accessible(uid, cv) {
		return chat.Conversation{}, false
	}
	w := st.convView(uid, cv, convOptions{withTags: true})
	with, _ := json.Marshal(w.ConversationWith) // a user or group built by the fake
	return cloneFor(uid, chat.Conversation{
		ConversationID: w.ConversationID, ConversationType: w.ConversationType, UnreadMessageCount: w.unread,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, LastMessage: w.LastMessage, ConversationWith: with,
		Tags: w.Tags, PinnedBy: w.PinnedBy, PinnedAt: w.PinnedAt,
	}), true
}
