//lint:file-ignore SA1019 the deprecated management variants of moderation are tested on purpose

package chattest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// builtinRules are the ids of the rules every app starts with.
var builtinRules = []string{"text-profanity-filter", "image-moderation", "video-moderation",
	"custom-profanity-filter", "contact_details_filter", "email_filter"}

// wordRule is a rule that blocks text containing one of words.
func wordRule(id string, words ...string) *chat.CreateRuleRequest {
	return &chat.CreateRuleRequest{ID: id, Name: "Rule " + id, Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord, Values: words}}}
}

// sendText sends s from one user to another and returns the stored message.
func sendText(t *testing.T, client *chat.Client, from, to, s string) *chat.Message {
	t.Helper()
	m, err := client.Messages.Send(t.Context(), toUser(to, s), chat.OnBehalfOf(from))
	require.NoError(t, err)
	return m
}

// status is a message's moderation status, "" when it has none.
func status(m *chat.Message) string {
	if m.Data.Moderation == nil {
		return ""
	}
	return m.Data.Moderation.Status
}

func TestModerationRules(t *testing.T) {
	_, client := start(t)
	mod, ctx := client.Moderation, t.Context()

	// The built-in rules are listed first, disabled.
	page, err := mod.ListRules(ctx, nil)
	require.NoError(t, err)
	var ids []string
	for _, r := range page.Data {
		ids = append(ids, r.ID)
		assert.True(t, r.Default, r.ID)
		assert.False(t, r.Enabled, r.ID)
		assert.Equal(t, chat.Timestamp(t0.Unix()), r.CreatedAt, r.ID)
		assert.Equal(t, "test-app_"+r.ID+"_1", r.RevisionID)
	}
	assert.Equal(t, builtinRules, ids)
	profanity, err := mod.GetRule(ctx, "text-profanity-filter")
	require.NoError(t, err)
	require.Len(t, profanity.Conditions, 1)
	assert.True(t, profanity.Conditions[0].KeywordReference, "the response spelling isKeywordsReferencePresent decodes")
	assert.Equal(t, []string{"profanity-list"}, profanity.Conditions[0].Values)

	on := true
	created, err := mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-links", Name: "No links", Description: "Links are spam",
		Enabled: &on, Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Filters: []chat.RuleFilter{{Type: chat.RuleFilterSender, Entity: chat.RuleFilterUser, Operand: "role", Operator: chat.FilterNotEquals, Value: "admin"}},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordPattern,
			Values: []string{`https?://\S+`}, Message: []string{"Text contains a link"}}},
	})
	require.NoError(t, err)
	want := &chat.ModerationRule{ID: "no-links", Name: "No links", Description: "Links are spam", Enabled: true, Active: true,
		Conditions: []chat.RuleCondition{{ID: 1, Entity: "message", Operand: chat.ConditionText, Operator: chat.ConditionContains,
			Category: chat.KeywordPattern, Values: []string{`https?://\S+`}, Message: []string{"Text contains a link"}}},
		Filters: []chat.RuleFilter{{Type: chat.RuleFilterSender, Entity: chat.RuleFilterUser, Operand: "role", Operator: chat.FilterNotEquals, Value: "admin"}},
		Actions: []chat.RuleAction{chat.ActionBlockMessage}, RevisionID: "test-app_no-links_1",
		CreatedAt: chat.Timestamp(t0.Unix()), UpdatedAt: chat.Timestamp(t0.Unix())}
	assert.Equal(t, want, created)
	got, err := mod.GetRule(ctx, "no-links")
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-links"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "id")

	// Each update is a new revision; the earlier ones stay, inactive.
	off := false
	updated, err := mod.UpdateRule(ctx, "no-links", &chat.UpdateRuleRequest{Name: "No URLs", Enabled: &off})
	require.NoError(t, err)
	assert.Equal(t, "No URLs", updated.Name)
	assert.False(t, updated.Enabled)
	assert.Equal(t, want.Conditions, updated.Conditions, "what is not sent stays")
	assert.Equal(t, "test-app_no-links_2", updated.RevisionID)
	_, err = mod.UpdateRule(ctx, "no-links", &chat.UpdateRuleRequest{Description: "third"})
	require.NoError(t, err)
	revs, err := mod.ListRuleRevisions(ctx, "no-links", nil)
	require.NoError(t, err)
	var revSummary []string
	for _, r := range revs.Data {
		revSummary = append(revSummary, fmt.Sprintf("%s:%v:%s", r.RevisionID, r.Active, r.Name))
	}
	assert.Equal(t, []string{"test-app_no-links_1:false:No links", "test-app_no-links_2:false:No URLs", "test-app_no-links_3:true:No URLs"}, revSummary)
	var walked []string
	for r, err := range mod.AllRuleRevisions(ctx, "no-links", &chat.ListRuleRevisionsOptions{CursorOptions: chat.CursorOptions{Limit: 2}}) {
		require.NoError(t, err)
		walked = append(walked, r.RevisionID)
	}
	assert.Equal(t, []string{"test-app_no-links_1", "test-app_no-links_2", "test-app_no-links_3"}, walked)

	// All rules, two at a time.
	var all []string
	for r, err := range mod.AllRules(ctx, &chat.ListRulesOptions{CursorOptions: chat.CursorOptions{Limit: 2}}) {
		require.NoError(t, err)
		all = append(all, r.ID)
	}
	assert.Equal(t, append(append([]string{}, builtinRules...), "no-links"), all)

	res, err := mod.DeleteRule(ctx, "no-links")
	require.NoError(t, err)
	assert.True(t, res.Success)
	for name, call := range map[string]func() error{
		"get":       func() error { _, err := mod.GetRule(ctx, "no-links"); return err },
		"update":    func() error { _, err := mod.UpdateRule(ctx, "no-links", &chat.UpdateRuleRequest{}); return err },
		"delete":    func() error { _, err := mod.DeleteRule(ctx, "no-links"); return err },
		"revisions": func() error { _, err := mod.ListRuleRevisions(ctx, "no-links", nil); return err },
	} {
		t.Run(name, func(t *testing.T) {
			requireAPIError(t, call(), http.StatusNotFound, "ERR_RULE_NOT_FOUND", chat.ErrNotFound)
		})
	}
}

