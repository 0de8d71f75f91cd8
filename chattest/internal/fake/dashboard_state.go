package fake

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// DashboardPrefix is where the dashboard is served, beside the API.
const DashboardPrefix = "/_chattest/"

// DashRows is how many rows a dashboard list shows at most.
const DashRows = 200

// The values the dashboard shows of the state, read by the functions of
// this file under the state's lock: they share nothing with it.
type (
	// DashList is the first rows of a list, and how long the list is.
	DashList[T any] struct {
		Rows  []T
		Total int
	}
	DashOverview struct {
		AppID                                                        string
		Users, Groups, Conversations, Messages, Webhooks, Deliveries int
		Requests                                                     int
		APIKeys                                                      []DashAPIKey
	}
	DashAPIKey struct {
		Name, Scope, Key string // Key masked
		CreatedAt        chat.Timestamp
	}
	DashUser struct {
		UID, Name, Role, Status, State string
		CreatedAt                      chat.Timestamp
		Tokens                         []string // masked
	}
	DashGroup struct {
		GUID, Name, Type, Owner string
		CreatedAt               chat.Timestamp
		MembersCount            int
		Members                 []DashMember
	}
	DashMember       struct{ UID, Scope string }
	DashConversation struct {
		ID, Type    string
		With, Name  string // the two users, or the group's guid and name
		Messages    int
		Last        string // the last message, "sender: text"
		LastAt      chat.Timestamp
		OwnersCount int
		Unread      []DashUnread
	}
	DashUnread struct {
		UID   string
		Count int
	}
	DashMessage struct {
		ID, ConversationID, Sender, Receiver, Kind, Text string
		SentAt                                           chat.Timestamp
		Edited, Deleted                                  bool
		Reactions                                        []DashReaction
		Replies                                          []DashMessage
	}
	DashReaction struct {
		Emoji string
		By    []string
	}
	DashWebhook struct {
		ID, Name, URL  string
		Enabled, Retry bool
		Triggers       []string
	}
)

// mask shows the last 4 characters of a secret: enough to tell two apart,
// too few to use one.
func mask(secret string) string {
	if len(secret) < 12 {
		return "••••"
	}
	return "••••" + secret[len(secret)-4:]
}

// The dashboard reads the state through the functions of this file only,
// each under the state's lock, into values that share nothing with it.
// Each list keeps the most recent (or first, for names) DashRows rows and
// counts the rest.

// DashOverviewOf counts what the app holds and lists its API keys (the
// dashboard counts the deliveries and the requests).
func (h *Core) DashOverviewOf() DashOverview {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	o := DashOverview{AppID: st.appID, Groups: len(st.groups), Webhooks: len(st.webhooks[st.appID])}
	o.Users = len(st.users)
	for _, m := range st.messages {
		if m.m.DeletedAt == 0 {
			o.Messages++
		}
	}
	o.Conversations = len(st.allConvs())
	keys := slices.Collect(maps.Values(st.apiKeys))
	slices.SortFunc(keys, func(a, b *apiKeyRec) int { return cmp.Compare(a.seq, b.seq) })
	for _, k := range keys {
		o.APIKeys = append(o.APIKeys, DashAPIKey{Name: k.k.Name, Scope: string(k.k.Scope), Key: mask(string(k.k.APIKey)), CreatedAt: k.k.CreatedAt})
	}
	return o
}

// DashUsersOf lists the users by uid, deactivated ones included, with
// their auth tokens masked.
func (h *Core) DashUsersOf() DashList[DashUser] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	uids := slices.Sorted(maps.Keys(st.users))
	out := DashList[DashUser]{Total: len(uids)}
	for _, uid := range uids[:min(len(uids), DashRows)] {
		u := st.users[uid]
		du := DashUser{UID: u.u.UID, Name: u.u.Name, Role: u.u.Role, Status: string(u.u.Status), CreatedAt: u.u.CreatedAt, State: "active"}
		if u.deactivated {
			du.State = "deactivated"
		}
		for _, t := range u.tokens {
			du.Tokens = append(du.Tokens, mask(string(t.AuthToken)))
		}
		out.Rows = append(out.Rows, du)
	}
	return out
}

// DashGroupsOf lists the groups by guid with their members in the order
// they joined.
func (h *Core) DashGroupsOf() DashList[DashGroup] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	guids := slices.Sorted(maps.Keys(st.groups))
	out := DashList[DashGroup]{Total: len(guids)}
	for _, guid := range guids[:min(len(guids), DashRows)] {
		g := st.groups[guid]
		dg := DashGroup{GUID: g.g.GUID, Name: g.g.Name, Type: string(g.g.Type), Owner: g.g.Owner, CreatedAt: g.g.CreatedAt}
		uids := st.MemberUIDs(g)
		dg.MembersCount = len(uids)
		for _, uid := range uids[:min(len(uids), DashRows)] {
			dg.Members = append(dg.Members, DashMember{UID: uid, Scope: string(g.members[uid].scope)})
		}
		out.Rows = append(out.Rows, dg)
	}
	return out
}

