package chattest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// memTransport is a realtime transport in memory: each websocket upgrade
// request served gives the test a memSocket, whose frames the test writes
// and reads without a network.
type memTransport struct{ sockets chan *memSocket }

func (t *memTransport) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(chattest.Socket) (*chattest.RealtimeConn, error)) {
	s := &memSocket{in: make(chan []byte), out: make(chan []byte, 64), closed: make(chan struct{})}
	rc, err := connect(s)
	if err != nil {
		return
	}
	defer rc.Close()
	t.sockets <- s
	for {
		select {
		case f := <-s.in:
			rc.Receive(f)
		case <-s.closed:
			return
		}
	}
}

// memSocket is one websocket of memTransport.
type memSocket struct {
	in     chan []byte // frames from the client
	out    chan []byte // frames from the fake
	once   sync.Once
	closed chan struct{} // closed by Close
	code   int           // set before closed closes
	reason string
	cut    bool // closed without waiting: its ctx had ended
}

func (s *memSocket) Send(ctx context.Context, frame []byte) error {
	select {
	case s.out <- frame:
		return nil
	case <-s.closed:
		return errors.New("closed")
	case <-ctx.Done():
		s.Close(ctx, 0, "")
		return ctx.Err()
	}
}

func (s *memSocket) Close(ctx context.Context, code int, reason string) error {
	s.once.Do(func() {
		s.code, s.reason, s.cut = code, reason, ctx.Err() != nil
		close(s.closed)
	})
	return nil
}

// send writes v to the fake as a client's frame.
func (s *memSocket) send(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	select {
	case s.in <- b:
	case <-time.After(frameTimeout):
		t.Fatal("the transport took no frame")
	}
}

// next returns the next frame the fake wrote.
func (s *memSocket) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case b := <-s.out:
		var f map[string]any
		require.NoError(t, json.Unmarshal(b, &f), "%s", b)
		return f
	case <-time.After(frameTimeout):
		t.Fatal("no frame came")
		return nil
	}
}

// awaitClosed waits until the fake closes s.
func (s *memSocket) awaitClosed(t *testing.T) {
	t.Helper()
	select {
	case <-s.closed:
	case <-time.After(frameTimeout):
		t.Fatal("the socket was not closed")
	}
}

// nextOf returns the next frame the fake wrote of type typ, skipping
// the others.
func (s *memSocket) nextOf(t *testing.T, typ string) map[string]any {
	t.Helper()
	for {
		if f := s.next(t); f["type"] == typ {
			return f
		}
	}
}

// online logs uid in through the client API (a minted token, PUT
// /v3.0/me), opens a socket of tr and authenticates it with the login's
// jwt, subscribed to presence as presence says ("" for none).
func (tr *memTransport) online(t *testing.T, srv *chattest.Server, client *chat.Client, uid, presence string) *memSocket {
	t.Helper()
	tok := mint(t, client, uid)
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, http.StatusOK, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)
	s := tr.open(t, srv)
	s.send(t, authFrame(srv, uid, "device-"+uid, jwt, presence))
	f := s.next(t)
	require.Equal(t, "auth", f["type"], f)
	require.Equal(t, map[string]any{"code": "200", "status": "OK"}, f["body"])
	ctx, cancel := context.WithTimeout(t.Context(), frameTimeout)
	defer cancel()
	require.NoError(t, srv.AwaitOnline(ctx, uid))
	return s
}

// open serves a websocket upgrade request through srv's handler, as the
// server would, and returns the socket the transport made for it; the
// request is served until the socket closes, at the latest when the
// test ends.
func (t *memTransport) open(tb *testing.T, srv *chattest.Server) *memSocket {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Connection", "Upgrade")
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Handler().ServeHTTP(httptest.NewRecorder(), r)
	}()
	select {
	case s := <-t.sockets:
		tb.Cleanup(func() {
			s.Close(context.Background(), statusGoingAway, "the test ended") // the client leaves
			<-served
		})
		return s
	case <-time.After(frameTimeout):
		tb.Fatal("the transport was not asked to serve the websocket")
		return nil
	}
}

