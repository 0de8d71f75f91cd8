package fake

import (
	"encoding/json"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

const (
	// maxUserPins is how many conversations a user may pin.
	maxUserPins = 5
	// maxAppPins is how many conversations the app may pin for everyone.
	maxAppPins = 5
)

// Conversations are not stored: they are derived from the messages. A
// one-on-one conversation belongs to both its users; a group conversation
// to each current member of the group. Each owner has their own state,
// convUser: read and delivered marks, tags, pin, and reset.
//
// Thread replies and deleted messages do not make or change conversations;
// action messages (member added, message edited, ...) are messages of the
// conversation, and may be its lastMessage, but are never counted as
// unread. lastMessage is the message as its owner sees it (reactedByMe,
// savedAt).

// convKey names one owner's view of a conversation.
type convKey struct{ owner, id string }

// convUser is an owner's state of a conversation.
type convUser struct {
	readUpTo      int64 // the last message read (an id)
	deliveredUpTo int64 // the last message delivered
	tags          []string
	pinnedAt      chat.Timestamp // the owner's pin; zero when not pinned
	hidden        bool           // reset: hidden until a message after hiddenUpTo
	hiddenUpTo    int64
}

// openedConv is a one-on-one conversation started without a message (add
// friends with addToConversations).
type openedConv struct {
	a, b string
	at   chat.Timestamp
}

// appPin is a conversation the app pinned for every user.
type appPin struct {
	ref      chat.ConversationRef // uid or guid, lower-cased
	pinnedAt chat.Timestamp
}

// id is the pin's conversationId: "group_{guid}", or "user_{uid}" for the
// conversations with a user (see CHOICES.md).
func (p appPin) id() string {
	if p.ref.GUID != "" {
		return "group_" + p.ref.GUID
	}
	return "user_" + p.ref.UID
}

func (p appPin) typ() chat.ConversationType {
	if p.ref.GUID != "" {
		return chat.ConversationGroup
	}
	return chat.ConversationUser
}

// derivedConv is one conversation as the messages make it; its type and
// users or group are those of its first message, or of how it was opened
// when it has none (conversations_index.go keeps them).
type derivedConv struct {
	id       string
	typ      chat.ConversationType
	a, b     string // the users of a one-on-one conversation
	guid     string // the group of a group conversation
	msgs     []*MsgRec
	openedAt chat.Timestamp // started without a message, at (see opened)

	filed bool           // in the lists of its users or group
	at    chat.Timestamp // its updatedAt in its users' lists
	last  int64          // the id of its last message in its users' lists
	tally convTally      // what unread counts count
}

// peer is the other party of owner in a one-on-one conversation.
func (cv *derivedConv) peer(owner string) string {
	if cv.a == owner {
		return cv.b
	}
	return cv.a
}

// UserConversationID is the id of the one-on-one conversation of a and b.
func UserConversationID(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "_user_" + b
}

// hasOwner reports whether uid owns cv: a user of a one-on-one
// conversation, or a member of the (existing) group.
func (st *state) hasOwner(cv *derivedConv, uid string) bool {
	if uid == "" || uid == appSystem || st.activeUser(uid) == nil {
		return false
	}
	if cv.typ == chat.ConversationGroup {
		if !st.groupExists(cv.guid) {
			return false
		}
		_, ok := st.memberScope(cv.guid, uid)
		return ok
	}
	return cv.a == uid || cv.b == uid
}

// convMarksOf returns owner's state of the conversation id, creating it,
// for the change in progress to set.
func (st *state) convMarksOf(owner, id string) *convUser {
	k := convKey{owner, id}
	cu := st.convMarks[k]
	if cu == nil {
		cu = &convUser{}
		st.convMarks[k] = cu
	}
	touch(st, &st.convMarks, k)
	return cu
}

// visibleMsgs are the messages of cv that owner sees: those after a reset.
func (st *state) visibleMsgs(owner string, cv *derivedConv) []*MsgRec {
	cu := st.convMarks[convKey{owner, cv.id}]
	if cu == nil || !cu.hidden {
		return cv.msgs
	}
	i := sort.Search(len(cv.msgs), func(i int) bool { return cv.msgs[i].id > cu.hiddenUpTo })
	return cv.msgs[i:]
}

// accessible reports whether owner sees cv in their list: it has a message
// (after a reset), or it was opened without one and not reset since.
func (st *state) accessible(owner string, cv *derivedConv) bool {
	if len(st.visibleMsgs(owner, cv)) > 0 {
		return true
	}
	cu := st.convMarks[convKey{owner, cv.id}]
	return cv.opened() != 0 && (cu == nil || !cu.hidden)
}

// appPinOf returns the app pin covering owner's conversation cv.
func (st *state) appPinOf(owner string, cv *derivedConv) (appPin, bool) {
	for _, p := range st.appPins {
		if cv.typ == chat.ConversationGroup && p.ref.GUID == cv.guid ||
			cv.typ == chat.ConversationUser && p.ref.UID != "" && p.ref.UID == cv.peer(owner) {
			return p, true
		}
	}
	return appPin{}, false
}

// convWire is a conversation as the service sends it: the unread count is
// a string.
type convWire struct {
	ConversationID     string                `json:"conversationId"`
	ConversationType   chat.ConversationType `json:"conversationType"`
	UnreadMessageCount string                `json:"unreadMessageCount"`
	CreatedAt          chat.Timestamp        `json:"createdAt,omitempty"`
	UpdatedAt          chat.Timestamp        `json:"updatedAt,omitempty"`
	LastMessage        *chat.Message         `json:"lastMessage,omitempty"`
	ConversationWith   any                   `json:"conversationWith"`
	Tags               []string              `json:"tags,omitempty"`
	PinnedBy           string                `json:"pinnedBy,omitempty"`
	PinnedAt           chat.Timestamp        `json:"pinnedAt,omitempty"`

	unread  int    // for the unread filter
	withID  string // the uid or guid of conversationWith, for ordering
	name    string // its name, for searchKey
	withTag []string
}

// pinWire is a pin as the pin operations and the app-pinned list answer.
type pinWire struct {
	ConversationID   string                `json:"conversationId"`
	ConversationType chat.ConversationType `json:"conversationType"`
	PinnedBy         string                `json:"pinnedBy,omitempty"`
	PinnedAt         chat.Timestamp        `json:"pinnedAt,omitempty"`
}

// convOptions say what a view includes.
type convOptions struct {
	withTags        bool // the owner's tags on the conversation
	withPeerTags    bool // the tags of conversationWith
	withBlockedInfo bool
}

// convView is owner's conversation cv as answers show it.
func (st *state) convView(owner string, cv *derivedConv, o convOptions) convWire {
	cu := st.convMarks[convKey{owner, cv.id}]
	if cu == nil {
		cu = &convUser{}
	}
	w := convWire{ConversationID: cv.id, ConversationType: cv.typ, CreatedAt: cv.opened(), UpdatedAt: cv.opened()}
	if len(cv.msgs) > 0 {
		w.CreatedAt = cv.msgs[0].m.SentAt
	}
	var joinedAt chat.Timestamp
	if cv.typ == chat.ConversationGroup {
		g, _ := st.groupInfo(cv.guid, owner)
		joinedAt, w.withTag = g.JoinedAt, g.Tags
		if !o.withPeerTags {
			g.Tags = nil
		}
		w.ConversationWith, w.withID, w.name = g, g.GUID, g.Name
	} else {
		u := st.peerUser(owner, cv, o)
		w.ConversationWith, w.withID, w.name = u, u.UID, u.Name
		if rec := st.users[u.UID]; rec != nil {
			w.withTag = rec.u.Tags
		}
	}
	msgs := st.visibleMsgs(owner, cv)
	if n := len(msgs); n > 0 {
		last := msgs[n-1].view(owner, true)
		w.LastMessage, w.UpdatedAt = &last, last.SentAt
	}
	w.unread = cv.unread(msgs, owner, cu.readUpTo, joinedAt)
	w.UnreadMessageCount = strconv.Itoa(w.unread)
	if o.withTags {
		w.Tags = cu.tags
	}
	if p, ok := st.appPinOf(owner, cv); ok {
		w.PinnedBy, w.PinnedAt = appSystem, p.pinnedAt
	} else if cu.pinnedAt != 0 {
		w.PinnedBy, w.PinnedAt = owner, cu.pinnedAt
	}
	return w
}

// peerUser is the other user of owner's one-on-one conversation cv.
func (st *state) peerUser(owner string, cv *derivedConv, o convOptions) chat.User {
	uid := cv.peer(owner)
	var u chat.User
	switch rec := st.users[uid]; {
	case uid == appSystem:
		u = chat.User{UID: appSystem, Name: "System", Role: chat.DefaultRole, Status: chat.UserOffline}
	case rec != nil:
		u = rec.view(o.withPeerTags)
	default: // deleted permanently
		u = chat.User{UID: uid}
	}
	u.ConversationID = cv.id
	if o.withBlockedInfo {
		if b := st.blocks[owner][uid]; b != nil {
			u.BlockedByMe, u.BlockedByMeAt, u.BlockedAt = true, b.since, b.since
		}
	}
	return clone(u)
}

func conversationRoutes() []route {
	return []route{
		{pattern: "GET /v3/conversations", obo: oboOptional, reach: listed, handle: (*state).listConversations},
		{pattern: "GET /v3/conversations/pinned", reach: appOnly, handle: (*state).listAppPins},
		{pattern: "PUT /v3/conversations/pinned", reach: appOnly, handle: (*state).replaceAppPins},
		{pattern: "GET /v3/conversations/{conversationId}", obo: oboRequired, reach: onConversation(), handle: (*state).getConversationByID},
		{pattern: "DELETE /v3/conversations/{conversationId}", obo: oboRequired, reach: onConversation(), handle: (*state).deleteConversationByID},

		{pattern: "GET /v3/users/{uid}/conversation", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).getConversation)},
		{pattern: "PUT /v3/users/{uid}/conversation", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).updateConversation)},
		{pattern: "DELETE /v3/users/{uid}/conversation", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).resetConversation)},
		{pattern: "POST /v3/users/{uid}/conversation/pin", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).pinConversation)},
		{pattern: "DELETE /v3/users/{uid}/conversation/pin", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).unpinConversation)},
		{pattern: "POST /v3/users/{uid}/conversation/delivered", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).markDelivered)},
		{pattern: "POST /v3/users/{uid}/conversation/read", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).markRead)},
		{pattern: "DELETE /v3/users/{uid}/conversation/read", obo: oboRequired, reach: onPeer(needRead), handle: userConv((*state).markUnread)},

		{pattern: "GET /v3/groups/{guid}/conversation", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).getConversation)},
		{pattern: "PUT /v3/groups/{guid}/conversation", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).updateConversation)},
		{pattern: "DELETE /v3/groups/{guid}/conversation", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).resetConversation)},
		{pattern: "POST /v3/groups/{guid}/conversation/pin", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).pinConversation)},
		{pattern: "DELETE /v3/groups/{guid}/conversation/pin", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).unpinConversation)},
		{pattern: "POST /v3/groups/{guid}/conversation/delivered", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).markDelivered)},
		{pattern: "POST /v3/groups/{guid}/conversation/read", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).markRead)},
		{pattern: "DELETE /v3/groups/{guid}/conversation/read", obo: oboRequired, reach: onGroupConversation(), handle: groupConv((*state).markUnread)},
	}
}

