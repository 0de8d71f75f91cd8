package fake

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatrest/chat"
)

// How the fake's websocket behaves.
const (
	// rtQueue is how many frames a connection may have waiting to be
	// written. A connection whose queue is full is dropped (see
	// state.send): the server never waits for a slow client.
	rtQueue = 1024
	// rtDropGrace is how long a dropped connection's writer may still wait
	// for the client to take the frame it is writing before the
	// connection is cut without a close frame.
	rtDropGrace = 10 * time.Second
)

// The websocket close codes the fake closes with (RFC 6455, 7.4.1).
const (
	statusNormalClosure   = 1000
	statusGoingAway       = 1001
	statusPolicyViolation = 1008
	// statusQueueFull closes a connection whose queue filled up: 1008,
	// policy violation, with a reason saying why.
	statusQueueFull = statusPolicyViolation
)

// Transport carries the client API's websocket: a
// chattest.RealtimeTransport, which documents it, as package chattest
// gives it to the core.
type Transport interface {
	ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(Socket) (*Conn, error))
}

// Socket is one accepted websocket, as the fake writes to it: a
// chattest.Socket, which documents it.
type Socket interface {
	Send(ctx context.Context, frame []byte) error
	Close(ctx context.Context, code int, reason string) error
}

// realtimeState holds the websocket connections of the client API and the
// key that signs their jwts. Guarded by st.mu, like the rest of the state;
// the frames are written by one goroutine per connection, from its
// bounded queue, never with st.mu held.
type realtimeState struct {
	jwtKey    []byte                      // signs the login's jwts: random, per server or per store (store.go)
	rtConns   map[*RTConn]bool            // every open connection
	rtByUID   map[string]map[*RTConn]bool // the authenticated connections, by uid
	rtChanged chan struct{}               // closed, and replaced, when a user's connections change
	rtClosed  bool                        // the server is closing: no new connection
	rtWG      sync.WaitGroup              // a count per connection, until its transport closes it

	rtAuthTimeout time.Duration // how long a connection may stay unauthenticated (access.go)
}

func (rs *realtimeState) init(authTimeout time.Duration) {
	rs.rtAuthTimeout = authTimeout
	rs.jwtKey = NewJWTKey()
	rs.rtConns = map[*RTConn]bool{}
	rs.rtByUID = map[string]map[*RTConn]bool{}
	rs.rtChanged = make(chan struct{})
}

// NewJWTKey returns a random key to sign jwts with.
func NewJWTKey() []byte {
	key := make([]byte, 32)
	rand.Read(key) // never fails (crypto/rand)
	return key
}

// RTConn is one websocket of the client API.
type RTConn struct {
	ws        Socket
	out       chan queued   // frames waiting to be written, at most rtQueue
	kill      chan struct{} // closed when the connection is dropped
	written   chan struct{} // closed when the writer has closed the socket
	wctx      context.Context
	stopWrite context.CancelFunc // ends a write in progress, cutting the connection
	authTimer *time.Timer        // drops the connection unless it authenticates in time (access.go)
	// Guarded by st.mu:
	uid      string   // the user, once the auth frame is verified
	device   string   // the deviceId of its auth frame
	presence string   // its presence subscription: ALL_USERS, ROLES, FRIENDS or none
	roles    []string // the roles of a ROLES subscription
	dropped  bool     // no longer pushed to
	ended    bool     // its transport closed it (Conn.Close)
	// Set when dropped, read by the writer once kill is closed:
	code   int
	reason string
	flush  bool // write the frames queued before closing

	tokenHash string // the hash of the auth token its jwt was issued for (access.go); guarded by st.mu
	since     int64  // when it authenticated, in Unix milliseconds; guarded by st.mu
}

// queued is a frame waiting to be written, and what it waits for before:
// that the change that pushed it is kept (its event's durable); nil for an
// answer to the connection's own frame.
type queued struct {
	frame   []byte
	durable func() error
}

// Conn is one websocket of the client API, as its
// [Transport] sees it: the transport feeds it the frames it reads,
// and closes it when reading ends.
type Conn struct {
	st *state
	c  *RTConn
}