// The core speaks the websocket protocol over any transport: it answers
// the auth frame and pings, pushes what changes, acts on receipts, and
// closes with the protocol's codes, writing through the Socket only.
func TestRealtimeOverATransport(t *testing.T) {
	tr := &memTransport{sockets: make(chan *memSocket, 4)}
	srv := chattest.NewServer(chattest.WithRealtime(tr))
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	tok := mint(t, client, "bob")
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, http.StatusOK, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)

	bob := tr.open(t, srv)
	bob.send(t, map[string]any{"action": "ping"})
	assert.Equal(t, "pong", bob.next(t)["action"])
	bob.send(t, authFrame(srv, "bob", "bob-device", jwt, ""))
	auth := bob.next(t)
	assert.Equal(t, "auth", auth["type"])
	assert.Equal(t, map[string]any{"code": "200", "status": "OK"}, auth["body"])
	require.NoError(t, srv.AwaitOnline(t.Context(), "bob"))

	// A message sent through the server API is pushed to its receiver.
	sent, err := client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	f := bob.next(t)
	assert.Equal(t, "message", f["type"])
	assert.Equal(t, sent.ID, body(f)["id"])
	assert.Equal(t, "hi", body(f)["data"].(map[string]any)["text"])

	// A receipts frame marks the conversation read, as the REST mark does.
	bob.send(t, map[string]any{"type": "receipts", "receiver": "alice", "receiverType": "user",
		"body": map[string]any{"action": "read", "messageId": sent.ID}})
	bob.send(t, map[string]any{"action": "ping"}) // taken once the receipt is acted on
	assert.Equal(t, "pong", bob.next(t)["action"])
	conv, ok := srv.Conversation("bob", "alice_user_bob")
	require.True(t, ok)
	assert.Zero(t, conv.UnreadMessageCount, "read through the transport")

	// Deleting the login's token closes the socket with 1008 and a reason.
	_, err = client.AuthTokens.Delete(t.Context(), "bob", tok)
	require.NoError(t, err)
	bob.awaitClosed(t)
	assert.Equal(t, 1008, bob.code)
	assert.Equal(t, "chattest: the auth token was deleted", bob.reason)

	// Closing the server cuts the sockets still open.
	other := tr.open(t, srv)
	srv.Close()
	other.awaitClosed(t)
	assert.True(t, other.cut, "cut without waiting for the client")
}

// statusGoingAway is the close code of a client that leaves.
const statusGoingAway = 1001

// frameTimeout bounds the wait for a frame the test expects.
const frameTimeout = 10 * time.Second

// authFrame is the auth frame of the client SDKs.
func authFrame(srv *chattest.Server, uid, device, jwt, presence string) map[string]any {
	b := map[string]any{"auth": jwt, "deviceId": device}
	if presence != "" {
		b["presenceSubscription"] = presence
	}
	return map[string]any{"appId": srv.AppID(), "type": "auth", "sender": uid, "deviceId": device, "receiver": "", "receiverType": "", "body": b}
}

// body returns a frame's body.
func body(f map[string]any) map[string]any {
	b, _ := f["body"].(map[string]any)
	return b
}

// Without a transport, a websocket upgrade request answers 501 with what
// to do, and other requests are served as usual.
func TestWebSocketWithoutATransport(t *testing.T) {
	srv := chattest.NewServer()
	defer srv.Close()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Connection", "Upgrade")
	srv.Handler().ServeHTTP(rec, r)
	assert.Equal(t, http.StatusNotImplemented, rec.Code)
	assert.Contains(t, rec.Body.String(), "platform.WithWebSocket()")
	_, err := srv.Client().Users.List(t.Context(), nil)
	assert.NoError(t, err)
}
