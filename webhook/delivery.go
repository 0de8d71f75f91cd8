package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
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
