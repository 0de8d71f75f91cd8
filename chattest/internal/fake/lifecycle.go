package fake

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/chatrest/chat"
)

// The lifecycle of the service's entities. A permanent delete of a user, a
// group or a message removes everything that hangs on it, so that nothing
// the state holds (and so no answer, list, search, frame or export of it)
// still carries it, and an id created again starts with nothing. Each kind
// has one function here that every permanent delete goes through.
//
//   - A user (DELETE /v3/users/{uid} with permanent): their auth tokens,
//     the messages they sent or received one-on-one (with the threads under
//     them), what they left on others' messages (reactions, saves,
//     interactions, thread subscriptions, flags), their memberships and
//     bans, their ownership of groups (which passes to the group's heir),
//     their blocks and friendships both ways, their conversations'
//     marks, pins and tags, the conversations opened with them, the app's
//     pins of their conversation, their notification preferences and push
//     tokens; the user objects that action messages keep of them (by, on,
//     for) keep their uid only.
//   - A group (DELETE /v3/groups/{guid}): its members and bans, its
//     messages (action messages and threads included) and what hangs on
//     them, its conversation's marks, pins and tags, the app's pin of it,
//     its scopes' permissions and the mutes of it.
//   - A message (DELETE /v3/messages/{id} with permanent): the message and
//     its thread, what hangs on them (reactions, receipts, pins, saves,
//     interactions, subscriptions, flags, their moderation reviews and
//     notification log entries), and the copies of its content
//     elsewhere: the quotes of it, and the message that the "edited" and
//     "deleted" action messages about it show (entities.on keeps its ids,
//     sender, receiver and times, not its data). A conversation's
//     lastMessage and the search follow from the messages.
//
// A soft delete keeps what the service keeps: a soft-deleted user is
// deactivated, with everything still theirs when reactivated; a
// soft-deleted message stays, with deletedAt set.

// removeUser removes u for good and everything that hangs on them.
func (st *state) removeUser(u *UserRec) {
	uid := u.u.UID
	for _, g := range st.memberOf[uid] {
		st.leave(g, uid)
	}
	for _, g := range st.groups {
		if _, ok := g.banned[uid]; ok || g.g.Owner == uid {
			st.touchGroup(g)
		}
		delete(g.banned, uid)
		if g.g.Owner == uid {
			g.g.Owner = heir(g)
		}
	}
	st.dropUser(u) // and their auth tokens with them
	st.removeMessagesOf(uid)
	delete(st.blocks, uid)
	touch(st, &st.blocks, uid)
	for blocker, blocked := range st.blocks {
		if _, ok := blocked[uid]; ok {
			touch(st, &st.blocks, blocker)
		}
		delete(blocked, uid)
		if len(blocked) == 0 {
			delete(st.blocks, blocker)
			touch(st, &st.blocks, blocker)
		}
	}
	for friend := range st.friends[uid] {
		if fs := st.friends[friend]; fs != nil {
			delete(fs, uid)
			touch(st, &st.friends, friend)
			if len(fs) == 0 {
				delete(st.friends, friend)
				touch(st, &st.friends, friend)
			}
		}
	}
	delete(st.friends, uid)
	touch(st, &st.friends, uid)
	peerConv := func(id string) bool { return id == UserConversationID(uid, peerOf(id, uid)) }
	for k := range st.convMarks {
		if k.owner == uid || peerConv(k.id) {
			delete(st.convMarks, k)
			touch(st, &st.convMarks, k)
		}
	}
	for id, o := range st.opened {
		if o.a == uid || o.b == uid {
			delete(st.opened, id)
			touch(st, &st.opened, id)
		}
	}
	st.appPins = slices.DeleteFunc(st.appPins, func(p appPin) bool { return p.ref.UID == uid })
	touchField(st, &st.appPins)
	st.forgetNotifications(uid, func(mc chat.MutedConversation) bool {
		return mc.Type == chat.MutedConversationType(chat.ReceiverUser) && mc.ID == uid
	})
	st.scrubUserEntities(uid)
	st.reindexConversations()
	st.forgetRemovedMessages()
}

// heir is who owns g once its owner is deleted for good: the admin of g
// who has been a member the longest, else the app (app_system), as a group
// created without an owner.
func heir(g *GroupRec) string {
	for _, m := range g.order {
		if m.scope == chat.MemberAdmin {
			return m.uid
		}
	}
	return appSystem
}

// peerOf returns the other user of the one-on-one conversation id, when
// uid is one of its users; "" otherwise.
func peerOf(id, uid string) string {
	if a, b, ok := cutConversationID(id); ok {
		switch uid {
		case a:
			return b
		case b:
			return a
		}
	}
	return ""
}

// cutConversationID returns the two users of the one-on-one conversation
// id ("{a}_user_{b}").
func cutConversationID(id string) (a, b string, ok bool) {
	for i := 0; i+6 <= len(id); i++ {
		if id[i:i+6] == "_user_" {
			return id[:i], id[i+6:], i > 0 && i+6 < len(id)
		}
	}
	return "", "", false
}

// forgetNotifications removes uid's notification preferences and push
// tokens, and every user's mutes that muted reports.
func (st *state) forgetNotifications(uid string, muted func(chat.MutedConversation) bool) {
	n := st.notif
	if uid != "" {
		delete(n.users, uid)
		touch(st, &n.users, uid)
		n.tokens = slices.DeleteFunc(n.tokens, func(t chat.PushToken) bool { return t.UID == uid })
		touchField(st, &n.tokens)
	}
	for _, u := range n.users {
		u.mutes = slices.DeleteFunc(u.mutes, muted)
	}
}

