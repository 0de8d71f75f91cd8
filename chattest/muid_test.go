package chattest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/webhook"
)

// withMUID is toUser with a client-side id.
func withMUID(uid, s, muid string) *chat.SendMessageRequest {
	req := toUser(uid, s)
	req.MUID = muid
	return req
}

// sentEvents counts the message_sent events fired so far (each is logged as
// a delivery the moment it fires).
func sentEvents(srv *chattest.Server) int {
	n := 0
	for _, d := range srv.Deliveries() {
		if d.Trigger == string(webhook.TriggerMessageSent) {
			n++
		}
	}
	return n
}

// TestMUIDRepeatedBySameSender: a send whose muid its sender already used
// answers the message first sent, stores nothing and fires no event.
func TestMUIDRepeatedBySameSender(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "sent", recv.URL, webhook.TriggerMessageSent)
	ctx := t.Context()

	first, err := client.Messages.Send(ctx, withMUID("bob", "hello", "m-1"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	again, err := client.Messages.Send(ctx, withMUID("bob", "hello", "m-1"), chat.OnBehalfOf("alice"))
	require.NoError(t, err, "a repeat is answered as a success")
	assert.Equal(t, first.ID, again.ID, "the same message")
	assert.Equal(t, "m-1", again.MUID)
	assert.Equal(t, first.SentAt, again.SentAt)

	msgs := srv.Messages()
	require.Len(t, msgs, 1, "stored once")
	assert.Equal(t, 1, sentEvents(srv), "message_sent fired once")
	assert.Equal(t, []int{200, 200}, statuses(srv, "POST /v3/messages"))

	t.Run("even with another body", func(t *testing.T) {
		m, err := client.Messages.Send(ctx, withMUID("bob", "something else", "m-1"), chat.OnBehalfOf("alice"))
		require.NoError(t, err)
		assert.Equal(t, first.ID, m.ID)
		assert.Equal(t, "hello", m.Data.Text, "the message first sent with the muid")
		assert.Len(t, srv.Messages(), 1)
	})

	t.Run("another sender's muid is another message", func(t *testing.T) {
		m, err := client.Messages.Send(ctx, withMUID("alice", "hello", "m-1"), chat.OnBehalfOf("bob"))
		require.NoError(t, err)
		assert.NotEqual(t, first.ID, m.ID)
		assert.Equal(t, "bob", m.Sender)
		app, err := client.Messages.Send(ctx, withMUID("bob", "from the app", "m-1"))
		require.NoError(t, err, "the app (app_system) is a sender of its own")
		assert.NotEqual(t, first.ID, app.ID)
		assert.Len(t, srv.Messages(), 3)
		assert.Equal(t, 3, sentEvents(srv))

		again, err := client.Messages.Send(ctx, withMUID("bob", "from the app", "m-1"))
		require.NoError(t, err)
		assert.Equal(t, app.ID, again.ID, "the app's repeat is deduplicated too")
		assert.Len(t, srv.Messages(), 3)
	})
}

// TestMUIDAbsentNeverDeduplicated: requests without a muid (sent raw, so
// that no SDK fills one in) are distinct messages, however alike.
func TestMUIDAbsentNeverDeduplicated(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice", "bob")
	for _, body := range []string{
		`{"receiver":"bob","receiverType":"user","data":{"text":"same"}}`,
		`{"receiver":"bob","receiverType":"user","data":{"text":"same"}}`,
		`{"receiver":"bob","receiverType":"user","data":{"text":"same"},"muid":""}`,
	} {
		resp, out := fetch(t, srv, http.MethodPost, "/v3/messages", body)
		require.Equal(t, http.StatusOK, resp.StatusCode, out)
	}
	msgs := srv.Messages()
	require.Len(t, msgs, 3)
	assert.Equal(t, []string{"1", "2", "3"}, []string{msgs[0].ID, msgs[1].ID, msgs[2].ID})
}

// TestMUIDThreadAndBot: thread replies and bot messages are deduplicated
// the same way, and a repeated reply is not counted again in its thread.
func TestMUIDThreadAndBot(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "helper")
	ctx := t.Context()
	parent, err := client.Messages.Send(ctx, toUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	r1, err := client.Messages.SendThread(ctx, parent.ID, "bob", withMUID("alice", "reply", "r-1"))
	require.NoError(t, err)
	r2, err := client.Messages.SendThread(ctx, parent.ID, "bob", withMUID("alice", "reply", "r-1"))
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)
	assert.Equal(t, parent.ID, r2.ParentID)
	p, ok := srv.Message(parent.ID)
	require.True(t, ok)
	assert.Equal(t, 1, p.ReplyCount, "one reply in the thread")
	assert.Len(t, srv.Messages(), 2)

	b1, err := client.Messages.SendAsBot(ctx, "helper", withMUID("alice", "beep", "b-1"))
	require.NoError(t, err)
	b2, err := client.Messages.SendAsBot(ctx, "helper", withMUID("alice", "beep", "b-1"))
	require.NoError(t, err)
	assert.Equal(t, b1.ID, b2.ID)
	assert.Equal(t, "helper", b2.Sender)
	assert.Len(t, srv.Messages(), 3)
}

