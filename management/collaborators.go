package management

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"slices"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// CollaboratorsService manages an app's collaborators. Get it from [Client.Collaborators].
type CollaboratorsService struct{ c caller }

// CollaboratorRole is a team member's role on an app.
type CollaboratorRole string

// Collaborator roles. Lists show "admin" and "developer", and requests
// name admins and moderators; "owner" is the account's role on its own
// apps ([App.Role]).
const (
	RoleOwner     CollaboratorRole = "owner"
	RoleAdmin     CollaboratorRole = "admin"
	RoleDeveloper CollaboratorRole = "developer"
	RoleModerator CollaboratorRole = "moderator"
)

// Collaborator is a member of an app's team.
type Collaborator struct {
	// ID is the member's account id.
	ID string `json:"id"`
	// Name is the member's name.
	Name string `json:"name,omitempty"`
	// Email is the member's email address.
	Email string `json:"email"`
	// Role is the member's role on the app.
	Role CollaboratorRole `json:"role,omitempty"`
	// CreatedAt is when the member joined the team.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
}

// Results are per-item outcomes of a management operation that acts on
// several items at once, keyed by the item (an email address, a setting
// key, an extension id). An empty JSON array, which the service sends for
// a category it had nothing to do in, decodes as empty Results (not nil,
// so that it encodes again as an empty object).
type Results map[string]chat.Result

// UnmarshalJSON accepts an object of results, an array as no results, or
// null (which leaves r nil).
func (r *Results) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == 'n' {
		*r = nil
		return nil
	}
	if len(b) > 0 && b[0] == '[' {
		*r = Results{}
		return nil
	}
	var m map[string]chat.Result
	if err := rest.Unmarshal(b, &m); err != nil {
		return err
	}
	*r = m
	return nil
}

// Failed returns the items whose result is not a success, sorted.
func (r Results) Failed() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(r)) {
		if !r[k].Success {
			out = append(out, k)
		}
	}
	return out
}

// UpdateCollaboratorsRequest is the body of [CollaboratorsService.Update]:
// email addresses to make admins or moderators, and to remove from the
// team.
type UpdateCollaboratorsRequest struct {
	// Admins are email addresses to add (or change) as admins.
	Admins []string `json:"admins,omitempty"`
	// Moderators are email addresses to add (or change) as moderators.
	Moderators []string `json:"moderators,omitempty"`
	// CollaboratorsToRemove are email addresses to remove from the team.
	CollaboratorsToRemove []string `json:"collaboratorsToRemove,omitempty"`
}

// CollaboratorsUpdate is the answer of [CollaboratorsService.Update]: the
// outcome for each email address, by the category it was sent in.
type CollaboratorsUpdate struct {
	Admins     Results `json:"admins,omitzero"`
	Moderators Results `json:"moderators,omitzero"`
	// Developers may appear in the answer, though requests cannot name
	// developers.
	Developers            Results `json:"developers,omitzero"`
	CollaboratorsToRemove Results `json:"collaboratorsToRemove,omitzero"`
}

// Validate checks r as [CollaboratorsService.Update] does before sending:
// at least one email address, in Admins, Moderators or
// CollaboratorsToRemove. It returns a [*chat.ArgumentError] naming the
// argument at fault, or nil.
func (r *UpdateCollaboratorsRequest) Validate() error {
	if len(r.Admins)+len(r.Moderators)+len(r.CollaboratorsToRemove) == 0 {
		return argError("req", "must name at least one email address")
	}
	return nil
}

// Update adds, changes and removes members of the team of the app appID in
// one call, and returns the outcome for each email address. The account
// cannot add itself (ERR_SELF_ACTION_DENIED) or the app's owner
// (ERR_ALREADY_AN_OWNER), nor remove someone who is not a member
// (ERR_NOT_A_COLLABORATOR).
//
// API: POST /apps/{appId}/collaborators (management)
func (s *CollaboratorsService) Update(ctx context.Context, appID string, req *UpdateCollaboratorsRequest, opts ...chat.RequestOption) (*CollaboratorsUpdate, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[CollaboratorsUpdate](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "collaborators"}, Body: req}, opts)
}

// List returns the members of the team of the app appID.
//
// API: GET /apps/{appId}/collaborators (management)
func (s *CollaboratorsService) List(ctx context.Context, appID string, opts ...chat.RequestOption) ([]Collaborator, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	out, err := do[[]Collaborator](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "collaborators"}}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}
