package chattest

import "github.com/chatrest/chat"

// rulesState holds moderation rules, keyword lists and the blocked, flagged
// and reviewed messages.
type rulesState struct{}

func (r *rulesState) init() {}

func moderationRuleRoutes() []route { return nil }

func mgmtModerationRoutes() []route { return nil }

// moderateMessage applies the app's moderation rules to a message just
// stored. It runs with st.mu held.
func (st *state) moderateMessage(m *msgRec, now chat.Timestamp) {}
