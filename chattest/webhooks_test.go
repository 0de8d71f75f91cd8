package chattest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// The Basic-auth credentials of the test webhooks; the password is shaped
// so that a leak would be recognisable.
const (
	hookUser     = "hooks"
	hookPassword = "hookpw4Kq9Z"
)

// hookReceiver is a webhook receiver built on webhook.NewHandler: it passes
// each event it accepts to events, and counts every request it gets,
// rejected ones included.
type hookReceiver struct {
	*httptest.Server
	events chan webhook.Event
	hits   atomic.Int32
}

// newHookReceiver starts a plain-http receiver checking v's credentials; it
// closes when the test ends.
func newHookReceiver(t *testing.T, v *webhook.Verifier) *hookReceiver {
	t.Helper()
	r := &hookReceiver{events: make(chan webhook.Event, 64)}
	h := webhook.NewHandler(v, func(_ context.Context, ev webhook.Event) error {
		r.events <- ev
		return nil
	})
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.hits.Add(1)
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

// next returns the next event the receiver accepted, failing the test if
// none comes within ten seconds.
func (r *hookReceiver) next(t *testing.T) webhook.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	select {
	case ev := <-r.events:
		return ev
	case <-ctx.Done():
		t.Fatal("no webhook event arrived")
		return nil
	}
}

// await waits for n settled deliveries in all.
func awaitHooks(t *testing.T, srv *chattest.Server, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, srv.AwaitDeliveries(ctx, n))
}

// hookTo creates the webhook id for url with Basic auth and subscribes it
// to triggers.
func hookTo(t *testing.T, srv *chattest.Server, id, url string, triggers ...webhook.Trigger) {
	t.Helper()
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err := mc.Webhooks.Create(t.Context(), srv.AppID(), &management.CreateWebhookRequest{
		ID: id, Name: id, URL: url, UseBasicAuth: true, Username: hookUser, Password: hookPassword,
	})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), srv.AppID(), id, triggers)
	require.NoError(t, err)
}

