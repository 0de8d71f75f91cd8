package chat

import (
	"context"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// RuleAction is what a moderation rule does with a message it matches:
// one of the two below; other values decode as they come.
type RuleAction string

// Moderation rule actions.
const (
	// ActionBlockMessage blocks the message and keeps it for review in the
	// blocked-messages list.
	ActionBlockMessage RuleAction = "blockMessage"
	// ActionDropMessage drops the message.
	ActionDropMessage RuleAction = "dropMessage"
)

// RuleFilterType says which party of a message a [RuleFilter] looks at.
type RuleFilterType string

// Rule filter types.
const (
	RuleFilterSender   RuleFilterType = "sender"
	RuleFilterReceiver RuleFilterType = "receiver"
)

// RuleFilterEntity says whether a [RuleFilter] looks at a user or a group.
type RuleFilterEntity string

// Rule filter entities.
const (
	RuleFilterUser  RuleFilterEntity = "user"
	RuleFilterGroup RuleFilterEntity = "group"
)

// RuleFilterOperator compares a filter's operand with its value.
type RuleFilterOperator string

// Rule filter operators. User filters take the first five; group filters
// take all eight.
const (
	FilterEquals      RuleFilterOperator = "equals"
	FilterNotEquals   RuleFilterOperator = "notEquals"
	FilterIn          RuleFilterOperator = "in"
	FilterNotIn       RuleFilterOperator = "notIn"
	FilterStartsWith  RuleFilterOperator = "startsWith"
	FilterEndsWith    RuleFilterOperator = "endsWith"
	FilterLessThan    RuleFilterOperator = "lessThan"
	FilterGreaterThan RuleFilterOperator = "greaterThan"
)

// RuleFilter narrows a moderation rule to messages whose sender or
// receiver matches: a user filter (Entity [RuleFilterUser]) compares the
// user's "uid", "name", "role", "tags" or "createdAt"; a group filter
// (Entity [RuleFilterGroup]) the group's "guid", "name", "type", "tags" or
// "createdAt". Every field is required.
type RuleFilter struct {
	// Type is the party: [RuleFilterSender] or [RuleFilterReceiver].
	Type RuleFilterType `json:"type"`
	// Entity is [RuleFilterUser] or [RuleFilterGroup].
	Entity RuleFilterEntity `json:"entity"`
	// Operand is the property compared, e.g. "uid" or "tags".
	Operand string `json:"operand"`
	// Operator is the comparison.
	Operator RuleFilterOperator `json:"operator"`
	// Value is what the operand is compared with, a string; for
	// [FilterIn] and [FilterNotIn], write several values comma-separated.
	Value string `json:"value"`
}

// ConditionOperand is the part of a message a [RuleCondition] examines.
type ConditionOperand string

// Condition operands.
const (
	ConditionText   ConditionOperand = "text"
	ConditionImage  ConditionOperand = "image"
	ConditionVideo  ConditionOperand = "video"
	ConditionCustom ConditionOperand = "custom"
)

// ConditionOperator is how a [RuleCondition] compares its operand with its
// values.
type ConditionOperator string

// Condition operators.
const (
	ConditionContains ConditionOperator = "contains"
	ConditionEquals   ConditionOperator = "equals"
)

// KeywordCategory is what the terms of a keyword list, or the values of a
// rule condition, are: words, regular-expression patterns or sentences
// compared by similarity. Built-in rules use further categories (e.g.
// "toxicity"), which decode as they come.
type KeywordCategory string

// Keyword categories.
const (
	KeywordWord               KeywordCategory = "word"
	KeywordPattern            KeywordCategory = "pattern"
	KeywordSentenceSimilarity KeywordCategory = "sentence-similarity"
)

// RuleCondition is one test of a moderation rule: whether the message's
// Operand (its text, image, video or custom data) contains or equals one
// of Values.
//
// The service spells some fields in several ways, and RuleCondition reads
// every form: the flag that says Values name keyword lists is
// isKeywordReferencePresent in requests (which is what RuleCondition
// writes), isKeywordsReferencePresent in responses, and
// isListReferencePresent on one built-in rule; value and message come as
// strings or as arrays of strings. RuleCondition
// writes them as arrays, the form the service answers with, so that a
// rule read from the API can be sent back unchanged.
type RuleCondition struct {
	// ID numbers the condition within its rule.
	ID int `json:"id,omitempty"`
	// Entity is what the condition looks at: "message".
	Entity string `json:"entity,omitempty"`
	// Operand is the part of the message examined.
	Operand ConditionOperand `json:"operand,omitempty"`
	// Operator is [ConditionContains] or [ConditionEquals].
	Operator ConditionOperator `json:"operator,omitempty"`
	// Category says what Values are: [KeywordWord] (words),
	// [KeywordPattern] (regular expressions) or, in responses,
	// [KeywordSentenceSimilarity] and the categories of built-in rules.
	Category KeywordCategory `json:"category,omitempty"`
	// KeywordReference reports that Values are ids of keyword lists
	// ([ModerationService.CreateKeywordList]) rather than literal words or
	// patterns.
	KeywordReference bool `json:"isKeywordReferencePresent"`
	// MediaPresent reports that the condition examines media.
	MediaPresent bool `json:"isMediaPresent"`
	// Values are the words, patterns, keyword-list ids or formulas (such as
	// "violence_greaterThan_30" on built-in media rules) the operand is
	// tested against.
	Values []string `json:"value,omitempty"`
	// Message is the description shown for a match (responses).
	Message []string `json:"message,omitempty"`
	// Weight is the condition's weight (responses).
	Weight int `json:"weight,omitempty"`
}

// UnmarshalJSON reads a condition in any of the forms described at
// [RuleCondition].
func (c *RuleCondition) UnmarshalJSON(b []byte) error {
	type plain RuleCondition
	var w struct {
		plain
		Values   stringOrList `json:"value"`
		Message  stringOrList `json:"message"`
		Keyword  *bool        `json:"isKeywordReferencePresent"`
		Keywords *bool        `json:"isKeywordsReferencePresent"`
		List     *bool        `json:"isListReferencePresent"`
	}
	if err := rest.Unmarshal(b, &w); err != nil {
		return err
	}
	*c = RuleCondition(w.plain)
	c.Values, c.Message = w.Values, w.Message
	for _, f := range []*bool{w.Keyword, w.Keywords, w.List} {
		if f != nil {
			c.KeywordReference = c.KeywordReference || *f
		}
	}
	return nil
}

// stringOrList is a JSON string or array of strings, as a list; an empty
// string or null is an empty list.
type stringOrList []string

func (s *stringOrList) UnmarshalJSON(b []byte) error {
	var list []string
	if err := rest.Unmarshal(b, &list); err == nil {
		*s = list
		return nil
	}
	var one string
	if err := rest.Unmarshal(b, &one); err != nil {
		return err
	}
	*s = nil
	if one != "" {
		*s = stringOrList{one}
	}
	return nil
}

// ModerationRule is a moderation rule: conditions a message is tested
// against, filters that narrow which messages it applies to, and the
// actions taken on a match.
type ModerationRule struct {
	// ID is the rule's id, chosen at creation.
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Enabled reports whether the rule applies to new messages.
	Enabled bool `json:"enabled"`
	// Conditions are the rule's tests.
	Conditions []RuleCondition `json:"conditions,omitempty"`
	// Filters narrow the messages the rule applies to, when the service
	// sends them.
	Filters []RuleFilter `json:"filters,omitempty"`
	// Actions are taken on a match.
	Actions []RuleAction `json:"action,omitempty"`
	// Active reports whether this is the rule's current revision (older
	// revisions listed by [ModerationService.ListRuleRevisions] are not).
	Active bool `json:"active"`
	// Default reports a built-in rule.
	Default bool `json:"default,omitempty"`
	// RevisionID names this revision: "<appId>_<ruleId>_<n>".
	RevisionID string    `json:"revisionId,omitempty"`
	CreatedAt  Timestamp `json:"createdAt,omitempty"`
	UpdatedAt  Timestamp `json:"updatedAt,omitempty"`
}

// CreateRuleRequest is the body of [ModerationService.CreateRule].
type CreateRuleRequest struct {
	// ID is the rule's id (required, checked before anything is sent).
	ID string `json:"id"`
	// Name is at most 100 characters.
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Enabled turns the rule on; nil leaves the service's default.
	Enabled    *bool           `json:"enabled,omitempty"`
	Actions    []RuleAction    `json:"action,omitempty"`
	Filters    []RuleFilter    `json:"filters,omitempty"`
	Conditions []RuleCondition `json:"conditions,omitempty"`
}

// Validate checks r as [ModerationService.CreateRule] does before
// sending: ID set. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (r *CreateRuleRequest) Validate() error { return required("req.ID", r.ID) }

// CreateRule creates a moderation rule and returns it, as its first
// revision.
//
// API: POST /v3/moderation/rules (onBehalfOf not supported)
func (s *ModerationService) CreateRule(ctx context.Context, req *CreateRuleRequest, opts ...RequestOption) (*ModerationRule, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ModerationRule](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"moderation", "rules"}, Body: req}, opts)
}

