package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strconv"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleConversationsService_List() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	for _, text := range []string{"Hi Bob", "Lunch?"} {
		if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice")); err != nil {
			log.Fatal(err)
		}
	}

	// Bob's conversations, as Bob sees them.
	page, err := client.Conversations.List(ctx, nil, chat.OnBehalfOf("bob"))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range page.Data {
		with, err := c.User()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s with %s: %d unread, last %q\n", c.ConversationID, with.Name, c.UnreadMessageCount, c.LastMessage.Data.Text)
	}
	// Output:
	// alice_user_bob with Alice: 2 unread, last "Lunch?"
}

func ExampleConversationsService_MarkUserRead() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	var last *chat.Message
	for _, text := range []string{"one", "two", "three"} {
		m, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice"))
		if err != nil {
			log.Fatal(err)
		}
		if text == "two" {
			last = m
		}
	}

	// Bob (the reader) has read Alice's messages up to "two".
	id, err := strconv.ParseInt(last.ID, 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{MessageID: id}); err != nil {
		log.Fatal(err)
	}
	c, err := client.Conversations.GetUser(ctx, "alice", "bob")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.UnreadMessageCount, "unread")
	// Output:
	// 1 unread
}

func ExampleConversationsService_PinUser() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	// A conversation without messages cannot be pinned yet.
	_, err := client.Conversations.PinUser(ctx, "alice", "bob")
	var apiErr *chat.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code)
	}
	if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi"},
	}, chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}
	pin, err := client.Conversations.PinUser(ctx, "alice", "bob")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pin.ConversationID, "pinned by", pin.PinnedBy)
	// Output:
	// ERR_CONVERSATION_NOT_ACCESSIBLE
	// alice_user_bob pinned by bob
}

func ExampleFriendsService_Add() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob", "carol"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}

	res, err := client.Friends.Add(ctx, "alice", &chat.AddFriendsRequest{Accepted: []string{"bob", "carol", "nobody"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Accepted["bob"].Success, res.Accepted["nobody"].Success)

	// Friendship goes both ways.
	for f, err := range client.Friends.All(ctx, "bob", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("bob's friend:", f.UID)
	}
	// Output:
	// true false
	// bob's friend: alice
}

func ExampleBlockedService_Block() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "troll", Name: "Troll"})

	if _, err := client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"troll"}}); err != nil {
		log.Fatal(err)
	}
	page, err := client.Blocked.List(ctx, "alice", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range page.Data {
		fmt.Println(u.UID, u.BlockedByMe)
	}
	// Output:
	// troll true
}

func ExampleRolesService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	role, err := client.Roles.Create(ctx, &chat.CreateRoleRequest{
		Role: "Support", Name: "Support agents",
		Settings: &chat.RoleSettings{ListUsers: chat.AudienceAll, SendMessagesTo: chat.AudienceAll},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(role.Role, role.Name, role.Settings.SendMessagesTo)

	// The default role always exists and cannot be deleted.
	_, err = client.Roles.Delete(ctx, chat.DefaultRole)
	fmt.Println(errors.Is(err, chat.ErrForbidden))
	// Output:
	// support Support agents all
	// true
}

func ExamplePermissionsService_SetRole() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddRole(chat.Role{Role: "guest"})

	res, err := client.Permissions.SetRole(ctx, "guest", &chat.SetPermissionsRequest{Permissions: map[string]any{
		"createGroup":                     "deny",
		"sendMessage.allowedMessageTypes": []string{"text"},
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Results["createGroup"].Success, res.Permissions["createGroup"], res.Permissions["sendMessage.allowedMessageTypes"])
	fmt.Println(res.Permissions["joinGroup"], "(a default)")
	// Output:
	// true deny [text]
	// allow (a default)
}

func ExampleModerationService_CreateReason() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	if _, err := client.Moderation.CreateReason(ctx, &chat.CreateReasonRequest{ID: "spam", Name: "Spam"}); err != nil {
		log.Fatal(err)
	}
	for r, err := range client.Moderation.AllReasons(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.ID, r.Name)
	}
	_, err := client.Moderation.GetReason(ctx, "scam")
	fmt.Println(errors.Is(err, chat.ErrNotFound))
	// Output:
	// spam Spam
	// true
}
