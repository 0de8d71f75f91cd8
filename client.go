package chat

import (
	"cmp"
	"fmt"
	"net/http"

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

	appID   string
	region  Region
	hc      *http.Client
	rc      *rest.Client
	callsRC *rest.Client
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
	o := options{region: RegionUS, retry: DefaultRetryPolicy()}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
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
	if !o.region.valid() {
		return nil, newArgError("region", `must be one of "us", "eu", "in"`)
	}
	if o.invalidOption != "" {
		return nil, newArgError("options", o.invalidOption)
	}
	if o.maxRespBytes < 0 {
		return nil, newArgError("options", "max response bytes must not be negative")
	}
	if o.timeout < 0 {
		return nil, newArgError("options", "timeout must not be negative")
	}
	apiBase, callBase := hostURL(appID, "api", o.region), hostURL(appID, "call", o.region)
	if o.baseURL != "" {
		u, problem := parseBaseURL(o.baseURL, o.loopbackHTTP)
		if problem != "" {
			return nil, newArgError("baseURL", problem)
		}
		apiBase, callBase = u, u
	}

	apiKeyHeader := []string{apiKey}[:1:1] // shared by every request; an append copies it
	rc, hc := rest.NewFromConfig(apiBase, rest.Config{
		HTTPClient:        o.httpClient,
		NewTransport:      func() http.RoundTripper { return NewTransport() },
		CredentialHeaders: []string{"apikey", "onBehalfOf"},
		LoopbackHTTP:      o.loopbackHTTP,
		Auth:              func(h http.Header) { h["Apikey"] = apiKeyHeader },
		Secrets:           func() []string { return []string{apiKey} },
		UserAgent:         cmp.Or(o.userAgent, "chat-go/"+Version),
		Logger:            o.logger,
		Timeout:           o.timeout,
		MaxResponseBytes:  o.maxRespBytes,
		Retry:             rest.RetryPolicy(o.retry),
		NewError:          newError,
		NewArgError:       newArgError,
		Limiter:           limiterFor(o.limiter, appID),
	})

	c := &Client{appID: appID, region: o.region, hc: hc, rc: rc, callsRC: rc.WithBase(callBase)}
	c.Messages = &MessagesService{rc: rc}
	c.Users = &UsersService{rc: rc}
	c.AuthTokens = &AuthTokensService{rc: rc}
	c.APIKeys = &APIKeysService{rc: rc}
	c.Groups = &GroupsService{rc: rc}
	c.Members = &MembersService{rc: rc}
	c.Bans = &BansService{rc: rc}
	c.Conversations = &ConversationsService{rc: rc}
	c.Friends = &FriendsService{rc: rc}
	c.Blocked = &BlockedService{rc: rc}
	c.Roles = &RolesService{rc: rc}
	c.Permissions = &PermissionsService{rc: rc}
	c.Moderation = &ModerationService{rc: rc}
	c.Notifications = &NotificationsService{rc: rc}
	c.DataImport = &DataImportService{rc: rc}
	c.Metrics = &MetricsService{rc: rc}
	c.AIAgents = &AIAgentsService{rc: rc}
	c.Calls = &CallsService{rc: c.callsRC}
	return c, nil
}

// AppID is the app the client talks to.
func (c *Client) AppID() string { return c.appID }

// Region is the app's region.
func (c *Client) Region() Region { return c.region }

// BaseURL is the chat API address the client sends to, version prefix
// included, e.g. "https://myapp.api-us.cometchat.io/v3".
func (c *Client) BaseURL() string { return c.rc.Base() }

// CallsBaseURL is the calls API address, e.g.
// "https://myapp.call-us.cometchat.io/v3".
func (c *Client) CallsBaseURL() string { return c.callsRC.Base() }

// CloseIdleConnections closes the idle connections of the client's
// transport, e.g. at the end of a test. The client stays usable.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// String describes the client without its API key.
func (c *Client) String() string {
	return fmt.Sprintf("chat.Client{AppID: %q, Region: %q, BaseURL: %q}", c.appID, c.region, c.BaseURL())
}

// GoString is String, so that %#v does not show the API key either.
func (c *Client) GoString() string { return c.String() }

// Format prints [Client.String] for every verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }
