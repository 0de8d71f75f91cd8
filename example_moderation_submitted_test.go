package chat_test

import (
	"context"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleModerationService_SubmitMessage() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	if _, err := client.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{
		ID: "spam-words", Category: chat.KeywordWord, SearchTerms: []string{"casino"},
	}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Moderation.CreateRule(ctx, spamRule); err != nil {
		log.Fatal(err)
	}

	// Messages of a chat the app runs elsewhere get the verdict of the
	// app's rules; the users are created from their details.
	alice := &chat.UserDetails{UID: "alice", Name: "Alice"}
	bob := &chat.UserDetails{UID: "bob", Name: "Bob"}
	for _, text := range []string{"See you at lunch", "Win at the casino!"} {
		m, err := client.Moderation.SubmitMessage(ctx, &chat.SubmitMessageRequest{
			Sender: "alice", Receiver: "bob", ReceiverType: chat.ReceiverUser,
			Data:              chat.MessageData{Text: text},
			SenderUserDetails: alice, ReceiverUserDetails: bob,
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %q: %s\n", m.ID, text, m.Data.Moderation.Status)
	}

	// The messages awaiting the app's review.
	for m, err := range client.Moderation.AllSubmittedMessages(ctx, &chat.ListSubmittedMessagesOptions{ModerationStatus: "pending"}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("pending:", m.ID, "rule", m.Data.Moderation.Rule.ID)
	}
	// Output:
	// 1 "See you at lunch": approved
	// 2 "Win at the casino!": pending
	// pending: 2 rule no-spam
}
