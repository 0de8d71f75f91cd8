package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleGroupsService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob", "carol"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}

	// Alice creates the group and adds Bob as a moderator and Carol as a
	// participant in the same call.
	group, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{
		GUID: "project-x",
		Name: "Project X",
		Type: chat.GroupPrivate,
		Tags: []string{"work"},
		Members: &chat.AddMembersRequest{
			Moderators:   []string{"bob"},
			Participants: []string{"carol"},
		},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(group.GUID, group.Owner, group.Scope, group.MembersCount, group.ConversationID)
	// Output:
	// project-x alice admin 3 group_project-x
}

func ExampleGroupsService_All() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddGroup(chat.Group{GUID: "announcements", Name: "Announcements", CreatedAt: 1}, "alice")
	srv.AddGroup(chat.Group{GUID: "book-club", Name: "Book club", CreatedAt: 2}, "alice")
	srv.AddGroup(chat.Group{GUID: "chess", Name: "Chess", CreatedAt: 3})

	// The groups Alice has joined, sorted by name, 1 per page.
	opts := &chat.ListGroupsOptions{
		PageOptions: chat.PageOptions{PerPage: 1},
		SortBy:      chat.GroupSortByName,
		HasJoined:   true,
	}
	for group, err := range client.Groups.All(ctx, opts, chat.OnBehalfOf("alice")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(group.Name, group.Scope)
	}
	// Output:
	// Announcements participant
	// Book club participant
}

func ExampleMembersService_Add() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob", "carol"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Owner: "alice"})

	resp, err := client.Members.Add(ctx, "team", &chat.AddMembersRequest{
		Admins:       []string{"bob"},
		Participants: []string{"carol", "alice", "dave"},
	})
	if err != nil {
		log.Fatal(err)
	}
	// One user failing does not fail the call: each has a result.
	for _, uid := range []string{"carol", "alice", "dave"} {
		if r := resp.Participants[uid]; r.Success {
			fmt.Println(uid, "added")
		} else {
			fmt.Println(uid, r.Error.Code)
		}
	}

	for m, err := range client.Members.All(ctx, "team", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.UID, m.Scope)
	}
	// Output:
	// carol added
	// alice ERR_ALREADY_JOINED
	// dave ERR_UID_NOT_FOUND
	// alice admin
	// bob admin
	// carol participant
}

func ExampleMembersService_ChangeScope() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob", "carol"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Owner: "alice"}, "bob:moderator", "carol")

	// Alice, an admin, makes Carol a moderator.
	change, err := client.Members.ChangeScope(ctx, "team", "carol",
		&chat.ChangeScopeRequest{Scope: chat.MemberModerator}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(change.UID, change.Scope)

	// Bob, a moderator, cannot kick Alice, the owner.
	_, err = client.Members.Kick(ctx, "team", "alice", chat.OnBehalfOf("bob"))
	var apiErr *chat.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code, errors.Is(err, chat.ErrForbidden))
	}
	// Output:
	// carol moderator
	// ERR_GROUP_NO_SCOPE_CLEARANCE true
}

func ExampleBansService_Ban() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"alice", "mallory"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team", Owner: "alice"}, "mallory")

	if _, err := client.Bans.Ban(ctx, "team", "mallory", chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}
	for u, err := range client.Bans.All(ctx, "team", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("banned:", u.UID)
	}

	// A banned user cannot be added back until unbanned.
	resp, err := client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"mallory"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Participants["mallory"].Error.Code)

	if _, err := client.Bans.Unban(ctx, "team", "mallory"); err != nil {
		log.Fatal(err)
	}
	resp, err = client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"mallory"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Participants["mallory"].Success)
	// Output:
	// banned: mallory
	// ERR_BANNED_GROUPMEMBER
	// true
}