func TestModerationRuleValidation(t *testing.T) {
	_, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	tests := []struct {
		name  string
		req   *chat.CreateRuleRequest
		field string
	}{
		{"id with a space", &chat.CreateRuleRequest{ID: "a b"}, "id"},
		{"long name", &chat.CreateRuleRequest{ID: "r", Name: strings.Repeat("n", 101)}, "name"},
		{"unknown operator", &chat.CreateRuleRequest{ID: "r", Conditions: []chat.RuleCondition{{Operand: chat.ConditionText,
			Operator: "like", Category: chat.KeywordWord, Values: []string{"x"}}}}, "conditions.0.operator"},
		{"no values", &chat.CreateRuleRequest{ID: "r", Conditions: []chat.RuleCondition{{Operand: chat.ConditionText,
			Operator: chat.ConditionContains, Category: chat.KeywordWord}}}, "conditions.0.value"},
		{"bad pattern", &chat.CreateRuleRequest{ID: "r", Conditions: []chat.RuleCondition{{Operand: chat.ConditionText,
			Operator: chat.ConditionContains, Category: chat.KeywordPattern, Values: []string{"("}}}}, "conditions.0.value"},
		{"group filter operand on a user", &chat.CreateRuleRequest{ID: "r", Filters: []chat.RuleFilter{{Type: chat.RuleFilterSender,
			Entity: chat.RuleFilterUser, Operand: "guid", Operator: chat.FilterEquals, Value: "g"}}}, "filters.0.operand"},
		{"user filter with a group operator", &chat.CreateRuleRequest{ID: "r", Filters: []chat.RuleFilter{{Type: chat.RuleFilterSender,
			Entity: chat.RuleFilterUser, Operand: "createdAt", Operator: chat.FilterGreaterThan, Value: "1"}}}, "filters.0.operator"},
		{"filter without value", &chat.CreateRuleRequest{ID: "r", Filters: []chat.RuleFilter{{Type: chat.RuleFilterReceiver,
			Entity: chat.RuleFilterGroup, Operand: "guid", Operator: chat.FilterEquals}}}, "filters.0.value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mod.CreateRule(ctx, tt.req)
			ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
			assert.Contains(t, ce.Details, tt.field)
		})
	}
	_, err := mod.GetRule(ctx, "r")
	requireAPIError(t, err, http.StatusNotFound, "ERR_RULE_NOT_FOUND", chat.ErrNotFound)
}

