package chattest_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// The whole loop: a receiver built with package webhook, a webhook created
// through the management API, a message sent through the chat API, and the
// typed event the receiver gets.
func ExampleServer_Deliveries() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	ctx := context.Background()

	// Your receiver, here on an httptest server: the fake delivers to
	// loopback addresses only.
	events := make(chan webhook.Event, 1)
	recv := httptest.NewServer(webhook.NewHandler(
		&webhook.Verifier{Username: "chat", Password: "s3cretPassw0rd"},
		func(_ context.Context, ev webhook.Event) error { events <- ev; return nil },
	))
	defer recv.Close()

	mc := srv.ManagementClient()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "inbox", Name: "Inbox", URL: recv.URL, UseBasicAuth: true, Username: "chat", Password: "s3cretPassw0rd",
	}); err != nil {
		log.Fatal(err)
	}
	if _, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "inbox", []webhook.Trigger{"message_sent"}); err != nil {
		log.Fatal(err)
	}

	if _, err := srv.Client().Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi Bob"},
	}, chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}

	if ev, ok := (<-events).(*webhook.MessageEvent); ok {
		fmt.Printf("%s: %s -> %s %q\n", ev.Trigger(), ev.Message.Sender, ev.Message.Receiver, ev.Message.Data.Text)
	}
	// Wait for the fake to record the outcome, then inspect it.
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := srv.AwaitDeliveries(wait, 1); err != nil {
		log.Fatal(err)
	}
	for _, d := range srv.Deliveries() {
		fmt.Println(d.Trigger, d.WebhookID, d.State, d.StatusCode, d.Attempts)
	}
	// Output:
	// message_sent: alice -> bob "Hi Bob"
	// message_sent inbox delivered 200 1
}

// A receiver that refuses the delivery: the fake records the failure, and
// retries it when the webhook has retryOnFailure.
func ExampleServer_AwaitDeliveries() {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	ctx := context.Background()

	recv := httptest.NewServer(webhook.NewHandler(&webhook.Verifier{Username: "chat", Password: "theRightOne"}, nil))
	defer recv.Close()
	mc := srv.ManagementClient()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "inbox", Name: "Inbox", URL: recv.URL, UseBasicAuth: true, Username: "chat", Password: "notTheRightOne",
		RetryOnFailure: true,
	}); err != nil {
		log.Fatal(err)
	}
	if _, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "inbox", []webhook.Trigger{"message_sent"}); err != nil {
		log.Fatal(err)
	}
	if _, err := srv.Client().Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi"},
	}, chat.OnBehalfOf("alice")); err != nil {
		log.Fatal(err)
	}

	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := srv.AwaitDeliveries(wait, 1); err != nil {
		log.Fatal(err)
	}
	d := srv.Deliveries()[0]
	fmt.Println(d.State, d.StatusCode, "after", d.Attempts, "attempts")
	// Output:
	// failed 401 after 4 attempts
}

// Fire delivers triggers the fake cannot produce itself, such as campaign
// and notification events.
func ExampleServer_Fire() {
	srv := chattest.NewServer()
	defer srv.Close()
	ctx := context.Background()

	events := make(chan webhook.Event, 1)
	recv := httptest.NewServer(webhook.NewHandler(&webhook.Verifier{Unauthenticated: true},
		func(_ context.Context, ev webhook.Event) error { events <- ev; return nil }))
	defer recv.Close()
	mc := srv.ManagementClient()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "campaigns", Name: "Campaigns", URL: recv.URL}); err != nil {
		log.Fatal(err)
	}
	if _, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "campaigns", []webhook.Trigger{"after_campaign_completed"}); err != nil {
		log.Fatal(err)
	}

	if err := srv.Fire("after_campaign_completed", map[string]any{
		"campaignId": "spring-sale", "name": "Spring sale", "status": "completed", "sentCount": 1200,
	}); err != nil {
		log.Fatal(err)
	}
	if ev, ok := (<-events).(*webhook.CampaignEvent); ok {
		fmt.Println(ev.Trigger(), ev.CampaignID, ev.Status, ev.SentCount)
	}
	// Output:
	// after_campaign_completed spring-sale completed 1200
}
