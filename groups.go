package chat

import (
	"context"
	"iter"
	"net/http"
)

// GroupsService manages groups. Get it from [Client.Groups].
type GroupsService struct{ c *caller }

// GroupType is a group's access type.
type GroupType string

// Group types.
const (
	GroupPublic   GroupType = "public"   // anyone may join
	GroupPassword GroupType = "password" // joining needs the password
	GroupPrivate  GroupType = "private"  // members are added by admins
)

// MemberScope is a member's scope in a group: one of the three below.
type MemberScope string

// Member scopes.
const (
	MemberAdmin       MemberScope = "admin"
	MemberModerator   MemberScope = "moderator"
	MemberParticipant MemberScope = "participant"
)

// Group is a group of users. Scope, HasJoined and JoinedAt are relative to
// the acting user (onBehalfOf).
type Group struct {
	// GUID is the group's id: up to 100 characters of a-z, 0-9, - and _,
	// lower-cased by the service.
	GUID string `json:"guid"`
	// Name is the display name.
	Name string `json:"name,omitempty"`
	// Description is the group's description (at most 255 characters).
	Description string `json:"description,omitempty"`
	// Icon is a URL of the group's picture.
	Icon string `json:"icon,omitempty"`
	// Type is public, password or private.
	Type GroupType `json:"type,omitempty"`
	// Scope is the acting user's scope, when they are a member.
	Scope MemberScope `json:"scope,omitempty"`
	// MembersCount is the number of members.
	MembersCount int `json:"membersCount,omitempty"`
	// JoinedAt is when the acting user joined.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// HasJoined reports whether the acting user is a member.
	HasJoined bool `json:"hasJoined,omitempty"`
	// ConversationID is "group_{guid}".
	ConversationID string `json:"conversationId,omitempty"`
	// Owner is the owner's UID.
	Owner string `json:"owner,omitempty"`
	// Tags are the group's tags (in lists only with WithTags).
	Tags []string `json:"tags,omitempty"`
	// Metadata is free-form JSON about the group; empty when the answer
	// does not carry it.
	Metadata map[string]any `json:"metadata,omitempty"`
	// CreatedAt is when the group was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the group last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// UpdatedBy is the UID of who last changed the group.
	UpdatedBy string `json:"updatedBy,omitempty"`
}

