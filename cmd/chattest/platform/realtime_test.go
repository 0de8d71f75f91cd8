package platform_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// frameTimeout bounds the wait for a frame the test expects.
const frameTimeout = 10 * time.Second

// rtClient is a websocket of the client API, as a client SDK opens it.
type rtClient struct {
	t      testing.TB
	ws     *websocket.Conn
	frames chan map[string]any
	done   chan struct{} // closed when reading ends
	err    error         // why reading ended; set before done closes
	device string
}

// dialRT opens a websocket to srv at wss://HOST:PORT/, as the client SDKs
// build it from CHAT_HOST and CHAT_WSS_PORT, and when read is set reads its
// frames; it closes when the test ends.
func dialRT(t testing.TB, srv *chattest.Server, read bool) *rtClient {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	// The client SDKs' websockets speak HTTP/1.1.
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"}}}}
	ctx, cancel := context.WithTimeout(t.Context(), frameTimeout)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "wss://"+strings.TrimPrefix(srv.URL(), "https://"), &websocket.DialOptions{HTTPClient: hc})
	require.NoError(t, err)
	ws.SetReadLimit(-1)
	c := &rtClient{t: t, ws: ws, frames: make(chan map[string]any, 4096), done: make(chan struct{})}
	if !read {
		close(c.done)
		t.Cleanup(func() {
			ws.CloseNow()
			hc.CloseIdleConnections()
		})
		return c
	}
	go func() {
		defer close(c.done)
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				c.err = err
				return
			}
			var f map[string]any
			if json.Unmarshal(b, &f) == nil {
				c.frames <- f
			}
		}
	}()
	t.Cleanup(func() {
		ws.CloseNow()
		<-c.done
		hc.CloseIdleConnections()
	})
	return c
}

// send writes v as a text frame.
func (c *rtClient) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(c.t, err)
	ctx, cancel := context.WithTimeout(c.t.Context(), frameTimeout)
	defer cancel()
	require.NoError(c.t, c.ws.Write(ctx, websocket.MessageText, b))
}

// next returns the next frame, failing the test if none comes in time.
func (c *rtClient) next() map[string]any {
	c.t.Helper()
	select {
	case f := <-c.frames:
		return f
	case <-c.done:
		// Every frame read is queued before done closes.
		select {
		case f := <-c.frames:
			return f
		default:
		}
		c.t.Fatalf("the websocket closed: %v", c.err)
	case <-time.After(frameTimeout):
		c.t.Fatal("no frame came")
	}
	return nil
}

// nextOf returns the next frame of type typ, skipping others.
func (c *rtClient) nextOf(typ string) map[string]any {
	c.t.Helper()
	for {
		if f := c.next(); f["type"] == typ {
			return f
		}
	}
}

// body returns a frame's body.
func body(f map[string]any) map[string]any {
	b, _ := f["body"].(map[string]any)
	return b
}

// online logs uid in through the client API (a minted token, PUT
// /v3.0/me), opens a websocket and authenticates it with the login's jwt,
// subscribed to presence as presence says ("" for none).
func online(t testing.TB, srv *chattest.Server, client *chat.Client, uid, presence string) (*rtClient, string) {
	t.Helper()
	tok := mint(t, client, uid)
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)
	c := dialRT(t, srv, true)
	c.device = "device-" + uid
	c.send(authFrame(srv, uid, c.device, jwt, presence))
	f := c.next()
	require.Equal(t, "auth", f["type"], f)
	require.Equal(t, map[string]any{"code": "200", "status": "OK"}, f["body"])
	ctx, cancel := context.WithTimeout(t.Context(), frameTimeout)
	defer cancel()
	require.NoError(t, srv.AwaitOnline(ctx, uid))
	return c, tok
}

// authFrame is the auth frame of the client SDKs.
func authFrame(srv *chattest.Server, uid, device, jwt, presence string) map[string]any {
	b := map[string]any{"auth": jwt, "deviceId": device}
	if presence != "" {
		b["presenceSubscription"] = presence
	}
	return map[string]any{"appId": srv.AppID(), "type": "auth", "sender": uid, "deviceId": device, "receiver": "", "receiverType": "", "body": b}
}

