// Package realtime pushes the fake's events to the client API's
// websockets: a consumer of the core's outbox.
package realtime

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/fake"
)

// Pushes is the websocket's consumer of the fake's outbox: it renders
// each event as the frames the client API pushes, and who gets each, as
// the event is recorded, and once the event's change is published it
// queues them for the connections (the core writes them, once the change
// is kept). It reads the state only through the reader it subscribes
// with, and keeps what it rendered under its own lock.
type Pushes struct {
	core fake.Reader

	mu      sync.Mutex
	pending []push // rendered, waiting for their change to be published
}

// Subscriber returns the consumer of the outbox of the state core reads.
func Subscriber(core fake.Reader) fake.Subscriber { return &Pushes{core: core} }

// push is a websocket frame of an event of the change c and who gets it:
// every connection of the users to, or the connections conns.
type push struct {
	c     *fake.Commit
	to    []string
	conns []*fake.RTConn
	frame []byte
}

// Recorded renders ev as the frames it pushes, when anyone is connected.
func (p *Pushes) Recorded(c *fake.Commit, ev fake.Event) {
	r := p.core
	if !r.Connected() {
		return
	}
	switch ev := ev.(type) {
	case fake.MessageSent:
		p.pushMessage(c, ev.M, ev.Device)
	case fake.MessageActed:
		p.pushMessage(c, ev.M, ev.Device)
	case fake.GroupActionSent:
		p.pushMessage(c, ev.M, "") // sent by app_system, from no client
	case fake.ReceiptMarked:
		if ev.Action == fake.ReceiptRead || ev.Action == fake.ReceiptDelivered {
			p.pushReceipt(c, fake.ReceiptOf(r, ev), ev.Device)
		}
	case fake.UserTyping:
		body := struct {
			Action   string          `json:"action"`
			User     chat.User       `json:"user"`
			Metadata json.RawMessage `json:"metadata,omitempty"`
		}{ev.Action, r.UserEntity(ev.UID), ev.Metadata}
		p.add(push{c: c, to: ev.To, frame: fake.EncodeFrame(r.App(), fake.Frame{Type: "typing_indicator", Receiver: ev.Receiver,
			ReceiverType: ev.ReceiverType, Sender: ev.UID, DeviceID: ev.Device, Body: body})})
	case fake.UserPresence:
		action := "offline"
		if ev.Online {
			action = "online"
		}
		to := r.PresenceWatchers(ev.U)
		if len(to) == 0 {
			return
		}
		u := r.UserView(ev.U)
		p.add(push{c: c, conns: to, frame: fake.EncodeFrame(r.App(), fake.Frame{Type: "presence", Sender: u.UID, Body: struct {
			Action    string         `json:"action"`
			Timestamp chat.Timestamp `json:"timestamp"`
			User      chat.User      `json:"user"`
		}{action, ev.At, u}})})
	}
}

// add keeps x until its change is published. A frame that did not
// encode, or that nobody gets, is dropped.
func (p *Pushes) add(x push) {
	if x.frame == nil || len(x.to) == 0 && len(x.conns) == 0 {
		return
	}
	p.mu.Lock()
	p.pending = append(p.pending, x)
	p.mu.Unlock()
}

// Published queues each frame c's events push for the connections it goes
// to, to be written once c's change is kept.
func (p *Pushes) Published(c *fake.Commit) {
	p.mu.Lock()
	// The commits begun after c are published: c's frames end the list.
	i := len(p.pending)
	for i > 0 && p.pending[i-1].c == c {
		i--
	}
	if i == len(p.pending) {
		p.mu.Unlock()
		return
	}
	out := slices.Clone(p.pending[i:])
	clear(p.pending[i:])
	p.pending = p.pending[:i]
	p.mu.Unlock()
	// Unlocked: a connection too slow to take a frame is dropped, which
	// may record its user going offline.
	for _, x := range out {
		p.core.PushTo(x.to, x.conns, x.frame, c.Durable)
	}
}

// pushMessage pushes m to the users who see it, as a "message" frame
// whose deviceId is device: the resource header of the request that sent
// it, so that the sending client recognizes its own. A message held for
// moderation is not pushed.
func (p *Pushes) pushMessage(c *fake.Commit, m *fake.MsgRec, device string) {
	r := p.core
	v := r.MessageView(m)
	if v.Data.Moderation != nil && v.Data.Moderation.Status == fake.ModPending {
		return
	}
	p.add(push{c: c, to: r.Audience(m), frame: fake.EncodeFrame(r.App(), fake.Frame{Type: "message", Receiver: v.Receiver,
		ReceiverType: v.ReceiverType, Sender: v.Sender, DeviceID: device, Body: v})})
}

// pushReceipt pushes a "receipts" frame for the receipt rp: to the sender
// of the message in a one-on-one conversation, to the group's members in
// a group, but the user who marked it.
func (p *Pushes) pushReceipt(c *fake.Commit, rp fake.ReceiptPayload, device string) {
	r := p.core
	to := []string{rp.MessageSender}
	if rp.ReceiverType == chat.ReceiverGroup {
		if g := r.GroupByID(rp.Receiver); g != nil {
			to = r.MemberUIDs(g)
		}
	}
	to = slices.DeleteFunc(to, func(uid string) bool { return uid == rp.Sender })
	p.add(push{c: c, to: to, frame: fake.EncodeFrame(r.App(), fake.Frame{Type: rp.Type, Receiver: rp.Receiver, ReceiverType: rp.ReceiverType,
		Sender: rp.Sender, MessageSender: rp.MessageSender, DeviceID: device, Body: rp.Body})})
}
