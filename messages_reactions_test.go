package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// reactionJSON is a reaction list item as chat-core §2.9 describes it.
const reactionJSON = `{"id":"7","messageId":"42","reaction":"👍","uid":"cometchat-uid-2","reactedAt":1638423490,
	"reactedBy":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
	"lastActiveAt":1638423400,"conversationId":"cometchat-uid-1_user_cometchat-uid-2"}}`

const reactedMessageJSON = `{"id":"42","sender":"cometchat-uid-1","category":"message","type":"text",
	"data":{"text":"hi","reactions":[{"reaction":"👍","count":2,"reactedByMe":true},{"reaction":"🎉","count":1}]}}`

func asReactionPage(t *testing.T, got any) *chat.Page[chat.Reaction] {
	t.Helper()
	p, ok := got.(*chat.Page[chat.Reaction])
	require.True(t, ok, "got %T", got)
	return p
}

func TestMessagesReactions(t *testing.T) {
	page := `{"data":[` + reactionJSON + `],"meta":{"current":{"limit":10,"count":1},"next":{"affix":"append","id":"7"}}}`
	checkPage := func(t *testing.T, got any) {
		p := asReactionPage(t, got)
		require.Len(t, p.Data, 1)
		r := p.Data[0]
		assert.Equal(t, "7", r.ID)
		assert.Equal(t, "42", r.MessageID)
		assert.Equal(t, "👍", r.Reaction)
		assert.Equal(t, "cometchat-uid-2", r.UID)
		assert.Equal(t, chat.Timestamp(1638423490), r.ReactedAt)
		require.NotNil(t, r.ReactedBy)
		assert.Equal(t, "George Alan", r.ReactedBy.Name)
		assert.Equal(t, chat.Timestamp(1638423400), r.ReactedBy.LastActiveAt)
		assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, ID: "7"}, p.Meta.Next)
	}
	checkCounts := func(t *testing.T, got any) {
		msg := asMessage(t, got)
		yes := true
		assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2, ReactedByMe: &yes}, {Reaction: "🎉", Count: 1}}, msg.Data.Reactions)
	}
	runMsgWire(t, []msgWireCase{
		{
			name: "ListReactions",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.ListReactions(ctx, "42", nil)
			},
			method: http.MethodGet, path: "/v3/messages/42/reactions", reply: page, checkFn: checkPage,
		},
		{
			name: "ListReactions with a cursor on behalf of a user",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.ListReactions(ctx, "42", &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Direction: chat.DirectionAfter, ID: "6", Limit: 5}},
					chat.OnBehalfOf("cometchat-uid-1"))
			},
			method: http.MethodGet, path: "/v3/messages/42/reactions", obo: "cometchat-uid-1",
			query: map[string]string{"affix": "append", "id": "6", "limit": "5"},
			reply: page, checkFn: checkPage,
		},
		{
			name: "ListReactionsFor escapes the emoji as one segment",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.ListReactionsFor(ctx, "42", "👍", nil)
			},
			method: http.MethodGet, path: "/v3/messages/42/reactions/%F0%9F%91%8D", reply: page, checkFn: checkPage,
		},
		{
			name: "ListReactionsFor a text code with a slash",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.ListReactionsFor(ctx, "42", ":a/b?", &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Limit: 2}})
			},
			method: http.MethodGet, path: "/v3/messages/42/reactions/:a%2Fb%3F", query: map[string]string{"limit": "2"},
			reply: page,
		},
		{
			name: "AddReaction",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.AddReaction(ctx, "42", "👍", "cometchat-uid-1")
			},
			method: http.MethodPost, path: "/v3/messages/42/reactions/%F0%9F%91%8D", obo: "cometchat-uid-1",
			reply: `{"data":` + reactedMessageJSON + `}`, checkFn: checkCounts,
		},
		{
			name: "AddReaction: the positional onBehalfOf wins",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.AddReaction(ctx, "42", "🎉", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			method: http.MethodPost, path: "/v3/messages/42/reactions/%F0%9F%8E%89", obo: "cometchat-uid-1",
			reply: `{"data":` + reactedMessageJSON + `}`,
		},
		{
			name: "RemoveReaction",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.RemoveReaction(ctx, "42", "👍", "cometchat-uid-1")
			},
			method: http.MethodDelete, path: "/v3/messages/42/reactions/%F0%9F%91%8D", obo: "cometchat-uid-1",
			reply: `{"data":` + reactedMessageJSON + `}`, checkFn: checkCounts,
		},
	})
	ctx := context.Background()
	runArgs(t, wholeClient, []argCase[*chat.Client]{
		{"ListReactions empty id", func(c *chat.Client) error {
			_, err := c.Messages.ListReactions(ctx, "", nil)
			return err
		}, "id"},
		{"ListReactionsFor empty reaction", func(c *chat.Client) error {
			_, err := c.Messages.ListReactionsFor(ctx, "1", "", nil)
			return err
		}, "reaction"},
		{"ListReactionsFor dot-dot reaction", func(c *chat.Client) error {
			_, err := c.Messages.ListReactionsFor(ctx, "1", "..", nil)
			return err
		}, "reaction"},
		{"AddReaction empty id", func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "", "👍", "u")
			return err
		}, "id"},
		{"AddReaction empty reaction", func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "1", "", "u")
			return err
		}, "reaction"},
		{"AddReaction empty onBehalfOf", func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "1", "👍", "")
			return err
		}, "onBehalfOf"},
		{"RemoveReaction empty onBehalfOf", func(c *chat.Client) error {
			_, err := c.Messages.RemoveReaction(ctx, "1", "👍", "")
			return err
		}, "onBehalfOf"},
		{"RemoveReaction empty reaction", func(c *chat.Client) error {
			_, err := c.Messages.RemoveReaction(ctx, "1", "", "u")
			return err
		}, "reaction"},
	})
}

