package chattest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
	"github.com/chatrest/chat/webhook"
)

// How the fake delivers: its own retry schedule, attempt count and timeout
// (see CHOICES.md), short so that tests stay fast.
const (
	// deliveryRegion is the region every envelope names.
	deliveryRegion = "us"
	// deliveryRetries is how many times a failed delivery is retried when
	// its webhook has retryOnFailure: 4 attempts in all.
	deliveryRetries = 3
	// deliveryBackoff is the wait before the first retry; it doubles
	// before each further one (10ms, 20ms, 40ms).
	deliveryBackoff = 10 * time.Millisecond
	// deliveryTimeout bounds one attempt, connection included.
	deliveryTimeout = 5 * time.Second
	// maxDeliveries is how many deliveries [Server.Deliveries] keeps, the
	// most recent.
	maxDeliveries = 10000
)

// Errors a [Delivery] can end with besides the receiver's own failures.
var (
	// ErrNotLoopback is the error of a delivery to a webhook URL whose host
	// is not a loopback address: without [WithLocalNetwork] the fake never
	// connects anywhere else, so it records the delivery as failed without
	// calling it.
	ErrNotLoopback = errors.New("chattest: not delivered: the fake only calls loopback addresses")
	// ErrDeliveryStopped is the error of a delivery the server was closed
	// before it could finish.
	ErrDeliveryStopped = errors.New("chattest: not delivered: the server was closed")
)

// DeliveryState is where a [Delivery] stands.
type DeliveryState string

// Delivery states.
const (
	// DeliveryPending: queued or being sent (or waiting to be retried).
	DeliveryPending DeliveryState = "pending"
	// DeliveryDelivered: the receiver answered with a 2xx status.
	DeliveryDelivered DeliveryState = "delivered"
	// DeliveryFailed: the last attempt failed and no retry is left.
	DeliveryFailed DeliveryState = "failed"
)

// Delivery is one webhook delivery the fake made, or is making: an event
// of the app sent to one webhook subscribed to its trigger. See
// [Server.Deliveries]. It never holds the webhook's password.
type Delivery struct {
	// Trigger is the trigger that fired, e.g. "message_sent".
	Trigger string
	// WebhookID is the webhook delivered to.
	WebhookID string
	// AppID is the app the event happened in.
	AppID string
	// URL is the webhook's URL when the event fired (a password in it shown
	// as "xxxxx").
	URL string
	// Type is the envelope's type: "call" for call_* triggers, "meet" for
	// meeting_* triggers, empty otherwise.
	Type string
	// Data is the envelope's data, the trigger's payload, as sent.
	Data json.RawMessage
	// State says whether the delivery is pending, delivered or failed.
	State DeliveryState
	// StatusCode is the status the receiver answered to the last attempt;
	// 0 when it did not answer.
	StatusCode int
	// Err is why the last attempt got no answer (a connection error, a
	// timeout, [ErrNotLoopback], [ErrDeliveryStopped]); nil when the
	// receiver answered, even with a failure status.
	Err error
	// Attempts is how many times the delivery was sent: 1, or up to 4
	// with retryOnFailure; 0 when it was never sent.
	Attempts int
}

// deliveryState holds the deliveries and the goroutine that makes them.
// Guarded by st.mu, like the rest of the state.
type deliveryState struct {
	log     []*Delivery    // the most recent deliveries, at most 2*maxDeliveries
	queue   []*deliveryJob // waiting for the delivery goroutine, in order
	settled int            // deliveries that reached their final state
	changed chan struct{}  // closed, and replaced, when a delivery is attempted or settles, or delivery stops
	wake    chan struct{}  // a token when the queue grows
	roots   *x509.CertPool // certificates https receivers may use
	cancel  context.CancelFunc
	done    chan struct{} // closed when the goroutine has returned
	running bool          // the goroutine was started
	closing bool          // no new delivery goes out
	stopped bool          // closing, and every delivery has settled

	localNetwork bool // receivers may be on the machine's networks: localnetwork.go
}

