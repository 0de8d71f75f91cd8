package fake

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// The service's limits on webhooks.
const (
	maxWebhooks           = 25
	maxWebhookIDLen       = 50
	maxWebhookNameLen     = 50
	maxWebhookURLLen      = 255
	maxWebhookUsernameLen = 50
	maxWebhookPasswordLen = 100
)

const (
	codeWebhookNotFound = "ERR_WEBHOOK_NOT_FOUND"
	codeTriggerNotFound = "ERR_TRIGGER_NOT_FOUND"
)

// hooksState holds webhooks and their triggers; the webhooks' consumer of
// the outbox holds the deliveries (internal/webhooks).
type hooksState struct {
	webhooks map[string][]*hookRec // by app id, in creation order
}

func (h *hooksState) init() {
	h.webhooks = map[string][]*hookRec{}
}

// hookRec is a stored webhook and the triggers it subscribes to.
type hookRec struct {
	w        webhookWire
	password string
	triggers map[string]bool
}

// webhookWire is a webhook as the fake answers it. The password is never
// answered (see CHOICES.md): a fake that echoed it would put it in every
// test log. retryOnFailure, whose presence in answers the reference leaves
// unconfirmed, is answered only when true.
type webhookWire struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	WebhookURL     string         `json:"webhookURL"`
	UseBasicAuth   bool           `json:"useBasicAuth"`
	Username       string         `json:"username,omitempty"`
	Enabled        bool           `json:"enabled"`
	RetryOnFailure bool           `json:"retryOnFailure,omitempty"`
	CreatedAt      chat.Timestamp `json:"createdAt"`
	UpdatedAt      chat.Timestamp `json:"updatedAt"`
}

// triggerInfo is a trigger as list-triggers answers it.
type triggerInfo struct {
	ID          string `json:"id"`
	Category    string `json:"category"`
	Description string `json:"description"`
}

// triggerTable is the 48 trigger ids, in the order of [webhook.Triggers].
// The categories and descriptions are the fake's own words.
var triggerTable = []triggerInfo{
	{"message_sent", "messages", "A message is sent."},
	{"message_edited", "messages", "A message is edited."},
	{"message_deleted", "messages", "A message is deleted."},
	{"message_reaction_added", "messages", "A user reacts to a message."},
	{"message_reaction_removed", "messages", "A user removes a reaction from a message."},
	{"message_delivery_receipt", "messages", "A message is marked delivered."},
	{"message_read_receipt", "messages", "A message is marked read."},
	{"message_delivered_to_all", "messages", "Every recipient of a message has received it."},
	{"message_read_by_all", "messages", "Every recipient of a message has read it."},
	{"user_blocked", "users", "A user blocks other users."},
	{"user_unblocked", "users", "A user unblocks other users."},
	{"user_connection_status_changed", "users", "A user connects or disconnects."},
	{"group_created", "groups", "A group is created."},
	{"group_updated", "groups", "A group is updated."},
	{"group_deleted", "groups", "A group is deleted."},
	{"group_member_joined", "groups", "A user joins a group."},
	{"group_member_left", "groups", "A member leaves a group."},
	{"group_member_added", "groups", "Users are added to a group."},
	{"group_member_kicked", "groups", "A member is kicked from a group."},
	{"group_member_banned", "groups", "A user is banned from a group."},
	{"group_member_unbanned", "groups", "A user is unbanned from a group."},
	{"group_member_scope_changed", "groups", "A member's scope changes."},
	{"group_owner_transferred", "groups", "A group's ownership is transferred."},
	{"call_initiated", "calls", "A call is initiated."},
	{"call_started", "calls", "A call starts."},
	{"call_participant_joined", "calls", "A participant joins a call."},
	{"call_participant_left", "calls", "A participant leaves a call."},
	{"call_ended", "calls", "A call ends."},
	{"meeting_started", "calls", "A meeting starts."},
	{"meeting_participant_joined", "calls", "A participant joins a meeting."},
	{"meeting_participant_left", "calls", "A participant leaves a meeting."},
	{"meeting_ended", "calls", "A meeting ends."},
	{"recording_generated", "calls", "A call recording is ready."},
	{"transcription_generated", "calls", "A call transcription is ready."},
	{"moderation_engine_approved", "moderation", "The moderation engine approves a message."},
	{"moderation_engine_blocked", "moderation", "The moderation engine blocks a message."},
	{"moderation_manual_approved", "moderation", "A moderator approves a blocked message."},
	{"moderation_engine_failed", "moderation", "A moderation engine fails to judge a message."},
	{"after_campaign_completed", "campaigns", "A campaign completes."},
	{"after_campaign_failed", "campaigns", "A campaign fails."},
	{"after_notification_created", "campaigns", "A notification is created."},
	{"after_feed_item_sent", "campaigns", "A feed item is sent."},
	{"after_feed_item_delivered", "campaigns", "A feed item is delivered."},
	{"after_feed_item_read", "campaigns", "A feed item is read."},
	{"after_feed_item_interacted", "campaigns", "A user interacts with a feed item."},
	{"after_push_notification_sent", "campaigns", "A push notification is sent."},
	{"after_push_notification_delivered", "campaigns", "A push notification is delivered."},
	{"after_push_notification_clicked", "campaigns", "A push notification is clicked."},
}

