package chat

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/rest"
)

// Client talks to the chat API of one app. Create it with [NewClient]; it is
// safe for concurrent use, and one client per app should be shared.
//
// Printing a Client (with any fmt verb) shows its app, region and address,
// never its API key.
type Client struct {
	// Messages sends, lists, edits and deletes messages, threaded replies,
	// reactions, pins and saves.
	Messages *MessagesService
	// Users manages users.
	Users *UsersService
	// AuthTokens mints and manages the auth tokens users log in with.
	AuthTokens *AuthTokensService
	// APIKeys manages the app's API keys.
	APIKeys *APIKeysService
	// Groups manages groups.
	Groups *GroupsService
	// Members adds, lists, re-scopes and kicks group members.
	Members *MembersService
	// Bans bans and unbans group members.
	Bans *BansService
	// Conversations lists conversations and marks them read, delivered,
	// pinned or tagged for a user.
	Conversations *ConversationsService
	// Friends manages users' friend lists.
	Friends *FriendsService
	// Blocked manages the users a user has blocked.
	Blocked *BlockedService
	// Roles manages roles and (deprecated) restricted features.
	Roles *RolesService
	// Permissions manages role and group-scope permissions (RBAC).
	Permissions *PermissionsService
	// Moderation manages moderation rules, keyword lists, blocked, flagged
	// and reviewed messages, and the reasons for flagging.
	Moderation *ModerationService
	// Notifications manages push, email and SMS notifications: app
	// settings, providers, users' preferences, mutes, timezones, contact
	// details and push tokens, and delivery logs.
	Notifications *NotificationsService
	// DataImport imports users, groups, members and messages from another
	// system, in requests of at most 50 entities.
	DataImport *DataImportService
	// Metrics reports the app's usage and message metrics.
	Metrics *MetricsService
	// AIAgents manages AI agents (Agent Builder and bring-your-own agents).
	AIAgents *AIAgentsService
	// Calls lists calls and their transcriptions, on the calls API address
	// ([Client.CallsBaseURL]) with the same API key.
	Calls *CallsService

	appID  string
	region Region
	api    *caller // the chat API
	calls  *caller // the calls API, with the same credentials and connections
}

// NewClient returns a client for the app appID, authenticated with apiKey
// (a fullAccess "REST API Key"; an authOnly key can only create users and
// auth tokens).
//
// appID must be one DNS label (letters, digits and hyphens), apiKey must not
// be empty, and the options must be valid; otherwise NewClient returns an
// [*ArgumentError] naming what is wrong. The API address is
// https://{appID}.api-{region}.cometchat.io/v3 unless [WithBaseURL] is given.
func NewClient(appID, apiKey string, opts ...Option) (*Client, error) {
	o, err := engine.NewOptions(opts)
	if err != nil {
		return nil, err
	}
	region := RegionUS
	if o.RegionSet {
		region = Region(o.Region)
	}
	if p := validAppID(appID); p != "" {
		return nil, newArgError("appID", p)
	}
	if apiKey == "" {
		return nil, newArgError("apiKey", "must not be empty")
	}
	if !rest.ValidHeader(apiKey) {
		return nil, newArgError("apiKey", "contains a control character")
	}
	if !region.valid() {
		return nil, newArgError("region", `must be one of "us", "eu", "in"`)
	}
	hc, err := o.NewHTTPClient()
	if err != nil {
		return nil, err
	}
	api, err := o.NewCaller(hostURL(appID, "api", region), appID, map[string]string{"apikey": apiKey}, hc)
	if err != nil {
		return nil, err
	}
	callBase := hostURL(appID, "call", region)
	if o.BaseURL != "" {
		callBase, _ = url.Parse(api.BaseURL()) // WithBaseURL serves both APIs
	}
	c := &Client{appID: appID, region: region, api: api, calls: api.WithBase(callBase)}
	c.Messages = &MessagesService{c: api}
	c.Users = &UsersService{c: api}
	c.AuthTokens = &AuthTokensService{c: api}
	c.APIKeys = &APIKeysService{c: api}
	c.Groups = &GroupsService{c: api}
	c.Members = &MembersService{c: api}
	c.Bans = &BansService{c: api}
	c.Conversations = &ConversationsService{c: api}
	c.Friends = &FriendsService{c: api}
	c.Blocked = &BlockedService{c: api}
	c.Roles = &RolesService{c: api}
	c.Permissions = &PermissionsService{c: api}
	c.Moderation = &ModerationService{c: api}
	c.Notifications = &NotificationsService{c: api}
	c.DataImport = &DataImportService{c: api}
	c.Metrics = &MetricsService{c: api}
	c.AIAgents = &AIAgentsService{c: api}
	c.Calls = &CallsService{c: c.calls}
	return c, nil
}

// AppID is the app the client talks to.
func (c *Client) AppID() string { return c.appID }

// Region is the app's region.
func (c *Client) Region() Region { return c.region }

// BaseURL is the chat API address the client sends to, version prefix
// included, e.g. "https://myapp.api-us.cometchat.io/v3".
func (c *Client) BaseURL() string { return c.api.BaseURL() }

// CallsBaseURL is the calls API address, e.g.
// "https://myapp.call-us.cometchat.io/v3".
func (c *Client) CallsBaseURL() string { return c.calls.BaseURL() }

// CloseIdleConnections closes the idle connections of the client's
// transport, e.g. at the end of a test. The client stays usable.
func (c *Client) CloseIdleConnections() { c.api.CloseIdleConnections() }

// String describes the client without its API key.
func (c *Client) String() string {
	return fmt.Sprintf("chat.Client{AppID: %q, Region: %q, BaseURL: %q}", c.appID, c.region, c.BaseURL())
}

// GoString is String, so that %#v does not show the API key either.
func (c *Client) GoString() string { return c.String() }

// Format prints [Client.String] for every verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// Do sends req to the chat API and decodes the JSON body of a successful
// answer into out (a pointer; nil discards it): the whole body, e.g.
// {"data": ...}. It is for endpoints the SDK has no method for, and goes
// through the same request path as every method: credentials, retries,
// rate limiting, errors. opts change this call only.
//
// A failed call returns a [*Error] (the service answered with a non-2xx
// status, or a 2xx that could not be read or that held no data: out stays
// at its zero value, and the error wraps [ErrEmptyResponse]); a bad
// request an [*ArgumentError] before anything is sent; the context's error
// when it ended; a transport error otherwise, with every credential
// scrubbed from its text.
func (c *Client) Do(ctx context.Context, req *Request, out any, opts ...RequestOption) error {
	return c.api.Send(ctx, req, out, opts)
}

// NewTransport returns the transport a client uses by default: a clone of
// [http.DefaultTransport] tuned for many concurrent calls to one host (256
// idle connections per host instead of 2, HTTP/2 when the server offers it).
// Use it as the base when you need your own TLS settings.
func NewTransport() *http.Transport { return engine.NewTransport() }
