package chat

import (
	"context"
	"iter"
	"net/http"
	"strconv"
	"strings"
)

// MembersService adds, lists, re-scopes and kicks the members of groups. Get it from [Client.Members].
type MembersService struct{ c *caller }

// MaxMembersPerCall is the most users one [MembersService.Add] call (or the
// Members of a [CreateGroupRequest]) may name, across its four lists.
const MaxMembersPerCall = 25

// GroupMember is a member of a group: the user's fields plus the member's
// scope and when they joined.
type GroupMember struct {
	// UID is the user's id.
	UID string `json:"uid"`
	// Name is the user's display name.
	Name string `json:"name,omitempty"`
	// Avatar is a URL of the user's picture.
	Avatar string `json:"avatar,omitempty"`
	// Link is a URL of the user's profile.
	Link string `json:"link,omitempty"`
	// Metadata is free-form JSON about the user.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Status is the user's presence.
	Status UserStatus `json:"status,omitempty"`
	// Role is the user's role.
	Role string `json:"role,omitempty"`
	// Scope is the member's scope in the group.
	Scope MemberScope `json:"scope,omitempty"`
	// JoinedAt is when the user joined the group.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// CreatedAt is when the user was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when the user last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// LastActiveAt is when the user was last active, when the API says.
	LastActiveAt Timestamp `json:"lastActiveAt,omitempty"`
	// ConversationID is a one-on-one conversation id with this user, as in
	// user lists.
	ConversationID string `json:"conversationId,omitempty"`
}

// AddMembersRequest names the users to add to a group, by scope, and the
// users to ban from it. At most [MaxMembersPerCall] users in all; a UID in
// several lists takes the highest scope (admin, then moderator, then
// participant). Empty lists are left out, as the API rejects them.
type AddMembersRequest struct {
	Admins       []string `json:"admins,omitempty"`
	Moderators   []string `json:"moderators,omitempty"`
	Participants []string `json:"participants,omitempty"`
	UsersToBan   []string `json:"usersToBan,omitempty"`
}

// check refuses an empty request, or one naming more than
// MaxMembersPerCall distinct users; field names the list at fault, after
// prefix.
func (r *AddMembersRequest) check(prefix string) error {
	seen := map[string]bool{}
	lists := []struct {
		name string
		uids []string
	}{{"Admins", r.Admins}, {"Moderators", r.Moderators}, {"Participants", r.Participants}, {"UsersToBan", r.UsersToBan}}
	for _, l := range lists {
		for i, uid := range l.uids {
			if uid == "" {
				return newArgError(prefix+l.name+"["+strconv.Itoa(i)+"]", "must not be empty")
			}
			seen[strings.ToLower(uid)] = true
			if len(seen) > MaxMembersPerCall {
				return newArgError(prefix+l.name, "brings the users named to more than "+strconv.Itoa(MaxMembersPerCall)+" (the most per call)")
			}
		}
	}
	if len(seen) == 0 {
		return newArgError(strings.TrimSuffix(prefix, "."), "must name at least one user")
	}
	return nil
}

// AddMembersResponse reports, per list of the request and per UID, whether
// the user was added (or banned).
type AddMembersResponse struct {
	Admins       map[string]MemberResult `json:"admins,omitempty"`
	Moderators   map[string]MemberResult `json:"moderators,omitempty"`
	Participants map[string]MemberResult `json:"participants,omitempty"`
	UsersToBan   map[string]MemberResult `json:"usersToBan,omitempty"`
}

// MemberResult is the outcome for one user of [MembersService.Add].
type MemberResult struct {
	// Success reports whether the user was added (or banned).
	Success bool `json:"success"`
	// Data is the action message the service emitted for an added user
	// (category "action", type "groupMember", action "added"). Banned
	// users get none.
	Data *Message `json:"data,omitempty"`
	// Message is the service's text, when it sends one.
	Message string `json:"message,omitempty"`
	// Error says why the user was not added, read as the API's usual
	// {"code", "message"} object.
	Error *MemberError `json:"error,omitempty"`
}

