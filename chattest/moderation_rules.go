package chattest

// rulesState holds moderation rules, keyword lists and the blocked, flagged
// and reviewed messages.
type rulesState struct{}

func (r *rulesState) init() {}

func moderationRuleRoutes() []route { return nil }

func mgmtModerationRoutes() []route { return nil }