func TestModerationKeywordLists(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()

	page, err := mod.ListKeywordLists(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	builtin := page.Data[0]
	assert.Equal(t, "profanity-list", builtin.ID)
	assert.True(t, builtin.Default)
	assert.Equal(t, "test-app", builtin.AppID, "list items carry appId")
	assert.Equal(t, []string{"badword", "swearword"}, builtin.SearchTerms)

	created, err := mod.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "banned", Name: "Banned", Category: chat.KeywordWord,
		SearchTerms: []string{"spam", "scam"}})
	require.NoError(t, err)
	assert.Equal(t, &chat.KeywordList{ID: "banned", Name: "Banned", Category: chat.KeywordWord, SearchTerms: []string{"spam", "scam"},
		RevisionID: "test-app_banned_1", Active: true, CreatedAt: chat.Timestamp(t0.Unix()), UpdatedAt: chat.Timestamp(t0.Unix())}, created)

	fromCSV, err := mod.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "csv", Category: chat.KeywordWord,
		SearchTerms: []string{"one"}, File: &chat.KeywordFile{Content: strings.NewReader("two, three\n\"four, five\"\n")}})
	require.NoError(t, err)
	assert.True(t, fromCSV.IsCSV)
	assert.Equal(t, []string{"one", "two", "three", "four, five"}, fromCSV.SearchTerms)

	sentences, err := mod.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "scams", Category: chat.KeywordSentenceSimilarity,
		DisallowedSentences: []string{"send me your password", "wire me money, now"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"send me your password", "wire me money, now"}, sentences.DisallowedSentences)

	updated, err := mod.UpdateKeywordList(ctx, "banned", &chat.UpdateKeywordListRequest{Category: chat.KeywordPattern, Name: "Banned patterns",
		SearchTerms: []string{`^buy\b`}})
	require.NoError(t, err)
	assert.Equal(t, "test-app_banned_2", updated.RevisionID)
	assert.Equal(t, chat.KeywordPattern, updated.Category)
	assert.Equal(t, []string{`^buy\b`}, updated.SearchTerms)
	got, err := mod.GetKeywordList(ctx, "banned")
	require.NoError(t, err)
	assert.Equal(t, updated, got)

	var ids []string
	for k, err := range mod.AllKeywordLists(ctx, &chat.ListKeywordListsOptions{CursorOptions: chat.CursorOptions{Limit: 3}}) {
		require.NoError(t, err)
		ids = append(ids, k.ID)
	}
	assert.Equal(t, []string{"profanity-list", "banned", "csv", "scams"}, ids)

	for _, tt := range []struct {
		name  string
		req   *chat.CreateKeywordListRequest
		field string
	}{
		{"taken id", &chat.CreateKeywordListRequest{ID: "banned", Category: chat.KeywordWord, SearchTerms: []string{"x"}}, "id"},
		{"no terms", &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord}, "searchTerms"},
		{"no sentences", &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordSentenceSimilarity}, "disallowedSentences"},
		{"unknown category", &chat.CreateKeywordListRequest{ID: "k", Category: "toxicity", SearchTerms: []string{"x"}}, "category"},
		{"bad pattern", &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordPattern, SearchTerms: []string{"ok", "[a"}}, "searchTerms.1"},
		{"long term", &chat.CreateKeywordListRequest{ID: "k", Category: chat.KeywordWord, SearchTerms: []string{strings.Repeat("x", 101)}}, "searchTerms.0"},
		{"bad id", &chat.CreateKeywordListRequest{ID: "k/1", Category: chat.KeywordWord, SearchTerms: []string{"x"}}, "id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mod.CreateKeywordList(ctx, tt.req)
			ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
			assert.Contains(t, ce.Details, tt.field)
		})
	}
	t.Run("a JSON body is refused", func(t *testing.T) {
		r := do(t, srv, http.MethodPost, "/v3/moderation/keywords", `{"id":"j","category":"word","searchTerms":"x"}`,
			key(srv, "Content-Type", "application/json"))
		assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
		assert.Equal(t, "ERR_BAD_REQUEST", r.errorBody(t)["code"])
	})

	res, err := mod.DeleteKeywordList(ctx, "banned")
	require.NoError(t, err)
	assert.True(t, res.Success)
	for name, call := range map[string]func() error{
		"get": func() error { _, err := mod.GetKeywordList(ctx, "banned"); return err },
		"update": func() error {
			_, err := mod.UpdateKeywordList(ctx, "banned", &chat.UpdateKeywordListRequest{Category: chat.KeywordWord, SearchTerms: []string{"x"}})
			return err
		},
		"delete": func() error { _, err := mod.DeleteKeywordList(ctx, "banned"); return err },
	} {
		t.Run(name, func(t *testing.T) {
			requireAPIError(t, call(), http.StatusNotFound, "ERR_KEYWORD_NOT_FOUND", chat.ErrNotFound)
		})
	}
}