// DashConversationsOf lists the conversations, the most recently active
// first, with each owner's unread count.
func (h *Core) DashConversationsOf() DashList[DashConversation] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	convs := st.allConvs()
	slices.SortFunc(convs, func(a, b *derivedConv) int { return convCompare(a.item(""), b.item("")) })
	out := DashList[DashConversation]{Total: len(convs)}
	for _, cv := range convs[:min(len(convs), DashRows)] {
		dc := DashConversation{ID: cv.id, Type: string(cv.typ), Messages: len(cv.msgs), LastAt: cv.opened()}
		var owners []string
		if cv.typ == chat.ConversationGroup {
			dc.With = cv.guid
			if g := st.groups[cv.guid]; g != nil {
				dc.Name = g.g.Name
				owners = st.MemberUIDs(g)
			}
		} else {
			dc.With = cv.a + " & " + cv.b
			owners = []string{cv.a, cv.b}
		}
		if n := len(cv.msgs); n > 0 {
			m := cv.msgs[n-1]
			dc.Last, dc.LastAt = m.m.Sender+": "+h.log.Shown(messageText(m.m)), m.m.SentAt
		}
		dc.OwnersCount = len(owners)
		for _, uid := range owners[:min(len(owners), DashRows)] {
			if st.hasOwner(cv, uid) && st.accessible(uid, cv) {
				dc.Unread = append(dc.Unread, DashUnread{UID: uid, Count: st.convView(uid, cv, convOptions{}).unread})
			}
		}
		out.Rows = append(out.Rows, dc)
	}
	return out
}

// DashMessagesOf lists the messages of the conversation id ("" for every
// conversation) that are not thread replies, the most recent last, each
// with its reactions and its thread's replies.
func (h *Core) DashMessagesOf(id string) DashList[DashMessage] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var top []*MsgRec
	for _, m := range st.messages {
		if m.parent == nil && (id == "" || m.m.ConversationID == id) {
			top = append(top, m)
		}
	}
	out := DashList[DashMessage]{Total: len(top)}
	for _, m := range top[max(len(top)-DashRows, 0):] {
		dm := h.dashMessageOf(m)
		for _, r := range m.replies {
			dm.Replies = append(dm.Replies, h.dashMessageOf(r))
		}
		out.Rows = append(out.Rows, dm)
	}
	return out
}

// dashMessageOf is m as the dashboard shows it, without its replies, its
// text redacted as the request log is.
func (h *Core) dashMessageOf(m *MsgRec) DashMessage {
	dm := DashMessage{ID: m.m.ID, ConversationID: m.m.ConversationID, Sender: m.m.Sender, Receiver: m.m.Receiver,
		Kind: string(m.m.Category) + "/" + string(m.m.Type), Text: h.log.Shown(messageText(m.m)), SentAt: m.m.SentAt,
		Edited: m.m.EditedAt != 0, Deleted: m.m.DeletedAt != 0}
	for _, r := range m.reactions {
		i := slices.IndexFunc(dm.Reactions, func(d DashReaction) bool { return d.Emoji == r.reaction })
		if i < 0 {
			dm.Reactions = append(dm.Reactions, DashReaction{Emoji: r.reaction})
			i = len(dm.Reactions) - 1
		}
		dm.Reactions[i].By = append(dm.Reactions[i].By, r.uid)
	}
	return dm
}

// DashWebhooksOf lists the app's webhooks.
func (h *Core) DashWebhooksOf() []DashWebhook {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []DashWebhook
	for _, hk := range st.webhooks[st.appID] {
		dw := DashWebhook{ID: hk.w.ID, Name: h.log.Shown(hk.w.Name), URL: h.log.Shown(hk.w.WebhookURL), Enabled: hk.w.Enabled, Retry: hk.w.RetryOnFailure}
		dw.Triggers = slices.Sorted(maps.Keys(hk.triggers))
		out = append(out, dw)
	}
	return out
}

// messageText is what a message says: its text, or what it is.
func messageText(m chat.Message) string {
	switch {
	case m.DeletedAt != 0:
		return "(deleted)"
	case m.Data.Text != "":
		return m.Data.Text
	case m.Category == chat.CategoryAction:
		return "(" + string(m.Type) + " " + m.Data.Action + ")"
	case len(m.Data.Attachments) > 0:
		return "(" + strconv.Itoa(len(m.Data.Attachments)) + " attachments)"
	}
	return "(" + string(m.Category) + " " + string(m.Type) + ")"
}

// isDashboardPath reports whether p is the dashboard's.
func isDashboardPath(p string) bool {
	return p == strings.TrimSuffix(DashboardPrefix, "/") || strings.HasPrefix(p, DashboardPrefix)
}
