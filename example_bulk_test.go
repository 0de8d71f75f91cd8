package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleUsersService_BulkCreate() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "carol", Name: "Carol"})
	// With a limiter, any number of users go at the pace of the app's core
	// budget, without 429s.
	client := srv.Client(chat.WithLimiter(chat.NewRateLimiter(chat.RateLimits{})))

	users := []chat.CreateUserRequest{
		{UID: "alice", Name: "Alice"},
		{UID: "bob", Name: "Bob"},
		{UID: "carol", Name: "Carol"},
	}
	var last chat.BulkProgress
	results, err := client.Users.BulkCreate(context.Background(), users, &chat.BulkOptions{
		Concurrency: 4,
		Progress:    func(p chat.BulkProgress) { last = p },
	})
	if err != nil {
		log.Fatal(err) // the context ended, or the API key is wrong
	}
	for _, r := range results {
		switch {
		case r.Err == nil:
			fmt.Println("created", r.Data.UID)
		case errors.Is(r.Err, chat.ErrConflict):
			fmt.Println(r.Key, "exists already")
		default:
			fmt.Println(r.Key, "failed:", r.Err)
		}
	}
	fmt.Printf("%d of %d created\n", last.Succeeded, last.Total)
	// Output:
	// created alice
	// created bob
	// carol exists already
	// 2 of 3 created
}

func ExampleUsersService_BulkUpdate() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	client := srv.Client()

	results, err := client.Users.BulkUpdate(context.Background(), []chat.UserUpdate{
		{UID: "alice", Request: chat.UpdateUserRequest{Role: "default", Tags: []string{"beta"}}},
		{UID: "bob", Request: chat.UpdateUserRequest{Tags: []string{"beta"}}},
		{UID: "zoe", Request: chat.UpdateUserRequest{Tags: []string{"beta"}}},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		if r.Err != nil {
			fmt.Println(r.Key, "not updated, not found:", errors.Is(r.Err, chat.ErrNotFound))
			continue
		}
		fmt.Println(r.Data.UID, r.Data.Tags)
	}
	// Output:
	// alice [beta]
	// bob [beta]
	// zoe not updated, not found: true
}

func ExampleMembersService_BulkAdd() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "owner", Name: "Owner"})
	members := []chat.MemberToAdd{{UID: "lead", Scope: chat.MemberAdmin}}
	for i := range 60 {
		uid := fmt.Sprintf("user-%02d", i)
		srv.AddUser(chat.User{UID: uid, Name: uid})
		members = append(members, chat.MemberToAdd{UID: uid})
	}
	srv.AddUser(chat.User{UID: "lead", Name: "Lead"})
	srv.AddGroup(chat.Group{GUID: "all-hands", Name: "All hands", Owner: "owner"}, "user-07")
	client := srv.Client()

	// 61 users: three calls of at most 25, sent at once.
	results, err := client.Members.BulkAdd(context.Background(), "all-hands", members, nil)
	if err != nil {
		log.Fatal(err)
	}
	added := 0
	for _, r := range results {
		if r.Err != nil {
			fmt.Println(r.Err)
			continue
		}
		added++
	}
	fmt.Println("added", added)
	fmt.Println("calls", srv.RequestCount("POST /v3/groups/{guid}/members"))
	// Output:
	// chat: user user-07 not added: ERR_ALREADY_JOINED: The user user-07 is already a member of the group all-hands.
	// added 60
	// calls 3
}
