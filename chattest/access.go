package chattest

import (
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/chatrest/chat"
)

// Who sees what. A user's credentials (an auth token on the client API, or
// the onBehalfOf header on the server API) reach only what the predicates
// below allow; every handler that acts for a user asks them before it
// shows or touches a message, a group or a group's conversation. What a
// user may not see is answered as what does not exist (the operation's own
// 404), so that its existence does not leak; what a user sees but may not
// do keeps the operation's own code (ERR_GROUP_NOT_JOINED, ERR_NOT_A_MEMBER,
// ERR_MESSAGE_NOT_A_SENDER, ...). The app (the server API without
// onBehalfOf, or app_system) sees everything.
//
//   - A one-on-one message: its two users.
//   - A group message: the group's current members.
//   - A group: public and password groups, every user (to find and join
//     them); a private group, its members only.
//   - A group's members and banned users: every user for a public group,
//     its members otherwise.
//   - A group's messages and conversation: its members.
//   - A conversation named by its id: its owners; another's answers
//     ERR_CONVERSATION_NOT_ACCESSIBLE whether or not it exists.
//   - A call and its transcriptions: the users who took part in it (see
//     callRec.tookPart); another's answers ERR_CALL_SESSION_NOT_FOUND, as
//     a call that does not exist does.
//
// A user creates groups as themself: with an acting user, the body's owner
// is ignored, as update-group ignores it.

// isApp reports whether uid is the app rather than a user: no acting user,
// or app_system.
func isApp(uid string) bool { return uid == "" || uid == appSystem }

// canSee reports whether uid may see m: the app, the two users of a
// one-on-one message, the current members of its group.
func (st *state) canSee(uid string, m *msgRec) bool {
	if isApp(uid) {
		return true
	}
	if m.m.ReceiverType == chat.ReceiverGroup {
		_, ok := st.memberScope(m.m.Receiver, uid)
		return ok
	}
	return m.between[0] == uid || m.between[1] == uid
}

// canSeeGroup reports whether uid may know that g exists: the app and
// every user for a public or password group; its members for a private
// one.
func (st *state) canSeeGroup(uid string, g *groupRec) bool {
	return isApp(uid) || g.g.Type != chat.GroupPrivate || st.member(g, uid) != nil
}

// canListMembers reports whether uid may list g's members and banned
// users: the app, every user for a public group, its members otherwise.
func (st *state) canListMembers(uid string, g *groupRec) bool {
	return isApp(uid) || g.g.Type == chat.GroupPublic || st.member(g, uid) != nil
}

// canSeeCall reports whether uid may see the call r: the app, and the
// users who took part in it.
func canSeeCall(uid string, r *callRec) bool { return isApp(uid) || r.tookPart(uid) }

// callFor returns the call id when uid may see it, or
// ERR_CALL_SESSION_NOT_FOUND.
func (st *state) callFor(uid, id string) (*callRec, error) {
	r := st.calls[id]
	if r == nil || !canSeeCall(uid, r) {
		return nil, errCallSessionNotFound(id)
	}
	return r, nil
}

// messageFor returns the message id when uid may see it; otherwise, and
// when there is none, the operation's not-found answer for id.
func (st *state) messageFor(uid, id string, notFound func(string) *apiError) (*msgRec, error) {
	m := st.lookupMessage(id)
	if m == nil || !st.canSee(uid, m) {
		return nil, notFound(id)
	}
	return m, nil
}

// visibleMessage returns the message id for the acting user of c, or
// ERR_MSG_NOT_FOUND: the answer of get, edit, delete, threads, reactions
// and thread subscriptions.
func (st *state) visibleMessage(c *call, id string) (*msgRec, error) {
	return st.messageFor(c.onBehalfOf, id, errMsgNotFound)
}

// visibleMessageID is visibleMessage answering ERR_MESSAGE_ID_NOT_FOUND:
// the answer of pins, saves, interactions and flags.
func (st *state) visibleMessageID(c *call, id string) (*msgRec, error) {
	return st.messageFor(c.onBehalfOf, id, errMessageIDNotFound)
}

// groupFor returns the group guid when uid may see it, or
// ERR_GUID_NOT_FOUND.
func (st *state) groupFor(uid, guid string) (*groupRec, error) {
	guid = strings.ToLower(guid)
	g := st.groups[guid]
	if g == nil || !st.canSeeGroup(uid, g) {
		return nil, errGUIDNotFound(guid)
	}
	return g, nil
}