// scrubUserEntities leaves only the uid of the user objects of uid that
// the stored messages keep in their entities (who acted, who was acted
// on, whom an action was for).
func (st *state) scrubUserEntities(uid string) {
	gone, _ := json.Marshal(chat.User{UID: uid}) // a uid always encodes
	scrub := func(e *chat.Entity) {
		if e == nil || e.EntityType != chat.EntityUser {
			return
		}
		var u struct {
			UID string `json:"uid"`
		}
		if json.Unmarshal(e.Entity, &u) == nil && u.UID == uid {
			e.Entity = gone
		}
	}
	for _, m := range st.messages {
		if es := m.m.Data.Entities; es != nil {
			scrub(es.Sender)
			scrub(es.Receiver)
			scrub(es.By)
			scrub(es.On)
			scrub(es.For)
		}
	}
	for _, m := range st.messages {
		if len(m.replies) > 0 {
			m.refreshThread() // the copy of the last reply
		}
	}
}

// removeGroup removes g for good and everything that hangs on it.
func (st *state) removeGroup(g *GroupRec) {
	guid := g.g.GUID
	st.dropGroup(g)
	st.removeRecs(func(m *MsgRec) bool { return m.m.ReceiverType == chat.ReceiverGroup && m.m.Receiver == guid })
	id := "group_" + guid
	for k := range st.convMarks {
		if k.id == id {
			delete(st.convMarks, k)
			touch(st, &st.convMarks, k)
		}
	}
	for owner, ids := range st.hiddenOf {
		if ids[id] {
			touch(st, &st.hiddenOf, owner)
		}
		delete(ids, id)
		if len(ids) == 0 {
			delete(st.hiddenOf, owner)
			touch(st, &st.hiddenOf, owner)
		}
	}
	st.appPins = slices.DeleteFunc(st.appPins, func(p appPin) bool { return p.ref.GUID == guid })
	touchField(st, &st.appPins)
	for k := range st.scopePerms {
		if k.guid == guid {
			delete(st.scopePerms, k)
			touchField(st, &st.scopePerms)
		}
	}
	st.forgetNotifications("", func(mc chat.MutedConversation) bool {
		return mc.Type == chat.MutedConversationType(chat.ReceiverGroup) && mc.ID == guid
	})
	st.forgetRemovedMessages()
}

// removeMessage removes m for good, with its thread and everything that
// hangs on them, and the copies of its content: the quotes of it and the
// message the action messages about it show.
func (st *state) removeMessage(m *MsgRec) {
	gone := map[int64]bool{m.id: true}
	for _, r := range m.replies {
		gone[r.id] = true
	}
	st.removeRecs(func(r *MsgRec) bool { return r == m })
	for _, r := range st.messages {
		if q := r.m.QuotedMessage; q != nil && gone[idOf(q.ID)] {
			r.m.QuotedMessage = nil
			st.touchMsg(r)
		}
		if es := r.m.Data.Entities; r.m.Category == chat.CategoryAction && es != nil && es.On != nil && es.On.EntityType == chat.EntityMessage {
			var on chat.Message
			if json.Unmarshal(es.On.Entity, &on) == nil && gone[idOf(on.ID)] {
				es.On = Entity(chat.EntityMessage, removedMessage(on))
				st.touchMsg(r)
			}
		}
		if lr := r.m.LastReply; lr != nil && gone[idOf(lr.ID)] {
			r.refreshThread()
		}
	}
	st.reindexConversations()
	st.forgetRemovedMessages()
}

// forgetRemovedMessages drops what the moderation review and the
// notification logs keep of the messages no longer stored.
func (st *state) forgetRemovedMessages() {
	st.blocked = slices.DeleteFunc(st.blocked, func(b *BlockedRec) bool { return !st.live(b.msg) })
	touchField(st, &st.blocked)
	for id, r := range st.reviewed {
		if !st.live(r.msg) {
			delete(st.reviewed, id)
			touch(st, &st.reviewed, id)
		}
	}
	for id := range st.flagReviewed {
		if st.msgByID[id] == nil {
			delete(st.flagReviewed, id)
			touch(st, &st.flagReviewed, id)
		}
	}
	touchField(st, &st.notif.logs)
	st.notif.logs = slices.DeleteFunc(st.notif.logs, func(l *notifLogRec) bool {
		return l.l.MessageID != 0 && st.msgByID[l.l.MessageID] == nil
	})
}

// removedMessage is what is left of a message removed for good where
// another message showed it: who sent it where and when, not what it said.
func removedMessage(m chat.Message) chat.Message {
	return chat.Message{ID: m.ID, ConversationID: m.ConversationID, Sender: m.Sender, ReceiverType: m.ReceiverType,
		Receiver: m.Receiver, Category: m.Category, Type: m.Type, SentAt: m.SentAt, UpdatedAt: m.UpdatedAt,
		EditedAt: m.EditedAt, EditedBy: m.EditedBy, DeletedAt: m.DeletedAt, DeletedBy: m.DeletedBy, ParentID: m.ParentID}
}

// idOf is the stored id of a message id as answers show it, or 0.
func idOf(id string) int64 {
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}
