package chattest

import "encoding/json"

// The outbox: each change of the state appends one event to it, in the
// order the changes are made, and every consumer reads the events from
// it: the journal keeps their change records (journal.go), the webhooks
// deliver their triggers (deliveries.go), the websocket pushes their frames
// (realtime.go), and the dashboard's live pages are told (dashboard.go). A
// change says what it did once, in its event; a new consumer is one more
// subscriber.
//
// A change is a request served (a read too: it shows in the request log),
// a call of a seeding method, what a websocket frame did, or a user coming
// online or going offline. The handlers add what they did to the event of
// the change in progress as they do it (fire, pushTo), with st.mu held,
// and the event is published once the change is complete, still under the
// lock: the consumers see the events in order, each whole.

// event is one entry of the outbox: what one change of the state did.
type event struct {
	// seq is the event's place in the outbox: 1 for the first.
	seq uint64
	// hooks are the webhook events it fired, in order.
	hooks []hookEvent
	// frames are what it pushes on the client API's websocket, in order.
	frames []push
	// durable returns once the change, and every change before it, is
	// kept by the server's store (WithStore), or with the error that
	// stopped it; the journal sets it when it publishes the event. A
	// delivery or a push of the event waits for it before it leaves. nil:
	// nothing to wait for.
	durable func() error

	outer *event // the event that was in progress when this one began
}

// hookEvent is a webhook trigger fired, with its payload as the envelope's
// data.
type hookEvent struct {
	trigger string
	data    json.RawMessage
	err     error // why the payload could not be encoded: its deliveries fail with it
}

// push is a websocket frame and who gets it: every connection of the users
// to, or the connections conns.
type push struct {
	to    []string
	conns []*rtConn
	frame []byte
}

// outbox is the sequence of events, and the consumers that read them.
// Guarded by st.mu.
type outbox struct {
	seq  uint64
	cur  *event         // the event of the change in progress; nil between changes
	subs []func(*event) // the consumers, in the order they read each event
}

// subscribe adds a consumer, which reads every event published from now
// on, after the consumers subscribed before it, with st.mu held. It must
// not block.
func (o *outbox) subscribe(read func(*event)) { o.subs = append(o.subs, read) }

// begin starts the event of a change; publish it when the change is made.
// A change made while another one is (a user going offline as a request
// revokes their token) is an event of its own, published first.
func (o *outbox) begin() *event {
	e := &event{outer: o.cur}
	o.cur = e
	return e
}

// publish appends e, begun with begin, to the outbox: each consumer reads
// it, in order.
func (o *outbox) publish(e *event) {
	o.cur = e.outer
	e.outer = nil
	o.seq++
	e.seq = o.seq
	for _, read := range o.subs {
		read(e)
	}
}

// inEvent adds, with add, to the event of the change in progress. A change that
// began no event (none does but while the state is replayed, when nothing
// is delivered or pushed) gets one of its own, published at once: add
// fills it.
func (st *state) inEvent(add func(e *event)) {
	if st.replaying {
		return
	}
	if e := st.out.cur; e != nil {
		add(e)
		return
	}
	e := st.out.begin()
	add(e)
	st.out.publish(e)
}
