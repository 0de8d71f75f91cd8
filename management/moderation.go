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
// which the reference recommends and which also reviews flagged messages.
// Get it from [Client.Moderation].
type ModerationService struct{ rc *rest.Client }

// modPath is /apps/{appId}/moderation followed by segments.
func modPath(appID string, segments ...string) rest.Path {
	return path(append([]string{"apps", appID, "moderation"}, segments...)...)
}

// CreateRule creates a moderation rule of the app appID and returns it.
//
// Deprecated: use chat's ModerationService.CreateRule.
//
// API: POST /apps/{appId}/moderation/rules (management)
func (s *ModerationService) CreateRule(ctx context.Context, appID string, req *chat.CreateRuleRequest, opts ...RequestOption) (*chat.ModerationRule, error) {
	if err := s.rc.Required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := s.rc.Required("req.ID", req.ID); err != nil {
		return nil, err
	}
	return do[chat.ModerationRule](ctx, s.rc, http.MethodPost, modPath(appID, "rules"), req, opts)
}

// ListRules returns one page of the moderation rules of the app appID.
//
// Deprecated: use chat's ModerationService.ListRules.
//
// API: GET /apps/{appId}/moderation/rules (management)
func (s *ModerationService) ListRules(ctx context.Context, appID string, opts *chat.ListRulesOptions, reqOpts ...RequestOption) (*chat.Page[chat.ModerationRule], error) {
	if err := s.rc.Required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.ModerationRule](ctx, s.rc, modPath(appID, "rules"), opts, reqOpts)
}

// GetRule returns the moderation rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.GetRule.
//
// API: GET /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) GetRule(ctx context.Context, appID, ruleID string, opts ...RequestOption) (*chat.ModerationRule, error) {
	if err := s.rc.Required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[chat.ModerationRule](ctx, s.rc, http.MethodGet, modPath(appID, "rules", ruleID), nil, opts)
}

// UpdateRule changes the moderation rule ruleID of the app appID, as a new
// revision, and returns it.
//
// Deprecated: use chat's ModerationService.UpdateRule.
//
// API: PUT /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) UpdateRule(ctx context.Context, appID, ruleID string, req *chat.UpdateRuleRequest, opts ...RequestOption) (*chat.ModerationRule, error) {
	if err := s.rc.Required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	return do[chat.ModerationRule](ctx, s.rc, http.MethodPut, modPath(appID, "rules", ruleID), req, opts)
}

// DeleteRule deletes the moderation rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.DeleteRule.
//
// API: DELETE /apps/{appId}/moderation/rules/{ruleId} (management)
func (s *ModerationService) DeleteRule(ctx context.Context, appID, ruleID string, opts ...RequestOption) (*chat.Result, error) {
	if err := s.rc.Required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.rc, http.MethodDelete, modPath(appID, "rules", ruleID), nil, opts)
}

// ListRuleRevisions returns one page of the revisions of the moderation
// rule ruleID of the app appID.
//
// Deprecated: use chat's ModerationService.ListRuleRevisions.
//
// API: GET /apps/{appId}/moderation/rules/{ruleId}/revisions (management)
func (s *ModerationService) ListRuleRevisions(ctx context.Context, appID, ruleID string, opts *chat.ListRuleRevisionsOptions, reqOpts ...RequestOption) (*chat.Page[chat.ModerationRule], error) {
	if err := s.rc.Required("appID", appID, "ruleID", ruleID); err != nil {
		return nil, err
	}
	return listPage[chat.ModerationRule](ctx, s.rc, modPath(appID, "rules", ruleID, "revisions"), opts, reqOpts)
}

// CreateKeywordList creates a keyword list of the app appID and returns
// it; req is sent as multipart/form-data, as
// [chat.CreateKeywordListRequest.Form] encodes it.
//
// Deprecated: use chat's ModerationService.CreateKeywordList.
//
// API: POST /apps/{appId}/moderation/keywords (management)
func (s *ModerationService) CreateKeywordList(ctx context.Context, appID string, req *chat.CreateKeywordListRequest, opts ...RequestOption) (*chat.KeywordList, error) {
	if err := s.rc.Required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.rc, http.MethodPost, modPath(appID, "keywords"), &rest.RawBody{ContentType: ct, Data: body}, opts)
}