// TestWebhookEndToEnd is the whole loop: a webhook created through the
// management API, a message sent through the chat API, and the
// message_sent event received, typed, by a webhook.NewHandler receiver
// checking Basic auth.
func TestWebhookEndToEnd(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})

	mc := srv.ManagementClient(chat.WithoutRetries())
	hook, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
		ID: "orders", Name: "Orders", URL: recv.URL + "/hooks", UseBasicAuth: true,
		Username: hookUser, Password: hookPassword, Enabled: new(true),
	}, management.WithWebhookVersion(2))
	require.NoError(t, err)
	assert.Equal(t, "orders", hook.ID)
	assert.True(t, hook.Enabled)
	assert.Empty(t, hook.Password, "the password is never answered")
	added, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "orders", []webhook.Trigger{webhook.TriggerMessageSent})
	require.NoError(t, err)
	assert.True(t, added["message_sent"].Success)

	sent, err := client.Messages.Send(ctx, toUser("bob", "hello over the hook"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	ev := recv.next(t)
	me, ok := ev.(*webhook.MessageEvent)
	require.True(t, ok, "a %T", ev)
	assert.Equal(t, webhook.TriggerMessageSent, me.Trigger())
	assert.Equal(t, sent.ID, me.Message.ID)
	assert.Equal(t, "hello over the hook", me.Message.Data.Text)
	assert.Equal(t, "alice", me.Message.Sender)
	assert.Equal(t, "bob", me.Message.Receiver)
	env := me.Envelope()
	assert.Equal(t, srv.AppID(), env.AppID)
	assert.Equal(t, "us", env.Region)
	assert.Equal(t, "orders", env.Webhook)
	assert.Empty(t, env.Type)

	awaitHooks(t, srv, 1)
	ds := srv.Deliveries()
	require.Len(t, ds, 1)
	d := ds[0]
	assert.Equal(t, chattest.DeliveryDelivered, d.State)
	assert.Equal(t, http.StatusOK, d.StatusCode)
	assert.Equal(t, 1, d.Attempts)
	assert.NoError(t, d.Err)
	assert.Equal(t, "message_sent", d.Trigger)
	assert.Equal(t, "orders", d.WebhookID)
	assert.Equal(t, recv.URL+"/hooks", d.URL)
	assert.JSONEq(t, string(env.Data), string(d.Data))
	assert.NotContains(t, fmt.Sprintf("%+v %#v", ds, ds), hookPassword)
	assert.EqualValues(t, 1, recv.hits.Load())
}

// TestWebhookHTTPSReceiver delivers to an https httptest receiver: the
// fake trusts httptest's certificate.
func TestWebhookHTTPSReceiver(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	events := make(chan webhook.Event, 1)
	recv := httptest.NewTLSServer(webhook.NewHandler(&webhook.Verifier{Username: hookUser, Password: hookPassword},
		func(_ context.Context, ev webhook.Event) error { events <- ev; return nil }))
	t.Cleanup(recv.Close)
	hookTo(t, srv, "tls", recv.URL, "message_sent")

	_, err := client.Messages.Send(t.Context(), toUser("bob", "over TLS"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 1)
	d := srv.Deliveries()[0]
	require.Equal(t, chattest.DeliveryDelivered, d.State, "err: %v", d.Err)
	me := (<-events).(*webhook.MessageEvent)
	assert.Equal(t, "over TLS", me.Message.Data.Text)
}

// TestWebhookOnlySubscribedTriggers: a webhook gets only the triggers it
// subscribes to.
func TestWebhookOnlySubscribedTriggers(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "edits", recv.URL, "message_edited")

	m, err := client.Messages.Send(t.Context(), toUser("bob", "typo"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Empty(t, srv.Deliveries(), "message_sent is not subscribed")

	_, err = client.Messages.Update(t.Context(), m.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "fixed"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 1)
	ds := srv.Deliveries()
	require.Len(t, ds, 1)
	assert.Equal(t, "message_edited", ds[0].Trigger)
	ev := recv.next(t).(*webhook.MessageActionEvent)
	assert.Equal(t, chat.ActionEdited, ev.Action())
	require.NotNil(t, ev.Target)
	assert.Equal(t, m.ID, ev.Target.ID)
	assert.Equal(t, "fixed", ev.Target.Data.Text)
	assert.EqualValues(t, 1, recv.hits.Load())

	// Removing the trigger stops the deliveries.
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err = mc.Webhooks.RemoveTriggers(t.Context(), srv.AppID(), "edits", []webhook.Trigger{"message_edited"})
	require.NoError(t, err)
	_, err = client.Messages.Update(t.Context(), m.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "again"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Len(t, srv.Deliveries(), 1)
}

// TestWebhookDisabled: a disabled webhook gets nothing until enabled.
func TestWebhookDisabled(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	recv := newHookReceiver(t, &webhook.Verifier{Unauthenticated: true})
	mc := srv.ManagementClient(chat.WithoutRetries())
	ctx := t.Context()
	hook, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "off", Name: "Off", URL: recv.URL, Enabled: new(false)})
	require.NoError(t, err)
	assert.False(t, hook.Enabled)
	_, err = mc.Webhooks.AddTriggers(ctx, srv.AppID(), "off", []webhook.Trigger{"message_sent"})
	require.NoError(t, err)

	_, err = client.Messages.Send(ctx, toUser("bob", "unheard"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Empty(t, srv.Deliveries(), "a disabled webhook gets no delivery")

	hook, err = mc.Webhooks.Update(ctx, srv.AppID(), "off", &management.UpdateWebhookRequest{Enabled: new(true)})
	require.NoError(t, err)
	assert.True(t, hook.Enabled)
	_, err = client.Messages.Send(ctx, toUser("bob", "heard"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	ev := recv.next(t).(*webhook.MessageEvent)
	assert.Equal(t, "heard", ev.Message.Data.Text)
	assert.Len(t, srv.Deliveries(), 1)
}

// TestWebhookWrongPassword: a receiver that refuses the credentials makes
// the delivery fail with 401, retried only with retryOnFailure.
func TestWebhookWrongPassword(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: "anotherPassword1"})
	hookTo(t, srv, "refused", recv.URL, "message_sent")

	_, err := client.Messages.Send(ctx, toUser("bob", "one"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 1)
	d := srv.Deliveries()[0]
	assert.Equal(t, chattest.DeliveryFailed, d.State)
	assert.Equal(t, http.StatusUnauthorized, d.StatusCode)
	assert.NoError(t, d.Err, "the receiver answered")
	assert.Equal(t, 1, d.Attempts, "no retry without retryOnFailure")
	assert.EqualValues(t, 1, recv.hits.Load())

	mc := srv.ManagementClient(chat.WithoutRetries())
	hook, err := mc.Webhooks.Update(ctx, srv.AppID(), "refused", &management.UpdateWebhookRequest{RetryOnFailure: new(true)})
	require.NoError(t, err)
	assert.True(t, hook.RetryOnFailure)
	_, err = client.Messages.Send(ctx, toUser("bob", "two"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 2)
	d = srv.Deliveries()[1]
	assert.Equal(t, chattest.DeliveryFailed, d.State)
	assert.Equal(t, http.StatusUnauthorized, d.StatusCode)
	assert.Equal(t, 4, d.Attempts, "retried 3 times")
	assert.EqualValues(t, 5, recv.hits.Load())
	assert.Empty(t, recv.events, "the handler never accepted a delivery")
	assert.NotContains(t, fmt.Sprintf("%+v", srv.Deliveries()), hookPassword)

	// The right password now: delivered at the first attempt.
	_, err = mc.Webhooks.Update(ctx, srv.AppID(), "refused", &management.UpdateWebhookRequest{Password: new(chat.Secret("anotherPassword1"))})
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, toUser("bob", "three"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 3)
	d = srv.Deliveries()[2]
	assert.Equal(t, chattest.DeliveryDelivered, d.State)
	assert.Equal(t, 1, d.Attempts)
}

// TestWebhookRetryRecovers: with retryOnFailure, a receiver that fails
// once gets the delivery again.
func TestWebhookRetryRecovers(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	var calls atomic.Int32
	var bodies [2]string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		b, _ := io.ReadAll(r.Body)
		if n <= 2 {
			bodies[n-1] = string(b)
		}
		if n == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(recv.Close)
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err := mc.Webhooks.Create(t.Context(), srv.AppID(), &management.CreateWebhookRequest{ID: "flaky", Name: "Flaky", URL: recv.URL, RetryOnFailure: true})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(t.Context(), srv.AppID(), "flaky", []webhook.Trigger{"message_sent"})
	require.NoError(t, err)
	_, err = client.Messages.Send(t.Context(), toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	awaitHooks(t, srv, 1)
	d := srv.Deliveries()[0]
	assert.Equal(t, chattest.DeliveryDelivered, d.State)
	assert.Equal(t, 2, d.Attempts)
	assert.Equal(t, http.StatusOK, d.StatusCode)
	assert.Equal(t, bodies[0], bodies[1], "a retry sends the same envelope")
}

// TestWebhookCloseWithHangingReceiver: Close returns promptly while a
// delivery hangs, and leaves no goroutine behind.
func TestWebhookCloseWithHangingReceiver(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	srv := chattest.NewServer()
	seed(srv, "alice", "bob")
	hookTo(t, srv, "slow", recv.URL, "message_sent")
	_, err := srv.Client(chat.WithoutRetries()).Messages.Send(t.Context(), toUser("bob", "wait for me"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the delivery never reached the receiver")
	}

	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs on a delivery in flight")
	}
	d := srv.Deliveries()[0]
	assert.Equal(t, chattest.DeliveryFailed, d.State)
	assert.ErrorIs(t, d.Err, chattest.ErrDeliveryStopped)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err = srv.AwaitDeliveries(ctx, 2)
	assert.ErrorContains(t, err, "closed", "nothing more will settle")

	close(release)
	recv.Close()
	goleak.VerifyNone(t, opt)
}

// TestWebhookNonLoopbackURL: the fake never calls a URL off the machine.
func TestWebhookNonLoopbackURL(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	hookTo(t, srv, "remote", "https://hooks.example.com/in", "message_sent")
	_, err := client.Messages.Send(t.Context(), toUser("bob", "stays here"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	d := srv.Deliveries()[0]
	assert.Equal(t, chattest.DeliveryFailed, d.State)
	assert.ErrorIs(t, d.Err, chattest.ErrNotLoopback)
	assert.Zero(t, d.Attempts)
}

// TestWebhookManagement covers the webhook and trigger operations and
// their errors through the management client.
func TestWebhookManagement(t *testing.T) {
	srv, _ := start(t)
	mc := srv.ManagementClient(chat.WithoutRetries())
	ctx := t.Context()
	app := srv.AppID()

	created, err := mc.Webhooks.Create(ctx, app, &management.CreateWebhookRequest{
		ID: "orders_hook", Name: "Orders", URL: "https://hooks.example.com/orders", UseBasicAuth: true,
		Username: hookUser, Password: hookPassword, RetryOnFailure: true,
	})
	require.NoError(t, err)
	assert.Equal(t, management.Webhook{ID: "orders_hook", Name: "Orders", URL: "https://hooks.example.com/orders", UseBasicAuth: true,
		Username: hookUser, Enabled: true, RetryOnFailure: true, CreatedAt: chat.TimestampOf(t0), UpdatedAt: chat.TimestampOf(t0)}, *created)
	_, err = mc.Webhooks.Create(ctx, app, &management.CreateWebhookRequest{ID: "audit", Name: "Audit log", URL: "https://hooks.example.com/audit"})
	require.NoError(t, err)

	got, err := mc.Webhooks.Get(ctx, app, "orders_hook")
	require.NoError(t, err)
	assert.Equal(t, created, got)

	page, err := mc.Webhooks.List(ctx, app, nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	assert.Equal(t, []string{"orders_hook", "audit"}, []string{page.Data[0].ID, page.Data[1].ID})
	assert.Equal(t, 2, page.Meta.Pagination.Total)
	page, err = mc.Webhooks.List(ctx, app, &management.ListWebhooksOptions{SearchKey: "AUDIT"})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "audit", page.Data[0].ID)
	page, err = mc.Webhooks.List(ctx, app, &management.ListWebhooksOptions{PerPage: 1})
	require.NoError(t, err)
	assert.Len(t, page.Data, 1)
	assert.Equal(t, 2, page.Meta.Pagination.TotalPages)

	updated, err := mc.Webhooks.Update(ctx, app, "orders_hook", &management.UpdateWebhookRequest{Name: new("Orders v2"), UseBasicAuth: new(false)})
	require.NoError(t, err)
	assert.Equal(t, "Orders v2", updated.Name)
	assert.False(t, updated.UseBasicAuth)
	assert.True(t, updated.RetryOnFailure, "fields not sent stay")

	// Triggers, in the reference's order whatever the order added.
	res, err := mc.Webhooks.AddTriggers(ctx, app, "orders_hook", []webhook.Trigger{"group_created", "message_sent", "message_sent"})
	require.NoError(t, err)
	assert.Len(t, res, 2)
	triggers, err := mc.Webhooks.ListTriggers(ctx, app, "orders_hook")
	require.NoError(t, err)
	assert.Equal(t, []management.Trigger{
		{ID: "message_sent", Category: "messages", Description: "A message is sent."},
		{ID: "group_created", Category: "groups", Description: "A group is created."},
	}, triggers)
	_, err = mc.Webhooks.RemoveTriggers(ctx, app, "orders_hook", []webhook.Trigger{"message_sent", "call_started"})
	require.NoError(t, err)
	triggers, err = mc.Webhooks.ListTriggers(ctx, app, "orders_hook")
	require.NoError(t, err)
	assert.Equal(t, []webhook.Trigger{webhook.TriggerGroupCreated}, triggersOf(triggers))

	// Errors.
	_, err = mc.Webhooks.Get(ctx, app, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_WEBHOOK_NOT_FOUND", chat.ErrNotFound)
	_, err = mc.Webhooks.Update(ctx, app, "nope", &management.UpdateWebhookRequest{Name: new("x")})
	requireAPIError(t, err, http.StatusNotFound, "ERR_WEBHOOK_NOT_FOUND", chat.ErrNotFound)
	_, err = mc.Webhooks.ListTriggers(ctx, app, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_WEBHOOK_NOT_FOUND", chat.ErrNotFound)
	_, err = mc.Webhooks.List(ctx, "another-app", nil)
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
	_, err = mc.Webhooks.Create(ctx, "another-app", &management.CreateWebhookRequest{ID: "x", Name: "X", URL: "https://hooks.example.com/x"})
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
	_, err = mc.Webhooks.AddTriggers(ctx, app, "orders_hook", []webhook.Trigger{"message_sent", "user_mentioned"})
	requireAPIError(t, err, http.StatusNotFound, "ERR_TRIGGER_NOT_FOUND", chat.ErrNotFound)
	triggers, err = mc.Webhooks.ListTriggers(ctx, app, "orders_hook")
	require.NoError(t, err)
	assert.Equal(t, []webhook.Trigger{webhook.TriggerGroupCreated}, triggersOf(triggers), "a failed add changes nothing")
	_, err = mc.Webhooks.Create(ctx, app, &management.CreateWebhookRequest{ID: "audit", Name: "Again", URL: "https://hooks.example.com/x"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "id")
	_, err = mc.Webhooks.Update(ctx, app, "audit", &management.UpdateWebhookRequest{UseBasicAuth: new(true)})
	ce = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "username")
	_, err = mc.Webhooks.Get(ctx, app, "audit", chat.WithHeader("X-Webhook-Version", "latest"))
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)

	// Delete.
	del, err := mc.Webhooks.Delete(ctx, app, "audit")
	require.NoError(t, err)
	assert.Equal(t, &chat.Result{Success: true, Message: "Deleted Webhook successfully."}, del)
	_, err = mc.Webhooks.Delete(ctx, app, "audit")
	requireAPIError(t, err, http.StatusNotFound, "ERR_WEBHOOK_NOT_FOUND", chat.ErrNotFound)

	// At most 25 webhooks.
	for i := 2; i <= 25; i++ {
		_, err := mc.Webhooks.Create(ctx, app, &management.CreateWebhookRequest{ID: fmt.Sprint("h", i), Name: "H", URL: "https://hooks.example.com/h"})
		require.NoError(t, err)
	}
	_, err = mc.Webhooks.Create(ctx, app, &management.CreateWebhookRequest{ID: "h26", Name: "H", URL: "https://hooks.example.com/h"})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_PLAN_QUOTA_RESTRICTION", chat.ErrLimitExceeded)

	// Wrong management credentials.
	_, err = srv.ManagementClientWith("k", "s", chat.WithoutRetries()).Webhooks.List(ctx, app, nil)
	var ae *chat.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusUnauthorized, ae.StatusCode)
}

func triggersOf(ts []management.Trigger) []webhook.Trigger {
	out := make([]webhook.Trigger, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// TestWebhookTriggersMatchThePackage: every trigger of package webhook can
// be subscribed to, in the reference's order, and user_mentioned cannot.
func TestWebhookTriggersMatchThePackage(t *testing.T) {
	srv, _ := start(t)
	mc := srv.ManagementClient(chat.WithoutRetries())
	ctx := t.Context()
	_, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "all", Name: "All", URL: "https://hooks.example.com/all"})
	require.NoError(t, err)
	ids := webhook.Triggers()
	require.Len(t, ids, 48)
	res, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), "all", ids)
	require.NoError(t, err)
	assert.Len(t, res, 48)
	listed, err := mc.Webhooks.ListTriggers(ctx, srv.AppID(), "all")
	require.NoError(t, err)
	assert.Equal(t, ids, triggersOf(listed))
	for _, tr := range listed {
		assert.NotEmpty(t, tr.Category, tr.ID)
		assert.NotEmpty(t, tr.Description, tr.ID)
	}
}

// TestWebhookServerValidation sends bodies the management client would
// refuse, to check the fake's own validation; and checks that no answer
// carries the password.
func TestWebhookServerValidation(t *testing.T) {
	srv, _ := start(t)
	hc := srv.HTTPClient()
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, srv.ManagementURL()+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("key", srv.ManagementKey())
		req.Header.Set("secret", srv.ManagementSecret())
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	base := "/apps/" + srv.AppID() + "/webhooks"
	for _, tt := range []struct {
		name, body string
		fields     []string
	}{
		{"nothing", `{}`, []string{"id", "name", "webhookURL"}},
		{"id with a space", `{"id":"a b","name":"n","webhookURL":"https://x.example/h"}`, []string{"id"}},
		{"long id", `{"id":"` + strings.Repeat("a", 51) + `","name":"n","webhookURL":"https://x.example/h"}`, []string{"id"}},
		{"long name", `{"id":"a","name":"` + strings.Repeat("n", 51) + `","webhookURL":"https://x.example/h"}`, []string{"name"}},
		{"plain http off loopback", `{"id":"a","name":"n","webhookURL":"http://x.example/h"}`, []string{"webhookURL"}},
		{"long URL", `{"id":"a","name":"n","webhookURL":"https://x.example/` + strings.Repeat("u", 240) + `"}`, []string{"webhookURL"}},
		{"basic auth without credentials", `{"id":"a","name":"n","webhookURL":"https://x.example/h","useBasicAuth":true}`, []string{"username", "password"}},
		{"password with a space", `{"id":"a","name":"n","webhookURL":"https://x.example/h","password":"a b"}`, []string{"password"}},
		{"long username", `{"id":"a","name":"n","webhookURL":"https://x.example/h","username":"` + strings.Repeat("u", 51) + `"}`, []string{"username"}},
		{"enabled of the wrong type", `{"id":"a","name":"n","webhookURL":"https://x.example/h","enabled":"yes"}`, []string{"enabled"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := do(http.MethodPost, base, tt.body)
			assert.Equal(t, http.StatusBadRequest, status, body)
			var e struct {
				Error struct {
					Code    string              `json:"code"`
					Details map[string][]string `json:"details"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &e))
			assert.Equal(t, "ERR_BAD_REQUEST", e.Error.Code)
			for _, f := range tt.fields {
				assert.Contains(t, e.Error.Details, f)
			}
		})
	}

	status, body := do(http.MethodPost, base, `{"id":"h1","name":"n","webhookURL":"https://x.example/h","useBasicAuth":true,"username":"u","password":"`+hookPassword+`"}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.NotContains(t, body, hookPassword)
	for _, path := range []string{base, base + "/h1"} {
		status, body = do(http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, status, body)
		assert.NotContains(t, body, hookPassword)
		assert.NotContains(t, body, `"password"`)
	}
	status, body = do(http.MethodPost, base+"/h1/triggers", `{"triggerIds":[]}`)
	assert.Equal(t, http.StatusBadRequest, status, body)
	assert.Contains(t, body, "triggerIds")
}

// TestWebhookPayloads checks the payload of each trigger the chat API
// fires by decoding it with package webhook.
func TestWebhookPayloads(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "everything", recv.URL, webhook.Triggers()...)
	next := func() webhook.Event { t.Helper(); return recv.next(t) }

	m, err := client.Messages.Send(ctx, toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Equal(t, m.ID, next().(*webhook.MessageEvent).Message.ID)

	_, err = client.Messages.AddReaction(ctx, m.ID, "👍", "bob")
	require.NoError(t, err)
	re := next().(*webhook.ReactionEvent)
	assert.Equal(t, webhook.TriggerMessageReactionAdded, re.Trigger())
	assert.Equal(t, m.ID, re.Reaction.MessageID)
	assert.Equal(t, "👍", re.Reaction.Reaction)
	assert.Equal(t, "bob", re.Reaction.UID)
	require.NotNil(t, re.Reaction.ReactedBy)
	assert.Equal(t, "Bob", re.Reaction.ReactedBy.Name)
	_, err = client.Messages.RemoveReaction(ctx, m.ID, "👍", "bob")
	require.NoError(t, err)
	re = next().(*webhook.ReactionEvent)
	assert.Equal(t, webhook.TriggerMessageReactionRemoved, re.Trigger())
	assert.Equal(t, "👍", re.Reaction.Reaction)
	_, err = client.Messages.RemoveReaction(ctx, m.ID, "👍", "bob")
	require.NoError(t, err) // nothing to remove: no event

	_, err = client.Messages.Delete(ctx, m.ID, nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	de := next().(*webhook.MessageActionEvent)
	assert.Equal(t, webhook.TriggerMessageDeleted, de.Trigger())
	assert.Equal(t, chat.ActionDeleted, de.Action())
	require.NotNil(t, de.Target)
	assert.Equal(t, m.ID, de.Target.ID)
	assert.NotZero(t, de.Target.DeletedAt)
	require.NotNil(t, de.By)
	assert.Equal(t, "alice", de.By.UID)

	_, err = client.Blocked.Block(ctx, "alice", &chat.BlockUsersRequest{BlockedUIDs: []string{"bob", "carol"}})
	require.NoError(t, err)
	be := next().(*webhook.BlockEvent)
	assert.Equal(t, webhook.TriggerUserBlocked, be.Trigger())
	assert.Equal(t, "alice", be.By.UID)
	assert.Equal(t, "Carol", be.Users["carol"].Name)
	assert.Len(t, be.Users, 2)
	_, err = client.Blocked.Unblock(ctx, "alice", &chat.UnblockUsersRequest{BlockedUIDs: []string{"bob"}})
	require.NoError(t, err)
	be = next().(*webhook.BlockEvent)
	assert.Equal(t, webhook.TriggerUserUnblocked, be.Trigger())
	assert.Equal(t, []string{"bob"}, hookKeys(be.Users))

	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "Team", Owner: "alice"})
	require.NoError(t, err)
	ge := next().(*webhook.GroupEvent)
	assert.Equal(t, webhook.TriggerGroupCreated, ge.Trigger())
	assert.Equal(t, "team", ge.Group.GUID)
	assert.Equal(t, "alice", ge.Group.Owner)
	assert.Equal(t, chat.MemberAdmin, ge.Members["alice"].Scope)

	_, err = client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"bob"}})
	require.NoError(t, err)
	ge = next().(*webhook.GroupEvent)
	assert.Equal(t, webhook.TriggerGroupMemberAdded, ge.Trigger())
	assert.Equal(t, chat.MemberParticipant, ge.Members["bob"].Scope)
	require.NotNil(t, ge.By)
	assert.Equal(t, "app_system", ge.By.UID)
	assert.Equal(t, 2, ge.Group.MembersCount)

	_, err = client.Members.ChangeScope(ctx, "team", "bob", &chat.ChangeScopeRequest{Scope: chat.MemberModerator}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	ge = next().(*webhook.GroupEvent)
	assert.Equal(t, webhook.TriggerGroupMemberScopeChanged, ge.Trigger())
	assert.Equal(t, chat.MemberModerator, ge.Members["bob"].Scope)
	assert.Equal(t, chat.MemberParticipant, ge.Members["bob"].OldScope)
	assert.Equal(t, "alice", ge.By.UID)

	_, err = client.Groups.Update(ctx, "team", &chat.UpdateGroupRequest{Name: "Team A", Owner: "bob"})
	require.NoError(t, err)
	var seen []webhook.Trigger
	for range 3 {
		ev := next().(*webhook.GroupEvent)
		seen = append(seen, ev.Trigger())
		switch ev.Trigger() {
		case webhook.TriggerGroupOwnerTransferred:
			assert.Equal(t, "alice", ev.Group.OldOwner)
			assert.Equal(t, "bob", ev.Group.Owner)
		case webhook.TriggerGroupUpdated:
			assert.Equal(t, "Team A", ev.Group.Name)
		}
	}
	assert.Equal(t, []webhook.Trigger{webhook.TriggerGroupOwnerTransferred, webhook.TriggerGroupMemberScopeChanged, webhook.TriggerGroupUpdated}, seen)

	_, err = client.Members.Kick(ctx, "team", "alice")
	require.NoError(t, err)
	ge = next().(*webhook.GroupEvent)
	assert.Equal(t, webhook.TriggerGroupMemberKicked, ge.Trigger())
	assert.Contains(t, ge.Members, "alice")
	_, err = client.Bans.Ban(ctx, "team", "carol")
	require.NoError(t, err)
	assert.Equal(t, webhook.TriggerGroupMemberBanned, next().Trigger())
	_, err = client.Bans.Unban(ctx, "team", "carol")
	require.NoError(t, err)
	assert.Equal(t, webhook.TriggerGroupMemberUnbanned, next().Trigger())
	_, err = client.Groups.Delete(ctx, "team")
	require.NoError(t, err)
	ge = next().(*webhook.GroupEvent)
	assert.Equal(t, webhook.TriggerGroupDeleted, ge.Trigger())
	assert.Equal(t, "team", ge.Group.GUID)

	// Every delivery so far went through, and none is left.
	n := len(srv.Deliveries())
	awaitHooks(t, srv, n)
	for _, d := range srv.Deliveries() {
		assert.Equal(t, chattest.DeliveryDelivered, d.State, d.Trigger)
	}
	assert.Empty(t, recv.events)
}

func hookKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestWebhookFire fires triggers the chat API cannot produce.
func TestWebhookFire(t *testing.T) {
	srv, _ := start(t)
	recv := newHookReceiver(t, &webhook.Verifier{Username: hookUser, Password: hookPassword})
	hookTo(t, srv, "campaigns", recv.URL, "after_campaign_completed", "call_started", "meeting_started")

	require.NoError(t, srv.Fire("after_campaign_completed", map[string]any{"campaignId": "c1", "name": "Spring", "status": "completed", "sentCount": 10}))
	ce := recv.next(t).(*webhook.CampaignEvent)
	assert.Equal(t, "c1", ce.CampaignID)
	assert.Equal(t, "Spring", ce.Name)
	assert.Empty(t, ce.Envelope().Type)

	require.NoError(t, srv.Fire("call_started", json.RawMessage(`{"sessionId":"v1.us.s1","created_at":1700000000}`)))
	se := recv.next(t).(*webhook.SessionStartedEvent)
	assert.Equal(t, "v1.us.s1", se.SessionID)
	assert.Equal(t, "call", se.Envelope().Type)
	require.NoError(t, srv.Fire("meeting_started", map[string]any{"sessionId": "v1.us.m1"}))
	assert.Equal(t, "meet", recv.next(t).Envelope().Type)

	require.NoError(t, srv.Fire("after_campaign_failed", map[string]any{}), "a known trigger nobody listens to")
	assert.Len(t, srv.Deliveries(), 3)
	assert.EqualError(t, srv.Fire("user_mentioned", nil), `chattest: Fire: "user_mentioned" is not a trigger id`,
		"not a trigger a webhook can subscribe to")
	assert.EqualError(t, srv.Fire("after_campaign_completed", func() {}), "chattest: Fire: encoding data: json: unsupported type: func()",
		"data that does not encode")
}

// TestWebhookOtherApps: each app of the account has its own webhooks; only
// the fake's own app has events to deliver.
func TestWebhookOtherApps(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	mc := srv.ManagementClient(chat.WithoutRetries())
	other, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "Tenant app", Region: chat.RegionEU})
	require.NoError(t, err)
	recv := newHookReceiver(t, &webhook.Verifier{Unauthenticated: true})
	_, err = mc.Webhooks.Create(ctx, other.ID, &management.CreateWebhookRequest{ID: "tenant", Name: "Tenant", URL: recv.URL})
	require.NoError(t, err)
	_, err = mc.Webhooks.AddTriggers(ctx, other.ID, "tenant", []webhook.Trigger{"message_sent"})
	require.NoError(t, err)

	page, err := mc.Webhooks.List(ctx, other.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"tenant"}, []string{page.Data[0].ID})
	page, err = mc.Webhooks.List(ctx, srv.AppID(), nil)
	require.NoError(t, err)
	assert.Empty(t, page.Data, "the own app's webhooks are apart")
	_, err = mc.Webhooks.Get(ctx, srv.AppID(), "tenant")
	requireAPIError(t, err, http.StatusNotFound, "ERR_WEBHOOK_NOT_FOUND", chat.ErrNotFound)

	_, err = client.Messages.Send(ctx, toUser("bob", "not the tenant's"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	assert.Empty(t, srv.Deliveries(), "the own app's events do not go to another app's webhooks")
}