func TestModerationBlocksAndReviews(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	seed(srv, "alice", "bob")

	// Without an enabled text rule, messages carry no moderation.
	plain := sendText(t, client, "alice", "bob", "a badword before any rule")
	assert.Empty(t, status(plain))

	_, err := mod.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "spam-words", Category: chat.KeywordWord, SearchTerms: []string{"buy now", "casino"}})
	require.NoError(t, err)
	_, err = mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-spam", Name: "No spam", Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord,
			KeywordReference: true, Values: []string{"spam-words"}}}})
	require.NoError(t, err)

	clean := sendText(t, client, "alice", "bob", "Casinos are not words of the list")
	assert.Equal(t, "approved", status(clean))
	blocked := sendText(t, client, "alice", "bob", "BUY NOW, friend!")
	assert.Equal(t, "pending", status(blocked))
	assert.Equal(t, &chat.ModerationRuleRef{ID: "no-spam", Name: "No spam"}, blocked.Data.Moderation.Rule)
	blocked2 := sendText(t, client, "alice", "bob", "casino tonight")

	page, err := mod.ListBlockedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	item := page.Data[0]
	assert.Equal(t, "no-spam", item.RuleID)
	assert.Equal(t, "No spam", item.RuleName)
	assert.Equal(t, "test-app_no-spam_1", item.RevisionID)
	assert.Equal(t, []string{"spam-words"}, item.Condition.Values)
	assert.True(t, item.Condition.KeywordReference)
	assert.Equal(t, []chat.RuleAction{chat.ActionBlockMessage}, item.Actions)
	assert.Equal(t, blocked.ID, item.Message.ID)
	assert.Equal(t, "pending", status(item.Message))
	assert.Equal(t, blocked2.ID, page.Data[1].Message.ID)

	// Approving moves the message to the reviewed list.
	res, err := mod.ReviewBlockedMessage(ctx, blocked.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
	require.NoError(t, err)
	assert.Equal(t, &chat.Result{Success: true, Message: "Message with ID " + blocked.ID + " has been approved."}, res)
	m, err := client.Messages.Get(ctx, blocked.ID)
	require.NoError(t, err)
	assert.Equal(t, "approved", status(m))

	// Rejecting without marking reviewed keeps it in the blocked list.
	no := false
	_, err = mod.ReviewBlockedMessage(ctx, blocked2.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewRejected, Reviewed: &no})
	require.NoError(t, err)
	page, err = mod.ListBlockedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "disapproved", status(page.Data[0].Message))
	yes := true
	res, err = mod.ReviewBlockedMessage(ctx, blocked2.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewRejected, Reviewed: &yes})
	require.NoError(t, err)
	assert.Equal(t, "Message with ID "+blocked2.ID+" has been reviewed successfully.", res.Message)
	page, err = mod.ListBlockedMessages(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Data)

	reviewed, err := mod.ListReviewedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, reviewed.Data, 2)
	assert.Equal(t, blocked.ID, reviewed.Data[0].Message.ID)
	assert.Equal(t, "approved", status(reviewed.Data[0].Message))
	assert.Equal(t, "no-spam", reviewed.Data[0].RuleID)
	assert.Equal(t, "disapproved", status(reviewed.Data[1].Message))
	assert.NotEmpty(t, reviewed.Data[1].Raw)

	for _, tt := range []struct {
		name, id string
		req      *chat.ReviewBlockedMessageRequest
		status   int
		code     string
		sentinel error
	}{
		{"already reviewed", blocked.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved}, http.StatusNotFound, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound},
		{"never blocked", clean.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved}, http.StatusNotFound, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound},
		{"unknown message", "999", &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved}, http.StatusNotFound, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mod.ReviewBlockedMessage(ctx, tt.id, tt.req)
			requireAPIError(t, err, tt.status, tt.code, tt.sentinel)
		})
	}
	t.Run("bad status", func(t *testing.T) {
		m := sendText(t, client, "alice", "bob", "casino")
		_, err := mod.ReviewBlockedMessage(ctx, m.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewDisapproved})
		ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
		assert.Contains(t, ce.Details, "status")
	})

	// Disabling the rule stops moderation.
	off := false
	_, err = mod.UpdateRule(ctx, "no-spam", &chat.UpdateRuleRequest{Enabled: &off})
	require.NoError(t, err)
	assert.Empty(t, status(sendText(t, client, "alice", "bob", "casino")))
}

