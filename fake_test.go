package chat_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// The end-to-end tests run the SDK over real HTTP against chattest, the
// in-process fake of the API.

// t0 is the fixed time of the fake's clock in the end-to-end tests.
var t0 = time.Unix(1_700_000_000, 0)

// clock is a settable clock for the fake.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now is the clock's time.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// start returns a fake at t0 (unless opts set another clock) and a client
// of its fullAccess key without retries; the fake closes when the test
// ends.
func start(t *testing.T, opts ...chattest.Option) (*chattest.Server, *chat.Client) {
	t.Helper()
	opts = append([]chattest.Option{chattest.WithClock(func() time.Time { return t0 })}, opts...)
	srv := chattest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv, srv.Client(chat.WithoutRetries())
}

// seed adds active users to the fake without going through the API.
func seed(srv *chattest.Server, uids ...string) {
	for _, uid := range uids {
		srv.AddUser(chat.User{UID: uid, Name: strings.ToUpper(uid[:1]) + uid[1:]})
	}
}

// requireAPIError asserts that err is the API error code with status, that
// errors.Is matches sentinel, and returns it.
func requireAPIError(t *testing.T, err error, status int, code string, sentinel error) *chat.Error {
	t.Helper()
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, status, ce.StatusCode, "status")
	assert.Equal(t, code, ce.Code, "code")
	assert.Equal(t, "chat-api", ce.Source, "source")
	assert.NotEmpty(t, ce.Message, "message")
	assert.ErrorIs(t, err, sentinel)
	return ce
}

// text is message data with the text s.
func text(s string) chat.MessageData { return chat.MessageData{Text: s} }

// toUser is a text message to the user uid.
func toUser(uid, s string) *chat.SendMessageRequest {
	return &chat.SendMessageRequest{Receiver: uid, ReceiverType: chat.ReceiverUser, Data: text(s)}
}

// send sends a message on behalf of from (the app when from is empty) and
// returns it.
func send(t *testing.T, client *chat.Client, from string, req *chat.SendMessageRequest) *chat.Message {
	t.Helper()
	var opts []chat.RequestOption
	if from != "" {
		opts = append(opts, chat.OnBehalfOf(from))
	}
	m, err := client.Messages.Send(t.Context(), req, opts...)
	require.NoError(t, err)
	return m
}

// messageIDs lists the ids of ms.
func messageIDs(ms []chat.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// pageIDs lists the ids of a page of messages.
func pageIDs(p *chat.Page[chat.Message]) []string { return messageIDs(p.Data) }

// memberScopes lists the members of guid as "uid:scope", in the order the
// fake lists them.
func memberScopes(t *testing.T, client *chat.Client, guid string) []string {
	t.Helper()
	var out []string
	for m, err := range client.Members.All(t.Context(), guid, nil) {
		require.NoError(t, err)
		out = append(out, m.UID+":"+string(m.Scope))
	}
	return out
}
