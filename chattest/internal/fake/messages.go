package fake

import (
	"encoding/json"
	"maps"
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

// MsgRec is a stored message. A thread parent keeps its replies, oldest
// first, and m.ReplyCount and m.LastReply follow them. What hangs off the
// message (message_extras.go) is kept beside m, and shown by view relative
// to the user who asks.
type MsgRec struct {
	id      int64
	m       chat.Message
	parent  *MsgRec
	replies []*MsgRec
	// between are the two users of a one-on-one conversation: the sender
	// and receiver of the message, or of the message an action is about.
	between [2]string

	reactions    []*ReactionRec                // in the order they were added
	saves        map[string]chat.Timestamp     // savedAt by uid
	interactions map[string][]chat.Interaction // by uid, in the order marked
	subscribers  map[string]bool               // thread subscriptions, by uid
	flags        []MessageFlag                 // in the order flagged
	// sentData holds the members of the data sent that answers echo as
	// sent (see keptData), over m.Data's.
	sentData map[string]json.RawMessage
}

func messageRoutes() []route {
	return []route{
		{pattern: "POST /v3/messages", obo: oboOptional, reach: toReceiver(needSend), handle: (*state).sendMessage},
		{pattern: "GET /v3/messages", obo: oboOptional, reach: listed, handle: (*state).listMessages},
		{pattern: "GET /v3/messages/{id}", obo: oboOptional, reach: onMessage(needRead), handle: (*state).getMessage},
		{pattern: "PUT /v3/messages/{id}", obo: oboOptional, reach: onMessage(needWrite), handle: (*state).updateMessage},
		{pattern: "DELETE /v3/messages/{id}", obo: oboOptional, reach: onMessage(needRead), handle: (*state).deleteMessage},
		{pattern: "GET /v3/users/{uid}/messages", obo: oboOptional, reach: onPeer(needRead), handle: (*state).listUserMessages},
		{pattern: "GET /v3/groups/{guid}/messages", obo: oboOptional, reach: onGroup(needRead), handle: (*state).listGroupMessages},
		{pattern: "POST /v3/bots/{uid}/messages", reach: appOnly, handle: (*state).sendBotMessage},
		{pattern: "POST /v3/messages/{id}/thread", obo: oboRequired, reach: onMessage(needSend), handle: (*state).sendThreadMessage},
		{pattern: "GET /v3/messages/{id}/thread", obo: oboOptional, reach: onMessage(needRead), handle: (*state).listThread},
	}
}

// lookupMessage returns the stored message id, or nil.
func (st *state) lookupMessage(id string) *MsgRec {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil
	}
	return st.msgByID[n]
}

// sendBody is the body of send-message, send-thread-message and
// send-bot-message. multipleReceivers is accepted but not acted on.
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

// UserEntity returns the user uid as entities show it: without tags, and
// with only its uid when it is not stored (app_system, a deleted user).
func (st *state) UserEntity(uid string) chat.User {
	if uid == appSystem {
		return chat.User{UID: appSystem, Name: "System", Role: "default", Status: chat.UserOffline, CreatedAt: st.since}
	}
	if u := st.users[uid]; u != nil {
		return u.view(false)
	}
	return chat.User{UID: uid}
}

// groupEntity returns the group guid as entities show it.
func (st *state) groupEntity(guid string) chat.Group {
	if g, ok := st.groupInfo(guid, ""); ok {
		return g
	}
	return chat.Group{GUID: guid, ConversationID: "group_" + guid}
}

// conversationID is the id of the conversation of a message from sender to
// receiver: "{a}_user_{b}" with the uids sorted, or "group_{guid}".
func conversationID(sender string, rt chat.ReceiverType, receiver string) string {
	if rt == chat.ReceiverGroup {
		return "group_" + receiver
	}
	a, z := sender, receiver
	if a > z {
		a, z = z, a
	}
	return a + "_user_" + z
}

// targetEntity returns the receiver of a message as the "for" entity of
// an action about it shows it: the group, or the user without a
// conversation id.
func (st *state) targetEntity(rt chat.ReceiverType, receiver string) *chat.Entity {
	if rt == chat.ReceiverGroup {
		return Entity(chat.EntityGroup, st.groupEntity(receiver))
	}
	return Entity(chat.EntityUser, st.UserEntity(receiver))
}

// receiverEntity returns the receiver of a message from sender as entities
// show it.
func (st *state) receiverEntity(sender string, rt chat.ReceiverType, receiver string) *chat.Entity {
	if rt == chat.ReceiverGroup {
		return Entity(chat.EntityGroup, st.groupEntity(receiver))
	}
	u := st.UserEntity(receiver)
	u.ConversationID = conversationID(sender, rt, receiver)
	return Entity(chat.EntityUser, u)
}

