package fake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatrest/chat"
)

// TestIndexesFollowTheStore changes the store at random through the API and
// the seeding methods (users created, deactivated, deleted and replaced;
// groups created, updated, retyped, replaced and deleted; members added,
// kicked and banned; messages sent, replied to, deleted softly and for
// good; conversations opened and reset; users blocked; groups joined and
// left through the client API), on a clock that often stands still so
// that timestamps tie, and after every step checks
// each index against what it indexes, recomputed from scratch: the orders
// the lists walk, the counts they answer with, and each user's
// conversation list against the conversations sorted the slow way.
func TestIndexesFollowTheStore(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 42))
			srv := NewServer(tyingClock(r))
			defer srv.Close()
			w := &randomWorld{t: t, r: r, srv: srv, hc: srv.HTTPClient()}
			for step := range 600 {
				w.step()
				if err := srv.st.checkIndexes(); err != nil {
					t.Fatalf("after step %d (%s): %v", step, w.last, err)
				}
				if step%25 == 0 {
					w.checkTotals()
				}
			}
		})
	}
}

// tyingClock is a clock that moves a second at a third of its readings,
// at random, so that timestamps often tie.
func tyingClock(r *rand.Rand) Option {
	now := time.Unix(1_700_000_000, 0)
	return WithClock(func() time.Time {
		if r.IntN(3) == 0 {
			now = now.Add(time.Second)
		}
		return now
	})
}

// randomWorld makes random changes to a server.
type randomWorld struct {
	t    *testing.T
	r    *rand.Rand
	srv  *Server
	hc   *http.Client
	last string // the last change, for failures
}

func (w *randomWorld) uid() string  { return "u" + strconv.Itoa(w.r.IntN(12)) }
func (w *randomWorld) guid() string { return "g" + strconv.Itoa(w.r.IntN(5)) }

// call sends a request as onBehalfOf obo ("" for none); the answer's
// status does not matter.
func (w *randomWorld) call(method, path, obo string, body any) {
	w.last = method + " " + path + " as " + obo
	header := map[string]string{"apikey": w.srv.APIKey()}
	if obo != "" {
		header["onBehalfOf"] = obo
	}
	w.send(method, path, header, body)
}

// send sends a request with header and body as JSON.
func (w *randomWorld) send(method, path string, header map[string]string, body any) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, w.srv.URL()+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	resp.Body.Close()
}

// aMessage returns the id of a stored message, or "1".
func (w *randomWorld) aMessage() string {
	st := w.srv.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.messages) == 0 {
		return "1"
	}
	return st.messages[w.r.IntN(len(st.messages))].m.ID
}

