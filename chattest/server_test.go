package chattest_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// t0 is the fixed time of the tests' clocks.
var t0 = faketest.T0

// start returns a server at t0 (unless opts set another clock) and a client
// of its fullAccess key; the server closes when the test ends.
func start(t *testing.T, opts ...chattest.Option) (*chattest.Server, *chat.Client) {
	t.Helper()
	return faketest.Start(t, opts...)
}

// seed adds active users without going through the API.
func seed(srv *chattest.Server, uids ...string) { faketest.Seed(srv, uids...) }

// requireAPIError asserts that err is the API error code with status, that
// errors.Is matches sentinel, and returns it.
func requireAPIError(t *testing.T, err error, status int, code string, sentinel error) *chat.Error {
	t.Helper()
	return faketest.RequireServiceError(t, err, status, code, sentinel)
}

// ids lists what id makes of each of items, in order.
func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func text(s string) chat.MessageData { return chat.MessageData{Text: s} }

func toUser(uid, s string) *chat.SendMessageRequest { return faketest.ToUser(uid, s) }

func TestConversation(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()

	alice, err := client.Users.Create(ctx, &chat.CreateUserRequest{
		UID: "Alice", Name: "Alice Liddell", Tags: []string{"vip"}, Metadata: map[string]any{"team": "red"}, WithAuthToken: true,
	})
	require.NoError(t, err)
	assert.Equal(t, "alice", alice.UID, "uids are lower-cased")
	assert.Equal(t, "Alice Liddell", alice.Name)
	assert.Equal(t, "default", alice.Role)
	assert.Equal(t, chat.UserOffline, alice.Status)
	assert.Equal(t, []string{"vip"}, alice.Tags)
	assert.Equal(t, map[string]any{"team": "red"}, alice.Metadata)
	assert.Equal(t, chat.TimestampOf(t0), alice.CreatedAt)
	assert.Regexp(t, `^alice_[0-9a-f]{40}$`, string(alice.AuthToken))

	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err)
	tok, err := client.AuthTokens.Create(ctx, "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, "bob", tok.UID)
	assert.Regexp(t, `^bob_[0-9a-f]{40}$`, string(tok.AuthToken))
	assert.Equal(t, chat.TimestampOf(t0), tok.CreatedAt)

	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, MUID: "m-1", Tags: []string{"greeting"},
		Data: chat.MessageData{Text: "Hello Bob", Metadata: map[string]any{"k": "v"}},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "1", msg.ID)
	assert.Equal(t, "alice_user_bob", msg.ConversationID)
	assert.Equal(t, "alice", msg.Sender)
	assert.Equal(t, "bob", msg.Receiver)
	assert.Equal(t, chat.ReceiverUser, msg.ReceiverType)
	assert.Equal(t, chat.CategoryMessage, msg.Category)
	assert.Equal(t, chat.MessageTypeText, msg.Type)
	assert.Equal(t, "m-1", msg.MUID)
	assert.Equal(t, []string{"greeting"}, msg.Tags)
	assert.Equal(t, "Hello Bob", msg.Data.Text)
	assert.Equal(t, map[string]any{"k": "v"}, msg.Data.Metadata)
	assert.Equal(t, chat.TimestampOf(t0), msg.SentAt)
	assert.Equal(t, chat.TimestampOf(t0), msg.UpdatedAt)
	require.NotNil(t, msg.Data.Entities)
	sender, err := msg.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, "alice", sender.UID)
	assert.Empty(t, sender.Tags, "entities carry no tags")
	receiver, err := msg.Data.Entities.Receiver.User()
	require.NoError(t, err)
	assert.Equal(t, "bob", receiver.UID)
	assert.Equal(t, "alice_user_bob", receiver.ConversationID)

	reply, err := client.Messages.SendThread(ctx, msg.ID, "bob", toUser("alice", "Hi Alice"))
	require.NoError(t, err)
	assert.Equal(t, "2", reply.ID)
	assert.Equal(t, "1", reply.ParentID)
	assert.Equal(t, "bob", reply.Sender)
	assert.Equal(t, "alice_user_bob", reply.ConversationID, "the uids are sorted")

	page, err := client.Messages.ListThreadMessages(ctx, msg.ID, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "2", page.Data[0].ID)
	assert.Equal(t, "1", page.Data[0].ParentID)
	assert.Equal(t, &chat.PageCount{Limit: 10, Count: 1}, page.Meta.Current)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, ID: "2", SentAt: chat.TimestampOf(t0)}, page.Meta.Next)

	parent, ok := srv.Message("1")
	require.True(t, ok)
	assert.Equal(t, 1, parent.ReplyCount)
	require.NotNil(t, parent.LastReply)
	assert.Equal(t, "2", parent.LastReply.ID)
	assert.Equal(t, "Hi Alice", parent.LastReply.Data.Text)

	fromApp, err := client.Messages.Send(ctx, toUser("alice", "Welcome"))
	require.NoError(t, err)
	assert.Equal(t, "app_system", fromApp.Sender, "without onBehalfOf the app sends")
	assert.Equal(t, "alice_user_app_system", fromApp.ConversationID)

	srv.AddGroup(chat.Group{GUID: "team", Name: "Team"}, "alice")
	toGroup, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "Team", ReceiverType: chat.ReceiverGroup, Category: chat.CategoryCustom, Type: "poll",
		Data: chat.MessageData{CustomData: map[string]any{"q": "lunch?"}},
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, "group_team", toGroup.ConversationID)
	assert.Equal(t, chat.MessageType("poll"), toGroup.Type)
	group, err := toGroup.Data.Entities.Receiver.Group()
	require.NoError(t, err)
	assert.Equal(t, "team", group.GUID)

	quoting, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: text("+1"), QuotedMessageID: "1",
	}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	require.NotNil(t, quoting.QuotedMessage)
	assert.Equal(t, "Hello Bob", quoting.QuotedMessage.Data.Text)

	all := srv.Messages()
	assert.Equal(t, []string{"1", "2", "3", "4", "5"}, messageIDs(all))
	all[0].Data.Metadata["k"] = "changed"
	again, _ := srv.Message("1")
	assert.Equal(t, "v", again.Data.Metadata["k"], "Messages returns copies")
}

