package chat_test

import (
	"context"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// An exporter writes users until it is stopped, keeping the count it
// wrote; the next run resumes after them.
func ExamplePageOptions_ResumeAt() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	for _, uid := range []string{"ann", "ben", "cat", "dan", "eve"} {
		srv.AddUser(chat.User{UID: uid, Name: uid})
	}

	opts := &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}}
	written := 0
	for u, err := range client.Users.All(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("first run:", u.UID)
		if written++; written == 3 {
			break // stopped
		}
	}

	opts.ResumeAt(written)
	for u, err := range client.Users.All(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("second run:", u.UID)
	}
	// Output:
	// first run: ann
	// first run: ben
	// first run: cat
	// second run: dan
	// second run: eve
}

// An exporter keeps the id of the last message it wrote; the next run
// resumes after it.
func ExampleCursorOptions_ResumeAfter() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	for _, text := range []string{"one", "two", "three", "four"} {
		if _, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice")); err != nil {
			log.Fatal(err)
		}
	}

	opts := &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 3}}
	var last string
	for m, err := range client.Messages.All(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("first run:", m.Data.Text)
		if last = m.ID; m.Data.Text == "two" {
			break // stopped
		}
	}

	opts.ResumeAfter(last)
	for m, err := range client.Messages.All(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("second run:", m.Data.Text)
	}
	// Output:
	// first run: one
	// first run: two
	// second run: three
	// second run: four
}