func TestRealtimeAuthentication(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	_, tok := online(t, srv, client, "alice", "")
	u, _ := srv.User("alice")
	assert.Equal(t, chat.UserAvailable, u.Status, "a user with a websocket is available")

	r := do(t, srv, "PUT", "/v3.0/me", "{}", as(srv, tok))
	jwt := r.body["data"].(map[string]any)["jwt"].(string)
	head, rest, _ := strings.Cut(jwt, ".")
	claims, sig, _ := strings.Cut(rest, ".")
	other := chattest.NewServer(platform.WithWebSocket())
	defer other.Close()
	other.AddUser(chat.User{UID: "alice"})
	otherTok, err := other.Client().AuthTokens.Create(t.Context(), "alice", nil)
	require.NoError(t, err)
	otherJWT := do(t, other, "PUT", "/v3.0/me", "{}", as(other, string(otherTok.AuthToken))).body["data"].(map[string]any)["jwt"].(string)

	cases := []struct{ name, jwt string }{
		{"no jwt", ""},
		{"not a jwt", "nonsense"},
		{"a forged signature", head + "." + claims + "." + strings.Repeat("A", len(sig))},
		{"another server's jwt", otherJWT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dialRT(t, srv, true)
			c.send(authFrame(srv, "alice", "d", tc.jwt, ""))
			f := c.next()
			assert.Equal(t, "auth", f["type"])
			assert.Equal(t, "401", body(f)["code"])
			<-c.done
			assert.Equal(t, websocket.StatusPolicyViolation, websocket.CloseStatus(c.err), "closed after the answer: %v", c.err)
		})
	}

	// A jwt stops working when the backend deletes the login's token.
	_, err = client.AuthTokens.Delete(t.Context(), "alice", tok)
	require.NoError(t, err)
	c := dialRT(t, srv, true)
	c.send(authFrame(srv, "alice", "d", jwt, ""))
	assert.Equal(t, "401", body(c.next())["code"])
}

