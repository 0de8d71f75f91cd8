package management_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

func TestCollaboratorsWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "update",
			Call: func(c *management.Client) (any, error) {
				return c.Collaborators.Update(ctx, "app 1", &management.UpdateCollaboratorsRequest{
					Admins: []string{"admin1@example.com", "admin2@example.com"}, CollaboratorsToRemove: []string{"old@example.com"},
				})
			},
			// The reference's example: empty categories are arrays.
			Reply: `{"data":{"collaboratorsToRemove":[],"admins":{"admin1@example.com":{"success":true},
				"admin2@example.com":{"success":false,"message":"nope"}},"developers":{"dev@example.com":{"success":true}},"moderators":[]}}`,
			Method: http.MethodPost, Path: "/apps/app%201/collaborators",
			Body: `{"admins":["admin1@example.com","admin2@example.com"],"collaboratorsToRemove":["old@example.com"]}`,
			Want: &management.CollaboratorsUpdate{
				Admins: management.Results{
					"admin1@example.com": {Success: true},
					"admin2@example.com": {Success: false, Message: "nope"},
				},
				Moderators:            management.Results{},
				Developers:            management.Results{"dev@example.com": {Success: true}},
				CollaboratorsToRemove: management.Results{},
			},
		},
		{
			Name: "list",
			Call: func(c *management.Client) (any, error) { return c.Collaborators.List(ctx, "app1") },
			Reply: `{"data":[{"id":"17","name":"Ann","email":"ann@example.com","role":"admin","createdAt":1700000000},
				{"id":18,"email":"dev@example.com","role":"developer","createdAt":"1700000001"}]}`,
			Method: http.MethodGet, Path: "/apps/app1/collaborators",
			Want: []management.Collaborator{
				{ID: "17", Name: "Ann", Email: "ann@example.com", Role: management.RoleAdmin, CreatedAt: 1700000000},
				{ID: "18", Email: "dev@example.com", Role: management.RoleDeveloper, CreatedAt: 1700000001},
			},
		},
	})
}

func TestCollaboratorsValidate(t *testing.T) {
	client, m := wiretest.Management(t)
	ctx := context.Background()
	_, err := client.Collaborators.Update(ctx, "", &management.UpdateCollaboratorsRequest{Admins: []string{"a@example.com"}})
	wiretest.RequireArgError(t, err, "appID")
	_, err = client.Collaborators.Update(ctx, "app", nil)
	wiretest.RequireArgError(t, err, "req")
	_, err = client.Collaborators.Update(ctx, "app", &management.UpdateCollaboratorsRequest{})
	wiretest.RequireArgError(t, err, "req")
	_, err = client.Collaborators.List(ctx, "")
	wiretest.RequireArgError(t, err, "appID")
	assert.Zero(t, m.Calls())
}

func TestResults(t *testing.T) {
	var r management.Results
	require.NoError(t, json.Unmarshal([]byte(`{"b":{"success":false},"a":{"success":"false","message":"no"},"c":{"success":true}}`), &r))
	assert.Equal(t, []string{"a", "b"}, r.Failed(), "sorted; lenient booleans")
	require.NoError(t, json.Unmarshal([]byte(`[]`), &r))
	assert.Empty(t, r)
	require.NoError(t, json.Unmarshal([]byte(`null`), &r))
	assert.Empty(t, r)
	assert.EqualError(t, json.Unmarshal([]byte(`"x"`), &r), "json: cannot unmarshal string into Go value of type map[string]chat.Result")
	assert.Equal(t, chat.Result{Success: true}, management.Results{"k": {Success: true}}["k"])
}

// TestUpdateCollaboratorsRequestValidate holds
// UpdateCollaboratorsRequest.Validate to the check Update runs before
// sending.
func TestUpdateCollaboratorsRequestValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an admin", Value: &management.UpdateCollaboratorsRequest{Admins: []string{"a@example.com"}}},
		{Name: "a removal", Value: &management.UpdateCollaboratorsRequest{CollaboratorsToRemove: []string{"b@example.com"}}},
		{Name: "nobody", Value: &management.UpdateCollaboratorsRequest{}, Field: "req"},
	})
}