func TestModerationMatching(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	srv.AddUser(chat.User{UID: "boss", Name: "Boss", Role: "admin"})
	srv.AddGroup(chat.Group{GUID: "watched", Name: "Watched"}, "alice", "bob")
	srv.AddGroup(chat.Group{GUID: "free", Name: "Free"}, "alice", "bob")
	on := true

	// The built-in profanity filter, once enabled, blocks its list's words.
	_, err := mod.UpdateRule(ctx, "text-profanity-filter", &chat.UpdateRuleRequest{Enabled: &on})
	require.NoError(t, err)
	assert.Equal(t, "pending", status(sendText(t, client, "alice", "bob", "what a badword!")))
	assert.Equal(t, "approved", status(sendText(t, client, "alice", "bob", "badwords are whole words only")))
	off := false
	_, err = mod.UpdateRule(ctx, "text-profanity-filter", &chat.UpdateRuleRequest{Enabled: &off})
	require.NoError(t, err)

	// A pattern rule that drops rather than blocks, for non-admins, only in
	// the group "watched".
	_, err = mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-numbers", Actions: []chat.RuleAction{chat.ActionDropMessage},
		Filters: []chat.RuleFilter{
			{Type: chat.RuleFilterSender, Entity: chat.RuleFilterUser, Operand: "role", Operator: chat.FilterNotIn, Value: "admin, moderator"},
			{Type: chat.RuleFilterReceiver, Entity: chat.RuleFilterGroup, Operand: "guid", Operator: chat.FilterEquals, Value: "WATCHED"},
		},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordPattern, Values: []string{`[0-9]{4}`}}}})
	require.NoError(t, err)
	toGroup := func(from, guid, s string) string {
		t.Helper()
		m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: guid, ReceiverType: chat.ReceiverGroup, Data: text(s)}, chat.OnBehalfOf(from))
		require.NoError(t, err)
		return status(m)
	}
	assert.Equal(t, "disapproved", toGroup("alice", "watched", "call 5551234"), "dropped")
	assert.Equal(t, "approved", toGroup("alice", "watched", "call me"))
	assert.Equal(t, "approved", toGroup("alice", "free", "call 5551234"), "another group")
	assert.Equal(t, "approved", sendText(t, client, "alice", "bob", "call 5551234").Data.Moderation.Status, "not a group")
	srv.AddGroup(chat.Group{GUID: "watched", Name: "Watched"}, "alice", "bob", "boss")
	assert.Equal(t, "approved", toGroup("boss", "watched", "call 5551234"), "an admin")
	page, err := mod.ListBlockedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "a dropped message is not kept for review")

	// equals conditions match the whole text; sentence-similarity lists
	// match the sentence inside the text.
	_, err = mod.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "scams", Category: chat.KeywordSentenceSimilarity,
		DisallowedSentences: []string{"send me your password"}})
	require.NoError(t, err)
	_, err = mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "exact", Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{
			{Operand: chat.ConditionText, Operator: chat.ConditionEquals, Category: chat.KeywordWord, Values: []string{"hello"}},
			{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordSentenceSimilarity, KeywordReference: true, Values: []string{"scams", "gone"}},
		}})
	require.NoError(t, err)
	assert.Equal(t, "pending", status(sendText(t, client, "alice", "bob", " Hello ")))
	assert.Equal(t, "approved", status(sendText(t, client, "alice", "bob", "hello there")))
	assert.Equal(t, "pending", status(sendText(t, client, "alice", "bob", "Please SEND ME YOUR PASSWORD now")))
	page, err = mod.ListBlockedMessages(ctx, &chat.ListBlockedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1}})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.NotNil(t, page.Meta.Next)
	var all []string
	for b, err := range mod.AllBlockedMessages(ctx, &chat.ListBlockedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1}}) {
		require.NoError(t, err)
		all = append(all, b.RuleID+":"+b.Message.Data.Text)
	}
	assert.Equal(t, []string{"text-profanity-filter:what a badword!", "exact: Hello ", "exact:Please SEND ME YOUR PASSWORD now"}, all)

	// Media and custom messages are not evaluated.
	m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Category: chat.CategoryCustom,
		Type: "poll", Data: chat.MessageData{Text: "hello", CustomData: map[string]any{"q": "hello"}}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Empty(t, status(m))
}

func TestModerationFlaggedToReviewed(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	seed(srv, "alice", "bob")
	_, err := mod.CreateReason(ctx, &chat.CreateReasonRequest{ID: "spam", Name: "Spam", Description: "Ads"})
	require.NoError(t, err)
	m1 := sendText(t, client, "alice", "bob", "cheap watches")
	m2 := sendText(t, client, "alice", "bob", "hello")
	m3 := sendText(t, client, "bob", "alice", "more ads")
	for _, f := range []struct{ id, by, remark string }{{m1.ID, "bob", "again"}, {m3.ID, "alice", ""}} {
		_, err := client.Messages.Flag(ctx, f.id, f.by, &chat.FlagMessageRequest{ReasonID: "spam", Remark: f.remark})
		require.NoError(t, err)
	}

	page, err := mod.ListFlaggedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	f := page.Data[0]
	assert.Equal(t, m1.ID, f.ID)
	assert.Equal(t, "cheap watches", f.Data.Text)
	assert.Equal(t, "test-app", f.AppID)
	assert.Equal(t, []chat.Flagger{{UID: "bob", Name: "Bob", Role: "default", ReasonID: "spam", ReasonName: "Spam", Description: "Ads", Remark: "again"}}, f.FlaggedBy)
	assert.Contains(t, string(f.Raw), `"flaggedBy"`)
	var ids []string
	for f, err := range mod.AllFlaggedMessages(ctx, &chat.ListFlaggedMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1}}) {
		require.NoError(t, err)
		ids = append(ids, f.ID)
	}
	assert.Equal(t, []string{m1.ID, m3.ID}, ids)

	res, err := mod.ReviewFlaggedMessage(ctx, m1.ID, &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewDisapproved})
	require.NoError(t, err)
	assert.Equal(t, &chat.Result{}, res, "the reference documents {} as the answer")
	page, err = mod.ListFlaggedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, m3.ID, page.Data[0].ID)
	got, err := client.Messages.Get(ctx, m1.ID)
	require.NoError(t, err)
	assert.Equal(t, "disapproved", status(got))

	reviewed, err := mod.ListReviewedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, reviewed.Data, 1)
	r := reviewed.Data[0]
	assert.Equal(t, m1.ID, r.Message.ID)
	assert.Equal(t, "disapproved", status(r.Message))
	assert.Empty(t, r.RuleID)
	assert.Equal(t, "spam", r.FlaggedBy[0].ReasonID)

	// A later flag does not bring a reviewed message back.
	_, err = client.Messages.Flag(ctx, m1.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam", Remark: "once more"})
	require.NoError(t, err)
	page, err = mod.ListFlaggedMessages(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, page.Data, 1)

	for name, id := range map[string]string{"reviewed": m1.ID, "never flagged": m2.ID, "unknown": "12345"} {
		t.Run(name, func(t *testing.T) {
			_, err := mod.ReviewFlaggedMessage(ctx, id, &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewApproved})
			requireAPIError(t, err, http.StatusNotFound, "ERR_MESSAGE_ID_NOT_FOUND", chat.ErrNotFound)
		})
	}
	_, err = mod.ReviewFlaggedMessage(ctx, m3.ID, &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewRejected})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	_, err = mod.ReviewFlaggedMessage(ctx, m3.ID, &chat.ReviewFlaggedMessageRequest{Status: chat.ReviewApproved})
	require.NoError(t, err)
	got, err = client.Messages.Get(ctx, m3.ID)
	require.NoError(t, err)
	assert.Equal(t, "approved", status(got))
}

