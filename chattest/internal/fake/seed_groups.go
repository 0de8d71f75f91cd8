package fake

import (
	"strings"

	"github.com/chatrest/chat"
)

// AddGroup does the work of chattest.Server.AddGroup, which documents it.
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

// Group does the work of chattest.Server.Group, which documents it.
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