// ListRulesOptions positions a list of moderation rules: Limit, and the
// cursor fields, sent when set as for every moderation list.
type ListRulesOptions struct {
	CursorOptions
}

// ListRules returns one page of the app's moderation rules, built-in ones
// included (Default set).
//
// API: GET /v3/moderation/rules (onBehalfOf not supported)
func (s *ModerationService) ListRules(ctx context.Context, opts *ListRulesOptions, reqOpts ...RequestOption) (*Page[ModerationRule], error) {
	return list[ModerationRule](ctx, s.c, &Request{Path: []string{"moderation", "rules"}, Query: opts}, reqOpts)
}

// AllRules iterates over every moderation rule, following meta.next while
// the service sends one. It stops at the first error, which it yields, and
// when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/rules (onBehalfOf not supported)
func (s *ModerationService) AllRules(ctx context.Context, opts *ListRulesOptions, reqOpts ...RequestOption) iter.Seq2[*ModerationRule, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListRulesOptions) (*Page[ModerationRule], error) {
		return s.ListRules(ctx, o, reqOpts...)
	})
}

// GetRule returns the current revision of the moderation rule ruleID.
//
// API: GET /v3/moderation/rules/{ruleId} (onBehalfOf not supported)
func (s *ModerationService) GetRule(ctx context.Context, ruleID string, opts ...RequestOption) (*ModerationRule, error) {
	if err := required("ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[ModerationRule](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"moderation", "rules", ruleID}}, opts)
}

// UpdateRuleRequest is the body of [ModerationService.UpdateRule]: the
// fields to change; empty ones are not sent.
type UpdateRuleRequest struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Enabled turns the rule on or off; nil leaves it as it is.
	Enabled    *bool           `json:"enabled,omitempty"`
	Actions    []RuleAction    `json:"action,omitempty"`
	Filters    []RuleFilter    `json:"filters,omitempty"`
	Conditions []RuleCondition `json:"conditions,omitempty"`
}