func TestModerationForgetsRemovedMessages(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	seed(srv, "alice", "bob")
	_, err := mod.CreateRule(ctx, wordRule("w", "casino"))
	require.NoError(t, err)
	sendText(t, client, "alice", "bob", "casino")
	_, err = client.Users.Delete(ctx, "alice", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	page, err := mod.ListBlockedMessages(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Data, "a permanently deleted user's messages leave the list")
}

func TestModerationManagementVariants(t *testing.T) {
	srv, client := start(t)
	mc := srv.ManagementClient(chat.WithoutRetries())
	mod, ctx, app := mc.Moderation, t.Context(), srv.AppID()
	seed(srv, "alice", "bob")

	_, err := mod.CreateKeywordList(ctx, app, &chat.CreateKeywordListRequest{ID: "spam-words", Category: chat.KeywordWord,
		File: &chat.KeywordFile{Content: strings.NewReader("casino\nlottery\n")}})
	require.NoError(t, err)
	lists, err := mod.ListKeywordLists(ctx, app, nil)
	require.NoError(t, err)
	require.Len(t, lists.Data, 2)
	assert.Equal(t, []string{"casino", "lottery"}, lists.Data[1].SearchTerms)
	kw, err := mod.UpdateKeywordList(ctx, app, "spam-words", &chat.UpdateKeywordListRequest{Category: chat.KeywordWord, SearchTerms: []string{"casino", "poker"}})
	require.NoError(t, err)
	assert.Equal(t, "test-app_spam-words_2", kw.RevisionID)
	got, err := client.Moderation.GetKeywordList(ctx, "spam-words")
	require.NoError(t, err)
	assert.Equal(t, kw, got, "the chat API serves the same lists")

	rule, err := mod.CreateRule(ctx, app, &chat.CreateRuleRequest{ID: "no-spam", Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord,
			KeywordReference: true, Values: []string{"spam-words"}}}})
	require.NoError(t, err)
	assert.Equal(t, "test-app_no-spam_1", rule.RevisionID)
	_, err = mod.UpdateRule(ctx, app, "no-spam", &chat.UpdateRuleRequest{Name: "No spam"})
	require.NoError(t, err)
	r, err := mod.GetRule(ctx, app, "no-spam")
	require.NoError(t, err)
	assert.Equal(t, "No spam", r.Name)
	revs, err := mod.ListRuleRevisions(ctx, app, "no-spam", nil)
	require.NoError(t, err)
	assert.Len(t, revs.Data, 2)
	rules, err := mod.ListRules(ctx, app, &chat.ListRulesOptions{CursorOptions: chat.CursorOptions{Limit: 100}})
	require.NoError(t, err)
	assert.Len(t, rules.Data, len(builtinRules)+1)

	m := sendText(t, client, "alice", "bob", "poker night")
	assert.Equal(t, "pending", status(m))
	blocked, err := mod.ListBlockedMessages(ctx, app, nil)
	require.NoError(t, err)
	require.Len(t, blocked.Data, 1)
	assert.Equal(t, m.ID, blocked.Data[0].Message.ID)
	res, err := mod.ReviewBlockedMessage(ctx, app, m.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
	require.NoError(t, err)
	assert.True(t, res.Success)
	reviewed, err := client.Moderation.ListReviewedMessages(ctx, nil)
	require.NoError(t, err)
	require.Len(t, reviewed.Data, 1)
	assert.Equal(t, "approved", status(reviewed.Data[0].Message))

	_, err = mod.DeleteRule(ctx, app, "no-spam")
	require.NoError(t, err)
	_, err = mod.GetRule(ctx, app, "no-spam")
	requireAPIError(t, err, http.StatusNotFound, "ERR_RULE_NOT_FOUND", chat.ErrNotFound)
	_, err = mod.DeleteKeywordList(ctx, app, "spam-words")
	require.NoError(t, err)
	_, err = mod.GetKeywordList(ctx, app, "spam-words")
	requireAPIError(t, err, http.StatusNotFound, "ERR_KEYWORD_NOT_FOUND", chat.ErrNotFound)

	_, err = mod.ListRules(ctx, "other-app", nil)
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
	_, err = srv.ManagementClientWith("wrong", "creds", chat.WithoutRetries()).Moderation.ListRules(ctx, app, nil)
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, http.StatusUnauthorized, ce.StatusCode)
}

