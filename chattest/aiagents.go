package chattest

// agentsState holds AI agents.
type agentsState struct{}

func (a *agentsState) init() {}

func aiAgentRoutes() []route { return nil }