// convTarget is the conversation a per-conversation operation acts on, and
// its owner (the onBehalfOf user). cv is nil when it has no message yet.
type convTarget struct {
	owner string
	id    string
	typ   chat.ConversationType
	cv    *derivedConv
}

// userConv resolves the onBehalfOf user's conversation with the path's
// {uid} before calling h.
func userConv(h func(*state, *call, convTarget) (any, error)) func(*state, *call) (any, error) {
	return func(st *state, c *call) (any, error) {
		uid := c.uid("uid")
		if st.activeUser(uid) == nil {
			return nil, errUIDNotFound(uid)
		}
		t := convTarget{owner: c.onBehalfOf, id: UserConversationID(c.onBehalfOf, uid), typ: chat.ConversationUser}
		if uid == c.onBehalfOf {
			return nil, errConversationNotAccessible(t.id, t.owner)
		}
		t.cv = st.conv(t.id)
		return h(st, c, t)
	}
}

// groupConv resolves the onBehalfOf user's conversation in the path's
// {guid} before calling h; the group must exist and the user be a member
// (the access policy, policy.go, decided that they reach it).
func groupConv(h func(*state, *call, convTarget) (any, error)) func(*state, *call) (any, error) {
	return func(st *state, c *call) (any, error) {
		guid := strings.ToLower(c.r.PathValue("guid"))
		if _, err := st.groupFor(appSystem, guid); err != nil { // the access policy decided who reaches it: policy.go
			return nil, err
		}
		t := convTarget{owner: c.onBehalfOf, id: "group_" + guid, typ: chat.ConversationGroup}
		if _, ok := st.memberScope(guid, c.onBehalfOf); !ok {
			return nil, errConversationNotAccessible(t.id, t.owner)
		}
		t.cv = st.conv(t.id)
		return h(st, c, t)
	}
}

