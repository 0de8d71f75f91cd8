package chat

import (
	"context"
	"iter"
	"net/http"
)

// RolesService manages roles and their (deprecated) restricted features.
// Get it from [Client.Roles]. A user has one role ([User.Role]); users
// without one have the role "default", which cannot be deleted.
type RolesService struct{ c *caller }

// DefaultRole is the role of users created without one. It always exists.
const DefaultRole = "default"

// Audience says whom a role's users may list or message.
type Audience string

// Audiences of [RoleSettings].
const (
	AudienceAll         Audience = "all"
	AudienceFriendsOnly Audience = "friendsOnly"
)

// RoleSettings are a role's settings.
type RoleSettings struct {
	// ListUsers says which users the role's users may list.
	ListUsers Audience `json:"listUsers,omitempty"`
	// SendMessagesTo says whom the role's users may message.
	SendMessagesTo Audience `json:"sendMessagesTo,omitempty"`
}

// Role is a role users can be given.
type Role struct {
	// Role is the role's id: up to 100 characters of a-z, 0-9, - and _,
	// lower-cased by the service.
	Role string `json:"role"`
	// Name is the display name.
	Name string `json:"name,omitempty"`
	// Description is up to 255 characters.
	Description string `json:"description,omitempty"`
	// Metadata is free-form JSON.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Settings are the role's settings, when set.
	Settings *RoleSettings `json:"settings,omitempty"`
	// CreatedAt is when the role was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when it last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
}

// CreateRoleRequest is the body of [RolesService.Create].
type CreateRoleRequest struct {
	// Role is required: the id, up to 100 characters of a-z, 0-9, - and _.
	Role string `json:"role"`
	// Name is required: up to 100 characters.
	Name string `json:"name"`
	// Description is up to 255 characters.
	Description string         `json:"description,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	Settings    *RoleSettings  `json:"settings,omitempty"`
}

// Create creates a role (at most 25 per app) and returns it. The id, name
// and description are checked against the service's limits
// ([MaxIDLength] and the id's characters, [MaxNameLength],
// [MaxDescriptionLength]) before anything is sent.
//
// API: POST /v3/roles (onBehalfOf not supported)
func (s *RolesService) Create(ctx context.Context, req *CreateRoleRequest, opts ...RequestOption) (*Role, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Role](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"roles"}, Body: req}, opts)
}

// ListRolesOptions selects a page of roles.
type ListRolesOptions struct {
	PageOptions
}

// List returns one page of the app's roles. Use [RolesService.All] to walk
// every page.
//
// API: GET /v3/roles (onBehalfOf not supported)
func (s *RolesService) List(ctx context.Context, opts *ListRolesOptions, reqOpts ...RequestOption) (*Page[Role], error) {
	return list[Role](ctx, s.c, &Request{Path: []string{"roles"}, Query: opts}, reqOpts)
}

// All iterates over every role, page after page, starting at opts.Page
// (default 1). It stops at the first error, which it yields, and when ctx
// is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/roles (onBehalfOf not supported)
func (s *RolesService) All(ctx context.Context, opts *ListRolesOptions, reqOpts ...RequestOption) iter.Seq2[*Role, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListRolesOptions) (*Page[Role], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// Get returns the role role.
//
// API: GET /v3/roles/{role} (onBehalfOf not supported)
func (s *RolesService) Get(ctx context.Context, role string, opts ...RequestOption) (*Role, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	return do[Role](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"roles", role}}, opts)
}

// UpdateRoleRequest is the body of [RolesService.Update]. Empty fields are
// left unchanged; list fields in Unset to clear them.
type UpdateRoleRequest struct {
	Name        string         `json:"name,omitempty"`
	Description string         `json:"description,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	Settings    *RoleSettings  `json:"settings,omitempty"`
	// Unset clears fields: "settings", "description" and/or "metadata".
	Unset []string `json:"unset,omitempty"`
}

