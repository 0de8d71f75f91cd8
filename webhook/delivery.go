package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Envelope is the body of every delivery: the trigger that fired, its
// payload, and where it came from.
type Envelope struct {
	// Trigger is the trigger id, e.g. "message_sent".
	Trigger string `json:"trigger"`
	// Data is the trigger's payload, kept as sent.
	Data json.RawMessage `json:"data"`
	// AppID is the app the event happened in.
	AppID string `json:"appId"`
	// Region is the app's region, e.g. "us".
	Region string `json:"region"`
	// Webhook is the id of the webhook the delivery is for.
	Webhook string `json:"webhook"`
	// Type is "call" or "meet" on call and meeting events, empty otherwise.
	Type string `json:"type,omitempty"`
}

// NewRequest builds the POST a webhook delivery makes to url: env as its
// JSON body and, when username is not empty, HTTP Basic auth with username
// and password, as the service sends when the webhook has useBasicAuth set.
// Use it to test a receiver, or to replay a delivery.
func NewRequest(ctx context.Context, url string, env *Envelope, username, password string) (*http.Request, error) {
	if env == nil {
		return nil, errors.New("webhook: NewRequest: env must not be nil")
	}
	body, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if username != "" {
		req.SetBasicAuth(username, password)
	}
	return req, nil
}

// NewEnvelope builds the envelope of a delivery of trigger with data, as
// the service would send it: use it with [NewRequest] to test a receiver,
// or with [DecodeEnvelope] to get a typed event.
//
// data is encoded to JSON; a json.RawMessage or []byte is taken as JSON
// already (and must be valid), and nil gives {}. An event value encodes as
// its trigger's payload, so the data of message_sent can be
// &MessageEvent{Message: m}; the fields the package decodes from inside
// other fields (MessageEvent.Mentions, MessageActionEvent.Target and By)
// are not encoded. For call_* triggers the envelope's Type is "call", for
// meeting_* triggers "meet", as the service sends. AppID, Region and
// Webhook are left empty for the caller to set.
func NewEnvelope(trigger Trigger, data any) (*Envelope, error) {
	var raw json.RawMessage
	switch d := data.(type) {
	case nil:
		raw = json.RawMessage("{}")
	case []byte:
		raw = json.RawMessage(d)
	case json.RawMessage:
		raw = d
	default:
		b, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("webhook: NewEnvelope: encoding the data: %w", err)
		}
		raw = b
	}
	if !json.Valid(raw) {
		return nil, errors.New("webhook: NewEnvelope: data is not valid JSON")
	}
	env := &Envelope{Trigger: string(trigger), Data: raw}
	switch {
	case strings.HasPrefix(string(trigger), "call_"):
		env.Type = "call"
	case strings.HasPrefix(string(trigger), "meeting_"):
		env.Type = "meet"
	}
	return env, nil
}

// NewDelivery builds, in one call, the POST the service makes to url to
// deliver trigger with data, with Basic auth when username is not empty:
// [NewEnvelope] then [NewRequest]. For example, to test a receiver with a
// message_sent delivery:
//
//	req, err := webhook.NewDelivery(ctx, srv.URL, webhook.TriggerMessageSent,
//		&webhook.MessageEvent{Message: msg}, "hooks", "s3cret")
func NewDelivery(ctx context.Context, url string, trigger Trigger, data any, username, password string) (*http.Request, error) {
	env, err := NewEnvelope(trigger, data)
	if err != nil {
		return nil, err
	}
	return NewRequest(ctx, url, env, username, password)
}
