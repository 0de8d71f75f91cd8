package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// roleJSON is the reference's role example (chat-core §2.6).
const roleJSON = `{"role":"manager","name":"manager","description":"Managers of the team","metadata":{"email":"boss@example.com"},
 "settings":{"listUsers":"all","sendMessagesTo":"friendsOnly"},"createdAt":1638343994}`

func TestRolesWire(t *testing.T) {
	ctx := context.Background()
	manager := &chat.Role{Role: "manager", Name: "manager", Description: "Managers of the team",
		Metadata: map[string]any{"email": "boss@example.com"},
		Settings: &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceFriendsOnly}, CreatedAt: 1638343994}
	ok := `{"data":{"success":true,"message":"done"}}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Create",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "manager", Name: "manager", Description: "Managers of the team",
					Metadata: map[string]any{"email": "boss@example.com"},
					Settings: &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceFriendsOnly}})
			},
			Reply:  `{"data":` + roleJSON + `}`,
			Method: http.MethodPost, Path: "/v3/roles",
			Body: `{"role":"manager","name":"manager","description":"Managers of the team","metadata":{"email":"boss@example.com"},
				"settings":{"listUsers":"all","sendMessagesTo":"friendsOnly"}}`,
			Want: manager,
		},
		{
			Name: "List",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.List(ctx, &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 10}})
			},
			Reply:  `{"data":[` + roleJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":10,"current_page":1,"total_pages":1}}}`,
			Method: http.MethodGet, Path: "/v3/roles", Query: "perPage=10",
			Want: &chat.Page[chat.Role]{Data: []chat.Role{*manager},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 10, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			Name:   "Get",
			Call:   func(c *chat.Client) (any, error) { return c.Roles.Get(ctx, "manager") },
			Reply:  `{"data":` + roleJSON + `}`,
			Method: http.MethodGet, Path: "/v3/roles/manager",
			Want: manager,
		},
		{
			Name: "Update",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.Update(ctx, "manager", &chat.UpdateRoleRequest{Name: "Manager", Unset: []string{"settings", "metadata"}})
			},
			Reply:  `{"data":{"role":"manager","name":"Manager","description":"Managers of the team","createdAt":1638343994,"updatedAt":1638344000}}`,
			Method: http.MethodPut, Path: "/v3/roles/manager", Body: `{"name":"Manager","unset":["settings","metadata"]}`,
			Want: &chat.Role{Role: "manager", Name: "Manager", Description: "Managers of the team", CreatedAt: 1638343994, UpdatedAt: 1638344000},
		},
		{
			Name:  "Delete",
			Call:  func(c *chat.Client) (any, error) { return c.Roles.Delete(ctx, "manager") },
			Reply: ok, Method: http.MethodDelete, Path: "/v3/roles/manager",
			Want: &chat.Result{Success: true, Message: "done"},
		},
		{
			Name: "RestrictFeatures",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.RestrictFeatures(ctx, "manager", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"u.listUsers", "u.deleteGroup"}})
			},
			Reply:  `{"data":{"u.listUsers":{"success":true,"message":"restricted"},"u.deleteGroup":{"success":true,"message":"restricted"}}}`,
			Method: http.MethodPost, Path: "/v3/roles/manager/restrictedfeatures",
			Body: `{"featuresToRestrict":["u.listUsers","u.deleteGroup"]}`,
			Want: map[string]chat.Result{"u.listUsers": {Success: true, Message: "restricted"}, "u.deleteGroup": {Success: true, Message: "restricted"}},
		},
		{
			Name: "ListRestrictedFeatures",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.ListRestrictedFeatures(ctx, "manager")
			},
			Reply: `{"data":[{"title":"List users","description":"Lists users","key":"u.listUsers","path":"/v3/users","createdAt":1638343994}],
				"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`,
			Method: http.MethodGet, Path: "/v3/roles/manager/restrictedfeatures",
			Want: &chat.Page[chat.RestrictedFeature]{
				Data: []chat.RestrictedFeature{{Title: "List users", Description: "Lists users", Key: "u.listUsers", Path: "/v3/users", CreatedAt: 1638343994}},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}},
			},
		},
		{
			Name: "AllowFeatures",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.AllowFeatures(ctx, "manager", &chat.AllowFeaturesRequest{FeaturesToAllow: []string{"u.listUsers"}})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/roles/manager/restrictedfeatures",
			Body: `{"featuresToAllow":["u.listUsers"]}`, Want: &chat.Result{Success: true, Message: "done"},
		},
		{
			Name: "AllowFeatures all",
			Call: func(c *chat.Client) (any, error) {
				return c.Roles.AllowFeatures(ctx, "team/lead", &chat.AllowFeaturesRequest{AllowAll: true})
			},
			Reply: ok, Method: http.MethodDelete, Path: "/v3/roles/team%2Flead/restrictedfeatures",
			Body: `{"allowAll":true}`, Want: &chat.Result{Success: true, Message: "done"},
		},
	})
}

func TestRolesAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"role":"default"},{"role":"manager"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"role":"support"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	roles := collectKeys(t, client.Roles.All(context.Background(), &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(r *chat.Role) string { return r.Role })
	assert.Equal(t, []string{"default", "manager", "support"}, roles)
	assert.Len(t, m.Requests(), 2)
}

func TestRolesArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Create nil", Call: func(c *chat.Client) error { _, err := c.Roles.Create(ctx, nil); return err }, Arg: "req"},
		{Name: "Create without role", Call: func(c *chat.Client) error {
			_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Name: "n"})
			return err
		}, Arg: "req.Role"},
		{Name: "Create without name", Call: func(c *chat.Client) error {
			_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "r"})
			return err
		}, Arg: "req.Name"},
		{Name: "Get empty", Call: func(c *chat.Client) error { _, err := c.Roles.Get(ctx, ""); return err }, Arg: "role"},
		{Name: "Update dot", Call: func(c *chat.Client) error { _, err := c.Roles.Update(ctx, ".", &chat.UpdateRoleRequest{}); return err }, Arg: "role"},
		{Name: "Update nil", Call: func(c *chat.Client) error { _, err := c.Roles.Update(ctx, "r", nil); return err }, Arg: "req"},
		{Name: "Delete empty", Call: func(c *chat.Client) error { _, err := c.Roles.Delete(ctx, ""); return err }, Arg: "role"},
		{Name: "RestrictFeatures empty role", Call: func(c *chat.Client) error {
			_, err := c.Roles.RestrictFeatures(ctx, "", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"x"}})
			return err
		}, Arg: "role"},
		{Name: "RestrictFeatures nothing", Call: func(c *chat.Client) error {
			_, err := c.Roles.RestrictFeatures(ctx, "r", &chat.RestrictFeaturesRequest{})
			return err
		}, Arg: "req.FeaturesToRestrict"},
		{Name: "ListRestrictedFeatures empty role", Call: func(c *chat.Client) error {
			_, err := c.Roles.ListRestrictedFeatures(ctx, "")
			return err
		}, Arg: "role"},
		{Name: "AllowFeatures nothing", Call: func(c *chat.Client) error {
			_, err := c.Roles.AllowFeatures(ctx, "r", &chat.AllowFeaturesRequest{})
			return err
		}, Arg: "req"},
		{Name: "AllowFeatures nil", Call: func(c *chat.Client) error {
			_, err := c.Roles.AllowFeatures(ctx, "r", nil)
			return err
		}, Arg: "req"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}

// TestRoleFeaturesValidate holds the Validate of the feature requests to the checks
// their methods run before sending.
func TestRoleFeaturesValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a restriction", Value: &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"u.listUsers"}}},
		{Name: "a restriction of nothing", Value: &chat.RestrictFeaturesRequest{}, Field: "req.FeaturesToRestrict"},
		{Name: "a nil restriction", Value: (*chat.RestrictFeaturesRequest)(nil), Field: "req.FeaturesToRestrict"},
		{Name: "features allowed", Value: &chat.AllowFeaturesRequest{FeaturesToAllow: []string{"u.listUsers"}}},
		{Name: "every feature allowed", Value: &chat.AllowFeaturesRequest{AllowAll: true}},
		{Name: "nothing allowed", Value: &chat.AllowFeaturesRequest{}, Field: "req"},
		{Name: "a nil allowance", Value: (*chat.AllowFeaturesRequest)(nil), Field: "req"},
	})
}
