package chattest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// online logs uid in through the client API (a minted token, PUT
// /v3.0/me), opens a socket of tr and authenticates it with the login's
// jwt, subscribed to presence as presence says ("" for none).
func online(t *testing.T, tr *chattest.MemTransport, srv *chattest.Server, client *chat.Client, uid, presence string) *chattest.MemSocket {
	t.Helper()
	tok := mint(t, client, uid)
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, http.StatusOK, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)
	s := tr.Open(t, srv)
	s.Write(t, authFrame(srv, uid, "device-"+uid, jwt, presence))
	f := s.Next(t)
	require.Equal(t, "auth", f["type"], f)
	require.Equal(t, map[string]any{"code": "200", "status": "OK"}, f["body"])
	ctx, cancel := context.WithTimeout(t.Context(), frameTimeout)
	defer cancel()
	require.NoError(t, srv.AwaitOnline(ctx, uid))
	return s
}

// The core speaks the websocket protocol over any transport: it answers
// the auth frame and pings, pushes what changes, acts on receipts, and
// closes with the protocol's codes, writing through the Socket only.
func TestRealtimeOverATransport(t *testing.T) {
	tr := chattest.NewMemTransport()
	srv := chattest.NewServer(chattest.WithRealtime(tr))
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	tok := mint(t, client, "bob")
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, http.StatusOK, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)

	bob := tr.Open(t, srv)
	bob.Write(t, map[string]any{"action": "ping"})
	assert.Equal(t, "pong", bob.Next(t)["action"])
	bob.Write(t, authFrame(srv, "bob", "bob-device", jwt, ""))
	auth := bob.Next(t)
	assert.Equal(t, "auth", auth["type"])
	assert.Equal(t, map[string]any{"code": "200", "status": "OK"}, auth["body"])
	require.NoError(t, srv.AwaitOnline(t.Context(), "bob"))

	// A message sent through the server API is pushed to its receiver.
	sent, err := client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	f := bob.Next(t)
	assert.Equal(t, "message", f["type"])
	assert.Equal(t, sent.ID, body(f)["id"])
	assert.Equal(t, "hi", body(f)["data"].(map[string]any)["text"])

	// A receipts frame marks the conversation read, as the REST mark does.
	bob.Write(t, map[string]any{"type": "receipts", "receiver": "alice", "receiverType": "user",
		"body": map[string]any{"action": "read", "messageId": sent.ID}})
	bob.Write(t, map[string]any{"action": "ping"}) // taken once the receipt is acted on
	assert.Equal(t, "pong", bob.Next(t)["action"])
	conv, ok := srv.Conversation("bob", "alice_user_bob")
	require.True(t, ok)
	assert.Zero(t, conv.UnreadMessageCount, "read through the transport")

	// Deleting the login's token closes the socket with 1008 and a reason.
	_, err = client.AuthTokens.Delete(t.Context(), "bob", tok)
	require.NoError(t, err)
	bob.AwaitClosed(t)
	assert.Equal(t, 1008, bob.Code)
	assert.Equal(t, "chattest: the auth token was deleted", bob.Reason)

	// Closing the server cuts the sockets still open.
	other := tr.Open(t, srv)
	srv.Close()
	other.AwaitClosed(t)
	assert.True(t, other.Cut, "cut without waiting for the client")
}

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