// checkReceiver checks that sender may message receiver: a user receiver
// must be active and neither block nor be blocked by sender; a group must
// be one sender sees, and a user sender must be a member (the app may send
// to any group).
func (st *state) checkReceiver(sender string, rt chat.ReceiverType, receiver string) error {
	if rt == chat.ReceiverGroup {
		return st.checkGroupMember(sender, receiver) // access.go
	}
	if st.activeUser(receiver) == nil {
		return errUIDNotFound(receiver)
	}
	if sender == appSystem {
		return nil
	}
	if st.isBlocked(receiver, sender) {
		return errBlockedSender(sender, receiver)
	}
	if st.isBlocked(sender, receiver) {
		return errBlockedReceiver(sender, receiver)
	}
	return nil
}

// storeMessage validates the body and stores a message from sender (a uid
// or app_system) as a reply to parent, or on its own when parent is nil.
//
// A body whose muid sender already used is the same message sent again (a
// retry whose answer was lost): the stored message is returned, and nothing
// is stored, moderated or emitted. See messageByMUID.
func (st *state) storeMessage(c *call, sender string, parent *MsgRec) (*MsgRec, error) {
	if utf8.RuneCount(c.body) > maxMessageChars {
		return nil, validationError(map[string][]string{"message": {"The message may not be greater than 65536 characters."}})
	}
	var b sendBody
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if prev := st.messageByMUID(sender, b.MUID); prev != nil {
		return prev, nil
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

	receiver := strings.ToLower(b.Receiver)
	if err := st.checkReceiver(sender, b.ReceiverType, receiver); err != nil {
		return nil, err
	}
	convID := conversationID(sender, b.ReceiverType, receiver)
	if parent != nil && parent.m.ConversationID != convID {
		return nil, errWrongMessageThread(parent.m.ID)
	}
	var quoted *chat.Message
	if b.QuotedMessageID != "" {
		q, err := st.messageFor(sender, b.QuotedMessageID, errMsgNotFound) // access.go: only what sender sees
		if err != nil {
			return nil, err
		}
		qm := q.m
		quoted = &qm
	}

	now := c.timestamp()
	b.Data.Entities = &chat.Entities{Sender: Entity(chat.EntityUser, st.UserEntity(sender)), Receiver: st.receiverEntity(sender, b.ReceiverType, receiver)}
	b.Data.Mentions = st.mentionedUsers(b.Data.Text)
	b.Data.Reactions, b.Data.Interactions = nil, nil
	var raw struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(c.body, &raw) // decoded above
	rec := st.addRec(chat.Message{
		MUID:           b.MUID,
		ConversationID: convID,
		Sender:         sender,
		ReceiverType:   b.ReceiverType,
		Receiver:       receiver,
		Category:       b.Category,
		Type:           b.Type,
		Data:           b.Data,
		SentAt:         now,
		UpdatedAt:      now,
		Tags:           b.Tags,
		QuotedMessage:  quoted,
	}, parent)
	rec.sentData = keptData(raw.Data)
	st.touchMsg(rec)
	st.moderateMessage(rec, now)
	st.record(MessageSent{M: rec, Device: c.device()})
	return rec, nil
}

// messageByMUID returns the stored message that sender sent with the
// client-side id muid, or nil; an empty muid matches nothing, so a send
// without one is never taken for another. The muid identifies the message
// for its sender only, whatever the rest of the body says: another sender's
// message with the same muid is another message, and a repeated muid
// answers the message first sent with it, even if the body differs (say,
// another receiver or parent). A message removed for good frees its muid.
// This is the fake's choice (see CHOICES.md).
//
// An index kept by addRec and removeRecs finds it in constant time.
func (st *state) messageByMUID(sender, muid string) *MsgRec {
	if muid == "" {
		return nil
	}
	return st.msgByMUID[muidKey{sender, muid}]
}

// muidKey identifies a message by its sender and client-side id.
type muidKey struct{ sender, muid string }

// addRec stores m with the next id, as a reply to parent when it is not
// nil, and returns it.
func (st *state) addRec(m chat.Message, parent *MsgRec) *MsgRec {
	return st.addRecBetween(m, parent, [2]string{m.Sender, m.Receiver})
}

// addRecBetween is addRec for a message whose one-on-one conversation is
// that of between (see msgRec), e.g. an action about another message.
func (st *state) addRecBetween(m chat.Message, parent *MsgRec, between [2]string) *MsgRec {
	st.lastMsgID++
	m.ID = strconv.FormatInt(st.lastMsgID, 10)
	rec := &MsgRec{id: st.lastMsgID, m: m, parent: parent, between: between}
	if parent != nil {
		rec.m.ParentID = parent.m.ID
		parent.replies = append(parent.replies, rec)
		parent.refreshThread()
		parent.m.UpdatedAt = max(parent.m.UpdatedAt, m.SentAt)
		st.touchMsg(parent)
	}
	st.messages = append(st.messages, rec)
	st.indexMessage(rec)
	st.convAdd(rec)
	st.msgByID[rec.id] = rec
	st.touchMsg(rec)
	if m.MUID != "" {
		st.msgByMUID[muidKey{m.Sender, m.MUID}] = rec
		touch(st, &st.msgByMUID, muidKey{m.Sender, m.MUID})
	}
	return rec
}

// Entity is {"entity": v, "entityType": t}. v is a user, group or message
// built by the fake, which always encodes.
func Entity(t chat.EntityType, v any) *chat.Entity {
	b, _ := json.Marshal(v)
	return &chat.Entity{Entity: b, EntityType: t}
}

// refreshThread sets ReplyCount and LastReply from the replies.
func (m *MsgRec) refreshThread() {
	m.m.ReplyCount = len(m.replies)
	m.m.LastReply = nil
	if n := len(m.replies); n > 0 {
		last := m.replies[n-1].m
		if es := last.Data.Entities; es != nil { // a copy of its own, as the service's
			c := chat.Entities{Sender: copyEntity(es.Sender), Receiver: copyEntity(es.Receiver), By: copyEntity(es.By), On: copyEntity(es.On), For: copyEntity(es.For)}
			last.Data.Entities = &c
		}
		m.m.LastReply = &last
	}
}

// copyEntity returns a copy of e.
func copyEntity(e *chat.Entity) *chat.Entity {
	if e == nil {
		return nil
	}
	c := *e
	return &c
}

// view is the message as viewer ("" for the app) sees it: the reaction
// counts (with reactedByMe when viewer is a user), and viewer's savedAt and
// interactions. withTags false leaves the tags out, as lists do without
// withTags.
// dataFields are the members of a message's data that the fake reads or
// sets itself; the others are kept as sent (keptData).
var dataFields = map[string]bool{"text": true, "metadata": true, "url": true, "resource": true, "customData": true,
	"entities": true, "action": true, "reactions": true, "moderation": true, "interactionGoal": true,
	"allowSenderInteraction": true, "interactiveData": true, "interactions": true}

// keptData returns the members of the data object raw that answers echo
// as they were sent: those the fake does not read (the service keeps any
// member, e.g. customData beside a typo of it, or a scheduler's receiver),
// and the attachments (whose size, say, stays a string when sent as one).
func keptData(raw json.RawMessage) map[string]json.RawMessage {
	var d map[string]json.RawMessage
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	for k := range d {
		if dataFields[k] {
			delete(d, k)
		}
	}
	if len(d) == 0 {
		return nil
	}
	return d
}

// wireMessage is a message as an answer shows it: the message, with the
// members of its data kept as sent.
type wireMessage struct {
	chat.Message
	sentData map[string]json.RawMessage
}

// MarshalJSON encodes the message with the data members kept as sent
// over those of its data.
func (w wireMessage) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(w.Message)
	if err != nil || len(w.sentData) == 0 {
		return b, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	d := map[string]json.RawMessage{}
	if raw, ok := top["data"]; ok {
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, err
		}
	}
	maps.Copy(d, w.sentData)
	if top["data"], err = json.Marshal(d); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}

