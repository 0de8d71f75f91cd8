package fake

import (
	"encoding/json"
	"strings"

	"github.com/chatrest/chat"
)

// The access policy. Every route (of the server API, the management API
// and the client API) and every kind of websocket frame a client sends
// declares what it reaches (reach); before its handler runs, the router
// (state.serve) and the frame dispatcher (state.receive) ask permit
// whether the acting user may reach it. The predicates permit decides with
// (canSee, canSeeGroup, canListMembers, canSeeCall, ownConversation: see
// access.go) are also the ones the lists use to filter what they show, so
// a list shows what permit would let its viewer reach one by one. The app
// (no acting user, or app_system) reaches everything.
//
// Where the reference is silent the rule is: a user reaches only what
// they could read or send now. A block, either way, stops sending,
// editing and reacting in the pair's conversation; reading it and what
// else the service allows a blocked pair stay.

// reachKind says what kind of the service's data a route reaches and how
// the route names it.
type reachKind uint8

const (
	reachUndeclared reachKind = iota // a route that declared nothing: no acting user may call it

	reachApp       // the app's own data (keys, roles, settings, a user's tokens, ...): never with an acting user
	reachNothing   // no one's data: the request itself (settings, a session report, a ping, what is not served)
	reachSelf      // the acting user's own data only (their session, blocked users, contact details)
	reachDirectory // the app's users, as every user may see them (the users list, a profile)
	reachListed    // a list of what the acting user reaches, filtered with the policy's predicates

	reachGroup             // the group of the path's {guid}
	reachGroupConversation // the acting user's conversation in the group of the path's {guid}
	reachMessage           // the message of the path's {id}, and so its conversation
	reachMessageID         // as reachMessage, answering ERR_MESSAGE_ID_NOT_FOUND
	reachPeer              // the acting user's conversation with the user of the path's {uid}
	reachConversation      // the conversation of the path's {conversationId}
	reachCall              // the call of the path's {sessionId}
	reachReceiver          // the conversation the body (or frame) names: receiver and receiverType
)

// need is what a route does with what it reaches.
type need uint8

const (
	needSee     need = iota // know it exists and show it (a group's details)
	needMembers             // list a group's members and banned users
	needRead                // read its messages and marks
	needWrite               // change what is in it: edit, react
	needSend                // send to it
)

// reach is what a route or a frame declares: what it reaches and what it
// does there.
type reach struct {
	kind reachKind
	need need
}

// The declarations of the route tables.
var (
	appOnly   = reach{kind: reachApp}
	noData    = reach{kind: reachNothing}
	ownData   = reach{kind: reachSelf}
	directory = reach{kind: reachDirectory}
	listed    = reach{kind: reachListed}
)

func onGroup(n need) reach       { return reach{reachGroup, n} }
func onGroupConversation() reach { return reach{reachGroupConversation, needRead} }
func onMessage(n need) reach     { return reach{reachMessage, n} }
func onMessageID(n need) reach   { return reach{reachMessageID, n} }
func onPeer(n need) reach        { return reach{reachPeer, n} }
func onConversation() reach      { return reach{reachConversation, needRead} }
func onCall() reach              { return reach{reachCall, needRead} }
func toReceiver(n need) reach    { return reach{reachReceiver, n} }

// target is what a request or a frame names: from its path, its body or
// the frame.
type target struct {
	guid, messageID, uid, conversationID, sessionID string
	receiver                                        string
	receiverType                                    chat.ReceiverType
	quoted                                          string // the body's quotedMessageId
}

// targetOf is what c names for rs.
func targetOf(c *call, rs reach) target {
	t := target{
		guid:           strings.ToLower(c.r.PathValue("guid")),
		messageID:      c.r.PathValue("id"),
		uid:            strings.ToLower(c.r.PathValue("uid")),
		conversationID: strings.ToLower(c.r.PathValue("conversationId")),
		sessionID:      c.r.PathValue("sessionId"),
	}
	if len(c.body) > 0 && (rs.kind == reachReceiver || rs.need == needSend) {
		var b struct {
			Receiver     string            `json:"receiver"`
			ReceiverType chat.ReceiverType `json:"receiverType"`
			Quoted       string            `json:"quotedMessageId"`
		}
		if json.Unmarshal(c.body, &b) == nil {
			t.receiver, t.receiverType, t.quoted = strings.ToLower(b.Receiver), b.ReceiverType, b.Quoted
		}
	}
	return t
}

