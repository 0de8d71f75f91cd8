package management

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"reflect"
	"strconv"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// ExtensionsService lists, enables and configures extensions. Get it from [Client.Extensions].
//
// Each extension's settings are stored with the generic
// [ExtensionsService.StoreSettings] family, which sends and returns raw
// JSON, or with the typed [GetExtensionSettings], [StoreExtensionSettings],
// [UpdateExtensionSettings] and [DeleteExtensionSettings] and a settings
// type such as [GiphySettings].
type ExtensionsService struct{ c caller }

// ExtensionID names an extension.
type ExtensionID string

// The extensions of the platform.
const (
	ExtensionWidget             ExtensionID = "widget"
	ExtensionDocument           ExtensionID = "document"
	ExtensionWhiteboard         ExtensionID = "whiteboard"
	ExtensionDataMasking        ExtensionID = "data-masking"
	ExtensionEmailNotification  ExtensionID = "email-notification"
	ExtensionEmailReplies       ExtensionID = "email-replies"
	ExtensionEmojis             ExtensionID = "emojis"
	ExtensionGfycat             ExtensionID = "gifs-gfycat"
	ExtensionGiphy              ExtensionID = "gifs-giphy"
	ExtensionTenor              ExtensionID = "gifs-tenor"
	ExtensionImageModeration    ExtensionID = "image-moderation"
	ExtensionReportUser         ExtensionID = "report-user"
	ExtensionReportMessage      ExtensionID = "report-message"
	ExtensionStickers           ExtensionID = "stickers"
	ExtensionStipop             ExtensionID = "stickers-stipop"
	ExtensionTinyURL            ExtensionID = "url-shortener-tinyurl"
	ExtensionBitly              ExtensionID = "url-shortener-bitly"
	ExtensionHumanModeration    ExtensionID = "human-moderation"
	ExtensionLinkPreview        ExtensionID = "link-preview"
	ExtensionMentions           ExtensionID = "mentions"
	ExtensionVoiceTranscription ExtensionID = "voice-transcription"
	ExtensionMessageTranslation ExtensionID = "message-translation"
	ExtensionPinMessage         ExtensionID = "pin-message"
	ExtensionPolls              ExtensionID = "polls"
	ExtensionProfanityFilter    ExtensionID = "profanity-filter"
	ExtensionPushNotification   ExtensionID = "push-notification"
	ExtensionReactions          ExtensionID = "reactions"
	ExtensionRichMedia          ExtensionID = "rich-media"
	ExtensionSaveMessage        ExtensionID = "save-message"
	ExtensionSentimentAnalysis  ExtensionID = "sentiment-analysis"
	ExtensionSmartReply         ExtensionID = "smart-reply"
	ExtensionSMSNotification    ExtensionID = "sms-notification"
	ExtensionE2EE               ExtensionID = "e2ee"
	ExtensionIntercom           ExtensionID = "intercom"
	ExtensionBroadcast          ExtensionID = "broadcast"
	ExtensionVirusScanner       ExtensionID = "virus-malware-scanner"
	ExtensionXSSFilter          ExtensionID = "xss-filter"
	ExtensionChatwoot           ExtensionID = "chatwoot"
	ExtensionMessageShortcuts   ExtensionID = "message-shortcuts"
)

// KnownExtensionIDs returns the ids of the extensions this package has
// constants for, as a new slice.
func KnownExtensionIDs() []ExtensionID {
	return []ExtensionID{
		ExtensionWidget, ExtensionDocument, ExtensionWhiteboard, ExtensionDataMasking, ExtensionEmailNotification,
		ExtensionEmailReplies, ExtensionEmojis, ExtensionGfycat, ExtensionGiphy, ExtensionTenor,
		ExtensionImageModeration, ExtensionReportUser, ExtensionReportMessage, ExtensionStickers, ExtensionStipop,
		ExtensionTinyURL, ExtensionBitly, ExtensionHumanModeration, ExtensionLinkPreview, ExtensionMentions,
		ExtensionVoiceTranscription, ExtensionMessageTranslation, ExtensionPinMessage, ExtensionPolls,
		ExtensionProfanityFilter, ExtensionPushNotification, ExtensionReactions, ExtensionRichMedia,
		ExtensionSaveMessage, ExtensionSentimentAnalysis, ExtensionSmartReply, ExtensionSMSNotification,
		ExtensionE2EE, ExtensionIntercom, ExtensionBroadcast, ExtensionVirusScanner, ExtensionXSSFilter,
		ExtensionChatwoot, ExtensionMessageShortcuts,
	}
}