// wire is the message as answers show it to viewer (view), with its data
// as sent.
func (m *MsgRec) wire(viewer string, withTags bool) wireMessage {
	return wireMessage{m.view(viewer, withTags), m.sentData}
}

func (m *MsgRec) view(viewer string, withTags bool) chat.Message {
	v := m.m
	if !withTags {
		v.Tags = nil
	}
	v.Data.Reactions = m.reactionCounts(viewer)
	v.Data.Interactions = nil
	v.SavedAt = 0
	if viewer != "" {
		v.SavedAt = m.saves[viewer]
		v.Data.Interactions = slices.Clone(m.interactions[viewer])
	}
	return v
}

// removeRecs removes the messages gone reports, and the replies in the
// threads of removed messages, then settles the counters that hang off
// messages.
func (st *state) removeRecs(gone func(*MsgRec) bool) {
	kept := st.messages[:0]
	for _, m := range st.messages { // parents come before their replies
		if gone(m) || m.parent != nil && st.msgByID[m.parent.id] == nil {
			delete(st.msgByID, m.id)
			st.touchMsg(m)
			if k := (muidKey{m.m.Sender, m.m.MUID}); st.msgByMUID[k] == m {
				delete(st.msgByMUID, k)
				touch(st, &st.msgByMUID, k)
			}
			continue
		}
		kept = append(kept, m)
	}
	clear(st.messages[len(kept):])
	st.messages = kept
	st.reindexMessages()
	st.reindexConversations()
	for _, m := range st.messages {
		if n := len(m.replies); n > 0 {
			m.replies = slices.DeleteFunc(m.replies, func(r *MsgRec) bool { return st.msgByID[r.id] == nil })
			if len(m.replies) != n {
				m.refreshThread()
				st.touchMsg(m)
			}
		}
	}
	st.recountExtras()
}

