package fake

import (
	"encoding/json"
	"fmt"
)

// Fire fires trigger with data as the event's payload, as
// chattest.Server.Fire.
func (h *Core) Fire(trigger string, data any) error {
	if !knownTrigger(trigger) {
		return fmt.Errorf("chattest: Fire: %q is not a trigger id", trigger)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("chattest: Fire: encoding data: %w", err)
	}
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	st.record(TriggerFired{Trigger: trigger, Data: raw})
	return nil
}
