package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chatrest/chat"
)

// userScoped reports whether rt acts for a user: a client API route, or a
// server API route that reads onBehalfOf.
func userScoped(rt route) bool { return rt.auth == authClient || rt.obo != oboIgnored }

// Every route of the tables the server serves, and every kind of frame a
// client sends, declares what it reaches; a route acting for a user
// declares the resource its path names, so that the policy resolves it.
func TestPolicyEveryRouteDeclaresWhatItReaches(t *testing.T) {
	named := map[string][]reachKind{ // a path parameter, and the kinds that resolve it
		"{guid}":           {reachGroup, reachGroupConversation},
		"{id}":             {reachMessage, reachMessageID},
		"{conversationId}": {reachConversation},
		"{sessionId}":      {reachCall},
	}
	for _, rt := range append(allRoutes(), allMgmtRoutes()...) {
		switch {
		case rt.reach.kind == reachUndeclared:
			t.Errorf("%s declares nothing it reaches", rt.pattern)
		case rt.reach.kind == reachApp && userScoped(rt):
			t.Errorf("%s acts for a user but declares the app's own data", rt.pattern)
		}
		if !userScoped(rt) {
			continue
		}
		for param, kinds := range named {
			if strings.Contains(rt.pattern, param) && !containsKind(kinds, rt.reach.kind) {
				t.Errorf("%s names %s but declares reach kind %d", rt.pattern, param, rt.reach.kind)
			}
		}
	}
	for kind, rs := range frameKinds {
		if rs.kind == reachUndeclared || rs.kind == reachApp {
			t.Errorf("frame %s declares nothing a user reaches", kind)
		}
	}
}

func containsKind(kinds []reachKind, k reachKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// policyWorld is an app where alice and bob share a private group and a
// conversation, and users who reach neither: mallory, an outsider; leaver,
// kicked and banned, former members of the group; recycled, a member
// deleted for good and created again; dave, whom alice blocked.
type policyWorld struct {
	srv     *Server
	c       *chat.Client
	tokens  map[string]string
	privMsg string // alice's message in the private group
	pairMsg string // alice's message to bob
	daveMsg string // dave's message to alice, before the block
}

// The text only alice and bob may read.
var policySecrets = []string{"PRIVATE-NAME-Q", "PRIVATE-TEXT-Q", "PRIVATE-REPLY-Q", "PAIR-TEXT-Q", "OLD-SELF-Q"}

var policyActors = []string{"mallory", "leaver", "kicked", "banned", "recycled", "dave"}

func newPolicyWorld(t *testing.T, opts ...Option) *policyWorld {
	srv := NewServer(opts...)
	t.Cleanup(srv.Close)
	w := &policyWorld{srv: srv, c: srv.Client(), tokens: map[string]string{}}
	ctx := t.Context()
	must := func(v any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, uid := range append([]string{"alice", "bob"}, policyActors...) {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	must(w.c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "priv", Name: "PRIVATE-NAME-Q", Type: chat.GroupPrivate, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob", "leaver", "kicked", "banned", "recycled"}}}))
	send := func(from, to string, rt chat.ReceiverType, text string) string {
		m := must(w.c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: to, ReceiverType: rt, Category: chat.CategoryMessage,
			Type: chat.MessageTypeText, Data: chat.MessageData{Text: text}}, chat.OnBehalfOf(from))).(*chat.Message)
		return m.ID
	}
	w.privMsg = send("alice", "priv", chat.ReceiverGroup, "PRIVATE-TEXT-Q")
	must(w.c.Messages.SendThread(ctx, w.privMsg, "bob", &chat.SendMessageRequest{Receiver: "priv", ReceiverType: chat.ReceiverGroup,
		Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: chat.MessageData{Text: "PRIVATE-REPLY-Q"}}))
	must(w.c.Messages.AddReaction(ctx, w.privMsg, "👍", "bob"))
	w.pairMsg = send("alice", "bob", chat.ReceiverUser, "PAIR-TEXT-Q")
	must(w.c.Messages.AddReaction(ctx, w.pairMsg, "👍", "bob"))
	send("recycled", "alice", chat.ReceiverUser, "OLD-SELF-Q")
	w.daveMsg = send("dave", "alice", chat.ReceiverUser, "dave's hello")
	for _, uid := range policyActors {
		w.tokens[uid] = string(must(w.c.AuthTokens.Create(ctx, uid, &chat.CreateAuthTokenRequest{Force: true})).(*chat.AuthToken).AuthToken)
	}
	if r := w.do(t, true, "leaver", http.MethodDelete, "/v3.0/groups/priv/members", ""); r.status != http.StatusOK {
		t.Fatalf("leaving: %d %s", r.status, r.body)
	}
	must(w.c.Members.Kick(ctx, "priv", "kicked"))
	must(w.c.Bans.Ban(ctx, "priv", "banned"))
	must(w.c.Users.Delete(ctx, "recycled", &chat.DeleteUserRequest{Permanent: true}))
	must(w.c.Users.Create(ctx, &chat.CreateUserRequest{UID: "recycled", Name: "recycled"}))
	w.tokens["recycled"] = string(must(w.c.AuthTokens.Create(ctx, "recycled", &chat.CreateAuthTokenRequest{Force: true})).(*chat.AuthToken).AuthToken)
	must(w.c.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"dave"}}))
	return w
}