// HookName names an event an extension hooks into.
type HookName string

// Hook names.
const (
	HookBeforeMessage             HookName = "before_message"
	HookAfterMessage              HookName = "after_message"
	HookAfterAuthTokenCreated     HookName = "after_auth_token_created"
	HookAfterAuthTokenDeleted     HookName = "after_auth_token_deleted"
	HookAfterAuthTokenUpdated     HookName = "after_auth_token_updated"
	HookAfterGroupCreated         HookName = "after_group_created"
	HookAfterGroupDeleted         HookName = "after_group_deleted"
	HookAfterGroupJoined          HookName = "after_group_joined"
	HookAfterGroupLeft            HookName = "after_group_left"
	HookAfterGroupMembersAdded    HookName = "after_group_members_added"
	HookAfterGroupMembersBanned   HookName = "after_group_members_banned"
	HookAfterGroupMembersKicked   HookName = "after_group_members_kicked"
	HookAfterGroupMembersUnbanned HookName = "after_group_members_unbanned"
	HookAfterLoggedOut            HookName = "after_logged_out"
	HookAfterScopeChanged         HookName = "after_scope_changed"
	HookAfterUserDeleted          HookName = "after_user_deleted"
)

// Extension is an extension as listed for an app.
type Extension struct {
	// ID is the extension's id.
	ID ExtensionID `json:"id"`
	// Name is its display name.
	Name string `json:"name,omitempty"`
	// TagLine is its one-line description.
	TagLine string `json:"tagLine,omitempty"`
	// Description describes it.
	Description string `json:"description,omitempty"`
	// Author and Email name its maker.
	Author string `json:"author,omitempty"`
	Email  string `json:"email,omitempty"`
	// WebhookURL is where the extension receives its hooks.
	WebhookURL string `json:"webhookURL,omitempty"`
	// AccessToAppData reports whether it reads the app's data.
	AccessToAppData bool `json:"accessToAppData"`
	// AdminURL and WebsiteURL are its pages.
	AdminURL   string `json:"adminURL,omitempty"`
	WebsiteURL string `json:"websiteURL,omitempty"`
	// IsActive reports whether the extension is enabled for the app.
	IsActive bool `json:"isActive"`
	// IsPrivate, IsInvisible and IsThirdParty describe its publication.
	IsPrivate    bool `json:"isPrivate"`
	IsInvisible  bool `json:"isInvisible"`
	IsThirdParty bool `json:"isThirdParty"`
	// CreatedAt is when the extension was published.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
	// Hooks are the events it hooks into. The service wraps the list in
	// an object, {"data": [...]}; a bare array decodes too.
	Hooks []ExtensionHook `json:"-"`
	// Categories are its categories, kept as sent, wrapped as Hooks are.
	Categories []json.RawMessage `json:"-"`
}

// extensionJSON is Extension with its lists in their wire form.
type extensionJSON struct {
	plainExtension
	Hooks      *wrappedList[ExtensionHook]   `json:"hooks,omitempty"`
	Categories *wrappedList[json.RawMessage] `json:"categories,omitempty"`
}

type plainExtension Extension

// MarshalJSON encodes e with its lists wrapped, {"data": [...]}, as the
// service sends them.
func (e Extension) MarshalJSON() ([]byte, error) {
	w := extensionJSON{plainExtension: plainExtension(e)}
	if e.Hooks != nil {
		w.Hooks = &wrappedList[ExtensionHook]{e.Hooks}
	}
	if e.Categories != nil {
		w.Categories = &wrappedList[json.RawMessage]{e.Categories}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes e, its lists wrapped or bare.
func (e *Extension) UnmarshalJSON(b []byte) error {
	var w extensionJSON
	if err := rest.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Extension(w.plainExtension)
	if w.Hooks != nil {
		e.Hooks = w.Hooks.Data
	}
	if w.Categories != nil {
		e.Categories = w.Categories.Data
	}
	return nil
}

// wrappedList is a list the service wraps in an object, {"data": [...]};
// it also decodes from a bare array.
type wrappedList[T any] struct {
	Data []T `json:"data"`
}

func (l *wrappedList[T]) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return rest.Unmarshal(b, &l.Data)
	}
	type plain wrappedList[T]
	return rest.Unmarshal(b, (*plain)(l))
}

