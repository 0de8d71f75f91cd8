package chat

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
)

// ReviewStatus is a moderator's verdict on a blocked or flagged message.
type ReviewStatus string

// Review verdicts. A blocked message is approved or rejected; a flagged
// message is approved or disapproved.
const (
	ReviewApproved    ReviewStatus = "approved"
	ReviewRejected    ReviewStatus = "rejected"
	ReviewDisapproved ReviewStatus = "disapproved"
)

// BlockedMessage is a message a moderation rule blocked, kept until it is
// reviewed: the rule and condition that matched, and the message (its
// Data.Moderation.Status is "pending" until then).
type BlockedMessage struct {
	RuleID     string `json:"ruleId"`
	RuleName   string `json:"ruleName,omitempty"`
	RevisionID string `json:"revisionId,omitempty"`
	// Condition is the condition that matched.
	Condition *RuleCondition `json:"condition,omitempty"`
	// Message is the message as it is stored.
	Message *Message `json:"message,omitempty"`
	// Actions are the rule's actions.
	Actions   []RuleAction `json:"action,omitempty"`
	CreatedAt Timestamp    `json:"createdAt,omitempty"`
	UpdatedAt Timestamp    `json:"updatedAt,omitempty"`
}

// ListBlockedMessagesOptions positions a list of blocked messages; the
// cursor fields are sent when set.
type ListBlockedMessagesOptions struct {
	CursorOptions
}

// ListBlockedMessages returns one page of the messages moderation rules
// blocked that await review.
//
// API: GET /v3/moderation/blocked-messages (onBehalfOf not supported)
func (s *ModerationService) ListBlockedMessages(ctx context.Context, opts *ListBlockedMessagesOptions, reqOpts ...RequestOption) (*Page[BlockedMessage], error) {
	return list[BlockedMessage](ctx, s.c, &Request{Path: []string{"moderation", "blocked-messages"}, Query: opts}, reqOpts)
}

// AllBlockedMessages iterates over every blocked message awaiting review,
// following meta.next while the service sends one. It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/blocked-messages (onBehalfOf not supported)
func (s *ModerationService) AllBlockedMessages(ctx context.Context, opts *ListBlockedMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*BlockedMessage, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListBlockedMessagesOptions) (*Page[BlockedMessage], error) {
		return s.ListBlockedMessages(ctx, o, reqOpts...)
	})
}

// ReviewBlockedMessageRequest is the body of
// [ModerationService.ReviewBlockedMessage].
//
// The path takes two forms of body: review (status "approved" or
// "rejected", and reviewed) and the older approve (status only, e.g.
// "approved"). This request covers both: leave Reviewed nil to send the
// older form.
type ReviewBlockedMessageRequest struct {
	// Status is [ReviewApproved] or [ReviewRejected] (required).
	Status ReviewStatus `json:"status"`
	// Reviewed marks the message as reviewed; nil does not send it.
	Reviewed *bool `json:"reviewed,omitempty"`
}

// Validate checks r as [ModerationService.ReviewBlockedMessage] does
// before sending: Status set. It returns an [*ArgumentError] naming the
// field at fault, or nil.
func (r *ReviewBlockedMessageRequest) Validate() error {
	return required("req.Status", string(r.Status))
}

// ReviewBlockedMessage approves or rejects the blocked message id (the
// message's id): its Data.Moderation.Status becomes "approved" or
// "disapproved". Once reviewed, it leaves the blocked list for the
// reviewed one (see [ModerationService.ListReviewedMessages]).
//
// API: PATCH /v3/moderation/blocked-messages/{id} (onBehalfOf not supported)
func (s *ModerationService) ReviewBlockedMessage(ctx context.Context, id string, req *ReviewBlockedMessageRequest, opts ...RequestOption) (*Result, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPatch, Path: []string{"moderation", "blocked-messages", id}, Body: req}, opts)
}

// Flagger is one user's report in a [FlaggedMessage]: who flagged the
// message, with which reason and remark.
type Flagger struct {
	UID    string `json:"uid"`
	Name   string `json:"name,omitempty"`
	Avatar string `json:"avatar,omitempty"`
	Role   string `json:"role,omitempty"`
	// ReasonID is the moderation reason given (see
	// [ModerationService.CreateReason]); ReasonName and Description are
	// the reason's.
	ReasonID    string `json:"reasonId,omitempty"`
	ReasonName  string `json:"reasonName,omitempty"`
	Description string `json:"description,omitempty"`
	// Remark is the user's comment.
	Remark string `json:"remark,omitempty"`
}

