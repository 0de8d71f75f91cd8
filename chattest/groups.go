package chattest

import "github.com/chatrest/chat"

// groupsState holds groups, their members and bans.
type groupsState struct{}

func (g *groupsState) init() {}

// groupRoutes are the routes of groups, group members and banned users.
func groupRoutes() []route { return nil }

// groupExists reports whether the group guid exists (and is not deleted).
// Other collections call it; it is called with st.mu held.
func (st *state) groupExists(guid string) bool { return false }

// memberScope returns the scope of uid in the group guid, and whether uid
// is a member. Other collections call it; it is called with st.mu held.
func (st *state) memberScope(guid, uid string) (chat.MemberScope, bool) { return "", false }
