package fake

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/chatrest/chat"
)

// realtimeEvents is the websocket's consumer of the outbox (outbox.go): it
// renders each event as the frames the client API pushes, and who gets
// each, as the event is recorded, and once the event's change is
// published it queues them for the connections (realtime.go writes them,
// once the change is kept). It reads the state only through core, and
// keeps what it rendered under its own lock.
type realtimeEvents struct {
	core Reader

	mu      sync.Mutex
	pending []push // rendered, waiting for their change to be published
}

// push is a websocket frame of an event of the change c and who gets it:
// every connection of the users to, or the connections conns.
type push struct {
	c     *Commit
	to    []string
	conns []*RTConn
	frame []byte
}

// Recorded renders ev as the frames it pushes, when anyone is connected.
func (p *realtimeEvents) Recorded(c *Commit, ev Event) {
	r := p.core
	if !r.Connected() {
		return
	}
	switch ev := ev.(type) {
	case MessageSent:
		p.pushMessage(c, ev.M, ev.Device)
	case MessageActed:
		p.pushMessage(c, ev.M, ev.Device)
	case GroupActionSent:
		p.pushMessage(c, ev.M, "") // sent by app_system, from no client
	case ReceiptMarked:
		if ev.Action == ReceiptRead || ev.Action == ReceiptDelivered {
			p.pushReceipt(c, ReceiptOf(r, ev), ev.Device)
		}
	case UserTyping:
		body := struct {
			Action   string          `json:"action"`
			User     chat.User       `json:"user"`
			Metadata json.RawMessage `json:"metadata,omitempty"`
		}{ev.Action, r.UserEntity(ev.UID), ev.Metadata}
		p.add(push{c: c, to: ev.To, frame: encodeFrame(r.App(), frame{Type: "typing_indicator", Receiver: ev.Receiver,
			ReceiverType: ev.ReceiverType, Sender: ev.UID, DeviceID: ev.Device, Body: body})})
	case UserPresence:
		action := "offline"
		if ev.Online {
			action = "online"
		}
		to := r.PresenceWatchers(ev.U)
		if len(to) == 0 {
			return
		}
		p.add(push{c: c, conns: to, frame: encodeFrame(r.App(), frame{Type: "presence", Sender: ev.U.u.UID, Body: struct {
			Action    string         `json:"action"`
			Timestamp chat.Timestamp `json:"timestamp"`
			User      chat.User      `json:"user"`
		}{action, ev.At, ev.U.view(false)}})})
	}
}

// add keeps x until its change is published. A frame that did not
// encode, or that nobody gets, is dropped.
func (p *realtimeEvents) add(x push) {
	if x.frame == nil || len(x.to) == 0 && len(x.conns) == 0 {
		return
	}
	p.mu.Lock()
	p.pending = append(p.pending, x)
	p.mu.Unlock()
}

// Published queues each frame c's events push for the connections it goes
// to, to be written once c's change is kept.
func (p *realtimeEvents) Published(c *Commit) {
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
func (p *realtimeEvents) pushMessage(c *Commit, m *MsgRec, device string) {
	if m.m.Data.Moderation != nil && m.m.Data.Moderation.Status == modPending {
		return
	}
	r := p.core
	p.add(push{c: c, to: audience(r, m), frame: encodeFrame(r.App(), frame{Type: "message", Receiver: m.m.Receiver,
		ReceiverType: m.m.ReceiverType, Sender: m.m.Sender, DeviceID: device, Body: r.MessageView(m)})})
}

// audience returns who sees m live: its two users, or the members of its
// group (and the user an action is about, who may have just left).
func audience(r Reader, m *MsgRec) []string {
	if m.m.ReceiverType != chat.ReceiverGroup {
		return []string{m.between[0], m.between[1]}
	}
	var uids []string
	if g := r.GroupByID(m.m.Receiver); g != nil {
		uids = r.MemberUIDs(g)
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

// pushReceipt pushes a "receipts" frame for the receipt rp: to the sender
// of the message in a one-on-one conversation, to the group's members in
// a group, but the user who marked it.
func (p *realtimeEvents) pushReceipt(c *Commit, rp ReceiptPayload, device string) {
	r := p.core
	to := []string{rp.MessageSender}
	if rp.ReceiverType == chat.ReceiverGroup {
		if g := r.GroupByID(rp.Receiver); g != nil {
			to = r.MemberUIDs(g)
		}
	}
	to = slices.DeleteFunc(to, func(uid string) bool { return uid == rp.Sender })
	p.add(push{c: c, to: to, frame: encodeFrame(r.App(), frame{Type: rp.Type, Receiver: rp.Receiver, ReceiverType: rp.ReceiverType,
		Sender: rp.Sender, MessageSender: rp.MessageSender, DeviceID: device, Body: rp.Body})})
}

// encodeFrame encodes f, of the app app; nil when its body does not
// encode (a message seeded with a value JSON cannot hold), which is then
// not sent.
func encodeFrame(app string, f frame) []byte {
	f.AppID = app
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	return b
}
