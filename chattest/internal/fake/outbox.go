package fake

// The outbox: each change of the state appends one commit to it, in the
// order the changes are made, holding the events the change recorded
// (events.go), and every consumer reads them: the webhooks render their
// triggers (internal/webhooks), the websocket its frames
// (internal/realtime), and the dashboard's live pages are told
// (internal/dashboard). A handler records what happened once; a new
// consumer is one more subscriber, and no handler changes. The consumers
// are adapters in packages of their own, which package chattest gives the
// core (Config.Consumers, Config.Dashboard): the core imports none.
//
// A change is a request served (a read too: it shows in the request log),
// a call of a seeding method, what a websocket frame did, or a user coming
// online or going offline. The handlers record the events of the change
// in progress as they make it (st.record), with st.mu held, and the
// commit is published once the change is complete, still under the lock:
// the consumers see the commits in order, each whole.

// Commit is one entry of the outbox: the events of one change of the
// state.
type Commit struct {
	// seq is the commit's place in the outbox: 1 for the first.
	seq uint64
	// events are what the change did, in order.
	events []Event
	// Durable returns once the change, and every change before it, is
	// kept by the server's store (WithStore), or with the error that
	// stopped it. A delivery or a push of the commit's events waits for
	// it before it leaves. nil: nothing to wait for.
	Durable func() error

	outer *Commit // the commit that was in progress when this one began
}

// Subscriber is a consumer of the outbox. Both methods run with st.mu
// held, must not block, and read the state only through the reader they
// were given.
type Subscriber interface {
	// Recorded reads ev, an event of the change c, as it is Recorded: the
	// state is as the change has made it so far, so that a consumer
	// renders the event as it happened.
	Recorded(c *Commit, ev Event)
	// Published reads c, complete: what the consumer rendered of its
	// events may leave.
	Published(c *Commit)
}

// outbox is the sequence of commits, and the consumers that read them.
// Guarded by st.mu.
type outbox struct {
	seq  uint64
	cur  *Commit      // the commit of the change in progress; nil between changes
	subs []Subscriber // the consumers, in the order they read each event
}

// subscribe adds a consumer, which reads every event recorded and every
// commit published from now on, after the consumers subscribed before it.
func (o *outbox) subscribe(s Subscriber) { o.subs = append(o.subs, s) }

// begin starts the commit of a change; publish it when the change is
// made. A change made while another one is (a user going offline as a
// request revokes their token) is a commit of its own, published first.
func (o *outbox) begin() *Commit {
	c := &Commit{outer: o.cur}
	o.cur = c
	return c
}

// publish appends c, begun with begin, to the outbox: each consumer reads
// it, in order.
func (o *outbox) publish(c *Commit) {
	o.cur = c.outer
	c.outer = nil
	o.seq++
	c.seq = o.seq
	for _, s := range o.subs {
		s.Published(c)
	}
}

// record adds ev to the change in progress: each consumer reads it now.
// A change that began no commit gets one of its own, published at once.
// While the state is replayed nothing is recorded: what the replayed
// changes did was told when they were made.
func (st *state) record(ev Event) {
	if st.replaying {
		return
	}
	o := &st.out
	c := o.cur
	if c == nil {
		c = o.begin()
		defer o.publish(c)
	}
	c.events = append(c.events, ev)
	for _, s := range o.subs {
		s.Recorded(c, ev)
	}
}