type policyAnswer struct {
	status int
	body   string
}

// do sends a request as uid: through the client API with their auth
// token, or through the server API with onBehalfOf.
func (w *policyWorld) do(t *testing.T, client bool, uid, method, path, body string) policyAnswer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, w.srv.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if client {
		req.Header.Set("appId", w.srv.AppID())
		req.Header.Set("authToken", w.tokens[uid])
	} else {
		req.Header.Set("apikey", w.srv.APIKey())
		req.Header.Set("onBehalfOf", uid)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return policyAnswer{resp.StatusCode, string(b)}
}

// policyTarget is the data of others a request names: the private group
// and its message, or alice and bob's conversation and its message.
type policyTarget struct {
	name, guid, id, conversationID, receiver, receiverType string
}

// fill returns pattern's method and path with the target's values for its
// parameters, and a body naming the target wherever a body may.
func (tg policyTarget) fill(pattern, actor string) (method, path, body string) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		method, path = http.MethodGet, pattern
	}
	path = strings.TrimSuffix(path, "{$}")
	r := strings.NewReplacer("{guid}", tg.guid, "{id}", tg.id, "{conversationId}", tg.conversationID, "{uid}", "bob",
		"{reaction}", "%F0%9F%91%8D", "{sessionId}", "none")
	path = r.Replace(path)
	for strings.Contains(path, "{") { // the app's own parameters
		i, j := strings.Index(path, "{"), strings.Index(path, "}")
		path = path[:i] + "x" + path[j+1:]
	}
	if method != http.MethodGet {
		b, _ := json.Marshal(map[string]any{"receiver": tg.receiver, "receiverType": tg.receiverType, "category": "message", "type": "text",
			"data": map[string]any{"text": "hi"}, "quotedMessageId": tg.id, "messageId": tg.id, "participants": []string{actor},
			"admins": []string{actor}, "interactions": []string{"ok"}, "reasonId": "spam", "scope": "admin"})
		body = string(b)
	}
	return method, path, body
}

// No route acting for a user gives an outsider, a former member (left,
// kicked, banned), a recycled uid or a blocked user anything of a private
// group or of another pair's conversation: what names them is refused,
// and no answer, lists included, holds their text. The routes are the
// server's own tables.
func TestPolicyNoRouteGivesOthersData(t *testing.T) {
	w := newPolicyWorld(t)
	targets := []policyTarget{
		{"the private group", "priv", w.privMsg, "group_priv", "priv", "group"},
		{"another pair", "priv", w.pairMsg, "alice_user_bob", "bob", "user"},
	}
	refused := func(k reachKind) bool {
		switch k {
		case reachGroup, reachGroupConversation, reachMessage, reachMessageID, reachConversation, reachReceiver:
			return true
		}
		return false
	}
	for _, rt := range allRoutes() {
		if !userScoped(rt) {
			continue
		}
		for _, tg := range targets {
			for _, actor := range policyActors {
				method, path, body := tg.fill(rt.pattern, actor)
				a := w.do(t, rt.auth == authClient, actor, method, path, body)
				what := fmt.Sprintf("%s (%s %s) as %s, for %s", rt.pattern, method, path, actor, tg.name)
				for _, s := range policySecrets {
					if strings.Contains(a.body, s) {
						t.Errorf("%s: the answer holds %s: %s", what, s, a.body)
					}
				}
				if refused(rt.reach.kind) && a.status < 400 {
					t.Errorf("%s: %d %s", what, a.status, a.body)
				}
				if method == http.MethodGet { // the unread counts the message lists answer
					a := w.do(t, rt.auth == authClient, actor, method, path+"?unread=1&count=1", "")
					if strings.Contains(a.body, `"entityId":"priv"`) {
						t.Errorf("%s with unread counts: %s", what, a.body)
					}
				}
			}
		}
	}
	// alice and bob's data is as it was.
	for _, id := range []string{w.privMsg, w.pairMsg} {
		m, ok := w.srv.Message(id)
		if !ok || m.DeletedAt != 0 || len(m.Data.Reactions) != 1 || m.Data.Reactions[0].Count != 1 {
			t.Errorf("message %s changed: %+v", id, m)
		}
	}
	g, _ := w.srv.Group("priv")
	if g.Name != "PRIVATE-NAME-Q" || g.MembersCount != 2 {
		t.Errorf("the private group changed: %+v", g)
	}
}