// TestModerationWebhooks receives the moderation triggers the engine and
// a review fire, typed by a webhook.NewHandler receiver.
func TestModerationWebhooks(t *testing.T) {
	srv, client := start(t)
	mod, ctx := client.Moderation, t.Context()
	seed(srv, "alice", "bob")
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "moderation", recv.URL, webhook.TriggerModerationEngineApproved,
		webhook.TriggerModerationEngineBlocked, webhook.TriggerModerationManualApproved)
	_, err := mod.CreateRule(ctx, &chat.CreateRuleRequest{ID: "no-casinos", Name: "No casinos", Actions: []chat.RuleAction{chat.ActionBlockMessage},
		Conditions: []chat.RuleCondition{{Operand: chat.ConditionText, Operator: chat.ConditionContains, Category: chat.KeywordWord,
			Values: []string{"casino"}, Message: []string{"Gambling"}}}})
	require.NoError(t, err)

	clean := sendText(t, client, "alice", "bob", "lunch?")
	blocked := sendText(t, client, "alice", "bob", "casino?")
	next := func(trigger webhook.Trigger) *webhook.ModerationEvent {
		t.Helper()
		ev := recv.next(t)
		me, ok := ev.(*webhook.ModerationEvent)
		require.True(t, ok, "a %T", ev)
		assert.Equal(t, trigger, me.Trigger())
		return me
	}
	ev := next(webhook.TriggerModerationEngineApproved)
	assert.Equal(t, clean.ID, ev.Message.ID)
	assert.Equal(t, "approved", ev.Status())
	ev = next(webhook.TriggerModerationEngineBlocked)
	assert.Equal(t, blocked.ID, ev.Message.ID)
	assert.Equal(t, "disapproved", ev.Status(), "the engine's verdict, while the message waits for review")
	assert.Equal(t, &chat.ModerationRuleRef{ID: "no-casinos", Name: "No casinos"}, ev.Message.Data.Moderation.Rule)

	_, err = mod.ReviewBlockedMessage(ctx, blocked.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewApproved})
	require.NoError(t, err)
	ev = next(webhook.TriggerModerationManualApproved)
	assert.Equal(t, "approved", ev.Status())
	assert.True(t, ev.Reviewed)
	require.Len(t, ev.Moderation, 1)
	assert.Equal(t, webhook.ModerationRule{ID: "no-casinos", Name: "No casinos", RevisionID: "test-app_no-casinos_1",
		Action: []string{"blockMessage"}, BlockedAt: chat.Timestamp(t0.Unix())}, ev.Moderation[0].Rule)
	c := ev.Moderation[0].Condition
	assert.Equal(t, "text", c.Operand)
	assert.Equal(t, "Gambling", c.Message)
	assert.JSONEq(t, `["casino"]`, string(c.Value))

	// A rejection fires nothing.
	again := sendText(t, client, "alice", "bob", "casino!")
	assert.Equal(t, again.ID, next(webhook.TriggerModerationEngineBlocked).Message.ID)
	_, err = mod.ReviewBlockedMessage(ctx, again.ID, &chat.ReviewBlockedMessageRequest{Status: chat.ReviewRejected})
	require.NoError(t, err)
	awaitHooks(t, srv, 4)
	assert.Len(t, srv.Deliveries(), 4)
}

