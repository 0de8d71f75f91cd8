package management

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
	"github.com/chatrest/chat/webhook"
)

// WebhooksService manages an app's webhooks, the HTTPS endpoints the
// platform POSTs events to, and the triggers each one subscribes to. Get it
// from [Client.Webhooks]; receive the deliveries with package
// [github.com/chatrest/chat/webhook].
//
// Every operation accepts [WithWebhookVersion] to choose between the legacy
// webhook implementation (the default) and the new one.
type WebhooksService struct{ c caller }

// The service's limits on webhooks; the client checks them before
// sending.
const (
	// MaxWebhooksPerApp is how many webhooks an app may have.
	MaxWebhooksPerApp = 25
	// MaxWebhookIDLen is the longest webhook id, in characters.
	MaxWebhookIDLen = 50
	// MaxWebhookNameLen is the longest webhook name, in characters.
	MaxWebhookNameLen = 50
	// MaxWebhookURLLen is the longest webhook URL, in characters.
	MaxWebhookURLLen = 255
	// MaxWebhookUsernameLen is the longest Basic-auth user name.
	MaxWebhookUsernameLen = 50
	// MaxWebhookPasswordLen is the longest Basic-auth password.
	MaxWebhookPasswordLen = 100
)

// webhookVersionHeader is the header that selects the webhook
// implementation.
const webhookVersionHeader = "X-Webhook-Version"

// WithWebhookVersion selects the webhook implementation a webhook or
// trigger call works on, with the X-Webhook-Version header: without the
// option the header is not sent and the service uses the legacy
// implementation; WithWebhookVersion(2) selects the new one. A version
// below 1 removes the header again. Given twice, the last one wins.
//
// The two implementations may differ in payloads, triggers and retries:
// test the version you choose against your receiver.
func WithWebhookVersion(v int) chat.RequestOption {
	if v < 1 {
		return chat.WithHeader(webhookVersionHeader, "")
	}
	return chat.WithHeader(webhookVersionHeader, strconv.Itoa(v))
}

// Webhook is a webhook of an app: where the service POSTs the events of the
// triggers it subscribes to, and how.
//
// Printing a Webhook (with any fmt verb) never shows its Password.
type Webhook struct {
	// ID is the webhook's id, chosen at creation.
	ID string `json:"id"`
	// Name is the display name.
	Name string `json:"name,omitempty"`
	// URL is where deliveries are POSTed (wire name webhookURL).
	URL string `json:"webhookURL,omitempty"`
	// UseBasicAuth reports whether deliveries carry HTTP Basic auth with
	// Username and Password.
	UseBasicAuth bool `json:"useBasicAuth,omitempty"`
	// Username is the Basic-auth user name.
	Username string `json:"username,omitempty"`
	// Password is the Basic-auth password, when the service returns it
	// (answers usually leave it out).
	Password chat.Secret `json:"password,omitempty"`
	// Enabled reports whether the webhook receives deliveries; false when
	// the answer leaves it out.
	Enabled bool `json:"enabled,omitempty"`
	// RetryOnFailure reports whether failed deliveries are retried; false
	// when the answer leaves it out.
	RetryOnFailure bool `json:"retryOnFailure,omitempty"`
	// CreatedAt and UpdatedAt are Unix seconds.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
	UpdatedAt chat.Timestamp `json:"updatedAt,omitempty"`
}

// UnmarshalJSON decodes a webhook, also when the service wraps it as
// {"data": {...}} (the answer of get and update puts such a wrapper in an
// array, [{"data": {...}}], which decodes too).
func (w *Webhook) UnmarshalJSON(b []byte) error {
	type plain Webhook
	var v struct {
		plain
		Data *plain `json:"data"`
	}
	if err := rest.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Data != nil && v.ID == "" {
		*w = Webhook(*v.Data)
		return nil
	}
	*w = Webhook(v.plain)
	return nil
}

