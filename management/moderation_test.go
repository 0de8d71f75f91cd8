//lint:file-ignore SA1019 the deprecated moderation variants are tested on purpose

package management_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

const modRuleJSON = `{"id":"no-spam","name":"No spam","enabled":true,
	"conditions":[{"id":1,"isKeywordsReferencePresent":true,"isMediaPresent":false,"entity":"message","operand":"text","category":"word","operator":"contains","value":["spam-words"]}],
	"action":["blockMessage"],"active":true,"createdAt":1720003247,"updatedAt":1720003247,"revisionId":"app1_no-spam_1"}`

var modRule = &chat.ModerationRule{ID: "no-spam", Name: "No spam", Enabled: true,
	Conditions: []chat.RuleCondition{{ID: 1, KeywordReference: true, Entity: "message", Operand: chat.ConditionText,
		Category: chat.KeywordWord, Operator: chat.ConditionContains, Values: []string{"spam-words"}}},
	Actions: []chat.RuleAction{chat.ActionBlockMessage}, Active: true, CreatedAt: 1720003247, UpdatedAt: 1720003247, RevisionID: "app1_no-spam_1"}

const modKeywordJSON = `{"id":"spam-words","name":"Spam","category":"word","isCSV":false,"searchTerms":["casino"],"revisionId":"app1_spam-words_1","active":true}`

var modKeywords = &chat.KeywordList{ID: "spam-words", Name: "Spam", Category: chat.KeywordWord, SearchTerms: []string{"casino"},
	RevisionID: "app1_spam-words_1", Active: true}

func TestModerationWire(t *testing.T) {
	ctx := context.Background()
	deleted := &chat.Result{Success: true, Message: "deleted"}
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "CreateRule",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.CreateRule(ctx, "app1", &chat.CreateRuleRequest{ID: "no-spam", Name: "No spam", Actions: []chat.RuleAction{chat.ActionBlockMessage},
					Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord,
						KeywordReference: true, Values: []string{"spam-words"}}}})
			},
			Reply:  `{"data":` + modRuleJSON + `}`,
			Method: http.MethodPost, Path: "/apps/app1/moderation/rules",
			Body: `{"id":"no-spam","name":"No spam","action":["blockMessage"],"conditions":[{"operand":"text","operator":"contains","category":"word",
				"isKeywordReferencePresent":true,"isMediaPresent":false,"value":["spam-words"]}]}`,
			Want: modRule,
		},
		{
			Name: "ListRules",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.ListRules(ctx, "app1", &chat.ListRulesOptions{CursorOptions: chat.CursorOptions{Limit: 5}})
			},
			Reply:  `{"data":[` + modRuleJSON + `],"meta":{"current":{"limit":5,"count":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/moderation/rules", Query: "limit=5",
			Want: &chat.Page[chat.ModerationRule]{Data: []chat.ModerationRule{*modRule}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 5, Count: 1}}},
		},
		{
			Name:   "GetRule",
			Call:   func(c *management.Client) (any, error) { return c.Moderation.GetRule(ctx, "app 1", "no/spam") },
			Reply:  `{"data":` + modRuleJSON + `}`,
			Method: http.MethodGet, Path: "/apps/app%201/moderation/rules/no%2Fspam", Want: modRule,
		},
		{
			Name: "UpdateRule",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.UpdateRule(ctx, "app1", "no-spam", &chat.UpdateRuleRequest{Description: "d"})
			},
			Reply:  `{"data":` + modRuleJSON + `}`,
			Method: http.MethodPut, Path: "/apps/app1/moderation/rules/no-spam", Body: `{"description":"d"}`, Want: modRule,
		},
		{
			Name:   "DeleteRule",
			Call:   func(c *management.Client) (any, error) { return c.Moderation.DeleteRule(ctx, "app1", "no-spam") },
			Reply:  `{"data":{"success":true,"message":"deleted"}}`,
			Method: http.MethodDelete, Path: "/apps/app1/moderation/rules/no-spam", Want: deleted,
		},
		{
			Name: "ListRuleRevisions",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.ListRuleRevisions(ctx, "app1", "no-spam", nil)
			},
			Reply:  `{"data":[` + modRuleJSON + `],"meta":{"current":{"limit":100,"count":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/moderation/rules/no-spam/revisions",
			Want: &chat.Page[chat.ModerationRule]{Data: []chat.ModerationRule{*modRule}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 1}}},
		},
		{
			Name:   "ListKeywordLists",
			Call:   func(c *management.Client) (any, error) { return c.Moderation.ListKeywordLists(ctx, "app1", nil) },
			Reply:  `{"data":[` + modKeywordJSON + `],"meta":{"current":{"limit":100,"count":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/moderation/keywords",
			Want: &chat.Page[chat.KeywordList]{Data: []chat.KeywordList{*modKeywords}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 1}}},
		},
		{
			Name:   "GetKeywordList",
			Call:   func(c *management.Client) (any, error) { return c.Moderation.GetKeywordList(ctx, "app1", "spam-words") },
			Reply:  `{"data":` + modKeywordJSON + `}`,
			Method: http.MethodGet, Path: "/apps/app1/moderation/keywords/spam-words", Want: modKeywords,
		},
		{
			Name: "DeleteKeywordList",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.DeleteKeywordList(ctx, "app1", "spam-words")
			},
			Reply:  `{"data":{"success":true,"message":"deleted"}}`,
			Method: http.MethodDelete, Path: "/apps/app1/moderation/keywords/spam-words", Want: deleted,
		},
		{
			Name: "ListBlockedMessages",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.ListBlockedMessages(ctx, "app1", &chat.ListBlockedMessagesOptions{CursorOptions: chat.CursorOptions{ID: "7"}})
			},
			Reply:  `{"data":[{"ruleId":"no-spam","message":{"id":"8","data":{"text":"casino","moderation":{"status":"pending"}}},"action":["blockMessage"]}],"meta":{"current":{"limit":100,"count":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/moderation/blocked-messages", Query: "id=7",
			Want: &chat.Page[chat.BlockedMessage]{Data: []chat.BlockedMessage{{RuleID: "no-spam",
				Message: &chat.Message{ID: "8", Data: chat.MessageData{Text: "casino", Moderation: &chat.Moderation{Status: "pending"}}},
				Actions: []chat.RuleAction{chat.ActionBlockMessage}}}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 1}}},
		},
		{
			Name: "ReviewBlockedMessage",
			Call: func(c *management.Client) (any, error) {
				return c.Moderation.ReviewBlockedMessage(ctx, "app1", "8", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
			},
			Reply:  `{"data":{"success":true,"message":"Message with ID 8 has been approved."}}`,
			Method: http.MethodPatch, Path: "/apps/app1/moderation/blocked-messages/8", Body: `{"status":"approved"}`,
			Want: &chat.Result{Success: true, Message: "Message with ID 8 has been approved."},
		},
	})
}

