package fake

import (
	"cmp"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/google/btree"

	"github.com/chatrest/chat"
)

// conversationsIndex keeps the conversations the stored messages make (see
// conversations.go) as messages come and go, and each user's one-on-one
// conversations in the order the conversation list answers, so that a
// page of a user's conversations walks only that page. addRec, the soft
// delete of a message, openConv and hideConversation keep it; removeRecs
// rebuilds it.
type conversationsIndex struct {
	convs      map[string]*derivedConv            // by id, once a message or openConv made them
	userConvs  map[string]*btree.BTreeG[convItem] // by owner: their one-on-one conversations, in the list's order (convBefore)
	pairConvs  map[[2]string][]*derivedConv       // one-on-one conversations by their two users in order
	groupConvs map[string][]*derivedConv          // group conversations by guid
	hiddenOf   map[string]map[string]bool         // by owner: the ids of the conversations they reset
}

func (x *conversationsIndex) init() {
	x.convs = map[string]*derivedConv{}
	x.userConvs = map[string]*btree.BTreeG[convItem]{}
	x.pairConvs = map[[2]string][]*derivedConv{}
	x.groupConvs = map[string][]*derivedConv{}
	if x.hiddenOf == nil { // resets are the owners' state, kept across rebuilds
		x.hiddenOf = map[string]map[string]bool{}
	}
}

// convItem is a conversation in an owner's list, with what orders it:
// its updatedAt, the id of its last message, and the uid or guid of
// conversationWith.
type convItem struct {
	at   chat.Timestamp
	last int64 // the id of its last message; 0 when it has none
	with string
	cv   *derivedConv
}

// item is cv as it is ordered now, with conversationWith's uid or guid.
func (cv *derivedConv) item(with string) convItem {
	return convItem{at: cv.updatedAt(), last: cv.lastID(), with: with, cv: cv}
}

// filedItem is cv as it is filed in its users' lists (at and last as
// they were when it was filed).
func (cv *derivedConv) filedItem(with string) convItem {
	return convItem{at: cv.at, last: cv.last, with: with, cv: cv}
}

// convCompare is the order of the conversation lists: the newest last
// message first, by when it was sent, then by its id (ids grow as
// messages are stored, so of two sent in the same second the later comes
// first); a conversation opened without a message by when it was opened,
// after those whose last message was sent in that second; then by the uid
// or guid of conversationWith, then by id.
func convCompare(a, b convItem) int {
	return cmp.Or(cmp.Compare(b.at, a.at), cmp.Compare(b.last, a.last), strings.Compare(a.with, b.with), strings.Compare(a.cv.id, b.cv.id))
}

// convBefore reports whether a comes before b in the conversation lists
// (convCompare).
func convBefore(a, b convItem) bool { return convCompare(a, b) < 0 }

// conv returns the conversation id, or nil: a conversation exists while
// it has a message, or was started without one (openConv) and has none.
func (st *state) conv(id string) *derivedConv {
	if cv := st.convs[id]; cv != nil && cv.exists() {
		return cv
	}
	return nil
}

func (cv *derivedConv) exists() bool { return len(cv.msgs) > 0 || cv.openedAt != 0 }

// allConvs returns every conversation that exists (see conv), in no
// order.
func (st *state) allConvs() []*derivedConv {
	out := make([]*derivedConv, 0, len(st.convs))
	for _, cv := range st.convs {
		if cv.exists() {
			out = append(out, cv)
		}
	}
	return out
}

// opened is when cv was started without a message, while it has none;
// zero otherwise.
func (cv *derivedConv) opened() chat.Timestamp {
	if len(cv.msgs) > 0 {
		return 0
	}
	return cv.openedAt
}

// lastID is the id of the last message of cv, or 0 when it has none.
func (cv *derivedConv) lastID() int64 {
	if n := len(cv.msgs); n > 0 {
		return cv.msgs[n-1].id
	}
	return 0
}

// updatedAt is when the last message of cv was sent, or when it was
// started without one.
func (cv *derivedConv) updatedAt() chat.Timestamp {
	if n := len(cv.msgs); n > 0 {
		return cv.msgs[n-1].m.SentAt
	}
	return cv.openedAt
}

// convOf returns the conversation id, creating it.
func (st *state) convOf(id string) *derivedConv {
	cv := st.convs[id]
	if cv == nil {
		cv = &derivedConv{id: id}
		st.convs[id] = cv
	}
	return cv
}

// convAdd adds m, the newest message, to its conversation unless it is a
// thread reply or deleted.
func (st *state) convAdd(m *MsgRec) {
	if m.parent != nil || m.m.DeletedAt != 0 {
		return
	}
	cv := st.convOf(m.m.ConversationID)
	cv.msgs = append(cv.msgs, m)
	cv.tally.add(cv.msgs)
	st.settleConv(cv)
}

