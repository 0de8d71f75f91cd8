package fake

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

const (
	// maxPinnedPerConversation is how many messages a conversation may
	// have pinned; app and user pins share it (see CHOICES.md).
	maxPinnedPerConversation = 100
	// maxSavedPerUser is how many messages a user may have saved.
	maxSavedPerUser = 100
)

// extrasState holds what hangs off messages beyond the messages
// themselves: the counters of pins and saves, and the reaction ids. The
// reactions, saves, interactions, subscriptions and flags are kept on each
// msgRec.
type extrasState struct {
	reactionSeq int64          // the last reaction id
	pinned      map[string]int // pinned messages, by conversation id
	saved       map[string]int // saved messages, by uid
}

func (x *extrasState) init() {
	x.pinned = map[string]int{}
	x.saved = map[string]int{}
}

// ReactionRec is one user's reaction to a message.
type ReactionRec struct {
	id       int64
	uid      string
	reaction string
	at       chat.Timestamp
}

// extraMessageRoutes are the message routes beyond send, get, edit,
// delete, lists and threads (messages.go): reactions, pins, saves,
// interactions, the thread list and subscriptions, and flags.
func extraMessageRoutes() []route {
	return []route{
		{pattern: "GET /v3/messages/{id}/reactions", obo: oboOptional, reach: onMessage(needRead), handle: (*state).listReactions},
		{pattern: "GET /v3/messages/{id}/reactions/{reaction}", obo: oboOptional, reach: onMessage(needRead), handle: (*state).listReactions},
		{pattern: "POST /v3/messages/{id}/reactions/{reaction}", obo: oboRequired, reach: onMessage(needWrite), handle: (*state).addReaction},
		{pattern: "DELETE /v3/messages/{id}/reactions/{reaction}", obo: oboRequired, reach: onMessage(needRead), handle: (*state).removeReaction},
		{pattern: "POST /v3/messages/{id}/pin", obo: oboOptional, reach: onMessageID(needRead), handle: (*state).pinMessage},
		{pattern: "DELETE /v3/messages/{id}/pin", obo: oboOptional, reach: onMessageID(needRead), handle: (*state).unpinMessage},
		{pattern: "POST /v3/messages/{id}/save", obo: oboRequired, reach: onMessageID(needRead), handle: (*state).saveMessage},
		{pattern: "DELETE /v3/messages/{id}/save", obo: oboRequired, reach: onMessageID(needRead), handle: (*state).unsaveMessage},
		{pattern: "PATCH /v3/messages/{id}/interacted", obo: oboRequired, reach: onMessageID(needRead), handle: (*state).markInteracted},
		{pattern: "GET /v3/threads", obo: oboOptional, reach: listed, handle: (*state).listThreads},
		{pattern: "POST /v3/messages/{id}/thread/subscription", obo: oboRequired, reach: onMessage(needRead), handle: (*state).subscribeThread},
		{pattern: "DELETE /v3/messages/{id}/thread/subscription", obo: oboRequired, reach: onMessage(needRead), handle: (*state).unsubscribeThread},
		{pattern: "POST /v3/messages/{id}/flagged", obo: oboRequired, reach: onMessageID(needRead), handle: (*state).flagMessage},
	}
}

// addGroupAction stores the action message the service emits when a group
// member changes: category "action", type "groupMember", data.action
// (e.g. "added", "kicked", "banned", "unbanned", "scopeChanged"), sender
// "app_system", and entities by (the acting user, or app_system), on (the
// affected user) and for (the group), and records it as sent (the
// websocket pushes it to the group's members and the affected user).
// Groups call it; it is called with st.mu held. It returns the action
// message.
func (st *state) addGroupAction(now time.Time, action, byUID, onUID, guid string) *MsgRec {
	guid, byUID, onUID = strings.ToLower(guid), strings.ToLower(byUID), strings.ToLower(onUID)
	if byUID == "" {
		byUID = appSystem
	}
	ts := chat.TimestampOf(now)
	on := st.UserEntity(onUID)
	if byUID != appSystem && byUID != onUID {
		on.ConversationID = UserConversationID(byUID, onUID) // the on user's conversation with the by user
	}
	rec := st.addRec(chat.Message{
		ConversationID: "group_" + guid,
		Sender:         appSystem,
		ReceiverType:   chat.ReceiverGroup,
		Receiver:       guid,
		Category:       chat.CategoryAction,
		Type:           chat.MessageTypeGroupMember,
		Data: chat.MessageData{Action: action, Entities: &chat.Entities{
			By:  Entity(chat.EntityUser, st.UserEntity(byUID)),
			On:  Entity(chat.EntityUser, on),
			For: Entity(chat.EntityGroup, st.groupEntity(guid)),
		}},
		SentAt:    ts,
		UpdatedAt: ts,
	}, nil)
	st.record(GroupActionSent{M: rec})
	return rec
}

