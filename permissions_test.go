package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

const permissionJSON = `{"id":"sendMessage.allowedMessageTypes","type":"role","title":"Allowed message types",
 "description":"Message types the role may send","dataType":"stringArray","availableValues":["text","image","audio","video","file"],
 "defaultValue":[],"createdAt":1700000000,"updatedAt":1700000001}`

func TestPermissionsWire(t *testing.T) {
	ctx := context.Background()
	def := chat.Permission{ID: "sendMessage.allowedMessageTypes", Type: chat.PermissionRole, Title: "Allowed message types",
		Description: "Message types the role may send", DataType: chat.PermissionStringArray,
		AvailableValues: []string{"text", "image", "audio", "video", "file"}, DefaultValue: []any{}, CreatedAt: 1700000000, UpdatedAt: 1700000001}
	page := `{"data":[` + permissionJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`
	wantPage := &chat.Page[chat.Permission]{Data: []chat.Permission{def},
		Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}}
	setReq := &chat.SetPermissionsRequest{Permissions: map[string]any{
		"createGroup": "allow", "listUsers.mode": "friends", "createGroup.allowedGroupTypes": []string{"public"},
	}}
	const setBody = `{"permissions":{"createGroup":"allow","listUsers.mode":"friends","createGroup.allowedGroupTypes":["public"]}}`
	const setAnswer = `{"data":{"createGroup":{"success":true,"message":"set"},"listUsers.mode":{"success":true,"message":"set"},
		"createGroup.allowedGroupTypes":{"success":false,"message":"invalid"},
		"permissions":{"createGroup":"allow","listUsers.mode":"friends","sendMessage":"allow"}}}`
	wantSet := &chat.SetPermissionsResponse{
		Results: map[string]chat.Result{"createGroup": {Success: true, Message: "set"}, "listUsers.mode": {Success: true, Message: "set"},
			"createGroup.allowedGroupTypes": {Success: false, Message: "invalid"}},
		Permissions: map[string]any{"createGroup": "allow", "listUsers.mode": "friends", "sendMessage": "allow"},
	}
	const unsetAnswer = `{"data":{"permissions":{"createGroup":"allow","createGroup.allowedGroupTypes":["public","private"]}}}`
	wantUnset := &chat.UnsetPermissionResponse{Permissions: map[string]any{"createGroup": "allow",
		"createGroup.allowedGroupTypes": []any{"public", "private"}}}

	tests := []struct {
		name     string
		call     func(c *chat.Client) (any, error)
		response string
		method   string
		path     string
		body     string
		want     any
	}{
		{"ListRole", func(c *chat.Client) (any, error) { return c.Permissions.ListRole(ctx, "manager") },
			page, http.MethodGet, "/v3/roles/manager/permissions", "", wantPage},
		{"SetRole", func(c *chat.Client) (any, error) { return c.Permissions.SetRole(ctx, "manager", setReq) },
			setAnswer, http.MethodPut, "/v3/roles/manager/permissions", setBody, wantSet},
		{"UnsetRole escapes the permission", func(c *chat.Client) (any, error) {
			return c.Permissions.UnsetRole(ctx, "manager", "createGroup.allowedGroupTypes")
		}, unsetAnswer, http.MethodDelete, "/v3/roles/manager/permissions/createGroup.allowedGroupTypes", "", wantUnset},
		{"ListScope", func(c *chat.Client) (any, error) {
			return c.Permissions.ListScope(ctx, "project-group", chat.MemberModerator)
		}, page, http.MethodGet, "/v3/groups/project-group/scopes/moderator/permissions", "", wantPage},
		{"SetScope", func(c *chat.Client) (any, error) {
			return c.Permissions.SetScope(ctx, "project-group", chat.MemberParticipant, setReq)
		}, setAnswer, http.MethodPut, "/v3/groups/project-group/scopes/participant/permissions", setBody, wantSet},
		{"UnsetScope", func(c *chat.Client) (any, error) {
			return c.Permissions.UnsetScope(ctx, "project group", chat.MemberAdmin, "sendMessage")
		}, unsetAnswer, http.MethodDelete, "/v3/groups/project%20group/scopes/admin/permissions/sendMessage", "", wantUnset},
		{"SetRole with only the effective map", func(c *chat.Client) (any, error) { return c.Permissions.SetRole(ctx, "r", setReq) },
			`{"data":{"permissions":{}}}`, http.MethodPut, "/v3/roles/r/permissions", setBody,
			&chat.SetPermissionsResponse{Results: map[string]chat.Result{}, Permissions: map[string]any{}}},
	}
	cases := make([]wireCase, len(tests))
	for i, tt := range tests {
		cases[i] = wireCase{name: tt.name, call: tt.call, response: tt.response, method: tt.method, path: tt.path, body: tt.body, want: tt.want}
	}
	runWire(t, cases)

	t.Run("a result that is not an object fails", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusOK, `{"data":{"createGroup":"oops","permissions":{}}}`)
		_, err := m.client.Permissions.SetRole(ctx, "manager", setReq)
		assert.ErrorContains(t, err, `decoding "createGroup"`)
	})
	t.Run("an API error is returned as such", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_ROLE_NOT_FOUND","message":"no role"}}`)
		_, err := m.client.Permissions.SetRole(ctx, "manager", setReq)
		assert.Equal(t, "ERR_ROLE_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
	})
}

