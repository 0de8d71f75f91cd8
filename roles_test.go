package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
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
	runWire(t, []wireCase{
		{
			name: "Create",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "manager", Name: "manager", Description: "Managers of the team",
					Metadata: map[string]any{"email": "boss@example.com"},
					Settings: &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceFriendsOnly}})
			},
			response: `{"data":` + roleJSON + `}`,
			method:   http.MethodPost, path: "/v3/roles",
			body: `{"role":"manager","name":"manager","description":"Managers of the team","metadata":{"email":"boss@example.com"},
				"settings":{"listUsers":"all","sendMessagesTo":"friendsOnly"}}`,
			want: manager,
		},
		{
			name: "List",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.List(ctx, &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 10}})
			},
			response: `{"data":[` + roleJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":10,"current_page":1,"total_pages":1}}}`,
			method:   http.MethodGet, path: "/v3/roles", query: "perPage=10",
			want: &chat.Page[chat.Role]{Data: []chat.Role{*manager},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 10, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			name:     "Get",
			call:     func(c *chat.Client) (any, error) { return c.Roles.Get(ctx, "manager") },
			response: `{"data":` + roleJSON + `}`,
			method:   http.MethodGet, path: "/v3/roles/manager",
			want: manager,
		},
		{
			name: "Update",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.Update(ctx, "manager", &chat.UpdateRoleRequest{Name: "Manager", Unset: []string{"settings", "metadata"}})
			},
			response: `{"data":{"role":"manager","name":"Manager","description":"Managers of the team","createdAt":1638343994,"updatedAt":1638344000}}`,
			method:   http.MethodPut, path: "/v3/roles/manager", body: `{"name":"Manager","unset":["settings","metadata"]}`,
			want: &chat.Role{Role: "manager", Name: "Manager", Description: "Managers of the team", CreatedAt: 1638343994, UpdatedAt: 1638344000},
		},
		{
			name:     "Delete",
			call:     func(c *chat.Client) (any, error) { return c.Roles.Delete(ctx, "manager") },
			response: ok, method: http.MethodDelete, path: "/v3/roles/manager",
			want: &chat.Result{Success: true, Message: "done"},
		},
		{
			name: "RestrictFeatures",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.RestrictFeatures(ctx, "manager", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"u.listUsers", "u.deleteGroup"}})
			},
			response: `{"data":{"u.listUsers":{"success":true,"message":"restricted"},"u.deleteGroup":{"success":true,"message":"restricted"}}}`,
			method:   http.MethodPost, path: "/v3/roles/manager/restrictedfeatures",
			body: `{"featuresToRestrict":["u.listUsers","u.deleteGroup"]}`,
			want: map[string]chat.Result{"u.listUsers": {Success: true, Message: "restricted"}, "u.deleteGroup": {Success: true, Message: "restricted"}},
		},
		{
			name: "ListRestrictedFeatures",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.ListRestrictedFeatures(ctx, "manager")
			},
			response: `{"data":[{"title":"List users","description":"Lists users","key":"u.listUsers","path":"/v3/users","createdAt":1638343994}],
				"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`,
			method: http.MethodGet, path: "/v3/roles/manager/restrictedfeatures",
			want: &chat.Page[chat.RestrictedFeature]{
				Data: []chat.RestrictedFeature{{Title: "List users", Description: "Lists users", Key: "u.listUsers", Path: "/v3/users", CreatedAt: 1638343994}},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}},
			},
		},
		{
			name: "AllowFeatures",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.AllowFeatures(ctx, "manager", &chat.AllowFeaturesRequest{FeaturesToAllow: []string{"u.listUsers"}})
			},
			response: ok, method: http.MethodDelete, path: "/v3/roles/manager/restrictedfeatures",
			body: `{"featuresToAllow":["u.listUsers"]}`, want: &chat.Result{Success: true, Message: "done"},
		},
		{
			name: "AllowFeatures all",
			call: func(c *chat.Client) (any, error) {
				return c.Roles.AllowFeatures(ctx, "team/lead", &chat.AllowFeaturesRequest{AllowAll: true})
			},
			response: ok, method: http.MethodDelete, path: "/v3/roles/team%2Flead/restrictedfeatures",
			body: `{"allowAll":true}`, want: &chat.Result{Success: true, Message: "done"},
		},
	})
}

func TestRolesAll(t *testing.T) {
	m := newMockAPI(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"role":"default"},{"role":"manager"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"role":"support"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	roles := collectKeys(t, m.client.Roles.All(context.Background(), &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(r *chat.Role) string { return r.Role })
	assert.Equal(t, []string{"default", "manager", "support"}, roles)
	assert.Len(t, m.Requests(), 2)
}

func TestRolesArguments(t *testing.T) {
	ctx := context.Background()
	tests := []argCase[*chat.Client]{
		{"Create nil", func(c *chat.Client) error { _, err := c.Roles.Create(ctx, nil); return err }, "req"},
		{"Create without role", func(c *chat.Client) error {
			_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Name: "n"})
			return err
		}, "req.Role"},
		{"Create without name", func(c *chat.Client) error {
			_, err := c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "r"})
			return err
		}, "req.Name"},
		{"Get empty", func(c *chat.Client) error { _, err := c.Roles.Get(ctx, ""); return err }, "role"},
		{"Update dot", func(c *chat.Client) error { _, err := c.Roles.Update(ctx, ".", &chat.UpdateRoleRequest{}); return err }, "role"},
		{"Update nil", func(c *chat.Client) error { _, err := c.Roles.Update(ctx, "r", nil); return err }, "req"},
		{"Delete empty", func(c *chat.Client) error { _, err := c.Roles.Delete(ctx, ""); return err }, "role"},
		{"RestrictFeatures empty role", func(c *chat.Client) error {
			_, err := c.Roles.RestrictFeatures(ctx, "", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"x"}})
			return err
		}, "role"},
		{"RestrictFeatures nothing", func(c *chat.Client) error {
			_, err := c.Roles.RestrictFeatures(ctx, "r", &chat.RestrictFeaturesRequest{})
			return err
		}, "req.FeaturesToRestrict"},
		{"ListRestrictedFeatures empty role", func(c *chat.Client) error {
			_, err := c.Roles.ListRestrictedFeatures(ctx, "")
			return err
		}, "role"},
		{"AllowFeatures nothing", func(c *chat.Client) error {
			_, err := c.Roles.AllowFeatures(ctx, "r", &chat.AllowFeaturesRequest{})
			return err
		}, "req"},
		{"AllowFeatures nil", func(c *chat.Client) error {
			_, err := c.Roles.AllowFeatures(ctx, "r", nil)
			return err
		}, "req"},
	}
	runArgs(t, wholeClient, tests)
}
