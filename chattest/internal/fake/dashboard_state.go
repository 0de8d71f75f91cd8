package fake

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/chatrest/chat"
)

// The dashboard reads the state through the functions of this file only,
// each under the state's lock, into values that share nothing with it.
// Each list keeps the most recent (or first, for names) dashRows rows and
// counts the rest.

// dashChanges returns three channels, one of which is closed at the next
// change the dashboard shows: an event of the outbox (a request answered,
// a change of the state), a request arriving, or a webhook delivery
// attempted or settled.
func (h *Core) dashChanges() (events, arrivals, deliveries <-chan struct{}) {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return h.dashLive.wait(), h.log.Arrived(), h.deliveries.Changed()
}

// dashEvents is the dashboard's consumer of the outbox: each change
// published wakes the live pages.
type dashEvents struct {
	mu  sync.Mutex
	sig Signal
}

func (d *dashEvents) Recorded(*Commit, Event) {}

func (d *dashEvents) Published(*Commit) {
	d.mu.Lock()
	d.sig.Notify()
	d.mu.Unlock()
}

// wait returns a channel closed at the next change published.
func (d *dashEvents) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.sig.Wait()
}

// dashOverviewOf counts what the app holds and lists its API keys.
func (h *Core) dashOverviewOf() dashOverview {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	o := dashOverview{AppID: st.appID, Groups: len(st.groups), Webhooks: len(st.webhooks[st.appID]),
		Deliveries: h.deliveries.Count(), Requests: h.requestTotal()}
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
		o.APIKeys = append(o.APIKeys, dashAPIKey{Name: k.k.Name, Scope: string(k.k.Scope), Key: mask(string(k.k.APIKey)), CreatedAt: k.k.CreatedAt})
	}
	return o
}

// dashUsersOf lists the users by uid, deactivated ones included, with
// their auth tokens masked.
func (h *Core) dashUsersOf() dashList[dashUser] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	uids := slices.Sorted(maps.Keys(st.users))
	out := dashList[dashUser]{Total: len(uids)}
	for _, uid := range uids[:min(len(uids), dashRows)] {
		u := st.users[uid]
		du := dashUser{UID: u.u.UID, Name: u.u.Name, Role: u.u.Role, Status: string(u.u.Status), CreatedAt: u.u.CreatedAt, State: "active"}
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

// dashGroupsOf lists the groups by guid with their members in the order
// they joined.
func (h *Core) dashGroupsOf() dashList[dashGroup] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	guids := slices.Sorted(maps.Keys(st.groups))
	out := dashList[dashGroup]{Total: len(guids)}
	for _, guid := range guids[:min(len(guids), dashRows)] {
		g := st.groups[guid]
		dg := dashGroup{GUID: g.g.GUID, Name: g.g.Name, Type: string(g.g.Type), Owner: g.g.Owner, CreatedAt: g.g.CreatedAt}
		uids := st.MemberUIDs(g)
		dg.MembersCount = len(uids)
		for _, uid := range uids[:min(len(uids), dashRows)] {
			dg.Members = append(dg.Members, dashMember{UID: uid, Scope: string(g.members[uid].scope)})
		}
		out.Rows = append(out.Rows, dg)
	}
	return out
}

// dashConversationsOf lists the conversations, the most recently active
// first, with each owner's unread count.
func (h *Core) dashConversationsOf() dashList[dashConversation] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	convs := st.allConvs()
	slices.SortFunc(convs, func(a, b *derivedConv) int { return convCompare(a.item(""), b.item("")) })
	out := dashList[dashConversation]{Total: len(convs)}
	for _, cv := range convs[:min(len(convs), dashRows)] {
		dc := dashConversation{ID: cv.id, Type: string(cv.typ), Messages: len(cv.msgs), LastAt: cv.opened()}
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
		for _, uid := range owners[:min(len(owners), dashRows)] {
			if st.hasOwner(cv, uid) && st.accessible(uid, cv) {
				dc.Unread = append(dc.Unread, dashUnread{UID: uid, Count: st.convView(uid, cv, convOptions{}).unread})
			}
		}
		out.Rows = append(out.Rows, dc)
	}
	return out
}