// recountExtras recomputes the pin and save counters from the messages,
// after messages were removed.
func (st *state) recountExtras() {
	clear(st.pinned)
	clear(st.saved)
	touchField(st, &st.pinned)
	touchField(st, &st.saved)
	for _, m := range st.messages {
		if m.m.PinnedAt != 0 {
			st.pinned[m.m.ConversationID]++
		}
		for uid := range m.saves {
			st.saved[uid]++
		}
	}
}

// forgetUser removes what uid left on m.
func (m *MsgRec) forgetUser(uid string) {
	m.reactions = slices.DeleteFunc(m.reactions, func(r *ReactionRec) bool { return r.uid == uid })
	delete(m.saves, uid)
	delete(m.interactions, uid)
	delete(m.subscribers, uid)
	m.flags = slices.DeleteFunc(m.flags, func(f MessageFlag) bool { return f.UID == uid })
}

// reactionCounts tallies m's reactions by emoji, in the order each emoji
// was first used; reactedByMe is set when viewer is a user. It is nil when
// m has no reactions.
func (m *MsgRec) reactionCounts(viewer string) []chat.ReactionCount {
	var out []chat.ReactionCount
	for _, r := range m.reactions {
		i := slices.IndexFunc(out, func(c chat.ReactionCount) bool { return c.Reaction == r.reaction })
		if i < 0 {
			out = append(out, chat.ReactionCount{Reaction: r.reaction})
			i = len(out) - 1
			if viewer != "" {
				out[i].ReactedByMe = new(bool)
			}
		}
		out[i].Count++
		if viewer != "" && r.uid == viewer {
			*out[i].ReactedByMe = true
		}
	}
	return out
}

// reactableMessage returns the message of the path for a change by the
// onBehalfOf user: it must exist, be visible to them and not be deleted.
func (st *state) reactableMessage(c *call) (*MsgRec, error) {
	id := c.r.PathValue("id")
	m, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	if m.m.DeletedAt != 0 {
		return nil, errMessageActionNotAllowed(id, "the message is deleted.")
	}
	return m, nil
}

