package fake

import (
	"encoding/json"
	"net/mail"
	"net/url"
	"slices"

	"github.com/chatrest/chat"
)

func notifProviderRoutes() []route {
	routes := []route{
		{pattern: "GET /v3/notifications/push/v1/providers/fcm", reach: appOnly, handle: (*state).listFCMProviders},
		{pattern: "POST /v3/notifications/push/v1/providers/fcm", reach: appOnly, handle: (*state).addFCMProvider},
		{pattern: "PUT /v3/notifications/push/v1/providers/fcm", reach: appOnly, handle: (*state).updateFCMProvider},
		{pattern: "DELETE /v3/notifications/push/v1/providers/fcm/{providerId}", reach: appOnly, handle: (*state).deleteFCMProvider},
		{pattern: "PUT /v3/notifications/push/v1/providers/fcm/default/{providerId}", reach: appOnly, handle: (*state).defaultFCMProvider},
		{pattern: "GET /v3/notifications/push/v1/providers/apns", reach: appOnly, handle: (*state).listAPNsProviders},
		{pattern: "POST /v3/notifications/push/v1/providers/apns", reach: appOnly, handle: (*state).addAPNsProvider},
		{pattern: "PUT /v3/notifications/push/v1/providers/apns", reach: appOnly, handle: (*state).updateAPNsProvider},
		{pattern: "DELETE /v3/notifications/push/v1/providers/apns/{providerId}", reach: appOnly, handle: (*state).deleteAPNsProvider},
		{pattern: "PUT /v3/notifications/push/v1/providers/apns/default/{providerId}", reach: appOnly, handle: (*state).defaultAPNsProvider},
	}
	for _, sp := range singleProviders {
		routes = append(routes,
			route{reach: appOnly, pattern: "GET /v3/notifications/" + sp.path, handle: sp.get},
			route{reach: appOnly, pattern: "POST /v3/notifications/" + sp.path, handle: sp.save},
			route{reach: appOnly, pattern: "PUT /v3/notifications/" + sp.path, handle: sp.update},
			route{reach: appOnly, pattern: "DELETE /v3/notifications/" + sp.path, handle: sp.remove},
		)
	}
	return routes
}

// providerList is the FCM or the APNs providers: their configurations as
// JSON, in the order added, and the default one.
type providerList struct {
	order []string
	byID  map[string]map[string]any
	def   string // "" when there are none
}

func newProviderList() providerList { return providerList{byID: map[string]map[string]any{}} }

func (l *providerList) all() []map[string]any {
	out := make([]map[string]any, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, l.byID[id])
	}
	return out
}

// put adds or replaces a provider; the first one added is the default.
func (l *providerList) put(id string, cfg map[string]any) {
	if l.byID[id] == nil {
		l.order = append(l.order, id)
	}
	l.byID[id] = cfg
	if l.def == "" {
		l.def = id
	}
}

// remove deletes a provider; when it was the default, the first left
// becomes the default.
func (l *providerList) remove(id string) {
	delete(l.byID, id)
	l.order = slices.DeleteFunc(l.order, func(s string) bool { return s == id })
	if l.def == id {
		l.def = ""
		if len(l.order) > 0 {
			l.def = l.order[0]
		}
	}
}

// checkProviderID validates a push provider id: required, at most 100
// characters (the fake's limit).
func checkProviderID(v *validator, id string) {
	checkText(v, "providerId", id, true, 100)
}

// GET /v3/notifications/push/v1/providers/fcm
func (st *state) listFCMProviders(c *call) (any, error) {
	st.notifSync()
	return data(map[string]any{"pushProviders": st.notif.fcm.all()}), nil
}

// decodeFCM reads and validates an FCM provider: providerId and the
// service account's project_id, client_email and private_key are required.
func decodeFCM(c *call) (chat.FCMProvider, error) {
	var b chat.FCMProvider
	if err := c.decode(&b); err != nil {
		return b, err
	}
	var v validator
	checkProviderID(&v, b.ProviderID)
	if sa := b.ServiceAccountCreds; sa == nil {
		v.add("serviceAccountCreds", "The serviceAccountCreds field is required.")
	} else {
		checkText(&v, "serviceAccountCreds.project_id", sa.ProjectID, true, 1000)
		checkText(&v, "serviceAccountCreds.client_email", sa.ClientEmail, true, 1000)
		checkText(&v, "serviceAccountCreds.private_key", string(sa.PrivateKey), true, 10000)
	}
	return b, v.err()
}

