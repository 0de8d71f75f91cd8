package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestModerationMessagesWire(t *testing.T) {
	ctx := context.Background()
	yes, no := true, false
	const blockedJSON = `{"ruleId":"no-spam","ruleName":"No spam","revisionId":"myapp_no-spam_2",
		"condition":{"id":1,"isKeywordsReferencePresent":true,"isMediaPresent":false,"entity":"message","operand":"text","category":"word","operator":"contains","value":["spam-words"],"message":"Spam"},
		"message":{"id":"42","sender":"alice","receiverType":"user","receiver":"bob","category":"message","type":"text",
			"data":{"text":"buy now","moderation":{"status":"pending","rule":{"id":"no-spam","name":"No spam"}}},"sentAt":1720003247},
		"action":["blockMessage"],"createdAt":1720003247,"updatedAt":1720003247}`
	blocked := chat.BlockedMessage{RuleID: "no-spam", RuleName: "No spam", RevisionID: "myapp_no-spam_2",
		Condition: &chat.RuleCondition{ID: 1, KeywordReference: true, Entity: "message", Operand: chat.ConditionText, Category: chat.KeywordWord,
			Operator: chat.ConditionContains, Values: []string{"spam-words"}, Message: []string{"Spam"}},
		Message: &chat.Message{ID: "42", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob", Category: chat.CategoryMessage,
			Type: chat.MessageTypeText, SentAt: 1720003247, Data: chat.MessageData{Text: "buy now",
				Moderation: &chat.Moderation{Status: "pending", Rule: &chat.ModerationRuleRef{ID: "no-spam", Name: "No spam"}}}},
		Actions: []chat.RuleAction{chat.ActionBlockMessage}, CreatedAt: 1720003247, UpdatedAt: 1720003247}
	const flaggedJSON = `{"appId":"myapp","id":"540190","conversationId":"a_user_b","sender":"a","receiverType":"user","receiver":"b",
		"category":"message","type":"text","data":{"text":"heya"},"sentAt":1761295196,"updatedAt":1761295196,
		"flaggedBy":[{"uid":"b","name":"Bee","role":"default","reasonId":"spam","reasonName":"Spam","description":"Ads","remark":"again","extra":1}]}`

	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "ListBlockedMessages",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ListBlockedMessages(ctx, &chat.ListBlockedMessagesOptions{CursorOptions: chat.CursorOptions{ID: "41", Limit: 10}})
			},
			Reply:  `{"data":[` + blockedJSON + `],"meta":{"current":{"limit":10,"count":1}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/blocked-messages", Query: "id=41&limit=10",
			Want: &chat.Page[chat.BlockedMessage]{Data: []chat.BlockedMessage{blocked}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 10, Count: 1}}},
		},
		{
			Name: "ReviewBlockedMessage",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ReviewBlockedMessage(ctx, "42", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewRejected, Reviewed: &yes})
			},
			Reply:  `{"data":{"success":true,"message":"Message with ID 42 has been reviewed successfully."}}`,
			Method: http.MethodPatch, Path: "/v3/moderation/blocked-messages/42", Body: `{"status":"rejected","reviewed":true}`,
			Want: &chat.Result{Success: true, Message: "Message with ID 42 has been reviewed successfully."},
		},
		{
			Name: "ReviewBlockedMessage not reviewed",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ReviewBlockedMessage(ctx, "42", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved, Reviewed: &no})
			},
			Reply:  `{"data":{"success":true,"message":"ok"}}`,
			Method: http.MethodPatch, Path: "/v3/moderation/blocked-messages/42", Body: `{"status":"approved","reviewed":false}`,
			Want: &chat.Result{Success: true, Message: "ok"},
		},
		{
			Name: "ReviewBlockedMessage in the older approve form",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ReviewBlockedMessage(ctx, "4/2", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
			},
			Reply:  `{"data":{"success":true,"message":"Message with ID 4/2 has been approved."}}`,
			Method: http.MethodPatch, Path: "/v3/moderation/blocked-messages/4%2F2", Body: `{"status":"approved"}`,
			Want: &chat.Result{Success: true, Message: "Message with ID 4/2 has been approved."},
		},
		{
			Name:   "ListFlaggedMessages",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.ListFlaggedMessages(ctx, nil) },
			Reply:  `{"data":[` + flaggedJSON + `],"meta":{"current":{"limit":100,"count":1}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/flagged-messages",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				page := got.(*chat.Page[chat.FlaggedMessage])
				require.Len(t, page.Data, 1)
				f := page.Data[0]
				assert.Equal(t, "540190", f.ID)
				assert.Equal(t, "heya", f.Data.Text)
				assert.Equal(t, chat.Timestamp(1761295196), f.SentAt)
				assert.Equal(t, "myapp", f.AppID)
				assert.Equal(t, []chat.Flagger{{UID: "b", Name: "Bee", Role: "default", ReasonID: "spam", ReasonName: "Spam", Description: "Ads", Remark: "again"}}, f.FlaggedBy)
				var raw map[string]any
				require.NoError(t, json.Unmarshal(f.Raw, &raw))
				assert.Equal(t, float64(1), raw["flaggedBy"].([]any)[0].(map[string]any)["extra"], "Raw keeps what is not typed")
				assert.Equal(t, &chat.PageCount{Limit: 100, Count: 1}, page.Meta.Current)
			},
		},
		{
			Name: "ReviewFlaggedMessage answered with an empty object",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ReviewFlaggedMessage(ctx, "540190", &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewDisapproved})
			},
			Reply:  `{"data":{}}`,
			Method: http.MethodPatch, Path: "/v3/moderation/flagged-messages/540190", Body: `{"status":"disapproved"}`,
			Want: &chat.Result{},
		},
		{
			Name: "ReviewFlaggedMessage answered at the top level",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ReviewFlaggedMessage(ctx, "2", &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewApproved})
			},
			Reply:  `{"success":true,"message":"Message with id 2 has been unflagged successfully."}`,
			Method: http.MethodPatch, Path: "/v3/moderation/flagged-messages/2", Body: `{"status":"approved"}`,
			Want: &chat.Result{Success: true, Message: "Message with id 2 has been unflagged successfully."},
		},
		{
			Name:   "ListReviewedMessages",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.ListReviewedMessages(ctx, nil) },
			Reply:  `{"data":[` + blockedJSON + `,{"message":{"id":"7","data":{"moderation":{"status":"approved"}}},"flaggedBy":[{"uid":"b"}],"createdAt":1,"updatedAt":2}],"meta":{"current":{"limit":100,"count":2}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/reviewed-messages",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				page := got.(*chat.Page[chat.ReviewedMessage])
				require.Len(t, page.Data, 2)
				r := page.Data[0]
				assert.Equal(t, blocked.RuleID, r.RuleID)
				assert.Equal(t, blocked.RevisionID, r.RevisionID)
				assert.Equal(t, blocked.Condition, r.Condition)
				assert.Equal(t, blocked.Message, r.Message)
				assert.Equal(t, blocked.Actions, r.Actions)
				assert.JSONEq(t, blockedJSON, string(r.Raw))
				f := page.Data[1]
				assert.Equal(t, "approved", f.Message.Data.Moderation.Status)
				assert.Equal(t, []chat.Flagger{{UID: "b"}}, f.FlaggedBy)
				assert.Equal(t, chat.Timestamp(2), f.UpdatedAt)
			},
		},
	})

	t.Run("review errors", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MESSAGE_ID_NOT_FOUND","message":"no such message"}}`)
		_, err := client.Moderation.ReviewFlaggedMessage(ctx, "9", &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewApproved})
		assert.Equal(t, "ERR_MESSAGE_ID_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
		assert.ErrorIs(t, err, chat.ErrNotFound)
	})
}