func TestMessagesAllReactions(t *testing.T) {
	pages := map[string]string{
		"":  `{"data":[{"id":"1","reaction":"👍"},{"id":"2","reaction":"👍"}],"meta":{"current":{"limit":2,"count":2},"next":{"affix":"append","id":"2"}}}`,
		"2": `{"data":[{"id":"3","reaction":"👍"}],"meta":{"current":{"limit":2,"count":1},"next":{"affix":"append","id":"3"}}}`,
		"3": `{"data":[],"meta":{"current":{"limit":2,"count":0}}}`,
	}
	reactionID := func(r *chat.Reaction) string { return r.ID }
	opts := &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Limit: 2}}

	t.Run("AllReactions", func(t *testing.T) {
		m := newMockAPI(t)
		m.ServePages("id", pages)
		assert.Equal(t, []string{"1", "2", "3"}, collectKeys(t, m.client.Messages.AllReactions(context.Background(), "42", opts), reactionID))
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/messages/42/reactions", r.Path)
			assert.Equal(t, "2", r.Query.Get("limit"))
		}
		assert.Len(t, m.Requests(), 2, "the short second page ends the walk")
	})
	t.Run("AllReactionsFor", func(t *testing.T) {
		m := newMockAPI(t)
		m.ServePages("id", pages)
		assert.Equal(t, []string{"1", "2", "3"}, collectKeys(t, m.client.Messages.AllReactionsFor(context.Background(), "42", "👍", opts, chat.OnBehalfOf("u1")), reactionID))
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/messages/42/reactions/%F0%9F%91%8D", r.Path)
			assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
		}
	})
	t.Run("arguments", func(t *testing.T) {
		m := newMockAPI(t)
		for _, err := range m.client.Messages.AllReactionsFor(context.Background(), "42", "", nil) {
			wiretest.RequireArgError(t, err, "reaction")
		}
		for _, err := range m.client.Messages.AllReactions(context.Background(), "", nil) {
			wiretest.RequireArgError(t, err, "id")
		}
		assert.Zero(t, m.Calls())
	})
}

// TestReactionDecoding decodes a reaction with the service's type
// inconsistencies through the client.
func TestReactionDecoding(t *testing.T) {
	m := newMockAPI(t)
	m.Reply(http.StatusOK, `{"data":[{"id":7,"messageId":42,"reaction":"👍","uid":"u","reactedAt":"1638423490",
		"reactedBy":[{"uid":"u","createdAt":"1596537299"}]}],"meta":{"current":{"limit":"10","count":"1"},"next":{"affix":"append","id":7}}}`)
	p, err := m.client.Messages.ListReactions(context.Background(), "42", nil)
	require.NoError(t, err)
	require.Len(t, p.Data, 1)
	r := p.Data[0]
	assert.Equal(t, "7", r.ID)
	assert.Equal(t, "42", r.MessageID)
	assert.Equal(t, chat.Timestamp(1638423490), r.ReactedAt)
	require.NotNil(t, r.ReactedBy, "a one-element array where an object is documented")
	assert.Equal(t, chat.Timestamp(1596537299), r.ReactedBy.CreatedAt)
	assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, ID: "7"}, p.Meta.Next)
}
