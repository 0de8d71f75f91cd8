package chat

import (
	"context"
	"iter"
	"net/http"
)

// BlockedService manages the users a user has blocked. Get it from
// [Client.Blocked]. Blocking stops messages both ways; messages sent while
// blocked stay hidden after unblocking.
type BlockedService struct{ c *caller }

// BlockUsersRequest is the body of [BlockedService.Block].
type BlockUsersRequest struct {
	// BlockedUIDs are the users to block.
	BlockedUIDs []string `json:"blockedUids"`
}

// UnblockUsersRequest is the body of [BlockedService.Unblock].
type UnblockUsersRequest struct {
	// BlockedUIDs are the users to unblock.
	BlockedUIDs []string `json:"blockedUids"`
}

// Validate checks r as [BlockedService.Block] does before sending: at
// least one user; a nil r names none. It returns an [*ArgumentError]
// naming the field at fault, or nil.
func (r *BlockUsersRequest) Validate() error {
	if r == nil || len(r.BlockedUIDs) == 0 {
		return newArgError("req.BlockedUIDs", "must not be empty")
	}
	return nil
}

// Validate checks r as [BlockedService.Unblock] does before sending: at
// least one user; a nil r names none. It returns an [*ArgumentError]
// naming the field at fault, or nil.
func (r *UnblockUsersRequest) Validate() error {
	if r == nil || len(r.BlockedUIDs) == 0 {
		return newArgError("req.BlockedUIDs", "must not be empty")
	}
	return nil
}

// Block makes the user uid block the users in req.BlockedUIDs, and reports
// the outcome in a map keyed by UID, as the service keys it.
//
// API: POST /v3/users/{uid}/blockedusers (onBehalfOf not supported)
func (s *BlockedService) Block(ctx context.Context, uid string, req *BlockUsersRequest, opts ...RequestOption) (map[string]Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return resultMap(do[map[string]Result](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"users", uid, "blockedusers"}, Body: req}, opts))
}

// Unblock makes the user uid unblock the users in req.BlockedUIDs, and
// reports the outcome as [BlockedService.Block] does.
//
// API: DELETE /v3/users/{uid}/blockedusers (onBehalfOf not supported)
func (s *BlockedService) Unblock(ctx context.Context, uid string, req *UnblockUsersRequest, opts ...RequestOption) (map[string]Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return resultMap(do[map[string]Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users", uid, "blockedusers"}, Body: req}, opts))
}

// resultMap dereferences the answer of an operation that reports one
// Result per key.
func resultMap(m *map[string]Result, err error) (map[string]Result, error) {
	if err != nil {
		return nil, err
	}
	if *m == nil {
		return map[string]Result{}, nil
	}
	return *m, nil
}

// ListBlockedOptions selects a page of blocked users.
type ListBlockedOptions struct {
	PageOptions
}

// List returns one page of the users the user uid has blocked; each has
// BlockedByMe, BlockedByMeAt and BlockedAt set. Use [BlockedService.All] to
// walk every page.
//
// API: GET /v3/users/{uid}/blockedusers (onBehalfOf not supported)
func (s *BlockedService) List(ctx context.Context, uid string, opts *ListBlockedOptions, reqOpts ...RequestOption) (*Page[User], error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return list[User](ctx, s.c, &Request{Path: []string{"users", uid, "blockedusers"}, Query: opts}, reqOpts)
}

// All iterates over every user the user uid has blocked, page after page,
// starting at opts.Page (default 1). It stops at the first error, which it
// yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/users/{uid}/blockedusers (onBehalfOf not supported)
func (s *BlockedService) All(ctx context.Context, uid string, opts *ListBlockedOptions, reqOpts ...RequestOption) iter.Seq2[*User, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListBlockedOptions) (*Page[User], error) {
		return s.List(ctx, uid, o, reqOpts...)
	})
}