// A blocked user changes nothing of their conversation with the blocker
// through any route that sends, edits or reacts.
func TestPolicyBlockedUserChangesNothing(t *testing.T) {
	w := newPolicyWorld(t)
	tg := policyTarget{"dave's conversation with alice", "none", w.daveMsg, "alice_user_dave", "alice", "user"}
	for _, rt := range allRoutes() {
		if !userScoped(rt) || rt.reach.need < needWrite {
			continue
		}
		method, path, body := tg.fill(rt.pattern, "dave")
		path = strings.Replace(path, "/users/bob/", "/users/alice/", 1)
		body = strings.Replace(body, `"quotedMessageId":"`+w.daveMsg+`",`, "", 1)
		if a := w.do(t, rt.auth == authClient, "dave", method, path, body); a.status < 400 {
			t.Errorf("%s (%s %s) as dave: %d %s", rt.pattern, method, path, a.status, a.body)
		}
	}
	m, _ := w.srv.Message(w.daveMsg)
	if m.Data.Text != "dave's hello" || len(m.Data.Reactions) != 0 || m.ReplyCount != 0 {
		t.Errorf("dave's message changed: %+v", m)
	}
}

// No kind of frame a client sends reaches a private group (or, from a
// blocked user, the blocker) for the outsider, the former members, the
// recycled uid and the blocked user: alice, a member, hears nothing from
// them; she hears bob, a member.
func TestPolicyNoFrameReachesOthers(t *testing.T) {
	tr := newMemTransport()
	w := newPolicyWorld(t, WithRealtime(tr))
	ctx := t.Context()
	for _, uid := range []string{"alice", "bob"} {
		tok, err := w.c.AuthTokens.Create(ctx, uid, &chat.CreateAuthTokenRequest{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		w.tokens[uid] = string(tok.AuthToken)
	}
	login := func(uid string) *memSocket {
		a := w.do(t, true, uid, http.MethodPut, "/v3.0/me", `{"platform":"WEB"}`)
		var me struct {
			Data struct {
				JWT string `json:"jwt"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(a.body), &me); err != nil || me.Data.JWT == "" {
			t.Fatalf("login of %s: %d %s", uid, a.status, a.body)
		}
		s := tr.Open(t, w.srv)
		s.Write(t, map[string]any{"appId": w.srv.AppID(), "type": frameAuth, "sender": uid, "deviceId": "device-" + uid,
			"body": map[string]any{"auth": me.Data.JWT, "deviceId": "device-" + uid}})
		if f := s.Next(t); f["type"] != frameAuth {
			t.Fatalf("the answer to %s's auth frame: %v", uid, f)
		}
		return s
	}
	// A frame of each kind a user sends to receiver, beyond the auth frame
	// login sends.
	examples := map[string]func(uid, receiver, receiverType string) map[string]any{
		framePing: func(string, string, string) map[string]any { return map[string]any{"action": framePing} },
		frameTyping: func(uid, receiver, receiverType string) map[string]any {
			return map[string]any{"appId": w.srv.AppID(), "type": frameTyping, "receiver": receiver, "receiverType": receiverType,
				"sender": uid, "deviceId": "device-" + uid, "body": map[string]any{"action": "started"}}
		},
		frameReceipts: func(uid, receiver, receiverType string) map[string]any {
			id := w.privMsg
			if receiverType == "user" {
				id = w.daveMsg
			}
			return map[string]any{"appId": w.srv.AppID(), "type": frameReceipts, "receiver": receiver, "receiverType": receiverType,
				"sender": uid, "deviceId": "device-" + uid, "body": map[string]any{"action": "read", "messageId": id}}
		},
	}
	for kind := range frameKinds {
		if _, ok := examples[kind]; !ok && kind != frameAuth {
			t.Errorf("frame kind %s: no example frame in this test", kind)
		}
	}
	alice := login("alice")
	for _, actor := range policyActors {
		s := login(actor)
		for _, ex := range examples {
			s.Write(t, ex(actor, "priv", "group"))
			if actor == "dave" {
				s.Write(t, ex(actor, "alice", "user"))
			}
		}
	}
	login("bob").Write(t, examples[frameTyping]("bob", "priv", "group"))
	for {
		f := alice.Next(t)
		if f["type"] == frameTyping || f["type"] == frameReceipts {
			if f["sender"] != "bob" {
				t.Errorf("alice heard %v", f)
			}
			break
		}
	}
}