// FlaggedMessage is a message users flagged ([MessagesService.Flag]) that
// awaits review: the message's own fields with appId and flaggedBy beside
// them. Raw keeps the item as sent.
type FlaggedMessage struct {
	Message
	// AppID is the app's id.
	AppID string `json:"appId,omitempty"`
	// FlaggedBy are the users who flagged the message.
	FlaggedBy []Flagger `json:"flaggedBy,omitempty"`
	// Raw is the item as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the typed fields and keeps b in Raw.
func (f *FlaggedMessage) UnmarshalJSON(b []byte) error {
	type plain FlaggedMessage
	*f = FlaggedMessage{}
	return decodeKeepingRaw(b, (*plain)(f), &f.Raw)
}

// ListFlaggedMessagesOptions positions a list of flagged messages; the
// cursor fields are sent when set.
type ListFlaggedMessagesOptions struct {
	CursorOptions
}

// ListFlaggedMessages returns one page of the messages users flagged that
// await review.
//
// API: GET /v3/moderation/flagged-messages (onBehalfOf not supported)
func (s *ModerationService) ListFlaggedMessages(ctx context.Context, opts *ListFlaggedMessagesOptions, reqOpts ...RequestOption) (*Page[FlaggedMessage], error) {
	return list[FlaggedMessage](ctx, s.c, &Request{Path: []string{"moderation", "flagged-messages"}, Query: opts}, reqOpts)
}

// AllFlaggedMessages iterates over every flagged message awaiting review,
// following meta.next while the service sends one. It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/flagged-messages (onBehalfOf not supported)
func (s *ModerationService) AllFlaggedMessages(ctx context.Context, opts *ListFlaggedMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*FlaggedMessage, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListFlaggedMessagesOptions) (*Page[FlaggedMessage], error) {
		return s.ListFlaggedMessages(ctx, o, reqOpts...)
	})
}

// ReviewFlaggedMessageRequest is the body of
// [ModerationService.ReviewFlaggedMessage].
type ReviewFlaggedMessageRequest struct {
	// Status is [ReviewApproved] (the message stays visible) or
	// [ReviewDisapproved] (it is blocked); required.
	Status ReviewStatus `json:"status"`
}

// Validate checks r as [ModerationService.ReviewFlaggedMessage] does
// before sending: Status set. It returns an [*ArgumentError] naming the
// field at fault, or nil.
func (r *ReviewFlaggedMessageRequest) Validate() error {
	return required("req.Status", string(r.Status))
}

// ReviewFlaggedMessage approves or disapproves the flagged message id,
// which then moves to the reviewed list. The answer may be {"data": {}}
// or {"success", "message"} at the top level; both decode (an empty
// answer gives a zero Result).
//
// API: PATCH /v3/moderation/flagged-messages/{id} (onBehalfOf not supported)
func (s *ModerationService) ReviewFlaggedMessage(ctx context.Context, id string, req *ReviewFlaggedMessageRequest, opts ...RequestOption) (*Result, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out struct {
		Data *Result `json:"data"`
		Result
	}
	call := &Request{Method: http.MethodPatch, Path: []string{"moderation", "flagged-messages", id}, Body: req}
	if err := s.c.Send(ctx, call, &out, opts); err != nil {
		return nil, err
	}
	if out.Data != nil {
		return out.Data, nil
	}
	return &out.Result, nil
}

// ReviewedMessage is a blocked or flagged message a moderator reviewed:
// the fields of a [BlockedMessage], and the flaggedBy users of a message
// that was flagged. The message's Data.Moderation.Status is the verdict.
// Raw keeps the item as sent.
type ReviewedMessage struct {
	RuleID     string         `json:"ruleId,omitempty"`
	RuleName   string         `json:"ruleName,omitempty"`
	RevisionID string         `json:"revisionId,omitempty"`
	Condition  *RuleCondition `json:"condition,omitempty"`
	Message    *Message       `json:"message,omitempty"`
	Actions    []RuleAction   `json:"action,omitempty"`
	// FlaggedBy are the users who flagged the message, when it was flagged.
	FlaggedBy []Flagger `json:"flaggedBy,omitempty"`
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// Raw is the item as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the typed fields and keeps b in Raw.
func (r *ReviewedMessage) UnmarshalJSON(b []byte) error {
	type plain ReviewedMessage
	*r = ReviewedMessage{}
	return decodeKeepingRaw(b, (*plain)(r), &r.Raw)
}

// ListReviewedMessagesOptions positions a list of reviewed messages; the
// cursor fields are sent when set.
type ListReviewedMessagesOptions struct {
	CursorOptions
}

// ListReviewedMessages returns one page of the blocked and flagged
// messages moderators reviewed.
//
// API: GET /v3/moderation/reviewed-messages (onBehalfOf not supported)
func (s *ModerationService) ListReviewedMessages(ctx context.Context, opts *ListReviewedMessagesOptions, reqOpts ...RequestOption) (*Page[ReviewedMessage], error) {
	return list[ReviewedMessage](ctx, s.c, &Request{Path: []string{"moderation", "reviewed-messages"}, Query: opts}, reqOpts)
}

// AllReviewedMessages iterates over every reviewed message, following
// meta.next while the service sends one. It stops at the first error,
// which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/reviewed-messages (onBehalfOf not supported)
func (s *ModerationService) AllReviewedMessages(ctx context.Context, opts *ListReviewedMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*ReviewedMessage, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListReviewedMessagesOptions) (*Page[ReviewedMessage], error) {
		return s.ListReviewedMessages(ctx, o, reqOpts...)
	})
}
