package fake

import (
	"slices"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// BlockedRec is a message a rule blocked, awaiting review.
type BlockedRec struct {
	msg                          *MsgRec
	ruleID, ruleName, revisionID string
	cond                         ruleCondWire
	action                       []string
	createdAt, updatedAt         chat.Timestamp
}

// blockedWire is a blocked message as the service lists it (BlockedItem).
type blockedWire struct {
	RuleID     string         `json:"ruleId"`
	RuleName   string         `json:"ruleName"`
	RevisionID string         `json:"revisionId"`
	Condition  ruleCondWire   `json:"condition"`
	Message    chat.Message   `json:"message"`
	Action     []string       `json:"action"`
	CreatedAt  chat.Timestamp `json:"createdAt"`
	UpdatedAt  chat.Timestamp `json:"updatedAt"`
}

// condition is the condition that blocked the message, as blocked and
// reviewed messages show it: with its weight, 1 unless the rule gave
// another (the rules' answers show it only then).
func (b *BlockedRec) condition() ruleCondWire {
	c := b.cond
	if c.Weight == 0 {
		c.Weight = 1
	}
	return c
}

func (b *BlockedRec) wire() blockedWire {
	return blockedWire{RuleID: b.ruleID, RuleName: b.ruleName, RevisionID: b.revisionID, Condition: b.condition(),
		Message: b.msg.view("", true), Action: b.action, CreatedAt: b.createdAt, UpdatedAt: b.updatedAt}
}

// flaggerWire is one user's flag as the flagged-messages list shows it.
type flaggerWire struct {
	UID         string `json:"uid"`
	Name        string `json:"name"`
	Avatar      string `json:"avatar,omitempty"`
	Role        string `json:"role"`
	ReasonID    string `json:"reasonId"`
	ReasonName  string `json:"reasonName"`
	Description string `json:"description"`
	Remark      string `json:"remark"`
}

// flaggedWire is a flagged message as listed: the message's fields, with
// appId and flaggedBy.
type flaggedWire struct {
	AppID string `json:"appId"`
	chat.Message
	FlaggedBy []flaggerWire `json:"flaggedBy"`
}

// reviewedRec is the latest review of a message: of a blocked message
// (blocked set) or of a flagged one (flaggedBy set).
type reviewedRec struct {
	msg       *MsgRec
	blocked   *BlockedRec
	flaggedBy []flaggerWire
	createdAt chat.Timestamp // when blocked, or first flagged
	at        chat.Timestamp // when reviewed
}

// reviewedWire is a reviewed message as listed: the fields of a blocked
// message, or the message with flaggedBy.
type reviewedWire struct {
	RuleID     string         `json:"ruleId,omitempty"`
	RuleName   string         `json:"ruleName,omitempty"`
	RevisionID string         `json:"revisionId,omitempty"`
	Condition  *ruleCondWire  `json:"condition,omitempty"`
	Message    chat.Message   `json:"message"`
	Action     []string       `json:"action,omitempty"`
	FlaggedBy  []flaggerWire  `json:"flaggedBy,omitempty"`
	CreatedAt  chat.Timestamp `json:"createdAt"`
	UpdatedAt  chat.Timestamp `json:"updatedAt"`
}

func (r *reviewedRec) wire() reviewedWire {
	w := reviewedWire{Message: r.msg.view("", true), FlaggedBy: r.flaggedBy, CreatedAt: r.createdAt, UpdatedAt: r.at}
	if b := r.blocked; b != nil {
		cond := b.condition()
		w.RuleID, w.RuleName, w.RevisionID, w.Condition, w.Action = b.ruleID, b.ruleName, b.revisionID, &cond, b.action
	}
	return w
}

// live reports whether m is still stored (a permanent deletion removes
// it).
func (st *state) live(m *MsgRec) bool { return st.msgByID[m.id] == m }

// setModeration gives m a new moderation status, keeping its rule.
func (st *state) setModeration(m *MsgRec, status string) {
	mod := chat.Moderation{Status: status}
	if m.m.Data.Moderation != nil {
		mod.Rule = m.m.Data.Moderation.Rule
	}
	m.m.Data.Moderation = &mod
	st.touchMsg(m)
	st.messageChanged(m)
}

// GET /v3/moderation/blocked-messages (and the management variant)
//
// Blocked messages awaiting review, in message id order, cursor-paginated
// as the rules are with the message id as the id cursor.
func (st *state) listBlockedMessages(c *call) (any, error) {
	st.blocked = slices.DeleteFunc(st.blocked, func(b *BlockedRec) bool { return !st.live(b.msg) })
	touchField(st, &st.blocked)
	return modPage(c, st.blocked, func(b *BlockedRec) string { return b.msg.m.ID }, (*BlockedRec).wire)
}

// PATCH /v3/moderation/blocked-messages/{id} (and the management variant,
// whose path names it {messageId})
//
// status is required: "approved" (the message's moderation status becomes
// approved, and moderation_manual_approved fires) or "rejected" (it
// becomes disapproved). reviewed, when false, leaves the message in the
// blocked list (with its new status); absent (the older approve form) or
// true, it moves to the reviewed list. A message that is not awaiting
// review is ERR_MESSAGE_ID_NOT_FOUND.
func (st *state) reviewBlockedMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	if id == "" {
		id = c.r.PathValue("messageId")
	}
	i := slices.IndexFunc(st.blocked, func(b *BlockedRec) bool { return b.msg.m.ID == id && st.live(b.msg) })
	if i < 0 {
		return nil, errMessageIDNotFound(id)
	}
	var b struct {
		Status   string `json:"status"`
		Reviewed *bool  `json:"reviewed"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if err := checkReviewStatus(b.Status, string(chat.ReviewApproved), string(chat.ReviewRejected)); err != nil {
		return nil, err
	}
	rec, now := st.blocked[i], c.timestamp()
	rec.updatedAt = now
	reviewed := b.Reviewed == nil || *b.Reviewed
	if b.Status == string(chat.ReviewApproved) {
		st.setModeration(rec.msg, ModApproved)
	} else {
		st.setModeration(rec.msg, ModDisapproved)
	}
	if reviewed {
		st.blocked = slices.Delete(st.blocked, i, i+1)
		touchField(st, &st.blocked)
		st.reviewed[rec.msg.id] = &reviewedRec{msg: rec.msg, blocked: rec, createdAt: rec.createdAt, at: now}
		touch(st, &st.reviewed, rec.msg.id)
	}
	if b.Status == string(chat.ReviewApproved) {
		st.record(MessageReviewApproved{Rec: rec, Reviewed: reviewed})
	}
	msg := "Message with ID " + id + " has been reviewed successfully."
	if b.Reviewed == nil && b.Status == string(chat.ReviewApproved) {
		msg = "Message with ID " + id + " has been approved."
	}
	return data(chat.Result{Success: true, Message: msg}), nil
}

// checkReviewStatus validates a review's status: required, and one of
// allowed.
func checkReviewStatus(status string, allowed ...string) error {
	var v validator
	if status == "" {
		v.add("status", "The status field is required.")
	} else {
		checkModEnum(&v, "status", status, allowed)
	}
	return v.err()
}

// hookCondWire is a rule condition as moderation_manual_approved reports
// it; message is a string there, as in the reviewed-messages list.
type hookCondWire struct {
	ID           int      `json:"id"`
	KeywordsRef  bool     `json:"isKeywordsReferencePresent"`
	MediaPresent bool     `json:"isMediaPresent"`
	Entity       string   `json:"entity"`
	Operand      string   `json:"operand"`
	Category     string   `json:"category"`
	Operator     string   `json:"operator"`
	Value        []string `json:"value"`
	Message      string   `json:"message"`
	Weight       int      `json:"weight"`
}

// ReviewApproval is the data of moderation_manual_approved: the
// message as approved, the rule and condition that had blocked it, and
// whether it was marked reviewed.
func (st *state) ReviewApproval(rec *BlockedRec, reviewed bool) map[string]any {
	c := rec.condition()
	cond := hookCondWire{ID: c.ID, KeywordsRef: c.KeywordsRef, MediaPresent: c.MediaPresent, Entity: c.Entity, Operand: c.Operand,
		Category: c.Category, Operator: c.Operator, Value: slices.Clone(c.Value), Message: strings.Join(c.Message, " "), Weight: c.Weight}
	return map[string]any{
		"message": clone(rec.msg.view("", true)),
		"moderation": []any{map[string]any{
			"condition": cond,
			"rule": map[string]any{"id": rec.ruleID, "name": rec.ruleName, "revisionId": rec.revisionID,
				"action": slices.Clone(rec.action), "blockedAt": rec.createdAt},
		}},
		"reviewed": reviewed,
	}
}

// flagged returns the messages with flags not yet reviewed, in id order.
func (st *state) flagged() []*MsgRec {
	var out []*MsgRec
	for _, m := range st.messages {
		if len(m.flags) > 0 && !st.flagReviewed[m.id] {
			out = append(out, m)
		}
	}
	return out
}

// flaggers returns m's flags as listed, with the flagging users and the
// reasons given.
func (st *state) flaggers(m *MsgRec) []flaggerWire {
	out := make([]flaggerWire, len(m.flags))
	for i, f := range m.flags {
		u := st.UserEntity(f.UID)
		out[i] = flaggerWire{UID: u.UID, Name: u.Name, Avatar: u.Avatar, Role: u.Role, ReasonID: f.ReasonID, Remark: f.Remark}
		if r := st.reasons[f.ReasonID]; r != nil {
			out[i].ReasonName, out[i].Description = r.r.Name, r.r.Description
		}
	}
	return out
}

// GET /v3/moderation/flagged-messages
//
// Messages users flagged whose flags were not reviewed yet, in message id
// order, paginated as the blocked messages are. Each is the message's
// fields with appId and flaggedBy (uid, name, avatar, role, reasonId,
// reasonName, description, remark).
func (st *state) listFlaggedMessages(c *call) (any, error) {
	return modPage(c, st.flagged(), func(m *MsgRec) string { return m.m.ID }, func(m *MsgRec) flaggedWire {
		return flaggedWire{AppID: st.appID, Message: m.view("", true), FlaggedBy: st.flaggers(m)}
	})
}

// PATCH /v3/moderation/flagged-messages/{id}
//
// status is required: "approved" (the message's moderation status becomes
// approved) or "disapproved" (it becomes disapproved). The message leaves
// the flagged list for the reviewed one, for good: later flags do not
// bring it back. A message without flags awaiting review is
// ERR_MESSAGE_ID_NOT_FOUND. The answer is {"data": {}}.
func (st *state) reviewFlaggedMessage(c *call) (any, error) {
	id := c.r.PathValue("id")
	m := st.lookupMessage(id)
	if m == nil || len(m.flags) == 0 || st.flagReviewed[m.id] {
		return nil, errMessageIDNotFound(id)
	}
	var b struct {
		Status string `json:"status"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if err := checkReviewStatus(b.Status, string(chat.ReviewApproved), string(chat.ReviewDisapproved)); err != nil {
		return nil, err
	}
	st.setModeration(m, b.Status)
	st.flagReviewed[m.id] = true
	touch(st, &st.flagReviewed, m.id)
	first := m.flags[0].FlaggedAt
	for _, f := range m.flags {
		first = min(first, f.FlaggedAt)
	}
	st.reviewed[m.id] = &reviewedRec{msg: m, flaggedBy: st.flaggers(m), createdAt: first, at: c.timestamp()}
	touch(st, &st.reviewed, m.id)
	return data(struct{}{}), nil
}

// GET /v3/moderation/reviewed-messages
//
// The latest review of each reviewed message, in message id order,
// paginated as the blocked messages are: a blocked message's item has the
// blocked-messages fields, a flagged one's the message and flaggedBy; the
// message's data.moderation.status is the verdict, createdAt when it was
// blocked (or first flagged) and updatedAt when it was reviewed.
func (st *state) listReviewedMessages(c *call) (any, error) {
	recs := make([]*reviewedRec, 0, len(st.reviewed))
	for id, r := range st.reviewed {
		if !st.live(r.msg) {
			delete(st.reviewed, id)
			touch(st, &st.reviewed, id)
			continue
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].msg.id < recs[j].msg.id })
	return modPage(c, recs, func(r *reviewedRec) string { return r.msg.m.ID }, (*reviewedRec).wire)
}