// knownTrigger reports whether id is one of the 48 trigger ids.
func knownTrigger(id string) bool {
	return slices.ContainsFunc(triggerTable, func(t triggerInfo) bool { return t.ID == id })
}

func mgmtWebhookRoutes() []route {
	return []route{
		{pattern: "POST /apps/{appId}/webhooks", reach: appOnly, handle: (*state).createWebhook},
		{pattern: "GET /apps/{appId}/webhooks", reach: appOnly, handle: (*state).listWebhooks},
		{pattern: "GET /apps/{appId}/webhooks/{webhookId}", reach: appOnly, handle: (*state).getWebhook},
		{pattern: "PUT /apps/{appId}/webhooks/{webhookId}", reach: appOnly, handle: (*state).updateWebhook},
		{pattern: "DELETE /apps/{appId}/webhooks/{webhookId}", reach: appOnly, handle: (*state).deleteWebhook},
		{pattern: "POST /apps/{appId}/webhooks/{webhookId}/triggers", reach: appOnly, handle: (*state).addTriggers},
		{pattern: "GET /apps/{appId}/webhooks/{webhookId}/triggers", reach: appOnly, handle: (*state).listTriggers},
		{pattern: "DELETE /apps/{appId}/webhooks/{webhookId}/triggers", reach: appOnly, handle: (*state).removeTriggers},
	}
}

// hookApp returns the app id of a webhook route after checking the
// request: the app must be one of the account's active apps ([appFor]:
// 404 ERR_APP_NOT_FOUND, 403 ERR_APP_ARCHIVED); an X-Webhook-Version
// header, when sent, must be a positive integer. Every app keeps its own
// webhooks, but only the fake's own app has events to deliver. The fake
// keeps one set of webhooks whatever the version (see CHOICES.md).
func (st *state) hookApp(c *call) (string, error) {
	if v := c.r.Header.Get("X-Webhook-Version"); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 1 {
			return "", validationError(map[string][]string{"X-Webhook-Version": {"The X-Webhook-Version header must be a positive integer."}})
		}
	}
	a, err := st.appFor(c)
	if err != nil {
		return "", err
	}
	return a.app.ID, nil
}

// hook returns the app id and the webhook of the path, or 404
// ERR_WEBHOOK_NOT_FOUND.
func (st *state) hook(c *call) (string, *hookRec, error) {
	app, err := st.hookApp(c)
	if err != nil {
		return "", nil, err
	}
	id := c.r.PathValue("webhookId")
	for _, h := range st.webhooks[app] {
		if h.w.ID == id {
			return app, h, nil
		}
	}
	return "", nil, newAPIError(http.StatusNotFound, codeWebhookNotFound, "The webhook "+id+" does not exist in the app "+app+".", "")
}

// webhookBody is the body of create-webhook and update-webhook; nil fields
// were not sent.
type webhookBody struct {
	ID             *string `json:"id"`
	Name           *string `json:"name"`
	WebhookURL     *string `json:"webhookURL"`
	UseBasicAuth   *bool   `json:"useBasicAuth"`
	Username       *string `json:"username"`
	Password       *string `json:"password"`
	Enabled        *bool   `json:"enabled"`
	RetryOnFailure *bool   `json:"retryOnFailure"`
}

// webhookBodyOf reads and checks the body of create-webhook (create) or
// update-webhook.
func webhookBodyOf(c *call, create bool) (webhookBody, error) {
	var b webhookBody
	if err := c.decode(&b); err != nil {
		return b, err
	}
	var v validator
	b.check(&v, create)
	return b, v.err()
}

