package chattest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// The websocket's frames obey the access policy as routes do: the typing
// frames of an outsider, of a former member and of a blocked user reach
// no one; a member's do.
func TestPolicyTypingFramesReachOnlyWhoMayBeMessaged(t *testing.T) {
	rt := chattest.NewMemTransport()
	srv, client := start(t, chattest.WithRealtime(rt))
	seed(srv, "alice", "bob", "mallory", "kicked", "dave")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "priv", Name: "Private", Type: chat.GroupPrivate, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob", "kicked"}}})
	require.NoError(t, err)
	_, err = client.Members.Kick(ctx, "priv", "kicked")
	require.NoError(t, err)
	_, err = client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"dave"}})
	require.NoError(t, err)
	alice := online(t, rt, srv, client, "alice", "")
	typing := func(uid, receiver, receiverType string) {
		s := online(t, rt, srv, client, uid, "")
		s.Write(t, map[string]any{"appId": srv.AppID(), "type": "typing_indicator", "receiver": receiver, "receiverType": receiverType,
			"sender": uid, "deviceId": "device-" + uid, "body": map[string]any{"action": "started"}})
	}
	typing("mallory", "priv", "group")
	typing("kicked", "priv", "group")
	typing("dave", "alice", "user")
	typing("bob", "priv", "group") // the last frame alice gets
	f := alice.NextOf(t, "typing_indicator")
	assert.Equal(t, "bob", f["sender"], "the first typing frame alice gets: %v", f)
}
