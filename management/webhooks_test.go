package management_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// hookPassword is a webhook password shaped so that a leak is recognisable.
const hookPassword = "hookpw7q2x9z"

func TestWebhooksWire(t *testing.T) {
	ctx := context.Background()
	hook := &management.Webhook{ID: "orders_hook", Name: "Orders", URL: "https://example.com/hooks", UseBasicAuth: true,
		Username: "cc", Enabled: true, CreatedAt: 1684141151, UpdatedAt: 1684145021}
	const hookJSON = `{"id":"orders_hook","name":"Orders","webhookURL":"https://example.com/hooks","useBasicAuth":true,
		"username":"cc","enabled":true,"createdAt":1684141151,"updatedAt":1684145021}`
	noVersion := func(t *testing.T, r wiretest.Request, got any) {
		assert.Empty(t, r.Header.Values("X-Webhook-Version"), "X-Webhook-Version header")
		assert.Equal(t, hook, got)
	}
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "Create with version 2",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Create(ctx, "app 1", &management.CreateWebhookRequest{
					ID: "orders_hook", Name: "Orders", URL: "https://example.com/hooks", UseBasicAuth: true,
					Username: "cc", Password: hookPassword, Enabled: new(true), RetryOnFailure: true,
				}, management.WithWebhookVersion(2))
			},
			Reply:  `{"data":` + hookJSON + `}`,
			Method: http.MethodPost, Path: "/apps/app%201/webhooks",
			Header: map[string]string{"X-Webhook-Version": "2"},
			Body: `{"id":"orders_hook","name":"Orders","webhookURL":"https://example.com/hooks","useBasicAuth":true,
				"username":"cc","password":"` + hookPassword + `","enabled":true,"retryOnFailure":true}`,
			Want: hook,
		},
		{
			Name: "Create with defaults sends only the required fields and no version",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Create(ctx, "app1", &management.CreateWebhookRequest{
					ID: "orders_hook", Name: "Orders", URL: "http://127.0.0.1:8080/hooks",
				})
			},
			Reply:  `{"data":` + hookJSON + `}`,
			Method: http.MethodPost, Path: "/apps/app1/webhooks",
			Body:  `{"id":"orders_hook","name":"Orders","webhookURL":"http://127.0.0.1:8080/hooks"}`,
			Check: noVersion,
		},
		{
			Name: "Create sends enabled false",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Create(ctx, "app1", &management.CreateWebhookRequest{
					ID: "h1", Name: "H", URL: "https://example.com/h", Enabled: new(false),
				})
			},
			Reply:  `{"data":{"id":"h1","name":"H","webhookURL":"https://example.com/h","enabled":false}}`,
			Method: http.MethodPost, Path: "/apps/app1/webhooks",
			Body: `{"id":"h1","name":"H","webhookURL":"https://example.com/h","enabled":false}`,
			Want: &management.Webhook{ID: "h1", Name: "H", URL: "https://example.com/h"},
		},
		{
			Name: "List with options",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.List(ctx, "app1", &management.ListWebhooksOptions{PerPage: 10, SearchKey: "ord ers"})
			},
			Reply:  `{"data":[` + hookJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":10,"current_page":1,"total_pages":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/webhooks", Query: "perPage=10&searchKey=ord+ers",
			Want: &chat.Page[management.Webhook]{Data: []management.Webhook{*hook},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 10, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			Name:   "List without options, string timestamps",
			Call:   func(c *management.Client) (any, error) { return c.Webhooks.List(ctx, "app1", nil) },
			Reply:  `{"data":[{"id":"h1","createdAt":"1684141151"}]}`,
			Method: http.MethodGet, Path: "/apps/app1/webhooks",
			Want: &chat.Page[management.Webhook]{Data: []management.Webhook{{ID: "h1", CreatedAt: 1684141151}}},
		},
		{
			Name: "Get escapes the ids",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Get(ctx, "app/1", "a b", management.WithWebhookVersion(2))
			},
			Reply:  `{"data":` + hookJSON + `}`,
			Method: http.MethodGet, Path: "/apps/app%2F1/webhooks/a%20b",
			Header: map[string]string{"X-Webhook-Version": "2"},
			Want:   hook,
		},
		{
			Name: "Get with the version removed again",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Get(ctx, "app1", "orders_hook", management.WithWebhookVersion(2), management.WithWebhookVersion(0))
			},
			Reply:  `{"data":` + hookJSON + `}`,
			Method: http.MethodGet, Path: "/apps/app1/webhooks/orders_hook",
			Check: noVersion,
		},
		{
			Name: "Update sends only the set fields, false included",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.Update(ctx, "app1", "orders_hook", &management.UpdateWebhookRequest{
					Name: new("Orders"), Enabled: new(false), RetryOnFailure: new(true), Password: new(chat.Secret(hookPassword)),
				}, management.WithWebhookVersion(3), management.WithWebhookVersion(2))
			},
			Reply:  `{"data":` + hookJSON + `}`,
			Method: http.MethodPut, Path: "/apps/app1/webhooks/orders_hook",
			Header: map[string]string{"X-Webhook-Version": "2"},
			Body:   `{"name":"Orders","enabled":false,"retryOnFailure":true,"password":"` + hookPassword + `"}`,
			Want:   hook,
		},
		{
			Name:   "Delete",
			Call:   func(c *management.Client) (any, error) { return c.Webhooks.Delete(ctx, "app1", "orders_hook") },
			Reply:  `{"data":{"success":true,"message":"Deleted Webhook successfully."}}`,
			Method: http.MethodDelete, Path: "/apps/app1/webhooks/orders_hook",
			Want: &chat.Result{Success: true, Message: "Deleted Webhook successfully."},
		},
		{
			Name: "AddTriggers",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.AddTriggers(ctx, "app1", "orders_hook", []webhook.Trigger{"message_sent", "group_created"}, management.WithWebhookVersion(2))
			},
			Reply: `{"data":{"message_sent":{"success":true,"message":"Triggers has been added successfully."},
				"group_created":{"success":true,"message":"Triggers has been added successfully."}}}`,
			Method: http.MethodPost, Path: "/apps/app1/webhooks/orders_hook/triggers",
			Header: map[string]string{"X-Webhook-Version": "2"},
			Body:   `{"triggerIds":["message_sent","group_created"]}`,
			Want: map[string]chat.Result{
				"message_sent":  {Success: true, Message: "Triggers has been added successfully."},
				"group_created": {Success: true, Message: "Triggers has been added successfully."},
			},
		},
		{
			Name:   "ListTriggers",
			Call:   func(c *management.Client) (any, error) { return c.Webhooks.ListTriggers(ctx, "app1", "orders_hook") },
			Reply:  `{"data":[{"id":"message_sent","category":"messages","description":"[Beta] A message is sent."}],"meta":{"pagination":{"total":1}}}`,
			Method: http.MethodGet, Path: "/apps/app1/webhooks/orders_hook/triggers",
			Want: []management.Trigger{{ID: "message_sent", Category: "messages", Description: "[Beta] A message is sent."}},
		},
		{
			Name: "RemoveTriggers sends the ids in the body",
			Call: func(c *management.Client) (any, error) {
				return c.Webhooks.RemoveTriggers(ctx, "app1", "orders_hook", []webhook.Trigger{"message_sent"})
			},
			Reply:  `{"data":{"success":true,"message":"Removed trigger successfully."}}`,
			Method: http.MethodDelete, Path: "/apps/app1/webhooks/orders_hook/triggers",
			Body: `{"triggerIds":["message_sent"]}`,
			Want: &chat.Result{Success: true, Message: "Removed trigger successfully."},
		},
	})
}

