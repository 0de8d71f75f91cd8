package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math"
	"mime"
	"mime/multipart"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// extensionRec is an extension's state for one app.
type extensionRec struct {
	enabled  bool
	settings map[string]json.RawMessage // nil until stored
}

// widgetRec is a stored chat widget.
type widgetRec struct {
	id     string
	config map[string]json.RawMessage
}

// extensionResponseTime is the responseTime the fake's extensions report.
const extensionResponseTime = 1.5

// extensionReply wraps an extension's body as the management API relays
// it: {"statusCode", "success", "responseTime", "body"}.
func extensionReply(body any) envelope {
	return data(map[string]any{"statusCode": 200, "success": true, "responseTime": extensionResponseTime, "body": body})
}

// extensionName is an extension's display name: its id's words,
// capitalised, with a few names of the dashboard.
func extensionName(id management.ExtensionID) string {
	switch id {
	case management.ExtensionWidget:
		return "Chat Widget"
	case management.ExtensionE2EE:
		return "End-to-end Encryption"
	case management.ExtensionXSSFilter:
		return "XSS Filter"
	case management.ExtensionSMSNotification:
		return "SMS Notification"
	}
	words := strings.Split(string(id), "-")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// extensionHooks are the events the fake's catalog says an extension hooks
// into: message filters before a message, the others that act on messages
// after one.
func extensionHooks(id management.ExtensionID) []management.HookName {
	switch id {
	case management.ExtensionDataMasking, management.ExtensionProfanityFilter, management.ExtensionXSSFilter,
		management.ExtensionImageModeration, management.ExtensionSentimentAnalysis, management.ExtensionVirusScanner,
		management.ExtensionHumanModeration:
		return []management.HookName{management.HookBeforeMessage}
	case management.ExtensionPushNotification, management.ExtensionEmailNotification, management.ExtensionSMSNotification,
		management.ExtensionEmailReplies, management.ExtensionLinkPreview, management.ExtensionRichMedia,
		management.ExtensionSmartReply, management.ExtensionVoiceTranscription, management.ExtensionTinyURL,
		management.ExtensionBitly, management.ExtensionIntercom, management.ExtensionChatwoot:
		return []management.HookName{management.HookAfterMessage}
	}
	return nil
}

// known reports whether id is an extension of the catalog
// ([management.KnownExtensionIDs]).
func knownExtension(id management.ExtensionID) bool {
	return slices.Contains(management.KnownExtensionIDs(), id)
}

// extension returns the app's record of the known extension id.
func (a *mgmtApp) extension(id management.ExtensionID) *extensionRec {
	e := a.extensions[id]
	if e == nil {
		e = &extensionRec{}
		a.extensions[id] = e
	}
	return e
}

// enabledExtension returns the path's extension when it is known (else 404
// ERR_EXTENSION_NOT_FOUND) and enabled for the app (else 403
// ERR_EXTENSION_INACTIVE).
func (a *mgmtApp) enabledExtension(id management.ExtensionID) (*extensionRec, error) {
	if !knownExtension(id) {
		return nil, errExtensionNotFound(string(id))
	}
	e := a.extensions[id] // looked up, not created: reads change nothing
	if e == nil || !e.enabled {
		return nil, errExtensionInactive(string(id))
	}
	return e, nil
}

// GET /apps/{appId}/extensions
//
// The catalog of extensions ([management.KnownExtensionIDs]), in its
// order, each with isActive as enabled for the app. perPage defaults to 25
// (at most 1000); page selects the page (see CHOICES.md), and
// meta.pagination.links.next is the address of the next page (absent on
// the last).
func (st *state) listExtensions(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	p := c.params()
	q := pageQuery{perPage: p.intRange("perPage", 25, 1, 1000), page: p.intRange("page", 1, 1, math.MaxInt32)}
	if err := p.err(); err != nil {
		return nil, err
	}
	ids, meta := paginate(management.KnownExtensionIDs(), q)
	out := make([]extensionWire, len(ids))
	created := st.since
	for i, id := range ids {
		hooks := []extensionHookWire{}
		for _, h := range extensionHooks(id) {
			what := "before a message is sent"
			if h == management.HookAfterMessage {
				what = "after a message is sent"
			}
			hooks = append(hooks, extensionHookWire{Hook: h, Description: "The hook is triggered " + what + ".", IsActive: true, Enabled: 1, CreatedAt: created})
		}
		name := extensionName(id)
		out[i] = extensionWire{ID: id, Name: name, TagLine: name + " for your app.", Description: name + " for your app.",
			Author: "chattest", Email: "help@chattest.invalid", WebsiteURL: "https://chattest.invalid/extensions/" + string(id),
			IsActive: a.extensions[id] != nil && a.extensions[id].enabled, CreatedAt: created,
			Hooks: wrapped[extensionHookWire]{hooks}, Categories: wrapped[json.RawMessage]{[]json.RawMessage{}}}
	}
	pg := meta.Pagination
	if q.page < pg.TotalPages {
		next := url.URL{Scheme: "https", Host: c.r.Host, Path: "/apps/" + a.app.ID + "/extensions",
			RawQuery: url.Values{"perPage": {strconv.Itoa(q.perPage)}, "page": {strconv.Itoa(q.page + 1)}}.Encode()}
		pg.Links = &chat.PageLinks{Next: next.String()}
	}
	return chat.Page[extensionWire]{Data: out, Meta: chat.PageMeta{Pagination: pg}}, nil
}

// extensionWire is an extension of the catalog as the list answers it,
// every field of the reference's example (webhookURL and adminURL, which
// the example's extensions have only some of, left out).
type extensionWire struct {
	ID              management.ExtensionID     `json:"id"`
	Name            string                     `json:"name"`
	TagLine         string                     `json:"tagLine"`
	Description     string                     `json:"description"`
	Author          string                     `json:"author"`
	Email           string                     `json:"email"`
	AccessToAppData bool                       `json:"accessToAppData"`
	WebsiteURL      string                     `json:"websiteURL"`
	IsActive        bool                       `json:"isActive"`
	IsPrivate       bool                       `json:"isPrivate"`
	IsInvisible     bool                       `json:"isInvisible"`
	IsThirdParty    bool                       `json:"isThirdParty"`
	CreatedAt       chat.Timestamp             `json:"createdAt"`
	Hooks           wrapped[extensionHookWire] `json:"hooks"`
	Categories      wrapped[json.RawMessage]   `json:"categories"`
}

// extensionHookWire is a hook an extension uses.
type extensionHookWire struct {
	Hook        management.HookName `json:"hook"`
	Description string              `json:"description"`
	IsActive    bool                `json:"isActive"`
	Enabled     int                 `json:"enabled"`
	CreatedAt   chat.Timestamp      `json:"createdAt"`
}

// wrapped is a list as {"data": [...]}.
type wrapped[T any] struct {
	Data []T `json:"data"`
}

// POST /apps/{appId}/extensions
//
// Enables the extensions of enabled and disables those of disabled, all or
// nothing: an id the catalog does not have is 404 ERR_EXTENSION_NOT_FOUND,
// an id in both lists 400. Disabling keeps the extension's settings.
func (st *state) setExtensions(c *call) (any, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Enabled  []management.ExtensionID `json:"enabled"`
		Disabled []management.ExtensionID `json:"disabled"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	for i, id := range b.Disabled {
		if slices.Contains(b.Enabled, id) {
			v.add("disabled."+strconv.Itoa(i), "The extension %s cannot be both enabled and disabled.", id)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	for _, id := range append(slices.Clone(b.Enabled), b.Disabled...) {
		if !knownExtension(id) {
			return nil, errExtensionNotFound(string(id))
		}
	}
	enabled, disabled := map[management.ExtensionID]chat.Result{}, map[management.ExtensionID]chat.Result{}
	for _, id := range b.Enabled {
		a.extension(id).enabled = true
		enabled[id] = mgmtResult("The extension " + string(id) + " has been enabled.")
	}
	for _, id := range b.Disabled {
		a.extension(id).enabled = false
		disabled[id] = mgmtResult("The extension " + string(id) + " has been disabled.")
	}
	return data(map[string]any{"enabled": enabled, "disabled": disabled}), nil
}

// settingsFor returns the app and the enabled extension the path names.
func (st *state) settingsFor(c *call) (*mgmtApp, management.ExtensionID, *extensionRec, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, "", nil, err
	}
	id := management.ExtensionID(c.r.PathValue("extId"))
	e, err := a.enabledExtension(id)
	if err != nil {
		return nil, "", nil, err
	}
	return a, id, e, nil
}

// settingsBody reads {"settings": {...}}, which store and update require.
func settingsBody(c *call) (map[string]json.RawMessage, error) {
	var b struct {
		Settings map[string]json.RawMessage `json:"settings"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.Settings == nil {
		return nil, validationError(map[string][]string{"settings": {"The settings field is required and must be an object."}})
	}
	return b.Settings, nil
}

// checkExtensionSettings validates the required fields:
// xss-filter's dropMessage (a boolean) and voice-transcription's
// revaiAPIKey (a string).
func checkExtensionSettings(id management.ExtensionID, s map[string]json.RawMessage) error {
	var v validator
	switch id {
	case management.ExtensionXSSFilter:
		var b bool
		if raw, ok := s["dropMessage"]; !ok || json.Unmarshal(raw, &b) != nil {
			v.add("settings.dropMessage", "The settings.dropMessage field is required and must be a boolean.")
		}
	case management.ExtensionVoiceTranscription:
		var k string
		if raw, ok := s["revaiAPIKey"]; !ok || json.Unmarshal(raw, &k) != nil || k == "" {
			v.add("settings.revaiAPIKey", "The settings.revaiAPIKey field is required.")
		}
	}
	return v.err()
}

// saveSettings checks s, the settings extension id of the app appID is to
// hold, stores it in e and answers it as a store or update does.
func (e *extensionRec) saveSettings(appID string, id management.ExtensionID, s map[string]json.RawMessage) (any, error) {
	if err := checkExtensionSettings(id, s); err != nil {
		return nil, err
	}
	e.settings = s
	return savedAnswer(appID, id, clone(s)), nil
}

// savedAnswer is the body of a store or update, as the reference's
// examples give each extension's: body.data.settings, the settings (with
// the app id for chatwoot and intercom); body.data.success for
// profanity-filter, data-masking and stickers; body.success for
// sms-notification.
func savedAnswer(appID string, id management.ExtensionID, settings map[string]json.RawMessage) envelope {
	switch id {
	case management.ExtensionSMSNotification:
		return extensionReply(map[string]any{"success": true})
	case management.ExtensionProfanityFilter, management.ExtensionDataMasking, management.ExtensionStickers:
		return extensionReply(map[string]any{"data": map[string]any{"success": true}})
	case management.ExtensionChatwoot, management.ExtensionIntercom:
		settings["appId"] = rawJSON(appID)
	}
	return extensionReply(map[string]any{"data": map[string]any{"settings": settings}})
}

// deletedAnswer is the body of a delete, as the reference's examples give
// each extension's: body.data.success; body.data.settings.success for
// gifs-giphy and image-moderation; body.data.settings, the settings as
// they now are (dropMessage false), for xss-filter and sentiment-analysis;
// body.success for sms-notification.
func deletedAnswer(id management.ExtensionID) envelope {
	switch id {
	case management.ExtensionSMSNotification:
		return extensionReply(map[string]any{"success": true})
	case management.ExtensionGiphy, management.ExtensionImageModeration:
		return extensionReply(map[string]any{"data": map[string]any{"settings": map[string]any{"success": true}}})
	case management.ExtensionXSSFilter, management.ExtensionSentimentAnalysis:
		return extensionReply(map[string]any{"data": map[string]any{"settings": map[string]any{"dropMessage": false}}})
	}
	return extensionReply(map[string]any{"data": map[string]any{"success": true}})
}

// POST /apps/{appId}/extensions/{extId}/v1/settings
//
// Stores (replaces) the settings. The stickers and data-masking extensions
// have no store operation: 404 ERR_API_NOT_FOUND, as for any other missing
// endpoint.
func (st *state) storeExtensionSettings(c *call) (any, error) {
	a, id, e, err := st.settingsFor(c)
	if err != nil {
		return nil, err
	}
	if id == management.ExtensionStickers || id == management.ExtensionDataMasking {
		return nil, errAPINotFound(c.r.Method, c.r.URL.Path)
	}
	s, err := settingsBody(c)
	if err != nil {
		return nil, err
	}
	return e.saveSettings(a.app.ID, id, s)
}

// PUT /apps/{appId}/extensions/{extId}/v1/settings
//
// Updates the fields sent and keeps the others; with nothing stored yet it
// stores (data-masking's documented behaviour, the fake's for every
// extension). xss-filter's dropMessage defaults to true.
func (st *state) updateExtensionSettings(c *call) (any, error) {
	a, id, e, err := st.settingsFor(c)
	if err != nil {
		return nil, err
	}
	s, err := settingsBody(c)
	if err != nil {
		return nil, err
	}
	merged := map[string]json.RawMessage{}
	maps.Copy(merged, e.settings)
	maps.Copy(merged, s)
	if _, ok := merged["dropMessage"]; !ok && id == management.ExtensionXSSFilter {
		merged["dropMessage"] = json.RawMessage("true")
	}
	return e.saveSettings(a.app.ID, id, merged)
}

// GET /apps/{appId}/extensions/{extId}/v1/settings
//
// The settings stored ({} when none) with the app id added.
func (st *state) getExtensionSettings(c *call) (any, error) {
	a, _, e, err := st.settingsFor(c)
	if err != nil {
		return nil, err
	}
	s := clone(e.settings)
	if s == nil {
		s = map[string]json.RawMessage{}
	}
	s["appId"] = rawJSON(a.app.ID)
	return extensionReply(map[string]any{"data": map[string]any{"settings": s}}), nil
}

// DELETE /apps/{appId}/extensions/{extId}/v1/settings
func (st *state) deleteExtensionSettings(c *call) (any, error) {
	_, id, e, err := st.settingsFor(c)
	if err != nil {
		return nil, err
	}
	e.settings = nil
	return deletedAnswer(id), nil
}

// appWith returns the app the path names, whose extension id must be
// enabled.
func (st *state) appWith(c *call, id management.ExtensionID) (*mgmtApp, error) {
	a, err := st.appFor(c)
	if err != nil {
		return nil, err
	}
	if _, err := a.enabledExtension(id); err != nil {
		return nil, err
	}
	return a, nil
}

// widgetSettings returns the app the path names, whose widget extension
// must be enabled, and the settings of the body (settingsBody).
func (st *state) widgetSettings(c *call) (*mgmtApp, map[string]json.RawMessage, error) {
	a, err := st.appWith(c, management.ExtensionWidget)
	if err != nil {
		return nil, nil, err
	}
	s, err := settingsBody(c)
	if err != nil {
		return nil, nil, err
	}
	return a, s, nil
}

// widgetConfig makes s the configuration a widget of a keeps: version
// "v2" unless given, a's id as appId, and no widgetId.
func widgetConfig(a *mgmtApp, s map[string]json.RawMessage) map[string]json.RawMessage {
	if _, ok := s["version"]; !ok {
		s["version"] = rawJSON("v2")
	}
	delete(s, "widgetId")
	s["appId"] = rawJSON(a.app.ID)
	return s
}

// POST /apps/{appId}/extensions/widget/v2/settings
//
// Stores a widget: {"settings": {...}} (any object), kept as its
// configuration with version "v2"
// unless given and the app id; the widget id is a UUID-shaped hex string.
func (st *state) storeChatWidget(c *call) (any, error) {
	a, s, err := st.widgetSettings(c)
	if err != nil {
		return nil, err
	}
	st.widgets++
	h := st.hexID("mgmt-widget", st.widgets)
	w := &widgetRec{id: h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32], config: widgetConfig(a, s)}
	a.widgets = append(a.widgets, w)
	return extensionReply(map[string]any{"data": map[string]any{"widgetId": w.id}}), nil
}

