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
	ctx := context.Background()
	page := `{"data":[` + reactionJSON + `],"meta":{"current":{"limit":10,"count":1},"next":{"affix":"append","id":"7"}}}`
	checkPage := func(t *testing.T, _ wiretest.Request, got any) {
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
	checkCounts := func(t *testing.T, _ wiretest.Request, got any) {
		msg := asMessage(t, got)
		yes := true
		assert.Equal(t, []chat.ReactionCount{{Reaction: "👍", Count: 2, ReactedByMe: &yes}, {Reaction: "🎉", Count: 1}}, msg.Data.Reactions)
	}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "ListReactions",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListReactions(ctx, "42", nil)
			},
			Method: http.MethodGet, Path: "/v3/messages/42/reactions", Reply: page, Check: checkPage,
		},
		{
			Name: "ListReactions with a cursor on behalf of a user",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListReactions(ctx, "42", &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Direction: chat.DirectionAfter, ID: "6", Limit: 5}},
					chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodGet, Path: "/v3/messages/42/reactions", OnBehalfOf: "cometchat-uid-1",
			Query: "affix=append&id=6&limit=5",
			Reply: page, Check: checkPage,
		},
		{
			Name: "ListReactionsFor escapes the emoji as one segment",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListReactionsFor(ctx, "42", "👍", nil)
			},
			Method: http.MethodGet, Path: "/v3/messages/42/reactions/%F0%9F%91%8D", Reply: page, Check: checkPage,
		},
		{
			Name: "ListReactionsFor a text code with a slash",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListReactionsFor(ctx, "42", ":a/b?", &chat.ListReactionsOptions{CursorOptions: chat.CursorOptions{Limit: 2}})
			},
			Method: http.MethodGet, Path: "/v3/messages/42/reactions/:a%2Fb%3F", Query: "limit=2",
			Reply: page,
		},
		{
			Name: "AddReaction",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.AddReaction(ctx, "42", "👍", "cometchat-uid-1")
			},
			Method: http.MethodPost, Path: "/v3/messages/42/reactions/%F0%9F%91%8D", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":` + reactedMessageJSON + `}`, Check: checkCounts,
		},
		{
			Name: "AddReaction: the positional onBehalfOf wins",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.AddReaction(ctx, "42", "🎉", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			Method: http.MethodPost, Path: "/v3/messages/42/reactions/%F0%9F%8E%89", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":` + reactedMessageJSON + `}`,
		},
		{
			Name: "RemoveReaction",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.RemoveReaction(ctx, "42", "👍", "cometchat-uid-1")
			},
			Method: http.MethodDelete, Path: "/v3/messages/42/reactions/%F0%9F%91%8D", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":` + reactedMessageJSON + `}`, Check: checkCounts,
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "ListReactions empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.ListReactions(ctx, "", nil)
			return err
		}, Arg: "id"},
		{Name: "ListReactionsFor empty reaction", Call: func(c *chat.Client) error {
			_, err := c.Messages.ListReactionsFor(ctx, "1", "", nil)
			return err
		}, Arg: "reaction"},
		{Name: "ListReactionsFor dot-dot reaction", Call: func(c *chat.Client) error {
			_, err := c.Messages.ListReactionsFor(ctx, "1", "..", nil)
			return err
		}, Arg: "reaction"},
		{Name: "AddReaction empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "", "👍", "u")
			return err
		}, Arg: "id"},
		{Name: "AddReaction empty reaction", Call: func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "1", "", "u")
			return err
		}, Arg: "reaction"},
		{Name: "AddReaction empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.AddReaction(ctx, "1", "👍", "")
			return err
		}, Arg: "onBehalfOf"},
		{Name: "RemoveReaction empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.RemoveReaction(ctx, "1", "👍", "")
			return err
		}, Arg: "onBehalfOf"},
		{Name: "RemoveReaction empty reaction", Call: func(c *chat.Client) error {
			_, err := c.Messages.RemoveReaction(ctx, "1", "", "u")
			return err
		}, Arg: "reaction"},
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
		client, m := wiretest.Chat(t)
		m.ServePages("id", pages)
		assert.Equal(t, []string{"1", "2", "3"}, collectKeys(t, client.Messages.AllReactions(context.Background(), "42", opts), reactionID))
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/messages/42/reactions", r.Path)
			assert.Equal(t, "2", r.Query.Get("limit"))
		}
		assert.Len(t, m.Requests(), 2, "the short second page ends the walk")
	})
	t.Run("AllReactionsFor", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", pages)
		assert.Equal(t, []string{"1", "2", "3"}, collectKeys(t, client.Messages.AllReactionsFor(context.Background(), "42", "👍", opts, chat.OnBehalfOf("u1")), reactionID))
		for _, r := range m.Requests() {
			assert.Equal(t, "/v3/messages/42/reactions/%F0%9F%91%8D", r.Path)
			assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
		}
	})
	t.Run("arguments", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		for _, err := range client.Messages.AllReactionsFor(context.Background(), "42", "", nil) {
			wiretest.RequireArgError(t, err, "reaction")
		}
		for _, err := range client.Messages.AllReactions(context.Background(), "", nil) {
			wiretest.RequireArgError(t, err, "id")
		}
		assert.Zero(t, m.Calls())
	})
}

// TestReactionDecoding decodes a reaction with the service's type
// inconsistencies through the client.
func TestReactionDecoding(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":[{"id":7,"messageId":42,"reaction":"👍","uid":"u","reactedAt":"1638423490",
		"reactedBy":[{"uid":"u","createdAt":"1596537299"}]}],"meta":{"current":{"limit":"10","count":"1"},"next":{"affix":"append","id":7}}}`)
	p, err := client.Messages.ListReactions(context.Background(), "42", nil)
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
