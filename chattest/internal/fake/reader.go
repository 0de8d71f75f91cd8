package fake

import (
	"slices"
	"strconv"

	"github.com/chatrest/chat"
)

// Reader is what the consumers of the outbox (outbox.go) read of the
// state as they render its events: the entities as the app sees them, and
// who listens. Its methods run with st.mu held, as the consumers'
// recorded and published do; *state implements it.
type Reader interface {
	// App is the App's id.
	App() string
	// MessageView is m as the app sees it.
	MessageView(m *MsgRec) chat.Message
	// NamedUser is uid with their name: the user as the user_blocked and
	// reaction payloads show it.
	NamedUser(uid string) chat.User
	// Reaction is rr, a reaction to m, as the reaction payloads show it:
	// by the user with their name.
	Reaction(m *MsgRec, rr *ReactionRec) chat.Reaction
	// Audience are the users who receive m live: the two of a
	// conversation, or the members of a group (and the user an action
	// message of the group is about).
	Audience(m *MsgRec) []string
	// UserView is u as the app sees them, without tags.
	UserView(u *UserRec) chat.User
	// UserEntity is uid as a message's entities show them.
	UserEntity(uid string) chat.User
	// UserFacts are what a receipt shows of uid: their name and status,
	// and whether they blocked other.
	UserFacts(uid, other string) (name string, status chat.UserStatus, blocked bool)
	// GroupView is g as the app sees it.
	GroupView(g *GroupRec) chat.Group
	// GroupViewAs is g as the user uid sees it (their scope, joinedAt and
	// hasJoined).
	GroupViewAs(g *GroupRec, uid string) chat.Group
	// GroupByID is the group guid, or nil.
	GroupByID(guid string) *GroupRec
	// MemberUIDs are the members of g, in join order.
	MemberUIDs(g *GroupRec) []string
	// Membership is uid's scope in g and when they joined; ok is false
	// when uid is not a member.
	Membership(g *GroupRec, uid string) (scope chat.MemberScope, joinedAt chat.Timestamp, ok bool)
	// Online reports whether uid's status is available.
	Online(uid string) bool
	// EngineVerdict is m with the moderation engine's verdict, as
	// moderation_engine_approved and moderation_engine_blocked carry it.
	EngineVerdict(m *MsgRec, verdict string) map[string]any
	// ReviewApproval is the approval of rec's message by a moderator, as
	// moderation_manual_approved carries it.
	ReviewApproval(rec *BlockedRec, reviewed bool) map[string]any

	// Hooked reports whether an enabled webhook of the app listens to
	// trigger.
	Hooked(trigger string) bool
	// HookTargets are the enabled webhooks of the app that listen to
	// trigger, in creation order.
	HookTargets(trigger string) []HookTarget

	// Connected reports whether any user has a websocket open.
	Connected() bool
	// PushTo queues frame for every connection of the users to, and the
	// connections conns, to be written once durable returns.
	PushTo(to []string, conns []*RTConn, frame []byte, durable func() error)
	// PresenceWatchers are the connections, of users other than u, whose
	// presence subscription covers u.
	PresenceWatchers(u *UserRec) []*RTConn
}

// HookTarget is a webhook as a delivery needs it.
type HookTarget struct {
	ID, URL            string
	Retry              bool   // retryOnFailure
	BasicAuth          bool   // useBasicAuth: Username and Password go as HTTP Basic auth
	Username, Password string // the webhook's credentials
}

func (st *state) App() string                        { return st.appID }
func (st *state) MessageView(m *MsgRec) chat.Message { return m.view("", true) }
func (st *state) GroupView(g *GroupRec) chat.Group   { return st.view(g, "") }
func (st *state) GroupByID(guid string) *GroupRec    { return st.groups[guid] }
func (st *state) GroupViewAs(g *GroupRec, uid string) chat.Group {
	return st.view(g, uid)
}
func (st *state) Connected() bool { return len(st.rtByUID) > 0 }

func (st *state) NamedUser(uid string) chat.User {
	u := chat.User{UID: uid}
	if r := st.users[uid]; r != nil {
		u.Name = r.u.Name
	}
	return u
}

func (st *state) UserFacts(uid, other string) (name string, status chat.UserStatus, blocked bool) {
	if u := st.users[uid]; u != nil {
		name, status = u.u.Name, u.u.Status
	}
	return name, status, st.isBlocked(uid, other)
}

func (st *state) Membership(g *GroupRec, uid string) (chat.MemberScope, chat.Timestamp, bool) {
	if rec := g.members[uid]; rec != nil {
		return rec.scope, rec.joinedAt, true
	}
	return "", 0, false
}

func (st *state) Online(uid string) bool {
	u := st.users[uid]
	return u != nil && u.u.Status == chat.UserAvailable
}

func (st *state) Hooked(trigger string) bool {
	return !st.replaying && slices.ContainsFunc(st.webhooks[st.appID], func(h *hookRec) bool { return h.w.Enabled && h.triggers[trigger] })
}

func (st *state) HookTargets(trigger string) []HookTarget {
	var out []HookTarget
	for _, h := range st.webhooks[st.appID] {
		if h.w.Enabled && h.triggers[trigger] {
			out = append(out, HookTarget{ID: h.w.ID, URL: h.w.WebhookURL, Retry: h.w.RetryOnFailure,
				BasicAuth: h.w.UseBasicAuth, Username: h.w.Username, Password: h.password})
		}
	}
	return out
}

func (st *state) Reaction(m *MsgRec, rr *ReactionRec) chat.Reaction {
	by := st.NamedUser(rr.uid)
	return chat.Reaction{ID: strconv.FormatInt(rr.id, 10), MessageID: m.m.ID, Reaction: rr.reaction, UID: rr.uid, ReactedAt: rr.at, ReactedBy: &by}
}

func (st *state) UserView(u *UserRec) chat.User { return u.view(false) }
