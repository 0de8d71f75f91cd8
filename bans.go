package chat

import (
	"context"
	"iter"
	"net/http"
)

// BansService bans users from groups, unbans them and lists the banned. Get it from [Client.Bans].
//
// Its paths are /groups/{guid}/bannedusers[/{uid}].
type BansService struct{ c *caller }

// Ban bans the user uid from the group guid: a member is removed, and the
// user cannot be added again until unbanned. With the [OnBehalfOf] option
// it acts as that user, who must be an admin or moderator.
//
// API: POST /v3/groups/{guid}/bannedusers/{uid} (onBehalfOf optional)
func (s *BansService) Ban(ctx context.Context, guid, uid string, opts ...RequestOption) (*Result, error) {
	if err := required("guid", guid, "uid", uid); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"groups", guid, "bannedusers", uid}}, opts)
}

// Unban lifts the ban of the user uid from the group guid; the user is not
// added back. With the [OnBehalfOf] option it acts as that user, who must
// be an admin or moderator.
//
// API: DELETE /v3/groups/{guid}/bannedusers/{uid} (onBehalfOf optional)
func (s *BansService) Unban(ctx context.Context, guid, uid string, opts ...RequestOption) (*Result, error) {
	if err := required("guid", guid, "uid", uid); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"groups", guid, "bannedusers", uid}}, opts)
}

// ListBannedOptions selects a page of the banned users of a group.
type ListBannedOptions struct {
	PageOptions
}

// List returns one page of the users banned from the group guid, as plain
// users. Use [BansService.All] to walk every page.
//
// API: GET /v3/groups/{guid}/bannedusers (onBehalfOf not supported)
func (s *BansService) List(ctx context.Context, guid string, opts *ListBannedOptions, reqOpts ...RequestOption) (*Page[User], error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	return list[User](ctx, s.c, &Request{Path: []string{"groups", guid, "bannedusers"}, Query: opts}, reqOpts)
}

// All iterates over every user banned from the group guid, page after page,
// starting at opts.Page (default 1). It stops at the first error, which it
// yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/groups/{guid}/bannedusers (onBehalfOf not supported)
func (s *BansService) All(ctx context.Context, guid string, opts *ListBannedOptions, reqOpts ...RequestOption) iter.Seq2[*User, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListBannedOptions) (*Page[User], error) {
		return s.List(ctx, guid, o, reqOpts...)
	})
}
