package chat

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// UsersService manages the app's users. Get it from [Client.Users].
type UsersService struct{ c *caller }

// UserStatus is a user's presence.
type UserStatus string

// User presence values.
const (
	UserAvailable UserStatus = "available"
	UserOffline   UserStatus = "offline"
)

// User is a user of the app.
//
// Printing a User shows AuthToken as REDACTED; JSON encoding keeps it.
type User struct {
	// UID is the user's id: up to 100 characters of a-z, 0-9, - and _,
	// lower-cased by the service.
	UID string `json:"uid"`
	// Name is the display name.
	Name string `json:"name,omitempty"`
	// Avatar is a URL of the user's picture.
	Avatar string `json:"avatar,omitempty"`
	// Link is a URL of the user's profile.
	Link string `json:"link,omitempty"`
	// Metadata is free-form JSON about the user.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Status is the user's presence.
	Status UserStatus `json:"status,omitempty"`
	// StatusMessage is the user's status text.
	StatusMessage string `json:"statusMessage,omitempty"`
	// Role is the user's role; "default" unless set.
	Role string `json:"role,omitempty"`
	// Tags are the user's tags (returned on create and update, and in lists
	// with WithTags).
	Tags []string `json:"tags,omitempty"`
	// CreatedAt is when the user was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the user last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// LastActiveAt is when the user was last active.
	LastActiveAt Timestamp `json:"lastActiveAt,omitempty"`
	// ConversationID is the one-on-one conversation with this user, in
	// lists.
	ConversationID string `json:"conversationId,omitempty"`
	// BlockedByMe reports whether the acting user blocked this user.
	BlockedByMe bool `json:"blockedByMe,omitempty"`
	// BlockedByMeAt is when the acting user blocked this user.
	BlockedByMeAt Timestamp `json:"blockedByMeAt,omitempty"`
	// BlockedAt is when this user was blocked.
	BlockedAt Timestamp `json:"blockedAt,omitempty"`
	// HasBlockedMe reports whether this user blocked the acting user.
	HasBlockedMe bool `json:"hasBlockedMe,omitempty"`
	// DeactivatedAt is when the user was deactivated; zero for an active
	// user.
	DeactivatedAt Timestamp `json:"deactivatedAt,omitempty"`
	// AuthToken is set only in the answer to a create with WithAuthToken.
	AuthToken Secret `json:"authToken,omitempty"`
}

// Format prints the user as fmt would, its Secret fields as REDACTED. (A type
// that holds a Secret and is held by pointer needs it: fmt prints a pointer
// field with %s, %q, %x or %d through a path that calls no method of the
// values under it.)
func (u User) Format(f fmt.State, verb rune) {
	type plain User
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(u))
}

// CreateUserRequest is the body of [UsersService.Create].
type CreateUserRequest struct {
	// UID is required: up to 100 characters of a-z, 0-9, - and _; the
	// service lower-cases it.
	UID string `json:"uid"`
	// Name is required: up to 100 characters.
	Name string `json:"name"`
	// Avatar is a URL of the user's picture (at most 3,000 characters).
	Avatar string `json:"avatar,omitempty"`
	// Link is a URL of the user's profile (at most 3,000 characters).
	Link string `json:"link,omitempty"`
	// Role is an existing role; "default" when empty.
	Role string `json:"role,omitempty"`
	// StatusMessage is the user's status text.
	StatusMessage string `json:"statusMessage,omitempty"`
	// Metadata is free-form JSON; "@private" may hold email and contactNumber for notifications.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tags are up to 25 tags of up to 100 characters.
	Tags []string `json:"tags,omitempty"`
	// WithAuthToken asks for an auth token in the answer (User.AuthToken).
	WithAuthToken bool `json:"withAuthToken,omitempty"`
}

// Create creates a user and returns it. The request is checked against
// the service's limits ([MaxIDLength] and the id's characters,
// [MaxNameLength], [MaxURLLength], [MaxMetadataBytes], [MaxTags] and
// [MaxTagLength]) before anything is sent.
//
// API: POST /v3/users (onBehalfOf not supported)
func (s *UsersService) Create(ctx context.Context, req *CreateUserRequest, opts ...RequestOption) (*User, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[User](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"users"}, Body: req}, opts)
}

// Get returns the user uid. With the [OnBehalfOf] option, fields such as
// ConversationID and BlockedByMe are relative to that user.
//
// API: GET /v3/users/{uid} (onBehalfOf optional)
func (s *UsersService) Get(ctx context.Context, uid string, opts ...RequestOption) (*User, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return do[User](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"users", uid}}, opts)
}