// check validates the fields sent; create requires id, name and
// webhookURL. The rules are those package management checks: the
// service's lengths, an id of letters, digits, "_" and "-", credentials
// without spaces, and an https URL, or plain http to a
// loopback host so that tests can use httptest.NewServer receivers.
func (b *webhookBody) check(v *validator, create bool) {
	if create {
		checkWebhookID(v, hookString(b.ID))
		if b.Name == nil {
			b.Name = new("")
		}
		if b.WebhookURL == nil {
			b.WebhookURL = new("")
		}
	}
	if b.Name != nil {
		checkWebhookString(v, "name", *b.Name, true, maxWebhookNameLen, false)
	}
	if b.WebhookURL != nil {
		checkWebhookURL(v, *b.WebhookURL)
	}
	if b.Username != nil {
		checkWebhookString(v, "username", *b.Username, false, maxWebhookUsernameLen, true)
	}
	if b.Password != nil {
		checkWebhookString(v, "password", *b.Password, false, maxWebhookPasswordLen, true)
	}
}

func hookString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func checkWebhookID(v *validator, id string) {
	if id == "" {
		v.add("id", "The id field is required.")
		return
	}
	if len(id) > maxWebhookIDLen {
		v.add("id", "The id may not be greater than %d characters.", maxWebhookIDLen)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			v.add("id", "The id may only contain letters, numbers, dashes and underscores.")
			return
		}
	}
}

func checkWebhookString(v *validator, field, s string, required bool, maxLen int, credential bool) {
	if s == "" && required {
		v.add(field, "The %s field is required.", field)
		return
	}
	if utf8.RuneCountInString(s) > maxLen {
		v.add(field, "The %s may not be greater than %d characters.", field, maxLen)
	}
	if credential && strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r == 0xa0 }) {
		v.add(field, "The %s may not contain spaces or control characters.", field)
	}
}

func checkWebhookURL(v *validator, raw string) {
	if raw == "" {
		v.add("webhookURL", "The webhookURL field is required.")
		return
	}
	if utf8.RuneCountInString(raw) > maxWebhookURLLen {
		v.add("webhookURL", "The webhookURL may not be greater than %d characters.", maxWebhookURLLen)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		v.add("webhookURL", "The webhookURL must be a valid URL.")
	case u.Scheme == "https":
	case u.Scheme == "http" && rest.IsLoopback(u.Hostname()):
	default:
		v.add("webhookURL", "The webhookURL must use https.")
	}
}

// checkBasicAuth requires a username and password on a webhook that uses
// Basic auth.
func checkBasicAuth(h *hookRec) error {
	if !h.w.UseBasicAuth {
		return nil
	}
	var v validator
	if h.w.Username == "" {
		v.add("username", "The username field is required when useBasicAuth is true.")
	}
	if h.password == "" {
		v.add("password", "The password field is required when useBasicAuth is true.")
	}
	return v.err()
}

// apply sets the fields the body sent.
func (b *webhookBody) apply(h *hookRec) {
	if b.Name != nil {
		h.w.Name = *b.Name
	}
	if b.WebhookURL != nil {
		h.w.WebhookURL = *b.WebhookURL
	}
	if b.UseBasicAuth != nil {
		h.w.UseBasicAuth = *b.UseBasicAuth
	}
	if b.Username != nil {
		h.w.Username = *b.Username
	}
	if b.Password != nil {
		h.password = *b.Password
	}
	if b.Enabled != nil {
		h.w.Enabled = *b.Enabled
	}
	if b.RetryOnFailure != nil {
		h.w.RetryOnFailure = *b.RetryOnFailure
	}
}

// POST /apps/{appId}/webhooks
//
// enabled defaults to true (a webhook is created to receive events) and
// retryOnFailure to false. A taken id is a 400 ERR_BAD_REQUEST on the id
// field, and a 26th webhook a 400 ERR_PLAN_QUOTA_RESTRICTION, as for API
// keys (see CHOICES.md). The new webhook subscribes to no trigger.
func (st *state) createWebhook(c *call) (any, error) {
	app, err := st.hookApp(c)
	if err != nil {
		return nil, err
	}
	b, err := webhookBodyOf(c, true)
	if err != nil {
		return nil, err
	}
	for _, h := range st.webhooks[app] {
		if h.w.ID == *b.ID {
			return nil, validationError(map[string][]string{"id": {"The id has already been taken."}})
		}
	}
	if len(st.webhooks[app]) >= maxWebhooks {
		return nil, newAPIError(http.StatusBadRequest, codePlanQuota, "An app can have at most 25 webhooks.", "")
	}
	now := c.timestamp()
	h := &hookRec{w: webhookWire{ID: *b.ID, Enabled: true, CreatedAt: now, UpdatedAt: now}, triggers: map[string]bool{}}
	b.apply(h)
	if err := checkBasicAuth(h); err != nil {
		return nil, err
	}
	st.webhooks[app] = append(st.webhooks[app], h)
	touchField(st, &st.webhooks)
	return data(h.w), nil
}