// dashMessagesOf lists the messages of the conversation id ("" for every
// conversation) that are not thread replies, the most recent last, each
// with its reactions and its thread's replies.
func (h *Core) dashMessagesOf(id string) dashList[dashMessage] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var top []*MsgRec
	for _, m := range st.messages {
		if m.parent == nil && (id == "" || m.m.ConversationID == id) {
			top = append(top, m)
		}
	}
	out := dashList[dashMessage]{Total: len(top)}
	for _, m := range top[max(len(top)-dashRows, 0):] {
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
func (h *Core) dashMessageOf(m *MsgRec) dashMessage {
	dm := dashMessage{ID: m.m.ID, ConversationID: m.m.ConversationID, Sender: m.m.Sender, Receiver: m.m.Receiver,
		Kind: string(m.m.Category) + "/" + string(m.m.Type), Text: h.log.Shown(messageText(m.m)), SentAt: m.m.SentAt,
		Edited: m.m.EditedAt != 0, Deleted: m.m.DeletedAt != 0}
	for _, r := range m.reactions {
		i := slices.IndexFunc(dm.Reactions, func(d dashReaction) bool { return d.Emoji == r.reaction })
		if i < 0 {
			dm.Reactions = append(dm.Reactions, dashReaction{Emoji: r.reaction})
			i = len(dm.Reactions) - 1
		}
		dm.Reactions[i].By = append(dm.Reactions[i].By, r.uid)
	}
	return dm
}

// dashWebhooksOf lists the app's webhooks and its deliveries, the most
// recent first.
func (h *Core) dashWebhooksOf() dashWebhooks {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var out dashWebhooks
	for _, hk := range st.webhooks[st.appID] {
		dw := dashWebhook{ID: hk.w.ID, Name: h.log.Shown(hk.w.Name), URL: h.log.Shown(hk.w.WebhookURL), Enabled: hk.w.Enabled, Retry: hk.w.RetryOnFailure}
		dw.Triggers = slices.Sorted(maps.Keys(hk.triggers))
		out.Webhooks = append(out.Webhooks, dw)
	}
	total, recent := h.deliveries.Recent(dashRows)
	out.Deliveries.Total = total
	for i := len(recent) - 1; i >= 0; i-- {
		d := recent[i]
		dd := dashDelivery{Seq: total - len(recent) + i + 1, Trigger: d.Trigger, WebhookID: d.WebhookID, State: d.State, StatusCode: d.StatusCode, Attempts: d.Attempts}
		if d.Err != nil {
			dd.Err = h.log.Shown(d.Err.Error())
		}
		out.Deliveries.Rows = append(out.Deliveries.Rows, dd)
	}
	return out
}

// dashRequestsOf lists the request log, the most recent first: its entries
// are redacted when they are recorded (requestlog.go).
func (h *Core) dashRequestsOf() dashList[dashRequest] {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	total, entries := h.log.Recent(dashRows)
	out := dashList[dashRequest]{Total: total}
	for i := len(entries) - 1; i >= max(len(entries)-dashRows, 0); i-- {
		e := entries[i]
		out.Rows = append(out.Rows, dashRequest{Time: e.Time, Method: e.Method, Path: e.Path, Route: e.Route,
			Status: e.Status, Fault: faultName(e.Fault.Kind), OnBehalfOf: e.Header.Get("onBehalfOf"), Body: shorten(e.Body, dashBodyChars)})
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

// faultName names a fault applied to a request; "" for none.
func faultName(k FaultKind) string {
	if k == FaultNone {
		return ""
	}
	return k.String()
}

// shorten cuts s to at most n bytes, on a character boundary, marking the
// cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// requestTotal is how many requests arrived since the log was last reset.
func (h *Core) requestTotal() int {
	total, _ := h.log.Recent(0)
	return total
}