// permit is the access policy: it reports whether uid may do what rs
// declares to what t names, and otherwise answers as the service does.
// What uid may not know exists answers as what does not exist; what uid
// sees but may not do keeps its own code (ERR_GROUP_NOT_JOINED,
// ERR_BLOCKED_SENDER, ...). What does not exist at all is left to the
// handler to answer. It runs with st.mu held.
func (st *state) permit(uid string, rs reach, t target) error {
	if isApp(uid) {
		return nil
	}
	switch rs.kind {
	case reachNothing, reachSelf, reachDirectory, reachListed:
		return nil
	case reachGroup:
		return st.permitGroup(uid, rs.need, t.guid)
	case reachGroupConversation:
		g := st.groups[t.guid]
		switch {
		case g == nil:
			return nil
		case !st.canSeeGroup(uid, g):
			return errGUIDNotFound(t.guid)
		case st.member(g, uid) == nil:
			return errConversationNotAccessible("group_"+t.guid, uid)
		}
		return nil
	case reachMessage, reachMessageID:
		notFound := errMsgNotFound
		if rs.kind == reachMessageID {
			notFound = errMessageIDNotFound
		}
		m := st.lookupMessage(t.messageID)
		if m == nil {
			return nil
		}
		if !st.canSee(uid, m) {
			return notFound(t.messageID)
		}
		if rs.need >= needWrite && m.m.ReceiverType == chat.ReceiverUser {
			if err := st.permitPair(uid, peerIn(m.between, uid)); err != nil {
				return err
			}
		}
		return st.permitQuote(uid, rs, t)
	case reachPeer:
		if rs.need >= needWrite {
			return st.permitPair(uid, t.uid)
		}
		return nil
	case reachConversation:
		_, err := st.ownConversation(uid, t.conversationID)
		return err
	case reachCall:
		if r := st.calls[t.sessionID]; r != nil && !canSeeCall(uid, r) {
			return errCallSessionNotFound(t.sessionID)
		}
		return nil
	case reachReceiver:
		var err error
		switch t.receiverType {
		case chat.ReceiverGroup:
			err = st.permitGroup(uid, rs.need, t.receiver)
		case chat.ReceiverUser:
			if rs.need >= needWrite && st.activeUser(t.receiver) != nil {
				err = st.permitPair(uid, t.receiver)
			}
		}
		if err != nil {
			return err
		}
		return st.permitQuote(uid, rs, t)
	}
	return errNoAccess() // undeclared, or the app's own with an acting user
}

// permitGroup decides whether uid may do n to the group guid: a group
// uid may not see answers as one that does not exist; one they see but
// are not a member of (or, for its members list, may not list) answers
// ERR_GROUP_NOT_JOINED.
func (st *state) permitGroup(uid string, n need, guid string) error {
	g := st.groups[guid]
	switch {
	case g == nil:
		return nil
	case !st.canSeeGroup(uid, g):
		return errGUIDNotFound(guid)
	case n == needSee:
		return nil
	case n == needMembers:
		if !st.canListMembers(uid, g) {
			return errGroupNotJoined(g.g.GUID, uid)
		}
		return nil
	case st.member(g, uid) == nil:
		return errGroupNotJoined(g.g.GUID, uid)
	}
	return nil
}

// permitPair decides whether uid may change their conversation with peer
// (send, edit, react): not when either blocked the other.
func (st *state) permitPair(uid, peer string) error {
	switch {
	case peer == "" || peer == uid:
		return nil
	case st.isBlocked(peer, uid):
		return errBlockedSender(uid, peer)
	case st.isBlocked(uid, peer):
		return errBlockedReceiver(uid, peer)
	}
	return nil
}

// permitQuote decides whether a message uid sends may quote the message
// the body names: only one uid sees.
func (st *state) permitQuote(uid string, rs reach, t target) error {
	if rs.need != needSend || t.quoted == "" {
		return nil
	}
	if m := st.lookupMessage(t.quoted); m != nil && !st.canSee(uid, m) {
		return errMsgNotFound(t.quoted)
	}
	return nil
}

// peerIn is the user of the pair between other than uid.
func peerIn(between [2]string, uid string) string {
	if between[0] == uid {
		return between[1]
	}
	return between[0]
}