// String describes the webhook with its password, if any, shown as
// REDACTED.
func (w Webhook) String() string {
	return fmt.Sprintf("management.Webhook{ID: %q, Name: %q, URL: %q, UseBasicAuth: %t, Username: %q, Password: %s, Enabled: %t, RetryOnFailure: %t, CreatedAt: %d, UpdatedAt: %d}",
		w.ID, w.Name, shownURL(w.URL), w.UseBasicAuth, w.Username, shownSecret(w.Password), w.Enabled, w.RetryOnFailure, w.CreatedAt, w.UpdatedAt)
}

// GoString is String, so that %#v does not show the password either.
func (w Webhook) GoString() string { return w.String() }

// Format prints [Webhook.String] for every verb.
func (w Webhook) Format(f fmt.State, verb rune) { io.WriteString(f, w.String()) }

// CreateWebhookRequest is the body of [WebhooksService.Create].
//
// Printing it (with any fmt verb) never shows its Password.
type CreateWebhookRequest struct {
	// ID is required: at most 50 characters, letters, digits, "_" and
	// "-" (no spaces); the client leaves the final word on the characters
	// to the service.
	ID string `json:"id"`
	// Name is required: at most 50 characters.
	Name string `json:"name"`
	// URL is required: at most 255 characters, https. The service needs a
	// publicly reachable HTTPS endpoint; the client also accepts plain
	// http to a loopback host (localhost, 127.0.0.0/8, ::1), for a
	// receiver on the machine of a local server.
	URL string `json:"webhookURL"`
	// UseBasicAuth makes deliveries carry HTTP Basic auth with Username
	// and Password, both then required (recommended).
	UseBasicAuth bool `json:"useBasicAuth,omitempty"`
	// Username is the Basic-auth user name: at most 50 characters, no
	// spaces.
	Username string `json:"username,omitempty"`
	// Password is the Basic-auth password: at most 100 characters, no
	// spaces. The service may refuse characters other than letters and
	// digits in either; the client does not check that.
	Password chat.Secret `json:"password,omitempty"`
	// Enabled switches deliveries on or off; nil leaves the service's
	// default. Set it, e.g. Enabled: new(true), to be sure.
	Enabled *bool `json:"enabled,omitempty"`
	// RetryOnFailure retries deliveries that fail with a non-2xx status
	// or a network error (default false), as often and as late as the
	// service decides.
	RetryOnFailure bool `json:"retryOnFailure,omitempty"`
}

// String describes the request with its password, if any, shown as
// REDACTED.
func (r CreateWebhookRequest) String() string {
	return fmt.Sprintf("management.CreateWebhookRequest{ID: %q, Name: %q, URL: %q, UseBasicAuth: %t, Username: %q, Password: %s, Enabled: %s, RetryOnFailure: %t}",
		r.ID, r.Name, shownURL(r.URL), r.UseBasicAuth, r.Username, shownSecret(r.Password), shownBool(r.Enabled), r.RetryOnFailure)
}

// GoString is String, so that %#v does not show the password either.
func (r CreateWebhookRequest) GoString() string { return r.String() }

// Format prints [CreateWebhookRequest.String] for every verb.
func (r CreateWebhookRequest) Format(f fmt.State, verb rune) { io.WriteString(f, r.String()) }

// UpdateWebhookRequest is the body of [WebhooksService.Update]. Every
// field is optional: nil fields are not sent and stay as they are; the
// limits of [CreateWebhookRequest] apply to those that are set.
//
// Printing it (with any fmt verb) never shows its Password.
type UpdateWebhookRequest struct {
	// Name is the new display name.
	Name *string `json:"name,omitempty"`
	// URL is the new delivery address (wire name webhookURL).
	URL *string `json:"webhookURL,omitempty"`
	// UseBasicAuth switches HTTP Basic auth on or off.
	UseBasicAuth *bool `json:"useBasicAuth,omitempty"`
	// Username is the new Basic-auth user name.
	Username *string `json:"username,omitempty"`
	// Password is the new Basic-auth password.
	Password *chat.Secret `json:"password,omitempty"`
	// RetryOnFailure switches retries of failed deliveries on or off.
	RetryOnFailure *bool `json:"retryOnFailure,omitempty"`
	// Enabled switches deliveries on or off.
	Enabled *bool `json:"enabled,omitempty"`
}

