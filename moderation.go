package chat

import (
	"context"
	"iter"
	"net/http"
)

// ModerationService manages rule-based moderation: rules that test new
// messages and block or drop those that match, the keyword lists rules
// refer to, the review of blocked and flagged messages, the reasons users
// give when flagging a message ([MessagesService.Flag]), and the
// moderation of messages of a chat the app runs elsewhere
// ([ModerationService.SubmitMessage]). Get it from [Client.Moderation].
// The deprecated management variants of rules, keyword lists and blocked
// messages are in package management.
type ModerationService struct{ c *caller }

// ModerationReason is a reason for flagging a message.
type ModerationReason struct {
	// ID is the reason's id, chosen at creation.
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Default reports whether the reason is built in (set in lists).
	Default bool `json:"default,omitempty"`
	// CreatedAt and UpdatedAt are integers on create and strings in lists
	// on the wire; both decode.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
}

// CreateReasonRequest is the body of [ModerationService.CreateReason].
type CreateReasonRequest struct {
	// ID is required.
	ID string `json:"id"`
	// Name is required.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Validate checks r as [ModerationService.CreateReason] does before
// sending: ID and Name set. It returns an [*ArgumentError] naming the
// field at fault, or nil.
func (r *CreateReasonRequest) Validate() error { return required("req.ID", r.ID, "req.Name", r.Name) }

// CreateReason creates a moderation reason and returns it.
//
// API: POST /v3/moderation/reasons (onBehalfOf not supported)
func (s *ModerationService) CreateReason(ctx context.Context, req *CreateReasonRequest, opts ...RequestOption) (*ModerationReason, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ModerationReason](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"moderation", "reasons"}, Body: req}, opts)
}

// ListReasonsOptions positions a list of moderation reasons, a
// cursor-based list (meta.current, meta.next); the fields are sent when
// set.
type ListReasonsOptions struct {
	CursorOptions
}

// ListReasons returns one page of moderation reasons, built-in ones
// included (Default set).
//
// API: GET /v3/moderation/reasons (onBehalfOf not supported)
func (s *ModerationService) ListReasons(ctx context.Context, opts *ListReasonsOptions, reqOpts ...RequestOption) (*Page[ModerationReason], error) {
	return list[ModerationReason](ctx, s.c, &Request{Path: []string{"moderation", "reasons"}, Query: opts}, reqOpts)
}

// AllReasons iterates over every moderation reason, following meta.next
// while the service sends one (without one, the first page is all there
// is). It stops at the first error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/reasons (onBehalfOf not supported)
func (s *ModerationService) AllReasons(ctx context.Context, opts *ListReasonsOptions, reqOpts ...RequestOption) iter.Seq2[*ModerationReason, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListReasonsOptions) (*Page[ModerationReason], error) {
		return s.ListReasons(ctx, o, reqOpts...)
	})
}

// GetReason returns the moderation reason id.
//
// API: GET /v3/moderation/reasons/{id} (onBehalfOf not supported)
func (s *ModerationService) GetReason(ctx context.Context, id string, opts ...RequestOption) (*ModerationReason, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[ModerationReason](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"moderation", "reasons", id}}, opts)
}

// UpdateReasonRequest is the body of [ModerationService.UpdateReason].
type UpdateReasonRequest struct {
	// Name is the new name.
	Name string `json:"name"`
}

// Validate checks r as [ModerationService.UpdateReason] does before
// sending: Name set. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (r *UpdateReasonRequest) Validate() error { return required("req.Name", r.Name) }

// UpdateReason renames the moderation reason id and returns it.
//
// API: PUT /v3/moderation/reasons/{id} (onBehalfOf not supported)
func (s *ModerationService) UpdateReason(ctx context.Context, id string, req *UpdateReasonRequest, opts ...RequestOption) (*ModerationReason, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ModerationReason](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"moderation", "reasons", id}, Body: req}, opts)
}

// DeleteReason deletes the moderation reason id. The answer's success and
// message are read under "data" or at the top level.
//
// API: DELETE /v3/moderation/reasons/{id} (onBehalfOf not supported)
func (s *ModerationService) DeleteReason(ctx context.Context, id string, opts ...RequestOption) (*Result, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	// Either {"data": {success, message}} or {success, message}.
	var out struct {
		Data *Result `json:"data"`
		Result
	}
	call := &Request{Method: http.MethodDelete, Path: []string{"moderation", "reasons", id}}
	if err := s.c.Send(ctx, call, &out, opts); err != nil {
		return nil, err
	}
	if out.Data != nil {
		return out.Data, nil
	}
	return &out.Result, nil
}