func TestPermissionsArguments(t *testing.T) {
	ctx := context.Background()
	req := &chat.SetPermissionsRequest{Permissions: map[string]any{"createGroup": "deny"}}
	tests := []argCase[*chat.PermissionsService]{
		{"ListRole empty", func(p *chat.PermissionsService) error { _, err := p.ListRole(ctx, ""); return err }, "role"},
		{"SetRole empty role", func(p *chat.PermissionsService) error { _, err := p.SetRole(ctx, "", req); return err }, "role"},
		{"SetRole nil", func(p *chat.PermissionsService) error { _, err := p.SetRole(ctx, "r", nil); return err }, "req.Permissions"},
		{"SetRole nothing", func(p *chat.PermissionsService) error {
			_, err := p.SetRole(ctx, "r", &chat.SetPermissionsRequest{})
			return err
		}, "req.Permissions"},
		{"UnsetRole empty permission", func(p *chat.PermissionsService) error { _, err := p.UnsetRole(ctx, "r", ""); return err }, "permission"},
		{"UnsetRole dot-dot permission", func(p *chat.PermissionsService) error { _, err := p.UnsetRole(ctx, "r", ".."); return err }, "permission"},
		{"ListScope empty guid", func(p *chat.PermissionsService) error { _, err := p.ListScope(ctx, "", chat.MemberAdmin); return err }, "guid"},
		{"ListScope empty scope", func(p *chat.PermissionsService) error { _, err := p.ListScope(ctx, "g", ""); return err }, "scope"},
		{"SetScope empty scope", func(p *chat.PermissionsService) error { _, err := p.SetScope(ctx, "g", "", req); return err }, "scope"},
		{"SetScope nil", func(p *chat.PermissionsService) error {
			_, err := p.SetScope(ctx, "g", chat.MemberAdmin, nil)
			return err
		}, "req.Permissions"},
		{"UnsetScope empty permission", func(p *chat.PermissionsService) error {
			_, err := p.UnsetScope(ctx, "g", chat.MemberAdmin, "")
			return err
		}, "permission"},
		{"UnsetScope empty guid", func(p *chat.PermissionsService) error {
			_, err := p.UnsetScope(ctx, "", chat.MemberAdmin, "x")
			return err
		}, "guid"},
	}
	runArgs(t, func(c *chat.Client) *chat.PermissionsService { return c.Permissions }, tests)
}
