package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// The examples run against chattest, the in-memory fake of the API; with a
// real app, build the client with chat.NewClient(appID, apiKey) instead.

func ExampleNewClient() {
	client, err := chat.NewClient("my-app", "your-rest-api-key", chat.WithRegion(chat.RegionEU))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client.BaseURL())
	fmt.Println(client.CallsBaseURL())

	_, err = chat.NewClient("my.app", "your-rest-api-key")
	fmt.Println(err)
	// Output:
	// https://my-app.api-eu.cometchat.io/v3
	// https://my-app.call-eu.cometchat.io/v3
	// chat: invalid argument appID: may only contain letters, digits and hyphens
}

func ExampleMessagesService_SendThread() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	parent, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Can you review the report?"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}

	// Bob replies in the thread of Alice's message.
	reply, err := client.Messages.SendThread(ctx, parent.ID, "bob", &chat.SendMessageRequest{
		Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "On it."},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s replied in the thread of %s: %s\n", reply.Sender, reply.ParentID, reply.Data.Text)
	// Output:
	// bob replied in the thread of 1: On it.
}

func ExampleMessagesService_Send() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver:     "bob",
		ReceiverType: chat.ReceiverUser,
		Data:         chat.MessageData{Text: "Hello Bob", Metadata: map[string]any{"priority": "high"}},
		Tags:         []string{"greeting"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	sender, err := msg.Data.Entities.Sender.User()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.ID, msg.ConversationID, msg.Category, msg.Type)
	fmt.Println(sender.Name, "says", msg.Data.Text, msg.Data.Metadata["priority"], msg.Tags)
	// Output:
	// 1 alice_user_bob message text
	// Alice says Hello Bob high [greeting]
}

func ExampleMessagesService_AllThreadMessages() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	parent, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Plans?"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	for i, text := range []string{"Lunch", "Then a walk", "Then code"} {
		from, to := "bob", "alice"
		if i%2 == 1 {
			from, to = to, from
		}
		if _, err := client.Messages.SendThread(ctx, parent.ID, from, &chat.SendMessageRequest{
			Receiver: to, ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}); err != nil {
			log.Fatal(err)
		}
	}

	// Two replies per page: the iterator follows meta.next.
	opts := &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 2}}
	for m, err := range client.Messages.AllThreadMessages(ctx, parent.ID, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", m.Sender, m.Data.Text)
	}
	// Output:
	// bob: Lunch
	// alice: Then a walk
	// bob: Then code
}

func ExampleUsersService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	u, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{
		UID:      "Cometchat-UID-1", // the service lower-cases UIDs
		Name:     "Andrew Joseph",
		Metadata: map[string]any{"department": "sales"},
		Tags:     []string{"vip"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.UID, u.Name, u.Role, u.Tags, u.Metadata["department"])
	// Output:
	// cometchat-uid-1 Andrew Joseph default [vip] sales
}

// A signup handler creates the user on the first signup and updates it on
// the next ones, then mints the token the user's client logs in with.
func ExampleUsersService_Upsert() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	for _, name := range []string{"Ann", "Ann Lee"} {
		u, err := client.Users.Upsert(ctx, &chat.CreateUserRequest{UID: "ann", Name: name})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u.UID, u.Name)
	}
	tok, err := client.AuthTokens.Create(ctx, "ann", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tok.UID, tok.AuthToken)
	// Output:
	// ann Ann
	// ann Ann Lee
	// ann REDACTED
}

func ExampleUsersService_All() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	for _, uid := range []string{"ann", "ben", "cat", "dan", "eve"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}

	// Two users per page; the iterator fetches pages as it goes.
	opts := &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}}
	for u, err := range client.Users.All(context.Background(), opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(u.UID, " ")
	}
	fmt.Println()
	// Output:
	// ann ben cat dan eve
}

func ExampleAuthTokensService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	token, err := client.AuthTokens.Create(context.Background(), "alice", nil)
	if err != nil {
		log.Fatal(err)
	}
	// Hand string(token.AuthToken) to Alice's client so it can log in.
	// Printing the token, or the Secret itself, never shows the value.
	fmt.Println(token.UID, token.AuthToken != "")
	fmt.Println(token.AuthToken)
	// Output:
	// alice true
	// REDACTED
}

func ExampleAPIKeysService_Create() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	key, err := client.APIKeys.Create(context.Background(), &chat.CreateAPIKeyRequest{Name: "login service", Scope: chat.ScopeAuthOnly})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(key.Name, key.Scope, len(key.APIKey))
	// Output:
	// login service authOnly 40
}

func ExampleError() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	_, err := client.Users.Get(context.Background(), "nobody")
	var apiErr *chat.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.Method, apiErr.Path)
	}
	fmt.Println(errors.Is(err, chat.ErrNotFound))
	// Output:
	// 404 ERR_UID_NOT_FOUND GET /v3/users/nobody
	// true
}

func ExampleOnBehalfOf() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	// Send is one of the operations where acting as a user is optional.
	msg, err := client.Messages.Send(context.Background(), &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Sender)
	// Output:
	// alice
}
