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
	ctx := context.Background()
	pinned := `{"data":{"id":"42","data":{"text":"hi"},"pinnedBy":"app_system","pinnedAt":1719993037}}`
	unpinned := `{"data":{"id":"42","data":{"text":"hi"}}}`
	saved := `{"data":{"id":"42","savedAt":"1719993038"}}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "Pin as the app",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.Pin(ctx, "42") },
			Method: http.MethodPost, Path: "/v3/messages/42/pin", Reply: pinned,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.Equal(t, "app_system", msg.PinnedBy)
				assert.Equal(t, chat.Timestamp(1719993037), msg.PinnedAt)
			},
		},
		{
			Name: "Pin as a user",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Pin(ctx, "4/2", chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodPost, Path: "/v3/messages/4%2F2/pin", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":{"id":"42","pinnedBy":"cometchat-uid-1","pinnedAt":1719993037}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, "cometchat-uid-1", asMessage(t, got).PinnedBy)
			},
		},
		{
			Name:   "Unpin as the app",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.Unpin(ctx, "42") },
			Method: http.MethodDelete, Path: "/v3/messages/42/pin", Reply: unpinned,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				msg := asMessage(t, got)
				assert.Empty(t, msg.PinnedBy)
				assert.Zero(t, msg.PinnedAt)
			},
		},
		{
			Name: "Unpin as a user",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Unpin(ctx, "42", chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodDelete, Path: "/v3/messages/42/pin", OnBehalfOf: "cometchat-uid-1", Reply: unpinned,
		},
		{
			Name: "Save",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Save(ctx, "42", "cometchat-uid-1")
			},
			Method: http.MethodPost, Path: "/v3/messages/42/save", OnBehalfOf: "cometchat-uid-1", Reply: saved,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, chat.Timestamp(1719993038), asMessage(t, got).SavedAt, "a string timestamp decodes")
			},
		},
		{
			Name: "Unsave",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.Unsave(ctx, "42", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			Method: http.MethodDelete, Path: "/v3/messages/42/save", OnBehalfOf: "cometchat-uid-1", Reply: unpinned,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Zero(t, asMessage(t, got).SavedAt)
			},
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "Pin empty id", Call: func(c *chat.Client) error { _, err := c.Messages.Pin(ctx, ""); return err }, Arg: "id"},
		{Name: "Unpin dot id", Call: func(c *chat.Client) error { _, err := c.Messages.Unpin(ctx, "."); return err }, Arg: "id"},
		{Name: "Save empty id", Call: func(c *chat.Client) error { _, err := c.Messages.Save(ctx, "", "u"); return err }, Arg: "id"},
		{Name: "Save empty onBehalfOf", Call: func(c *chat.Client) error { _, err := c.Messages.Save(ctx, "1", ""); return err }, Arg: "onBehalfOf"},
		{Name: "Unsave empty onBehalfOf", Call: func(c *chat.Client) error { _, err := c.Messages.Unsave(ctx, "1", ""); return err }, Arg: "onBehalfOf"},
		{Name: "Unsave empty id", Call: func(c *chat.Client) error { _, err := c.Messages.Unsave(ctx, "", "u"); return err }, Arg: "id"},
	})
}

func TestMessagesPinErrors(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_PINNED_MESSAGES_LIMIT_EXCEEDED","message":"limit"}}`)
	_, err := client.Messages.Pin(context.Background(), "42")
	assert.ErrorIs(t, err, chat.ErrLimitExceeded)
	assert.Equal(t, "ERR_PINNED_MESSAGES_LIMIT_EXCEEDED", wiretest.RequireAPIError(t, err).Code)

	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MESSAGE_ID_NOT_FOUND","message":"no message"}}`)
	_, err = client.Messages.Unpin(context.Background(), "42")
	assert.ErrorIs(t, err, chat.ErrNotFound)
}
