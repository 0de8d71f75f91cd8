package chattest

// callsState holds the app's calls (calls.go).
type callsState struct{}

func (c *callsState) init() {}

func callRoutes() []route { return nil }
