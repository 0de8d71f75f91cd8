package chattest

import (
	"encoding/json"

	"github.com/chatrest/chat"
)

// The events of the fake's app: what happened, in the service's words. A
// handler records each change once, as it makes it (st.record), and the
// consumers of the outbox (outbox.go) render it, each its own way: the
// webhooks as the triggers and payloads they deliver (webhook_events.go),
// the client API's websocket as the frames it pushes (realtime_events.go),
// the dashboard as a wake-up of its live pages (dashboard_state.go). An
// event carries the entities it is about and who acted, never what a
// consumer prints.

// event is one thing that happened in the app.
type event interface {
	// eventName names the event, e.g. "message sent".
	eventName() string
}

// messageSent: m was sent, from the client of the device (the resource
// header of the request; empty for a message seeded or sent by the app).
type messageSent struct {
	m      *msgRec
	device string
}

// messageActed: action (chat.ActionEdited or chat.ActionDeleted) was done
// to a message, and m is the action message the service stores for it.
type messageActed struct {
	action string
	m      *msgRec
	device string
}

// groupActionSent: the service sent m, the action message of a change of
// a group's members (category "action", type "groupMember", by
// app_system).
type groupActionSent struct{ m *msgRec }

// reactionAdded: r was added to the message m.
type reactionAdded struct {
	m *msgRec
	r *reactionRec
}

// reactionRemoved: r is being removed from the message m (recorded before
// it is).
type reactionRemoved struct {
	m *msgRec
	r *reactionRec
}

// usersBlocked: by blocked (or, with unblocked, unblocked) the users uids.
type usersBlocked struct {
	by        string
	uids      []string
	unblocked bool
}

// groupChanged: the group g was created, updated or is being deleted
// (recorded before it is).
type groupChanged struct {
	change string // groupCreated, groupUpdated or groupDeleted
	g      *groupRec
}

// The changes of a groupChanged.
const (
	groupCreated = "created"
	groupUpdated = "updated"
	groupDeleted = "deleted"
)

// memberChanged: by did action (added, kicked, banned, unbanned, joined,
// left) to uid in g.
type memberChanged struct {
	action string
	g      *groupRec
	uid    string
	by     string
}

// memberScopeChanged: by changed uid's scope in g from old to scope
// (recorded before uid's membership changes).
type memberScopeChanged struct {
	g          *groupRec
	uid, by    string
	old, scope chat.MemberScope
}

// ownerTransferred: the owner of g becomes owner (recorded before g
// changes).
type ownerTransferred struct {
	g     *groupRec
	owner string
}

// receiptMarked: by marked the conversation (a group one when group is
// set) read or delivered up to m, at at, from the client of device; or
// (action receiptDeliveredToAll, receiptReadByAll) by's mark made m
// received, or read, by every recipient.
type receiptMarked struct {
	action string
	m      *msgRec
	by     string
	group  bool
	at     chat.Timestamp
	device string
}

// messageModerated: the moderation engine approved (or disapproved) m.
type messageModerated struct {
	m       *msgRec
	verdict string // modApproved or modDisapproved
}

// messageReviewApproved: a moderator approved the blocked message of rec;
// reviewed says whether the review is complete.
type messageReviewApproved struct {
	rec      *blockedRec
	reviewed bool
}

// callAdded: the call c was made (seeded, with what happened in it).
type callAdded struct{ c *chat.Call }

// transcriptAdded: the transcript t of the call c was generated.
type transcriptAdded struct {
	c *chat.Call
	t chat.CallTranscription
}

// triggerFired: the test fired trigger with data ([Server.Fire]).
type triggerFired struct {
	trigger string
	data    json.RawMessage
}

// userTyping: uid, from the client of device, started or ended (action)
// typing to the users to in the conversation with receiver.
type userTyping struct {
	uid, device  string
	receiver     string
	receiverType chat.ReceiverType
	action       string
	metadata     json.RawMessage
	to           []string
}

// userPresence: u came online or went offline at at (ms, in Unix
// milliseconds), as a websocket of the client API that connected at
// connectedAt (milliseconds) authenticated or closed.
type userPresence struct {
	u               *userRec
	online          bool
	at              chat.Timestamp
	ms, connectedAt int64
}

func (messageSent) eventName() string           { return "message sent" }
func (e messageActed) eventName() string        { return "message " + e.action }
func (groupActionSent) eventName() string       { return "group action sent" }
func (reactionAdded) eventName() string         { return "reaction added" }
func (reactionRemoved) eventName() string       { return "reaction removed" }
func (memberScopeChanged) eventName() string    { return "member scope changed" }
func (ownerTransferred) eventName() string      { return "owner transferred" }
func (messageModerated) eventName() string      { return "message moderated" }
func (messageReviewApproved) eventName() string { return "message review approved" }
func (callAdded) eventName() string             { return "call added" }
func (transcriptAdded) eventName() string       { return "transcript added" }
func (triggerFired) eventName() string          { return "trigger fired" }
func (userTyping) eventName() string            { return "user typing" }
func (e groupChanged) eventName() string        { return "group " + e.change }
func (e memberChanged) eventName() string       { return "member " + e.action }
func (e receiptMarked) eventName() string       { return "receipt " + e.action }

func (e usersBlocked) eventName() string {
	if e.unblocked {
		return "users unblocked"
	}
	return "users blocked"
}

func (e userPresence) eventName() string {
	if e.online {
		return "user online"
	}
	return "user offline"
}

// succeeded returns the uids results reports a success for.
func succeeded(results map[string]chat.Result) []string {
	var uids []string
	for uid, r := range results {
		if r.Success {
			uids = append(uids, uid)
		}
	}
	return uids
}