// String describes the request with its password, if set, shown as
// REDACTED.
func (r UpdateWebhookRequest) String() string {
	pw := "nil"
	if r.Password != nil {
		pw = shownSecret(*r.Password)
	}
	return fmt.Sprintf("management.UpdateWebhookRequest{Name: %s, URL: %s, UseBasicAuth: %s, Username: %s, Password: %s, RetryOnFailure: %s, Enabled: %s}",
		shownString(r.Name, false), shownString(r.URL, true), shownBool(r.UseBasicAuth), shownString(r.Username, false), pw,
		shownBool(r.RetryOnFailure), shownBool(r.Enabled))
}

// GoString is String, so that %#v does not show the password either.
func (r UpdateWebhookRequest) GoString() string { return r.String() }

// Format prints [UpdateWebhookRequest.String] for every verb.
func (r UpdateWebhookRequest) Format(f fmt.State, verb rune) { io.WriteString(f, r.String()) }

// shownSecret is how a secret prints: REDACTED, or "" when empty.
func shownSecret(s chat.Secret) string {
	if s == "" {
		return `""`
	}
	return redact.Redacted
}

// shownURL is u with any password in its user information redacted.
func shownURL(u string) string {
	if p, err := url.Parse(u); err == nil && p.User != nil {
		return p.Redacted()
	}
	return u
}

func shownBool(b *bool) string {
	if b == nil {
		return "nil"
	}
	return strconv.FormatBool(*b)
}

func shownString(s *string, isURL bool) string {
	if s == nil {
		return "nil"
	}
	if isURL {
		return strconv.Quote(shownURL(*s))
	}
	return strconv.Quote(*s)
}

// Create creates a webhook in the app appID and returns it. It subscribes
// to no trigger yet: add them with [WebhooksService.AddTriggers]. The
// request is checked against the service's limits first (see
// [CreateWebhookRequest]); a problem is a [*chat.ArgumentError] naming the
// field, e.g. "req.URL".
//
// API: POST /apps/{appId}/webhooks (management)
func (s *WebhooksService) Create(ctx context.Context, appID string, req *CreateWebhookRequest, opts ...chat.RequestOption) (*Webhook, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Webhook](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "webhooks"}, Body: req}, opts)
}

// Validate checks r as [WebhooksService.Create] does before sending: the
// ID's length ([MaxWebhookIDLen]) and characters, the Name's length
// ([MaxWebhookNameLen]), an https URL ([MaxWebhookURLLen]; plain http to
// a loopback host), a Username and Password with UseBasicAuth, their
// lengths ([MaxWebhookUsernameLen], [MaxWebhookPasswordLen]) and no space
// in them, and no control character anywhere. It returns a
// [*chat.ArgumentError] naming the field at fault (e.g. "req.URL"), or
// nil.
func (r *CreateWebhookRequest) Validate() error {
	if err := checkWebhookID("req.ID", r.ID); err != nil {
		return err
	}
	if r.Name == "" {
		return argError("req.Name", "must not be empty")
	}
	if err := checkWebhookText("req.Name", r.Name, MaxWebhookNameLen, false); err != nil {
		return err
	}
	if err := checkWebhookURL("req.URL", r.URL); err != nil {
		return err
	}
	if r.UseBasicAuth && r.Username == "" {
		return argError("req.Username", "must not be empty when UseBasicAuth is set")
	}
	if r.UseBasicAuth && r.Password == "" {
		return argError("req.Password", "must not be empty when UseBasicAuth is set")
	}
	if err := checkWebhookText("req.Username", r.Username, MaxWebhookUsernameLen, true); err != nil {
		return err
	}
	return checkWebhookText("req.Password", string(r.Password), MaxWebhookPasswordLen, true)
}