// convRemove removes m from its conversation: it was deleted.
func (st *state) convRemove(m *MsgRec) {
	cv := st.convs[m.m.ConversationID]
	if cv == nil {
		return
	}
	if i, ok := slices.BinarySearchFunc(cv.msgs, m.id, func(x *MsgRec, id int64) int { return cmp.Compare(x.id, id) }); ok && cv.msgs[i] == m {
		cv.msgs = slices.Delete(cv.msgs, i, i+1)
		cv.tally = convTally{}
		for j := range cv.msgs {
			cv.tally.add(cv.msgs[:j+1])
		}
		st.settleConv(cv)
	}
}

// openConv starts the one-on-one conversation id of a and b at at without
// a message, unless it was started so before.
func (st *state) openConv(id, a, b string, at chat.Timestamp) {
	if st.opened[id] != nil {
		return
	}
	st.opened[id] = &openedConv{a: a, b: b, at: at}
	touch(st, &st.opened, id)
	st.settleConv(st.convOf(id))
}

// settleConv derives what cv is from its messages, or from how it was
// opened when it has none (its type, users or group, and updatedAt), and
// files it accordingly.
func (st *state) settleConv(cv *derivedConv) {
	typ, a, b, guid := cv.typ, cv.a, cv.b, cv.guid
	cv.openedAt = 0
	o := st.opened[cv.id]
	if o != nil {
		cv.openedAt = o.at
	}
	switch {
	case len(cv.msgs) > 0:
		m := cv.msgs[0]
		if m.m.ReceiverType == chat.ReceiverGroup {
			cv.typ, cv.a, cv.b, cv.guid = chat.ConversationGroup, "", "", m.m.Receiver
		} else {
			cv.typ, cv.a, cv.b, cv.guid = chat.ConversationUser, m.between[0], m.between[1], ""
		}
	case o != nil:
		cv.typ, cv.a, cv.b, cv.guid = chat.ConversationUser, o.a, o.b, ""
	}
	moved := cv.filed && (cv.typ != typ || cv.a != a || cv.b != b || cv.guid != guid)
	if moved || cv.filed && !cv.exists() {
		st.unfileConv(cv, typ, a, b, guid)
	}
	if cv.exists() && !cv.filed {
		st.fileConv(cv)
	}
	if cv.typ == chat.ConversationUser && cv.filed && (cv.at != cv.updatedAt() || cv.last != cv.lastID()) {
		for _, owner := range cv.owners() {
			t := st.userConvs[owner]
			t.Delete(cv.filedItem(cv.peer(owner)))
			t.ReplaceOrInsert(cv.item(cv.peer(owner)))
		}
	}
	cv.at, cv.last = cv.updatedAt(), cv.lastID()
}

// owners are the users of a one-on-one conversation who may list it.
func (cv *derivedConv) owners() []string {
	var out []string
	for i, uid := range []string{cv.a, cv.b} {
		if uid != appSystem && (i == 0 || uid != cv.a) {
			out = append(out, uid)
		}
	}
	return out
}

// fileConv adds cv to the lists of its users or its group.
func (st *state) fileConv(cv *derivedConv) {
	cv.filed, cv.at, cv.last = true, cv.updatedAt(), cv.lastID()
	if cv.typ == chat.ConversationGroup {
		st.groupConvs[cv.guid] = append(st.groupConvs[cv.guid], cv)
		return
	}
	k := pairKey(cv.a, cv.b)
	st.pairConvs[k] = append(st.pairConvs[k], cv)
	for _, owner := range cv.owners() {
		t := st.userConvs[owner]
		if t == nil {
			t = newTree(convBefore)
			st.userConvs[owner] = t
		}
		t.ReplaceOrInsert(cv.filedItem(cv.peer(owner)))
	}
}

// unfileConv removes cv, filed as typ of a and b or of guid, from the
// lists of its users or group.
func (st *state) unfileConv(cv *derivedConv, typ chat.ConversationType, a, b, guid string) {
	cv.filed = false
	drop := func(s []*derivedConv) []*derivedConv {
		return slices.DeleteFunc(s, func(x *derivedConv) bool { return x == cv })
	}
	if typ == chat.ConversationGroup {
		if st.groupConvs[guid] = drop(st.groupConvs[guid]); len(st.groupConvs[guid]) == 0 {
			delete(st.groupConvs, guid)
		}
		return
	}
	k := pairKey(a, b)
	if st.pairConvs[k] = drop(st.pairConvs[k]); len(st.pairConvs[k]) == 0 {
		delete(st.pairConvs, k)
	}
	was := derivedConv{id: cv.id, a: a, b: b}
	for _, owner := range was.owners() {
		if t := st.userConvs[owner]; t != nil {
			t.Delete(cv.filedItem(was.peer(owner)))
		}
	}
}

// reindexConversations rebuilds the conversations from the stored
// messages and the conversations opened without one.
func (st *state) reindexConversations() {
	st.conversationsIndex.init()
	for _, m := range st.messages {
		st.convAdd(m)
	}
	for id := range st.opened {
		st.settleConv(st.convOf(id))
	}
}