func TestWebhooksValidate(t *testing.T) {
	ctx := context.Background()
	valid := func() *management.CreateWebhookRequest {
		return &management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h"}
	}
	with := func(change func(r *management.CreateWebhookRequest)) *management.CreateWebhookRequest {
		r := valid()
		change(r)
		return r
	}
	create := func(r *management.CreateWebhookRequest) func(c *management.Client) error {
		return func(c *management.Client) error { _, err := c.Webhooks.Create(ctx, "app1", r); return err }
	}
	update := func(r *management.UpdateWebhookRequest) func(c *management.Client) error {
		return func(c *management.Client) error { _, err := c.Webhooks.Update(ctx, "app1", "h1", r); return err }
	}
	for _, tt := range []struct {
		name string
		call func(c *management.Client) error
		arg  string
	}{
		{"create without app", func(c *management.Client) error { _, err := c.Webhooks.Create(ctx, "", valid()); return err }, "appID"},
		{"create nil request", create(nil), "req"},
		{"create without id", create(with(func(r *management.CreateWebhookRequest) { r.ID = "" })), "req.ID"},
		{"create id of 51", create(with(func(r *management.CreateWebhookRequest) { r.ID = strings.Repeat("a", 51) })), "req.ID"},
		{"create id with a space", create(with(func(r *management.CreateWebhookRequest) { r.ID = "my hook" })), "req.ID"},
		{"create id with a slash", create(with(func(r *management.CreateWebhookRequest) { r.ID = "a/b" })), "req.ID"},
		{"create without name", create(with(func(r *management.CreateWebhookRequest) { r.Name = "" })), "req.Name"},
		{"create name of 51", create(with(func(r *management.CreateWebhookRequest) { r.Name = strings.Repeat("é", 51) })), "req.Name"},
		{"create without URL", create(with(func(r *management.CreateWebhookRequest) { r.URL = "" })), "req.URL"},
		{"create relative URL", create(with(func(r *management.CreateWebhookRequest) { r.URL = "/hooks" })), "req.URL"},
		{"create plain http", create(with(func(r *management.CreateWebhookRequest) { r.URL = "http://example.com/h" })), "req.URL"},
		{"create ftp URL", create(with(func(r *management.CreateWebhookRequest) { r.URL = "ftp://example.com/h" })), "req.URL"},
		{"create URL of 256", create(with(func(r *management.CreateWebhookRequest) {
			r.URL = "https://example.com/" + strings.Repeat("a", 256-len("https://example.com/"))
		})), "req.URL"},
		{"create basic auth without username", create(with(func(r *management.CreateWebhookRequest) { r.UseBasicAuth, r.Password = true, "pw" })), "req.Username"},
		{"create basic auth without password", create(with(func(r *management.CreateWebhookRequest) { r.UseBasicAuth, r.Username = true, "u" })), "req.Password"},
		{"create username of 51", create(with(func(r *management.CreateWebhookRequest) { r.Username = strings.Repeat("u", 51) })), "req.Username"},
		{"create username with a space", create(with(func(r *management.CreateWebhookRequest) { r.Username = "a b" })), "req.Username"},
		{"create password of 101", create(with(func(r *management.CreateWebhookRequest) { r.Password = chat.Secret(strings.Repeat("p", 101)) })), "req.Password"},
		{"create password with a newline", create(with(func(r *management.CreateWebhookRequest) { r.Password = "p\nq" })), "req.Password"},
		{"get without app", func(c *management.Client) error { _, err := c.Webhooks.Get(ctx, "", "h1"); return err }, "appID"},
		{"get without webhook", func(c *management.Client) error { _, err := c.Webhooks.Get(ctx, "app1", ""); return err }, "webhookID"},
		{"get dot-dot webhook", func(c *management.Client) error { _, err := c.Webhooks.Get(ctx, "app1", ".."); return err }, "webhookID"},
		{"list without app", func(c *management.Client) error { _, err := c.Webhooks.List(ctx, "", nil); return err }, "appID"},
		{"update nil request", update(nil), "req"},
		{"update without webhook", func(c *management.Client) error {
			_, err := c.Webhooks.Update(ctx, "app1", "", &management.UpdateWebhookRequest{})
			return err
		}, "webhookID"},
		{"update empty name", update(&management.UpdateWebhookRequest{Name: new("")}), "req.Name"},
		{"update plain http URL", update(&management.UpdateWebhookRequest{URL: new("http://10.0.0.1/h")}), "req.URL"},
		{"update long username", update(&management.UpdateWebhookRequest{Username: new(strings.Repeat("u", 51))}), "req.Username"},
		{"update long password", update(&management.UpdateWebhookRequest{Password: new(chat.Secret(strings.Repeat("p", 101)))}), "req.Password"},
		{"delete without webhook", func(c *management.Client) error { _, err := c.Webhooks.Delete(ctx, "app1", ""); return err }, "webhookID"},
		{"add no triggers", func(c *management.Client) error {
			_, err := c.Webhooks.AddTriggers(ctx, "app1", "h1", nil)
			return err
		}, "triggerIDs"},
		{"add an empty trigger", func(c *management.Client) error {
			_, err := c.Webhooks.AddTriggers(ctx, "app1", "h1", []webhook.Trigger{"message_sent", ""})
			return err
		}, "triggerIDs[1]"},
		{"list triggers without webhook", func(c *management.Client) error { _, err := c.Webhooks.ListTriggers(ctx, "app1", ""); return err }, "webhookID"},
		{"remove no triggers", func(c *management.Client) error {
			_, err := c.Webhooks.RemoveTriggers(ctx, "app1", "h1", []webhook.Trigger{})
			return err
		}, "triggerIDs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Management(t)
			err := tt.call(client)
			wiretest.RequireArgError(t, err, tt.arg)
			assert.NotContains(t, err.Error(), hookPassword)
			assert.Zero(t, m.Calls(), "requests sent")
		})
	}
}