func TestRealtimeFramesBeforeAuthAreIgnored(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	c := dialRT(t, srv, true)
	c.send(map[string]any{"type": "typing_indicator", "receiver": "bob", "receiverType": "user", "body": map[string]any{"action": "started"}})
	c.send(map[string]any{"action": "ping", "ack": "true"})
	assert.Equal(t, map[string]any{"appId": srv.AppID(), "action": "pong", "deviceId": ""}, c.next(),
		"the pong answers the ping; the typing frame was dropped")
	bob, _ := online(t, srv, client, "bob", "")
	_, err := client.Messages.Send(t.Context(), toUser("bob", "marker"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "message", bob.next()["type"], "bob got no typing indicator")
}

func TestRealtimePingPong(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	c, _ := online(t, srv, client, "alice", "")
	c.send(map[string]any{"action": "ping", "ack": "true"}) // as the SDKs ping, every 15 seconds
	assert.Equal(t, "pong", c.next()["action"])
}

func TestRealtimeMessagePushes(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "bot")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob"}}})
	require.NoError(t, err)
	bob, bobTok := online(t, srv, client, "bob", "")
	carol, _ := online(t, srv, client, "carol", "")
	alice, aliceTok := online(t, srv, client, "alice", "")

	expect := func(c *rtClient, id, sender, receiver, receiverType, device string) map[string]any {
		t.Helper()
		f := c.nextOf("message")
		assert.Equal(t, srv.AppID(), f["appId"])
		assert.Equal(t, sender, f["sender"])
		assert.Equal(t, receiver, f["receiver"])
		assert.Equal(t, receiverType, f["receiverType"])
		assert.Equal(t, device, f["deviceId"])
		assert.Equal(t, id, body(f)["id"])
		return body(f)
	}

	// By the server API, on behalf of a user: both users' clients get it.
	m, err := client.Messages.Send(ctx, toUser("bob", "from the backend"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "from the backend", expect(bob, m.ID, "alice", "bob", "user", "")["data"].(map[string]any)["text"])
	expect(alice, m.ID, "alice", "bob", "user", "")

	// By a client: its deviceId is the sender's session (resource header).
	r := do(t, srv, "POST", "/v3.0/messages", `{"receiver":"alice","receiverType":"user","category":"message","type":"text","data":{"text":"hi"}}`, as(srv, bobTok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	id := r.body["data"].(map[string]any)["id"].(string)
	expect(alice, id, "bob", "alice", "user", "device-bob")
	expect(bob, id, "bob", "alice", "user", "device-bob")

	// A thread reply on behalf of a user, a bot's message.
	reply, err := client.Messages.SendThread(ctx, m.ID, "alice", toUser("bob", "in the thread"))
	require.NoError(t, err)
	assert.Equal(t, m.ID, expect(bob, reply.ID, "alice", "bob", "user", "")["parentId"])
	botMsg, err := client.Messages.SendAsBot(ctx, "bot", toUser("bob", "beep"))
	require.NoError(t, err)
	expect(bob, botMsg.ID, "bot", "bob", "user", "")

	// A group message reaches the members, not carol.
	g, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "g", ReceiverType: chat.ReceiverGroup, Data: text("team")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	expect(bob, g.ID, "alice", "g", "group", "")
	// carol joins: the members and carol get the action message.
	r = do(t, srv, "POST", "/v3.0/groups/g/members", "{}", as(srv, mint(t, client, "carol")))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	joined := r.body["data"].(map[string]any)["id"].(string)
	action := expect(carol, joined, "app_system", "g", "group", "")
	assert.Equal(t, "joined", action["data"].(map[string]any)["action"])
	expect(bob, joined, "app_system", "g", "group", "")

	// An edit by a client is pushed as the edited action.
	r = do(t, srv, "PUT", "/v3.0/messages/"+m.ID, `{"data":{"text":"edited"}}`, as(srv, aliceTok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	edited := expect(bob, r.body["data"].(map[string]any)["id"].(string), "alice", "bob", "user", "device-alice")
	assert.Equal(t, "edited", edited["data"].(map[string]any)["action"])
}

func TestRealtimeTypingAndReceipts(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob", "carol"}}})
	require.NoError(t, err)
	alice, _ := online(t, srv, client, "alice", "")
	bob, _ := online(t, srv, client, "bob", "")
	carol, _ := online(t, srv, client, "carol", "")

	typing := func(receiver, receiverType string) map[string]any {
		return map[string]any{"appId": srv.AppID(), "type": "typing_indicator", "receiver": receiver, "receiverType": receiverType,
			"sender": "alice", "deviceId": "device-alice", "body": map[string]any{"action": "started", "metadata": map[string]any{"x": 1}}}
	}
	alice.send(typing("bob", "user"))
	f := bob.nextOf("typing_indicator")
	assert.Equal(t, "alice", f["sender"])
	assert.Equal(t, "bob", f["receiver"])
	assert.Equal(t, "device-alice", f["deviceId"])
	assert.Equal(t, "started", body(f)["action"])
	assert.Equal(t, "alice", body(f)["user"].(map[string]any)["uid"])
	assert.Equal(t, map[string]any{"x": 1.0}, body(f)["metadata"])
	alice.send(typing("g", "group"))
	assert.Equal(t, "g", carol.nextOf("typing_indicator")["receiver"])
	assert.Equal(t, "g", bob.nextOf("typing_indicator")["receiver"])

	// bob reads alice's message: alice gets the receipt live, and bob's
	// conversation is read.
	m, err := client.Messages.Send(ctx, toUser("bob", "read me"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	bob.nextOf("message")
	bob.send(map[string]any{"appId": srv.AppID(), "type": "receipts", "receiver": "alice", "receiverType": "user", "sender": "bob",
		"messageSender": "alice", "deviceId": "device-bob", "body": map[string]any{"action": "read", "messageId": m.ID}})
	f = alice.nextOf("receipts")
	assert.Equal(t, "bob", f["sender"])
	assert.Equal(t, "alice", f["messageSender"])
	assert.Equal(t, "device-bob", f["deviceId"])
	assert.Equal(t, "read", body(f)["action"])
	assert.Equal(t, m.ID, body(f)["messageId"])
	assert.Equal(t, "bob", body(f)["user"].(map[string]any)["uid"])
	conv, err := client.Conversations.GetUser(ctx, "alice", "bob")
	require.NoError(t, err)
	assert.Equal(t, 0, conv.UnreadMessageCount)

	// A mark through the REST API is pushed too: delivered, in the group.
	g, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "g", ReceiverType: chat.ReceiverGroup, Data: text("all")}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Conversations.MarkGroupDelivered(ctx, "g", "carol", &chat.MarkDeliveredRequest{MessageID: mustID(t, g.ID)})
	require.NoError(t, err)
	for _, c := range []*rtClient{alice, bob} {
		f := c.nextOf("receipts")
		assert.Equal(t, "delivered", body(f)["action"])
		assert.Equal(t, "g", f["receiver"])
		assert.Equal(t, "carol", f["sender"])
	}

	// A receipt for a message of another conversation changes nothing.
	bob.send(map[string]any{"type": "receipts", "receiver": "carol", "receiverType": "user", "body": map[string]any{"action": "read", "messageId": g.ID}})
	bob.send(map[string]any{"action": "ping"})
	assert.Equal(t, "pong", bob.next()["action"], "no receipt went out before the pong")
}

func TestRealtimePresence(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	watcher, _ := online(t, srv, client, "carol", "ALL_USERS")
	unsubscribed, _ := online(t, srv, client, "bob", "")
	watcher.nextOf("presence") // bob came online

	alice, _ := online(t, srv, client, "alice", "")
	f := watcher.nextOf("presence")
	assert.Equal(t, "online", body(f)["action"])
	assert.Equal(t, "alice", body(f)["user"].(map[string]any)["uid"])
	require.NoError(t, alice.ws.Close(websocket.StatusNormalClosure, ""))
	f = watcher.nextOf("presence")
	assert.Equal(t, "offline", body(f)["action"])
	assert.Equal(t, "alice", f["sender"])
	u, _ := srv.User("alice")
	assert.Equal(t, chat.UserOffline, u.Status)

	unsubscribed.send(map[string]any{"action": "ping"})
	assert.Equal(t, "pong", unsubscribed.next()["action"], "bob, not subscribed, got no presence")
}

// A client that stops reading is dropped once its queue is full; the
// server never waits for it, and the other clients get every frame.
func TestRealtimeSlowClientIsDropped(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	fast, _ := online(t, srv, client, "carol", "")
	// bob's client reads its auth answer, then nothing.
	slow := dialRT(t, srv, false)
	slow.send(authFrame(srv, "bob", "device-bob", loginJWT(t, srv, client, "bob"), ""))
	_, b, err := slow.ws.Read(ctx)
	require.NoError(t, err)
	require.Contains(t, string(b), `"code":"200"`)
	require.NoError(t, srv.AwaitOnline(ctx, "bob"))

	// Messages to bob fill the network's buffers, then typing indicators
	// (cheaper to send) his queue, until it is full and he is dropped: he
	// goes offline.
	page := strings.Repeat("x", 60000)
	for range 100 {
		_, err := client.Messages.Send(ctx, toUser("bob", page), chat.OnBehalfOf("alice"))
		require.NoError(t, err)
	}
	sent := 100
	for {
		for range 100 {
			fast.send(map[string]any{"type": "typing_indicator", "receiver": "bob", "receiverType": "user", "body": map[string]any{"action": "started"}})
		}
		sent += 100
		fast.send(map[string]any{"action": "ping"})
		require.Equal(t, "pong", fast.next()["action"]) // the frames before it were handled
		if u, _ := srv.User("bob"); u.Status == chat.UserOffline {
			break
		}
		require.Less(t, sent, 100000, "bob is never dropped")
	}
	t.Logf("bob was dropped after %d frames", sent)
	// Meanwhile, and after, carol's client gets everything.
	last, err := client.Messages.Send(ctx, toUser("carol", "still here"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, last.ID, body(fast.nextOf("message"))["id"])

	// When bob reads again, he gets what was on its way, then the close.
	got := 0
	for {
		_, _, err := slow.ws.Read(ctx)
		if err != nil {
			assert.Equal(t, websocket.StatusPolicyViolation, websocket.CloseStatus(err), "%v", err)
			break
		}
		got++
	}
	assert.Less(t, got, sent, "the queued frames were dropped")
	t.Logf("bob read %d of them before the close", got)
}

// loginJWT logs uid in through the client API and returns the jwt of the
// login.
func loginJWT(t *testing.T, srv *chattest.Server, client *chat.Client, uid string) string {
	t.Helper()
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, mint(t, client, uid)))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	return r.body["data"].(map[string]any)["jwt"].(string)
}
