package fake

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// AddFriends does the work of chattest.Server.AddFriends, which documents it.
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
				touch(st, &st.friends, p[0])
			}
		}
	}
	return struct{}{}
}

// Friends does the work of chattest.Server.Friends, which documents it.
func (s *Core) Friends(uid string) []string {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return related(st.friends[strings.ToLower(uid)])
}

// Block does the work of chattest.Server.Block, which documents it.
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

// Blocked does the work of chattest.Server.Blocked, which documents it.
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

// AddRole does the work of chattest.Server.AddRole, which documents it.
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

// Role does the work of chattest.Server.Role, which documents it.
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

// SetRolePermissions does the work of chattest.Server.SetRolePermissions, which documents it.
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
	touchField(st, &st.rolePerms)
	return struct{}{}
}

// RolePermissions does the work of chattest.Server.RolePermissions, which documents it.
func (s *Core) RolePermissions(role string) map[string]any {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return effectivePermissions(rolePermDefs, st.rolePerms[strings.ToLower(role)])
}

// SetScopePermissions does the work of chattest.Server.SetScopePermissions, which documents it.
func (s *Core) SetScopePermissions(guid string, scope chat.MemberScope, perms map[string]any) {
	seeded(s, "SetScopePermissions", permsArgs{GUID: guid, Scope: scope, Perms: perms}, (*state).seedScopePermissions)
}

// seedScopePermissions is [Server.SetScopePermissions] with st.mu held.
func (st *state) seedScopePermissions(a permsArgs) struct{} {
	k := scopeKey{strings.ToLower(a.GUID), a.Scope}
	st.scopePerms[k] = mergePermissions(st.scopePerms[k], a.Perms)
	touchField(st, &st.scopePerms)
	return struct{}{}
}

// ScopePermissions does the work of chattest.Server.ScopePermissions, which documents it.
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

// AddModerationReason does the work of chattest.Server.AddModerationReason, which documents it.
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

// Conversation does the work of chattest.Server.Conversation, which documents it.
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