// hiddenConv records that owner reset the conversation id.
func (st *state) hiddenConv(owner, id string) {
	ids := st.hiddenOf[owner]
	if ids == nil {
		ids = map[string]bool{}
		st.hiddenOf[owner] = ids
	}
	ids[id] = true
	touch(st, &st.hiddenOf, owner)
}

// convListing is how a conversation list walks one owner's conversations.
type convListing struct {
	typ            chat.ConversationType // "" for both
	includeBlocked bool
}

// ownerConvs yields the conversations of owner in the list's order: their
// one-on-one conversations (from the index) merged with those of their
// groups (sorted here: a user has few groups), each as owner sees it, with
// conversationWith's uid or guid. total counts those the listing keeps
// (see keeps).
func (st *state) ownerConvs(owner string, l convListing) (seq iter.Seq[convItem], total int) {
	var groups []convItem
	if l.typ != chat.ConversationUser {
		for guid, g := range st.memberOf[owner] {
			if st.member(g, owner) == nil {
				continue
			}
			for _, cv := range st.groupConvs[guid] {
				if cv.exists() && st.accessible(owner, cv) {
					groups = append(groups, cv.item(cv.guid))
				}
			}
		}
		slices.SortFunc(groups, convCompare)
	}
	total = len(groups)
	users := st.userConvs[owner]
	if l.typ == chat.ConversationGroup || users == nil {
		return slices.Values(groups), total
	}
	total += users.Len()
	for id := range st.hiddenOf[owner] {
		if cv := st.conv(id); cv != nil && cv.typ == chat.ConversationUser && slices.Contains(cv.owners(), owner) && !st.accessible(owner, cv) {
			total--
		}
	}
	if !l.includeBlocked {
		for peer := range st.blocks[owner] {
			for _, cv := range st.pairConvs[pairKey(owner, peer)] {
				if cv.exists() && st.accessible(owner, cv) && cv.peer(owner) == peer {
					total--
				}
			}
		}
	}
	return mergeSeq(ascend(users), slices.Values(groups), convBefore), total
}

// keeps reports whether the listing keeps owner's conversation it: owner
// can see it, and, unless includeBlocked, it is not with a user owner
// blocked. The groups ownerConvs yields are kept.
func (st *state) keeps(owner string, l convListing, it convItem) bool {
	cv := it.cv
	if cv.typ == chat.ConversationGroup {
		return true
	}
	return st.accessible(owner, cv) && (l.includeBlocked || !st.isBlocked(owner, cv.peer(owner)))
}

// convTally counts the messages of a conversation that an unread count
// counts (those that are not action messages), so that the count costs a
// few binary searches instead of a walk over the unread messages.
type convTally struct {
	counted  []int32            // counted[i]: how many of msgs[:i] count
	bySender map[string][]int32 // by sender: the positions in msgs of their messages that count
	unsorted bool               // a message was sent before the one before it
}

// add tallies the last of msgs, which it has tallied up to that one.
func (t *convTally) add(msgs []*MsgRec) {
	i := len(msgs) - 1
	m := msgs[i]
	if len(t.counted) == 0 {
		t.counted = append(t.counted, 0)
	}
	n := t.counted[i]
	if m.m.Category != chat.CategoryAction {
		n++
		if t.bySender == nil {
			t.bySender = map[string][]int32{}
		}
		t.bySender[m.m.Sender] = append(t.bySender[m.m.Sender], int32(i))
	}
	t.counted = append(t.counted, n)
	if i > 0 && m.m.SentAt < msgs[i-1].m.SentAt {
		t.unsorted = true
	}
}

// unread counts the messages of visible, the end of cv.msgs that owner
// sees, that owner has not read: after readUpTo, sent by someone else, not
// action messages, and sent at or after joinedAt.
func (cv *derivedConv) unread(visible []*MsgRec, owner string, readUpTo int64, joinedAt chat.Timestamp) int {
	if len(visible) == 0 {
		return 0
	}
	t := &cv.tally
	from := len(cv.msgs) - len(visible)
	from += sort.Search(len(visible), func(i int) bool { return visible[i].id > readUpTo })
	if joinedAt > 0 && t.unsorted {
		n := 0
		for _, m := range cv.msgs[from:] {
			if m.m.Sender != owner && m.m.Category != chat.CategoryAction && m.m.SentAt >= joinedAt {
				n++
			}
		}
		return n
	}
	if joinedAt > 0 {
		from = max(from, sort.Search(len(cv.msgs), func(i int) bool { return cv.msgs[i].m.SentAt >= joinedAt }))
	}
	own := t.bySender[owner]
	mine := len(own) - sort.Search(len(own), func(i int) bool { return int(own[i]) >= from })
	return int(t.counted[len(cv.msgs)]-t.counted[from]) - mine
}