func pageIDs(p *chat.Page[chat.Message]) []string { return messageIDs(p.Data) }

// messageIDs lists the ids of ms.
func messageIDs(ms []chat.Message) []string { return faketest.MessageIDs(ms) }

func TestErrors(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(ctx, toUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	reply, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "reply"))
	require.NoError(t, err)

	cases := []struct {
		name     string
		call     func() error
		status   int
		code     string
		sentinel error
		detail   string // a field Details must name, if any
	}{
		{"unknown user", func() error { _, err := client.Users.Get(ctx, "nobody"); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"existing uid", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "ALICE", Name: "Alice"})
			return err
		}, 400, "ERR_UID_ALREADY_EXISTS", chat.ErrConflict, ""},
		{"bad uid characters", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "a b!", Name: "X"})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"uid too long", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: strings.Repeat("u", 101), Name: "X"})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"name too long", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "x", Name: strings.Repeat("😀", 51)})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "name"},
		{"too many tags", func() error {
			_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "x", Name: "X", Tags: make([]string, 26)})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"unknown user update", func() error {
			_, err := client.Users.Update(ctx, "nobody", &chat.UpdateUserRequest{Name: "N"})
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown user delete", func() error { _, err := client.Users.Delete(ctx, "nobody", nil); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"empty receiver", func() error { _, err := client.Messages.Send(ctx, toUser("", "x")); return err },
			0, "", chat.ErrInvalidArgument, ""},
		{"bad receiver type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: "room", Data: text("x")})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"missing receiver type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", Data: text("x")})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"unknown receiver", func() error { _, err := client.Messages.Send(ctx, toUser("nobody", "x")); return err },
			404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown onBehalfOf", func() error {
			_, err := client.Messages.Send(ctx, toUser("bob", "x"), chat.OnBehalfOf("nobody"))
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown thread sender", func() error {
			_, err := client.Messages.SendThread(ctx, parent.ID, "nobody", toUser("bob", "x"))
			return err
		}, 404, "ERR_UID_NOT_FOUND", chat.ErrNotFound, ""},
		{"message too large", func() error {
			_, err := client.Messages.Send(ctx, toUser("bob", strings.Repeat("x", 65_537)), chat.OnBehalfOf("alice"))
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
		{"bad category", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Category: "action"})
			return err
		}, 400, "ERR_INVALID_MESSAGE_CATEGORY", chat.ErrBadRequest, "category"},
		{"bad type", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Type: "gif"})
			return err
		}, 400, "ERR_INVALID_MESSAGE_TYPE", chat.ErrBadRequest, "type"},
		{"unknown quoted message", func() error {
			_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, QuotedMessageID: "999"})
			return err
		}, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"reply to unknown message", func() error {
			_, err := client.Messages.SendThread(ctx, "999", "bob", toUser("alice", "x"))
			return err
		}, 404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"list unknown thread", func() error { _, err := client.Messages.ListThreadMessages(ctx, "999", nil); return err },
			404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"non-numeric message id", func() error { _, err := client.Messages.ListThreadMessages(ctx, "abc", nil); return err },
			404, "ERR_MSG_NOT_FOUND", chat.ErrNotFound, ""},
		{"reply to a reply", func() error {
			_, err := client.Messages.SendThread(ctx, reply.ID, "alice", toUser("bob", "x"))
			return err
		}, 400, "ERR_MESSAGE_THREAD_NESTING", chat.ErrBadRequest, ""},
		{"thread limit too large", func() error {
			_, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 1001}})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "limit"},
		{"bad affix", func() error {
			_, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Direction: "sideways"}})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "affix"},
		{"unknown auth token", func() error { _, err := client.AuthTokens.Get(ctx, "alice", "alice_nope"); return err },
			404, "ERR_AUTH_TOKEN_NOT_FOUND", chat.ErrNotFound, ""},
		{"unknown api key", func() error { _, err := client.APIKeys.Get(ctx, "0000"); return err },
			404, "ERR_APIKEY_NOT_FOUND", chat.ErrNotFound, ""},
		{"bad api key scope", func() error {
			_, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: " ", Scope: "root"})
			return err
		}, 400, "ERR_BAD_REQUEST", chat.ErrBadRequest, "scope"},
		{"unknown key", func() error {
			_, err := srv.ClientWithAPIKey("not-a-key", chat.WithoutRetries()).Users.List(ctx, nil)
			return err
		}, 401, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized, ""},
		{"deactivate nobody named", func() error {
			_, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{}})
			return err
		}, 0, "", chat.ErrInvalidArgument, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if tc.status == 0 { // refused by the SDK before sending
				require.ErrorIs(t, err, tc.sentinel)
				return
			}
			ce := requireAPIError(t, err, tc.status, tc.code, tc.sentinel)
			if tc.detail != "" {
				assert.NotEmpty(t, ce.Details[tc.detail], "details %v", ce.Details)
			}
		})
	}
	assert.Len(t, srv.Messages(), 2, "no failed call stored a message")
}

