// Package management is the Management API: apps, tenants, collaborators,
// app settings, extensions, webhooks and their triggers, for accounts with
// multi-tenancy. It is served on https://apimgmt.cometchat.io, independent
// of any app or region, and authenticated with a management key and secret
// (headers "key" and "secret"), never with an app's API key.
//
//	mc, err := management.NewClient(key, secret)
//	if err != nil { ... }
//	hook, err := mc.Webhooks.Get(ctx, appID, "orders-hook")
//
// Failed calls return a [*chat.Error] and bad arguments a
// [*chat.ArgumentError], as in package chat, so the same [errors.Is] checks
// ([chat.ErrNotFound], ...) apply.
package management

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/rest"
)

// DefaultBaseURL is the Management API's address.
const DefaultBaseURL = "https://apimgmt.cometchat.io"

// Client talks to the Management API. Create it with [NewClient]; it is
// safe for concurrent use.
//
// Printing a Client (with any fmt verb) shows its address, never its key or
// secret.
type Client struct {
	// Apps creates, lists and deletes apps and requests usage reports.
	Apps *AppsService
	// Tenants adds tenants: an account with its first app.
	Tenants *TenantsService
	// Collaborators adds, removes and lists an app's team members.
	Collaborators *CollaboratorsService
	// Settings maps, lists and unmaps an app's settings.
	Settings *SettingsService
	// Extensions lists, enables and configures an app's extensions.
	Extensions *ExtensionsService
	// Webhooks manages an app's webhooks and their triggers.
	Webhooks *WebhooksService
	// Moderation is the deprecated management variant of moderation rules,
	// keyword lists and blocked messages; use
	// [github.com/chatrest/chat.Client.Moderation] instead.
	Moderation *ModerationService

	c caller
}

// NewClient returns a Management API client authenticated with key and
// secret, which it sends as the "key" and "secret" headers of every
// request (and as HTTP Basic credentials to add a tenant). Both must be
// non-empty. The options are package chat's: [chat.WithHTTPClient],
// [chat.WithCAFile], [chat.WithBaseURL] (which replaces [DefaultBaseURL]),
// [chat.WithInsecureLoopback], [chat.WithUserAgent], [chat.WithLogger],
// [chat.WithRetryPolicy], [chat.WithoutRetries], [chat.WithTimeout] and
// [chat.WithMaxResponseBytes]; [chat.WithRegion] and [chat.WithLimiter],
// which concern an app's chat API, are refused. Problems are reported as a
// [*chat.ArgumentError] naming the argument.
func NewClient(key, secret string, opts ...chat.Option) (*Client, error) {
	switch {
	case key == "":
		return nil, argError("key", "must not be empty")
	case !rest.ValidHeader(key):
		return nil, argError("key", "contains a control character")
	case secret == "":
		return nil, argError("secret", "must not be empty")
	case !rest.ValidHeader(secret):
		return nil, argError("secret", "contains a control character")
	}
	// Adding a tenant authenticates with HTTP Basic auth instead; both go
	// through one transport.
	basic := base64.StdEncoding.EncodeToString([]byte(key + ":" + secret))
	callers, err := engine.NewCallers(DefaultBaseURL, opts,
		map[string]string{"key": key, "secret": secret},
		map[string]string{"Authorization": "Basic " + basic})
	if err != nil {
		return nil, err
	}
	c, tenants := callers[0], callers[1]
	return &Client{
		Apps:          &AppsService{c: c},
		Tenants:       &TenantsService{c: tenants},
		Collaborators: &CollaboratorsService{c: c},
		Settings:      &SettingsService{c: c},
		Extensions:    &ExtensionsService{c: c},
		Webhooks:      &WebhooksService{c: c},
		Moderation:    &ModerationService{c: c},
		c:             c,
	}, nil
}

// BaseURL is the address the client sends to.
func (c *Client) BaseURL() string { return c.c.BaseURL() }

// Do sends req to the Management API with the client's key and secret and
// decodes the JSON body of a successful answer into out (a pointer; nil
// discards it): the whole body, e.g. {"data": ...}. It is for endpoints the
// SDK has no method for, and goes through the same request path as every
// method: credentials, retries, errors and scrubbing, as
// [chat.Client.Do] does for the chat API. opts change this call only.
func (c *Client) Do(ctx context.Context, req *chat.Request, out any, opts ...chat.RequestOption) error {
	return c.c.Send(ctx, req, out, opts)
}

// CloseIdleConnections closes the idle connections of the client's
// transport. The client stays usable.
func (c *Client) CloseIdleConnections() { c.c.CloseIdleConnections() }

// String describes the client without its key or secret.
func (c *Client) String() string {
	if c == nil {
		return "management.Client(nil)"
	}
	return fmt.Sprintf("management.Client{BaseURL: %q}", c.BaseURL())
}

// GoString is String, so that %#v does not show the credentials either.
func (c *Client) GoString() string { return c.String() }

// Format prints [Client.String] for every verb.
func (c *Client) Format(f fmt.State, verb rune) { io.WriteString(f, c.String()) }
