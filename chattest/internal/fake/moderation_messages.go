package fake

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// The moderation messages API (/v3/moderation/messages) moderates messages
// of a chat the app runs elsewhere: a message submitted is kept with the
// verdict of the app's moderation rules, apart from the app's own
// conversations (it is not sent to anyone, listed with the chat's
// messages, pushed, notified or delivered to webhooks).

// modMessagesState holds the messages submitted for moderation.
type modMessagesState struct {
	modMsgs   []*MsgRec // in id order
	modMsgSeq int64
}

func moderationMessageRoutes() []route {
	routes := []route{
		{pattern: "POST /v3/moderation/messages", reach: appOnly, handle: (*state).submitModMessage},
		{pattern: "GET /v3/moderation/messages", reach: appOnly, handle: (*state).listModMessages},
		{pattern: "GET /v3/moderation/messages/{id}", reach: appOnly, handle: (*state).getModMessage},
		{pattern: "PUT /v3/moderation/messages/{id}", reach: appOnly, handle: (*state).updateModMessage},
		{pattern: "DELETE /v3/moderation/messages/{id}", reach: appOnly, handle: (*state).deleteModMessage},
	}
	for i := range routes {
		routes[i].handle = withModerationDefaults(routes[i].handle)
	}
	return routes
}

// modMessage returns the submitted message the path's id names, or 404
// ERR_MSG_NOT_FOUND.
func (st *state) modMessage(c *call) (*MsgRec, int, error) {
	id := c.r.PathValue("id")
	n, err := strconv.ParseInt(id, 10, 64)
	if err == nil {
		if i, ok := slices.BinarySearchFunc(st.modMsgs, n, func(m *MsgRec, id int64) int { return int(m.id - id) }); ok {
			return st.modMsgs[i], i, nil
		}
	}
	return nil, 0, errMsgNotFound(id)
}

// moderate gives the submitted message m the verdict of the app's rules
// on its text: "approved" when none matches, else "pending" for a rule
// that blocks messages (the review is the app's to make) or "disapproved"
// (with data.moderation.rule, the rule that matched).
func (st *state) moderate(m *MsgRec) {
	rule, _ := st.firstMatch(m)
	if rule == nil {
		m.m.Data.Moderation = &chat.Moderation{Status: ModApproved}
		return
	}
	w := rule.current()
	status := ModDisapproved
	if slices.Contains(w.Action, string(chat.ActionBlockMessage)) {
		status = ModPending
	}
	m.m.Data.Moderation = &chat.Moderation{Status: status, Rule: &chat.ModerationRuleRef{ID: w.ID, Name: w.Name}}
}

// modEntities are the entities of a submitted message, as the examples
// show them: the sender with its conversation id, and the receiver.
func (st *state) modEntities(sender string, rt chat.ReceiverType, receiver string) *chat.Entities {
	s := st.UserEntity(sender)
	s.ConversationID = conversationID(sender, rt, receiver)
	r := st.targetEntity(rt, receiver)
	return &chat.Entities{Sender: Entity(chat.EntityUser, s), Receiver: r}
}

// POST /v3/moderation/messages
//
// Submits a message for moderation: sender, receiver and receiverType are
// required; category defaults to message and type to text. The users (and
// the group) that do not exist are created from senderUserDetails,
// receiverUserDetails and receiverGroupDetails, as a data import creates
// them (404 without them). The answer is the message with its verdict in
// data.moderation.status.
func (st *state) submitModMessage(c *call) (any, error) {
	var b struct {
		MUID                 string             `json:"muid"`
		Category             chat.Category      `json:"category"`
		Type                 chat.MessageType   `json:"type"`
		Sender               string             `json:"sender"`
		Receiver             string             `json:"receiver"`
		ReceiverType         chat.ReceiverType  `json:"receiverType"`
		Data                 json.RawMessage    `json:"data"`
		SenderUserDetails    *chat.UserDetails  `json:"senderUserDetails"`
		ReceiverUserDetails  *chat.UserDetails  `json:"receiverUserDetails"`
		ReceiverGroupDetails *chat.GroupDetails `json:"receiverGroupDetails"`
		Tags                 []string           `json:"tags"`
		SentAt               chat.Timestamp     `json:"sentAt"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var data chat.MessageData
	var v validator
	if len(b.Data) > 0 && json.Unmarshal(b.Data, &data) != nil {
		v.add("data", "The data field must be an object.")
	}
	sender, receiver := strings.ToLower(b.Sender), strings.ToLower(b.Receiver)
	checkID(&v, "sender", sender)
	checkID(&v, "receiver", receiver)
	if b.ReceiverType != chat.ReceiverUser && b.ReceiverType != chat.ReceiverGroup {
		v.add("receiverType", `The receiverType must be "user" or "group".`)
	}
	checkTags(&v, "tags", b.Tags)
	for _, d := range []*chat.UserDetails{b.SenderUserDetails, b.ReceiverUserDetails} {
		if d != nil {
			st.checkImportUser(&v, "", d)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	x := st.newImportTx(c)
	if err := x.user(sender, b.SenderUserDetails); err != nil {
		return nil, err
	}
	if b.ReceiverType == chat.ReceiverGroup {
		if _, err := x.group(receiver, b.ReceiverGroupDetails, nil); err != nil {
			return nil, err
		}
	} else if err := x.user(receiver, b.ReceiverUserDetails); err != nil {
		return nil, err
	}
	x.commit()

	if b.Category == "" {
		b.Category = chat.CategoryMessage
	}
	if b.Type == "" {
		b.Type = chat.MessageTypeText
	}
	now := c.timestamp()
	sentAt := b.SentAt
	if sentAt == 0 {
		sentAt = now
	}
	data.Entities = st.modEntities(sender, b.ReceiverType, receiver)
	data.Reactions, data.Interactions, data.Moderation = nil, nil, nil
	st.modMsgSeq++
	m := &MsgRec{id: st.modMsgSeq, m: chat.Message{
		ID: strconv.FormatInt(st.modMsgSeq, 10), MUID: b.MUID, ConversationID: conversationID(sender, b.ReceiverType, receiver),
		Sender: sender, ReceiverType: b.ReceiverType, Receiver: receiver, Category: b.Category, Type: b.Type,
		Data: data, SentAt: sentAt, UpdatedAt: now, Tags: b.Tags,
	}, sentData: keptData(b.Data)}
	st.moderate(m)
	st.modMsgs = append(st.modMsgs, m)
	touchField(st, &st.modMsgs)
	return modAnswer(m), nil
}

// modAnswer is the answer of one submitted message.
func modAnswer(m *MsgRec) any { return data(m.wire("", true)) }

// GET /v3/moderation/messages
//
// The submitted messages, cursor-paginated as message lists are (limit
// default 100), filtered by sender, receiverUID, receiverGUID, category,
// type and moderationStatus.
func (st *state) listModMessages(c *call) (any, error) {
	p := c.params()
	q := cursorParams(p)
	if !p.q.Has("limit") {
		q.limit = 100
	}
	sender, category, typ := strings.ToLower(p.str("sender")), p.str("category"), p.str("type")
	uid, guid, status := strings.ToLower(p.str("receiverUID")), strings.ToLower(p.str("receiverGUID")), p.str("moderationStatus")
	if status != "" && status != ModApproved && status != ModPending && status != ModDisapproved {
		p.v.add("moderationStatus", `The moderationStatus must be "approved", "pending" or "disapproved".`)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	keep := func(m *MsgRec) bool {
		mm := &m.m
		return (sender == "" || mm.Sender == sender) &&
			(uid == "" || mm.ReceiverType == chat.ReceiverUser && mm.Receiver == uid) &&
			(guid == "" || mm.ReceiverType == chat.ReceiverGroup && mm.Receiver == guid) &&
			(category == "" || string(mm.Category) == category) && (typ == "" || string(mm.Type) == typ) &&
			(status == "" || mm.Data.Moderation != nil && mm.Data.Moderation.Status == status)
	}
	page, next := cursorPage(st.modMsgs, msgKey, keep, q)
	out := make([]wireMessage, len(page))
	for i, m := range page {
		out[i] = m.wire("", true)
	}
	return chat.Page[wireMessage]{Data: out, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: q.limit, Count: len(out)}, Next: next}}, nil
}

// GET /v3/moderation/messages/{id}
func (st *state) getModMessage(c *call) (any, error) {
	m, _, err := st.modMessage(c)
	if err != nil {
		return nil, err
	}
	return modAnswer(m), nil
}

// PUT /v3/moderation/messages/{id}
//
// data.text and data.metadata replace the message's when sent; the
// message, edited by the app (editedBy app_system), is moderated again.
func (st *state) updateModMessage(c *call) (any, error) {
	m, _, err := st.modMessage(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Data *struct {
			Text     *string        `json:"text"`
			Metadata map[string]any `json:"metadata"`
		} `json:"data"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.Data == nil {
		return nil, validationError(map[string][]string{"data": {"The data field is required."}})
	}
	if b.Data.Text != nil {
		m.m.Data.Text = *b.Data.Text
	}
	if b.Data.Metadata != nil {
		m.m.Data.Metadata = b.Data.Metadata
	}
	now := c.timestamp()
	m.m.EditedAt, m.m.EditedBy, m.m.UpdatedAt = now, appSystem, now
	st.moderate(m)
	return modAnswer(m), nil
}

// DELETE /v3/moderation/messages/{id}
func (st *state) deleteModMessage(c *call) (any, error) {
	m, i, err := st.modMessage(c)
	if err != nil {
		return nil, err
	}
	st.modMsgs = slices.Delete(st.modMsgs, i, i+1)
	touchField(st, &st.modMsgs)
	return data(chat.Result{Success: true, Message: "Message with id " + m.m.ID + " has been deleted successfully."}), nil
}