// accessibleConv returns t's conversation when its owner can see it.
func (st *state) accessibleConv(t convTarget) (*derivedConv, error) {
	if t.cv == nil || !st.accessible(t.owner, t.cv) {
		return nil, errConversationNotAccessible(t.id, t.owner)
	}
	return t.cv, nil
}

// GET /v3/users/{uid}/conversation, GET /v3/groups/{guid}/conversation
//
// data is an array of one conversation, as the service answers. The
// owner's tags are included.
func (st *state) getConversation(c *call, t convTarget) (any, error) {
	cv, err := st.accessibleConv(t)
	if err != nil {
		return nil, err
	}
	return data([]convWire{st.convView(t.owner, cv, convOptions{withTags: true})}), nil
}

// PUT /v3/users/{uid}/conversation, PUT /v3/groups/{guid}/conversation
func (st *state) updateConversation(c *call, t convTarget) (any, error) {
	cv, err := st.accessibleConv(t)
	if err != nil {
		return nil, err
	}
	var b struct {
		Tags *[]string `json:"tags"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if b.Tags == nil {
		v.add("tags", "The tags field is required.")
	} else {
		checkTags(&v, "tags", *b.Tags)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	st.convMarksOf(t.owner, t.id).tags = clone(*b.Tags)
	return data([]convWire{st.convView(t.owner, cv, convOptions{withTags: true})}), nil
}

// DELETE /v3/users/{uid}/conversation, DELETE /v3/groups/{guid}/conversation
//
// The conversation leaves the owner's list until a message arrives after
// the reset; the other users keep theirs. deleteMessagesPermanently (users
// only) and preserveOrder are validated but have no further effect: the
// messages stay for the other party, and a reset conversation is not
// listed, so its position does not show.
func (st *state) resetConversation(c *call, t convTarget) (any, error) {
	if t.cv == nil {
		return nil, errConversationNotAccessible(t.id, t.owner)
	}
	var b struct {
		DeleteMessagesPermanently bool   `json:"deleteMessagesPermanently"`
		PreserveOrder             bool   `json:"preserveOrder"`
		ConversationWith          string `json:"conversationWith"` // an older body's field; ignored
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	st.hideConversation(t.owner, t.cv)
	with := t.cv.guid
	if t.typ == chat.ConversationUser {
		with = t.cv.peer(t.owner)
	}
	return data(chat.Result{Success: true, Message: "The conversation with " + with + " has been deleted for the user " + t.owner + "."}), nil
}

// hideConversation resets owner's conversation cv.
func (st *state) hideConversation(owner string, cv *derivedConv) {
	cu := st.convMarksOf(owner, cv.id)
	cu.hidden = true
	st.hiddenConv(owner, cv.id)
	if n := len(cv.msgs); n > 0 {
		cu.hiddenUpTo = cv.msgs[n-1].id
	}
	cu.readUpTo = max(cu.readUpTo, cu.hiddenUpTo)
	cu.deliveredUpTo = max(cu.deliveredUpTo, cu.hiddenUpTo)
}

// POST /v3/users/{uid}/conversation/pin, POST /v3/groups/{guid}/conversation/pin
//
// Pinning again keeps the first pinnedAt and does not count against the
// limit.
func (st *state) pinConversation(c *call, t convTarget) (any, error) {
	cv, err := st.accessibleConv(t)
	if err != nil {
		return nil, err
	}
	if _, ok := st.appPinOf(t.owner, cv); ok {
		return nil, errSystemPinnedConversation(t.id)
	}
	cu := st.convMarksOf(t.owner, t.id)
	if cu.pinnedAt == 0 {
		if st.userPins(t.owner) >= maxUserPins {
			return nil, errPinnedConversationsLimit(t.owner)
		}
		cu.pinnedAt = c.timestamp()
	}
	return data(pinWire{ConversationID: t.id, ConversationType: t.typ, PinnedBy: t.owner, PinnedAt: cu.pinnedAt}), nil
}

// userPins counts the conversations owner pinned.
func (st *state) userPins(owner string) int {
	n := 0
	for k, cu := range st.convMarks {
		if k.owner == owner && cu.pinnedAt != 0 {
			n++
		}
	}
	return n
}

// DELETE /v3/users/{uid}/conversation/pin, DELETE /v3/groups/{guid}/conversation/pin
//
// Unpinning a conversation that is not pinned succeeds.
func (st *state) unpinConversation(c *call, t convTarget) (any, error) {
	if t.cv == nil {
		return nil, errConversationNotAccessible(t.id, t.owner)
	}
	if _, ok := st.appPinOf(t.owner, t.cv); ok {
		return nil, errSystemPinnedConversation(t.id)
	}
	if cu := st.convMarks[convKey{t.owner, t.id}]; cu != nil {
		cu.pinnedAt = 0
		touch(st, &st.convMarks, convKey{t.owner, t.id})
	}
	return data(pinWire{ConversationID: t.id, ConversationType: t.typ}), nil
}

// markBody is the body of the read, delivered and unread marks.
type markBody struct {
	MessageID *int64 `json:"messageId"`
}

// markedID reads the body's messageId, which must be a message of cv. With
// none, it is the last message, or required is reported.
func (st *state) markedID(c *call, cv *derivedConv, required bool) (int64, error) {
	var b markBody
	if err := c.decode(&b); err != nil {
		return 0, err
	}
	if b.MessageID == nil {
		if required {
			return 0, validationError(map[string][]string{"messageId": {"The messageId field is required."}})
		}
		if n := len(cv.msgs); n > 0 {
			return cv.msgs[n-1].id, nil
		}
		return 0, nil
	}
	id := *b.MessageID
	i := sort.Search(len(cv.msgs), func(i int) bool { return cv.msgs[i].id >= id })
	if i == len(cv.msgs) || cv.msgs[i].id != id {
		return 0, errMsgNotFound(strconv.FormatInt(id, 10))
	}
	return id, nil
}

// userResult is the answer of mark read and delivered on a user
// conversation, whose key the service capitalises: {"success", "Message"}.
type userResult struct {
	Success bool   `json:"success"`
	Message string `json:"Message"`
}

// markAnswer answers a mark with its text, capitalised for users.
func markAnswer(t convTarget, capital bool, text string) any {
	if capital && t.typ == chat.ConversationUser {
		return data(userResult{Success: true, Message: text})
	}
	return data(chat.Result{Success: true, Message: text})
}

// mark moves the acting user's marks in the conversation t up to the
// request's messageId (required, or else the last message), with move, and
// answers with the text of what was marked.
func (st *state) mark(c *call, t convTarget, required, capital bool, what string, move func(cu *convUser, id int64)) (any, error) {
	cv, err := st.accessibleConv(t)
	if err != nil {
		return nil, err
	}
	id, err := st.markedID(c, cv, required)
	if err != nil {
		return nil, err
	}
	move(st.convMarksOf(t.owner, t.id), id)
	return markAnswer(t, capital, "The conversation "+t.id+" has been marked as "+what+" for the user "+t.owner+"."), nil
}

// POST /v3/users/{uid}/conversation/read, POST /v3/groups/{guid}/conversation/read
//
// The onBehalfOf user is the reader. Messages up to messageId (all without
// it) are read, and so delivered; marks only move forward.
func (st *state) markRead(c *call, t convTarget) (any, error) {
	var marked int64
	var before convUser
	out, err := st.mark(c, t, false, true, "read", func(cu *convUser, id int64) {
		before = *cu
		cu.readUpTo = max(cu.readUpTo, id)
		cu.deliveredUpTo = max(cu.deliveredUpTo, cu.readUpTo)
		marked = id
	})
	if err == nil {
		st.recordReceipt(c, t, ReceiptRead, marked, before)
	}
	return out, err
}

// POST /v3/users/{uid}/conversation/delivered, POST /v3/groups/{guid}/conversation/delivered
func (st *state) markDelivered(c *call, t convTarget) (any, error) {
	var marked int64
	var before convUser
	out, err := st.mark(c, t, false, true, "delivered", func(cu *convUser, id int64) {
		before = *cu
		cu.deliveredUpTo = max(cu.deliveredUpTo, id)
		marked = id
	})
	if err == nil {
		st.recordReceipt(c, t, ReceiptDelivered, marked, before)
	}
	return out, err
}

// DELETE /v3/users/{uid}/conversation/read, DELETE /v3/groups/{guid}/conversation/read
//
// The messages after messageId (required) become unread again.
func (st *state) markUnread(c *call, t convTarget) (any, error) {
	return st.mark(c, t, true, false, "unread", func(cu *convUser, id int64) {
		cu.readUpTo = min(cu.readUpTo, id)
	})
}

// GET /v3/conversations
//
// With onBehalfOf: that user's conversations, the newest last message
// first (convCompare: when it was sent, then its id). Without it: every
// user's, ordered by owner uid, then as with it (a one-on-one
// conversation shows once per user, relative to each). searchKey matches the name of
// conversationWith, ignoring case; tags, userTags and groupTags keep
// conversations with any of the tags; once userTags or groupTags is given,
// a conversation must match the one of its type. Conversations with users
// the owner blocked are left out unless includeBlockedUsers. No
// conversation is agentic in the fake: onlyAgentic lists none.
// useCursoredIndex is accepted (0 or 1) and pagination stays page-based;
// unique (0 or 1, not with onBehalfOf) lists each conversation once.
func (st *state) listConversations(c *call) (any, error) {
	p := c.params()
	pq := pageParams(p)
	search := strings.ToLower(p.str("searchKey"))
	typ := chat.ConversationType(p.str("conversationType"))
	if typ != "" && typ != chat.ConversationUser && typ != chat.ConversationGroup {
		p.v.add("conversationType", `The conversationType must be "user" or "group".`)
	}
	o := convOptions{withTags: p.boolean("withTags"), withPeerTags: p.boolean("withUserAndGroupTags"), withBlockedInfo: p.boolean("withBlockedInfo")}
	tags, userTags, groupTags := p.list("tags"), p.list("userTags"), p.list("groupTags")
	unread := p.boolean("unread")
	includeBlocked := p.boolean("includeBlockedUsers")
	p.boolean("hideAgentic")
	onlyAgentic := p.boolean("onlyAgentic")
	p.intRange("useCursoredIndex", 1, 0, 1)
	unique := p.intRange("unique", 0, 0, 1) == 1
	if unique && c.onBehalfOf != "" {
		p.v.add("unique", "The unique field cannot be used with the onBehalfOf header.")
	}
	if err := p.err(); err != nil {
		return nil, err
	}

	owners := []string{c.onBehalfOf}
	if c.onBehalfOf == "" {
		owners = owners[:0]
		for u := range ascend(st.activeUsers) {
			owners = append(owners, u.u.UID)
		}
		slices.Sort(owners)
	}
	l := convListing{typ: typ, includeBlocked: includeBlocked}
	filtered := unread || search != "" || len(tags) > 0 || len(userTags)+len(groupTags) > 0
	type ownerItem struct {
		owner string
		convItem
	}
	seqs := make([]iter.Seq[convItem], len(owners))
	total := 0
	for i, owner := range owners {
		var n int
		seqs[i], n = st.ownerConvs(owner, l)
		total += n
	}
	if filtered || unique || onlyAgentic {
		total = -1 // counted by the walk
	}
	all := func(yield func(ownerItem) bool) {
		for i, seq := range seqs {
			for it := range seq {
				if !yield(ownerItem{owners[i], it}) {
					return
				}
			}
		}
	}
	seen := map[string]bool{}
	views := map[convKey]convWire{} // computed by the filters
	keep := func(it ownerItem) bool {
		owner, cv := it.owner, it.cv
		if onlyAgentic || !st.keeps(owner, l, it.convItem) || unique && seen[cv.id] {
			return false
		}
		if filtered {
			w := st.convView(owner, cv, o)
			switch {
			case unread && w.unread == 0,
				search != "" && !strings.Contains(strings.ToLower(w.name), search),
				len(tags) > 0 && !sharesTag(st.convMarks[convKey{owner, cv.id}].tagsOrNil(), tags),
				len(userTags)+len(groupTags) > 0 && !(cv.typ == chat.ConversationUser && sharesTag(w.withTag, userTags) ||
					cv.typ == chat.ConversationGroup && sharesTag(w.withTag, groupTags)):
				return false
			}
			views[convKey{owner, cv.id}] = w
		}
		seen[cv.id] = true
		return true
	}
	items, meta := walkPage(all, keep, total, pq)
	page := make([]convWire, len(items))
	for i, it := range items {
		w, ok := views[convKey{it.owner, it.cv.id}]
		if !ok {
			w = st.convView(it.owner, it.cv, o)
		}
		page[i] = w
	}
	return chat.Page[convWire]{Data: page, Meta: meta}, nil
}

func (cu *convUser) tagsOrNil() []string {
	if cu == nil {
		return nil
	}
	return cu.tags
}

// sharesTag reports whether have holds one of want.
func sharesTag(have, want []string) bool {
	for _, w := range want {
		for _, h := range have {
			if h == w {
				return true
			}
		}
	}
	return false
}

// GET /v3/conversations/{conversationId} (deprecated)
func (st *state) getConversationByID(c *call) (any, error) {
	cv, err := st.convByID(c)
	if err != nil {
		return nil, err
	}
	if !st.accessible(c.onBehalfOf, cv) {
		return nil, errConversationNotAccessible(cv.id, c.onBehalfOf)
	}
	return data([]convWire{st.convView(c.onBehalfOf, cv, convOptions{withTags: true})}), nil
}

// DELETE /v3/conversations/{conversationId} (deprecated)
//
// The conversation is deleted for all its users: each of them has it
// reset.
func (st *state) deleteConversationByID(c *call) (any, error) {
	cv, err := st.convByID(c)
	if err != nil {
		return nil, err
	}
	owners := []string{cv.a, cv.b}
	if cv.typ == chat.ConversationGroup {
		owners = owners[:0]
		for uid := range st.users {
			owners = append(owners, uid)
		}
	}
	for _, uid := range owners {
		if st.hasOwner(cv, uid) {
			st.hideConversation(uid, cv)
		}
	}
	return data(chat.Result{Success: true, Message: "The conversation " + cv.id + " has been deleted for all the users."}), nil
}

// convByID returns the conversation of the path's {conversationId}, which
// the onBehalfOf user must own (access.go).
func (st *state) convByID(c *call) (*derivedConv, error) {
	return st.ownConversation(c.onBehalfOf, strings.ToLower(c.r.PathValue("conversationId")))
}

// GET /v3/conversations/pinned
func (st *state) listAppPins(c *call) (any, error) {
	return data(st.appPinList()), nil
}

func (st *state) appPinList() []pinWire {
	out := make([]pinWire, len(st.appPins))
	for i, p := range st.appPins {
		out[i] = pinWire{ConversationID: p.id(), ConversationType: p.typ(), PinnedBy: appSystem, PinnedAt: p.pinnedAt}
	}
	return out
}

// PUT /v3/conversations/pinned
//
// Conversations that stay pinned keep their pinnedAt. The users and groups
// named must exist.
func (st *state) replaceAppPins(c *call) (any, error) {
	var b struct {
		PinnedConversations *[]json.RawMessage `json:"pinnedConversations"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.PinnedConversations == nil {
		return nil, validationError(map[string][]string{"pinnedConversations": {"The pinnedConversations field is required."}})
	}
	var v validator
	var refs []chat.ConversationRef
	for i, raw := range *b.PinnedConversations {
		var ref chat.ConversationRef
		field := "pinnedConversations." + strconv.Itoa(i)
		if json.Unmarshal(raw, &ref) != nil || (ref.UID == "") == (ref.GUID == "") {
			v.add(field, "The %s must have either a uid or a guid.", field)
			continue
		}
		ref.UID, ref.GUID = strings.ToLower(ref.UID), strings.ToLower(ref.GUID)
		dup := false
		for _, r := range refs {
			dup = dup || r == ref
		}
		if !dup {
			refs = append(refs, ref)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if len(refs) > maxAppPins {
		return nil, errSystemPinnedLimit()
	}
	for _, r := range refs {
		if r.UID != "" && st.activeUser(r.UID) == nil {
			return nil, errUIDNotFound(r.UID)
		}
		if r.GUID != "" && !st.groupExists(r.GUID) {
			return nil, errGUIDNotFound(r.GUID)
		}
	}
	pins := make([]appPin, len(refs))
	for i, r := range refs {
		pins[i] = appPin{ref: r, pinnedAt: c.timestamp()}
		for _, old := range st.appPins {
			if old.ref == r {
				pins[i].pinnedAt = old.pinnedAt
			}
		}
	}
	st.appPins = pins
	touchField(st, &st.appPins)
	return data(st.appPinList()), nil
}