func TestModerationAllMessageLists(t *testing.T) {
	ctx := context.Background()
	pages := map[string]string{
		"":  `{"data":[{"message":{"id":"1"},"id":"1"}],"meta":{"current":{"limit":1,"count":1},"next":{"affix":"append","id":"1"}}}`,
		"1": `{"data":[{"message":{"id":"2"},"id":"2"}],"meta":{"current":{"limit":1,"count":1}}}`,
	}
	opts := chat.CursorOptions{Limit: 1}
	tests := []struct {
		name, path string
		ids        func(c *chat.Client) ([]string, error)
	}{
		{"AllBlockedMessages", "/v3/moderation/blocked-messages", func(c *chat.Client) ([]string, error) {
			var ids []string
			for b, err := range c.Moderation.AllBlockedMessages(ctx, &chat.ListBlockedMessagesOptions{CursorOptions: opts}) {
				if err != nil {
					return nil, err
				}
				ids = append(ids, b.Message.ID)
			}
			return ids, nil
		}},
		{"AllFlaggedMessages", "/v3/moderation/flagged-messages", func(c *chat.Client) ([]string, error) {
			var ids []string
			for f, err := range c.Moderation.AllFlaggedMessages(ctx, &chat.ListFlaggedMessagesOptions{CursorOptions: opts}) {
				if err != nil {
					return nil, err
				}
				ids = append(ids, f.ID)
			}
			return ids, nil
		}},
		{"AllReviewedMessages", "/v3/moderation/reviewed-messages", func(c *chat.Client) ([]string, error) {
			var ids []string
			for r, err := range c.Moderation.AllReviewedMessages(ctx, &chat.ListReviewedMessagesOptions{CursorOptions: opts}) {
				if err != nil {
					return nil, err
				}
				ids = append(ids, r.Message.ID)
			}
			return ids, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.ServePages("id", pages)
			ids, err := tt.ids(client)
			require.NoError(t, err)
			assert.Equal(t, []string{"1", "2"}, ids)
			reqs := m.Requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, tt.path, reqs[1].Path)
			assert.Equal(t, "affix=append&id=1&limit=1", reqs[1].RawQuery)
		})
	}
}

func TestModerationMessagesArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.ModerationService]{
		{Name: "ReviewBlockedMessage empty id", Call: func(s *chat.ModerationService) error {
			_, err := s.ReviewBlockedMessage(ctx, "", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
			return err
		}, Arg: "id"},
		{Name: "ReviewBlockedMessage nil", Call: func(s *chat.ModerationService) error { _, err := s.ReviewBlockedMessage(ctx, "1", nil); return err }, Arg: "req"},
		{Name: "ReviewBlockedMessage without status", Call: func(s *chat.ModerationService) error {
			_, err := s.ReviewBlockedMessage(ctx, "1", &chat.ReviewBlockedMessageRequest{})
			return err
		}, Arg: "req.Status"},
		{Name: "ReviewFlaggedMessage dot-dot", Call: func(s *chat.ModerationService) error {
			_, err := s.ReviewFlaggedMessage(ctx, "..", &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewApproved})
			return err
		}, Arg: "id"},
		{Name: "ReviewFlaggedMessage nil", Call: func(s *chat.ModerationService) error { _, err := s.ReviewFlaggedMessage(ctx, "1", nil); return err }, Arg: "req"},
		{Name: "ReviewFlaggedMessage without status", Call: func(s *chat.ModerationService) error {
			_, err := s.ReviewFlaggedMessage(ctx, "1", &chat.ReviewFlaggedMessageRequest{})
			return err
		}, Arg: "req.Status"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.ModerationService { return c.Moderation }, tests)
}

// TestReviewsValidate holds the Validate of the review requests to the checks
// their methods run before sending.
func TestReviewsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a blocked message approved", Value: &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved}},
		{Name: "a blocked message without a verdict", Value: &chat.ReviewBlockedMessageRequest{}, Field: "req.Status"},
		{Name: "a flagged message disapproved", Value: &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewDisapproved}},
		{Name: "a flagged message without a verdict", Value: &chat.ReviewFlaggedMessageRequest{}, Field: "req.Status"},
	})
}
