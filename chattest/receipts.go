package chattest

import (
	"strconv"

	"github.com/chatrest/chat"
)

// The receipt actions, and the trigger each fires.
const (
	receiptDelivered = "delivered"
	receiptRead      = "read"
)

var receiptTriggers = map[string]string{
	receiptDelivered: "message_delivery_receipt",
	receiptRead:      "message_read_receipt",
}

// receiptPayload is the data of message_delivery_receipt and
// message_read_receipt.
type receiptPayload struct {
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

type receiptUser struct {
	UID    string          `json:"uid"`
	Name   string          `json:"name"`
	Status chat.UserStatus `json:"status"`
}

// emitReceipt fires the trigger of action for the acting user's mark of
// the conversation t up to the message id: one event for the message the
// mark names, whose receiver is the message's sender in a one-on-one
// conversation and the group in a group conversation. A mark that covers
// several messages fires one receipt, for the message marked (see
// CHOICES.md). The
// receipt is pushed live too (realtime.go). It runs with st.mu held.
func (st *state) emitReceipt(c *call, t convTarget, action string, id int64) {
	trigger := receiptTriggers[action]
	m := st.msgByID[id]
	if m == nil || !st.hooked(trigger) && len(st.rtByUID) == 0 {
		return
	}
	receiver, rt := m.m.Sender, chat.ReceiverUser
	if t.typ == chat.ConversationGroup {
		receiver, rt = m.m.Receiver, chat.ReceiverGroup
	}
	reader := receiptUser{UID: t.owner}
	if u := st.users[t.owner]; u != nil {
		reader.Name, reader.Status = u.u.Name, u.u.Status
	}
	p := receiptPayload{
		Receiver: receiver, ReceiverType: rt, Type: "receipts", Sender: t.owner, MessageSender: m.m.Sender,
		Body: receiptBody{Action: action, MessageID: strconv.FormatInt(id, 10), User: reader, Timestamp: c.timestamp()},
	}
	st.emit(trigger, p)
	st.pushReceipt(p, c.device())
}