func (w *randomWorld) step() {
	r := w.r
	switch n := r.IntN(104); {
	case n < 10:
		w.call("POST", "/v3/users", "", map[string]any{"uid": w.uid(), "name": "User " + strconv.Itoa(r.IntN(4))})
	case n < 13:
		w.last = "AddUser"
		w.srv.AddUser(chat.User{UID: w.uid(), Name: "Seeded", CreatedAt: chat.Timestamp(1_700_000_000 + r.IntN(5))})
	case n < 16:
		w.call("DELETE", "/v3/users", "", map[string]any{"uidsToDeactivate": []string{w.uid()}})
	case n < 19:
		w.call("PUT", "/v3/users", "", map[string]any{"uidsToActivate": []string{w.uid()}})
	case n < 20:
		w.call("DELETE", "/v3/users/"+w.uid(), "", map[string]any{"permanent": r.IntN(2) == 0})
	case n < 27:
		types := []string{"public", "private", "password"}
		w.call("POST", "/v3/groups", "", map[string]any{"guid": w.guid(), "name": "Group " + strconv.Itoa(r.IntN(3)),
			"type": types[r.IntN(3)], "password": "pw", "owner": w.uid(),
			"members": map[string]any{"participants": []string{w.uid(), w.uid()}}})
	case n < 29:
		w.last = "AddGroup"
		w.srv.AddGroup(chat.Group{GUID: w.guid(), Name: "Seeded", Type: chat.GroupPrivate, UpdatedAt: chat.Timestamp(1_700_000_000 + r.IntN(5))}, w.uid(), w.uid()+":moderator")
	case n < 33:
		types := []string{"public", "private"}
		w.call("PUT", "/v3/groups/"+w.guid(), "", map[string]any{"name": "Renamed " + strconv.Itoa(r.IntN(3)), "type": types[r.IntN(2)]})
	case n < 35:
		w.call("DELETE", "/v3/groups/"+w.guid(), "", nil)
	case n < 42:
		w.call("POST", "/v3/groups/"+w.guid()+"/members", "", map[string]any{"participants": []string{w.uid(), w.uid()}})
	case n < 45:
		w.call("DELETE", "/v3/groups/"+w.guid()+"/members/"+w.uid(), "", nil)
	case n < 47:
		w.call("POST", "/v3/groups/"+w.guid()+"/bannedusers/"+w.uid(), "", nil)
	case n < 62:
		w.call("POST", "/v3/messages", w.uid(), map[string]any{"receiver": w.uid(), "receiverType": "user", "data": map[string]any{"text": "hi"}})
	case n < 72:
		w.call("POST", "/v3/messages", w.uid(), map[string]any{"receiver": w.guid(), "receiverType": "group", "data": map[string]any{"text": "hi all"}})
	case n < 75:
		w.last = "AddMessage"
		w.srv.AddMessage(chat.Message{Sender: w.uid(), ReceiverType: chat.ReceiverUser, Receiver: w.uid(), SentAt: chat.Timestamp(1_700_000_000 + r.IntN(5))})
	case n < 79:
		w.call("POST", "/v3/messages/"+w.aMessage()+"/thread", w.uid(), map[string]any{"receiver": w.uid(), "receiverType": "user", "data": map[string]any{"text": "reply"}})
	case n < 85:
		w.call("DELETE", "/v3/messages/"+w.aMessage(), "", map[string]any{"permanent": r.IntN(3) == 0})
	case n < 89:
		w.call("DELETE", "/v3/users/"+w.uid()+"/conversation", w.uid(), nil)
	case n < 91:
		w.call("DELETE", "/v3/groups/"+w.guid()+"/conversation", w.uid(), nil)
	case n < 93:
		w.call("POST", "/v3/users/"+w.uid()+"/friends", "", map[string]any{"accepted": []string{w.uid()}, "addToConversations": true})
	case n < 95:
		w.call("POST", "/v3/users/"+w.uid()+"/conversation/read", w.uid(), map[string]any{"messageId": r.IntN(200)})
	case n < 97:
		w.call("POST", "/v3/groups/"+w.guid()+"/conversation/read", w.uid(), nil)
	case n < 100:
		w.call("POST", "/v3/users/"+w.uid()+"/blockedusers", "", map[string]any{"blockedUids": []string{w.uid()}})
	case n < 102:
		w.asClient("POST", "/v3.0/groups/"+w.guid()+"/members", w.uid(), map[string]any{"password": "pw"})
	default:
		w.asClient("DELETE", "/v3.0/groups/"+w.guid()+"/members", w.uid(), nil)
	}
}

// asClient sends a request of the client API as uid, with an auth token
// minted for uid (a user that does not exist gets none, and is refused);
// the answer's status does not matter.
func (w *randomWorld) asClient(method, path, uid string, body any) {
	w.call("POST", "/v3/users/"+uid+"/auth_tokens", "", nil)
	st := w.srv.st
	st.mu.Lock()
	tok := ""
	if u := st.users[uid]; u != nil && len(u.tokens) > 0 {
		tok = string(u.tokens[len(u.tokens)-1].AuthToken)
	}
	st.mu.Unlock()
	w.last = method + " " + path + " as the client of " + uid
	w.send(method, path, map[string]string{"appId": w.srv.AppID(), "authToken": tok}, body)
}

