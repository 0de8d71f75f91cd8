package chattest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func Example() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver:     "bob",
		ReceiverType: chat.ReceiverUser,
		Data:         chat.MessageData{Text: "Hello Bob"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(msg.ID, msg.ConversationID, msg.Sender)

	_, err = client.Users.Get(ctx, "carol")
	fmt.Println(errors.Is(err, chat.ErrNotFound))
	fmt.Println(len(srv.Messages()))
	// Output:
	// 1 alice_user_bob alice
	// true
	// 1
}

func ExampleServer_AddAPIKey() {
	srv := chattest.NewServer()
	defer srv.Close()
	key := srv.AddAPIKey("login", chat.ScopeAuthOnly)
	client := srv.ClientWithAPIKey(string(key.APIKey))

	_, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	fmt.Println(err)
	_, err = client.Users.List(context.Background(), nil)
	fmt.Println(errors.Is(err, chat.ErrUnauthorized))
	// Output:
	// <nil>
	// true
}