func TestConcurrentClients(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "hub")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 10 {
				uid := fmt.Sprintf("w%d-%d", w, i)
				if _, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid}); !assert.NoError(t, err) {
					return
				}
				_, err := client.Messages.Send(ctx, toUser("hub", uid), chat.OnBehalfOf(uid))
				assert.NoError(t, err)
				_, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 3}})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	msgs := srv.Messages()
	require.Len(t, msgs, 80)
	for i, m := range msgs {
		assert.Equal(t, fmt.Sprint(i+1), m.ID, "ids count up without gaps")
	}
	page, err := client.Users.List(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, 81, page.Meta.Pagination.Total)
}

func TestOptions(t *testing.T) {
	ctx := t.Context()
	srv, client := start(t, chattest.WithAppID("my-app"), chattest.WithAPIKey("secret-key-123"))
	assert.Equal(t, "my-app", srv.AppID())
	assert.Equal(t, "secret-key-123", srv.APIKey())
	assert.Equal(t, "my-app", client.AppID())
	assert.Equal(t, srv.URL()+"/v3", client.BaseURL())
	_, err := client.Users.List(ctx, nil)
	require.NoError(t, err, "the client uses the configured key")

	bad := chattest.NewServer(chattest.WithAppID("my_app"), chattest.WithAPIKey("has space"), chattest.WithClock(nil))
	defer bad.Close()
	assert.Equal(t, "test-app", bad.AppID(), "an unusable app id keeps the default")
	assert.Regexp(t, `^[0-9a-f]{40}$`, bad.APIKey(), "an unusable key keeps the default")
	_, err = bad.Client().Users.List(ctx, nil)
	require.NoError(t, err)
}

func TestClientWithInvalidOptions(t *testing.T) {
	srv, _ := start(t)
	client := srv.Client(chat.WithRegion("mars"))
	require.NotNil(t, client)
	_, err := client.Users.List(t.Context(), nil)
	require.ErrorIs(t, err, chat.ErrInvalidArgument)
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "region", ae.Name)

	_, err = srv.ClientWithAPIKey("").Users.List(t.Context(), nil)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "apiKey", ae.Name)
}

func TestServerPrintsNoKey(t *testing.T) {
	srv, _ := start(t)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		out := fmt.Sprintf(verb, srv)
		assert.NotContains(t, out, srv.APIKey(), verb)
		assert.Contains(t, out, "test-app", verb)
	}
	assert.NotContains(t, fmt.Sprint(struct{ S *chattest.Server }{srv}), srv.APIKey())
	var nilSrv *chattest.Server
	assert.Equal(t, "chattest.Server(nil)", fmt.Sprint(nilSrv))
	assert.Equal(t, fmt.Sprintf("chattest.Server{AppID: %q, URL: %q}", "test-app", srv.URL()), srv.String())
	assert.Equal(t, srv.String(), srv.GoString())
}

func TestCloseIsIdempotent(t *testing.T) {
	srv := chattest.NewServer()
	client := srv.Client(chat.WithoutRetries())
	_, err := client.APIKeys.List(t.Context(), nil)
	require.NoError(t, err)
	srv.Close()
	srv.Close()
	_, err = client.APIKeys.List(t.Context(), nil)
	require.ErrorIs(t, err, syscall.ECONNREFUSED, "nothing listens after Close")
	assert.False(t, errors.As(err, new(*chat.Error)), "no answer after Close")
}

func TestUnencodableSeed(t *testing.T) {
	srv, client := start(t)
	srv.AddUser(chat.User{UID: "odd", Name: "Odd", Metadata: map[string]any{"ch": make(chan int)}})
	_, err := client.Users.Get(t.Context(), "odd")
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 500, ce.StatusCode)
	assert.Equal(t, "ERR_EXCEPTION", ce.Code)
	assert.Contains(t, ce.DevMessage, "chan", "the encoding error is the devMessage")
}
