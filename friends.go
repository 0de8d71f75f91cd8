package chat

import (
	"context"
	"iter"
	"net/http"
	"strconv"
)

// FriendsService manages users' friend lists. Get it from [Client.Friends].
type FriendsService struct{ c *caller }

// maxFriendsPerCall is how many friends one Add may name.
const maxFriendsPerCall = 25

// AddFriendsRequest is the body of [FriendsService.Add].
type AddFriendsRequest struct {
	// Accepted are the UIDs to befriend: 1 to 25 per call.
	Accepted []string `json:"accepted"`
	// AddToConversations also starts a conversation with each new friend.
	AddToConversations bool `json:"addToConversations,omitempty"`
}

// AddFriendsResponse reports the outcome per UID named in Accepted.
type AddFriendsResponse struct {
	// Accepted maps each named UID to whether it became a friend.
	Accepted map[string]Result `json:"accepted"`
}

// Validate checks r as [FriendsService.Add] does before sending: 1 to 25
// users; a nil r names none. It returns an [*ArgumentError] naming the
// field at fault, or nil.
func (r *AddFriendsRequest) Validate() error {
	if r == nil || len(r.Accepted) == 0 {
		return newArgError("req.Accepted", "must not be empty")
	}
	if len(r.Accepted) > maxFriendsPerCall {
		return newArgError("req.Accepted", "must name at most "+strconv.Itoa(maxFriendsPerCall)+" users")
	}
	return nil
}

// Add makes the users in req.Accepted friends of the user uid (friendship
// goes both ways) and reports the outcome per user. At most 25 users per
// call, which Add checks before sending; a user may have 1000 friends.
//
// API: POST /v3/users/{uid}/friends (onBehalfOf not supported)
func (s *FriendsService) Add(ctx context.Context, uid string, req *AddFriendsRequest, opts ...RequestOption) (*AddFriendsResponse, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[AddFriendsResponse](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"users", uid, "friends"}, Body: req}, opts)
}

// ListFriendsOptions filters a list of friends.
type ListFriendsOptions struct {
	PageOptions
	// SearchKey matches the friends' uid or name.
	SearchKey string `url:"searchKey,omitempty"`
}

// List returns one page of the friends of the user uid. Use
// [FriendsService.All] to walk every page.
//
// API: GET /v3/users/{uid}/friends (onBehalfOf not supported)
func (s *FriendsService) List(ctx context.Context, uid string, opts *ListFriendsOptions, reqOpts ...RequestOption) (*Page[User], error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return list[User](ctx, s.c, &Request{Path: []string{"users", uid, "friends"}, Query: opts}, reqOpts)
}

// All iterates over every friend of the user uid matching opts, page after
// page, starting at opts.Page (default 1). It stops at the first error,
// which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/users/{uid}/friends (onBehalfOf not supported)
func (s *FriendsService) All(ctx context.Context, uid string, opts *ListFriendsOptions, reqOpts ...RequestOption) iter.Seq2[*User, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListFriendsOptions) (*Page[User], error) {
		return s.List(ctx, uid, o, reqOpts...)
	})
}

// RemoveFriendsRequest is the body of [FriendsService.Remove].
type RemoveFriendsRequest struct {
	// Friends are the UIDs to unfriend.
	Friends []string `json:"friends"`
}

// Validate checks r as [FriendsService.Remove] does before sending: at
// least one user; a nil r names none. It returns an [*ArgumentError]
// naming the field at fault, or nil.
func (r *RemoveFriendsRequest) Validate() error {
	if r == nil || len(r.Friends) == 0 {
		return newArgError("req.Friends", "must not be empty")
	}
	return nil
}

// Remove ends the friendship of the user uid with the users in
// req.Friends.
//
// API: DELETE /v3/users/{uid}/friends (onBehalfOf not supported)
func (s *FriendsService) Remove(ctx context.Context, uid string, req *RemoveFriendsRequest, opts ...RequestOption) (*Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users", uid, "friends"}, Body: req}, opts)
}