// ListUsersOptions filters a list of users. Zero fields are not sent.
type ListUsersOptions struct {
	PageOptions
	// SearchKey matches the start of UIDs and names.
	SearchKey string `url:"searchKey,omitempty"`
	// SearchIn limits SearchKey to "name" and/or "uid".
	SearchIn []string `url:"searchIn,comma,omitempty"`
	// Status filters by presence ("available", "offline"; comma-separated
	// for several).
	Status string `url:"status,omitempty"`
	// Count asks the service to count the users.
	Count bool `url:"count,omitempty"`
	// Role filters by one role.
	Role string `url:"role,omitempty"`
	// Roles filters by several roles.
	Roles []string `url:"roles,comma,omitempty"`
	// WithTags includes each user's tags.
	WithTags bool `url:"withTags,omitempty"`
	// Tags keeps users having these tags.
	Tags []string `url:"tags,comma,omitempty"`
	// OnlyDeactivated lists deactivated users only.
	OnlyDeactivated bool `url:"onlyDeactivated,omitempty"`
	// WithDeactivated includes deactivated users.
	WithDeactivated bool `url:"withDeactivated,omitempty"`
	// CreatedFrom and CreatedTo bound createdAt (inclusive, Unix seconds).
	CreatedFrom Timestamp `url:"createdAt[from],omitempty"`
	CreatedTo   Timestamp `url:"createdAt[to],omitempty"`
	// UpdatedFrom and UpdatedTo bound updatedAt (inclusive, Unix seconds).
	UpdatedFrom Timestamp `url:"updatedAt[from],omitempty"`
	UpdatedTo   Timestamp `url:"updatedAt[to],omitempty"`
}

// List returns one page of users. Use [UsersService.All] to walk every page.
//
// API: GET /v3/users (onBehalfOf not supported)
func (s *UsersService) List(ctx context.Context, opts *ListUsersOptions, reqOpts ...RequestOption) (*Page[User], error) {
	return list[User](ctx, s.c, &Request{Path: []string{"users"}, Query: opts}, reqOpts)
}

// All iterates over every user matching opts, page after page, starting at
// opts.Page (default 1). It stops at the first error, which it yields, and
// when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/users (onBehalfOf not supported)
func (s *UsersService) All(ctx context.Context, opts *ListUsersOptions, reqOpts ...RequestOption) iter.Seq2[*User, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListUsersOptions) (*Page[User], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// Upsert creates the user req.UID, or updates it when it exists already,
// and returns the user: the first step of a signup, safe to repeat. It
// makes at most two calls:
//
//  1. POST /v3/users, as [UsersService.Create];
//  2. only when that answers that the user exists ([ErrConflict]),
//     PUT /v3/users/{uid}, as [UsersService.Update], with req's name,
//     avatar, link, role, status message, metadata and tags.
//
// An existing user gets no auth token from req.WithAuthToken: mint one
// with [AuthTokensService.Create]. When two Upserts of one UID race, both
// succeed and the user ends with the fields of the call that lands last;
// when the user is deleted between the two calls, the update fails with
// [ErrNotFound].
//
// API: POST /v3/users (onBehalfOf not supported)
// API: PUT /v3/users/{uid} (onBehalfOf not supported)
func (s *UsersService) Upsert(ctx context.Context, req *CreateUserRequest, opts ...RequestOption) (*User, error) {
	u, err := s.Create(ctx, req, opts...)
	if !errors.Is(err, ErrConflict) {
		return u, err
	}
	return s.Update(ctx, req.UID, &UpdateUserRequest{Name: req.Name, Avatar: req.Avatar, Link: req.Link, Role: req.Role,
		StatusMessage: req.StatusMessage, Metadata: req.Metadata, Tags: req.Tags}, opts...)
}

// UpdateUserRequest is the body of [UsersService.Update]. Empty fields are
// left unchanged; list fields in Unset to clear them.
type UpdateUserRequest struct {
	// Name replaces the display name.
	Name string `json:"name,omitempty"`
	// Avatar replaces the picture URL.
	Avatar string `json:"avatar,omitempty"`
	// Link replaces the profile URL.
	Link string `json:"link,omitempty"`
	// Role moves the user to another existing role.
	Role string `json:"role,omitempty"`
	// StatusMessage replaces the status text.
	StatusMessage string `json:"statusMessage,omitempty"`
	// Metadata replaces the user's metadata.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tags replaces the user's tags; nil or empty is not sent.
	Tags []string `json:"tags,omitempty"`
	// Unset clears fields: "avatar", "link" and/or "metadata".
	Unset []string `json:"unset,omitempty"`
}

// Update changes the user uid and returns it. The fields set are checked
// against the service's limits as for [UsersService.Create].
//
// API: PUT /v3/users/{uid} (onBehalfOf not supported)
func (s *UsersService) Update(ctx context.Context, uid string, req *UpdateUserRequest, opts ...RequestOption) (*User, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[User](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"users", uid}, Body: req}, opts)
}

// DeleteUserRequest is the body of [UsersService.Delete].
type DeleteUserRequest struct {
	// Permanent deletes the user with their messages and conversations;
	// the uid can then be reused. Without it the user is deactivated (see
	// [UsersService.Deactivate]).
	Permanent bool `json:"permanent"`
}