// Receive acts on frame, a frame the client sent. It returns once what the
// frame changed is kept (with a [Store], durable), so that the transport
// reads the next frame after it.
func (rc *Conn) Receive(frame []byte) {
	st := rc.st
	st.mu.Lock()
	e := st.out.begin()
	wait := st.receive(rc.c, frame)
	st.out.publish(e)
	st.mu.Unlock()
	_ = wait() // a change that cannot be written refuses the next ones (errNotSaved)
}

// Close ends the connection once its transport has stopped reading: the
// user goes offline if it was their last, and Close returns once the fake
// has stopped writing to the socket. Calling it again does nothing.
func (rc *Conn) Close() {
	st, c := rc.st, rc.c
	st.mu.Lock()
	if c.ended {
		st.mu.Unlock()
		return
	}
	c.ended = true
	st.drop(c, statusNormalClosure, "", false)
	st.mu.Unlock()
	c.authTimer.Stop()
	<-c.written
	c.stopWrite()
	st.rtWG.Done()
}

// Frame is a websocket Frame as the client SDKs read it.
type Frame struct {
	AppID         string            `json:"appId"`
	Type          string            `json:"type,omitempty"`
	Action        string            `json:"action,omitempty"`
	Receiver      string            `json:"receiver,omitempty"`
	ReceiverType  chat.ReceiverType `json:"receiverType,omitempty"`
	Sender        string            `json:"sender,omitempty"`
	MessageSender string            `json:"messageSender,omitempty"`
	DeviceID      string            `json:"deviceId"`
	Body          any               `json:"body,omitempty"`
}

// inFrame is a frame from a client; only what the fake acts on is read.
// An auth frame's body carries the jwt and the presence subscription.
type inFrame struct {
	Type         string            `json:"type"`
	Action       string            `json:"action"`
	Receiver     string            `json:"receiver"`
	ReceiverType chat.ReceiverType `json:"receiverType"`
	DeviceID     string            `json:"deviceId"`
	Body         struct {
		Auth                 string          `json:"auth"`
		PresenceSubscription string          `json:"presenceSubscription"`
		Roles                []string        `json:"roles"`
		Action               string          `json:"action"`
		MessageID            json.RawMessage `json:"messageId"`
		Metadata             json.RawMessage `json:"metadata"`
	} `json:"body"`
}

// isWebSocket reports whether r asks to upgrade to a websocket.
func isWebSocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// serveRealtime serves one websocket of the client API through the
// handler's transport; without one, it answers 501.
func (h *Core) serveRealtime(w http.ResponseWriter, r *http.Request) {
	if h.realtime == nil {
		http.Error(w, "chattest: this server serves no websocket to the client SDKs: give it one with platform.WithWebSocket() (github.com/chatrest/chat/cmd/chattest/platform), or a transport of your own with chattest.WithRealtime", http.StatusNotImplemented)
		return
	}
	h.realtime.ServeRealtime(w, r, h.st.connect)
}

// connect starts a connection of the client API over s: it writes the
// frames queued for it, in order, from a goroutine of its own, until it
// is dropped, and drops it unless it authenticates in time. It fails,
// cutting s, when the server is closing.
func (st *state) connect(s Socket) (*Conn, error) {
	c := &RTConn{ws: s, out: make(chan queued, rtQueue), kill: make(chan struct{}), written: make(chan struct{})}
	c.wctx, c.stopWrite = context.WithCancel(context.Background())
	st.mu.Lock()
	if st.rtClosed {
		st.mu.Unlock()
		c.stopWrite()
		s.Close(c.wctx, statusGoingAway, "chattest: the server is closing")
		return nil, errors.New("chattest: the server is closing")
	}
	st.rtWG.Add(1)
	st.rtConns[c] = true
	c.authTimer = st.awaitAuth(c) // access.go
	st.mu.Unlock()
	go c.writeLoop()
	return &Conn{st: st, c: c}, nil
}

