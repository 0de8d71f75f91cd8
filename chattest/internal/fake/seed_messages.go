package fake

import (
	"slices"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// MessageFlag is a user's report of a message: a chattest.MessageFlag,
// which documents its fields.
type MessageFlag struct {
	// UID is the user who flagged the message.
	UID string
	// ReasonID is the moderation reason given.
	ReasonID string
	// Remark is the user's comment, if any.
	Remark string
	// FlaggedAt is when the message was (last) flagged by UID.
	FlaggedAt chat.Timestamp
}

// AddMessage does the work of chattest.Server.AddMessage, which documents it.
func (s *Core) AddMessage(m chat.Message) chat.Message {
	return seeded(s, "AddMessage", m, (*state).seedMessage)
}

// seedMessage is [Server.AddMessage] with st.mu held.
func (st *state) seedMessage(m chat.Message) chat.Message {
	m = clone(m)
	m.Sender = strings.ToLower(m.Sender)
	m.Receiver = strings.ToLower(m.Receiver)
	if m.Sender == "" {
		m.Sender = appSystem
	}
	if m.Category == "" {
		m.Category = chat.CategoryMessage
	}
	if m.Type == "" {
		m.Type = chat.MessageTypeText
	}
	if m.ConversationID == "" {
		m.ConversationID = conversationID(m.Sender, m.ReceiverType, m.Receiver)
	}
	m.Data.Reactions, m.Data.Interactions = nil, nil
	m.ReplyCount, m.LastReply, m.SavedAt = 0, nil, 0
	if m.SentAt == 0 {
		m.SentAt = chat.TimestampOf(st.clock())
	}
	if m.UpdatedAt == 0 {
		m.UpdatedAt = m.SentAt
	}
	var parent *MsgRec
	if p := st.lookupMessage(m.ParentID); p != nil && p.parent == nil {
		parent = p
	}
	m.ParentID = ""
	rec := st.addRec(m, parent)
	if rec.m.PinnedAt != 0 {
		st.pinned[rec.m.ConversationID]++
		touch(st, &st.pinned, rec.m.ConversationID)
	}
	return clone(rec.view("", true))
}

// ThreadSubscribers does the work of chattest.Server.ThreadSubscribers, which documents it.
func (s *Core) ThreadSubscribers(id string) []string {
	out, _ := readMessage(s, id, func(m *MsgRec) []string {
		out := make([]string, 0, len(m.subscribers))
		for uid := range m.subscribers {
			out = append(out, uid)
		}
		sort.Strings(out)
		return out
	})
	return out
}

// MessageFlags does the work of chattest.Server.MessageFlags, which documents it.
func (s *Core) MessageFlags(id string) []MessageFlag {
	flags, _ := readMessage(s, id, func(m *MsgRec) []MessageFlag { return slices.Clone(m.flags) })
	return flags
}

// MessageAs does the work of chattest.Server.MessageAs, which documents it.
func (s *Core) MessageAs(id, uid string) (chat.Message, bool) {
	uid = strings.ToLower(uid)
	return readMessage(s, id, func(m *MsgRec) chat.Message { return cloneFor(uid, m.view(uid, true)) })
}

// readMessage returns what read makes of the stored message id, with the
// state locked; ok is false, and v the zero value, when there is none.
func readMessage[T any](s *Core, id string, read func(m *MsgRec) T) (v T, ok bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.lookupMessage(id)
	if m == nil {
		return v, false
	}
	return read(m), true
}
