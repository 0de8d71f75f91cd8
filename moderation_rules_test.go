package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// ruleJSON is the reference's example rule as the service returns it.
const ruleJSON = `{"id":"moderation-test","name":"Video Moderation","description":"No violence","enabled":true,
	"conditions":[{"id":1,"isKeywordsReferencePresent":false,"isMediaPresent":true,"entity":"message","operand":"image",
	"category":"word","operator":"contains","value":["violence_greaterThan_30"],"message":["Image shows violence"]}],
	"action":["blockMessage"],"active":true,"createdAt":1720003247,"updatedAt":1720003247,"revisionId":"myapp_moderation-test_1"}`

var exampleRule = &chat.ModerationRule{
	ID: "moderation-test", Name: "Video Moderation", Description: "No violence", Enabled: true,
	Conditions: []chat.RuleCondition{{ID: 1, MediaPresent: true, Entity: "message", Operand: chat.ConditionImage,
		Category: chat.KeywordWord, Operator: chat.ConditionContains, Values: []string{"violence_greaterThan_30"},
		Message: []string{"Image shows violence"}}},
	Actions: []chat.RuleAction{chat.ActionBlockMessage}, Active: true, CreatedAt: 1720003247, UpdatedAt: 1720003247,
	RevisionID: "myapp_moderation-test_1",
}

func TestModerationRulesWire(t *testing.T) {
	ctx := context.Background()
	on := true
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "CreateRule",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.CreateRule(ctx, &chat.CreateRuleRequest{
					ID: "no-spam", Name: "No spam", Enabled: &on, Actions: []chat.RuleAction{chat.ActionBlockMessage},
					Filters: []chat.RuleFilter{{Type: chat.RuleFilterSender, Entity: chat.RuleFilterUser, Operand: "role", Operator: chat.FilterNotEquals, Value: "admin"}},
					Conditions: []chat.RuleCondition{{Entity: "message", Operand: chat.ConditionText, Operator: chat.ConditionContains,
						Category: chat.KeywordWord, KeywordReference: true, Values: []string{"spam-words"}}},
				})
			},
			Reply:  `{"data":` + ruleJSON + `}`,
			Method: http.MethodPost, Path: "/v3/moderation/rules",
			Body: `{"id":"no-spam","name":"No spam","enabled":true,"action":["blockMessage"],
				"filters":[{"type":"sender","entity":"user","operand":"role","operator":"notEquals","value":"admin"}],
				"conditions":[{"entity":"message","operand":"text","operator":"contains","category":"word",
					"isKeywordReferencePresent":true,"isMediaPresent":false,"value":["spam-words"]}]}`,
			Want: exampleRule,
		},
		{
			Name: "ListRules",
			Call: func(c *chat.Client) (any, error) {
				return c.Moderation.ListRules(ctx, &chat.ListRulesOptions{CursorOptions: chat.CursorOptions{Limit: 20}})
			},
			Reply:  `{"data":[` + ruleJSON + `],"meta":{"current":{"limit":20,"count":1}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/rules", Query: "limit=20",
			Want: &chat.Page[chat.ModerationRule]{Data: []chat.ModerationRule{*exampleRule}, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 20, Count: 1}}},
		},
		{
			Name:   "GetRule",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.GetRule(ctx, "a/b") },
			Reply:  `{"data":` + ruleJSON + `}`,
			Method: http.MethodGet, Path: "/v3/moderation/rules/a%2Fb", Want: exampleRule,
		},
		{
			Name: "UpdateRule",
			Call: func(c *chat.Client) (any, error) {
				off := false
				return c.Moderation.UpdateRule(ctx, "moderation-test", &chat.UpdateRuleRequest{Enabled: &off})
			},
			Reply:  `{"data":` + ruleJSON + `}`,
			Method: http.MethodPut, Path: "/v3/moderation/rules/moderation-test", Body: `{"enabled":false}`, Want: exampleRule,
		},
		{
			Name:   "DeleteRule",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.DeleteRule(ctx, "moderation-test") },
			Reply:  `{"data":{"success":true,"message":"Rule with id moderation-test has been deleted successfully."}}`,
			Method: http.MethodDelete, Path: "/v3/moderation/rules/moderation-test",
			Want: &chat.Result{Success: true, Message: "Rule with id moderation-test has been deleted successfully."},
		},
		{
			Name:   "ListRuleRevisions",
			Call:   func(c *chat.Client) (any, error) { return c.Moderation.ListRuleRevisions(ctx, "moderation-test", nil) },
			Reply:  `{"data":[` + ruleJSON + `,{"id":"moderation-test","active":false,"revisionId":"myapp_moderation-test_0"}],"meta":{"current":{"limit":100,"count":2}}}`,
			Method: http.MethodGet, Path: "/v3/moderation/rules/moderation-test/revisions",
			Want: &chat.Page[chat.ModerationRule]{Data: []chat.ModerationRule{*exampleRule, {ID: "moderation-test", RevisionID: "myapp_moderation-test_0"}},
				Meta: chat.PageMeta{Current: &chat.PageCount{Limit: 100, Count: 2}}},
		},
	})
}

// TestRuleConditionForms decodes the spellings and shapes the reference
// uses for a condition, and checks what is sent back.
func TestRuleConditionForms(t *testing.T) {
	tests := []struct {
		name, in string
		want     chat.RuleCondition
	}{
		{"request spelling, value string", `{"isKeywordReferencePresent":true,"value":"spam-words","message":"Spam"}`,
			chat.RuleCondition{KeywordReference: true, Values: []string{"spam-words"}, Message: []string{"Spam"}}},
		{"response spelling, arrays", `{"isKeywordsReferencePresent":true,"value":["a","b"],"message":["m"]}`,
			chat.RuleCondition{KeywordReference: true, Values: []string{"a", "b"}, Message: []string{"m"}}},
		{"built-in rule spelling", `{"isListReferencePresent":true,"value":["profanity-list"]}`,
			chat.RuleCondition{KeywordReference: true, Values: []string{"profanity-list"}}},
		{"flag false", `{"isKeywordsReferencePresent":false,"value":[]}`, chat.RuleCondition{Values: []string{}}},
		{"empty value string and null message", `{"value":"","message":null}`, chat.RuleCondition{}},
		{"lenient inner types", `{"id":"2","weight":"3","isMediaPresent":"true","value":[30]}`,
			chat.RuleCondition{ID: 2, Weight: 3, MediaPresent: true, Values: []string{"30"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got chat.RuleCondition
			require.NoError(t, json.Unmarshal([]byte(tt.in), &got))
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("not an object", func(t *testing.T) {
		var got chat.RuleCondition
		var typeErr *json.UnmarshalTypeError
		if assert.ErrorAs(t, json.Unmarshal([]byte(`[1]`), &got), &typeErr) {
			assert.Equal(t, "number", typeErr.Value)
		}
		if assert.ErrorAs(t, json.Unmarshal([]byte(`{"value":{}}`), &got), &typeErr) {
			assert.Equal(t, "object", typeErr.Value)
			assert.Equal(t, reflect.TypeFor[string](), typeErr.Type)
		}
	})
	t.Run("a decoded condition is sent in the request spelling", func(t *testing.T) {
		var c chat.RuleCondition
		require.NoError(t, json.Unmarshal([]byte(`{"id":1,"isKeywordsReferencePresent":true,"value":"list"}`), &c))
		out, err := json.Marshal(c)
		require.NoError(t, err)
		assert.JSONEq(t, `{"id":1,"isKeywordReferencePresent":true,"isMediaPresent":false,"value":["list"]}`, string(out))
	})
}

func TestModerationAllRules(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("id", map[string]string{
		"":  `{"data":[{"id":"a"}],"meta":{"current":{"limit":1,"count":1},"next":{"affix":"append","id":"a"}}}`,
		"a": `{"data":[{"id":"b"}],"meta":{"current":{"limit":1,"count":1}}}`,
	})
	ids := collectKeys(t, client.Moderation.AllRules(context.Background(), &chat.ListRulesOptions{CursorOptions: chat.CursorOptions{Limit: 1}}),
		func(r *chat.ModerationRule) string { return r.ID })
	assert.Equal(t, []string{"a", "b"}, ids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "/v3/moderation/rules", reqs[1].Path)
	assert.Equal(t, "affix=append&id=a&limit=1", reqs[1].RawQuery)

	client, m = wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":[{"id":"r","revisionId":"x_r_1"},{"id":"r","revisionId":"x_r_2"}],"meta":{"current":{"limit":100,"count":2}}}`)
	revs := collectKeys(t, client.Moderation.AllRuleRevisions(context.Background(), "r", nil),
		func(r *chat.ModerationRule) string { return r.RevisionID })
	assert.Equal(t, []string{"x_r_1", "x_r_2"}, revs)
	assert.Equal(t, "/v3/moderation/rules/r/revisions", m.Only().Path)
}

func TestModerationRulesArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.ModerationService]{
		{Name: "CreateRule nil", Call: func(s *chat.ModerationService) error { _, err := s.CreateRule(ctx, nil); return err }, Arg: "req"},
		{Name: "CreateRule without id", Call: func(s *chat.ModerationService) error {
			_, err := s.CreateRule(ctx, &chat.CreateRuleRequest{Name: "n"})
			return err
		}, Arg: "req.ID"},
		{Name: "GetRule empty", Call: func(s *chat.ModerationService) error { _, err := s.GetRule(ctx, ""); return err }, Arg: "ruleID"},
		{Name: "UpdateRule dot-dot", Call: func(s *chat.ModerationService) error {
			_, err := s.UpdateRule(ctx, "..", &chat.UpdateRuleRequest{})
			return err
		}, Arg: "ruleID"},
		{Name: "UpdateRule nil", Call: func(s *chat.ModerationService) error { _, err := s.UpdateRule(ctx, "r", nil); return err }, Arg: "req"},
		{Name: "DeleteRule empty", Call: func(s *chat.ModerationService) error { _, err := s.DeleteRule(ctx, ""); return err }, Arg: "ruleID"},
		{Name: "ListRuleRevisions empty", Call: func(s *chat.ModerationService) error {
			_, err := s.ListRuleRevisions(ctx, "", nil)
			return err
		}, Arg: "ruleID"},
		{Name: "AllRuleRevisions empty", Call: func(s *chat.ModerationService) error {
			for _, err := range s.AllRuleRevisions(ctx, "", nil) {
				return err
			}
			return nil
		}, Arg: "ruleID"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.ModerationService { return c.Moderation }, tests)
}

// TestCreateRuleValidate holds the Validate of the rule creation to the checks
// their methods run before sending.
func TestCreateRuleValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a rule", Value: &chat.CreateRuleRequest{ID: "no-links", Name: "No links"}},
		{Name: "a rule without an id", Value: &chat.CreateRuleRequest{Name: "No links"}, Field: "req.ID"},
	})
}
