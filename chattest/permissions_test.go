package chattest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestPermissions(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	seed(srv, "alice")
	srv.AddRole(chat.Role{Role: "guest"})
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team"}, "alice")
	perms := client.Permissions

	page, err := perms.ListRole(ctx, "guest")
	require.NoError(t, err)
	assert.Equal(t, 28, page.Meta.Pagination.Total)
	var types *chat.Permission
	for i := range page.Data {
		assert.Equal(t, chat.PermissionRole, page.Data[i].Type)
		if page.Data[i].ID == "sendMessage.allowedMessageTypes" {
			types = &page.Data[i]
		}
	}
	require.NotNil(t, types)
	assert.Equal(t, chat.PermissionStringArray, types.DataType)
	assert.Equal(t, []string{"text", "image", "audio", "video", "file"}, types.AvailableValues)
	assert.Equal(t, []any{}, types.DefaultValue)

	set, err := perms.SetRole(ctx, "guest", &chat.SetPermissionsRequest{Permissions: map[string]any{
		"createGroup": "deny", "listUsers.mode": "friends", "createGroup.allowedGroupTypes": []string{"public"},
		"sendMessage": "maybe", "flyToMoon": "allow",
	}})
	require.NoError(t, err)
	assert.True(t, set.Results["createGroup"].Success)
	assert.True(t, set.Results["createGroup.allowedGroupTypes"].Success)
	assert.False(t, set.Results["sendMessage"].Success, "not an available value")
	assert.False(t, set.Results["flyToMoon"].Success, "no such permission")
	assert.Equal(t, "deny", set.Permissions["createGroup"])
	assert.Equal(t, []any{"public"}, set.Permissions["createGroup.allowedGroupTypes"])
	assert.Equal(t, "allow", set.Permissions["sendMessage"], "defaults are in force")
	assert.Len(t, set.Permissions, 28)
	assert.Equal(t, "friends", srv.RolePermissions("guest")["listUsers.mode"])

	unset, err := perms.UnsetRole(ctx, "guest", "createGroup")
	require.NoError(t, err)
	assert.Equal(t, "allow", unset.Permissions["createGroup"])
	assert.Equal(t, "friends", unset.Permissions["listUsers.mode"])
	_, err = perms.UnsetRole(ctx, "guest", "flyToMoon")
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	_, err = perms.SetRole(ctx, "nope", &chat.SetPermissionsRequest{Permissions: map[string]any{"createGroup": "deny"}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_ROLE_NOT_FOUND", chat.ErrNotFound)
	assert.Equal(t, "allow", srv.RolePermissions("default")["createGroup"], "other roles are untouched")

	scopePage, err := perms.ListScope(ctx, "team", chat.MemberParticipant)
	require.NoError(t, err)
	assert.Equal(t, 11, scopePage.Meta.Pagination.Total)
	assert.Equal(t, chat.PermissionScope, scopePage.Data[0].Type)
	sset, err := perms.SetScope(ctx, "team", chat.MemberParticipant, &chat.SetPermissionsRequest{Permissions: map[string]any{
		"sendMessage": "deny", "initiateCall": "friends",
	}})
	require.NoError(t, err)
	assert.True(t, sset.Results["sendMessage"].Success)
	assert.True(t, sset.Results["initiateCall"].Success)
	assert.Equal(t, "deny", srv.ScopePermissions("team", chat.MemberParticipant)["sendMessage"])
	assert.Equal(t, "allow", srv.ScopePermissions("team", chat.MemberAdmin)["sendMessage"], "per scope")
	sunset, err := perms.UnsetScope(ctx, "team", chat.MemberParticipant, "sendMessage")
	require.NoError(t, err)
	assert.Equal(t, "allow", sunset.Permissions["sendMessage"])
	assert.Equal(t, "friends", sunset.Permissions["initiateCall"])
	_, err = perms.ListScope(ctx, "nope", chat.MemberAdmin)
	requireAPIError(t, err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
	_, err = perms.ListScope(ctx, "team", "owner")
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)

	srv.SetScopePermissions("team", chat.MemberModerator, map[string]any{"addReaction": "deny"})
	assert.Equal(t, "deny", srv.ScopePermissions("TEAM", chat.MemberModerator)["addReaction"])
	srv.SetRolePermissions("guest", map[string]any{"listUsers.mode": nil})
	assert.Equal(t, "all", srv.RolePermissions("guest")["listUsers.mode"])
}