// UpdateRule changes the moderation rule ruleID and returns it. Each
// update makes a new revision (its RevisionID ends in the next number);
// the earlier ones stay listed by [ModerationService.ListRuleRevisions].
//
// API: PUT /v3/moderation/rules/{ruleId} (onBehalfOf not supported)
func (s *ModerationService) UpdateRule(ctx context.Context, ruleID string, req *UpdateRuleRequest, opts ...RequestOption) (*ModerationRule, error) {
	if err := required("ruleID", ruleID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[ModerationRule](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"moderation", "rules", ruleID}, Body: req}, opts)
}

// DeleteRule deletes the moderation rule ruleID and its revisions.
//
// API: DELETE /v3/moderation/rules/{ruleId} (onBehalfOf not supported)
func (s *ModerationService) DeleteRule(ctx context.Context, ruleID string, opts ...RequestOption) (*Result, error) {
	if err := required("ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"moderation", "rules", ruleID}}, opts)
}

// ListRuleRevisionsOptions positions a list of a rule's revisions; the
// cursor fields are sent when set.
type ListRuleRevisionsOptions struct {
	CursorOptions
}

// ListRuleRevisions returns one page of the revisions of the moderation
// rule ruleID: the current one has Active set, earlier ones do not.
//
// API: GET /v3/moderation/rules/{ruleId}/revisions (onBehalfOf not supported)
func (s *ModerationService) ListRuleRevisions(ctx context.Context, ruleID string, opts *ListRuleRevisionsOptions, reqOpts ...RequestOption) (*Page[ModerationRule], error) {
	if err := required("ruleID", ruleID); err != nil {
		return nil, err
	}
	return list[ModerationRule](ctx, s.c, &Request{Path: []string{"moderation", "rules", ruleID, "revisions"}, Query: opts}, reqOpts)
}

// AllRuleRevisions iterates over every revision of the moderation rule
// ruleID, following meta.next while the service sends one. It stops at the
// first error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/rules/{ruleId}/revisions (onBehalfOf not supported)
func (s *ModerationService) AllRuleRevisions(ctx context.Context, ruleID string, opts *ListRuleRevisionsOptions, reqOpts ...RequestOption) iter.Seq2[*ModerationRule, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListRuleRevisionsOptions) (*Page[ModerationRule], error) {
		return s.ListRuleRevisions(ctx, ruleID, o, reqOpts...)
	})
}