// writeLoop writes c's frames in order until c is dropped, then closes the
// socket with the status the drop gave, after the frames still queued
// when the drop asks for them to be flushed. A frame a change pushed
// leaves once the change is kept. A frame the client does not take cuts
// the connection.
func (c *RTConn) writeLoop() {
	defer close(c.written)
	write := func(q queued) bool {
		if q.durable != nil && q.durable() != nil {
			return true // a change that could not be kept is not pushed
		}
		return c.ws.Send(c.wctx, q.frame) == nil
	}
	for {
		select {
		case <-c.kill:
		default:
			select {
			case f := <-c.out:
				if !write(f) {
					c.ws.Close(cutNow, statusPolicyViolation, "")
					<-c.kill
					return
				}
				continue
			case <-c.kill:
			}
		}
		// Dropped: c.code, c.reason and c.flush are set.
		for flushed := !c.flush; !flushed; {
			select {
			case f := <-c.out:
				flushed = !write(f)
			default:
				flushed = true
			}
		}
		c.ws.Close(c.wctx, c.code, c.reason)
		return
	}
}

// cutNow is a context that has ended: a Socket given it cuts the
// connection at once.
var cutNow = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// drop stops pushing to c and has its writer close it with code, after
// the frame being written and, when flush is set, those already queued.
// A client that takes none of them within rtDropGrace is cut off without
// a close frame. It runs with st.mu held; dropping c again does nothing.
func (st *state) drop(c *RTConn, code int, reason string, flush bool) {
	if c.dropped {
		return
	}
	c.dropped, c.code, c.reason, c.flush = true, code, reason, flush
	time.AfterFunc(rtDropGrace, c.stopWrite)
	delete(st.rtConns, c)
	if c.uid != "" {
		delete(st.rtByUID[c.uid], c)
		if len(st.rtByUID[c.uid]) == 0 {
			delete(st.rtByUID, c.uid)
			st.presenceChanged(c.uid, false, c)
		}
		st.rtNotify()
	}
	close(c.kill)
}

// send queues f for c, to be written once durable returns (nil: at once).
// A connection whose queue is full (the client stopped reading) is
// dropped: pushed nothing more, and closed with 1008 (policy violation)
// after the frame being written; the server never waits for a slow
// client. It runs with st.mu held.
func (st *state) send(c *RTConn, f []byte, durable func() error) {
	if c.dropped || f == nil {
		return
	}
	f = hidePrivate(c.uid, f) // access.go
	select {
	case c.out <- queued{f, durable}:
	default:
		st.drop(c, statusQueueFull, "chattest: the connection fell too far behind", false)
	}
}

// stopRealtime cuts every websocket at once and waits until their
// transports have closed them; no new one is accepted. Calling it again
// does nothing more.
func (st *state) stopRealtime() {
	st.mu.Lock()
	st.rtClosed = true
	st.rtNotify()
	for c := range st.rtConns {
		c.stopWrite() // first: the writer cuts the socket rather than wait for the client
		st.drop(c, statusGoingAway, "chattest: the server is closing", false)
	}
	st.mu.Unlock()
	st.rtWG.Wait()
}

// rtNotify wakes the AwaitOnline calls. It runs with st.mu held.
func (rs *realtimeState) rtNotify() {
	close(rs.rtChanged)
	rs.rtChanged = make(chan struct{})
}

// AwaitOnline does the work of chattest.Server.AwaitOnline, which documents it.
func (s *Core) AwaitOnline(ctx context.Context, uid string) error {
	st := s.st
	uid = strings.ToLower(uid)
	for {
		st.mu.Lock()
		online, closed, changed := len(st.rtByUID[uid]) > 0, st.rtClosed, st.rtChanged
		st.mu.Unlock()
		switch {
		case online:
			return nil
		case closed:
			return fmt.Errorf("chattest: AwaitOnline(%q): the server is closed", uid)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("chattest: AwaitOnline(%q): %w", uid, ctx.Err())
		case <-changed:
		}
	}
}

// receive acts on a frame from c. It runs with st.mu held, and returns
// what waits, after unlocking, until the change the frame made is kept
// (WithStore).
func (st *state) receive(c *RTConn, b []byte) (wait func() error) {
	var f inFrame
	if json.Unmarshal(b, &f) != nil {
		return noWait
	}
	kind := f.kind()
	switch {
	case c.dropped:
		// Closing (its credentials were revoked, say): nothing more.
	case kind == frameAuth:
		st.authenticate(c, &f)
	case kind == framePing:
		st.send(c, st.encodeFrame(Frame{Action: "pong"}), nil)
	case c.uid == "":
		// Nothing else before the auth frame.
	case st.permit(c.uid, frameKinds[kind], f.target()) != nil: // policy.go; an unknown kind is undeclared
		// What the user may not reach: ignored, as the service ignores it.
	case kind == frameTyping:
		st.relayTyping(c, &f)
	case kind == frameReceipts:
		return st.receipt(c, &f)
	}
	return noWait
}