// DeleteUserResponse is the answer of [UsersService.Delete]. Success
// reports whether the user was deleted: a permanent delete answers Success
// and Message; a soft delete answers as [UsersService.Deactivate] does, and
// Success is then true when the user is among DeactivatedUIDs or
// AlreadyDeactivatedUIDs.
type DeleteUserResponse struct {
	// Result holds Success and the service's Message.
	Result
	// DeactivateUsersResponse holds the lists a soft delete answers
	// with: the user is in DeactivatedUIDs when the delete deactivated
	// them.
	DeactivateUsersResponse
}

// UnmarshalJSON reads either answer of a delete, and sets Success when a
// soft delete deactivated the user.
func (r *DeleteUserResponse) UnmarshalJSON(b []byte) error {
	type plain DeleteUserResponse
	var v plain
	if err := rest.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = DeleteUserResponse(v)
	if len(r.DeactivatedUIDs) > 0 || len(r.AlreadyDeactivatedUIDs) > 0 {
		r.Success = true
	}
	return nil
}

// Delete deletes the user uid. A nil req, or one without Permanent, is a
// soft delete: the user is deactivated, keeps their messages and can be
// reactivated ([UsersService.Reactivate]); the uid stays taken. The answer's
// Success says whether the user was deleted or deactivated.
//
// API: DELETE /v3/users/{uid} (onBehalfOf not supported)
func (s *UsersService) Delete(ctx context.Context, uid string, req *DeleteUserRequest, opts ...RequestOption) (*DeleteUserResponse, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return do[DeleteUserResponse](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users", uid}, Body: req}, opts)
}

// DeactivateUsersRequest is the body of [UsersService.Deactivate].
type DeactivateUsersRequest struct {
	// UIDs are the users to deactivate.
	UIDs []string `json:"uidsToDeactivate"`
}

// DeactivateUsersResponse is the answer of [UsersService.Deactivate]: what
// became of each uid sent.
type DeactivateUsersResponse struct {
	// DeactivatedUIDs are the users this call deactivated.
	DeactivatedUIDs []string `json:"deactivatedUids,omitempty"`
	// AlreadyDeactivatedUIDs are the users that were deactivated already.
	AlreadyDeactivatedUIDs []string `json:"alreadyDeactivatedUids,omitempty"`
	// NotFound are the uids that name no user, as they were sent.
	NotFound []string `json:"notFound,omitempty"`
}

// Validate checks r as [UsersService.Deactivate] does before sending: at
// least one user; a nil r names none. It returns an [*ArgumentError]
// naming the field at fault, or nil.
func (r *DeactivateUsersRequest) Validate() error {
	if r == nil || len(r.UIDs) == 0 {
		return newArgError("req.UIDs", "must not be empty")
	}
	return nil
}

// Deactivate deactivates users: they can no longer log in or be listed
// (unless with WithDeactivated), and can be reactivated. The answer says,
// uid by uid, whether the user was deactivated, was deactivated already, or
// does not exist.
//
// API: DELETE /v3/users (onBehalfOf not supported)
func (s *UsersService) Deactivate(ctx context.Context, req *DeactivateUsersRequest, opts ...RequestOption) (*DeactivateUsersResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[DeactivateUsersResponse](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users"}, Body: req}, opts)
}

// ReactivateUsersRequest is the body of [UsersService.Reactivate].
type ReactivateUsersRequest struct {
	// UIDs are the users to reactivate.
	UIDs []string `json:"uidsToActivate"`
}

// ReactivateUsersResponse is the answer of [UsersService.Reactivate]: what
// became of each uid sent.
type ReactivateUsersResponse struct {
	// ReactivatedUIDs are the users this call reactivated.
	ReactivatedUIDs []string `json:"reactivatedUids,omitempty"`
	// NotFound are the uids that name no user, as they were sent.
	NotFound []string `json:"notFound,omitempty"`
	// NonDeactivatedUIDs are the users that were not deactivated, and so
	// were left as they were.
	NonDeactivatedUIDs []string `json:"nonDeactivatedUids,omitempty"`
}

// Validate checks r as [UsersService.Reactivate] does before sending: at
// least one user; a nil r names none. It returns an [*ArgumentError]
// naming the field at fault, or nil.
func (r *ReactivateUsersRequest) Validate() error {
	if r == nil || len(r.UIDs) == 0 {
		return newArgError("req.UIDs", "must not be empty")
	}
	return nil
}

// Reactivate reactivates deactivated users. The answer says, uid by uid,
// whether the user was reactivated, was not deactivated, or does not exist.
//
// API: PUT /v3/users (onBehalfOf not supported)
func (s *UsersService) Reactivate(ctx context.Context, req *ReactivateUsersRequest, opts ...RequestOption) (*ReactivateUsersResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ReactivateUsersResponse](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"users"}, Body: req}, opts)
}