// Messages of a chat run elsewhere are submitted for moderation and kept
// with the rules' verdict, apart from the app's own messages.
func TestModerationMessages(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	_, err := client.Moderation.UpdateRule(ctx, "text-profanity-filter", &chat.UpdateRuleRequest{Enabled: new(true)})
	require.NoError(t, err)
	submit := func(text string) map[string]any {
		t.Helper()
		r := do(t, srv, "POST", "/v3/moderation/messages", `{"sender":"ext-1","receiver":"ext-2","receiverType":"user",
			"data":{"text":"`+text+`"},"senderUserDetails":{"uid":"ext-1","name":"One"},"receiverUserDetails":{"uid":"ext-2","name":"Two"}}`, key(srv))
		require.Equal(t, 200, r.resp.StatusCode, "%v", r.body)
		return r.body["data"].(map[string]any)
	}
	status := func(m map[string]any) any { return m["data"].(map[string]any)["moderation"].(map[string]any)["status"] }

	clean := submit("hello")
	assert.Equal(t, "1", clean["id"])
	assert.Equal(t, "approved", status(clean))
	assert.Equal(t, "ext-1_user_ext-2", clean["conversationId"])
	_, ok := srv.User("ext-1")
	assert.True(t, ok, "the users are created from their details")
	assert.Equal(t, "pending", status(submit("a badword here")), "a rule that blocks messages leaves it for review")
	assert.Empty(t, srv.Messages(), "nothing is sent in the app's conversations")

	r := do(t, srv, "GET", "/v3/moderation/messages?moderationStatus=pending", "", key(srv))
	require.Len(t, r.body["data"], 1)
	assert.Equal(t, "2", r.body["data"].([]any)[0].(map[string]any)["id"])
	r = do(t, srv, "GET", "/v3/moderation/messages?sender=nobody", "", key(srv))
	assert.Empty(t, r.body["data"])

	r = do(t, srv, "PUT", "/v3/moderation/messages/2", `{"data":{"text":"all fine now"}}`, key(srv))
	require.Equal(t, 200, r.resp.StatusCode)
	assert.Equal(t, "approved", status(r.body["data"].(map[string]any)), "moderated again")
	assert.Equal(t, "app_system", r.body["data"].(map[string]any)["editedBy"])

	r = do(t, srv, "DELETE", "/v3/moderation/messages/2", "", key(srv))
	require.Equal(t, 200, r.resp.StatusCode)
	r = do(t, srv, "GET", "/v3/moderation/messages/2", "", key(srv))
	assert.Equal(t, 404, r.resp.StatusCode)
	assert.Equal(t, "ERR_MSG_NOT_FOUND", r.errorBody(t)["code"])
	r = do(t, srv, "POST", "/v3/moderation/messages", `{"sender":"ghost","receiver":"ext-2","receiverType":"user","data":{"text":"x"}}`, key(srv))
	assert.Equal(t, 404, r.resp.StatusCode, "an unknown user without details")
	r = do(t, srv, "POST", "/v3/moderation/messages", `{"receiver":"ext-2","receiverType":"user"}`, key(srv))
	assert.Equal(t, 400, r.resp.StatusCode)
}

func TestModerationReasons(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	mod := client.Moderation
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam", Default: true})

	clk.Set(t0.Add(time.Minute))
	created, err := mod.CreateReason(ctx, &chat.CreateReasonRequest{ID: "rude", Name: "Rude", Description: "Impolite language"})
	require.NoError(t, err)
	assert.Equal(t, &chat.ModerationReason{ID: "rude", Name: "Rude", Description: "Impolite language",
		CreatedAt: chat.TimestampOf(t0.Add(time.Minute)), UpdatedAt: chat.TimestampOf(t0.Add(time.Minute))}, created)
	_, err = mod.CreateReason(ctx, &chat.CreateReasonRequest{ID: "rude", Name: "Again"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "id")

	page, err := mod.ListReasons(ctx, nil)
	require.NoError(t, err, "string timestamps decode")
	assert.Equal(t, []chat.ModerationReason{
		{ID: "spam", Name: "Spam", Default: true, CreatedAt: chat.TimestampOf(t0), UpdatedAt: chat.TimestampOf(t0)},
		*created,
	}, page.Data)
	assert.Equal(t, &chat.PageCount{Limit: 100, Count: 2}, page.Meta.Current)
	assert.Nil(t, page.Meta.Next)
	r := do(t, srv, http.MethodGet, "/v3/moderation/reasons", "", key(srv))
	assert.Equal(t, "1700000000", r.body["data"].([]any)[0].(map[string]any)["createdAt"], "strings on the wire")

	for i := range 3 {
		_, err := mod.CreateReason(ctx, &chat.CreateReasonRequest{ID: fmt.Sprintf("r%d", i), Name: "R"})
		require.NoError(t, err)
	}
	var ids []string
	for rsn, err := range mod.AllReasons(ctx, &chat.ListReasonsOptions{CursorOptions: chat.CursorOptions{Limit: 2}}) {
		require.NoError(t, err)
		ids = append(ids, rsn.ID)
	}
	assert.Equal(t, []string{"spam", "rude", "r0", "r1", "r2"}, ids, "follows meta.next")

	clk.Set(t0.Add(2 * time.Minute))
	updated, err := mod.UpdateReason(ctx, "rude", &chat.UpdateReasonRequest{Name: "Very rude"})
	require.NoError(t, err)
	assert.Equal(t, "Very rude", updated.Name)
	assert.Equal(t, "Impolite language", updated.Description)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), updated.UpdatedAt)
	got, err := mod.GetReason(ctx, "rude")
	require.NoError(t, err)
	assert.Equal(t, updated, got)

	res, err := mod.DeleteReason(ctx, "rude")
	require.NoError(t, err, "the answer has no data wrapper")
	assert.True(t, res.Success)
	assert.NotEmpty(t, res.Message)
	for _, call := range []func() error{
		func() error { _, err := mod.GetReason(ctx, "rude"); return err },
		func() error {
			_, err := mod.UpdateReason(ctx, "rude", &chat.UpdateReasonRequest{Name: "x"})
			return err
		},
		func() error { _, err := mod.DeleteReason(ctx, "rude"); return err },
	} {
		requireAPIError(t, call(), http.StatusNotFound, "ERR_REASON_NOT_FOUND", chat.ErrNotFound)
	}
}