func (d *deliveryState) init() {
	d.changed = make(chan struct{})
	d.wake = make(chan struct{}, 1)
}

// deliveryJob is a delivery waiting to be sent, with what sending it takes.
type deliveryJob struct {
	d                  *Delivery
	env                *webhook.Envelope
	url                string
	username, password string // empty unless the webhook uses Basic auth
	retry              bool
	durable            func() error // returns once the change that fired it is kept: its event's
}

// emit fires trigger with data, for delivery to the webhooks subscribed to
// it: it adds the trigger and its payload, encoded, to the event of the
// change in progress (outbox.go), unless no webhook listens. It runs with
// st.mu held. data may be a [lazy] payload, built only when some webhook
// listens.
func (st *state) emit(trigger string, data any) {
	if !st.hooked(trigger) {
		return // or the state is replayed: delivered when the change was made
	}
	if f, ok := data.(lazy); ok {
		data = f()
	}
	raw, encErr := json.Marshal(data)
	if encErr != nil {
		encErr = fmt.Errorf("chattest: encoding the %s payload: %w", trigger, encErr)
	}
	st.inEvent(func(e *event) { e.hooks = append(e.hooks, hookEvent{trigger: trigger, data: raw, err: encErr}) })
}

// deliverEvent is the webhooks' consumer of the outbox. For each trigger
// the event fired, it records a pending [Delivery] per enabled webhook of
// the app subscribed to it, and leaves the sending to the delivery
// goroutine, which it starts on first use; a delivery leaves once the
// event's change is kept. A delivery to a URL whose host is not a loopback
// address fails at once ([ErrNotLoopback]; under [WithLocalNetwork], one
// the fake may not call fails with [ErrNotLocalNetwork]). It runs with
// st.mu held, and does no I/O.
func (st *state) deliverEvent(e *event) {
	if len(e.hooks) == 0 {
		return
	}
	dv := &st.deliv
	for _, he := range e.hooks {
		for _, h := range st.webhooks[st.appID] {
			if !h.w.Enabled || !h.triggers[he.trigger] {
				continue
			}
			d := &Delivery{Trigger: he.trigger, WebhookID: h.w.ID, AppID: st.appID, URL: shownURL(h.w.WebhookURL),
				Type: eventType(he.trigger), Data: he.data, State: DeliveryPending}
			dv.log = append(dv.log, d)
			refused := dv.refuse(h.w.WebhookURL)
			switch {
			case he.err != nil:
				st.settle(d, he.err)
			case dv.closing:
				st.settle(d, ErrDeliveryStopped)
			case refused != nil:
				st.settle(d, refused)
			default:
				j := &deliveryJob{d: d, url: h.w.WebhookURL, retry: h.w.RetryOnFailure, durable: e.durable, env: &webhook.Envelope{
					Trigger: he.trigger, Data: he.data, AppID: st.appID, Region: deliveryRegion, Webhook: h.w.ID, Type: d.Type,
				}}
				if h.w.UseBasicAuth {
					j.username, j.password = h.w.Username, h.password
				}
				dv.queue = append(dv.queue, j)
			}
		}
	}
	if len(dv.log) > 2*maxDeliveries {
		dv.log = slices.Clone(dv.log[len(dv.log)-maxDeliveries:])
	}
	if len(dv.queue) == 0 {
		return
	}
	if !dv.running {
		dv.running = true
		ctx, cancel := context.WithCancel(context.Background())
		dv.cancel, dv.done = cancel, make(chan struct{})
		go st.deliverLoop(ctx, newDeliveryClient(dv.roots, dv.dialControl()), dv.done, dv.wake)
	}
	select {
	case dv.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// lazy is a payload built on demand: emit calls it only when a webhook
// listens to the trigger, so that events nobody listens to cost nothing.
type lazy func() any

// hooked reports whether an enabled webhook of the app listens to trigger.
// It runs with st.mu held.
func (st *state) hooked(trigger string) bool {
	return !st.replaying && slices.ContainsFunc(st.webhooks[st.appID], func(h *hookRec) bool { return h.w.Enabled && h.triggers[trigger] })
}

// eventType is the envelope's type for trigger: "call" for call_* and
// "meet" for meeting_* triggers, as [webhook.NewEnvelope] sets it;
// recording_generated and transcription_generated carry none (see
// CHOICES.md).
func eventType(trigger string) string {
	switch {
	case strings.HasPrefix(trigger, "call_"):
		return "call"
	case strings.HasPrefix(trigger, "meeting_"):
		return "meet"
	}
	return ""
}

// settle puts d in its final state: delivered when the last attempt got a
// 2xx answer, failed otherwise. err is the last attempt's error, if any.
// It runs with st.mu held.
func (st *state) settle(d *Delivery, err error) {
	d.Err = err
	d.State = DeliveryFailed
	if err == nil && d.StatusCode >= 200 && d.StatusCode <= 299 {
		d.State = DeliveryDelivered
	}
	st.deliv.settled++
	st.deliv.notify()
}

// notify wakes the AwaitDeliveries calls. It runs with st.mu held.
func (d *deliveryState) notify() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// deliverLoop sends the queued deliveries one at a time, in the order the
// events fired, until ctx is cancelled.
func (st *state) deliverLoop(ctx context.Context, hc *http.Client, done chan<- struct{}, wake <-chan struct{}) {
	defer close(done)
	defer hc.CloseIdleConnections()
	for ctx.Err() == nil {
		st.mu.Lock()
		var j *deliveryJob
		if q := st.deliv.queue; len(q) > 0 {
			j = q[0]
			q[0] = nil
			st.deliv.queue = q[1:]
		}
		st.mu.Unlock()
		if j != nil {
			if err := kept(j); err != nil {
				st.mu.Lock()
				st.settle(j.d, err)
				st.mu.Unlock()
				continue
			}
			st.deliver(ctx, hc, j)
			continue
		}
		select {
		case <-ctx.Done():
		case <-wake:
		}
	}
}

// kept waits until the change that fired j is kept, so that no delivery
// tells of a change a crash could lose. A change that could not be kept
// is not delivered: the request that made it was answered with the error.
func kept(j *deliveryJob) error {
	if j.durable == nil {
		return nil
	}
	if err := j.durable(); err != nil {
		return fmt.Errorf("chattest: not delivered: the change was not saved: %w", err)
	}
	return nil
}

// deliver sends j, retrying a failed attempt (no answer, or not 2xx) when
// its webhook has retryOnFailure, and records each attempt's outcome.
func (st *state) deliver(ctx context.Context, hc *http.Client, j *deliveryJob) {
	wait := deliveryBackoff
	for attempt := 1; ; attempt++ {
		status, err := post(ctx, hc, j)
		if ctx.Err() != nil {
			status, err = 0, ErrDeliveryStopped
		}
		ok := err == nil && status >= 200 && status <= 299
		last := ok || !j.retry || attempt > deliveryRetries || ctx.Err() != nil
		st.mu.Lock()
		j.d.Attempts, j.d.StatusCode, j.d.Err = attempt, status, err
		if last {
			st.settle(j.d, err)
		} else {
			st.deliv.notify() // the dashboard shows each attempt
		}
		st.mu.Unlock()
		if last {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			st.mu.Lock()
			st.settle(j.d, ErrDeliveryStopped)
			st.mu.Unlock()
			return
		case <-t.C:
		}
		wait *= 2
	}
}

// post makes one attempt: it POSTs the envelope with webhook.NewRequest
// (Basic auth when the webhook uses it) and returns the answer's status.
func post(ctx context.Context, hc *http.Client, j *deliveryJob) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
	defer cancel()
	req, err := webhook.NewRequest(ctx, j.url, j.env, j.username, j.password)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "chattest-webhooks/"+chat.Version)
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// newDeliveryClient returns the client deliveries go through: it dials
// only the addresses control accepts (whatever a host name resolves to),
// uses no proxy, follows no redirect (a 3xx is a failed delivery), keeps
// no idle connection, and trusts roots for https receivers.
func newDeliveryClient(roots *x509.CertPool, control func(network, address string, c syscall.RawConn) error) *http.Client {
	dialer := &net.Dialer{Timeout: deliveryTimeout, Control: control}
	return &http.Client{
		Transport: &http.Transport{
			DialContext:            dialer.DialContext,
			TLSClientConfig:        &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:    deliveryTimeout,
			ResponseHeaderTimeout:  deliveryTimeout,
			DisableKeepAlives:      true,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// loopbackOnly refuses to connect to any address but a loopback one.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return ErrNotLoopback
	}
	return nil
}

// loopbackURL reports whether raw is an http or https URL whose host is a
// loopback address or "localhost".
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && rest.IsLoopback(u.Hostname())
}

// shownURL is raw with any password in it replaced by "xxxxx".
func shownURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	return raw
}

