package chattest

// emit records that trigger fired with data, for delivery to the webhooks
// subscribed to it. It runs with st.mu held.
func (st *state) emit(trigger string, data any) {}