// The kinds of frame a client sends that the server acts on.
const (
	frameAuth     = "auth"
	framePing     = "ping"
	frameTyping   = "typing_indicator"
	frameReceipts = "receipts"
)

// frameKinds declares what each kind of frame a client sends reaches, for
// the access policy (policy.go), as routes do.
var frameKinds = map[string]reach{
	frameAuth:     ownData,
	framePing:     noData,
	frameTyping:   toReceiver(needSend),
	frameReceipts: toReceiver(needRead),
}

// kind is the kind of f: its type, or "ping" for a ping (an action).
func (f *inFrame) kind() string {
	if f.Action == framePing {
		return framePing
	}
	return f.Type
}

// target is the conversation f names, for the access policy.
func (f *inFrame) target() target {
	return target{receiver: strings.ToLower(f.Receiver), receiverType: f.ReceiverType}
}

// authenticate verifies the jwt of an auth frame and answers it: code
// "200" when it is a jwt of this server for an active user who still holds
// the auth token it was issued for; "401" otherwise, and the connection
// is dropped.
func (st *state) authenticate(c *RTConn, f *inFrame) {
	uid, tok, ok := st.verifyJWT(f.Body.Auth)
	if !ok || c.uid != "" && c.uid != uid {
		st.send(c, st.encodeFrame(Frame{Type: "auth", DeviceID: f.DeviceID, Body: authBody{Code: "401", Status: "UNAUTHORIZED"}}), nil)
		st.drop(c, statusPolicyViolation, "chattest: not a valid jwt", true)
		return
	}
	if c.uid == "" {
		c.uid, c.since = uid, st.clock().UnixMilli()
		if st.rtByUID[uid] == nil {
			st.rtByUID[uid] = map[*RTConn]bool{}
			st.presenceChanged(uid, true, c)
		}
		st.rtByUID[uid][c] = true
		st.rtNotify()
	}
	c.device, c.presence, c.roles, c.tokenHash = f.DeviceID, f.Body.PresenceSubscription, f.Body.Roles, tok
	st.send(c, st.encodeFrame(Frame{Type: "auth", Sender: uid, DeviceID: f.DeviceID, Body: authBody{Code: "200", Status: "OK"}}), nil)
}

// authBody is the body of the answer to an auth frame.
type authBody struct {
	Code   string `json:"code"`
	Status string `json:"status"`
}

// encodeFrame encodes f, of the fake's app; nil when its body does not
// encode (a message seeded with a value JSON cannot hold), which is then
// not sent.
func (st *state) encodeFrame(f Frame) []byte { return EncodeFrame(st.appID, f) }

// PushTo queues frame for every connection of the users to, once each,
// and for the connections conns, to be written once durable returns: the
// websocket's consumer of the outbox pushes with it (internal/realtime).
// It runs with st.mu held.
func (st *state) PushTo(to []string, conns []*RTConn, frame []byte, durable func() error) {
	for _, c := range conns {
		st.send(c, frame, durable)
	}
	for i, uid := range to {
		if slices.Contains(to[:i], uid) {
			continue
		}
		for c := range st.rtByUID[uid] {
			st.send(c, frame, durable)
		}
	}
}

// PresenceWatchers are the connections, of users other than u, whose
// presence subscription covers u. It runs with st.mu held.
func (st *state) PresenceWatchers(u *UserRec) []*RTConn {
	var to []*RTConn
	for other, conns := range st.rtByUID {
		if other == u.u.UID {
			continue
		}
		for c := range conns {
			if st.subscribed(c, u) {
				to = append(to, c)
			}
		}
	}
	return to
}

// device is the resource header of c's request: the client SDKs' session id.
func (c *call) device() string { return c.r.Header.Get("resource") }

