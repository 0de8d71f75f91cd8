package platform_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/internal/faketest"
)

// A server opened on the data directory of a closed one serves what the
// first was told, through the SDK: users, a group and its members, a
// thread, reactions, read state, an API key.
func TestDataDirKeepsTheState(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	srv, c := openSeeded(t, dir)
	parent, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "first"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	reply, err := c.Messages.SendThread(ctx, parent.ID, "bob", &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "second"}})
	require.NoError(t, err)
	_, err = c.Messages.AddReaction(ctx, parent.ID, "🎉", "bob")
	require.NoError(t, err)
	_, err = c.Conversations.MarkGroupRead(ctx, "team", "bob", &chat.MarkReadRequest{})
	require.NoError(t, err)
	key, err := c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "ci", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)
	before, err := c.Conversations.GetGroup(ctx, "team", "bob")
	require.NoError(t, err)
	c.CloseIdleConnections()
	srv.Close()

	srv, err = chattest.OpenServer(platform.WithDataDir(dir))
	require.NoError(t, err)
	defer srv.Close()
	c = srv.ClientWithAPIKey(string(key.APIKey)) // the key created before the restart
	defer c.CloseIdleConnections()
	members, err := c.Members.List(ctx, "team", nil)
	require.NoError(t, err)
	assert.Len(t, members.Data, 3)
	thread, err := c.Messages.ListThreadMessages(ctx, parent.ID, nil)
	require.NoError(t, err)
	require.Len(t, thread.Data, 1)
	assert.Equal(t, reply.ID, thread.Data[0].ID)
	got, err := c.Messages.Get(ctx, parent.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, got.Data.Reactions[0].Count)
	after, err := c.Conversations.GetGroup(ctx, "team", "bob")
	require.NoError(t, err)
	assert.Equal(t, before.UnreadMessageCount, after.UnreadMessageCount)
	assert.Equal(t, before.LastMessage.ID, after.LastMessage.ID)
	// New messages continue the ids.
	next, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "third"}}, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	assert.Greater(t, next.ID, reply.ID)
}

// A data directory keeps what the client API and its websocket changed,
// as the platform's client SDKs show it after a restart: the profile a
// login updated, a group joined, a message sent, a read receipt sent on
// the websocket. The users who were online are offline, and the jwt of a
// login before the restart still authenticates a websocket after it.
func TestDataDirKeepsTheClientAPI(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	srv, c := openSeeded(t, dir)
	_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "lobby", Name: "Lobby", Type: chat.GroupPublic, Owner: "carol"})
	require.NoError(t, err)
	alice, aliceTok := online(t, srv, c, "alice", "")
	bob := as(srv, mint(t, c, "bob"))
	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB","name":"Bobby","statusMessage":"on the train"}`, bob)
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	r = do(t, srv, "POST", "/v3.0/groups/lobby/members", `{}`, bob)
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	r = do(t, srv, "POST", "/v3.0/messages", `{"receiver":"alice","receiverType":"user","category":"message","type":"text","data":{"text":"hi from the train"}}`, bob)
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	id := r.body["data"].(map[string]any)["id"].(string)
	assert.Equal(t, id, body(alice.nextOf("message"))["id"], "alice sees it live")
	alice.send(map[string]any{"appId": srv.AppID(), "type": "receipts", "receiver": "bob", "receiverType": "user",
		"deviceId": alice.device, "body": map[string]any{"action": "read", "messageId": id}})
	alice.send(map[string]any{"action": "ping"})
	for f := alice.next(); f["action"] != "pong"; f = alice.next() { // frames are acted on in order
	}
	unread := func(c *chat.Client) int {
		conv, err := c.Conversations.GetUser(ctx, "bob", "alice")
		require.NoError(t, err)
		return conv.UnreadMessageCount
	}
	require.Equal(t, 0, unread(c), "read on the websocket")
	r = do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB"}`, as(srv, aliceTok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	jwt := r.body["data"].(map[string]any)["jwt"].(string)
	c.CloseIdleConnections()
	srv.Close()

	srv, err = chattest.OpenServer(platform.WithDataDir(dir), platform.WithWebSocket())
	require.NoError(t, err)
	defer srv.Close()
	c = srv.Client()
	defer c.CloseIdleConnections()
	u, err := c.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, "Bobby", u.Name)
	assert.Equal(t, "on the train", u.StatusMessage)
	members, err := c.Members.List(ctx, "lobby", nil)
	require.NoError(t, err)
	assert.Len(t, members.Data, 2, "carol and bob")
	m, err := c.Messages.Get(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "hi from the train", m.Data.Text)
	assert.Equal(t, 0, unread(c), "the receipt is kept")
	a, err := c.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, chat.UserOffline, a.Status, "her websocket closed with the server")
	assert.NotZero(t, a.LastActiveAt)

	again := dialRT(t, srv, true)
	again.send(authFrame(srv, "alice", "device-alice", jwt, ""))
	require.Equal(t, map[string]any{"code": "200", "status": "OK"}, body(again.nextOf("auth")), "a jwt of the first server")
	wctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	require.NoError(t, srv.AwaitOnline(wctx, "alice"))
}

// openSeeded opens a server on the data directory dir and seeds it
// through the API (seedThroughAPI); it returns the server and a client.
func openSeeded(t *testing.T, dir string) (*chattest.Server, *chat.Client) {
	t.Helper()
	srv, err := chattest.OpenServer(platform.WithDataDir(dir), platform.WithWebSocket())
	require.NoError(t, err)
	c := srv.Client()
	faketest.SeedThroughAPI(t, c)
	return srv, c
}

// BenchmarkSendKept sends messages through the SDK from 32 goroutines to a
// server that keeps its state in memory only (the default), also in memory
// for Export (WithExport), in a data directory (WithDataDir, synced in the
// background), and in one synced before each answer (SyncEachChange). It
// reports requests a second.
func BenchmarkSendKept(b *testing.B) {
	for _, kind := range []struct {
		name string
		opts func(b *testing.B) []chattest.Option
	}{
		{"memory", func(*testing.B) []chattest.Option { return nil }},
		{"export", func(*testing.B) []chattest.Option { return []chattest.Option{chattest.WithExport()} }},
		{"datadir", func(b *testing.B) []chattest.Option { return []chattest.Option{platform.WithDataDir(b.TempDir())} }},
		{"datadir-sync", func(b *testing.B) []chattest.Option {
			return []chattest.Option{platform.WithDataDir(b.TempDir(), platform.SyncEachChange())}
		}},
	} {
		b.Run(kind.name, func(b *testing.B) {
			srv, err := chattest.OpenServer(kind.opts(b)...)
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			seed(srv, "alice", "bob")
			c := srv.Client()
			defer c.CloseIdleConnections()
			b.ReportAllocs()
			b.ResetTimer()
			if err := faketest.SendMany(c, b.N, 32); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// The option of a data directory opens it again once its server closed
// it, with what the first server kept: a restart may reuse the options.
func TestDataDirOptionOpensAgain(t *testing.T) {
	opt := platform.WithDataDir(t.TempDir())
	srv, err := chattest.OpenServer(opt)
	require.NoError(t, err)
	_, err = chattest.OpenServer(opt)
	assert.ErrorContains(t, err, "is in use by another server")
	c := srv.Client()
	_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	c.CloseIdleConnections()
	srv.Close()

	again, err := chattest.OpenServer(opt)
	require.NoError(t, err)
	defer again.Close()
	c = again.Client()
	defer c.CloseIdleConnections()
	_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err, "the directory opened again takes changes")
	_, ok := again.User("alice")
	assert.True(t, ok)
}
