package chattest

import (
	"context"

	"github.com/chatrest/chat/chattest/internal/webhooks"
)

// The webhook deliveries are made by package internal/webhooks, from what
// it renders of the core's events; this file names them for the users of
// the fake.

// Errors a [Delivery] can end with besides the receiver's own failures.
var (
	// ErrNotLoopback is the error of a delivery to a webhook URL whose host
	// is not a loopback address: without [WithLocalNetwork] the fake never
	// connects anywhere else, so it records the delivery as failed without
	// calling it.
	ErrNotLoopback = webhooks.ErrNotLoopback
	// ErrDeliveryStopped is the error of a delivery the server was closed
	// before it could finish.
	ErrDeliveryStopped = webhooks.ErrDeliveryStopped
	// ErrNotLocalNetwork is the error of a delivery, under
	// [WithLocalNetwork], to a webhook URL that is not http or https, or
	// whose host is neither a loopback address nor on the network of one
	// of the machine's interfaces: the fake records it as failed without
	// calling it.
	ErrNotLocalNetwork = webhooks.ErrNotLocalNetwork
)

// DeliveryState is where a [Delivery] stands.
type DeliveryState = webhooks.DeliveryState

// Delivery states.
const (
	// DeliveryPending: queued or being sent (or waiting to be retried).
	DeliveryPending = webhooks.DeliveryPending
	// DeliveryDelivered: the receiver answered with a 2xx status.
	DeliveryDelivered = webhooks.DeliveryDelivered
	// DeliveryFailed: the last attempt failed and no retry is left.
	DeliveryFailed = webhooks.DeliveryFailed
)

// Delivery is one webhook delivery the fake made, or is making: an event
// of the app sent to one webhook subscribed to its trigger. See
// [Server.Deliveries]. It never holds the webhook's password. Its fields:
// Trigger, WebhookID, AppID, URL (a password in it shown as "xxxxx"),
// Type (the envelope's: "call", "meet" or empty), Data (the envelope's
// data, as sent), State, StatusCode (the last attempt's answer; 0 when
// none), Err (why the last attempt got no answer) and Attempts.
type Delivery = webhooks.Delivery

// Deliveries returns the webhook deliveries of the server's app, in the
// order their events fired: for each event, one per enabled webhook
// subscribed to its trigger, pending or settled. The copies share nothing
// with the server. The server keeps the most recent 10,000.
//
// Deliveries are made by one goroutine per server, in order, to webhooks
// whose URL is on a loopback address: an [net/http/httptest.Server]
// receiver, plain http, or https with httptest's certificate, which the
// fake trusts (it is the fake's own, [Server.Certificate]); under
// [WithLocalNetwork], to receivers on the machine's networks too. A webhook with
// useBasicAuth sends its username and password as HTTP Basic auth. A 2xx
// answer delivers; anything else fails, and with retryOnFailure the
// delivery is retried 3 times, after 10ms, 20ms and 40ms. Each attempt
// times out after 5 seconds. [Server.Close] stops the goroutine at once,
// failing what is left with [ErrDeliveryStopped].
func (s *Server) Deliveries() []Delivery {
	return s.h.hooks.Deliveries()
}

// AwaitDeliveries waits until n deliveries have settled (delivered or
// failed) since the server started, counting those [Server.Deliveries] no
// longer keeps, so that a test can check a receiver without sleeping. It
// returns an error when ctx is done first, or when the server is closed
// with fewer than n settled.
func (s *Server) AwaitDeliveries(ctx context.Context, n int) error {
	return s.h.hooks.Await(ctx, n)
}

// Fire fires trigger with data as the event's payload (the envelope's
// "data"), as if it had happened in the server's app: every enabled webhook
// subscribed to trigger gets a delivery. Use it for the triggers the fake
// cannot produce itself (campaigns and notifications, a moderation
// engine's failure) or to send a payload of your own. trigger must be one of
// the 48 trigger ids ([webhook.Triggers]), and data must encode as JSON (a
// [encoding/json.RawMessage] is sent as it is).
func (s *Server) Fire(trigger string, data any) error {
	return s.h.core.Fire(trigger, data)
}
