package fake

import (
	"strings"

	"github.com/chatrest/chat"
)

// AddGroup stores g without going through the API, with members, and
// returns it as stored: GUID and Owner lower-cased, Type "public" when
// empty, ConversationID "group_{guid}", CreatedAt the server's time when
// zero, UpdatedAt CreatedAt when zero (a group whose UpdatedAt differs
// from CreatedAt shows it, as one updated through the API does),
// MembersCount counted, and Scope,
// HasJoined and JoinedAt cleared (answers compute them for the acting
// user). An empty Owner is app_system, as when the API creates a group
// without owner and onBehalfOf. A group with the same guid is replaced,
// members and bans included; no action messages are emitted.
//
// A user Owner is a member with scope admin. Each of members is a UID,
// optionally followed by ":admin", ":moderator" or ":participant" (the
// default), e.g. "bob:moderator". Members join at CreatedAt, in the order
// given. AddGroup does not validate g, and members need not be users yet,
// but only members that are active users are listed and counted. A
// GroupPassword group seeded here has no password: give it one with
// [chat.GroupsService.Update]. Metadata must be JSON-encodable.
func (s *Core) AddGroup(g chat.Group, members ...string) chat.Group {
	return seeded(s, "AddGroup", groupArgs{g, members}, (*state).seedGroup)
}

// groupArgs are the arguments of [Server.AddGroup].
type groupArgs struct {
	Group   chat.Group `json:"group"`
	Members []string   `json:"members,omitempty"`
}

// seedGroup is [Server.AddGroup] with st.mu held.
func (st *state) seedGroup(a groupArgs) chat.Group {
	g, members := clone(a.Group), a.Members
	g.GUID = strings.ToLower(g.GUID)
	g.Owner = strings.ToLower(g.Owner)
	if g.Type == "" {
		g.Type = chat.GroupPublic
	}
	if g.Owner == "" {
		g.Owner = appSystem
	}
	g.ConversationID = "group_" + g.GUID
	g.Scope, g.HasJoined, g.JoinedAt, g.MembersCount = "", false, 0, 0
	if g.CreatedAt == 0 {
		g.CreatedAt = chat.TimestampOf(st.clock())
	}
	updated := g.UpdatedAt != 0 && g.UpdatedAt != g.CreatedAt
	if g.UpdatedAt == 0 {
		g.UpdatedAt = g.CreatedAt
	}
	rec := &GroupRec{g: g, updated: updated, members: map[string]*memberRec{}, banned: map[string]*banRec{}}
	if g.Owner != appSystem {
		st.join(rec, g.Owner, chat.MemberAdmin, g.CreatedAt)
	}
	for _, m := range members {
		uid, scope, _ := strings.Cut(strings.ToLower(m), ":")
		if scope == "" {
			scope = string(chat.MemberParticipant)
		}
		if uid != "" && rec.members[uid] == nil {
			st.join(rec, uid, chat.MemberScope(scope), g.CreatedAt)
		}
	}
	st.putGroup(rec)
	return clone(rec.asStored(st.view(rec, "")))
}

// asStored is v, a view of g, with g's updatedAt, which the seeding and
// inspection methods report whether or not answers show it.
func (g *GroupRec) asStored(v chat.Group) chat.Group {
	v.UpdatedAt = g.g.UpdatedAt
	return v
}

// Group returns the stored group guid (matched case-insensitively) with
// its own fields, tags included, and MembersCount; Scope, HasJoined and
// JoinedAt are left empty. ok is false for an unknown or deleted group.
func (s *Core) Group(guid string) (g chat.Group, ok bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	rec := st.groups[strings.ToLower(guid)]
	if rec == nil {
		return chat.Group{}, false
	}
	return clone(rec.asStored(st.view(rec, ""))), true
}