func TestWebhooksAcceptLimits(t *testing.T) {
	ctx := context.Background()
	client, m := wiretest.Management(t)
	m.Reply(http.StatusOK, `{"data":{"id":"h"}}`)
	for _, r := range []*management.CreateWebhookRequest{
		{ID: strings.Repeat("a", 50), Name: strings.Repeat("é", 50), URL: "https://example.com/" + strings.Repeat("a", 255-len("https://example.com/")),
			UseBasicAuth: true, Username: strings.Repeat("u", 50), Password: chat.Secret(strings.Repeat("p", 100))},
		{ID: "test_webhook-201", Name: "With spaces is fine", URL: "http://localhost:9000/h"},
		{ID: "H1", Name: "Loopback v6", URL: "http://[::1]:9000/h"},
	} {
		_, err := client.Webhooks.Create(ctx, "app1", r)
		require.NoError(t, err, "%v", r)
	}
	assert.Equal(t, 3, m.Calls())
}

func TestWebhooksAPIErrors(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_WEBHOOK_NOT_FOUND","message":"The webhook h1 does not exist."}}`)
	_, err := client.Webhooks.Get(context.Background(), "app1", "h1")
	var ae *chat.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "ERR_WEBHOOK_NOT_FOUND", ae.Code)
	assert.ErrorIs(t, err, chat.ErrNotFound)
}

