package chattest

// socialState holds conversations' per-user state (read/delivered marks,
// tags, pins, app pins), friends, blocked users, roles, permissions and
// moderation reasons.
type socialState struct{}

func (s *socialState) init() {}

// socialRoutes are the routes of conversations, friends, blocked users,
// roles, restricted features, permissions and moderation reasons.
func socialRoutes() []route { return nil }

// isBlocked reports whether blocker has blocked blocked. Messages call it
// (a blocked sender cannot message); it is called with st.mu held.
func (st *state) isBlocked(blocker, blocked string) bool { return false }