// checkIndexes compares every index with what it indexes.
func (st *state) checkIndexes() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, check := range []func() error{st.checkUsersIndex, st.checkGroupsIndex, st.checkMessagesIndex, st.checkConversationsIndex} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// sortedBy returns items sorted by less.
func sortedBy[T any](items []T, less func(a, b T) bool) []T {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	return out
}

func collect[T any](seq func(func(T) bool)) []T {
	var out []T
	for it := range seq {
		out = append(out, it)
	}
	return out
}

func sameItems[T comparable](what string, got, want []T) error {
	if !slices.Equal(got, want) {
		return fmt.Errorf("%s: got %v, want %v", what, got, want)
	}
	return nil
}

func (st *state) checkUsersIndex() error {
	var active, deactivated []*UserRec
	for _, u := range st.users {
		switch {
		case u.deactivated:
			deactivated = append(deactivated, u)
		default:
			active = append(active, u)
		}
	}
	if err := sameItems("active users", collect(ascend(st.activeUsers)), sortedBy(active, userBefore)); err != nil {
		return err
	}
	return sameItems("deactivated users", collect(ascend(st.deactivatedUsers)), sortedBy(deactivated, userBefore))
}

func (st *state) checkGroupsIndex() error {
	var groups []*GroupRec
	memberOf := map[string][]string{}
	private := 0
	privateOf := map[string]int{}
	for guid, g := range st.groups {
		groups = append(groups, g)
		if g.g.Type == chat.GroupPrivate {
			private++
		}
		for uid, m := range g.members {
			memberOf[uid] = append(memberOf[uid], guid)
			if g.g.Type == chat.GroupPrivate {
				privateOf[uid]++
			}
			if m.uid != uid {
				return fmt.Errorf("group %s: member %s recorded as %s", guid, uid, m.uid)
			}
		}
		order := make([]*memberRec, 0, len(g.members))
		for _, m := range g.members {
			order = append(order, m)
		}
		if err := sameItems("members of "+guid, g.order, sortedBy(order, func(a, b *memberRec) bool { return a.seq < b.seq })); err != nil {
			return err
		}
		if st.countValid(g) {
			n := 0
			for uid := range g.members {
				if st.activeUser(uid) != nil {
					n++
				}
			}
			if n != g.count {
				return fmt.Errorf("group %s: %d active members counted, %d stored", guid, g.count, n)
			}
		}
	}
	if private != st.privateGroups {
		return fmt.Errorf("%d private groups counted, %d stored", st.privateGroups, private)
	}
	if len(privateOf) != len(st.privateOf) {
		return fmt.Errorf("private groups by user: %v, want %v", st.privateOf, privateOf)
	}
	for uid, n := range privateOf {
		if st.privateOf[uid] != n {
			return fmt.Errorf("private groups of %s: %d, want %d", uid, st.privateOf[uid], n)
		}
	}
	if len(memberOf) != len(st.memberOf) {
		return fmt.Errorf("%d users with groups indexed, %d stored", len(st.memberOf), len(memberOf))
	}
	for uid, guids := range memberOf {
		var got []string
		for guid, g := range st.memberOf[uid] {
			if st.groups[guid] != g {
				return fmt.Errorf("groups of %s: %s is not the stored group", uid, guid)
			}
			got = append(got, guid)
		}
		slices.Sort(got)
		slices.Sort(guids)
		if err := sameItems("groups of "+uid, got, guids); err != nil {
			return err
		}
	}
	for _, sortBy := range []string{"", "name", "guid", "createdAt"} {
		for _, desc := range []bool{false, true} {
			for _, affix := range []chat.Direction{"", chat.DirectionAfter, chat.DirectionBefore} {
				o := groupOrder{sortBy: sortBy, desc: desc, affix: affix}
				what := fmt.Sprintf("groups in order %+v", o)
				if err := sameItems(what, collect(st.groupsIn(o, 0, false)), sortedBy(groups, o.less)); err != nil {
					return err
				}
				if sortBy != "" || affix == "" {
					continue
				}
				for cursor := int64(1_699_999_999); cursor < 1_700_000_010; cursor++ {
					var want []*GroupRec
					for _, g := range sortedBy(groups, o.less) {
						if at := int64(g.g.UpdatedAt); affix == chat.DirectionAfter && at > cursor || affix == chat.DirectionBefore && at < cursor {
							want = append(want, g)
						}
					}
					if err := sameItems(fmt.Sprintf("%s from %d", what, cursor), collect(st.groupsIn(o, cursor, true)), want); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func (st *state) checkMessagesIndex() error {
	var want messagesIndex
	want.init()
	for _, m := range st.messages {
		want.indexMessage(m)
	}
	for guid, msgs := range want.groupMsgs {
		if err := sameItems("messages of group "+guid, st.groupMsgs[guid], msgs); err != nil {
			return err
		}
	}
	for k, msgs := range want.pairMsgs {
		if err := sameItems(fmt.Sprintf("messages of %v", k), st.pairMsgs[k], msgs); err != nil {
			return err
		}
	}
	for uid, msgs := range want.userMsgs {
		if err := sameItems("messages of user "+uid, st.userMsgs[uid], msgs); err != nil {
			return err
		}
	}
	if len(st.groupMsgs) != len(want.groupMsgs) || len(st.pairMsgs) != len(want.pairMsgs) || len(st.userMsgs) != len(want.userMsgs) {
		return fmt.Errorf("messages indexed under keys that have none")
	}
	return nil
}

func (st *state) checkConversationsIndex() error {
	// The conversations, derived the slow way.
	type slowConv struct {
		typ  chat.ConversationType
		a, b string
		guid string
		msgs []*MsgRec
	}
	slow := map[string]*slowConv{}
	for _, m := range st.messages {
		if m.parent != nil || m.m.DeletedAt != 0 {
			continue
		}
		cv := slow[m.m.ConversationID]
		if cv == nil {
			cv = &slowConv{typ: chat.ConversationUser, a: m.between[0], b: m.between[1]}
			if m.m.ReceiverType == chat.ReceiverGroup {
				cv = &slowConv{typ: chat.ConversationGroup, guid: m.m.Receiver}
			}
			slow[m.m.ConversationID] = cv
		}
		cv.msgs = append(cv.msgs, m)
	}
	for id, o := range st.opened {
		if slow[id] == nil {
			slow[id] = &slowConv{typ: chat.ConversationUser, a: o.a, b: o.b}
		}
	}
	n := 0
	for id := range st.convs {
		if st.conv(id) != nil {
			n++
		}
	}
	if n != len(slow) {
		return fmt.Errorf("%d conversations indexed, %d derived", n, len(slow))
	}
	for id, want := range slow {
		cv := st.conv(id)
		if cv == nil {
			return fmt.Errorf("conversation %s not indexed", id)
		}
		if cv.typ != want.typ || cv.a != want.a || cv.b != want.b || cv.guid != want.guid || !slices.Equal(cv.msgs, want.msgs) {
			return fmt.Errorf("conversation %s: %s %s %s %s %d messages, want %s %s %s %s %d", id,
				cv.typ, cv.a, cv.b, cv.guid, len(cv.msgs), want.typ, want.a, want.b, want.guid, len(want.msgs))
		}
	}

	// Each active user's list, and its total, against all conversations
	// sorted the slow way.
	for _, owner := range collect(ascend(st.activeUsers)) {
		uid := owner.u.UID
		for _, l := range []convListing{{}, {includeBlocked: true}, {typ: chat.ConversationUser}, {typ: chat.ConversationGroup}} {
			var want []convItem
			for id := range slow {
				cv := st.conv(id)
				if !st.hasOwner(cv, uid) || !st.accessible(uid, cv) || l.typ != "" && cv.typ != l.typ ||
					cv.typ == chat.ConversationUser && !l.includeBlocked && st.isBlocked(uid, cv.peer(uid)) {
					continue
				}
				with := cv.guid
				if cv.typ == chat.ConversationUser {
					with = cv.peer(uid)
				}
				last := int64(0)
				if n := len(cv.msgs); n > 0 {
					last = cv.msgs[n-1].id
				}
				want = append(want, convItem{at: cv.updatedAt(), last: last, with: with, cv: cv})
			}
			// The newest last message first (when it was sent, then its
			// id), then by conversationWith's uid or guid, then by id.
			slices.SortFunc(want, func(a, b convItem) int {
				if a.at != b.at {
					return -cmp.Compare(int64(a.at), int64(b.at))
				}
				if a.last != b.last {
					return -cmp.Compare(a.last, b.last)
				}
				if a.with != b.with {
					return strings.Compare(a.with, b.with)
				}
				return strings.Compare(a.cv.id, b.cv.id)
			})
			seq, total := st.ownerConvs(uid, l)
			var got []convItem
			for it := range seq {
				if st.keeps(uid, l, it) {
					got = append(got, it)
				}
			}
			what := fmt.Sprintf("conversations of %s listed %+v", uid, l)
			if err := sameItems(what, got, want); err != nil {
				return err
			}
			if total != len(want) {
				return fmt.Errorf("%s: total %d, want %d", what, total, len(want))
			}
			for _, it := range got {
				var joinedAt chat.Timestamp
				if it.cv.typ == chat.ConversationGroup {
					g, _ := st.groupInfo(it.cv.guid, uid)
					joinedAt = g.JoinedAt
				}
				cu := st.convMarks[convKey{uid, it.cv.id}]
				if cu == nil {
					cu = &convUser{}
				}
				unread := 0
				for _, m := range st.visibleMsgs(uid, it.cv) {
					if m.id > cu.readUpTo && m.m.Sender != uid && m.m.Category != chat.CategoryAction && m.m.SentAt >= joinedAt {
						unread++
					}
				}
				if w := st.convView(uid, it.cv, convOptions{}); w.unread != unread {
					return fmt.Errorf("conversation %s of %s: %d unread, want %d", it.cv.id, uid, w.unread, unread)
				}
			}
		}
	}
	return nil
}

// checkTotals asks every page-based list for one page of everything, as
// the app and as each user, and checks that its total (counted from the
// indexes when no filter is set) is the number of items the walk found.
func (w *randomWorld) checkTotals() {
	paths := []string{"/v3/users?perPage=1000", "/v3/users?perPage=1000&withDeactivated=true",
		"/v3/users?perPage=1000&onlyDeactivated=true", "/v3/groups?perPage=1000", "/v3/conversations?perPage=1000"}
	for i := range 5 {
		paths = append(paths, "/v3/groups/g"+strconv.Itoa(i)+"/members?perPage=1000")
	}
	for _, path := range paths {
		for _, obo := range []string{"", "u1", "u2", "u3"} {
			if obo != "" && !strings.HasPrefix(path, "/v3/groups?") && !strings.HasPrefix(path, "/v3/conversations") {
				continue
			}
			req, _ := http.NewRequest(http.MethodGet, w.srv.URL()+path, nil)
			req.Header.Set("apikey", w.srv.APIKey())
			if obo != "" {
				req.Header.Set("onBehalfOf", obo)
			}
			resp, err := w.hc.Do(req)
			if err != nil {
				w.t.Fatal(err)
			}
			var page struct {
				Data []json.RawMessage `json:"data"`
				Meta chat.PageMeta     `json:"meta"`
			}
			err = json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				continue // an inactive onBehalfOf user, a group that is gone
			}
			if err != nil || page.Meta.Pagination == nil {
				w.t.Fatalf("%s as %q: %v", path, obo, err)
			}
			if page.Meta.Pagination.Total != len(page.Data) {
				w.t.Fatalf("after %s: %s as %q: total %d, %d listed", w.last, path, obo, page.Meta.Pagination.Total, len(page.Data))
			}
		}
	}
}