// ExtensionHook is an event an extension hooks into.
type ExtensionHook struct {
	// Hook is the event, e.g. before_message.
	Hook HookName `json:"hook"`
	// Description says what the extension does on it.
	Description string `json:"description,omitempty"`
	// IsActive reports whether the hook is active.
	IsActive bool `json:"isActive,omitempty"`
	// Enabled is 1 when the hook is enabled (an integer on the wire).
	Enabled int `json:"enabled,omitempty"`
	// CreatedAt is when the hook was added.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
}

// ListExtensionsOptions pages the list of extensions.
type ListExtensionsOptions struct {
	// PerPage is the page size: default 25, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1, sent when set (the next-page link
	// carries it).
	Page int `url:"page,omitempty"`
}

// values returns the options as a query.
func (o *ListExtensionsOptions) values() url.Values {
	v := url.Values{}
	if o == nil {
		return v
	}
	if o.PerPage > 0 {
		v.Set("perPage", strconv.Itoa(o.PerPage))
	}
	if o.Page > 0 {
		v.Set("page", strconv.Itoa(o.Page))
	}
	return v
}

// List returns one page of the extensions available to the app appID, each
// with IsActive telling whether the app has it enabled.
//
// API: GET /apps/{appId}/extensions (management)
func (s *ExtensionsService) List(ctx context.Context, appID string, opts *ListExtensionsOptions, reqOpts ...chat.RequestOption) (*chat.Page[Extension], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return s.list(ctx, appID, opts.values(), reqOpts)
}

func (s *ExtensionsService) list(ctx context.Context, appID string, q url.Values, reqOpts []chat.RequestOption) (*chat.Page[Extension], error) {
	var page chat.Page[Extension]
	call := &chat.Request{Method: http.MethodGet, Path: []string{"apps", appID, "extensions"}, Query: q}
	if err := s.c.Send(ctx, call, &page, reqOpts); err != nil {
		return nil, err
	}
	return &page, nil
}

// All iterates over the extensions available to the app appID, page after
// page. It follows meta.pagination.links.next, sending that link's query
// (never its host) to the same path, or when a page has no link but is not
// the last, asks for the next page number. It stops at the first error,
// which it yields, when ctx is done, and with [chat.ErrPaginationStalled]
// when a page would repeat.
//
// Extensions come in the order the service lists them, page by page.
//
// API: GET /apps/{appId}/extensions (management)
func (s *ExtensionsService) All(ctx context.Context, appID string, opts *ListExtensionsOptions, reqOpts ...chat.RequestOption) iter.Seq2[*Extension, error] {
	if err := required("appID", appID); err != nil {
		return func(yield func(*Extension, error) bool) { yield(nil, err) }
	}
	// A position is the query of a page, encoded.
	return rest.Cursors(ctx, opts.values().Encode(), func(ctx context.Context, at string) ([]Extension, string, bool, int, error) {
		q, _ := url.ParseQuery(at) // encoded by the SDK: always valid
		page, err := s.list(ctx, appID, q, reqOpts)
		if err != nil {
			return nil, "", false, 0, err
		}
		pg := page.Meta.Pagination
		switch {
		case pg == nil:
			return page.Data, "", false, 0, nil
		case pg.Links != nil && pg.Links.Next != "":
			u, err := url.Parse(pg.Links.Next)
			if err != nil {
				return nil, "", false, 0, fmt.Errorf("management: the next-page link is not a valid URL: %w", err)
			}
			return page.Data, u.Query().Encode(), true, pg.PerPage, nil
		case pg.CurrentPage > 0 && pg.CurrentPage < pg.TotalPages:
			q := opts.values()
			q.Set("page", strconv.Itoa(pg.CurrentPage+1))
			return page.Data, q.Encode(), true, pg.PerPage, nil
		}
		return page.Data, "", false, 0, nil
	})
}

// SetExtensionsRequest is the body of [ExtensionsService.SetEnabled].
type SetExtensionsRequest struct {
	// Enabled are the extensions to enable.
	Enabled []ExtensionID `json:"enabled,omitempty"`
	// Disabled are the extensions to disable.
	Disabled []ExtensionID `json:"disabled,omitempty"`
}

// ExtensionsUpdate is the answer of [ExtensionsService.SetEnabled]: the
// outcome for each extension id.
type ExtensionsUpdate struct {
	Enabled  Results `json:"enabled,omitzero"`
	Disabled Results `json:"disabled,omitzero"`
}

