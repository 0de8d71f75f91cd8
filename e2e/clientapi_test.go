package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// product is a backend on the Go SDK and its users' JavaScript clients,
// against one chattest server.
type product struct {
	t    *testing.T
	srv  *chattest.Server
	api  *chat.Client
	cert string
}

func newProduct(t *testing.T) *product {
	t.Helper()
	srv := chattest.NewServer(platform.WithWebSocket())
	t.Cleanup(srv.Close)
	return &product{t: t, srv: srv, api: srv.Client(), cert: writeCert(t, srv)}
}

// user creates a user through the Go SDK.
func (p *product) user(uid string) {
	p.t.Helper()
	if _, err := p.api.Users.Create(ctxFor(p.t), &chat.CreateUserRequest{UID: uid, Name: strings.ToUpper(uid[:1]) + uid[1:]}); err != nil {
		p.t.Fatal(err)
	}
}

// token mints an auth token for uid through the Go SDK, as a backend does
// for its users' logins.
func (p *product) token(uid string) string {
	p.t.Helper()
	tok, err := p.api.AuthTokens.Create(ctxFor(p.t), uid, &chat.CreateAuthTokenRequest{Force: true})
	if err != nil {
		p.t.Fatal(err)
	}
	return string(tok.AuthToken)
}

// login starts a JavaScript client logged in as uid with a minted token.
func (p *product) login(uid string) *jsClient {
	p.t.Helper()
	c := startJS(p.t, uid, p.srv.AppID(), host(p.srv.URL()), p.cert)
	c.login(p.token(uid), uid)
	// The SDK reports the connection once the websocket is open; what is
	// sent to uid reaches it once the server has checked its jwt.
	if err := p.srv.AwaitOnline(ctxFor(p.t), uid); err != nil {
		p.t.Fatal(err)
	}
	return c
}

func TestLoginWithAMintedToken(t *testing.T) {
	p := newProduct(t)
	p.user("alice")
	alice := p.login("alice") // the SDK's login and websocket authentication

	// The request log shows the login, without the token.
	var logged []chattest.Request
	for _, r := range p.srv.Requests() {
		if r.Route == "PUT /v3.0/me" {
			logged = append(logged, r)
		}
	}
	if len(logged) != 1 || logged[0].Status != http.StatusOK || logged[0].Header.Get("authToken") != chattest.Redacted {
		t.Fatalf("PUT /v3.0/me in the log: %+v", logged)
	}
	// The session is alice's: her conversation list is hers (empty), and
	// she logs out cleanly.
	var pages [][]string
	alice.call("pages", map[string]any{"list": "conversations", "limit": 10}, &pages)
	if len(pages) != 0 {
		t.Errorf("a new user's conversations: %v", pages)
	}
	alice.call("logout", nil, nil)
}

func TestBogusTokenIsRefused(t *testing.T) {
	p := newProduct(t)
	p.user("alice")
	c := startJS(t, "intruder", p.srv.AppID(), host(p.srv.URL()), p.cert)
	err := c.try("login", map[string]any{"token": "alice_0000000000000000000000000000000000000000"}, nil)
	var je *jsError
	if !asJSError(err, &je) || je.Code != "AUTH_ERR_AUTH_TOKEN_NOT_FOUND" {
		t.Fatalf("login with a bogus token: %v, want AUTH_ERR_AUTH_TOKEN_NOT_FOUND", err)
	}
	// A token deleted by the backend no longer logs in either.
	tok := p.token("alice")
	if _, err := p.api.AuthTokens.Delete(ctxFor(t), "alice", tok); err != nil {
		t.Fatal(err)
	}
	if err := c.try("login", map[string]any{"token": tok}, nil); !asJSError(err, &je) || je.Code != "AUTH_ERR_AUTH_TOKEN_NOT_FOUND" {
		t.Fatalf("login with a deleted token: %v, want AUTH_ERR_AUTH_TOKEN_NOT_FOUND", err)
	}
}

func asJSError(err error, target **jsError) bool {
	je, ok := err.(*jsError)
	if ok {
		*target = je
	}
	return ok
}