// POST /v3/notifications/push/v1/providers/fcm
//
// An id in use is 409 ERR_PROVIDER_ALREADY_EXISTS. The first provider
// added becomes the default.
func (st *state) addFCMProvider(c *call) (any, error) {
	st.notifSync()
	b, err := decodeFCM(c)
	if err != nil {
		return nil, err
	}
	if st.notif.fcm.byID[b.ProviderID] != nil {
		return nil, errProviderExists("FCM", b.ProviderID)
	}
	st.notif.fcm.put(b.ProviderID, jsonObjectOf(b))
	return data(chat.Result{Success: true}), nil
}

// PUT /v3/notifications/push/v1/providers/fcm
//
// The body replaces the provider's configuration whole.
func (st *state) updateFCMProvider(c *call) (any, error) {
	st.notifSync()
	b, err := decodeFCM(c)
	if err != nil {
		return nil, err
	}
	if st.notif.fcm.byID[b.ProviderID] == nil {
		return nil, errProviderNotFound("FCM", b.ProviderID)
	}
	st.notif.fcm.put(b.ProviderID, jsonObjectOf(b))
	return data(chat.Result{Success: true}), nil
}

// DELETE /v3/notifications/push/v1/providers/fcm/{providerId}
//
// Push tokens registered with the provider stay; their notifications are
// logged with the reason INVALID_PUSH_PROVIDER_ID.
func (st *state) deleteFCMProvider(c *call) (any, error) {
	return st.deletePushProvider(c, &st.notif.fcm, "FCM")
}

// PUT /v3/notifications/push/v1/providers/fcm/default/{providerId}
func (st *state) defaultFCMProvider(c *call) (any, error) {
	return st.defaultPushProvider(c, &st.notif.fcm, "FCM")
}

func (st *state) deletePushProvider(c *call, l *providerList, kind string) (any, error) {
	st.notifSync()
	id := c.r.PathValue("providerId")
	if l.byID[id] == nil {
		return nil, errProviderNotFound(kind, id)
	}
	l.remove(id)
	return data(chat.Result{Success: true}), nil
}

func (st *state) defaultPushProvider(c *call, l *providerList, kind string) (any, error) {
	st.notifSync()
	id := c.r.PathValue("providerId")
	if l.byID[id] == nil {
		return nil, errProviderNotFound(kind, id)
	}
	l.def = id
	return data(chat.Result{Success: true}), nil
}

// GET /v3/notifications/push/v1/providers/apns
func (st *state) listAPNsProviders(c *call) (any, error) {
	st.notifSync()
	return data(map[string]any{"pushProviders": st.notif.apns.all()}), nil
}

// decodeAPNs reads and validates an APNs provider: providerId, keyId,
// teamId, bundleId and p8Key are required.
func decodeAPNs(c *call) (chat.APNsProvider, error) {
	var b chat.APNsProvider
	if err := c.decode(&b); err != nil {
		return b, err
	}
	var v validator
	checkProviderID(&v, b.ProviderID)
	checkText(&v, "keyId", b.KeyID, true, 100)
	checkText(&v, "teamId", b.TeamID, true, 100)
	checkText(&v, "bundleId", b.BundleID, true, 255)
	checkText(&v, "p8Key", string(b.P8Key), true, 10000)
	return b, v.err()
}

// POST /v3/notifications/push/v1/providers/apns
//
// It answers {"pushProviders": []}, as the service does. An
// id in use is 409 ERR_PROVIDER_ALREADY_EXISTS; the first provider added
// becomes the default.
func (st *state) addAPNsProvider(c *call) (any, error) {
	st.notifSync()
	b, err := decodeAPNs(c)
	if err != nil {
		return nil, err
	}
	if st.notif.apns.byID[b.ProviderID] != nil {
		return nil, errProviderExists("APNs", b.ProviderID)
	}
	st.notif.apns.put(b.ProviderID, jsonObjectOf(b))
	return data(map[string]any{"pushProviders": []any{}}), nil
}

// PUT /v3/notifications/push/v1/providers/apns
//
// The body replaces the provider's configuration whole.
func (st *state) updateAPNsProvider(c *call) (any, error) {
	st.notifSync()
	b, err := decodeAPNs(c)
	if err != nil {
		return nil, err
	}
	if st.notif.apns.byID[b.ProviderID] == nil {
		return nil, errProviderNotFound("APNs", b.ProviderID)
	}
	st.notif.apns.put(b.ProviderID, jsonObjectOf(b))
	return data(chat.Result{Success: true}), nil
}

