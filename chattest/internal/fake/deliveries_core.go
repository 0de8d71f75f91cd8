package fake

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"

	"github.com/chatrest/chat/chattest/internal/webhooks"
)

// Trust makes the webhook deliveries trust cert, the certificate of the
// server serving the core, for https receivers served by httptest.
func (h *Core) Trust(cert *x509.Certificate) { h.webhooks.deliv.Trust(cert) }

// Deliveries returns the webhook deliveries, as chattest.Server.Deliveries.
func (h *Core) Deliveries() []webhooks.Delivery { return h.webhooks.deliv.Deliveries() }

// AwaitDeliveries waits until n deliveries have settled, as
// chattest.Server.AwaitDeliveries.
func (h *Core) AwaitDeliveries(ctx context.Context, n int) error {
	return h.webhooks.deliv.Await(ctx, n)
}

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