// receipt applies a receipts frame of c's user, as the read and delivered
// marks of the REST API do (the same checks, answer and events): it marks
// the conversation read or delivered up to the frame's message. A frame
// the marks refuse is ignored, and so is every frame once the store can
// take no change (WithStore). It returns what waits until
// the change is kept.
func (st *state) receipt(c *RTConn, f *inFrame) (wait func() error) {
	var id json.Number
	if json.Unmarshal(f.Body.MessageID, &id) != nil {
		var s string
		if json.Unmarshal(f.Body.MessageID, &s) != nil {
			return noWait
		}
		id = json.Number(s)
	}
	n, err := id.Int64()
	a := receiptArgs{UID: c.uid, Receiver: f.Receiver, ReceiverType: f.ReceiverType, Action: f.Body.Action, MessageID: n}
	if err != nil || a.Action != ReceiptRead && a.Action != ReceiptDelivered ||
		a.ReceiverType != chat.ReceiverUser && a.ReceiverType != chat.ReceiverGroup || st.journal != nil && st.journal.Failed() != nil {
		return noWait
	}
	defer st.freezeClock()() // the mark and its change at one time
	st.markReceipt(a, c.device)
	return st.keepCall()
}

// receiptArgs are a receipts frame as the journal keeps it: its user, the
// conversation, the mark and the message.
type receiptArgs struct {
	UID          string            `json:"uid"`
	Receiver     string            `json:"receiver"`
	ReceiverType chat.ReceiverType `json:"receiverType"`
	Action       string            `json:"action"`
	MessageID    int64             `json:"messageId"`
}

// receiptOp names a receipts frame in the journal (seedOps).
const receiptOp = "receipt"

// markReceipt makes the read or delivered mark a of a receipts frame,
// whose pushes carry device; the journal replays it with none.
func (st *state) markReceipt(a receiptArgs, device string) struct{} {
	body, _ := json.Marshal(markBody{MessageID: &a.MessageID}) // an int64 pointer always encodes
	r, _ := http.NewRequest(http.MethodPost, "/", nil)         // a constant URL always parses
	r.Header.Set("resource", device)
	cl := &call{r: r, body: body, now: st.clock(), onBehalfOf: a.UID}
	mark := (*state).markRead
	if a.Action == ReceiptDelivered {
		mark = (*state).markDelivered
	}
	switch a.ReceiverType {
	case chat.ReceiverUser:
		r.SetPathValue("uid", a.Receiver)
		userConv(mark)(st, cl)
	case chat.ReceiverGroup:
		r.SetPathValue("guid", a.Receiver)
		groupConv(mark)(st, cl)
	}
	return struct{}{}
}

// relayTyping relays a typing_indicator frame of c's user to the receiver,
// or to the group's other members, if c's user may message them.
func (st *state) relayTyping(c *RTConn, f *inFrame) {
	if f.Body.Action != "started" && f.Body.Action != "ended" {
		return
	}
	receiver := strings.ToLower(f.Receiver)
	if st.checkReceiver(c.uid, f.ReceiverType, receiver) != nil {
		return
	}
	to := []string{receiver}
	if f.ReceiverType == chat.ReceiverGroup {
		to = slices.DeleteFunc(st.MemberUIDs(st.groups[receiver]), func(uid string) bool { return uid == c.uid })
	}
	st.record(UserTyping{UID: c.uid, Device: c.device, Receiver: receiver, ReceiverType: f.ReceiverType,
		Action: f.Body.Action, Metadata: f.Body.Metadata, To: to})
}

// presenceChanged records that uid came online (their first websocket
// authenticated) or went offline (their last one closed), a change of its
// own (the websocket tells the users whose subscription covers uid, the
// webhooks fire user_connection_status_changed). ws is that websocket; nil
// when none of this server's made the change (a journal replayed, and
// the users it left online going offline). It runs
// with st.mu held. The journal keeps the change, and the next request, or
// closing the server, writes it.
func (st *state) presenceChanged(uid string, online bool, ws *RTConn) {
	u := st.activeUser(uid)
	if u == nil {
		return
	}
	defer st.freezeClock()() // the change and its record at one time
	if !st.replaying {
		c := st.out.begin() // a change of its own, made first when another is in progress
		defer st.out.publish(c)
	}
	at := st.clock()
	now, connectedAt := chat.TimestampOf(at), at.UnixMilli()
	if ws != nil {
		connectedAt = ws.since
	}
	status := chat.UserOffline
	if online {
		status = chat.UserAvailable
	}
	u.u.Status, u.u.LastActiveAt = status, now
	st.touchUser(u)
	st.keepCall()
	st.record(UserPresence{U: u, Online: online, At: now, Ms: at.UnixMilli(), ConnectedAt: connectedAt})
}

