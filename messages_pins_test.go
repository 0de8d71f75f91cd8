package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestMessagesPinsAndSaves(t *testing.T) {
	pinned := `{"data":{"id":"42","data":{"text":"hi"},"pinnedBy":"app_system","pinnedAt":1719993037}}`
	unpinned := `{"data":{"id":"42","data":{"text":"hi"}}}`
	saved := `{"data":{"id":"42","savedAt":"1719993038"}}`
	runMsgWire(t, []msgWireCase{
		{
			name:   "Pin as the app",
			call:   func(ctx context.Context, c *chat.Client) (any, error) { return c.Messages.Pin(ctx, "42") },
			method: http.MethodPost, path: "/v3/messages/42/pin", reply: pinned,
			checkFn: func(t *testing.T, got any) {
				msg := asMessage(t, got)
				assert.Equal(t, "app_system", msg.PinnedBy)
				assert.Equal(t, chat.Timestamp(1719993037), msg.PinnedAt)
			},
		},
		{
			name: "Pin as a user",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.Pin(ctx, "4/2", chat.OnBehalfOf("cometchat-uid-1"))
			},
			method: http.MethodPost, path: "/v3/messages/4%2F2/pin", obo: "cometchat-uid-1",
			reply: `{"data":{"id":"42","pinnedBy":"cometchat-uid-1","pinnedAt":1719993037}}`,
			checkFn: func(t *testing.T, got any) {
				assert.Equal(t, "cometchat-uid-1", asMessage(t, got).PinnedBy)
			},
		},
		{
			name:   "Unpin as the app",
			call:   func(ctx context.Context, c *chat.Client) (any, error) { return c.Messages.Unpin(ctx, "42") },
			method: http.MethodDelete, path: "/v3/messages/42/pin", reply: unpinned,
			checkFn: func(t *testing.T, got any) {
				msg := asMessage(t, got)
				assert.Empty(t, msg.PinnedBy)
				assert.Zero(t, msg.PinnedAt)
			},
		},
		{
			name: "Unpin as a user",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.Unpin(ctx, "42", chat.OnBehalfOf("cometchat-uid-1"))
			},
			method: http.MethodDelete, path: "/v3/messages/42/pin", obo: "cometchat-uid-1", reply: unpinned,
		},
		{
			name: "Save",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.Save(ctx, "42", "cometchat-uid-1")
			},
			method: http.MethodPost, path: "/v3/messages/42/save", obo: "cometchat-uid-1", reply: saved,
			checkFn: func(t *testing.T, got any) {
				assert.Equal(t, chat.Timestamp(1719993038), asMessage(t, got).SavedAt, "a string timestamp decodes")
			},
		},
		{
			name: "Unsave",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.Unsave(ctx, "42", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			method: http.MethodDelete, path: "/v3/messages/42/save", obo: "cometchat-uid-1", reply: unpinned,
			checkFn: func(t *testing.T, got any) {
				assert.Zero(t, asMessage(t, got).SavedAt)
			},
		},
	})
	ctx := context.Background()
	runArgs(t, wholeClient, []argCase[*chat.Client]{
		{"Pin empty id", func(c *chat.Client) error { _, err := c.Messages.Pin(ctx, ""); return err }, "id"},
		{"Unpin dot id", func(c *chat.Client) error { _, err := c.Messages.Unpin(ctx, "."); return err }, "id"},
		{"Save empty id", func(c *chat.Client) error { _, err := c.Messages.Save(ctx, "", "u"); return err }, "id"},
		{"Save empty onBehalfOf", func(c *chat.Client) error { _, err := c.Messages.Save(ctx, "1", ""); return err }, "onBehalfOf"},
		{"Unsave empty onBehalfOf", func(c *chat.Client) error { _, err := c.Messages.Unsave(ctx, "1", ""); return err }, "onBehalfOf"},
		{"Unsave empty id", func(c *chat.Client) error { _, err := c.Messages.Unsave(ctx, "", "u"); return err }, "id"},
	})
}

func TestMessagesPinErrors(t *testing.T) {
	m := newMockAPI(t)
	m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_PINNED_MESSAGES_LIMIT_EXCEEDED","message":"limit"}}`)
	_, err := m.client.Messages.Pin(context.Background(), "42")
	assert.ErrorIs(t, err, chat.ErrLimitExceeded)
	assert.Equal(t, "ERR_PINNED_MESSAGES_LIMIT_EXCEEDED", wiretest.RequireAPIError(t, err).Code)

	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MESSAGE_ID_NOT_FOUND","message":"no message"}}`)
	_, err = m.client.Messages.Unpin(context.Background(), "42")
	assert.ErrorIs(t, err, chat.ErrNotFound)
}
