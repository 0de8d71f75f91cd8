package fake

import (
	"strings"
	"testing"

	"github.com/chatrest/chat"
)

// After permanent deletes, the state holds nothing of what was deleted:
// not the text of a message deleted for good, not the messages of a group
// deleted, not the name, metadata, memberships, bans, blocks, friends or
// tokens of a user deleted for good. Whatever renders the state (an
// export, a dashboard, an answer) has nothing of them to show.
func TestLifecycleStateKeepsNothingDeleted(t *testing.T) {
	srv := NewServer()
	t.Cleanup(srv.Close)
	c := srv.Client()
	ctx := t.Context()
	for _, uid := range []string{"alice", "bob"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Users.Create(ctx, &chat.CreateUserRequest{UID: "zed", Name: "Zed Surname-ZZ", Metadata: map[string]any{"home": "Home-ZZ"}}))
	must(c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "grp-zz", Name: "Group-ZZ", Type: chat.GroupPrivate, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"zed", "bob"}}}))
	must(c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "grp-zz", ReceiverType: chat.ReceiverGroup, Category: chat.CategoryMessage,
		Type: chat.MessageTypeText, Data: chat.MessageData{Text: "group text GT-ZZ"}}, chat.OnBehalfOf("bob")))
	must(c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "stays", Name: "Stays", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"zed"}}}))
	must(c.Members.Kick(ctx, "stays", "zed"))
	m, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Category: chat.CategoryMessage,
		Type: chat.MessageTypeText, Data: chat.MessageData{Text: "pair text PT-ZZ"}}, chat.OnBehalfOf("alice"))
	must(m, err)
	must(c.Messages.Update(ctx, m.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "edited text ET-ZZ"}}, chat.OnBehalfOf("alice")))
	must(c.Messages.AddReaction(ctx, m.ID, "R-ZZ", "bob"))
	must(c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "zed", ReceiverType: chat.ReceiverUser, Category: chat.CategoryMessage,
		Type: chat.MessageTypeText, Data: chat.MessageData{Text: "to zed"}}, chat.OnBehalfOf("bob")))
	must(c.Blocked.Block(ctx, "zed", &chat.BlockUsersRequest{BlockedUIDs: []string{"alice"}}))
	must(c.Friends.Add(ctx, "zed", &chat.AddFriendsRequest{Accepted: []string{"bob"}}))
	must(c.AuthTokens.Create(ctx, "zed", nil))

	must(c.Messages.Delete(ctx, m.ID, &chat.DeleteMessageRequest{Permanent: true}, chat.OnBehalfOf("alice")))
	must(c.Groups.Delete(ctx, "grp-zz"))
	must(c.Users.Delete(ctx, "zed", &chat.DeleteUserRequest{Permanent: true}))

	dump := lockedDump(srv)
	for _, gone := range []string{"PT-ZZ", "ET-ZZ", "R-ZZ", "GT-ZZ", "Group-ZZ", "grp-zz", "Surname-ZZ", "Home-ZZ", `"zed"`} {
		if strings.Contains(dump, gone) {
			i := strings.Index(dump, gone)
			t.Errorf("the state still holds %s: ...%s...", gone, dump[max(0, i-300):min(len(dump), i+100)])
		}
	}
	if err := srv.st.checkIndexes(); err != nil {
		t.Error(err)
	}
}