// GET /apps/{appId}/webhooks
//
// Webhooks in creation order; searchKey keeps those whose name contains it
// (case-insensitively). perPage defaults to 100 (at most 1000); page is
// accepted too.
func (st *state) listWebhooks(c *call) (any, error) {
	app, err := st.hookApp(c)
	if err != nil {
		return nil, err
	}
	p := c.params()
	q := pageParams(p)
	if err := p.err(); err != nil {
		return nil, err
	}
	search := strings.ToLower(p.str("searchKey"))
	var match []webhookWire
	for _, h := range st.webhooks[app] {
		if strings.Contains(strings.ToLower(h.w.Name), search) {
			match = append(match, h.w)
		}
	}
	page, meta := paginate(match, q)
	return chat.Page[webhookWire]{Data: page, Meta: meta}, nil
}

// GET /apps/{appId}/webhooks/{webhookId}
func (st *state) getWebhook(c *call) (any, error) {
	_, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	return data(h.w), nil
}

// PUT /apps/{appId}/webhooks/{webhookId}
//
// The fields sent replace the webhook's; an id in the body is ignored.
// Turning useBasicAuth on needs a username and password, sent now or
// before.
func (st *state) updateWebhook(c *call) (any, error) {
	_, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	b, err := webhookBodyOf(c, false)
	if err != nil {
		return nil, err
	}
	next := *h
	b.apply(&next)
	if err := checkBasicAuth(&next); err != nil {
		return nil, err
	}
	next.w.UpdatedAt = c.timestamp()
	*h = next
	return data(h.w), nil
}

// DELETE /apps/{appId}/webhooks/{webhookId}
//
// Deliveries already queued for the webhook are still made.
func (st *state) deleteWebhook(c *call) (any, error) {
	app, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	st.webhooks[app] = slices.DeleteFunc(st.webhooks[app], func(r *hookRec) bool { return r == h })
	touchField(st, &st.webhooks)
	return data(chat.Result{Success: true, Message: "Deleted Webhook successfully."}), nil
}

// triggerIDs reads the body's triggerIds: a non-empty array of the 48
// trigger ids. An unknown id is a 404 ERR_TRIGGER_NOT_FOUND, and the call
// changes nothing.
func triggerIDs(c *call) ([]string, error) {
	var b struct {
		TriggerIDs []string `json:"triggerIds"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if len(b.TriggerIDs) == 0 {
		return nil, validationError(map[string][]string{"triggerIds": {"The triggerIds field is required."}})
	}
	for _, id := range b.TriggerIDs {
		if !knownTrigger(id) {
			return nil, newAPIError(http.StatusNotFound, codeTriggerNotFound, "The trigger "+id+" does not exist.", "")
		}
	}
	return b.TriggerIDs, nil
}

// POST /apps/{appId}/webhooks/{webhookId}/triggers
//
// Adding a trigger the webhook has is a success too.
func (st *state) addTriggers(c *call) (any, error) {
	_, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	ids, err := triggerIDs(c)
	if err != nil {
		return nil, err
	}
	out := map[string]chat.Result{}
	for _, id := range ids {
		h.triggers[id] = true
		out[id] = chat.Result{Success: true, Message: "Triggers has been added successfully."}
	}
	return data(out), nil
}

// GET /apps/{appId}/webhooks/{webhookId}/triggers
//
// The webhook's triggers in the order of [webhook.Triggers], page-paginated
// (perPage default 100).
func (st *state) listTriggers(c *call) (any, error) {
	_, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	q, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	var subscribed []triggerInfo
	for _, t := range triggerTable {
		if h.triggers[t.ID] {
			subscribed = append(subscribed, t)
		}
	}
	page, meta := paginate(subscribed, q)
	return chat.Page[triggerInfo]{Data: page, Meta: meta}, nil
}

// DELETE /apps/{appId}/webhooks/{webhookId}/triggers
//
// Removing a trigger the webhook does not have is a success too.
func (st *state) removeTriggers(c *call) (any, error) {
	_, h, err := st.hook(c)
	if err != nil {
		return nil, err
	}
	ids, err := triggerIDs(c)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		delete(h.triggers, id)
	}
	return data(chat.Result{Success: true, Message: "Removed trigger successfully."}), nil
}
