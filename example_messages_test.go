package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// newExampleServer starts a fake with alice and bob, and returns it with a
// client.
func newExampleServer() (*chattest.Server, *chat.Client) {
	srv := chattest.NewServer()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	return srv, srv.Client()
}

func ExampleMessagesService_Update() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "helo"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}

	// The answer is the "edited" action message; Target is the message.
	action, err := client.Messages.Update(ctx, msg.ID, &chat.UpdateMessageRequest{
		Data: chat.MessageData{Text: "hello"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	edited, err := action.Target()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(action.Category, action.Data.Action)
	fmt.Printf("%q edited by %s\n", edited.Data.Text, edited.EditedBy)
	// Output:
	// action edited
	// "hello" edited by alice
}

func ExampleMessagesService_All() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	for _, text := range []string{"one", "two", "three", "four", "five"} {
		_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text},
		}, chat.OnBehalfOf("alice"))
		if err != nil {
			log.Fatal(err)
		}
	}

	// All fetches pages of two as needed, newest first.
	opts := &chat.ListMessagesOptions{
		CursorOptions: chat.CursorOptions{Limit: 2, Direction: chat.DirectionBefore},
		SearchKey:     "o",
	}
	for msg, err := range client.Messages.All(ctx, opts, chat.OnBehalfOf("bob")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(msg.ID, msg.Data.Text)
	}
	// Output:
	// 4 four
	// 2 two
	// 1 one
}

func ExampleMessagesService_AddReaction() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Lunch at noon?"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Messages.AddReaction(ctx, msg.ID, "👍", "alice"); err != nil {
		log.Fatal(err)
	}
	msg, err = client.Messages.AddReaction(ctx, msg.ID, "👍", "bob")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range msg.Data.Reactions {
		fmt.Println(r.Reaction, r.Count, *r.ReactedByMe)
	}
	for r, err := range client.Messages.AllReactionsFor(ctx, msg.ID, "👍", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.ReactedBy.Name)
	}
	// Output:
	// 👍 2 true
	// Alice
	// Bob
}

func ExampleMessagesService_Pin() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "The wifi password is on the fridge."},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}

	// Without OnBehalfOf the app pins; Save is per user.
	pinned, err := client.Messages.Pin(ctx, msg.ID)
	if err != nil {
		log.Fatal(err)
	}
	saved, err := client.Messages.Save(ctx, msg.ID, "bob")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pinned by", pinned.PinnedBy)
	fmt.Println("saved by bob:", !saved.SavedAt.IsZero())
	// Output:
	// pinned by app_system
	// saved by bob: true
}

func ExampleMessagesService_AllThreads() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	srv.AddGroup(chat.Group{GUID: "team", Name: "Team"}, "alice", "bob")
	for _, topic := range []string{"Release plan", "Offsite"} {
		parent, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: topic},
		}, chat.OnBehalfOf("alice"))
		if err != nil {
			log.Fatal(err)
		}
		_, err = client.Messages.SendThread(ctx, parent.ID, "bob", &chat.SendMessageRequest{
			Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "Noted."},
		})
		if err != nil {
			log.Fatal(err)
		}
	}

	opts := &chat.ListThreadsOptions{ParticipatedByMe: true}
	for thread, err := range client.Messages.AllThreads(ctx, opts, chat.OnBehalfOf("bob")) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d reply, last %q\n", thread.Data.Text, thread.ReplyCount, thread.LastReply.Data.Text)
	}
	// Output:
	// Release plan: 1 reply, last "Noted."
	// Offsite: 1 reply, last "Noted."
}

func ExampleMessagesService_SendAsBot() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "survey-bot", Name: "Survey Bot"})

	form, err := client.Messages.SendAsBot(ctx, "survey-bot", &chat.SendMessageRequest{
		Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Category: chat.CategoryInteractive, Type: chat.MessageTypeForm,
		Data: chat.MessageData{
			InteractionGoal: &chat.InteractionGoal{Type: chat.GoalAllOf, ElementIDs: []string{"rating", "submit"}},
			InteractiveData: &chat.InteractiveData{
				Title: "How was the onboarding?",
				FormFields: []chat.InteractiveElement{{
					ElementType: chat.ElementSingleSelect, ElementID: "rating", Label: "Rating",
					Options: []chat.ElementOption{{Value: "good", Label: "Good"}, {Value: "bad", Label: "Bad"}},
				}},
				SubmitElement: &chat.InteractiveElement{
					ElementType: chat.ElementButton, ElementID: "submit", ButtonText: "Send",
					Action: &chat.ButtonAction{ActionType: chat.ActionTypeAPI, URL: "https://example.com/survey", Method: "POST"},
				},
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	// Alice fills the form in.
	if _, err := client.Messages.MarkInteracted(ctx, form.ID, "alice", &chat.MarkInteractedRequest{
		Interactions: []string{"rating", "submit"},
	}); err != nil {
		log.Fatal(err)
	}
	seen, err := client.Messages.Get(ctx, form.ID, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(seen.Sender, seen.Type, seen.Data.InteractiveData.Title)
	for _, i := range seen.Data.Interactions {
		fmt.Println("interacted with", i.ElementID)
	}
	// Output:
	// survey-bot form How was the onboarding?
	// interacted with rating
	// interacted with submit
}

// Custom interactive content has no typed fields: send it, and read it
// back, through Raw.
func ExampleInteractiveData() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()

	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Category: chat.CategoryInteractive, Type: chat.MessageTypeCustomInteractive,
		Data: chat.MessageData{InteractiveData: &chat.InteractiveData{
			Raw: json.RawMessage(`{"widget":"stars","max":5}`),
		}},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	var widget struct {
		Widget string `json:"widget"`
		Max    int    `json:"max"`
	}
	if err := json.Unmarshal(msg.Data.InteractiveData.Raw, &widget); err != nil {
		log.Fatal(err)
	}
	fmt.Println(widget.Widget, widget.Max)
	// Output:
	// stars 5
}

func ExampleMessagesService_Flag() {
	srv, client := newExampleServer()
	defer srv.Close()
	ctx := context.Background()
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Buy followers now!"},
	}, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	// The reason must exist: create it once for the app.
	if _, err := client.Moderation.CreateReason(ctx, &chat.CreateReasonRequest{ID: "spam", Name: "Spam"}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Messages.Flag(ctx, msg.ID, "bob", &chat.FlagMessageRequest{ReasonID: "spam", Remark: "an ad"}); err != nil {
		log.Fatal(err)
	}
	for _, f := range srv.MessageFlags(msg.ID) {
		fmt.Println(f.UID, f.ReasonID, f.Remark)
	}
	// Output:
	// bob spam an ad
}