func TestThreadReplyOnBehalfOfAUserReachesTheOtherClientLive(t *testing.T) {
	p := newProduct(t)
	p.user("alice")
	p.user("bob")
	bob := p.login("bob")
	ctx := ctxFor(t)

	// The backend sends a message from alice to bob, then replies in its
	// thread on alice's behalf.
	parent, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Your order shipped"}}, chat.OnBehalfOf("alice"))
	if err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	reply, err := p.api.Messages.SendThread(ctx, parent.ID, "alice", &chat.SendMessageRequest{Receiver: "bob",
		ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "It arrives tomorrow"}})
	if err != nil {
		t.Fatal(err)
	}
	got := bob.await("the thread reply", func(e jsEvent) bool { return e.Event == "message" && e.Message.ID == reply.ID })
	want := jsMessage{ID: reply.ID, Category: "message", Type: "text", Text: "It arrives tomorrow", Sender: "alice",
		Receiver: "bob", ReceiverType: "user", ParentID: parent.ID}
	if *got.Message != want {
		t.Errorf("bob's client received %+v, want %+v", *got.Message, want)
	}
	t.Logf("the reply reached bob's client %v after the Go SDK sent it", got.at.Sub(sent).Round(time.Millisecond))
	// The parent came live too, before the reply.
	first := bob.await("the parent", func(e jsEvent) bool { return e.Event == "message" })
	if first.Message.ID != parent.ID || first.Message.ParentID != "" {
		t.Errorf("bob's first message event: %+v, want the parent %s", *first.Message, parent.ID)
	}
}

func TestClientMessageFiresTheBackendsWebhook(t *testing.T) {
	p := newProduct(t)
	p.user("alice")
	p.user("bob")
	ctx := ctxFor(t)

	// The backend's webhook receiver, on the Go SDK's webhook package.
	events := make(chan webhook.Event, 16)
	v := &webhook.Verifier{Username: "hooks", Password: "hookpw4Kq9Z"}
	recv := httptest.NewServer(webhook.NewHandler(v, func(_ context.Context, ev webhook.Event) error {
		events <- ev
		return nil
	}))
	t.Cleanup(recv.Close)
	mc := p.srv.ManagementClient()
	if _, err := mc.Webhooks.Create(ctx, p.srv.AppID(), &management.CreateWebhookRequest{ID: "backend", Name: "Backend",
		URL: recv.URL, UseBasicAuth: true, Username: v.Username, Password: chat.Secret(v.Password), Enabled: new(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := mc.Webhooks.AddTriggers(ctx, p.srv.AppID(), "backend", []webhook.Trigger{"message_sent"}); err != nil {
		t.Fatal(err)
	}

	alice, bob := p.login("alice"), p.login("bob")
	alice.call("typing", map[string]any{"to": "bob", "receiverType": "user"}, nil)
	bob.await("alice typing", func(e jsEvent) bool { return e.Event == "typing" && e.Sender == "alice" && e.Receiver == "bob" })

	var sent jsMessage
	alice.call("send", map[string]any{"to": "bob", "receiverType": "user", "text": "Hi Bob"}, &sent)
	select {
	case ev := <-events:
		me, ok := ev.(*webhook.MessageEvent)
		if !ok || ev.Trigger() != webhook.TriggerMessageSent || me.Message.ID != sent.ID || me.Message.Sender != "alice" ||
			me.Message.Data.Text != "Hi Bob" {
			t.Fatalf("the webhook received %T %+v, want message_sent of message %s", ev, ev, sent.ID)
		}
	case <-time.After(eventTimeout):
		t.Fatal("the backend's webhook received nothing")
	}
	got := bob.await("alice's message", func(e jsEvent) bool { return e.Event == "message" && e.Message.ID == sent.ID })
	if got.Message.Text != "Hi Bob" || got.Message.Sender != "alice" {
		t.Errorf("bob received %+v", *got.Message)
	}
	// Alice's own client does not get her message back as an incoming one.
	alice.call("send", map[string]any{"to": "bob", "receiverType": "user", "text": "marker"}, nil)
	bob.await("the marker", func(e jsEvent) bool { return e.Event == "message" && e.Message.Text == "marker" })
	for _, e := range alice.snapshot() {
		if e.Event == "message" {
			t.Errorf("alice's client received her own message: %+v", *e.Message)
		}
	}
}

// snapshot returns the events received so far.
func (c *jsClient) snapshot() []jsEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.events)
}

func TestGroupJoinSendAndLiveReceipt(t *testing.T) {
	p := newProduct(t)
	p.user("alice")
	p.user("bob")
	ctx := ctxFor(t)
	if _, err := p.api.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "book-club", Name: "Book club", Type: chat.GroupPublic,
		Owner: "bob"}); err != nil {
		t.Fatal(err)
	}
	alice, bob := p.login("alice"), p.login("bob")

	var g struct {
		GUID      string
		HasJoined bool
	}
	alice.call("joinGroup", map[string]any{"guid": "book-club"}, &g)
	if g.GUID != "book-club" || !g.HasJoined {
		t.Fatalf("joinGroup answered %+v", g)
	}
	joined := bob.await("alice joining", func(e jsEvent) bool { return e.Event == "joined" })
	if joined.User != "alice" || joined.Group != "book-club" || joined.Message.Action != "joined" {
		t.Errorf("bob saw %+v", joined)
	}
	members, err := p.api.Members.List(ctx, "book-club", nil)
	if err != nil || !slices.ContainsFunc(members.Data, func(m chat.GroupMember) bool { return m.UID == "alice" }) {
		t.Fatalf("the backend's member list: %v, %+v", err, members)
	}

	var sent jsMessage
	alice.call("send", map[string]any{"to": "book-club", "receiverType": "group", "text": "Chapter 3 tonight?"}, &sent)
	got := bob.await("alice's group message", func(e jsEvent) bool { return e.Event == "message" && e.Message.ID == sent.ID })
	if got.Message.ReceiverType != "group" || got.Message.Receiver != "book-club" || got.Message.Sender != "alice" {
		t.Errorf("bob received %+v", *got.Message)
	}
	bob.call("markAsRead", map[string]any{"messageId": sent.ID, "receiverId": "book-club", "receiverType": "group", "senderId": "alice"}, nil)
	r := alice.await("bob's read receipt", func(e jsEvent) bool { return e.Event == "receipt" && e.Receipt.MessageID == sent.ID })
	if r.Receipt.Sender != "bob" || r.Receipt.ReceiptType != "read" || r.Receipt.ReceiverType != "group" {
		t.Errorf("alice's receipt: %+v", *r.Receipt)
	}
	// The receipt moved bob's read mark, as the backend sees it.
	conv, err := p.api.Conversations.GetGroup(ctx, "book-club", "bob")
	if err != nil || conv.UnreadMessageCount != 0 {
		t.Errorf("bob's group conversation after reading: %v, %+v", err, conv)
	}
}