// Update changes the role role and returns it. The name and description
// are checked as for [RolesService.Create].
//
// API: PUT /v3/roles/{role} (onBehalfOf not supported)
func (s *RolesService) Update(ctx context.Context, role string, req *UpdateRoleRequest, opts ...RequestOption) (*Role, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Role](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"roles", role}, Body: req}, opts)
}

// Delete deletes the role role. The "default" role cannot be deleted
// (ERR_ROLE_DELETE_DENIED).
//
// API: DELETE /v3/roles/{role} (onBehalfOf not supported)
func (s *RolesService) Delete(ctx context.Context, role string, opts ...RequestOption) (*Result, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"roles", role}}, opts)
}

// RestrictedFeature is a feature a role's users may not use.
type RestrictedFeature struct {
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Key names the feature, e.g. "u.listUsers".
	Key string `json:"key"`
	// Path is the API path of the feature, e.g. "/v3/users".
	Path      string    `json:"path,omitempty"`
	CreatedAt Timestamp `json:"createdAt,omitempty"`
}

// RestrictFeaturesRequest is the body of [RolesService.RestrictFeatures].
type RestrictFeaturesRequest struct {
	// FeaturesToRestrict are feature keys, e.g. "listUsers" or
	// "u.listUsers", sent as given.
	FeaturesToRestrict []string `json:"featuresToRestrict"`
}

// Validate checks r as [RolesService.RestrictFeatures] does before
// sending: at least one feature; a nil r names none. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (r *RestrictFeaturesRequest) Validate() error {
	if r == nil || len(r.FeaturesToRestrict) == 0 {
		return newArgError("req.FeaturesToRestrict", "must not be empty")
	}
	return nil
}

// RestrictFeatures forbids the users of the role role to use the features
// in req, and reports the outcome per feature key.
//
// API: POST /v3/roles/{role}/restrictedfeatures (onBehalfOf not supported)
//
// Deprecated: use client.Permissions ([PermissionsService.SetRole]) instead.
func (s *RolesService) RestrictFeatures(ctx context.Context, role string, req *RestrictFeaturesRequest, opts ...RequestOption) (map[string]Result, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return resultMap(do[map[string]Result](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"roles", role, "restrictedfeatures"}, Body: req}, opts))
}

// ListRestrictedFeatures returns the features the users of the role role
// may not use.
//
// API: GET /v3/roles/{role}/restrictedfeatures (onBehalfOf not supported)
//
// Deprecated: use client.Permissions ([PermissionsService.ListRole]) instead.
func (s *RolesService) ListRestrictedFeatures(ctx context.Context, role string, opts ...RequestOption) (*Page[RestrictedFeature], error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	return list[RestrictedFeature](ctx, s.c, &Request{Path: []string{"roles", role, "restrictedfeatures"}}, opts)
}

// AllowFeaturesRequest is the body of [RolesService.AllowFeatures].
type AllowFeaturesRequest struct {
	// FeaturesToAllow are the feature keys to lift restrictions from.
	FeaturesToAllow []string `json:"featuresToAllow,omitempty"`
	// AllowAll lifts every restriction of the role.
	AllowAll bool `json:"allowAll,omitempty"`
}

// Validate checks r as [RolesService.AllowFeatures] does before sending:
// features named or AllowAll set; a nil r does neither. It returns an
// [*ArgumentError] naming the argument at fault, or nil.
func (r *AllowFeaturesRequest) Validate() error {
	if r == nil || len(r.FeaturesToAllow) == 0 && !r.AllowAll {
		return newArgError("req", "must name features or set AllowAll")
	}
	return nil
}

// AllowFeatures lifts restrictions from the role role: those in
// req.FeaturesToAllow, or all of them with req.AllowAll.
//
// API: DELETE /v3/roles/{role}/restrictedfeatures (onBehalfOf not supported)
//
// Deprecated: use client.Permissions ([PermissionsService.UnsetRole]) instead.
func (s *RolesService) AllowFeatures(ctx context.Context, role string, req *AllowFeaturesRequest, opts ...RequestOption) (*Result, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"roles", role, "restrictedfeatures"}, Body: req}, opts)
}
