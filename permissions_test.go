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

	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:  "ListRole",
			Call:  func(c *chat.Client) (any, error) { return c.Permissions.ListRole(ctx, "manager") },
			Reply: page, Method: http.MethodGet, Path: "/v3/roles/manager/permissions",
			Want: wantPage,
		},
		{
			Name:  "SetRole",
			Call:  func(c *chat.Client) (any, error) { return c.Permissions.SetRole(ctx, "manager", setReq) },
			Reply: setAnswer, Method: http.MethodPut, Path: "/v3/roles/manager/permissions",
			Body: setBody,
			Want: wantSet,
		},
		{
			Name: "UnsetRole escapes the permission",
			Call: func(c *chat.Client) (any, error) {
				return c.Permissions.UnsetRole(ctx, "manager", "createGroup.allowedGroupTypes")
			},
			Reply: unsetAnswer, Method: http.MethodDelete, Path: "/v3/roles/manager/permissions/createGroup.allowedGroupTypes",
			Want: wantUnset,
		},
		{
			Name: "ListScope",
			Call: func(c *chat.Client) (any, error) {
				return c.Permissions.ListScope(ctx, "project-group", chat.MemberModerator)
			},
			Reply: page, Method: http.MethodGet, Path: "/v3/groups/project-group/scopes/moderator/permissions",
			Want: wantPage,
		},
		{
			Name: "SetScope",
			Call: func(c *chat.Client) (any, error) {
				return c.Permissions.SetScope(ctx, "project-group", chat.MemberParticipant, setReq)
			},
			Reply: setAnswer, Method: http.MethodPut, Path: "/v3/groups/project-group/scopes/participant/permissions",
			Body: setBody,
			Want: wantSet,
		},
		{
			Name: "UnsetScope",
			Call: func(c *chat.Client) (any, error) {
				return c.Permissions.UnsetScope(ctx, "project group", chat.MemberAdmin, "sendMessage")
			},
			Reply: unsetAnswer, Method: http.MethodDelete, Path: "/v3/groups/project%20group/scopes/admin/permissions/sendMessage",
			Want: wantUnset,
		},
		{
			Name:  "SetRole with only the effective map",
			Call:  func(c *chat.Client) (any, error) { return c.Permissions.SetRole(ctx, "r", setReq) },
			Reply: `{"data":{"permissions":{}}}`, Method: http.MethodPut, Path: "/v3/roles/r/permissions",
			Body: setBody,
			Want: &chat.SetPermissionsResponse{Results: map[string]chat.Result{}, Permissions: map[string]any{}},
		},
	})

	t.Run("a result that is not an object fails", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"createGroup":"oops","permissions":{}}}`)
		_, err := client.Permissions.SetRole(ctx, "manager", setReq)
		assert.ErrorContains(t, err, `decoding "createGroup"`)
	})
	t.Run("an API error is returned as such", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_ROLE_NOT_FOUND","message":"no role"}}`)
		_, err := client.Permissions.SetRole(ctx, "manager", setReq)
		assert.Equal(t, "ERR_ROLE_NOT_FOUND", wiretest.RequireAPIError(t, err).Code)
	})
}

func TestPermissionsArguments(t *testing.T) {
	ctx := context.Background()
	req := &chat.SetPermissionsRequest{Permissions: map[string]any{"createGroup": "deny"}}
	tests := []wiretest.ArgCase[*chat.PermissionsService]{
		{Name: "ListRole empty", Call: func(p *chat.PermissionsService) error { _, err := p.ListRole(ctx, ""); return err }, Arg: "role"},
		{Name: "SetRole empty role", Call: func(p *chat.PermissionsService) error { _, err := p.SetRole(ctx, "", req); return err }, Arg: "role"},
		{Name: "SetRole nil", Call: func(p *chat.PermissionsService) error { _, err := p.SetRole(ctx, "r", nil); return err }, Arg: "req.Permissions"},
		{Name: "SetRole nothing", Call: func(p *chat.PermissionsService) error {
			_, err := p.SetRole(ctx, "r", &chat.SetPermissionsRequest{})
			return err
		}, Arg: "req.Permissions"},
		{Name: "UnsetRole empty permission", Call: func(p *chat.PermissionsService) error { _, err := p.UnsetRole(ctx, "r", ""); return err }, Arg: "permission"},
		{Name: "UnsetRole dot-dot permission", Call: func(p *chat.PermissionsService) error { _, err := p.UnsetRole(ctx, "r", ".."); return err }, Arg: "permission"},
		{Name: "ListScope empty guid", Call: func(p *chat.PermissionsService) error { _, err := p.ListScope(ctx, "", chat.MemberAdmin); return err }, Arg: "guid"},
		{Name: "ListScope empty scope", Call: func(p *chat.PermissionsService) error { _, err := p.ListScope(ctx, "g", ""); return err }, Arg: "scope"},
		{Name: "SetScope empty scope", Call: func(p *chat.PermissionsService) error { _, err := p.SetScope(ctx, "g", "", req); return err }, Arg: "scope"},
		{Name: "SetScope nil", Call: func(p *chat.PermissionsService) error {
			_, err := p.SetScope(ctx, "g", chat.MemberAdmin, nil)
			return err
		}, Arg: "req.Permissions"},
		{Name: "UnsetScope empty permission", Call: func(p *chat.PermissionsService) error {
			_, err := p.UnsetScope(ctx, "g", chat.MemberAdmin, "")
			return err
		}, Arg: "permission"},
		{Name: "UnsetScope empty guid", Call: func(p *chat.PermissionsService) error {
			_, err := p.UnsetScope(ctx, "", chat.MemberAdmin, "x")
			return err
		}, Arg: "guid"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, func(c *chat.Client) *chat.PermissionsService { return c.Permissions }, tests)
}

// TestSetPermissionsValidate holds the Validate of the permissions request to the checks
// their methods run before sending.
func TestSetPermissionsValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a permission", Value: &chat.SetPermissionsRequest{Permissions: map[string]any{"listUsers.mode": "all"}}},
		{Name: "no permission", Value: &chat.SetPermissionsRequest{}, Field: "req.Permissions"},
		{Name: "a nil request", Value: (*chat.SetPermissionsRequest)(nil), Field: "req.Permissions"},
	})
}
