//lint:file-ignore SA1019 the deprecated restricted-feature operations are tested on purpose

package chattest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestRoles(t *testing.T) {
	srv, client, clk := startClocked(t)
	ctx := t.Context()
	roles := client.Roles

	def, err := roles.Get(ctx, "default")
	require.NoError(t, err, "the default role exists")
	assert.Equal(t, "default", def.Name)
	assert.Equal(t, chat.TimestampOf(t0), def.CreatedAt)

	clk.Set(t0.Add(time.Minute))
	created, err := roles.Create(ctx, &chat.CreateRoleRequest{Role: "Manager", Name: "Manager", Description: "Runs things",
		Metadata: map[string]any{"level": 2.0}, Settings: &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceFriendsOnly}})
	require.NoError(t, err)
	assert.Equal(t, &chat.Role{Role: "manager", Name: "Manager", Description: "Runs things", Metadata: map[string]any{"level": 2.0},
		Settings:  &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceFriendsOnly},
		CreatedAt: chat.TimestampOf(t0.Add(time.Minute))}, created)
	_, err = roles.Create(ctx, &chat.CreateRoleRequest{Role: "manager", Name: "Again"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "role")
	_, err = roles.Create(ctx, &chat.CreateRoleRequest{Role: "bad role!", Name: "x"})
	require.ErrorIs(t, err, chat.ErrInvalidArgument, "refused by the SDK (the fake's check: TestRawErrors)")
	_, err = roles.Create(ctx, &chat.CreateRoleRequest{Role: "new-role", Name: "x", Settings: &chat.RoleSettings{ListUsers: "some"}})
	ce = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "settings.listUsers")

	got, err := roles.Get(ctx, "MANAGER")
	require.NoError(t, err)
	assert.Equal(t, created, got)
	_, err = roles.Get(ctx, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_ROLE_NOT_FOUND", chat.ErrNotFound)

	clk.Set(t0.Add(2 * time.Minute))
	updated, err := roles.Update(ctx, "manager", &chat.UpdateRoleRequest{Name: "Managers", Unset: []string{"metadata", "settings"}})
	require.NoError(t, err)
	assert.Equal(t, "Managers", updated.Name)
	assert.Equal(t, "Runs things", updated.Description)
	assert.Nil(t, updated.Metadata)
	assert.Nil(t, updated.Settings)
	assert.Equal(t, chat.TimestampOf(t0.Add(2*time.Minute)), updated.UpdatedAt)
	_, err = roles.Update(ctx, "manager", &chat.UpdateRoleRequest{Unset: []string{"name"}})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)

	// 25 roles per app, default included.
	for i := 2; i < 25; i++ {
		_, err := roles.Create(ctx, &chat.CreateRoleRequest{Role: fmt.Sprintf("r%02d", i), Name: "R"})
		require.NoError(t, err)
	}
	_, err = roles.Create(ctx, &chat.CreateRoleRequest{Role: "one-too-many", Name: "R"})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_PLAN_QUOTA_RESTRICTION", chat.ErrLimitExceeded)
	page, err := roles.List(ctx, &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 10}})
	require.NoError(t, err)
	assert.Equal(t, &chat.Pagination{Total: 25, Count: 10, PerPage: 10, CurrentPage: 1, TotalPages: 3}, page.Meta.Pagination)
	assert.Equal(t, "default", page.Data[0].Role)
	assert.Equal(t, "manager", page.Data[1].Role)
	var n int
	for _, err := range roles.All(ctx, &chat.ListRolesOptions{PageOptions: chat.PageOptions{PerPage: 7}}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 25, n)

	_, err = roles.Delete(ctx, "default")
	requireAPIError(t, err, http.StatusForbidden, "ERR_ROLE_DELETE_DENIED", chat.ErrForbidden)
	res, err := roles.Delete(ctx, "r02")
	require.NoError(t, err)
	assert.True(t, res.Success)
	_, err = roles.Delete(ctx, "r02")
	requireAPIError(t, err, http.StatusNotFound, "ERR_ROLE_NOT_FOUND", chat.ErrNotFound)
	_, err = roles.Create(ctx, &chat.CreateRoleRequest{Role: "r02", Name: "Back"})
	require.NoError(t, err, "room again")

	seeded := srv.AddRole(chat.Role{Role: "Support"})
	assert.Equal(t, chat.Role{Role: "support", Name: "support", CreatedAt: chat.TimestampOf(t0.Add(2 * time.Minute)),
		UpdatedAt: chat.TimestampOf(t0.Add(2 * time.Minute))}, seeded)
	stored, ok := srv.Role("SUPPORT")
	require.True(t, ok)
	assert.Equal(t, seeded, stored)
}

func TestRestrictedFeatures(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	srv.AddRole(chat.Role{Role: "guest"})
	roles := client.Roles

	res, err := roles.RestrictFeatures(ctx, "guest", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"listUsers", "u.deleteGroup", "flyToMoon"}})
	require.NoError(t, err)
	assert.True(t, res["listUsers"].Success)
	assert.True(t, res["u.deleteGroup"].Success)
	assert.False(t, res["flyToMoon"].Success)

	page, err := roles.ListRestrictedFeatures(ctx, "guest")
	require.NoError(t, err)
	assert.Equal(t, []chat.RestrictedFeature{
		{Title: "Delete group", Description: "Restricts /v3/groups/{{guid}}.", Key: "u.deleteGroup", Path: "/v3/groups/{{guid}}", CreatedAt: chat.TimestampOf(t0)},
		{Title: "List users", Description: "Restricts /v3/users.", Key: "u.listUsers", Path: "/v3/users", CreatedAt: chat.TimestampOf(t0)},
	}, page.Data)
	assert.Equal(t, 2, page.Meta.Pagination.Total)

	_, err = roles.AllowFeatures(ctx, "guest", &chat.AllowFeaturesRequest{FeaturesToAllow: []string{"u.listUsers"}})
	require.NoError(t, err)
	page, err = roles.ListRestrictedFeatures(ctx, "guest")
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "u.deleteGroup", page.Data[0].Key)
	_, err = roles.AllowFeatures(ctx, "guest", &chat.AllowFeaturesRequest{AllowAll: true})
	require.NoError(t, err)
	page, err = roles.ListRestrictedFeatures(ctx, "guest")
	require.NoError(t, err)
	assert.Empty(t, page.Data)

	_, err = roles.RestrictFeatures(ctx, "nope", &chat.RestrictFeaturesRequest{FeaturesToRestrict: []string{"listUsers"}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_ROLE_NOT_FOUND", chat.ErrNotFound)
	r := do(t, srv, http.MethodDelete, "/v3/roles/guest/restrictedfeatures", `{}`, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
}
