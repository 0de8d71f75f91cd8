package fake

import (
	"slices"
	"strconv"

	"github.com/chatrest/chat"
)

// The receipt actions (internal/webhooks names the trigger each fires).
const (
	ReceiptDelivered = "delivered"
	ReceiptRead      = "read"
)

// ReceiptPayload is the data of message_delivery_receipt and
// message_read_receipt.
type ReceiptPayload struct {
	Receiver      string            `json:"receiver"`
	ReceiverType  chat.ReceiverType `json:"receiverType"`
	Type          string            `json:"type"`
	Sender        string            `json:"sender"`
	MessageSender string            `json:"messageSender"`
	Body          receiptBody       `json:"body"`
}

type receiptBody struct {
	Action    string         `json:"action"`
	MessageID string         `json:"messageId"`
	User      receiptUser    `json:"user"`
	Timestamp chat.Timestamp `json:"timestamp"`
}

// receiptUser is who received or read the message, as the service sends
// it: with hasBlockedMe when they blocked the message's sender and
// deactivatedAt when they were deactivated (never: a user who marks a
// message is active), each left out otherwise, as in the service's
// deliveries of receipts.
type receiptUser struct {
	UID           string          `json:"uid"`
	Name          string          `json:"name"`
	Status        chat.UserStatus `json:"status"`
	HasBlockedMe  bool            `json:"hasBlockedMe,omitempty"`
	DeactivatedAt chat.Timestamp  `json:"deactivatedAt,omitempty"`
}

// recordReceipt records the acting user's mark of the conversation t up to
// the message id (action read or delivered): one receipt, for the message
// the mark names, whose receiver is the message's sender in a one-on-one
// conversation and the group in a group conversation. A mark that covers
// several messages records one receipt, for the message marked (see
// CHOICES.md). before is the acting user's marks before this one: when
// this mark makes the message received, or read, by every recipient, a
// receipt deliveredToAll or readByAll follows (see recordToAll). It runs
// with st.mu held.
func (st *state) recordReceipt(c *call, t convTarget, action string, id int64, before convUser) {
	m := st.msgByID[id]
	if m == nil {
		return
	}
	st.record(st.ReceiptOf(c, t, m, action))
	st.recordToAll(c, t, m, before)
}

// receiptOf is the receipt of action by the acting user of t for the
// message m.
func (st *state) ReceiptOf(c *call, t convTarget, m *MsgRec, action string) ReceiptMarked {
	return ReceiptMarked{Action: action, M: m, By: t.owner, Group: t.typ == chat.ConversationGroup, At: c.timestamp(), Device: c.device()}
}

// The triggers that fire when every recipient of a message has received
// or read it, and their receipts' actions.
const (
	TriggerDeliveredToAll = "message_delivered_to_all"
	TriggerReadByAll      = "message_read_by_all"
	ReceiptDeliveredToAll = "deliveredToAll"
	ReceiptReadByAll      = "readByAll"
)

// recordToAll records the receipt deliveredToAll, then readByAll, when
// the acting user's mark of t (their marks were before) is the one that
// makes the message m received, or read, by every recipient: the other
// user of a one-on-one conversation; in a group, the active members other
// than the sender who had joined when it was sent. The receipt is the
// recipient's who completed it. A mark by the message's sender, or one a
// recipient had already made, records nothing.
func (st *state) recordToAll(c *call, t convTarget, m *MsgRec, before convUser) {
	if t.owner == m.m.Sender {
		return
	}
	deliver := before.deliveredUpTo < m.id
	read := before.readUpTo < m.id
	if !deliver && !read {
		return
	}
	recipients := st.recipients(t, m)
	if !slices.Contains(recipients, t.owner) {
		return
	}
	all := func(upTo func(*convUser) int64) bool {
		for _, uid := range recipients {
			cu := st.convMarks[convKey{uid, t.id}]
			if cu == nil || upTo(cu) < m.id {
				return false
			}
		}
		return true
	}
	if deliver && all(func(cu *convUser) int64 { return cu.deliveredUpTo }) {
		st.record(st.ReceiptOf(c, t, m, ReceiptDeliveredToAll))
	}
	if read && all(func(cu *convUser) int64 { return cu.readUpTo }) {
		st.record(st.ReceiptOf(c, t, m, ReceiptReadByAll))
	}
}

// recipients are the users the message m of the conversation t is for:
// the users of a one-on-one conversation other than its sender, or the
// active members of the group, other than its sender, who had joined when
// it was sent.
func (st *state) recipients(t convTarget, m *MsgRec) []string {
	var out []string
	if t.typ != chat.ConversationGroup {
		for _, uid := range m.between {
			if uid != "" && uid != m.m.Sender && !slices.Contains(out, uid) {
				out = append(out, uid)
			}
		}
		return out
	}
	g := st.groups[m.m.Receiver]
	if g == nil {
		return nil
	}
	for mem := range st.activeMembers(g) {
		if mem.uid != m.m.Sender && mem.joinedAt <= m.m.SentAt {
			out = append(out, mem.uid)
		}
	}
	return out
}

// ReceiptOf is the receipt ev, as its trigger's payload and its
// websocket frame carry it.
func ReceiptOf(r Reader, ev ReceiptMarked) ReceiptPayload {
	m := ev.M
	receiver, rt := m.m.Sender, chat.ReceiverUser
	if ev.Group {
		receiver, rt = m.m.Receiver, chat.ReceiverGroup
	}
	reader := receiptUser{UID: ev.By}
	reader.Name, reader.Status, reader.HasBlockedMe = r.UserFacts(ev.By, m.m.Sender)
	return ReceiptPayload{
		Receiver: receiver, ReceiverType: rt, Type: "receipts", Sender: ev.By, MessageSender: m.m.Sender,
		Body: receiptBody{Action: ev.Action, MessageID: strconv.FormatInt(m.id, 10), User: reader, Timestamp: ev.At},
	}
}