// formFields is the multipart/form-data body of r as name=value lines,
// files as name:filename=content.
func formFields(t *testing.T, r wiretest.Request) []string {
	t.Helper()
	var out []string
	for _, p := range wiretest.Form(t, r) {
		name := p.Name
		if p.Filename != "" {
			name += ":" + p.Filename
		}
		out = append(out, name+"="+p.Value)
	}
	return out
}

func TestModerationKeywordFormsWire(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		call   func(c *management.Client) (*chat.KeywordList, error)
		method string
		path   string
		fields []string
	}{
		{
			name: "CreateKeywordList",
			call: func(c *management.Client) (*chat.KeywordList, error) {
				return c.Moderation.CreateKeywordList(ctx, "app1", &chat.CreateKeywordListRequest{ID: "spam-words", Name: "Spam",
					Category: chat.KeywordWord, SearchTerms: []string{"casino", "buy now"}, File: &chat.KeywordFile{Name: "more.csv", Content: strings.NewReader("lottery")}})
			},
			method: http.MethodPost, path: "/apps/app1/moderation/keywords",
			fields: []string{"category=word", "id=spam-words", "name=Spam", "searchTerms=casino,buy now", "file:more.csv=lottery"},
		},
		{
			name: "UpdateKeywordList",
			call: func(c *management.Client) (*chat.KeywordList, error) {
				return c.Moderation.UpdateKeywordList(ctx, "app1", "spam-words", &chat.UpdateKeywordListRequest{Category: chat.KeywordSentenceSimilarity,
					DisallowedSentences: []string{"one", "two"}})
			},
			method: http.MethodPut, path: "/apps/app1/moderation/keywords/spam-words",
			fields: []string{"category=sentence-similarity", "disallowedSentences=one", "disallowedSentences=two"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Management(t)
			m.Reply(http.StatusOK, `{"data":`+modKeywordJSON+`}`)
			got, err := tt.call(client)
			require.NoError(t, err)
			assert.Equal(t, modKeywords, got)
			r := m.Only()
			wiretest.ManagementWire.Sent(t, r, tt.method, tt.path)
			assert.Empty(t, r.RawQuery)
			assert.Equal(t, tt.fields, formFields(t, r))
		})
	}
}

