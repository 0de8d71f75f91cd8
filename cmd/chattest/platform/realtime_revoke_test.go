package platform_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// revokeWithin is how soon a revoked websocket must be closed.
const revokeWithin = time.Second

// rawOnline logs uid in with the auth token tok and authenticates a
// websocket with the login's jwt, as online does, but leaves the reading
// to the test.
func rawOnline(t *testing.T, srv *chattest.Server, tok string) *rtClient {
	t.Helper()
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	me := r.body["data"].(map[string]any)
	uid := me["uid"].(string)
	c := dialRT(t, srv, false)
	c.device = "device-" + uid
	c.send(authFrame(srv, uid, c.device, me["jwt"].(string), ""))
	f := c.read(frameTimeout)
	require.NoError(t, f.err)
	require.Equal(t, "200", body(f.frame)["code"], f.frame)
	ctx, cancel := context.WithTimeout(t.Context(), frameTimeout)
	defer cancel()
	require.NoError(t, srv.AwaitOnline(ctx, uid))
	return c
}

// readResult is a frame read from a websocket, or why none was.
type readResult struct {
	frame map[string]any
	err   error
}

// read reads the next frame of a websocket opened without its own reader,
// waiting at most within.
func (c *rtClient) read(within time.Duration) readResult {
	ctx, cancel := context.WithTimeout(c.t.Context(), within)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return readResult{err: err}
	}
	var f map[string]any
	require.NoError(c.t, json.Unmarshal(b, &f))
	return readResult{frame: f}
}

// assertClosed asserts that c reads, before deadline, a close frame with
// code and reason, and no frame before it.
func assertClosed(t *testing.T, c *rtClient, deadline time.Time, code websocket.StatusCode, reason string) bool {
	t.Helper()
	var pushed []map[string]any
	f := c.read(time.Until(deadline))
	for ; f.err == nil; f = c.read(time.Until(deadline)) {
		pushed = append(pushed, f.frame)
	}
	var ce websocket.CloseError
	ok := assert.Empty(t, pushed, "nothing more is pushed before the close")
	return assert.True(t, errors.As(f.err, &ce), "a close frame in time: %v", f.err) &&
		assert.Equal(t, code, ce.Code) && assert.Equal(t, reason, ce.Reason) && ok
}

// requireClosed is assertClosed ending the test when it fails.
func requireClosed(t *testing.T, c *rtClient, deadline time.Time, code websocket.StatusCode, reason string) {
	t.Helper()
	if !assertClosed(t, c, deadline, code, reason) {
		t.FailNow()
	}
}