// trustReceivers makes https deliveries trust cert: the server's own
// certificate, which is also the one every httptest.NewTLSServer uses.
func (st *state) trustReceivers(cert *x509.Certificate) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.deliv.roots == nil {
		st.deliv.roots = x509.NewCertPool()
	}
	st.deliv.roots.AddCert(cert)
}

// stopDeliveries ends the delivery goroutine, cancelling the attempt in
// flight, and fails the deliveries still queued with ErrDeliveryStopped.
// It returns once the goroutine has; calling it again does nothing more.
func (st *state) stopDeliveries() {
	st.mu.Lock()
	dv := &st.deliv
	dv.closing = true
	cancel, done := dv.cancel, dv.done
	st.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, j := range dv.queue {
		st.settle(j.d, ErrDeliveryStopped)
	}
	dv.queue = nil
	dv.stopped = true
	dv.notify()
}

// Deliveries returns the webhook deliveries of the server's app, in the
// order their events fired: for each event, one per enabled webhook
// subscribed to its trigger, pending or settled. The copies share nothing
// with the server. The server keeps the most recent 10,000.
//
// Deliveries are made by one goroutine per server, in order, to webhooks
// whose URL is on a loopback address: an [net/http/httptest.Server]
// receiver, plain http, or https with httptest's certificate, which the
// fake trusts (it is the fake's own, [Server.Certificate]); under
// [WithLocalNetwork], to receivers on the machine's networks too. A webhook with
// useBasicAuth sends its username and password as HTTP Basic auth. A 2xx
// answer delivers; anything else fails, and with retryOnFailure the
// delivery is retried 3 times, after 10ms, 20ms and 40ms. Each attempt
// times out after 5 seconds. [Server.Close] stops the goroutine at once,
// failing what is left with [ErrDeliveryStopped].
func (s *Server) Deliveries() []Delivery {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Delivery, len(st.deliv.log))
	for i, d := range st.deliv.log {
		out[i] = *d
		out[i].Data = slices.Clone(d.Data)
	}
	return out
}

