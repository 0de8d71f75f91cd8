package fake

import "github.com/chatrest/chat"

// messagesIndex keeps the stored messages by the lists that show them,
// each in id order, beside st.messages (all of them): a list walks only
// its own messages. addRec adds to it, and removeRecs rebuilds it.
type messagesIndex struct {
	groupMsgs map[string][]*MsgRec    // every message to a group, by guid
	pairMsgs  map[[2]string][]*MsgRec // one-on-one messages, by their two users in order
	userMsgs  map[string][]*MsgRec    // one-on-one messages, by each of their users
}

func (x *messagesIndex) init() {
	x.groupMsgs = map[string][]*MsgRec{}
	x.pairMsgs = map[[2]string][]*MsgRec{}
	x.userMsgs = map[string][]*MsgRec{}
}

// pairKey names the one-on-one messages between a and b.
func pairKey(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// indexMessage adds m, the newest message, to the lists it shows in.
func (x *messagesIndex) indexMessage(m *MsgRec) {
	if m.m.ReceiverType == chat.ReceiverGroup {
		x.groupMsgs[m.m.Receiver] = append(x.groupMsgs[m.m.Receiver], m)
		return
	}
	if m.m.ReceiverType != chat.ReceiverUser {
		return
	}
	a, b := m.between[0], m.between[1]
	k := pairKey(a, b)
	x.pairMsgs[k] = append(x.pairMsgs[k], m)
	x.userMsgs[a] = append(x.userMsgs[a], m)
	if b != a {
		x.userMsgs[b] = append(x.userMsgs[b], m)
	}
}

// reindexMessages rebuilds the index from the stored messages.
func (st *state) reindexMessages() {
	st.messagesIndex.init()
	for _, m := range st.messages {
		st.indexMessage(m)
	}
}

// none reports whether f sets no filter: every message passes.
func (f *msgFilter) none() bool {
	return f.searchKey == "" && !f.hideBlocked && !f.hasAttachments && f.attachmentType == "" && !f.hasMentions &&
		!f.hasLinks && len(f.mentioned) == 0 && !f.myMentionsOnly && !f.hasReactions && f.receiverType == "" &&
		len(f.categories) == 0 && len(f.types) == 0 && len(f.senders) == 0 && f.conversationID == "" &&
		!f.hideDeleted && !f.onlyDeleted && !f.hideReplies && len(f.tags) == 0 && !f.hasFrom && !f.hasTo && len(f.ranges) == 0
}
