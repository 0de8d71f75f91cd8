package chattest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatrest/chat"
)

// maxMessageChars bounds a message's JSON, metadata included.
const maxMessageChars = 65536

// appSystem is the sender of messages sent without onBehalfOf.
const appSystem = "app_system"

// msgRec is a stored message. A thread parent keeps its replies, oldest
// first, and m.ReplyCount and m.LastReply follow them.
type msgRec struct {
	id      int64
	m       chat.Message
	parent  *msgRec
	replies []*msgRec
}

func messageRoutes() []route {
	return []route{
		{pattern: "POST /v3/messages", obo: oboOptional, handle: (*state).sendMessage},
		{pattern: "GET /v3/messages/{id}", obo: oboOptional, handle: (*state).getMessage},
		{pattern: "POST /v3/messages/{id}/thread", obo: oboRequired, handle: (*state).sendThreadMessage},
		{pattern: "GET /v3/messages/{id}/thread", obo: oboOptional, handle: (*state).listThread},
	}
}

// message returns the stored message id, or ERR_MSG_NOT_FOUND.
func (st *state) message(id string) (*msgRec, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if m := st.msgByID[n]; err == nil && m != nil {
		return m, nil
	}
	return nil, errMsgNotFound(id)
}

// sendBody is the body of send-message and send-thread-message.
// multipleReceivers is accepted but not acted on in this version.
type sendBody struct {
	Receiver          string                  `json:"receiver"`
	ReceiverType      chat.ReceiverType       `json:"receiverType"`
	Category          chat.Category           `json:"category"`
	Type              chat.MessageType        `json:"type"`
	Data              chat.MessageData        `json:"data"`
	MUID              string                  `json:"muid"`
	QuotedMessageID   string                  `json:"quotedMessageId"`
	MultipleReceivers *chat.MultipleReceivers `json:"multipleReceivers"`
	Tags              []string                `json:"tags"`
}

// messageTypes are the types each category accepts; nil accepts any.
var messageTypes = map[chat.Category][]chat.MessageType{
	chat.CategoryMessage:     {chat.MessageTypeText, chat.MessageTypeImage, chat.MessageTypeFile, chat.MessageTypeAudio, chat.MessageTypeVideo},
	chat.CategoryCustom:      nil,
	chat.CategoryInteractive: {chat.MessageTypeCard, chat.MessageTypeForm, chat.MessageTypeCustomInteractive, chat.MessageTypeScheduler},
}

// storeMessage validates the body and stores a message from c.onBehalfOf
// (or the app) as a reply to parent, or on its own when parent is nil.
func (st *state) storeMessage(c *call, parent *msgRec) (*msgRec, error) {
	if utf8.RuneCount(c.body) > maxMessageChars {
		return nil, validationError(map[string][]string{"message": {"The message may not be greater than 65536 characters."}})
	}
	var b sendBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.Receiver == "" {
		return nil, errEmptyReceiver()
	}
	if b.ReceiverType != chat.ReceiverUser && b.ReceiverType != chat.ReceiverGroup {
		return nil, errInvalidReceiverType()
	}
	if b.Category == "" {
		b.Category = chat.CategoryMessage
	}
	types, ok := messageTypes[b.Category]
	if !ok {
		return nil, errInvalidCategory()
	}
	switch {
	case b.Type == "" && b.Category == chat.CategoryInteractive:
		b.Type = chat.MessageTypeCard
	case b.Type == "":
		b.Type = chat.MessageTypeText
	case types != nil && !slices.Contains(types, b.Type):
		return nil, errInvalidType(string(b.Category))
	}
	var v validator
	checkTags(&v, "tags", b.Tags)
	if err := v.err(); err != nil {
		return nil, err
	}

	sender := chat.User{UID: appSystem, Name: "System", Role: "default", Status: chat.UserOffline}
	if c.onBehalfOf != "" {
		sender = st.users[c.onBehalfOf].view(false)
	}
	receiver := strings.ToLower(b.Receiver)
	var conversationID string
	var receiverEntity *chat.Entity
	if b.ReceiverType == chat.ReceiverUser {
		u := st.activeUser(receiver)
		if u == nil {
			return nil, errUIDNotFound(receiver)
		}
		a, z := sender.UID, receiver
		if a > z {
			a, z = z, a
		}
		conversationID = a + "_user_" + z
		ru := u.view(false)
		ru.ConversationID = conversationID
		receiverEntity = entity(chat.EntityUser, ru)
	} else {
		// Groups are not stored in this version: any guid is accepted.
		conversationID = "group_" + receiver
		receiverEntity = entity(chat.EntityGroup, chat.Group{GUID: receiver, ConversationID: conversationID})
	}
	var quoted *chat.Message
	if b.QuotedMessageID != "" {
		q, err := st.message(b.QuotedMessageID)
		if err != nil {
			return nil, err
		}
		qm := q.m
		quoted = &qm
	}

	st.lastMsgID++
	now := c.timestamp()
	b.Data.Entities = &chat.Entities{Sender: entity(chat.EntityUser, sender), Receiver: receiverEntity}
	rec := &msgRec{id: st.lastMsgID, parent: parent, m: chat.Message{
		ID:             strconv.FormatInt(st.lastMsgID, 10),
		MUID:           b.MUID,
		ConversationID: conversationID,
		Sender:         sender.UID,
		ReceiverType:   b.ReceiverType,
		Receiver:       receiver,
		Category:       b.Category,
		Type:           b.Type,
		Data:           b.Data,
		SentAt:         now,
		UpdatedAt:      now,
		Tags:           b.Tags,
		QuotedMessage:  quoted,
	}}
	if parent != nil {
		rec.m.ParentID = parent.m.ID
		parent.replies = append(parent.replies, rec)
		parent.refreshThread()
	}
	st.messages = append(st.messages, rec)
	st.msgByID[rec.id] = rec
	return rec, nil
}

