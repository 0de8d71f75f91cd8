package management

import (
	"context"
	"net/http"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// ModerationService is the deprecated management variant of moderation
// rules, keyword lists and blocked messages: the operations of the chat
// API's [chat.ModerationService] addressed by app id on the Management API.
// They take the same requests and return the same types. Every method is
// deprecated: use [chat.ModerationService] ([chat.Client.Moderation]),
// which the service recommends and which also reviews flagged messages.
// Get it from [Client.Moderation].
type ModerationService struct{ c caller }

// modPath is /apps/{appId}/moderation followed by segments.
func modPath(appID string, segments ...string) []string {
	return append([]string{"apps", appID, "moderation"}, segments...)
}

// CreateRule creates a moderation rule of the app appID and returns it.
//
// Deprecated: use chat's ModerationService.CreateRule.
//
// API: POST /apps/{appId}/moderation/rules (management)
func (s *ModerationService) CreateRule(ctx context.Context, appID string, req *chat.CreateRuleRequest, opts ...chat.RequestOption) (*chat.ModerationRule, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[chat.ModerationRule](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: modPath(appID, "rules"), Body: req}, opts)
}

// ListRules returns one page of the moderation rules of the app appID.
//
// Deprecated: use chat's ModerationService.ListRules.
//
// API: GET /apps/{appId}/moderation/rules (management)
func (s *ModerationService) ListRules(ctx context.Context, appID string, opts *chat.ListRulesOptions, reqOpts ...chat.RequestOption) (*chat.Page[chat.ModerationRule], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.ModerationRule](ctx, s.c, &chat.Request{Path: modPath(appID, "rules"), Query: opts}, reqOpts)
}

// GetRule returns the moderation rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.GetRule.
//
// API: GET /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) GetRule(ctx context.Context, appID, ruleID string, opts ...chat.RequestOption) (*chat.ModerationRule, error) {
	if err := required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[chat.ModerationRule](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: modPath(appID, "rules", ruleID)}, opts)
}

// UpdateRule changes the moderation rule ruleID of the app appID, as a new
// revision, and returns it.
//
// Deprecated: use chat's ModerationService.UpdateRule.
//
// API: PUT /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) UpdateRule(ctx context.Context, appID, ruleID string, req *chat.UpdateRuleRequest, opts ...chat.RequestOption) (*chat.ModerationRule, error) {
	if err := required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	return do[chat.ModerationRule](ctx, s.c, &chat.Request{Method: http.MethodPut, Path: modPath(appID, "rules", ruleID), Body: req}, opts)
}

// DeleteRule deletes the moderation rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.DeleteRule.
//
// API: DELETE /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) DeleteRule(ctx context.Context, appID, ruleID string, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: modPath(appID, "rules", ruleID)}, opts)
}

// ListRuleRevisions returns one page of the revisions of the moderation
// rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.ListRuleRevisions.
//
// API: GET /apps/{appId}/moderation/rules/{ruleId}/revisions (management)
func (s *ModerationService) ListRuleRevisions(ctx context.Context, appID, ruleID string, opts *chat.ListRuleRevisionsOptions, reqOpts ...chat.RequestOption) (*chat.Page[chat.ModerationRule], error) {
	if err := required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return listPage[chat.ModerationRule](ctx, s.c, &chat.Request{Path: modPath(appID, "rules", ruleID, "revisions"), Query: opts}, reqOpts)
}

// CreateKeywordList creates a keyword list of the app appID and returns
// it; req is sent as multipart/form-data, as
// [chat.CreateKeywordListRequest.Form] encodes it.
//
// Deprecated: use chat's ModerationService.CreateKeywordList.
//
// API: POST /apps/{appId}/moderation/keywords (management)
func (s *ModerationService) CreateKeywordList(ctx context.Context, appID string, req *chat.CreateKeywordListRequest, opts ...chat.RequestOption) (*chat.KeywordList, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: modPath(appID, "keywords"), Body: &rest.RawBody{ContentType: ct, Data: body}}, opts)
}

// ListKeywordLists returns one page of the keyword lists of the app appID.
//
// Deprecated: use chat's ModerationService.ListKeywordLists.
//
// API: GET /apps/{appId}/moderation/keywords (management)
func (s *ModerationService) ListKeywordLists(ctx context.Context, appID string, opts *chat.ListKeywordListsOptions, reqOpts ...chat.RequestOption) (*chat.Page[chat.KeywordList], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.KeywordList](ctx, s.c, &chat.Request{Path: modPath(appID, "keywords"), Query: opts}, reqOpts)
}

// GetKeywordList returns the keyword list keywordID of the app appID.
//
// Deprecated: use chat's ModerationService.GetKeywordList.
//
// API: GET /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) GetKeywordList(ctx context.Context, appID, keywordID string, opts ...chat.RequestOption) (*chat.KeywordList, error) {
	if err := required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: modPath(appID, "keywords", keywordID)}, opts)
}

// UpdateKeywordList replaces the keyword list keywordID of the app appID
// with req, sent as multipart/form-data as
// [chat.UpdateKeywordListRequest.Form] encodes it, and returns it.
//
// Deprecated: use chat's ModerationService.UpdateKeywordList.
//
// API: PUT /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) UpdateKeywordList(ctx context.Context, appID, keywordID string, req *chat.UpdateKeywordListRequest, opts ...chat.RequestOption) (*chat.KeywordList, error) {
	if err := required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.c, &chat.Request{Method: http.MethodPut, Path: modPath(appID, "keywords", keywordID), Body: &rest.RawBody{ContentType: ct, Data: body}}, opts)
}

// DeleteKeywordList deletes the keyword list keywordID of the app appID.
//
// Deprecated: use chat's ModerationService.DeleteKeywordList.
//
// API: DELETE /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) DeleteKeywordList(ctx context.Context, appID, keywordID string, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: modPath(appID, "keywords", keywordID)}, opts)
}

// ListBlockedMessages returns one page of the blocked messages of the app
// appID that await review.
//
// Deprecated: use chat's ModerationService.ListBlockedMessages.
//
// API: GET /apps/{appId}/moderation/blocked-messages (management)
func (s *ModerationService) ListBlockedMessages(ctx context.Context, appID string, opts *chat.ListBlockedMessagesOptions, reqOpts ...chat.RequestOption) (*chat.Page[chat.BlockedMessage], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.BlockedMessage](ctx, s.c, &chat.Request{Path: modPath(appID, "blocked-messages"), Query: opts}, reqOpts)
}

// ReviewBlockedMessage approves (or, with the chat API's review form,
// rejects) the blocked message messageID of the app appID. This variant
// takes status only ("approved"); Reviewed is sent when set.
//
// Deprecated: use chat's ModerationService.ReviewBlockedMessage.
//
// API: PATCH /apps/{appId}/moderation/blocked-messages/{messageId} (management)
func (s *ModerationService) ReviewBlockedMessage(ctx context.Context, appID, messageID string, req *chat.ReviewBlockedMessageRequest, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID, "messageID", messageID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodPatch, Path: modPath(appID, "blocked-messages", messageID), Body: req}, opts)
}
