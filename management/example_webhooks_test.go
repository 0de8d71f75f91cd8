package management_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// webhookExampleServer is a fake whose clock stands still, so that the examples
// print the same timestamps on every run.
func webhookExampleServer() *chattest.Server {
	return chattest.NewServer(chattest.WithClock(func() time.Time { return time.Unix(1_700_000_000, 0) }))
}

func ExampleWebhooksService_Create() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient() // management.NewClient(key, secret) in production
	ctx := context.Background()

	hook, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID:           "orders-hook",
		Name:         "Orders",
		URL:          "https://hooks.example.com/chat",
		UseBasicAuth: true,
		Username:     "chat",
		Password:     "s3cretPassw0rd",
		Enabled:      new(true),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(hook.ID, hook.URL, hook.Enabled, hook.CreatedAt.Time().UTC().Format(time.RFC3339))
	// Printing a webhook or a request never shows the password.
	fmt.Println(hook)
	// Output:
	// orders-hook https://hooks.example.com/chat true 2023-11-14T22:13:20Z
	// management.Webhook{ID: "orders-hook", Name: "Orders", URL: "https://hooks.example.com/chat", UseBasicAuth: true, Username: "chat", Password: "", Enabled: true, RetryOnFailure: false, CreatedAt: 1700000000, UpdatedAt: 1700000000}
}

func ExampleWebhooksService_Create_validation() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()

	// Checked before anything is sent: the service needs public HTTPS.
	_, err := mc.Webhooks.Create(context.Background(), srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders-hook", Name: "Orders", URL: "http://hooks.example.com/chat",
	})
	var ae *chat.ArgumentError
	if errors.As(err, &ae) {
		fmt.Println(ae.Name, "-", ae.Problem)
	}
	// Output:
	// req.URL - must use https (plain http only to a loopback host, for tests)
}

func ExampleWebhooksService_List() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	for _, id := range []string{"orders", "audit", "orders-eu"} {
		if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
			ID: id, Name: id + " hook", URL: "https://hooks.example.com/" + id,
		}); err != nil {
			log.Fatal(err)
		}
	}

	page, err := mc.Webhooks.List(ctx, srv.AppID(), &management.ListWebhooksOptions{SearchKey: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range page.Data {
		fmt.Println(h.ID, "->", h.URL)
	}
	fmt.Println("total:", page.Meta.Pagination.Total)
	// Output:
	// orders -> https://hooks.example.com/orders
	// orders-eu -> https://hooks.example.com/orders-eu
	// total: 2
}

func ExampleWebhooksService_Update() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders", Name: "Orders", URL: "https://hooks.example.com/orders",
	}); err != nil {
		log.Fatal(err)
	}

	// Only the fields set are sent: pause the webhook and turn retries on.
	hook, err := mc.Webhooks.Update(ctx, srv.AppID(), "orders", &management.UpdateWebhookRequest{
		Enabled:        new(false),
		RetryOnFailure: new(true),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(hook.Name, "enabled:", hook.Enabled, "retries:", hook.RetryOnFailure)
	// Output:
	// Orders enabled: false retries: true
}

func ExampleWebhooksService_Delete() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders", Name: "Orders", URL: "https://hooks.example.com/orders",
	}); err != nil {
		log.Fatal(err)
	}

	res, err := mc.Webhooks.Delete(ctx, srv.AppID(), "orders")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Message)
	_, err = mc.Webhooks.Get(ctx, srv.AppID(), "orders")
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.StatusCode, ce.Code, errors.Is(err, chat.ErrNotFound))
	}
	// Output:
	// Deleted Webhook successfully.
	// 404 ERR_WEBHOOK_NOT_FOUND true
}

func ExampleWebhooksService_AddTriggers() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()
	ctx := context.Background()
	if _, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders", Name: "Orders", URL: "https://hooks.example.com/orders",
	}); err != nil {
		log.Fatal(err)
	}

	res, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "orders", []webhook.Trigger{"message_sent", "group_created"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res["message_sent"].Success, res["group_created"].Success)

	triggers, err := mc.Webhooks.ListTriggers(ctx, srv.AppID(), "orders")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range triggers {
		fmt.Printf("%s (%s)\n", t.ID, t.Category)
	}

	// An unknown trigger id is refused.
	_, err = mc.Webhooks.AddTriggers(ctx, srv.AppID(), "orders", []webhook.Trigger{"message_sent_twice"})
	var ce *chat.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Code)
	}
	// Output:
	// true true
	// message_sent (messages)
	// group_created (groups)
	// ERR_TRIGGER_NOT_FOUND
}

func ExampleWithWebhookVersion() {
	srv := webhookExampleServer()
	defer srv.Close()
	mc := srv.ManagementClient()

	// Work on the new webhook implementation: every call sends
	// X-Webhook-Version: 2. Without the option, the legacy one is used.
	hook, err := mc.Webhooks.Create(context.Background(), srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders", Name: "Orders", URL: "https://hooks.example.com/orders",
	}, management.WithWebhookVersion(2))
	if err != nil {
		log.Fatal(err)
	}
	reqs := srv.Requests()
	fmt.Println(hook.ID, reqs[len(reqs)-1].Header.Get("X-Webhook-Version"))
	// Output:
	// orders 2
}
