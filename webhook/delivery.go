package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
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
	// Webhook is the id of the webhook the delivery is for; empty in a
	// bot's deliveries.
	Webhook string `json:"webhook"`
	// Type is "call" or "meet" on call and meeting events, empty otherwise.
	Type string `json:"type,omitempty"`
	// Origin is the client the message came from, in a bot's deliveries
	// ([TriggerAfterMessage]); nil otherwise.
	Origin *Origin `json:"origin,omitempty"`
	// ChatAPIVersion is the chat API's version, e.g. "3.0", in a bot's
	// deliveries.
	ChatAPIVersion string `json:"chatAPIVersion,omitempty"`
	// Bot is the UID of the bot a delivery is for, in a bot's deliveries.
	Bot string `json:"bot,omitempty"`
	// Raw is the whole body as received, members this package does not
	// model included; [Decode] sets it. Encoding an envelope (as
	// [NewRequest] does) writes its fields, then the members of Raw that
	// are none of them, so a delivery sent again keeps them.
	Raw json.RawMessage `json:"-"`
}

// Origin is the client a message came from, in a bot's deliveries.
type Origin struct {
	// Platform is the client's platform, e.g. "web".
	Platform string `json:"platform,omitempty"`
	// Language is the client's language or framework, e.g. "reactjs".
	Language string `json:"language,omitempty"`
	// Resource names the client, e.g. "chat-widget".
	Resource string `json:"resource,omitempty"`
}

// MarshalJSON encodes the envelope's fields, followed by the members of
// Raw that are none of them, in the order Raw has them.
func (e Envelope) MarshalJSON() ([]byte, error) {
	type plain Envelope
	b, err := json.Marshal(plain(e))
	if err != nil || len(bytes.TrimSpace(e.Raw)) == 0 {
		return b, err
	}
	extra, err := unmodelledMembers(e.Raw)
	if err != nil {
		return nil, fmt.Errorf("webhook: encoding the envelope's Raw: %w", err)
	}
	if len(extra) == 0 {
		return b, nil
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	out = append(out, extra...)
	return append(out, '}'), nil
}

// envelopeMembers are the JSON names of Envelope's fields.
var envelopeMembers = []string{"trigger", "data", "appId", "region", "webhook", "type", "origin", "chatAPIVersion", "bot"}

// unmodelledMembers returns the members of the JSON object raw that no
// field of Envelope decodes (encoding/json matches names ignoring case),
// as `"name":value` pairs separated by commas, in raw's order.
func unmodelledMembers(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []byte
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(envelopeMembers, func(m string) bool { return strings.EqualFold(m, name) }) {
			continue
		}
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, key...), ':'), value...)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return out, nil
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
// &MessageEvent{Message: m}, and that of a bot's after_message
// &BotMessageEvent{Message: m}; the fields the package decodes from inside
// other fields (MessageEvent.Mentions, MessageActionEvent.Target and By)
// and an event's Raw are not encoded. For call_* triggers the envelope's Type is "call", for
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
