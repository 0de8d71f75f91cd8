package chattest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// A group whose owner is deleted for good passes to its admin who has
// been a member the longest, or, with no admin left, to the app; the uid
// created again owns none of the old owner's groups.
func TestLifecycleDeletedOwnersGroups(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave", "erin")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "club", Name: "Club", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"dave"}}})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "club", &chat.AddMembersRequest{Admins: []string{"carol"}})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "club", &chat.AddMembersRequest{Participants: []string{"bob"}})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "club", &chat.AddMembersRequest{Admins: []string{"erin"}})
	require.NoError(t, err)
	// dave joined first but is no admin; carol, the first admin, is
	// kicked; bob joined before erin and became an admin after her.
	_, err = client.Members.Kick(ctx, "club", "carol")
	require.NoError(t, err)
	_, err = client.Members.ChangeScope(ctx, "club", "bob", &chat.ChangeScopeRequest{Scope: chat.MemberAdmin})
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "solo", Name: "Solo", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"dave"}, Moderators: []string{"bob"}}})
	require.NoError(t, err)

	_, err = client.Users.Delete(ctx, "alice", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)

	club, err := client.Groups.Get(ctx, "club")
	require.NoError(t, err)
	assert.Equal(t, "bob", club.Owner, "the admin who has been a member the longest")
	solo, err := client.Groups.Get(ctx, "solo")
	require.NoError(t, err)
	assert.Equal(t, "app_system", solo.Owner, "no admin left: the app's, as a group created without an owner")

	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Another Alice"})
	require.NoError(t, err)
	for _, guid := range []string{"club", "solo"} {
		g, err := client.Groups.Get(ctx, guid, chat.OnBehalfOf("alice"))
		require.NoError(t, err)
		assert.NotEqual(t, "alice", g.Owner, guid)
		assert.False(t, g.HasJoined, guid)
	}
}
