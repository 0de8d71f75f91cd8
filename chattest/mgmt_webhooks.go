package chattest

// hooksState holds webhooks, their triggers and the deliveries.
type hooksState struct{}

func (h *hooksState) init() {}

func mgmtWebhookRoutes() []route { return nil }