// DELETE /v3/notifications/push/v1/providers/apns/{providerId}
func (st *state) deleteAPNsProvider(c *call) (any, error) {
	return st.deletePushProvider(c, &st.notif.apns, "APNs")
}

// PUT /v3/notifications/push/v1/providers/apns/default/{providerId}
func (st *state) defaultAPNsProvider(c *call) (any, error) {
	return st.defaultPushProvider(c, &st.notif.apns, "APNs")
}

// singleSpec describes a provider the app has at most one of (custom
// push, Twilio, custom SMS, SendGrid, custom email): its fields and rules.
//
// POST creates it (409 ERR_PROVIDER_ALREADY_EXISTS when it exists: update
// it with PUT), PUT changes the fields sent, GET returns it and DELETE
// removes it; the last three answer 404 ERR_PROVIDER_NOT_FOUND when it is
// not configured. Fields of the wrong type are refused; unknown fields
// are ignored.
type singleSpec struct {
	name     string // for messages, e.g. "custom push"
	path     string // under /v3/notifications/
	bools    []string
	strings  []string
	required []string       // on POST
	defaults map[string]any // on POST, for fields not sent
	basic    bool           // webhookURL must be HTTPS, and basic auth needs a username and password
	email    []string       // fields that must be email addresses when set
	// list wraps answers as {"pushProviders": [...]} (custom push).
	list bool
	// answer adds fields to the answers, when set.
	answer func(st *state, cfg map[string]any) map[string]any
}

var singleProviders = []*singleSpec{
	{
		name: "custom push", path: "push/v1/providers/custom", list: true, basic: true,
		bools:    []string{"isEnabled", "useBasicAuth"},
		strings:  []string{"webhookURL", "basicAuthUsername", "basicAuthPassword"},
		required: []string{"isEnabled", "webhookURL", "useBasicAuth"},
	},
	{
		name: "Twilio", path: "sms/v1/providers/twilio",
		bools:    []string{"isEnabled"},
		strings:  []string{"twilioAccountSID", "twilioAuthToken", "twilioSenderPhoneNumber"},
		required: []string{"twilioAccountSID", "twilioAuthToken", "twilioSenderPhoneNumber"},
		// isEnabled is answered only when sent: the reference's answers show none.
	},
	{
		name: "custom SMS", path: "sms/v1/providers/custom", basic: true,
		bools:    []string{"isEnabled", "useStoredPhNo", "useBasicAuth"},
		strings:  []string{"webhookURL", "basicAuthUsername", "basicAuthPassword"},
		required: []string{"isEnabled", "webhookURL", "useBasicAuth"},
		defaults: map[string]any{"useStoredPhNo": false},
	},
	{
		name: "SendGrid", path: "email/v1/providers/sendgrid",
		bools:   []string{"allowEmailReplies", "isEnabled"},
		strings: []string{"sendGridApiKey", "sendGridTemplateID", "sendGridUnsubscribeGroupID", "senderName", "senderEmail", "senderEmailForReplies"},
		required: []string{"sendGridApiKey", "sendGridTemplateID", "sendGridUnsubscribeGroupID", "senderName", "senderEmail",
			"allowEmailReplies"},
		email: []string{"senderEmail", "senderEmailForReplies"}, // isEnabled as for Twilio
		answer: func(st *state, cfg map[string]any) map[string]any {
			out := jsonObjectOf(cfg)
			if out["senderEmailForReplies"] == nil {
				out["senderEmailForReplies"] = nil
			}
			out["repliesWebhook"] = ""
			if boolIn(cfg, "allowEmailReplies") {
				out["repliesWebhook"] = "https://" + st.appID + ".notifications.chattest.invalid/email/v1/replies"
			}
			return out
		},
	},
	{
		name: "custom email", path: "email/v1/providers/custom", basic: true,
		bools:    []string{"isEnabled", "useStoredEmailID", "useBasicAuth"},
		strings:  []string{"webhookURL", "basicAuthUsername", "basicAuthPassword"},
		required: []string{"isEnabled", "useStoredEmailID", "webhookURL", "useBasicAuth"},
	},
}