// Reason returns the service's text for r: the message of its error, else
// its message.
func (r MemberResult) Reason() string {
	if r.Error != nil && r.Error.Message != "" {
		return r.Error.Message
	}
	return r.Message
}

// MemberError is why one user of [MembersService.Add] failed, e.g.
// ERR_ALREADY_JOINED or ERR_BANNED_GROUPMEMBER.
type MemberError struct {
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// Add adds users to the group guid with the scope of the list naming them,
// and bans the users of req.UsersToBan. A user that cannot be added does not
// fail the call: see the answer's [MemberResult] for each. Add refuses,
// before sending, a request naming no user or more than
// [MaxMembersPerCall]. With the [OnBehalfOf] option it acts as that user
// (an admin or moderator of the group).
//
// API: POST /v3/groups/{guid}/members (onBehalfOf optional)
func (s *MembersService) Add(ctx context.Context, guid string, req *AddMembersRequest, opts ...RequestOption) (*AddMembersResponse, error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[AddMembersResponse](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"groups", guid, "members"}, Body: req}, opts)
}

// ListMembersOptions filters a list of group members. Zero fields are not
// sent.
type ListMembersOptions struct {
	PageOptions
	// Status keeps members with this presence.
	Status UserStatus `url:"status,omitempty"`
	// Scopes keeps members with any of these scopes.
	Scopes []MemberScope `url:"scopes,comma,omitempty"`
}

// List returns one page of the members of the group guid. Use
// [MembersService.All] to walk every page.
//
// API: GET /v3/groups/{guid}/members (onBehalfOf not supported)
func (s *MembersService) List(ctx context.Context, guid string, opts *ListMembersOptions, reqOpts ...RequestOption) (*Page[GroupMember], error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	return list[GroupMember](ctx, s.c, &Request{Path: []string{"groups", guid, "members"}, Query: opts}, reqOpts)
}

// All iterates over every member of the group guid matching opts, page
// after page, starting at opts.Page (default 1). It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/groups/{guid}/members (onBehalfOf not supported)
func (s *MembersService) All(ctx context.Context, guid string, opts *ListMembersOptions, reqOpts ...RequestOption) iter.Seq2[*GroupMember, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListMembersOptions) (*Page[GroupMember], error) {
		return s.List(ctx, guid, o, reqOpts...)
	})
}

// ChangeScopeRequest is the body of [MembersService.ChangeScope].
type ChangeScopeRequest struct {
	// Scope is the new scope; required here, although the API would take
	// a missing scope as participant.
	Scope MemberScope `json:"scope"`
}

// ScopeChange is the answer of [MembersService.ChangeScope]: the member's
// new scope.
type ScopeChange struct {
	GUID     string      `json:"guid"`
	UID      string      `json:"uid"`
	Scope    MemberScope `json:"scope"`
	JoinedAt Timestamp   `json:"joinedAt,omitempty"`
}

// Validate checks r as [MembersService.ChangeScope] does before sending:
// Scope set. It returns an [*ArgumentError] naming the field at fault, or
// nil.
func (r *ChangeScopeRequest) Validate() error { return required("req.Scope", string(r.Scope)) }

// ChangeScope changes the scope of the member uid of the group guid. With
// the [OnBehalfOf] option it acts as that user, who needs a scope at least
// as high as both the member's and the new one.
//
// API: PUT /v3/groups/{guid}/members/{uid} (onBehalfOf optional)
func (s *MembersService) ChangeScope(ctx context.Context, guid, uid string, req *ChangeScopeRequest, opts ...RequestOption) (*ScopeChange, error) {
	if err := required("guid", guid, "uid", uid); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ScopeChange](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"groups", guid, "members", uid}, Body: req}, opts)
}

// Kick removes the member uid from the group guid; unlike a ban, the user
// may be added again. With the [OnBehalfOf] option it acts as that user,
// who must be an admin or moderator.
//
// API: DELETE /v3/groups/{guid}/members/{uid} (onBehalfOf optional)
func (s *MembersService) Kick(ctx context.Context, guid, uid string, opts ...RequestOption) (*Result, error) {
	if err := required("guid", guid, "uid", uid); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"groups", guid, "members", uid}}, opts)
}