// Validate checks r as [ExtensionsService.SetEnabled] does before
// sending: at least one extension, in Enabled or Disabled. It returns a
// [*chat.ArgumentError] naming the argument at fault, or nil.
func (r *SetExtensionsRequest) Validate() error {
	if len(r.Enabled)+len(r.Disabled) == 0 {
		return argError("req", "must name at least one extension")
	}
	return nil
}

// SetEnabled enables and disables extensions of the app appID in one call,
// and returns the outcome for each. An unknown id fails the call with
// ERR_EXTENSION_NOT_FOUND.
//
// API: POST /apps/{appId}/extensions (management)
func (s *ExtensionsService) SetEnabled(ctx context.Context, appID string, req *SetExtensionsRequest, opts ...chat.RequestOption) (*ExtensionsUpdate, error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[ExtensionsUpdate](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"apps", appID, "extensions"}, Body: req}, opts)
}

// ExtensionReply is the answer of an extension's own operations (its
// settings, the chat widgets, the push certificates): the management API
// relays the extension's status and body, {"statusCode", "success",
// "responseTime", "body"}, inside its "data". Body's type depends on the
// operation.
type ExtensionReply[B any] struct {
	// StatusCode is the extension's HTTP status.
	StatusCode int `json:"statusCode"`
	// Success reports whether the extension succeeded.
	Success bool `json:"success"`
	// ResponseTime is how long the extension took, as the service sends
	// it.
	ResponseTime float64 `json:"responseTime,omitempty"`
	// Body is the extension's answer.
	Body B `json:"body"`
}

// SettingsBody is the body of the settings operations: body.data.settings
// on store, update and get (get adds the app id to the settings);
// body.data.success on delete, body.data.settings.success for gifs-giphy
// and image-moderation. The sms-notification extension answers store,
// update and delete with body.success instead.
type SettingsBody struct {
	// Data holds the settings or the outcome.
	Data SettingsData `json:"data"`
	// Success is set by the extensions that answer body.success.
	Success bool `json:"success,omitempty"`
}

// SettingsData is body.data of a settings operation.
type SettingsData struct {
	// Settings are the extension's settings as stored, raw.
	Settings RawSettings `json:"settings,omitempty"`
	// Success is set on delete.
	Success bool `json:"success,omitempty"`
}

// OK reports whether the extension reported success in the body, in any
// of the places extensions put it: body.data.success, body.success, or
// body.data.settings.success.
func (b SettingsBody) OK() bool {
	if b.Data.Success || b.Success {
		return true
	}
	var outcome struct {
		Success bool `json:"success"`
	}
	return json.Unmarshal(b.Data.Settings, &outcome) == nil && outcome.Success
}

// RawSettings are an extension's settings as JSON, kept as sent. They may
// hold credentials (API keys, tokens, passwords), so printing RawSettings
// (with any fmt verb) shows only their size; decode them with
// [RawSettings.Decode] or json.Unmarshal.
type RawSettings []byte

// MarshalJSON returns the settings as they are (null when empty).
func (r RawSettings) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of b.
func (r *RawSettings) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// Decode decodes the settings into v, leniently as every answer is
// decoded; empty settings leave v as it is.
func (r RawSettings) Decode(v any) error {
	if len(bytes.TrimSpace(r)) == 0 {
		return nil
	}
	return rest.Unmarshal(r, v)
}

// Format prints the size of the settings, never their content.
func (r RawSettings) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "RawSettings(%d bytes)", len(r))
}

// settingsPath is /apps/{appId}/extensions/{extId}/v1/settings.
func settingsPath(appID string, extID ExtensionID) []string {
	return []string{"apps", appID, "extensions", string(extID), "v1", "settings"}
}

// settingsCall validates the arguments of a settings operation and sends
// it; body is wrapped as {"settings": body} unless nil.
func (s *ExtensionsService) settingsCall(ctx context.Context, method, appID string, extID ExtensionID, settings any, opts []chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	if err := required("appID", appID, "extID", string(extID)); err != nil {
		return nil, err
	}
	var body any
	if method == http.MethodPost || method == http.MethodPut {
		if isNilValue(settings) {
			return nil, argError("settings", "must not be nil")
		}
		body = struct {
			Settings any `json:"settings"`
		}{settings}
	}
	return do[ExtensionReply[SettingsBody]](ctx, s.c, &chat.Request{Method: method, Path: settingsPath(appID, extID), Body: body}, opts)
}