// decode reads the body's known fields, checking their types; a null
// SendGrid senderEmailForReplies clears it.
func (sp *singleSpec) decode(c *call) (map[string]any, error) {
	var raw map[string]json.RawMessage
	if err := c.decode(&raw); err != nil {
		return nil, err
	}
	var v validator
	out := map[string]any{}
	for _, k := range sp.bools {
		if r, ok := raw[k]; ok {
			var b bool
			if json.Unmarshal(r, &b) != nil {
				v.add(k, "The %s field must be a boolean.", k)
			}
			out[k] = b
		}
	}
	for _, k := range sp.strings {
		if r, ok := raw[k]; ok {
			if string(r) == "null" {
				out[k] = nil
				continue
			}
			var s string
			if json.Unmarshal(r, &s) != nil {
				v.add(k, "The %s field must be a string.", k)
			}
			out[k] = s
		}
	}
	return out, v.err()
}

// check validates a provider's whole configuration.
func (sp *singleSpec) check(cfg map[string]any) error {
	var v validator
	for _, k := range sp.required {
		val, present := cfg[k]
		if s, isStr := val.(string); !present || val == nil || isStr && s == "" {
			v.add(k, "The %s field is required.", k)
		}
	}
	for k, val := range cfg {
		if s, ok := val.(string); ok && charLen(s) > 4096 {
			v.add(k, "The %s may not be greater than 4096 characters.", k)
		}
	}
	if sp.basic {
		if u, _ := cfg["webhookURL"].(string); u != "" {
			if p, err := url.Parse(u); err != nil || p.Scheme != "https" || p.Host == "" {
				v.add("webhookURL", "The webhookURL must be an HTTPS URL.")
			}
		}
		if boolIn(cfg, "useBasicAuth") {
			for _, k := range []string{"basicAuthUsername", "basicAuthPassword"} {
				if s, _ := cfg[k].(string); s == "" {
					v.add(k, "The %s field is required when useBasicAuth is true.", k)
				}
			}
		}
	}
	for _, k := range sp.email {
		if s, _ := cfg[k].(string); s != "" {
			if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
				v.add(k, "The %s must be an email address.", k)
			}
		}
	}
	return v.err()
}

func (sp *singleSpec) reply(st *state, cfg map[string]any) any {
	out := cfg
	if sp.answer != nil {
		out = sp.answer(st, cfg)
	}

	if sp.list {
		return data(map[string]any{"pushProviders": []any{out}})
	}
	return data(out)
}

// configured returns the provider's configuration, or 404.
func (sp *singleSpec) configured(st *state) (map[string]any, error) {
	cfg := st.notif.single[sp.name]
	if cfg == nil {
		return nil, errProviderNotFound(sp.name, "")
	}
	return cfg, nil
}

// GET /v3/notifications/{kind}/v1/providers/{name}
func (sp *singleSpec) get(st *state, c *call) (any, error) {
	st.notifSync()
	cfg, err := sp.configured(st)
	if err != nil {
		return nil, err
	}
	return sp.reply(st, cfg), nil
}

// POST /v3/notifications/{kind}/v1/providers/{name}
func (sp *singleSpec) save(st *state, c *call) (any, error) {
	st.notifSync()
	b, err := sp.decode(c)
	if err != nil {
		return nil, err
	}
	cfg := jsonObjectOf(sp.defaults)
	mergeJSON(cfg, b)
	if err := sp.check(cfg); err != nil {
		return nil, err
	}
	if st.notif.single[sp.name] != nil {
		return nil, errProviderExists(sp.name, "")
	}
	st.notif.single[sp.name] = cfg
	touchField(st, &st.notif.single)
	return sp.reply(st, cfg), nil
}

// PUT /v3/notifications/{kind}/v1/providers/{name}
func (sp *singleSpec) update(st *state, c *call) (any, error) {
	st.notifSync()
	cur, err := sp.configured(st)
	if err != nil {
		return nil, err
	}
	b, err := sp.decode(c)
	if err != nil {
		return nil, err
	}
	cfg := jsonObjectOf(cur)
	mergeJSON(cfg, b)
	if err := sp.check(cfg); err != nil {
		return nil, err
	}
	st.notif.single[sp.name] = cfg
	touchField(st, &st.notif.single)
	return sp.reply(st, cfg), nil
}

// DELETE /v3/notifications/{kind}/v1/providers/{name}
func (sp *singleSpec) remove(st *state, c *call) (any, error) {
	st.notifSync()
	if _, err := sp.configured(st); err != nil {
		return nil, err
	}
	delete(st.notif.single, sp.name)
	touchField(st, &st.notif.single)
	return data(chat.Result{Success: true}), nil
}