// checkGroupMember checks that uid may read, send to or type in the
// group guid: ERR_GUID_NOT_FOUND when they may not see it,
// ERR_GROUP_NOT_JOINED when they are not a member. The app may do so in
// any group.
func (st *state) checkGroupMember(uid, guid string) error {
	g, err := st.groupFor(uid, guid)
	if err != nil {
		return err
	}
	if !isApp(uid) && st.member(g, uid) == nil {
		return errGroupNotJoined(g.g.GUID, uid)
	}
	return nil
}

// ownConversation returns the conversation id, which uid must own:
// ERR_CONVERSATION_NOT_ACCESSIBLE when it is another's, whether or not it
// exists, and ERR_CONVERSATION_NOT_FOUND only when it would be uid's.
func (st *state) ownConversation(uid, id string) (*derivedConv, error) {
	cv := st.conv(id)
	if cv != nil && st.hasOwner(cv, uid) {
		return cv, nil
	}
	if cv == nil && st.wouldOwn(uid, id) {
		return nil, errConversationNotFound(id)
	}
	return nil, errConversationNotAccessible(id, uid)
}

// wouldOwn reports whether the conversation id, which has no message yet,
// would be uid's: a one-on-one conversation named after uid, or the
// conversation of a group uid is a member of.
func (st *state) wouldOwn(uid, id string) bool {
	if guid, ok := strings.CutPrefix(id, "group_"); ok {
		_, member := st.memberScope(guid, uid)
		return member
	}
	return strings.HasPrefix(id, uid+"_user_") || strings.HasSuffix(id, "_user_"+uid)
}

// checkListMembers checks that the acting user of c may list g's members
// or banned users: ERR_GROUP_NOT_JOINED otherwise.
func (st *state) checkListMembers(c *call, g *groupRec) error {
	if !st.canListMembers(c.onBehalfOf, g) {
		return errGroupNotJoined(g.g.GUID, c.onBehalfOf)
	}
	return nil
}

// groupOwner is the owner of a group created in c whose body named asked:
// the acting user, when there is one; else asked ("" for the app).
func groupOwner(c *call, asked string) string {
	if c.onBehalfOf != "" {
		return c.onBehalfOf
	}
	return asked
}

// Revoked credentials close the websockets opened with them.
const (
	// statusRevoked closes a websocket whose credentials were revoked, or
	// that sent no valid auth frame in time: 1008, policy violation, with
	// a reason saying which.
	statusRevoked = websocket.StatusPolicyViolation
	// defaultRTAuthTimeout is how long a websocket may stay open without a
	// valid auth frame (see WithRealtimeAuthTimeout).
	defaultRTAuthTimeout = 5 * time.Second
)

// WithRealtimeAuthTimeout sets how long a websocket of the client API may
// stay open without a valid auth frame before the server closes it (1008);
// the default is 5 seconds. A d of zero or less keeps the default.
func WithRealtimeAuthTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.rtAuthTimeout = d
		}
	}
}

// awaitAuth closes c (1008) unless it authenticates within the server's
// auth timeout. Stop the returned timer when c ends.
func (st *state) awaitAuth(c *rtConn) *time.Timer {
	d := st.rtAuthTimeout
	if d <= 0 {
		d = defaultRTAuthTimeout
	}
	return time.AfterFunc(d, func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		if c.uid == "" {
			st.drop(c, statusRevoked, "chattest: no valid auth frame in time", false)
		}
	})
}

// closeRevoked closes, at once, the websockets of the users uids whose
// credentials no longer hold: the user was deleted or deactivated (a soft
// delete deactivates), or the auth token the connection logged in with
// was deleted. Nothing more is
// pushed to them, and their frames are no longer acted on. Every change
// that takes a user's credentials away calls it; it runs with st.mu held.
func (st *state) closeRevoked(uids ...string) {
	for _, uid := range uids {
		uid = strings.ToLower(uid)
		for c := range st.rtByUID[uid] {
			if why := st.revoked(c); why != "" {
				st.drop(c, statusRevoked, "chattest: "+why, false)
			}
		}
	}
}

// revoked says why c's credentials no longer hold, or "" when they do.
func (st *state) revoked(c *rtConn) string {
	u := st.users[c.uid]
	switch {
	case u == nil:
		return "the user was deleted"
	case u.deactivated: // or soft-deleted, which deactivates
		return "the user was deactivated"
	case !slices.ContainsFunc(u.tokens, func(t chat.AuthToken) bool { return tokenHash(string(t.AuthToken)) == c.tokenHash }):
		return "the auth token was deleted"
	}
	return ""
}
