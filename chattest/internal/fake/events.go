package fake

import (
	"encoding/json"

	"github.com/chatrest/chat"
)

// The events of the fake's app: what happened, in the service's words. A
// handler records each change once, as it makes it (st.record), and the
// consumers of the outbox (outbox.go) render it, each its own way: the
// webhooks as the triggers and payloads they deliver (internal/webhooks),
// the client API's websocket as the frames it pushes (internal/realtime),
// the dashboard as a wake-up of its live pages (internal/dashboard). An
// event carries the entities it is about and who acted, never what a
// consumer prints.

// Event is one thing that happened in the app.
type Event interface {
	// EventName names the event, e.g. "message sent".
	EventName() string
}

// MessageSent: m was sent, from the client of the device (the resource
// header of the request; empty for a message seeded or sent by the app).
type MessageSent struct {
	M      *MsgRec
	Device string
}

// MessageActed: action (chat.ActionEdited or chat.ActionDeleted) was done
// to a message, and m is the action message the service stores for it.
type MessageActed struct {
	Action string
	M      *MsgRec
	Device string
}

// GroupActionSent: the service sent m, the action message of a change of
// a group's members (category "action", type "groupMember", by
// app_system).
type GroupActionSent struct{ M *MsgRec }

// ReactionAdded: r was added to the message m.
type ReactionAdded struct {
	M *MsgRec
	R *ReactionRec
}

// ReactionRemoved: r is being removed from the message m (recorded before
// it is).
type ReactionRemoved struct {
	M *MsgRec
	R *ReactionRec
}

// UsersBlocked: by blocked (or, with unblocked, unblocked) the users uids.
type UsersBlocked struct {
	By        string
	UIDs      []string
	Unblocked bool
}

// GroupChanged: the group g was created, updated or is being deleted
// (recorded before it is).
type GroupChanged struct {
	Change string // GroupCreated, GroupUpdated or GroupDeleted
	G      *GroupRec
}

// The changes of a GroupChanged.
const (
	GroupCreated = "created"
	GroupUpdated = "updated"
	GroupDeleted = "deleted"
)

// MemberChanged: by did action (added, kicked, banned, unbanned, joined,
// left) to uid in g.
type MemberChanged struct {
	Action string
	G      *GroupRec
	UID    string
	By     string
}

// MemberScopeChanged: by changed uid's scope in g from old to scope
// (recorded before uid's membership changes).
type MemberScopeChanged struct {
	G          *GroupRec
	UID, By    string
	Old, Scope chat.MemberScope
}

// OwnerTransferred: the owner of g becomes owner (recorded before g
// changes).
type OwnerTransferred struct {
	G     *GroupRec
	Owner string
}

// ReceiptMarked: by marked the conversation (a group one when group is
// set) read or delivered up to m, at at, from the client of device; or
// (action ReceiptDeliveredToAll, ReceiptReadByAll) by's mark made m
// received, or read, by every recipient.
type ReceiptMarked struct {
	Action string
	M      *MsgRec
	By     string
	Group  bool
	At     chat.Timestamp
	Device string
}

// MessageModerated: the moderation engine approved (or disapproved) m.
type MessageModerated struct {
	M       *MsgRec
	Verdict string // ModApproved or ModDisapproved
}

// MessageReviewApproved: a moderator approved the blocked message of rec;
// reviewed says whether the review is complete.
type MessageReviewApproved struct {
	Rec      *BlockedRec
	Reviewed bool
}

// CallAdded: the call c was made (seeded, with what happened in it).
type CallAdded struct{ C *chat.Call }

// TranscriptAdded: the transcript t of the call c was generated.
type TranscriptAdded struct {
	C *chat.Call
	T chat.CallTranscription
}

// TriggerFired: the test fired trigger with data ([Server.Fire]).
type TriggerFired struct {
	Trigger string
	Data    json.RawMessage
}

// UserTyping: uid, from the client of device, started or ended (action)
// typing to the users to in the conversation with receiver.
type UserTyping struct {
	UID, Device  string
	Receiver     string
	ReceiverType chat.ReceiverType
	Action       string
	Metadata     json.RawMessage
	To           []string
}

// UserPresence: U came online or went offline at At (Ms, in Unix
// milliseconds), as a websocket of the client API that connected at
// ConnectedAt (milliseconds) authenticated or closed.
type UserPresence struct {
	U               *UserRec
	Online          bool
	At              chat.Timestamp
	Ms, ConnectedAt int64
}

func (MessageSent) EventName() string           { return "message sent" }
func (e MessageActed) EventName() string        { return "message " + e.Action }
func (GroupActionSent) EventName() string       { return "group action sent" }
func (ReactionAdded) EventName() string         { return "reaction added" }
func (ReactionRemoved) EventName() string       { return "reaction removed" }
func (MemberScopeChanged) EventName() string    { return "member scope changed" }
func (OwnerTransferred) EventName() string      { return "owner transferred" }
func (MessageModerated) EventName() string      { return "message moderated" }
func (MessageReviewApproved) EventName() string { return "message review approved" }
func (CallAdded) EventName() string             { return "call added" }
func (TranscriptAdded) EventName() string       { return "transcript added" }
func (TriggerFired) EventName() string          { return "trigger fired" }
func (UserTyping) EventName() string            { return "user typing" }
func (e GroupChanged) EventName() string        { return "group " + e.Change }
func (e MemberChanged) EventName() string       { return "member " + e.Action }
func (e ReceiptMarked) EventName() string       { return "receipt " + e.Action }

func (e UsersBlocked) EventName() string {
	if e.Unblocked {
		return "users unblocked"
	}
	return "users blocked"
}

func (e UserPresence) EventName() string {
	if e.Online {
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