func TestPagingWithSmallLimits(t *testing.T) {
	p := newProduct(t)
	ctx := ctxFor(t)
	for i := range 5 {
		p.user("user" + strconv.Itoa(i))
	}
	if _, err := p.api.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "all", Name: "All", Type: chat.GroupPublic, Owner: "user0",
		Members: &chat.AddMembersRequest{Participants: []string{"user1", "user2", "user3", "user4"}}}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 5 {
		m, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "user0", ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: "m" + strconv.Itoa(i)}}, chat.OnBehalfOf("user1"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	for i := 2; i < 5; i++ { // user0 talks with users 2 to 4 too
		if _, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "user" + strconv.Itoa(i), ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("user0")); err != nil {
			t.Fatal(err)
		}
	}
	c := p.login("user0")

	pages := func(args map[string]any) [][]string {
		var out [][]string
		c.call("pages", args, &out)
		return out
	}
	flat := func(pp [][]string) []string { return slices.Concat(pp...) }
	sizes := func(pp [][]string) []int {
		var n []int
		for _, p := range pp {
			n = append(n, len(p))
		}
		return n
	}

	users := pages(map[string]any{"list": "users", "limit": 2})
	if !slices.Equal(sizes(users), []int{2, 2, 1}) || len(slices.Compact(slices.Sorted(slices.Values(flat(users))))) != 5 {
		t.Errorf("users by 2: %v", users)
	}
	members := pages(map[string]any{"list": "groupMembers", "guid": "all", "limit": 2})
	if !slices.Equal(sizes(members), []int{2, 2, 1}) {
		t.Errorf("group members by 2: %v", members)
	}
	convs := pages(map[string]any{"list": "conversations", "limit": 2})
	if !slices.Equal(sizes(convs), []int{2, 2, 1}) { // with users 1 to 4, and the group
		t.Errorf("conversations by 2: %v", convs)
	}
	// Messages page backwards from the newest, without a gap or a repeat,
	// each page oldest first, as the SDK's callers show it.
	msgs := pages(map[string]any{"list": "messages", "uid": "user1", "limit": 2})
	if want := [][]string{ids[3:5], ids[1:3], ids[:1]}; !slices.EqualFunc(msgs, want, slices.Equal) {
		t.Errorf("messages by 2: %v, want %v", msgs, want)
	}
}