// CreateGroupRequest is the body of [GroupsService.Create].
//
// Printing a CreateGroupRequest shows the password as REDACTED; JSON
// encoding keeps it.
type CreateGroupRequest struct {
	// GUID is required: up to 100 characters of a-z, 0-9, - and _; the
	// service lower-cases it.
	GUID string `json:"guid"`
	// Name is required: up to 100 characters.
	Name string `json:"name"`
	// Type is the group's type; it is left out when empty, and the
	// service then makes the group public.
	Type GroupType `json:"type,omitempty"`
	// Password is required for GroupPassword groups (at most 100
	// characters); answers never show it.
	Password Secret `json:"password,omitempty"`
	// Icon is a URL of the group's picture (at most 3000 characters).
	Icon string `json:"icon,omitempty"`
	// Description is at most 255 characters.
	Description string         `json:"description,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	// Owner is the owner's UID; empty leaves the service's default, a
	// system user.
	Owner string `json:"owner,omitempty"`
	// Tags are at most 25, of at most 100 characters each.
	Tags []string `json:"tags,omitempty"`
	// Members adds users with the group, as [MembersService.Add] does: at
	// most 25 users in all. A user that cannot be added does not fail the
	// call, and the returned Group does not show them.
	Members *AddMembersRequest `json:"members,omitempty"`
}

// Create creates a group and returns it. With the [OnBehalfOf] option the
// group is created as that user, and Scope, HasJoined and JoinedAt are
// relative to them. The request is checked against the service's limits
// ([MaxIDLength] and the id's characters, [MaxNameLength],
// [MaxGroupPasswordLength], [MaxURLLength], [MaxDescriptionLength],
// [MaxMetadataBytes], [MaxTags] and [MaxTagLength]) before anything is
// sent.
//
// API: POST /v3/groups (onBehalfOf optional)
func (s *GroupsService) Create(ctx context.Context, req *CreateGroupRequest, opts ...RequestOption) (*Group, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Group](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"groups"}, Body: req}, opts)
}

// Get returns the group guid. With the [OnBehalfOf] option, Scope,
// HasJoined and JoinedAt are relative to that user.
//
// API: GET /v3/groups/{guid} (onBehalfOf optional)
func (s *GroupsService) Get(ctx context.Context, guid string, opts ...RequestOption) (*Group, error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	return do[Group](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"groups", guid}}, opts)
}

// GroupSortBy is the field a list of groups is sorted by.
type GroupSortBy string

// Group sort fields.
const (
	GroupSortByName      GroupSortBy = "name"
	GroupSortByGUID      GroupSortBy = "guid"
	GroupSortByCreatedAt GroupSortBy = "createdAt"
)

// SortOrder is the direction of a sort.
type SortOrder string

// Sort directions.
const (
	SortAscending  SortOrder = "asc"
	SortDescending SortOrder = "desc"
)

// ListGroupsOptions filters a list of groups. Zero fields are not sent.
type ListGroupsOptions struct {
	PageOptions
	// SearchKey matches group names and GUIDs.
	SearchKey string `url:"searchKey,omitempty"`
	// SearchIn limits SearchKey to "name" and/or "guid" (sent
	// comma-separated).
	SearchIn []string `url:"searchIn,comma,omitempty"`
	// SortBy is the field to sort by.
	SortBy GroupSortBy `url:"sortBy,omitempty"`
	// SortOrder is the direction of SortBy.
	SortOrder SortOrder `url:"sortOrder,omitempty"`
	// Direction and UpdatedAt are a cursor on the groups' updatedAt: groups
	// updated after (AffixAppend) or before (AffixPrepend) UpdatedAt. The
	// answer's Meta.Cursor gives the next position.
	Direction Direction `url:"affix,omitempty"`
	UpdatedAt Timestamp `url:"updatedAt,omitempty"`
	// WithTags includes each group's tags.
	WithTags bool `url:"withTags,omitempty"`
	// Tags keeps groups having any of these tags.
	Tags []string `url:"tags,comma,omitempty"`
	// Type keeps groups of one type. Password groups are asked for as
	// [GroupPassword], the name create and update use.
	Type GroupType `url:"type,omitempty"`
	// Types keeps groups of any of these types.
	Types []GroupType `url:"types,comma,omitempty"`
	// HasJoined keeps the groups the acting user has joined. It works only
	// with the [OnBehalfOf] option; List refuses it without.
	HasJoined bool `url:"hasJoined,omitempty"`
	// GUID keeps the one group guid.
	GUID string `url:"guid,omitempty"`
	// GUIDs keeps the groups with these GUIDs.
	GUIDs []string `url:"guids,comma,omitempty"`
	// CreatedFrom and CreatedTo bound createdAt (Unix seconds).
	CreatedFrom Timestamp `url:"createdAt[from],omitempty"`
	CreatedTo   Timestamp `url:"createdAt[to],omitempty"`
	// UpdatedFrom and UpdatedTo bound updatedAt (Unix seconds); with
	// either, only groups updated since their creation match.
	UpdatedFrom Timestamp `url:"updatedAt[from],omitempty"`
	UpdatedTo   Timestamp `url:"updatedAt[to],omitempty"`
	// MembersCountGTE, MembersCountLTE and MembersCountEQ bound the number
	// of members. Being pointers, they can ask for 0 (e.g. empty groups).
	MembersCountGTE *int `url:"membersCount[gte],omitempty"`
	MembersCountLTE *int `url:"membersCount[lte],omitempty"`
	MembersCountEQ  *int `url:"membersCount[eq],omitempty"`
}

// List returns one page of groups. With the [OnBehalfOf] option, Scope,
// HasJoined and JoinedAt are relative to that user, and opts.HasJoined may
// be set. Use [GroupsService.All] to walk every page.
//
// API: GET /v3/groups (onBehalfOf optional)
func (s *GroupsService) List(ctx context.Context, opts *ListGroupsOptions, reqOpts ...RequestOption) (*Page[Group], error) {
	if opts != nil && opts.HasJoined && actingUser(reqOpts) == "" {
		return nil, newArgError("opts.HasJoined", "needs the OnBehalfOf request option")
	}
	return list[Group](ctx, s.c, &Request{Path: []string{"groups"}, Query: opts}, reqOpts)
}

// All iterates over every group matching opts, page after page, starting
// at opts.Page (default 1). It stops at the first error, which it yields,
// and when ctx is done.
//
// Groups come in the order opts.SortBy and opts.SortOrder name, or else in
// the service's default order, page by page.
//
// API: GET /v3/groups (onBehalfOf optional)
func (s *GroupsService) All(ctx context.Context, opts *ListGroupsOptions, reqOpts ...RequestOption) iter.Seq2[*Group, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListGroupsOptions) (*Page[Group], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// UpdateGroupRequest is the body of [GroupsService.Update]. Empty fields
// are left unchanged; list fields in Unset to clear them.
//
// Printing an UpdateGroupRequest shows the password as REDACTED; JSON
// encoding keeps it.
type UpdateGroupRequest struct {
	Name string    `json:"name,omitempty"`
	Type GroupType `json:"type,omitempty"`
	// Password is the new password of a GroupPassword group.
	Password    Secret         `json:"password,omitempty"`
	Icon        string         `json:"icon,omitempty"`
	Description string         `json:"description,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	// Owner transfers the ownership; the API ignores it when the
	// [OnBehalfOf] option is given.
	Owner string   `json:"owner,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	// Unset clears fields: "icon", "description" and/or "metadata".
	Unset []string `json:"unset,omitempty"`
}

// Update changes the group guid and returns it. With the [OnBehalfOf]
// option it acts as that user (with their scope's permissions) and
// req.Owner is ignored. The fields set are checked against the service's
// limits as for [GroupsService.Create].
//
// API: PUT /v3/groups/{guid} (onBehalfOf optional)
func (s *GroupsService) Update(ctx context.Context, guid string, req *UpdateGroupRequest, opts ...RequestOption) (*Group, error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Group](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"groups", guid}, Body: req}, opts)
}

// Delete deletes the group guid. With the [OnBehalfOf] option it acts as
// that user.
//
// API: DELETE /v3/groups/{guid} (onBehalfOf optional)
func (s *GroupsService) Delete(ctx context.Context, guid string, opts ...RequestOption) (*Result, error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"groups", guid}}, opts)
}
