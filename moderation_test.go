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

func TestModerationWire(t *testing.T) {
	ctx := context.Background()
	spam := &chat.ModerationReason{ID: "spam", Name: "Spam", Description: "Unwanted ads", CreatedAt: 1720003247, UpdatedAt: 1720003247}
	const spamJSON = `{"id":"spam","name":"Spam","description":"Unwanted ads","createdAt":1720003247,"updatedAt":1720003247}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "CreateReason",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.CreateReason(ctx, &chat.CreateReasonRequest{ID: "spam", Name: "Spam", Description: "Unwanted ads"})
			},
			Reply:  `{"data":` + spamJSON + `}`,
			Method: http.MethodPost, Path: "/v3/moderation/reasons", Body: `{"id":"spam","name":"Spam","description":"Unwanted ads"}`,
			Want: spam,
		},
		{
			Name: "ListReasons with string timestamps",
			Call: func(c *chat.Client) (any, error) { return c.Moderation.ListReasons(ctx, nil) },
			Reply: `{"data":[{"id":"harassment","name":"Harassment","description":"","createdAt":"1720000000","updatedAt":"1720000000","default":true},
				{"id":"spam","name":"Spam","description":"Unwanted ads","createdAt":"1720003247","updatedAt":"1720003247","default":false}],
				"meta":{"current":{"limit":100,"count":2}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/reasons",
			Want: &chat.Page[chat.ModerationReason]{Data: []chat.ModerationReason{
				{ID: "harassment", Name: "Harassment", Default: true, CreatedAt: 1720000000, UpdatedAt: 1720000000}, *spam,
			}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 2}}},
		},
		{
			Name: "ListReasons with a limit",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ListReasons(ctx, &chat.ListReasonsOptions{CursorOptions: chat.CursorOptions{Limit: 5}})
			},
			Reply:  `{"data":[],"meta":{"current":{"limit":5,"count":0}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/reasons", Query: "limit=5",
			Want: &chat.Page[chat.ModerationReason]{Data: []chat.ModerationReason{}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 5}}},
		},
		{
			Name:   "GetReason",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.GetReason(ctx, "spam") },
			Reply:  `{"data":` + spamJSON + `}`,
			Method: http.MethodGet, Path: "/v3/moderation/reasons/spam", Want: spam,
		},
		{
			Name: "UpdateReason",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.UpdateReason(ctx, "spam", &chat.UpdateReasonRequest{Name: "Spam"})
			},
			Reply:  `{"data":` + spamJSON + `}`,
			Method: http.MethodPut, Path: "/v3/moderation/reasons/spam", Body: `{"name":"Spam"}`, Want: spam,
		},
		{
			Name:   "DeleteReason answered under data",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.DeleteReason(ctx, "spam") },
			Reply:  `{"data":{"success":true,"message":"Reason deleted."}}`,
			Method: http.MethodDelete, Path: "/v3/moderation/reasons/spam",
			Want: &chat.Result{Success: true, Message: "Reason deleted."},
		},
		{
			Name:   "DeleteReason answered at the top level",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.DeleteReason(ctx, "a/b") },
			Reply:  `{"success":true,"message":"Reason deleted."}`,
			Method: http.MethodDelete, Path: "/v3/moderation/reasons/a%2Fb",
			Want: &chat.Result{Success: true, Message: "Reason deleted."},
		},
	})

	t.Run("DeleteReason with an empty body", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, ``)
		res, err := client.Moderation.DeleteReason(ctx, "spam")
		assert.Nil(t, res)
		assert.ErrorIs(t, err, chat.ErrEmptyResponse)
		ce := wiretest.RequireAPIError(t, err)
		assert.Equal(t, http.StatusOK, ce.StatusCode)
		assert.Equal(t, "the response held no data; the request may have been applied", ce.Message)
	})

	t.Run("DeleteReason error", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_REASON_NOT_FOUND","message":"no such reason"}}`)
		_, err := client.Moderation.DeleteReason(ctx, "spam")
		assert.Equal(t, "ERR_REASON_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
		assert.ErrorIs(t, err, chat.ErrNotFound)
	})
}

func TestModerationAllReasons(t *testing.T) {
	t.Run("one page without a next cursor", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":[{"id":"a"},{"id":"b"}],"meta":{"current":{"limit":100,"count":2}}}`)
		ids := collectKeys(t, client.Moderation.AllReasons(context.Background(), nil),
			func(r *chat.ModerationReason) string { return r.ID })
		assert.Equal(t, []string{"a", "b"}, ids)
		assert.Equal(t, 1, m.Calls())
	})
	t.Run("follows meta.next", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{
			"":  `{"data":[{"id":"a"}],"meta":{"current":{"limit":1,"count":1},"next":{"affix":"append","id":"a"}}}`,
			"a": `{"data":[{"id":"b"}],"meta":{"current":{"limit":1,"count":1}}}`,
		})
		ids := collectKeys(t, client.Moderation.AllReasons(context.Background(), &chat.ListReasonsOptions{CursorOptions: chat.CursorOptions{Limit: 1}}),
			func(r *chat.ModerationReason) string { return r.ID })
		assert.Equal(t, []string{"a", "b"}, ids)
		reqs := m.Requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "affix=append&id=a&limit=1", reqs[1].RawQuery)
	})
}

func TestModerationArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.ModerationService]{
		{Name: "CreateReason nil", Call: func(s *chat.ModerationService) error { _, err := s.CreateReason(ctx, nil); return err }, Arg: "req"},
		{Name: "CreateReason without id", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateReason(ctx, &chat.CreateReasonRequest{Name: "n"})
			return err
		}, Arg: "req.ID"},
		{Name: "CreateReason without name", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateReason(ctx, &chat.CreateReasonRequest{ID: "i"})
			return err
		}, Arg: "req.Name"},
		{Name: "GetReason empty", Call: func(s *chat.ModerationService) error { _, err := s.GetReason(ctx, ""); return err }, Arg: "id"},
		{Name: "UpdateReason empty id", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateReason(ctx, "", &chat.UpdateReasonRequest{Name: "n"})
			return err
		}, Arg: "id"},
		{Name: "UpdateReason nil", Call: func(s *chat.ModerationService) error { _, err := s.UpdateReason(ctx, "i", nil); return err }, Arg: "req"},
		{Name: "UpdateReason without name", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateReason(ctx, "i", &chat.UpdateReasonRequest{})
			return err
		}, Arg: "req.Name"},
		{Name: "DeleteReason dot", Call: func(s *chat.ModerationService) error { _, err := s.DeleteReason(ctx, "."); return err }, Arg: "id"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.ModerationService { return c.Moderation }, tests)
}

// TestReasonsValidate holds the Validate of the reason requests to the checks
// their methods run before sending.
func TestReasonsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a reason", Value: &chat.CreateReasonRequest{ID: "spam", Name: "Spam"}},
		{Name: "a reason without an id", Value: &chat.CreateReasonRequest{Name: "Spam"}, Field: "req.ID"},
		{Name: "a reason without a name", Value: &chat.CreateReasonRequest{ID: "spam"}, Field: "req.Name"},
		{Name: "a rename", Value: &chat.UpdateReasonRequest{Name: "Junk"}},
		{Name: "a rename to nothing", Value: &chat.UpdateReasonRequest{}, Field: "req.Name"},
	})
}