// Validate checks the fields r sets as [WebhooksService.Update] does
// before sending, against the limits [CreateWebhookRequest.Validate]
// checks; a Name set must not be empty. It returns a
// [*chat.ArgumentError] naming the field at fault, or nil.
func (r *UpdateWebhookRequest) Validate() error {
	if r.Name != nil {
		if *r.Name == "" {
			return argError("req.Name", "must not be empty")
		}
		if err := checkWebhookText("req.Name", *r.Name, MaxWebhookNameLen, false); err != nil {
			return err
		}
	}
	if r.URL != nil {
		if err := checkWebhookURL("req.URL", *r.URL); err != nil {
			return err
		}
	}
	if r.Username != nil {
		if err := checkWebhookText("req.Username", *r.Username, MaxWebhookUsernameLen, true); err != nil {
			return err
		}
	}
	if r.Password != nil {
		return checkWebhookText("req.Password", string(*r.Password), MaxWebhookPasswordLen, true)
	}
	return nil
}

// checkWebhookID checks a webhook id: 1 to 50 letters, digits, "_" or "-".
func checkWebhookID(name, id string) error {
	if id == "" {
		return argError(name, "must not be empty")
	}
	if len(id) > MaxWebhookIDLen {
		return argError(name, fmt.Sprintf("must be at most %d characters", MaxWebhookIDLen))
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return argError(name, `may contain only letters, digits, "_" and "-"`)
		}
	}
	return nil
}

// checkWebhookText checks a length in characters and, for credentials,
// that there is no space or control character.
func checkWebhookText(name, s string, maxLen int, credential bool) error {
	if utf8.RuneCountInString(s) > maxLen {
		return argError(name, fmt.Sprintf("must be at most %d characters", maxLen))
	}
	for _, r := range s {
		switch {
		case r < ' ' || r == 0x7f:
			return argError(name, "must not contain control characters")
		case credential && (r == ' ' || r == 0xa0):
			return argError(name, "must not contain spaces")
		}
	}
	return nil
}

// checkWebhookURL checks a delivery address: an absolute https URL of at
// most 255 characters, or plain http to a loopback host.
func checkWebhookURL(name, raw string) error {
	if raw == "" {
		return argError(name, "must not be empty")
	}
	if utf8.RuneCountInString(raw) > MaxWebhookURLLen {
		return argError(name, fmt.Sprintf("must be at most %d characters", MaxWebhookURLLen))
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || strings.ContainsAny(raw, " \t\r\n") {
		return argError(name, "must be an absolute URL with a host")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !rest.IsLoopback(u.Hostname()) {
			return argError(name, "must use https (plain http only to a loopback host, for tests)")
		}
	default:
		return argError(name, "must use https")
	}
	return nil
}

// ListWebhooksOptions filters the list of webhooks.
type ListWebhooksOptions struct {
	// PerPage is the page size: default 100, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// SearchKey keeps the webhooks whose name matches it.
	SearchKey string `url:"searchKey,omitempty"`
}

// List returns the webhooks of the app appID, with meta.pagination. The
// list takes no page parameter, and an app has at most 25 webhooks
// ([MaxWebhooksPerApp]), so the default page of 100 holds them all and
// there is no iterator.
//
// API: GET /apps/{appId}/webhooks (management)
func (s *WebhooksService) List(ctx context.Context, appID string, opts *ListWebhooksOptions, reqOpts ...chat.RequestOption) (*chat.Page[Webhook], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	var page chat.Page[Webhook]
	call := &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "webhooks"}}
	if opts != nil {
		call.Query = opts
	}
	if err := s.c.Send(ctx, call, &page, reqOpts); err != nil {
		return nil, err
	}
	return &page, nil
}

// Get returns the webhook webhookID of the app appID.
//
// API: GET /apps/{appId}/webhooks/{webhookId} (management)
func (s *WebhooksService) Get(ctx context.Context, appID, webhookID string, opts ...chat.RequestOption) (*Webhook, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	return do[Webhook](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "webhooks", webhookID}}, opts)
}