func TestModerationArguments(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		call     func(s *management.ModerationService) error
		wantName string
	}{
		{"CreateRule without app", func(s *management.ModerationService) error {
			_, err := s.CreateRule(ctx, "", &chat.CreateRuleRequest{ID: "r"})
			return err
		}, "appID"},
		{"CreateRule nil", func(s *management.ModerationService) error { _, err := s.CreateRule(ctx, "a", nil); return err }, "req"},
		{"CreateRule without id", func(s *management.ModerationService) error {
			_, err := s.CreateRule(ctx, "a", &chat.CreateRuleRequest{})
			return err
		}, "req.ID"},
		{"ListRules without app", func(s *management.ModerationService) error { _, err := s.ListRules(ctx, "", nil); return err }, "appID"},
		{"GetRule without rule", func(s *management.ModerationService) error { _, err := s.GetRule(ctx, "a", ""); return err }, "ruleID"},
		{"UpdateRule dot app", func(s *management.ModerationService) error {
			_, err := s.UpdateRule(ctx, ".", "r", &chat.UpdateRuleRequest{})
			return err
		}, "appID"},
		{"UpdateRule nil", func(s *management.ModerationService) error { _, err := s.UpdateRule(ctx, "a", "r", nil); return err }, "req"},
		{"DeleteRule without rule", func(s *management.ModerationService) error { _, err := s.DeleteRule(ctx, "a", ""); return err }, "ruleID"},
		{"ListRuleRevisions without rule", func(s *management.ModerationService) error {
			_, err := s.ListRuleRevisions(ctx, "a", "..", nil)
			return err
		}, "ruleID"},
		{"CreateKeywordList without app", func(s *management.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, "", &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord})
			return err
		}, "appID"},
		{"CreateKeywordList nil", func(s *management.ModerationService) error { _, err := s.CreateKeywordList(ctx, "a", nil); return err }, "req"},
		{"CreateKeywordList without category", func(s *management.ModerationService) error {
			_, err := s.CreateKeywordList(ctx, "a", &chat.CreateKeywordListRequest{ID: "k"})
			return err
		}, "req.Category"},
		{"ListKeywordLists without app", func(s *management.ModerationService) error { _, err := s.ListKeywordLists(ctx, "", nil); return err }, "appID"},
		{"GetKeywordList without list", func(s *management.ModerationService) error { _, err := s.GetKeywordList(ctx, "a", ""); return err }, "keywordID"},
		{"UpdateKeywordList nil", func(s *management.ModerationService) error {
			_, err := s.UpdateKeywordList(ctx, "a", "k", nil)
			return err
		}, "req"},
		{"UpdateKeywordList with a comma in a term", func(s *management.ModerationService) error {
			_, err := s.UpdateKeywordList(ctx, "a", "k", &chat.UpdateKeywordListRequest{Category: chat.KeywordWord, SearchTerms: []string{"a,b"}})
			return err
		}, "req.SearchTerms[0]"},
		{"DeleteKeywordList without list", func(s *management.ModerationService) error { _, err := s.DeleteKeywordList(ctx, "a", ""); return err }, "keywordID"},
		{"ListBlockedMessages without app", func(s *management.ModerationService) error {
			_, err := s.ListBlockedMessages(ctx, "", nil)
			return err
		}, "appID"},
		{"ReviewBlockedMessage without message", func(s *management.ModerationService) error {
			_, err := s.ReviewBlockedMessage(ctx, "a", "", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
			return err
		}, "messageID"},
		{"ReviewBlockedMessage nil", func(s *management.ModerationService) error {
			_, err := s.ReviewBlockedMessage(ctx, "a", "1", nil)
			return err
		}, "req"},
		{"ReviewBlockedMessage without status", func(s *management.ModerationService) error {
			_, err := s.ReviewBlockedMessage(ctx, "a", "1", &chat.ReviewBlockedMessageRequest{})
			return err
		}, "req.Status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Management(t)
			wiretest.RequireArgError(t, tt.call(client.Moderation), tt.wantName)
			assert.Zero(t, m.Calls())
		})
	}
}

func ExampleModerationService_ReviewBlockedMessage() {
	srv := chattest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	mc := srv.ManagementClient()
	app := srv.AppID()

	// The deprecated variants address the app by id; prefer the chat
	// client's Moderation service.
	if _, err := mc.Moderation.CreateRule(ctx, app, &chat.CreateRuleRequest{
		ID: "no-casinos", Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains,
			Category: chat.KeywordWord, Values: []string{"casino"}}},
	}); err != nil {
		log.Fatal(err)
	}
	if _, err := srv.Client().Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "casino tonight?"},
	}, chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}
	blocked, err := mc.Moderation.ListBlockedMessages(ctx, app, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range blocked.Data {
		res, err := mc.Moderation.ReviewBlockedMessage(ctx, app, b.Message.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Message)
	}
	// Output:
	// Message with ID 1 has been approved.
}