// presenceArgs are a presence change as the journal keeps it.
type presenceArgs struct {
	UID    string `json:"uid"`
	Online bool   `json:"online"`
}

// presenceOp names a presence change in the journal (seedOps).
const presenceOp = "presence"

// replayPresence replays a presence change: nobody is connected to be told.
func (st *state) replayPresence(a presenceArgs) struct{} {
	st.presenceChanged(a.UID, a.Online, nil)
	return struct{}{}
}

// subscribed reports whether c's presence subscription covers u.
func (st *state) subscribed(c *RTConn, u *UserRec) bool {
	switch c.presence {
	case "ALL_USERS":
		return true
	case "ROLES":
		return slices.Contains(c.roles, u.u.Role)
	case "FRIENDS":
		return st.friends[c.uid][u.u.UID] != nil
	}
	return false
}

// jwtClaims are what the fake's jwts say: the app, the user, when issued,
// and a hash of the auth token the login used.
type jwtClaims struct {
	Issuer    string `json:"iss"`
	Audience  string `json:"aud"`
	Subject   string `json:"sub"`
	IssuedAt  int64  `json:"iat"`
	TokenHash string `json:"tok"`
}

// jwtHeader is the header of every jwt the fake signs: HMAC-SHA256.
var jwtHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

// tokenHash identifies an auth token in a jwt without showing it.
func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:16])
}

// signJWT returns a jwt for uid's login with the auth token tok, signed
// with the server's key.
func (st *state) signJWT(uid, tok string, now time.Time) string {
	claims, _ := json.Marshal(jwtClaims{Issuer: "chattest", Audience: st.appID, Subject: uid, IssuedAt: now.Unix(), TokenHash: tokenHash(tok)})
	unsigned := jwtHeader + "." + base64.RawURLEncoding.EncodeToString(claims)
	return unsigned + "." + base64.RawURLEncoding.EncodeToString(st.jwtMAC(unsigned))
}

func (st *state) jwtMAC(unsigned string) []byte {
	mac := hmac.New(sha256.New, st.jwtKey)
	mac.Write([]byte(unsigned))
	return mac.Sum(nil)
}

// verifyJWT returns the user a jwt of this server authenticates, an active
// user who still holds the auth token the jwt was issued for, and the
// hash of that token.
func (st *state) verifyJWT(jwt string) (uid, tokHash string, ok bool) {
	head, rest, _ := strings.Cut(jwt, ".")
	payload, sig, _ := strings.Cut(rest, ".")
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if head != jwtHeader || err != nil || !hmac.Equal(mac, st.jwtMAC(head+"."+payload)) {
		return "", "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var cl jwtClaims
	if err != nil || json.Unmarshal(raw, &cl) != nil || cl.Audience != st.appID {
		return "", "", false
	}
	u := st.activeUser(cl.Subject)
	if u == nil || !slices.ContainsFunc(u.tokens, func(t chat.AuthToken) bool { return tokenHash(string(t.AuthToken)) == cl.TokenHash }) {
		return "", "", false
	}
	return u.u.UID, cl.TokenHash, true
}

// EncodeFrame encodes f, of the app app; nil when its body does not
// encode (a message seeded with a value JSON cannot hold), which is then
// not sent.
func EncodeFrame(app string, f Frame) []byte {
	f.AppID = app
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	return b
}

// Audience returns who sees m live: its two users, or the members of its
// group (and the user an action is about, who may have just left).
func (st *state) Audience(m *MsgRec) []string {
	if m.m.ReceiverType != chat.ReceiverGroup {
		return []string{m.between[0], m.between[1]}
	}
	var uids []string
	if g := st.GroupByID(m.m.Receiver); g != nil {
		uids = st.MemberUIDs(g)
	}
	if m.m.Category == chat.CategoryAction && m.m.Data.Entities != nil && m.m.Data.Entities.On != nil &&
		m.m.Data.Entities.On.EntityType == chat.EntityUser {
		var on chat.User
		if json.Unmarshal(m.m.Data.Entities.On.Entity, &on) == nil {
			uids = append(uids, on.UID)
		}
	}
	return uids
}