// AwaitDeliveries waits until n deliveries have settled (delivered or
// failed) since the server started, counting those [Server.Deliveries] no
// longer keeps, so that a test can check a receiver without sleeping. It
// returns an error when ctx is done first, or when the server is closed
// with fewer than n settled.
func (s *Server) AwaitDeliveries(ctx context.Context, n int) error {
	st := s.st
	for {
		st.mu.Lock()
		got, stopped, changed := st.deliv.settled, st.deliv.stopped, st.deliv.changed
		st.mu.Unlock()
		switch {
		case got >= n:
			return nil
		case stopped:
			return fmt.Errorf("chattest: AwaitDeliveries: the server is closed with %d of %d deliveries settled", got, n)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("chattest: AwaitDeliveries: %d of %d deliveries settled: %w", got, n, ctx.Err())
		case <-changed:
		}
	}
}

// Fire fires trigger with data as the event's payload (the envelope's
// "data"), as if it had happened in the server's app: every enabled webhook
// subscribed to trigger gets a delivery. Use it for the triggers the fake
// cannot produce itself (receipts, connection status, campaigns and
// notifications) or to send a payload of your own. trigger must be one of
// the 48 trigger ids ([webhook.Triggers]), and data must encode as JSON (a
// [json.RawMessage] is sent as it is).
func (s *Server) Fire(trigger string, data any) error {
	if !knownTrigger(trigger) {
		return fmt.Errorf("chattest: Fire: %q is not a trigger id", trigger)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("chattest: Fire: encoding data: %w", err)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	st.emit(trigger, json.RawMessage(raw))
	return nil
}

// The payloads of the triggers the chat API's handlers fire. Each builds a
// value emit encodes at once.

// messagePayload is the data of message_sent, message_edited and
// message_deleted: {"message": m}, m as the app sees it (for the last two,
// the action message). An edit or delete's action message shows its by and
// on entities only, as the reference lists them and the service delivers
// them (no for), and a deleted message as the service shows it: its id,
// conversationId, deletedAt and deletedBy.
func messagePayload(m *msgRec) lazy {
	return func() any {
		v := m.view("", true)
		if e := v.Data.Entities; v.Category == chat.CategoryAction && v.Type == chat.MessageTypeMessage && e != nil {
			hooked := chat.Entities{By: e.By, On: e.On}
			if v.Data.Action == chat.ActionDeleted && e.On != nil {
				var gone deletedMessage
				if json.Unmarshal(e.On.Entity, &gone) == nil {
					hooked.On = entity(chat.EntityMessage, gone)
				}
			}
			v.Data.Entities = &hooked
		}
		return struct {
			Message chat.Message `json:"message"`
		}{v}
	}
}

// deletedMessage is a deleted message as message_deleted shows it.
type deletedMessage struct {
	ID             string         `json:"id"`
	ConversationID string         `json:"conversationId"`
	DeletedAt      chat.Timestamp `json:"deletedAt"`
	DeletedBy      string         `json:"deletedBy"`
}

// namedUser is uid as the user_blocked and reaction payloads show it: uid
// and name.
func (st *state) namedUser(uid string) chat.User {
	u := chat.User{UID: uid}
	if r := st.users[uid]; r != nil {
		u.Name = r.u.Name
	}
	return u
}

// reactionPayload is the data of message_reaction_added and
// message_reaction_removed.
func (st *state) reactionPayload(m *msgRec, r *reactionRec) lazy {
	return func() any {
		by := st.namedUser(r.uid)
		return struct {
			Reaction chat.Reaction `json:"reaction"`
		}{chat.Reaction{ID: strconv.FormatInt(r.id, 10), MessageID: m.m.ID, Reaction: r.reaction, UID: r.uid, ReactedAt: r.at, ReactedBy: &by}}
	}
}

// emitReactionRemoved fires message_reaction_removed for uid's reaction
// emoji to m, if uid has it. Call it before removing the reaction.
func (st *state) emitReactionRemoved(m *msgRec, uid, emoji string) {
	if i := slices.IndexFunc(m.reactions, func(r *reactionRec) bool { return r.uid == uid && r.reaction == emoji }); i >= 0 {
		st.emit("message_reaction_removed", st.reactionPayload(m, m.reactions[i]))
	}
}

// emitBlocks fires trigger (user_blocked or user_unblocked) for the users
// results reports a success for, acting as by: {"users": {uid: {uid,
// name}}, "by": {uid, name}}.
func (st *state) emitBlocks(trigger, by string, results map[string]chat.Result) {
	if !st.hooked(trigger) {
		return
	}
	users := map[string]chat.User{}
	for uid, r := range results {
		if r.Success {
			users[uid] = st.namedUser(uid)
		}
	}
	if len(users) == 0 {
		return
	}
	st.emit(trigger, struct {
		Users map[string]chat.User `json:"users"`
		By    chat.User            `json:"by"`
	}{users, st.namedUser(by)})
}

// hookGroup is a group in a group payload: the group as the app sees it,
// with the fields only webhooks carry.
type hookGroup struct {
	chat.Group
	OnlineMembersCount *int   `json:"onlineMembersCount,omitempty"`
	OldOwner           string `json:"oldOwner,omitempty"`
}

// hookMember is a member in a group payload.
type hookMember struct {
	chat.GroupMember
	OldScope chat.MemberScope `json:"oldScope,omitempty"`
}

// groupPayload is the data of the group triggers.
type groupPayload struct {
	Group   hookGroup             `json:"group"`
	Members map[string]hookMember `json:"members,omitempty"`
	By      *chat.User            `json:"by,omitempty"`
}

// hookGroupOf is g as group payloads show it: with onlineMembersCount,
// the members online.
func (st *state) hookGroupOf(g *groupRec) hookGroup {
	online := 0
	for _, uid := range st.memberUIDs(g) {
		if u := st.users[uid]; u != nil && u.u.Status == chat.UserAvailable {
			online++
		}
	}
	return hookGroup{Group: st.view(g, ""), OnlineMembersCount: &online}
}

// hookMemberOf is the user uid as a member of g in group payloads: the
// user, with their scope and joinedAt while they are a member.
func (st *state) hookMemberOf(g *groupRec, uid string) hookMember {
	u := st.userEntity(uid)
	m := hookMember{GroupMember: chat.GroupMember{UID: u.UID, Name: u.Name, Avatar: u.Avatar, Status: u.Status,
		Role: u.Role, LastActiveAt: u.LastActiveAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}}
	if rec := g.members[uid]; rec != nil {
		m.Scope, m.JoinedAt = rec.scope, rec.joinedAt
	}
	return m
}

// emitGroup fires trigger (group_created, group_updated, group_deleted)
// for g; group_created carries the members g has at that point.
func (st *state) emitGroup(trigger string, g *groupRec) {
	if !st.hooked(trigger) {
		return
	}
	p := groupPayload{Group: st.hookGroupOf(g)}
	if trigger == "group_created" {
		// The group as its owner sees it (scope, joinedAt, hasJoined),
		// without onlineMembersCount, as the reference lists it.
		p.Group = hookGroup{Group: st.view(g, g.g.Owner)}
		p.Members = map[string]hookMember{}
		for _, uid := range st.memberUIDs(g) {
			p.Members[uid] = st.hookMemberOf(g, uid)
		}
	}
	st.emit(trigger, p)
}

// emitMember fires trigger (group_member_added, _kicked, _banned,
// _unbanned, _joined, _left) for uid in g, acting as the caller of c; a
// member who joins or leaves acts themself, and the payload has no by.
func (st *state) emitMember(c *call, trigger string, g *groupRec, uid string) {
	if !st.hooked(trigger) {
		return
	}
	p := groupPayload{Group: st.hookGroupOf(g), Members: map[string]hookMember{uid: st.hookMemberOf(g, uid)}}
	if trigger != "group_member_joined" && trigger != "group_member_left" {
		by := st.userEntity(actor(c))
		p.By = &by
	}
	st.emit(trigger, p)
}

// emitScopeChanged fires group_member_scope_changed for uid in g, whose
// scope goes from old to scope, acting as the caller of c.
func (st *state) emitScopeChanged(c *call, g *groupRec, uid string, old, scope chat.MemberScope) {
	if !st.hooked("group_member_scope_changed") {
		return
	}
	m := st.hookMemberOf(g, uid)
	m.Scope, m.OldScope = scope, old
	by := st.userEntity(actor(c))
	st.emit("group_member_scope_changed", groupPayload{Group: st.hookGroupOf(g), Members: map[string]hookMember{uid: m}, By: &by})
}

// emitOwnerTransferred fires group_owner_transferred for g, whose owner
// becomes owner. Call it before changing g's owner.
func (st *state) emitOwnerTransferred(g *groupRec, owner string) {
	if !st.hooked("group_owner_transferred") {
		return
	}
	hg := st.hookGroupOf(g)
	hg.OldOwner, hg.Owner = g.g.Owner, owner
	st.emit("group_owner_transferred", groupPayload{Group: hg})
}