// isNilValue reports whether v is nil or a nil pointer, map or slice.
func isNilValue(v any) bool {
	if v == nil {
		return true
	}
	switch x := v.(type) {
	case json.RawMessage:
		return len(x) == 0
	case RawSettings:
		return len(x) == 0
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// StoreSettings stores the settings of the extension extID for the app
// appID, sending {"settings": settings}; settings is any value that encodes
// as the extension's settings object (a struct, a map, json.RawMessage).
// The extension must be enabled (else ERR_EXTENSION_INACTIVE). The
// stickers and data-masking extensions have no store operation: use
// [ExtensionsService.UpdateSettings] for them (data-masking's update stores
// or updates).
//
// API: POST /apps/{appId}/extensions/{extId}/v1/settings (management)
func (s *ExtensionsService) StoreSettings(ctx context.Context, appID string, extID ExtensionID, settings any, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	if extID == ExtensionStickers || extID == ExtensionDataMasking {
		return nil, argError("extID", string(extID)+" has no store operation; use UpdateSettings")
	}
	return s.settingsCall(ctx, http.MethodPost, appID, extID, settings, opts)
}

// UpdateSettings updates the settings of the extension extID for the app
// appID, sending {"settings": settings}.
//
// API: PUT /apps/{appId}/extensions/{extId}/v1/settings (management)
func (s *ExtensionsService) UpdateSettings(ctx context.Context, appID string, extID ExtensionID, settings any, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	return s.settingsCall(ctx, http.MethodPut, appID, extID, settings, opts)
}

// GetSettings returns the settings of the extension extID for the app
// appID, raw in Body.Data.Settings.
//
// API: GET /apps/{appId}/extensions/{extId}/v1/settings (management)
func (s *ExtensionsService) GetSettings(ctx context.Context, appID string, extID ExtensionID, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	return s.settingsCall(ctx, http.MethodGet, appID, extID, nil, opts)
}

// DeleteSettings deletes the settings of the extension extID for the app
// appID; [SettingsBody.OK] reports the extension's outcome.
//
// API: DELETE /apps/{appId}/extensions/{extId}/v1/settings (management)
func (s *ExtensionsService) DeleteSettings(ctx context.Context, appID string, extID ExtensionID, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	return s.settingsCall(ctx, http.MethodDelete, appID, extID, nil, opts)
}

// ChatWidget is a stored chat widget (v2).
type ChatWidget struct {
	// WidgetID identifies the widget.
	WidgetID string `json:"widgetId"`
	// Configuration is the widget's configuration as stored: name,
	// version "v2", style, main, sidebar and the app id, kept raw.
	Configuration json.RawMessage `json:"configuration,omitempty"`
}

// WidgetBody is the body of the chat widget store and update operations:
// body.data.widgetId on store, body.data.success on update.
type WidgetBody struct {
	Data WidgetData `json:"data"`
}

// WidgetData is body.data of a chat widget store or update.
type WidgetData struct {
	// WidgetID is the stored widget's id (store).
	WidgetID string `json:"widgetId,omitempty"`
	// Success reports the outcome (update).
	Success bool `json:"success,omitempty"`
}

// WidgetListBody is the body of [ExtensionsService.ListChatWidgets].
type WidgetListBody struct {
	Data []ChatWidget `json:"data"`
}

// widgetPath is /apps/{appId}/extensions/widget/v2/settings.
func widgetPath(appID string) []string {
	return []string{"apps", appID, "extensions", "widget", "v2", "settings"}
}

// StoreChatWidget stores a new chat widget for the app appID and returns
// its id in Body.Data.WidgetID. settings is the widget's configuration
// ({"name", "version": "v2", "style", "sidebar", "main"}), any value that
// encodes as a JSON object; it is sent as {"settings": settings}.
//
// API: POST /apps/{appId}/extensions/widget/v2/settings (management)
func (s *ExtensionsService) StoreChatWidget(ctx context.Context, appID string, settings any, opts ...chat.RequestOption) (*ExtensionReply[WidgetBody], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	if isNilValue(settings) {
		return nil, argError("settings", "must not be nil")
	}
	body := struct {
		Settings any `json:"settings"`
	}{settings}
	return do[ExtensionReply[WidgetBody]](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: widgetPath(appID), Body: body}, opts)
}

// UpdateChatWidget replaces the configuration of the chat widget widgetID
// of the app appID. It sends the configuration with the widget id added,
// {"settings": {..., "widgetId": widgetID}}, so settings must encode as a
// JSON object.
//
// API: PUT /apps/{appId}/extensions/widget/v2/settings (management)
func (s *ExtensionsService) UpdateChatWidget(ctx context.Context, appID, widgetID string, settings any, opts ...chat.RequestOption) (*ExtensionReply[WidgetBody], error) {
	if err := required("appID", appID, "widgetID", widgetID); err != nil {
		return nil, err
	}
	if isNilValue(settings) {
		return nil, argError("settings", "must not be nil")
	}
	b, err := json.Marshal(settings)
	if err != nil {
		return nil, argError("settings", err.Error())
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil || fields == nil {
		return nil, argError("settings", "must encode as a JSON object")
	}
	id, _ := json.Marshal(widgetID) // a string always encodes
	fields["widgetId"] = id
	body := struct {
		Settings map[string]json.RawMessage `json:"settings"`
	}{fields}
	return do[ExtensionReply[WidgetBody]](ctx, s.c, &chat.Request{Method: http.MethodPut, Path: widgetPath(appID), Body: body}, opts)
}

// ListChatWidgets returns the chat widgets of the app appID in
// Body.Data.
//
// API: GET /apps/{appId}/extensions/widget/v2/settings (management)
func (s *ExtensionsService) ListChatWidgets(ctx context.Context, appID string, opts ...chat.RequestOption) (*ExtensionReply[WidgetListBody], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return do[ExtensionReply[WidgetListBody]](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: widgetPath(appID)}, opts)
}

// CertificatesBody is the body of the push certificate operations: which
// certificates are stored (p12 upload), or the outcome (p8 upload and
// query).
type CertificatesBody struct {
	// CertificateP12 reports whether a p12 certificate is stored.
	CertificateP12 bool `json:"certificate_p12,omitempty"`
	// CertificateP8 reports whether a p8 key is stored.
	CertificateP8 bool `json:"certificate_p8,omitempty"`
	// Success is the outcome of a p8 upload or a query.
	Success bool `json:"success,omitempty"`
}

// pushPath is /apps/{appId}/extensions/push-notification/v1/{op}.
func pushPath(appID, op string) []string {
	return []string{"apps", appID, "extensions", string(ExtensionPushNotification), "v1", op}
}

// uploadCertificate sends content as the multipart part "certificate".
func (s *ExtensionsService) uploadCertificate(ctx context.Context, appID, op, filename string, content []byte, opts []chat.RequestOption) (*ExtensionReply[CertificatesBody], error) {
	if err := required("appID", appID, "filename", filename); err != nil {
		return nil, err
	}
	if len(content) == 0 {
		return nil, argError("content", "must not be empty")
	}
	body, err := rest.Multipart(nil, rest.FormFile{Field: "certificate", Filename: filename, Content: content})
	if err != nil {
		return nil, argError("content", err.Error())
	}
	return do[ExtensionReply[CertificatesBody]](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: pushPath(appID, op), Body: body}, opts)
}

