package chattest

// The hooks between the fake's areas, referenced so that each counts as used
// before every area calls it.
var _ = []any{(*state).groupExists, (*state).memberScope, (*state).emitGroupAction, (*state).isBlocked}