func TestRealtimeRevocationClosesTheWebsocket(t *testing.T) {
	cases := []struct {
		name   string
		revoke func(t *testing.T, srv *chattest.Server, client *chat.Client, tok string)
		reason string
		gone   bool // bob is no longer a user one may message
	}{
		{"the auth token is deleted", func(t *testing.T, _ *chattest.Server, client *chat.Client, tok string) {
			_, err := client.AuthTokens.Delete(t.Context(), "bob", tok)
			require.NoError(t, err)
		}, "chattest: the auth token was deleted", false},
		{"the auth tokens are flushed", func(t *testing.T, _ *chattest.Server, client *chat.Client, _ string) {
			_, err := client.AuthTokens.Flush(t.Context(), "bob")
			require.NoError(t, err)
		}, "chattest: the auth token was deleted", false},
		{"the auth token rolls off", func(t *testing.T, _ *chattest.Server, client *chat.Client, _ string) {
			for range 100 { // a user keeps their 100 newest tokens
				mint(t, client, "bob")
			}
		}, "chattest: the auth token was deleted", false},
		{"the user is replaced by seeding", func(_ *testing.T, srv *chattest.Server, _ *chat.Client, _ string) {
			srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
		}, "chattest: the auth token was deleted", false},
		{"the user is deactivated", func(t *testing.T, _ *chattest.Server, client *chat.Client, _ string) {
			_, err := client.Users.Deactivate(t.Context(), &chat.DeactivateUsersRequest{UIDs: []string{"bob"}})
			require.NoError(t, err)
		}, "chattest: the user was deactivated", true},
		{"the user is deleted, which deactivates", func(t *testing.T, _ *chattest.Server, client *chat.Client, _ string) {
			_, err := client.Users.Delete(t.Context(), "bob", nil)
			require.NoError(t, err)
		}, "chattest: the user was deactivated", true},
		{"the user is deleted permanently", func(t *testing.T, _ *chattest.Server, client *chat.Client, _ string) {
			_, err := client.Users.Delete(t.Context(), "bob", &chat.DeleteUserRequest{Permanent: true})
			require.NoError(t, err)
		}, "chattest: the user was deleted", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, client := start(t)
			seed(srv, "alice", "bob")
			ctx := t.Context()
			_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Owner: "alice",
				Members: &chat.AddMembersRequest{Participants: []string{"bob"}}})
			require.NoError(t, err)
			alice, _ := online(t, srv, client, "alice", "")
			tok := mint(t, client, "bob")
			bob := rawOnline(t, srv, tok)
			m, err := client.Messages.Send(ctx, toUser("bob", "before"), chat.OnBehalfOf("alice"))
			require.NoError(t, err)
			f := bob.read(frameTimeout)
			require.NoError(t, f.err)
			require.Equal(t, m.ID, body(f.frame)["id"], "bob's websocket works")
			alice.nextOf("message")

			tc.revoke(t, srv, client, tok)
			deadline := time.Now().Add(revokeWithin)

			// Sent afterwards: a message to bob, where he can still be
			// messaged, and one to his group.
			_, err = client.Messages.Send(ctx, toUser("bob", "after"), chat.OnBehalfOf("alice"))
			if tc.gone {
				requireAPIError(t, err, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
			} else {
				require.NoError(t, err)
			}
			_, err = client.Messages.Send(ctx, toGroup("g", "after"), chat.OnBehalfOf("alice"))
			require.NoError(t, err)
			// bob's client, not yet aware, types and reads alice's message.
			bob.send(map[string]any{"appId": srv.AppID(), "type": "typing_indicator", "receiver": "alice", "receiverType": "user",
				"sender": "bob", "deviceId": bob.device, "body": map[string]any{"action": "started"}})
			bob.send(map[string]any{"appId": srv.AppID(), "type": "receipts", "receiver": "alice", "receiverType": "user", "sender": "bob",
				"messageSender": "alice", "deviceId": bob.device, "body": map[string]any{"action": "read", "messageId": m.ID}})

			assertClosed(t, bob, deadline, websocket.StatusPolicyViolation, tc.reason)

			// Closing the server waits for every websocket's reading to
			// end: bob's frames were read, or dropped, by then.
			srv.Close()
			<-alice.done
			for len(alice.frames) > 0 {
				f := <-alice.frames
				assert.NotContains(t, []any{"typing_indicator", "receipts"}, f["type"], "relayed from a revoked websocket: %v", f)
			}
			if !tc.gone {
				conv, ok := srv.Conversation("bob", "alice_user_bob")
				require.True(t, ok)
				assert.Equal(t, 2, conv.UnreadMessageCount, "the receipt read nothing")
			}
		})
	}
}

// Deleting one auth token closes the websockets opened with it, and no
// other.
func TestRealtimeRevocationClosesOnlyItsWebsockets(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	revokedTok, keptTok := mint(t, client, "bob"), mint(t, client, "bob")
	revoked, kept := rawOnline(t, srv, revokedTok), rawOnline(t, srv, keptTok)
	alice, _ := online(t, srv, client, "alice", "")

	_, err := client.AuthTokens.Delete(ctx, "bob", revokedTok)
	require.NoError(t, err)
	requireClosed(t, revoked, time.Now().Add(revokeWithin), websocket.StatusPolicyViolation, "chattest: the auth token was deleted")

	m, err := client.Messages.Send(ctx, toUser("bob", "still there?"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	f := kept.read(frameTimeout)
	require.NoError(t, f.err)
	assert.Equal(t, m.ID, body(f.frame)["id"], "the other login's websocket stays")
	assert.Equal(t, m.ID, body(alice.nextOf("message"))["id"])
	u, _ := srv.User("bob")
	assert.Equal(t, chat.UserAvailable, u.Status, "bob is still online")
}

// A websocket that sends no valid auth frame in time is closed; one that
// did stays.
func TestRealtimeAuthTimeout(t *testing.T) {
	srv, client := start(t, chattest.WithRealtimeAuthTimeout(200*time.Millisecond))
	seed(srv, "alice")
	authed, _ := online(t, srv, client, "alice", "")

	idle := dialRT(t, srv, false)
	idle.send(map[string]any{"action": "ping"})
	f := idle.read(frameTimeout)
	require.NoError(t, f.err)
	assert.Equal(t, "pong", f.frame["action"], "a ping is answered, but does not authenticate")
	requireClosed(t, idle, time.Now().Add(frameTimeout), websocket.StatusPolicyViolation, "chattest: no valid auth frame in time")

	authed.send(map[string]any{"action": "ping"})
	assert.Equal(t, "pong", authed.next()["action"], "the authenticated websocket, older than the idle one, is open")
}