// UploadAPNsP12 uploads an APNs certificate in PKCS #12 form (a .p12 file)
// for the push-notification extension of the app appID, as the
// multipart/form-data part "certificate" named filename. Body tells which
// certificates are then stored.
//
// API: POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p12 (management)
func (s *ExtensionsService) UploadAPNsP12(ctx context.Context, appID, filename string, content []byte, opts ...chat.RequestOption) (*ExtensionReply[CertificatesBody], error) {
	return s.uploadCertificate(ctx, appID, "upload-certificate-p12", filename, content, opts)
}

// UploadAPNsP8 uploads an APNs authentication key (a .p8 file) for the
// push-notification extension of the app appID, as the multipart/form-data
// part "certificate" named filename. Its key id and team id go in
// [PushNotificationSettings].
//
// API: POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p8 (management)
func (s *ExtensionsService) UploadAPNsP8(ctx context.Context, appID, filename string, content []byte, opts ...chat.RequestOption) (*ExtensionReply[CertificatesBody], error) {
	return s.uploadCertificate(ctx, appID, "upload-certificate-p8", filename, content, opts)
}

// QueryCertificates queries the APNs certificates of the push-notification
// extension of the app appID. The answer's Body.Success reports the
// call's outcome.
//
// API: GET /apps/{appId}/extensions/push-notification/v1/query-certificates (management)
func (s *ExtensionsService) QueryCertificates(ctx context.Context, appID string, opts ...chat.RequestOption) (*ExtensionReply[CertificatesBody], error) {
	if err := required("appID", appID); err != nil {
		return nil, err
	}
	return do[ExtensionReply[CertificatesBody]](ctx, s.c, &chat.Request{Method: http.MethodGet, Path: pushPath(appID, "query-certificates")}, opts)
}
