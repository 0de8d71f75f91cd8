package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/chatrest/chat/internal/rest"
)

// PermissionsService manages role permissions and group-scope permissions
// (RBAC). Get it from [Client.Permissions].
//
// A permission is a key such as "createGroup" or
// "sendMessage.allowedMessageTypes" with a string value ("allow", "deny",
// "all", "friends", ...) or a list of strings. Role permissions apply to the
// users of a role; scope permissions to the members of one group with a
// scope (admin, moderator, participant). A denied action fails with 403
// ERR_PERMISSION_DENIED.
type PermissionsService struct{ c *caller }

// PermissionType says whether a permission applies to roles or group scopes.
type PermissionType string

// Permission types.
const (
	PermissionRole  PermissionType = "role"
	PermissionScope PermissionType = "scope"
)

// PermissionDataType says what a permission's values are.
type PermissionDataType string

// Permission data types.
const (
	PermissionString      PermissionDataType = "string"      // one string
	PermissionStringArray PermissionDataType = "stringArray" // a list of strings
)

// Permission is the definition of a permission: what it controls and which
// values it takes.
type Permission struct {
	// ID is the permission's key, e.g. "createGroup" or
	// "sendMessage.allowedMessageTypes".
	ID string `json:"id"`
	// Type says whether it applies to roles or group scopes.
	Type        PermissionType `json:"type,omitempty"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	// DataType says whether a value is a string or a list of strings.
	DataType PermissionDataType `json:"dataType,omitempty"`
	// AvailableValues are the values it accepts.
	AvailableValues []string `json:"availableValues,omitempty"`
	// DefaultValue is a string or a list of strings ([]any), as decoded
	// from JSON.
	DefaultValue any       `json:"defaultValue,omitempty"`
	CreatedAt    Timestamp `json:"createdAt,omitempty"`
	UpdatedAt    Timestamp `json:"updatedAt,omitempty"`
}

// SetPermissionsRequest is the body of [PermissionsService.SetRole] and
// [PermissionsService.SetScope].
type SetPermissionsRequest struct {
	// Permissions maps permission keys to values: a string or a []string,
	// e.g. {"createGroup": "allow", "createGroup.allowedGroupTypes":
	// []string{"public"}}.
	Permissions map[string]any `json:"permissions"`
}

// SetPermissionsResponse is the answer of [PermissionsService.SetRole] and
// [PermissionsService.SetScope].
type SetPermissionsResponse struct {
	// Results reports the outcome per permission key set.
	Results map[string]Result `json:"-"`
	// Permissions are the values now in effect: strings or lists of
	// strings ([]any), as decoded from JSON.
	Permissions map[string]any `json:"permissions"`
}

// UnsetPermissionResponse is the answer of [PermissionsService.UnsetRole]
// and [PermissionsService.UnsetScope].
type UnsetPermissionResponse struct {
	// Permissions are the values now in effect.
	Permissions map[string]any `json:"permissions"`
}

// ListRole returns the definitions of the permissions that apply to roles.
// The role's effective values come back from SetRole and UnsetRole.
//
// API: GET /v3/roles/{role}/permissions (onBehalfOf not supported)
func (s *PermissionsService) ListRole(ctx context.Context, role string, opts ...RequestOption) (*Page[Permission], error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	return list[Permission](ctx, s.c, &Request{Path: []string{"roles", role, "permissions"}}, opts)
}

// Validate checks r as [PermissionsService.SetRole] and SetScope do
// before sending: at least one permission; a nil r names none. It returns
// an [*ArgumentError] naming the field at fault, or nil.
func (r *SetPermissionsRequest) Validate() error {
	if r == nil || len(r.Permissions) == 0 {
		return newArgError("req.Permissions", "must not be empty")
	}
	return nil
}

// SetRole sets permissions of the role role and returns the outcome per key
// and the values now in effect.
//
// API: PUT /v3/roles/{role}/permissions (onBehalfOf not supported)
func (s *PermissionsService) SetRole(ctx context.Context, role string, req *SetPermissionsRequest, opts ...RequestOption) (*SetPermissionsResponse, error) {
	if err := required("role", role); err != nil {
		return nil, err
	}
	return s.set(ctx, []string{"roles", role, "permissions"}, req, opts)
}

// UnsetRole returns the permission permission (e.g. "listUsers.mode") of
// the role role to its default, and returns the values now in effect.
//
// API: DELETE /v3/roles/{role}/permissions/{permission} (onBehalfOf not supported)
func (s *PermissionsService) UnsetRole(ctx context.Context, role, permission string, opts ...RequestOption) (*UnsetPermissionResponse, error) {
	if err := required("role", role, "permission", permission); err != nil {
		return nil, err
	}
	return do[UnsetPermissionResponse](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"roles", role, "permissions", permission}}, opts)
}

// ListScope returns the definitions of the permissions that apply to the
// members of the group guid with the scope scope.
//
// API: GET /v3/groups/{guid}/scopes/{scope}/permissions (onBehalfOf not supported)
func (s *PermissionsService) ListScope(ctx context.Context, guid string, scope MemberScope, opts ...RequestOption) (*Page[Permission], error) {
	if err := required("guid", guid, "scope", string(scope)); err != nil {
		return nil, err
	}
	return list[Permission](ctx, s.c, &Request{Path: []string{"groups", guid, "scopes", string(scope), "permissions"}}, opts)
}

// SetScope sets permissions of the members of the group guid with the scope
// scope, and returns the outcome per key and the values now in effect.
//
// API: PUT /v3/groups/{guid}/scopes/{scope}/permissions (onBehalfOf not supported)
func (s *PermissionsService) SetScope(ctx context.Context, guid string, scope MemberScope, req *SetPermissionsRequest, opts ...RequestOption) (*SetPermissionsResponse, error) {
	if err := required("guid", guid, "scope", string(scope)); err != nil {
		return nil, err
	}
	return s.set(ctx, []string{"groups", guid, "scopes", string(scope), "permissions"}, req, opts)
}

// UnsetScope returns the permission permission of the members of the group
// guid with the scope scope to its default, and returns the values now in
// effect.
//
// API: DELETE /v3/groups/{guid}/scopes/{scope}/permissions/{permission} (onBehalfOf not supported)
func (s *PermissionsService) UnsetScope(ctx context.Context, guid string, scope MemberScope, permission string, opts ...RequestOption) (*UnsetPermissionResponse, error) {
	if err := required("guid", guid, "scope", string(scope), "permission", permission); err != nil {
		return nil, err
	}
	return do[UnsetPermissionResponse](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"groups", guid, "scopes", string(scope), "permissions", permission}}, opts)
}

// set sends a set-permissions request and splits its answer, where the
// outcomes per key sit beside "permissions" in one object.
func (s *PermissionsService) set(ctx context.Context, p []string, req *SetPermissionsRequest, opts []RequestOption) (*SetPermissionsResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	raw, err := do[map[string]json.RawMessage](ctx, s.c, &Request{Method: http.MethodPut, Path: p, Body: req}, opts)
	if err != nil {
		return nil, err
	}
	out := &SetPermissionsResponse{Results: map[string]Result{}}
	for k, v := range *raw {
		var err error
		if k == "permissions" {
			err = rest.Unmarshal(v, &out.Permissions)
		} else {
			var r Result
			err = rest.Unmarshal(v, &r)
			out.Results[k] = r
		}
		if err != nil {
			return nil, fmt.Errorf("chat: PUT /v3/%s: decoding %q of the answer: %w", strings.Join(p, "/"), k, err)
		}
	}
	return out, nil
}