// removeMessagesOf removes the messages uid sent or received, and the
// replies in their threads, and what uid left on other messages:
// reactions, saves, interactions, subscriptions and flags (a user's
// permanent deletion).
func (st *state) removeMessagesOf(uid string) {
	for _, m := range st.messages {
		m.forgetUser(uid)
		st.touchMsg(m)
	}
	st.removeRecs(func(m *MsgRec) bool {
		return m.m.Sender == uid || m.m.ReceiverType == chat.ReceiverUser && (m.between[0] == uid || m.between[1] == uid)
	})
}

// POST /v3/messages
//
// The sender is the onBehalfOf user, or "app_system" without the header.
// A muid the sender already used answers 200 with the message first sent
// with it, stored and announced once (see messageByMUID).
func (st *state) sendMessage(c *call) (any, error) {
	m, err := st.storeMessage(c, actingUID(c), nil)
	if err != nil {
		return nil, err
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// POST /v3/bots/{uid}/messages
//
// The bot is a user of the app; it sends the message. A muid the bot
// already used answers the message first sent with it (see messageByMUID).
func (st *state) sendBotMessage(c *call) (any, error) {
	uid := c.uid("uid")
	if st.activeUser(uid) == nil {
		return nil, errUIDNotFound(uid)
	}
	m, err := st.storeMessage(c, uid, nil)
	if err != nil {
		return nil, err
	}
	return data(m.wire(uid, true)), nil
}

// GET /v3/messages/{id}
func (st *state) getMessage(c *call) (any, error) {
	m, err := st.visibleMessage(c, c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// POST /v3/messages/{id}/thread (onBehalfOf required)
//
// A muid the sender already used answers the message first sent with it
// (see messageByMUID).
func (st *state) sendThreadMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	parent, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	if parent.parent != nil {
		return nil, errThreadNesting(id)
	}
	if parent.m.Category == chat.CategoryAction || parent.m.Category == chat.CategoryCall {
		return nil, errWrongThreadCategory(id)
	}
	m, err := st.storeMessage(c, c.onBehalfOf, parent)
	if err != nil {
		return nil, err
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// GET /v3/messages/{id}/thread
//
// Cursor-paginated; see cursorPage.
func (st *state) listThread(c *call) (any, error) {
	parent, err := st.visibleMessage(c, c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	q, err := c.cursorOnly()
	if err != nil {
		return nil, err
	}
	page, next := cursorPage(parent.replies, msgKey, nil, q)
	out := make([]chat.Message, len(page))
	for i, m := range page {
		out[i] = m.view(c.onBehalfOf, true)
	}
	return chat.Page[chat.Message]{Data: out, Meta: chat.PageMeta{
		Current: &chat.PageCount{Limit: q.limit, Count: len(out)},
		Next:    next,
	}}, nil
}

// msgKey is the cursor key of a message: its id and sentAt.
func msgKey(m *MsgRec) (int64, int64) { return m.id, int64(m.m.SentAt) }

// PUT /v3/messages/{id}
//
// The sender edits their message (the app, without onBehalfOf, any
// message): data.text and data.metadata replace the message's when sent,
// and tags when sent. The answer is the "edited" action message the
// service emits; the edited message is
// its data.entities.on.
func (st *state) updateMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	m, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	var b struct {
		Data *struct {
			Text     *string        `json:"text"`
			Metadata map[string]any `json:"metadata"`
		} `json:"data"`
		Tags []string `json:"tags"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkTags(&v, "tags", b.Tags)
	if err := v.err(); err != nil {
		return nil, err
	}
	switch {
	case m.m.Category == chat.CategoryAction || m.m.Category == chat.CategoryCall:
		return nil, errMessageActionNotAllowed(id, "action and call messages cannot be edited.")
	case m.m.DeletedAt != 0:
		return nil, errMessageActionNotAllowed(id, "the message is deleted.")
	case c.onBehalfOf != "" && c.onBehalfOf != m.m.Sender:
		return nil, errMessageNotASender(id, c.onBehalfOf)
	}
	now := c.timestamp()
	if b.Data != nil {
		if b.Data.Text != nil {
			m.m.Data.Text = *b.Data.Text
			m.m.Data.Mentions = st.mentionedUsers(m.m.Data.Text)
		}
		if b.Data.Metadata != nil {
			m.m.Data.Metadata = b.Data.Metadata
		}
	}
	if b.Tags != nil {
		m.m.Tags = b.Tags
	}
	editor := actingUID(c)
	m.m.EditedAt, m.m.EditedBy, m.m.UpdatedAt = now, editor, now
	st.touchMsg(m)
	st.messageChanged(m)
	return data(st.addMessageAction(c, m, chat.ActionEdited, editor).view(c.onBehalfOf, true)), nil
}

// DELETE /v3/messages/{id}
//
// The sender deletes their message, as may a group's admins and
// moderators (and the app, without onBehalfOf, any message). A soft delete
// keeps the message with deletedAt set; a permanent one removes it, its
// thread and what hangs off it. The answer is the "deleted" action message,
// whose data.entities.on is the message as deleted.
func (st *state) deleteMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	m, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	var b struct {
		Permanent bool `json:"permanent"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if obo := c.onBehalfOf; obo != "" && obo != m.m.Sender {
		scope, _ := st.memberScope(m.m.Receiver, obo)
		if m.m.ReceiverType != chat.ReceiverGroup || scope != chat.MemberAdmin && scope != chat.MemberModerator {
			return nil, errMessageNotASender(id, obo)
		}
	}
	if m.m.DeletedAt != 0 && !b.Permanent {
		return nil, errMessageActionNotAllowed(id, "the message is already deleted.")
	}
	now := c.timestamp()
	st.convRemove(m)
	m.m.DeletedAt, m.m.DeletedBy, m.m.UpdatedAt = now, actingUID(c), now
	st.touchMsg(m)
	st.messageChanged(m)
	action := st.addMessageAction(c, m, chat.ActionDeleted, actingUID(c))
	if b.Permanent {
		st.removeMessage(m) // lifecycle.go
	}
	return data(action.view(c.onBehalfOf, true)), nil
}

// messageChanged refreshes the copies of m that its thread's parent keeps.
func (st *state) messageChanged(m *MsgRec) {
	if p := m.parent; p != nil && len(p.replies) > 0 && p.replies[len(p.replies)-1] == m {
		p.refreshThread()
		st.touchMsg(p)
	}
}

// addMessageAction stores the action message the service emits when m is
// edited or deleted: category "action", type "message", sent by who acted,
// with entities by (who acted), on (m as it now is) and for (m's receiver).
// It is sent at the time of c, from c's client, and recorded (events.go).
func (st *state) addMessageAction(c *call, m *MsgRec, action, by string) *MsgRec {
	now := c.timestamp()
	on := m.m
	on.Data.Reactions = m.reactionCounts("")
	rec := st.addRecBetween(chat.Message{
		ConversationID: m.m.ConversationID,
		Sender:         by,
		ReceiverType:   m.m.ReceiverType,
		Receiver:       m.m.Receiver,
		Category:       chat.CategoryAction,
		Type:           chat.MessageTypeMessage,
		Data: chat.MessageData{Action: action, Entities: &chat.Entities{
			By:  Entity(chat.EntityUser, st.UserEntity(by)),
			On:  Entity(chat.EntityMessage, wireMessage{on, m.sentData}),
			For: st.targetEntity(m.m.ReceiverType, m.m.Receiver),
		}},
		SentAt:    now,
		UpdatedAt: now,
	}, nil, m.between)
	st.record(MessageActed{Action: action, M: rec, Device: c.device()})
	return rec
}

// Messages does the work of chattest.Server.Messages, which documents it.
func (s *Core) Messages() []chat.Message {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]chat.Message, len(st.messages))
	for i, m := range st.messages {
		out[i] = m.view("", true)
	}
	return clone(out)
}

// Message does the work of chattest.Server.Message, which documents it.
func (s *Core) Message(id string) (chat.Message, bool) { return s.MessageAs(id, "") }

// actingUID is who acts in c: the onBehalfOf user, or app_system.
func actingUID(c *call) string {
	if c.onBehalfOf != "" {
		return c.onBehalfOf
	}
	return appSystem
}
