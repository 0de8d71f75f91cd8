package fake

import (
	"slices"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/webhooks"
)

// coreReader is what the consumers of the outbox (outbox.go) read of the
// state as they render its events: the entities as the app sees them, and
// who listens. Its methods run with st.mu held, as the consumers'
// recorded and published do; *state implements it.
type coreReader interface {
	// app is the app's id.
	app() string
	// messageView is m as the app sees it.
	messageView(m *msgRec) chat.Message
	// namedUser is uid with their name: the user as the user_blocked and
	// reaction payloads show it.
	namedUser(uid string) chat.User
	// userEntity is uid as a message's entities show them.
	userEntity(uid string) chat.User
	// userFacts are what a receipt shows of uid: their name and status,
	// and whether they blocked other.
	userFacts(uid, other string) (name string, status chat.UserStatus, blocked bool)
	// groupView is g as the app sees it.
	groupView(g *groupRec) chat.Group
	// groupViewAs is g as the user uid sees it (their scope, joinedAt and
	// hasJoined).
	groupViewAs(g *groupRec, uid string) chat.Group
	// groupByID is the group guid, or nil.
	groupByID(guid string) *groupRec
	// memberUIDs are the members of g, in join order.
	memberUIDs(g *groupRec) []string
	// membership is uid's scope in g and when they joined; ok is false
	// when uid is not a member.
	membership(g *groupRec, uid string) (scope chat.MemberScope, joinedAt chat.Timestamp, ok bool)
	// online reports whether uid's status is available.
	online(uid string) bool
	// engineVerdict is m with the moderation engine's verdict, as
	// moderation_engine_approved and moderation_engine_blocked carry it.
	engineVerdict(m *msgRec, verdict string) map[string]any
	// reviewApproval is the approval of rec's message by a moderator, as
	// moderation_manual_approved carries it.
	reviewApproval(rec *blockedRec, reviewed bool) map[string]any

	// hooked reports whether an enabled webhook of the app listens to
	// trigger.
	hooked(trigger string) bool
	// hookTargets are the enabled webhooks of the app that listen to
	// trigger, in creation order.
	hookTargets(trigger string) []hookTarget

	// connected reports whether any user has a websocket open.
	connected() bool
	// pushTo queues frame for every connection of the users to, and the
	// connections conns, to be written once durable returns.
	pushTo(to []string, conns []*rtConn, frame []byte, durable func() error)
	// presenceWatchers are the connections, of users other than u, whose
	// presence subscription covers u.
	presenceWatchers(u *userRec) []*rtConn
}

// hookTarget is a webhook as a delivery needs it: what the deliverer
// (internal/webhooks) reads.
type hookTarget = webhooks.Target

func (st *state) app() string                        { return st.appID }
func (st *state) messageView(m *msgRec) chat.Message { return m.view("", true) }
func (st *state) groupView(g *groupRec) chat.Group   { return st.view(g, "") }
func (st *state) groupByID(guid string) *groupRec    { return st.groups[guid] }
func (st *state) groupViewAs(g *groupRec, uid string) chat.Group {
	return st.view(g, uid)
}
func (st *state) connected() bool { return len(st.rtByUID) > 0 }

func (st *state) namedUser(uid string) chat.User {
	u := chat.User{UID: uid}
	if r := st.users[uid]; r != nil {
		u.Name = r.u.Name
	}
	return u
}

func (st *state) userFacts(uid, other string) (name string, status chat.UserStatus, blocked bool) {
	if u := st.users[uid]; u != nil {
		name, status = u.u.Name, u.u.Status
	}
	return name, status, st.isBlocked(uid, other)
}

func (st *state) membership(g *groupRec, uid string) (chat.MemberScope, chat.Timestamp, bool) {
	if rec := g.members[uid]; rec != nil {
		return rec.scope, rec.joinedAt, true
	}
	return "", 0, false
}

func (st *state) online(uid string) bool {
	u := st.users[uid]
	return u != nil && u.u.Status == chat.UserAvailable
}

func (st *state) hooked(trigger string) bool {
	return !st.replaying && slices.ContainsFunc(st.webhooks[st.appID], func(h *hookRec) bool { return h.w.Enabled && h.triggers[trigger] })
}

func (st *state) hookTargets(trigger string) []hookTarget {
	var out []hookTarget
	for _, h := range st.webhooks[st.appID] {
		if h.w.Enabled && h.triggers[trigger] {
			out = append(out, hookTarget{ID: h.w.ID, URL: h.w.WebhookURL, Retry: h.w.RetryOnFailure,
				BasicAuth: h.w.UseBasicAuth, Username: h.w.Username, Password: h.password})
		}
	}
	return out
}
