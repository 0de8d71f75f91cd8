package chattest_test

import (
	"context"
	"fmt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleServer_AddGroup() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	srv.AddUser(chat.User{UID: "carol", Name: "Carol"})

	// Alice owns the group (and is its admin); Bob is a moderator and Carol
	// a participant.
	g := srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Owner: "alice"}, "bob:moderator", "carol")
	fmt.Println(g.GUID, g.Owner, g.MembersCount)

	group, err := srv.Client().Groups.Get(context.Background(), "team", chat.OnBehalfOf("bob"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(group.Scope, group.HasJoined)
	// Output:
	// team alice 3
	// moderator true
}