func TestClientSDKCallsAndEvents(t *testing.T) {
	p := newProduct(t)
	for _, uid := range []string{"alice", "bob", "carol"} {
		p.user(uid)
	}
	ctx := ctxFor(t)
	bob := p.login("bob")
	alice := p.login("alice")
	// bob subscribes to everyone's presence: alice's login shows.
	bob.await("alice online", func(e jsEvent) bool { return e.Event == "online" && e.User == "alice" })

	// A conversation with unread messages, as the SDK reads it.
	for _, text := range []string{"one", "two"} {
		if _, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: text}}, chat.OnBehalfOf("bob")); err != nil {
			t.Fatal(err)
		}
	}
	var conv struct {
		ID     string
		Unread int
	}
	alice.call("conversation", map[string]any{"uid": "bob"}, &conv)
	if conv.ID != "alice_user_bob" || conv.Unread != 2 {
		t.Errorf("alice's conversation with bob: %+v", conv)
	}
	var counts struct{ Users, Groups map[string]int }
	alice.call("unreadCounts", nil, &counts)
	if counts.Users["bob"] != 2 || len(counts.Users) != 1 || len(counts.Groups) != 0 {
		t.Errorf("alice's unread counts: %+v", counts)
	}

	// Edits and deletes by the backend reach the client.
	m, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "typo"}}, chat.OnBehalfOf("bob"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.api.Messages.Update(ctx, m.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "fixed"}}, chat.OnBehalfOf("bob")); err != nil {
		t.Fatal(err)
	}
	alice.await("the edit", func(e jsEvent) bool { return e.Event == "edited" && e.Message.ID == m.ID && e.Message.Text == "fixed" })
	if _, err := p.api.Messages.Delete(ctx, m.ID, nil, chat.OnBehalfOf("bob")); err != nil {
		t.Fatal(err)
	}
	alice.await("the delete", func(e jsEvent) bool { return e.Event == "deleted" && e.Message.ID == m.ID })

	// alice blocks carol, lists her, and unblocks her.
	alice.call("block", map[string]any{"uids": []string{"carol"}}, nil)
	var blocked []string
	alice.call("blocked", map[string]any{"limit": 10}, &blocked)
	if !slices.Equal(blocked, []string{"carol"}) {
		t.Errorf("alice's blocked users: %v", blocked)
	}
	if _, err := p.api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("carol")); err == nil {
		t.Error("carol could message alice, who blocked her")
	}
	alice.call("unblock", map[string]any{"uids": []string{"carol"}}, nil)
	alice.call("blocked", map[string]any{"limit": 10}, &blocked)
	if len(blocked) != 0 {
		t.Errorf("alice's blocked users after unblocking: %v", blocked)
	}

	// alice renames herself; the backend sees it.
	var me struct{ UID, Name string }
	alice.call("updateMe", map[string]any{"name": "Alice A."}, &me)
	if u, err := p.api.Users.Get(ctx, "alice"); err != nil || me.Name != "Alice A." || u.Name != "Alice A." {
		t.Errorf("after renaming: the SDK says %+v, the backend %v %+v", me, err, u)
	}

	// A group alice owns: she adds bob, who leaves; she sees it.
	if _, err := p.api.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "Team", Type: chat.GroupPrivate, Owner: "alice"}); err != nil {
		t.Fatal(err)
	}
	alice.call("addMembers", map[string]any{"guid": "team", "participants": []string{"bob"}}, nil)
	bob.call("leaveGroup", map[string]any{"guid": "team"}, nil)
	left := alice.await("bob leaving", func(e jsEvent) bool { return e.Event == "left" })
	if left.User != "bob" || left.Group != "team" {
		t.Errorf("alice saw %+v", left)
	}

	// alice's client closing makes her offline, for bob and for the backend.
	alice.stop()
	bob.await("alice offline", func(e jsEvent) bool { return e.Event == "offline" && e.User == "alice" })
	if u, err := p.api.Users.Get(ctx, "alice"); err != nil || u.Status != chat.UserOffline {
		t.Errorf("alice after her client closed: %v %+v", err, u)
	}
}