// Update changes the fields req sets on the webhook webhookID of the app
// appID and returns the webhook.
//
// API: PUT /apps/{appId}/webhooks/{webhookId} (management)
func (s *WebhooksService) Update(ctx context.Context, appID, webhookID string, req *UpdateWebhookRequest, opts ...chat.RequestOption) (*Webhook, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Webhook](ctx, s.c, &chat.Request{Method: http.MethodPut, Path: []string{"apps", appID, "webhooks", webhookID}, Body: req}, opts)
}

// Delete deletes the webhook webhookID of the app appID; its deliveries
// stop.
//
// API: DELETE /apps/{appId}/webhooks/{webhookId} (management)
func (s *WebhooksService) Delete(ctx context.Context, appID, webhookID string, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: []string{"apps", appID, "webhooks", webhookID}}, opts)
}

// Trigger is an event a webhook can subscribe to, as [WebhooksService.ListTriggers]
// returns it.
type Trigger struct {
	// ID is the trigger, e.g. [webhook.TriggerMessageSent]; package
	// webhook decodes the event each one delivers.
	ID webhook.Trigger `json:"id"`
	// Category is the trigger's area, e.g. messages or groups.
	Category string `json:"category,omitempty"`
	// Description says when the trigger fires.
	Description string `json:"description,omitempty"`
}

// triggersBody is the body of add-triggers and remove-triggers.
type triggersBody struct {
	TriggerIDs []webhook.Trigger `json:"triggerIds"`
}

func checkTriggerIDs(ids []webhook.Trigger) error {
	if len(ids) == 0 {
		return argError("triggerIDs", "must name at least one trigger")
	}
	for i, id := range ids {
		if id == "" {
			return argError("triggerIDs["+strconv.Itoa(i)+"]", "must not be empty")
		}
	}
	return nil
}

// AddTriggers subscribes the webhook webhookID of the app appID to the
// triggers triggerIDs (e.g. "message_sent"; see [webhook.Trigger]) and
// returns the outcome per trigger id. Adding a trigger the webhook already
// has is not an error; an unknown trigger id is ERR_TRIGGER_NOT_FOUND.
//
// The trigger ids are a slice rather than variadic so that request options
// such as [WithWebhookVersion] can follow them.
//
// API: POST /apps/{appId}/webhooks/{webhookId}/triggers (management)
func (s *WebhooksService) AddTriggers(ctx context.Context, appID, webhookID string, triggerIDs []webhook.Trigger, opts ...chat.RequestOption) (map[string]chat.Result, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	if err := checkTriggerIDs(triggerIDs); err != nil {
		return nil, err
	}
	out, err := do[map[string]chat.Result](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "webhooks", webhookID, "triggers"}, Body: &triggersBody{triggerIDs}}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// ListTriggers returns the triggers the webhook webhookID of the app appID
// subscribes to. The response carries meta.pagination, but the list takes
// no paging parameter and there are only 48 triggers, so all of them come
// in one call.
//
// API: GET /apps/{appId}/webhooks/{webhookId}/triggers (management)
func (s *WebhooksService) ListTriggers(ctx context.Context, appID, webhookID string, opts ...chat.RequestOption) ([]Trigger, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	out, err := do[[]Trigger](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "webhooks", webhookID, "triggers"}}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// RemoveTriggers unsubscribes the webhook webhookID of the app appID from
// the triggers triggerIDs.
//
// API: DELETE /apps/{appId}/webhooks/{webhookId}/triggers (management)
func (s *WebhooksService) RemoveTriggers(ctx context.Context, appID, webhookID string, triggerIDs []webhook.Trigger, opts ...chat.RequestOption) (*chat.Result, error) {
	if err := required("appID", appID, "webhookID", webhookID); err != nil {
		return nil, err
	}
	if err := checkTriggerIDs(triggerIDs); err != nil {
		return nil, err
	}
	return do[chat.Result](ctx, s.c, &chat.Request{Method: http.MethodDelete, Path: []string{"apps", appID, "webhooks", webhookID, "triggers"}, Body: &triggersBody{triggerIDs}}, opts)
}