func TestWebhookTypesNeverPrintThePassword(t *testing.T) {
	hook := management.Webhook{ID: "h1", Name: "Hook", URL: "https://cc:" + hookPassword + "@example.com/h", UseBasicAuth: true, Username: "cc", Password: hookPassword, Enabled: true}
	create := management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h", UseBasicAuth: true, Username: "cc", Password: hookPassword, Enabled: new(true)}
	update := management.UpdateWebhookRequest{Name: new("Hook"), Password: new(chat.Secret(hookPassword)), URL: new("https://u:" + hookPassword + "@example.com/")}
	for _, v := range []any{hook, &hook, []management.Webhook{hook}, create, &create, update, &update,
		struct{ W *management.Webhook }{&hook}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, hookPassword, "%s of %T", verb, v)
			assert.NotContains(t, out, fmt.Sprintf("%x", hookPassword), "%s of %T", verb, v)
		}
	}
	assert.Equal(t, `management.Webhook{ID: "h1", Name: "Hook", URL: "https://cc:xxxxx@example.com/h", UseBasicAuth: true, Username: "cc", Password: REDACTED, Enabled: true, RetryOnFailure: false, CreatedAt: 0, UpdatedAt: 0}`, hook.String())
	assert.Equal(t, `management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h", UseBasicAuth: true, Username: "cc", Password: REDACTED, Enabled: true, RetryOnFailure: false}`, fmt.Sprint(&create))
	assert.Equal(t, `management.UpdateWebhookRequest{Name: "Hook", URL: "https://u:xxxxx@example.com/", UseBasicAuth: nil, Username: nil, Password: REDACTED, RetryOnFailure: nil, Enabled: nil}`, fmt.Sprint(update))
	assert.Contains(t, fmt.Sprint(management.Webhook{ID: "h2"}), `Password: ""`, "an empty password shows as empty")
	var nilHook *management.Webhook
	assert.Equal(t, "<nil>", fmt.Sprint(nilHook))
}

// TestWebhookRequestsValidate holds the Validate of the webhook requests
// to the checks Create and Update run before sending.
func TestWebhookRequestsValidate(t *testing.T) {
	valid := management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h"}
	with := func(change func(r *management.CreateWebhookRequest)) *management.CreateWebhookRequest {
		r := valid
		change(&r)
		return &r
	}
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a webhook", Value: &valid},
		{Name: "a webhook to a loopback receiver", Value: with(func(r *management.CreateWebhookRequest) { r.URL = "http://127.0.0.1:8080/h" })},
		{Name: "a webhook with basic auth", Value: with(func(r *management.CreateWebhookRequest) { r.UseBasicAuth, r.Username, r.Password = true, "u", "pw" })},
		{Name: "a webhook id with a space", Value: with(func(r *management.CreateWebhookRequest) { r.ID = "my hook" }), Field: "req.ID"},
		{Name: "a webhook without a name", Value: with(func(r *management.CreateWebhookRequest) { r.Name = "" }), Field: "req.Name"},
		{Name: "a webhook over plain http", Value: with(func(r *management.CreateWebhookRequest) { r.URL = "http://example.com/h" }), Field: "req.URL"},
		{Name: "basic auth without a password", Value: with(func(r *management.CreateWebhookRequest) { r.UseBasicAuth, r.Username = true, "u" }), Field: "req.Password"},
		{Name: "an update of nothing", Value: &management.UpdateWebhookRequest{}},
		{Name: "an update of the URL", Value: &management.UpdateWebhookRequest{URL: new("https://example.com/h2")}},
		{Name: "an update to an empty name", Value: &management.UpdateWebhookRequest{Name: new("")}, Field: "req.Name"},
		{Name: "an update to a username with a space", Value: &management.UpdateWebhookRequest{Username: new("a b")}, Field: "req.Username"},
	})
}
