package chattest

// mgmtState holds the management API's apps, collaborators, settings and
// extensions.
type mgmtState struct{}

func (m *mgmtState) init(st *state) {}

func mgmtAppRoutes() []route { return nil }