// POST /v3/messages/{id}/reactions/{reaction} (onBehalfOf required)
//
// A user reacts once per emoji: adding a reaction again changes nothing.
// The answer is the message with data.reactions relative to the user.
func (st *state) addReaction(c *call) (any, error) {
	m, err := st.reactableMessage(c)
	if err != nil {
		return nil, err
	}
	emoji := c.r.PathValue("reaction")
	if !slices.ContainsFunc(m.reactions, func(r *ReactionRec) bool { return r.uid == c.onBehalfOf && r.reaction == emoji }) {
		st.notifSync() // the notifications of the messages sent before come first
		st.reactionSeq++
		r := &ReactionRec{id: st.reactionSeq, uid: c.onBehalfOf, reaction: emoji, at: c.timestamp()}
		m.reactions = append(m.reactions, r)
		st.touchMsg(m)
		st.notifLogReaction(m, r)
		st.record(ReactionAdded{M: m, R: r})
		st.messageChanged(m)
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// DELETE /v3/messages/{id}/reactions/{reaction} (onBehalfOf required)
//
// Removing a reaction the user does not have changes nothing.
func (st *state) removeReaction(c *call) (any, error) {
	id := c.r.PathValue("id")
	m, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	emoji := c.r.PathValue("reaction")
	if i := slices.IndexFunc(m.reactions, func(r *ReactionRec) bool { return r.uid == c.onBehalfOf && r.reaction == emoji }); i >= 0 {
		st.record(ReactionRemoved{M: m, R: m.reactions[i]})
		m.reactions = slices.Delete(m.reactions, i, i+1)
		st.touchMsg(m)
	}
	st.messageChanged(m)
	return data(m.wire(c.onBehalfOf, true)), nil
}

// GET /v3/messages/{id}/reactions[/{reaction}]
//
// Reactions in the order they were added, cursor-paginated by reaction id
// (limit default 10, affix, id; sentAt does not apply): meta.next is
// {affix, id}.
func (st *state) listReactions(c *call) (any, error) {
	m, err := st.visibleMessage(c, c.r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	q, err := c.cursorOnly()
	if err != nil {
		return nil, err
	}
	q.hasSentAt, q.sentAt = false, 0
	emoji := c.r.PathValue("reaction")
	items := m.reactions
	if emoji != "" {
		items = slices.DeleteFunc(slices.Clone(items), func(r *ReactionRec) bool { return r.reaction != emoji })
	}
	page, next := cursorPage(items, func(r *ReactionRec) (int64, int64) { return r.id, int64(r.at) }, nil, q)
	if next != nil {
		next.SentAt = 0
	}
	out := make([]chat.Reaction, len(page))
	for i, r := range page {
		by := st.UserEntity(r.uid)
		out[i] = chat.Reaction{ID: strconv.FormatInt(r.id, 10), MessageID: m.m.ID, Reaction: r.reaction, UID: r.uid, ReactedAt: r.at, ReactedBy: &by}
	}
	return chat.Page[chat.Reaction]{Data: out, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: q.limit, Count: len(out)}, Next: next}}, nil
}

// pinTarget returns the message of the path for a pin or unpin, or
// ERR_MESSAGE_ID_NOT_FOUND when the acting user, if any, does not see it.
func (st *state) pinTarget(c *call) (*MsgRec, error) {
	return st.visibleMessageID(c, c.r.PathValue("id"))
}

// POST /v3/messages/{id}/pin
//
// Without onBehalfOf the app pins (pinnedBy "app_system"). Pinning a
// pinned message changes nothing. A conversation holds at most 100 pinned
// messages, app and user pins together.
func (st *state) pinMessage(c *call) (any, error) {
	m, err := st.pinTarget(c)
	if err != nil {
		return nil, err
	}
	switch {
	case m.m.Category == chat.CategoryAction:
		return nil, errMessageActionNotAllowed(m.m.ID, "action messages cannot be pinned.")
	case m.m.DeletedAt != 0:
		return nil, errMessageActionNotAllowed(m.m.ID, "the message is deleted.")
	}
	if m.m.PinnedAt == 0 {
		if st.pinned[m.m.ConversationID] >= maxPinnedPerConversation {
			return nil, errPinnedMessagesLimit(m.m.ConversationID)
		}
		st.pinned[m.m.ConversationID]++
		touch(st, &st.pinned, m.m.ConversationID)
		m.m.PinnedBy, m.m.PinnedAt = actingUID(c), c.timestamp()
		st.touchMsg(m)
		st.messageChanged(m)
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// DELETE /v3/messages/{id}/pin
//
// Idempotent; anyone taking part in the conversation may unpin.
func (st *state) unpinMessage(c *call) (any, error) {
	m, err := st.pinTarget(c)
	if err != nil {
		return nil, err
	}
	if m.m.PinnedAt != 0 {
		st.pinned[m.m.ConversationID]--
		touch(st, &st.pinned, m.m.ConversationID)
		m.m.PinnedBy, m.m.PinnedAt = "", 0
		st.touchMsg(m)
		st.messageChanged(m)
	}
	return data(m.wire(c.onBehalfOf, true)), nil
}

// savableMessage returns the message of the path for a save, an unsave, a
// mark as interacted or a flag, or ERR_MESSAGE_ID_NOT_FOUND when the user
// does not see it.
func (st *state) savableMessage(c *call) (*MsgRec, error) {
	return st.visibleMessageID(c, c.r.PathValue("id"))
}

// POST /v3/messages/{id}/save (onBehalfOf required)
//
// Idempotent: the first savedAt stays. A user saves at most 100 messages.
func (st *state) saveMessage(c *call) (any, error) {
	m, err := st.savableMessage(c)
	if err != nil {
		return nil, err
	}
	uid := c.onBehalfOf
	if _, ok := m.saves[uid]; !ok {
		if st.saved[uid] >= maxSavedPerUser {
			return nil, errSavedMessagesLimit(uid)
		}
		if m.saves == nil {
			m.saves = map[string]chat.Timestamp{}
		}
		m.saves[uid] = c.timestamp()
		st.touchMsg(m)
		st.saved[uid]++
		touch(st, &st.saved, uid)
	}
	return data(m.wire(uid, true)), nil
}

// DELETE /v3/messages/{id}/save (onBehalfOf required)
func (st *state) unsaveMessage(c *call) (any, error) {
	m, err := st.savableMessage(c)
	if err != nil {
		return nil, err
	}
	uid := c.onBehalfOf
	if _, ok := m.saves[uid]; ok {
		delete(m.saves, uid)
		st.touchMsg(m)
		st.saved[uid]--
		touch(st, &st.saved, uid)
	}
	return data(m.wire(uid, true)), nil
}

// elementIDs returns the ids of the elements an interactive message
// declares: those of its form fields, submit element and card actions, of
// its interaction goal, and any "elementId" in custom content.
func elementIDs(d chat.MessageData) []string {
	var ids []string
	if g := d.InteractionGoal; g != nil {
		ids = append(ids, g.ElementIDs...)
	}
	if d.InteractiveData != nil {
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if id, ok := x["elementId"].(string); ok && id != "" {
					ids = append(ids, id)
				}
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		var tree any
		if b, err := json.Marshal(d.InteractiveData); err == nil && json.Unmarshal(b, &tree) == nil {
			walk(tree)
		}
	}
	return ids
}

// PATCH /v3/messages/{id}/interacted (onBehalfOf required)
//
// Only interactive messages; every id must be an element the message
// declares; the sender may interact only when allowSenderInteraction is
// set. Idempotent: an element keeps its first interactedAt.
func (st *state) markInteracted(c *call) (any, error) {
	m, err := st.savableMessage(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Interactions []string `json:"interactions"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if len(b.Interactions) == 0 {
		return nil, validationError(map[string][]string{"interactions": {"The interactions field is required."}})
	}
	id, uid := m.m.ID, c.onBehalfOf
	switch allow := m.m.Data.AllowSenderInteraction; {
	case m.m.Category != chat.CategoryInteractive:
		return nil, errMessageActionNotAllowed(id, "only interactive messages can be marked as interacted.")
	case uid == m.m.Sender && (allow == nil || !*allow):
		return nil, errMessageActionNotAllowed(id, "the sender may not interact with this message (allowSenderInteraction is not set).")
	}
	declared := elementIDs(m.m.Data)
	var v validator
	for i, e := range b.Interactions {
		if !slices.Contains(declared, e) {
			v.add(fmt.Sprintf("interactions.%d", i), "The element %q is not declared by the message.", e)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if m.interactions == nil {
		m.interactions = map[string][]chat.Interaction{}
	}
	for _, e := range b.Interactions {
		if !slices.ContainsFunc(m.interactions[uid], func(x chat.Interaction) bool { return x.ElementID == e }) {
			m.interactions[uid] = append(m.interactions[uid], chat.Interaction{ElementID: e, InteractedAt: c.timestamp()})
			st.touchMsg(m)
		}
	}
	return data(chat.Result{Success: true, Message: "The message " + id + " has been marked as interacted."}), nil
}

// POST /v3/messages/{id}/flagged (onBehalfOf required)
//
// reasonId must name a moderation reason (ERR_REASON_NOT_FOUND). The
// answer is {}; a user flagging a message again
// replaces their flag.
func (st *state) flagMessage(c *call) (any, error) {
	m, err := st.savableMessage(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		ReasonID string `json:"reasonId"`
		Remark   string `json:"remark"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.ReasonID == "" {
		return nil, validationError(map[string][]string{"reasonId": {"The reasonId field is required."}})
	}
	if st.reasons[b.ReasonID] == nil {
		return nil, errReasonNotFound(b.ReasonID)
	}
	f := MessageFlag{UID: c.onBehalfOf, ReasonID: b.ReasonID, Remark: b.Remark, FlaggedAt: c.timestamp()}
	if i := slices.IndexFunc(m.flags, func(x MessageFlag) bool { return x.UID == f.UID }); i >= 0 {
		m.flags[i] = f
		st.touchMsg(m)
	} else {
		m.flags = append(m.flags, f)
		st.touchMsg(m)
	}
	return data(struct{}{}), nil
}