// TestMUIDFreedByPermanentDelete: a message removed for good frees its
// muid; a soft-deleted one keeps it.
func TestMUIDFreedByPermanentDelete(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	m, err := client.Messages.Send(ctx, withMUID("bob", "hi", "m-1"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	_, err = client.Messages.Delete(ctx, m.ID, nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	again, err := client.Messages.Send(ctx, withMUID("bob", "hi", "m-1"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, m.ID, again.ID, "soft-deleted: still the same message")
	assert.NotZero(t, again.DeletedAt)

	_, err = client.Messages.Delete(ctx, m.ID, &chat.DeleteMessageRequest{Permanent: true}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	fresh, err := client.Messages.Send(ctx, withMUID("bob", "hi", "m-1"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.NotEqual(t, m.ID, fresh.ID, "a new message")
	assert.Zero(t, fresh.DeletedAt)
}

// TestMUIDRetryAfterLostAnswer is the case the muid exists for: the server
// stores a message and the connection drops before the answer, so the
// caller cannot know; sending the same request again (same muid) answers
// the stored message, and the state holds it once.
func TestMUIDRetryAfterLostAnswer(t *testing.T) {
	for _, kind := range []chattest.FaultKind{chattest.FaultDropAfter, chattest.FaultTruncate} {
		t.Run(kind.String(), func(t *testing.T) {
			srv, client := start(t)
			seed(srv, "alice", "bob")
			ctx := t.Context()
			parent, err := client.Messages.Send(ctx, toUser("bob", "parent"), chat.OnBehalfOf("alice"))
			require.NoError(t, err)

			for _, c := range []struct {
				route string
				send  func(*chat.SendMessageRequest) (*chat.Message, error)
			}{
				{"POST /v3/messages", func(req *chat.SendMessageRequest) (*chat.Message, error) {
					return client.Messages.Send(ctx, req, chat.OnBehalfOf("alice"))
				}},
				{"POST /v3/messages/{id}/thread", func(req *chat.SendMessageRequest) (*chat.Message, error) {
					return client.Messages.SendThread(ctx, parent.ID, "alice", req)
				}},
			} {
				before := len(srv.Messages())
				require.NoError(t, srv.Fail(chattest.Fault{Route: c.route, Kind: kind, Times: 1}))
				req := withMUID("bob", "exactly once via "+c.route, "once-"+c.route)
				_, err := c.send(req)
				require.ErrorContains(t, err, streamReset, "the answer was lost")
				require.Len(t, srv.Messages(), before+1, "but the message was stored")
				stored := srv.Messages()[before]

				m, err := c.send(req)
				require.NoError(t, err)
				assert.Equal(t, stored.ID, m.ID, "the re-send answers the stored message")
				assert.Len(t, srv.Messages(), before+1, "stored once")
			}
			p, ok := srv.Message(parent.ID)
			require.True(t, ok)
			assert.Equal(t, 1, p.ReplyCount)
		})
	}
}

// statuses lists the statuses answered to the requests of route, in order.
func statuses(srv *chattest.Server, route string) []int {
	var out []int
	for _, r := range srv.Requests() {
		if r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}