// ListKeywordLists returns one page of the keyword lists of the app appID.
//
// Deprecated: use chat's ModerationService.ListKeywordLists.
//
// API: GET /apps/{appId}/moderation/keywords (management)
func (s *ModerationService) ListKeywordLists(ctx context.Context, appID string, opts *chat.ListKeywordListsOptions, reqOpts ...RequestOption) (*chat.Page[chat.KeywordList], error) {
	if err := s.rc.Required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.KeywordList](ctx, s.rc, modPath(appID, "keywords"), opts, reqOpts)
}

// GetKeywordList returns the keyword list keywordID of the app appID.
//
// Deprecated: use chat's ModerationService.GetKeywordList.
//
// API: GET /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) GetKeywordList(ctx context.Context, appID, keywordID string, opts ...RequestOption) (*chat.KeywordList, error) {
	if err := s.rc.Required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.rc, http.MethodGet, modPath(appID, "keywords", keywordID), nil, opts)
}

// UpdateKeywordList replaces the keyword list keywordID of the app appID
// with req, sent as multipart/form-data as
// [chat.UpdateKeywordListRequest.Form] encodes it, and returns it.
//
// Deprecated: use chat's ModerationService.UpdateKeywordList.
//
// API: PUT /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) UpdateKeywordList(ctx context.Context, appID, keywordID string, req *chat.UpdateKeywordListRequest, opts ...RequestOption) (*chat.KeywordList, error) {
	if err := s.rc.Required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	ct, body, err := req.Form()
	if err != nil {
		return nil, err
	}
	return do[chat.KeywordList](ctx, s.rc, http.MethodPut, modPath(appID, "keywords", keywordID), &rest.RawBody{ContentType: ct, Data: body}, opts)
}

// DeleteKeywordList deletes the keyword list keywordID of the app appID.
//
// Deprecated: use chat's ModerationService.DeleteKeywordList.
//
// API: DELETE /apps/{appId}/moderation/keywords/{keywordId} (management)
func (s *ModerationService) DeleteKeywordList(ctx context.Context, appID, keywordID string, opts ...RequestOption) (*chat.Result, error) {
	if err := s.rc.Required("appID", appID, "keywordID", keywordID); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.rc, http.MethodDelete, modPath(appID, "keywords", keywordID), nil, opts)
}

// ListBlockedMessages returns one page of the blocked messages of the app
// appID that await review.
//
// Deprecated: use chat's ModerationService.ListBlockedMessages.
//
// API: GET /apps/{appId}/moderation/blocked-messages (management)
func (s *ModerationService) ListBlockedMessages(ctx context.Context, appID string, opts *chat.ListBlockedMessagesOptions, reqOpts ...RequestOption) (*chat.Page[chat.BlockedMessage], error) {
	if err := s.rc.Required("appID", appID); err != nil {
		return nil, err
	}
	return listPage[chat.BlockedMessage](ctx, s.rc, modPath(appID, "blocked-messages"), opts, reqOpts)
}

// ReviewBlockedMessage approves (or, with the chat API's review form,
// rejects) the blocked message messageID of the app appID. The reference
// documents this variant with status only ("approved"); Reviewed is sent
// when set.
//
// Deprecated: use chat's ModerationService.ReviewBlockedMessage.
//
// API: PATCH /apps/{appId}/moderation/blocked-messages/{messageId} (management)
func (s *ModerationService) ReviewBlockedMessage(ctx context.Context, appID, messageID string, req *chat.ReviewBlockedMessageRequest, opts ...RequestOption) (*chat.Result, error) {
	if err := s.rc.Required("appID", appID, "messageID", messageID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := s.rc.Required("req.Status", string(req.Status)); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.rc, http.MethodPatch, modPath(appID, "blocked-messages", messageID), req, opts)
}