// PUT /apps/{appId}/extensions/widget/v2/settings
//
// Replaces the configuration of the widget settings.widgetId names (a
// widget id is required; an unknown one is 400 ERR_BAD_REQUEST).
func (st *state) updateChatWidget(c *call) (any, error) {
	a, s, err := st.widgetSettings(c)
	if err != nil {
		return nil, err
	}
	var id string
	if json.Unmarshal(s["widgetId"], &id) != nil || id == "" {
		return nil, validationError(map[string][]string{"settings.widgetId": {"The settings.widgetId field is required."}})
	}
	i := slices.IndexFunc(a.widgets, func(w *widgetRec) bool { return w.id == id })
	if i < 0 {
		return nil, validationError(map[string][]string{"settings.widgetId": {"The widget " + id + " does not exist."}})
	}
	a.widgets[i].config = widgetConfig(a, s)
	return extensionReply(map[string]any{"data": map[string]any{"success": true}}), nil
}

// GET /apps/{appId}/extensions/widget/v2/settings
//
// The widgets in the order they were stored.
func (st *state) listChatWidgets(c *call) (any, error) {
	a, err := st.appWith(c, management.ExtensionWidget)
	if err != nil {
		return nil, err
	}
	out := make([]management.ChatWidget, len(a.widgets))
	for i, w := range a.widgets {
		out[i] = management.ChatWidget{WidgetID: w.id, Configuration: rawJSON(w.config)}
	}
	return extensionReply(map[string]any{"data": out}), nil
}