// entity is {"entity": v, "entityType": t}. v is a user or group built by the
// fake, which always encodes.
func entity(t chat.EntityType, v any) *chat.Entity {
	b, _ := json.Marshal(v)
	return &chat.Entity{Entity: b, EntityType: t}
}

// refreshThread sets ReplyCount and LastReply from the replies.
func (m *msgRec) refreshThread() {
	m.m.ReplyCount = len(m.replies)
	m.m.LastReply = nil
	if n := len(m.replies); n > 0 {
		last := m.replies[n-1].m
		m.m.LastReply = &last
	}
}

// removeMessagesOf removes the messages uid sent or received, and the
// replies in their threads (a user's permanent deletion).
func (st *state) removeMessagesOf(uid string) {
	gone := func(m *msgRec) bool {
		return m.m.Sender == uid || m.m.ReceiverType == chat.ReceiverUser && m.m.Receiver == uid ||
			m.parent != nil && st.msgByID[m.parent.id] == nil
	}
	kept := st.messages[:0]
	for _, m := range st.messages { // parents come before their replies
		if gone(m) {
			delete(st.msgByID, m.id)
			continue
		}
		kept = append(kept, m)
	}
	clear(st.messages[len(kept):])
	st.messages = kept
	for _, m := range st.messages {
		if n := len(m.replies); n > 0 {
			m.replies = slices.DeleteFunc(m.replies, func(r *msgRec) bool { return st.msgByID[r.id] == nil })
			if len(m.replies) != n {
				m.refreshThread()
			}
		}
	}
}

// POST /v3/messages
//
// The sender is the onBehalfOf user, or "app_system" without the header.
func (st *state) sendMessage(c *call) (any, error) {
	m, err := st.storeMessage(c, nil)
	if err != nil {
		return nil, err
	}
	return data(m.m), nil
}

// GET /v3/messages/{id}
func (st *state) getMessage(c *call) (any, error) {
	m, err := st.message(c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return data(m.m), nil
}

// POST /v3/messages/{id}/thread (onBehalfOf required)
func (st *state) sendThreadMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	parent, err := st.message(id)
	if err != nil {
		return nil, err
	}
	if parent.parent != nil {
		return nil, errThreadNesting(id)
	}
	m, err := st.storeMessage(c, parent)
	if err != nil {
		return nil, err
	}
	return data(m.m), nil
}

// GET /v3/messages/{id}/thread
//
// Cursor-paginated as reference §1.8 describes; see cursorPage.
func (st *state) listThread(c *call) (any, error) {
	parent, err := st.message(c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	p := c.params()
	q := cursorParams(p)
	if err := p.err(); err != nil {
		return nil, err
	}
	page, next := cursorPage(parent.replies, func(m *msgRec) (int64, int64) { return m.id, int64(m.m.SentAt) }, q)
	out := make([]chat.Message, len(page))
	for i, m := range page {
		out[i] = m.m
	}
	return chat.Page[chat.Message]{Data: out, Meta: chat.Meta{
		Current: &chat.Current{Limit: q.limit, Count: len(out)},
		Next:    next,
	}}, nil
}

// Messages returns every stored message, thread replies included, in id
// order. The copies share nothing with the server.
func (s *Server) Messages() []chat.Message {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]chat.Message, len(st.messages))
	for i, m := range st.messages {
		out[i] = m.m
	}
	return clone(out)
}

// Message returns the stored message id (a decimal string such as "1").
func (s *Server) Message(id string) (chat.Message, bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	m, err := st.message(id)
	if err != nil {
		return chat.Message{}, false
	}
	return clone(m.m), true
}