// readCertificate reads the multipart/form-data body's "certificate" file
// part, which must be there and not empty (else 400 ERR_BAD_REQUEST).
func readCertificate(c *call) error {
	missing := validationError(map[string][]string{"certificate": {"The certificate field is required."}})
	mediaType, params, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return validationError(map[string][]string{"body": {"The request body must be multipart/form-data."}})
	}
	mr := multipart.NewReader(bytes.NewReader(c.body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return missing
		}
		if err != nil {
			return validationError(map[string][]string{"body": {"The multipart body could not be read."}})
		}
		if part.FormName() != "certificate" || part.FileName() == "" {
			continue
		}
		n, err := io.Copy(io.Discard, part)
		if err != nil {
			return validationError(map[string][]string{"body": {"The multipart body could not be read."}})
		}
		if n == 0 {
			return missing
		}
		return nil
	}
}

// certificateUpload returns the app the path names, whose push-notification
// extension must be enabled, once readCertificate has read the body.
func (st *state) certificateUpload(c *call) (*mgmtApp, error) {
	a, err := st.appWith(c, management.ExtensionPushNotification)
	if err != nil {
		return nil, err
	}
	if err := readCertificate(c); err != nil {
		return nil, err
	}
	return a, nil
}

// POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p12
//
// Records a p12 certificate; body tells which certificates are stored.
func (st *state) uploadP12(c *call) (any, error) {
	a, err := st.certificateUpload(c)
	if err != nil {
		return nil, err
	}
	a.certP12 = true
	return extensionReply(map[string]any{"certificate_p12": a.certP12, "certificate_p8": a.certP8}), nil
}

// POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p8
func (st *state) uploadP8(c *call) (any, error) {
	a, err := st.certificateUpload(c)
	if err != nil {
		return nil, err
	}
	a.certP8 = true
	return extensionReply(map[string]any{"success": true}), nil
}

// GET /apps/{appId}/extensions/push-notification/v1/query-certificates
//
// body.success is true when a certificate (p12 or p8) is stored.
func (st *state) queryCertificates(c *call) (any, error) {
	a, err := st.appWith(c, management.ExtensionPushNotification)
	if err != nil {
		return nil, err
	}
	return extensionReply(map[string]any{"success": a.certP12 || a.certP8}), nil
}
