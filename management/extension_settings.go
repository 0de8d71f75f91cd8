package management

import (
	"context"
	"fmt"
	"net/http"

	"github.com/chatrest/chat"
)

// ExtensionSettings is implemented by the typed settings of an extension
// ([GiphySettings], [PushNotificationSettings], ...): ExtensionID names the
// extension they configure. Use them with [GetExtensionSettings],
// [StoreExtensionSettings], [UpdateExtensionSettings] and
// [DeleteExtensionSettings]; a type of your own works too, for an extension
// this package has no type for.
//
// The settings types describe a whole configuration: booleans and numbers
// are always sent, strings and objects when not empty, lists and maps when
// not nil (an empty list is sent as [], as the service answers it). To change a few fields only, get the settings first and
// update the whole, or send a map with [ExtensionsService.UpdateSettings].
// Fields holding credentials (API keys, tokens, private keys, passwords)
// print as REDACTED with any fmt verb; JSON encoding keeps them.
type ExtensionSettings interface {
	ExtensionID() ExtensionID
}

// settingsPtr is a pointer to a settings type: the typed functions make
// and fill a *T through it.
type settingsPtr[T any] interface {
	*T
	ExtensionSettings
}

// GetExtensionSettings returns the settings of the extension T configures
// for the app appID, decoded from body.data.settings (fields the type does
// not have, such as the app id the service adds, are dropped):
//
//	giphy, err := management.GetExtensionSettings[management.GiphySettings](ctx, mc.Extensions, appID)
//
// API: GET /apps/{appId}/extensions/{extId}/v1/settings (management)
func GetExtensionSettings[T any, PT settingsPtr[T]](ctx context.Context, s *ExtensionsService, appID string, opts ...chat.RequestOption) (*T, error) {
	out := new(T)
	id := PT(out).ExtensionID()
	reply, err := s.settingsCall(ctx, http.MethodGet, appID, id, nil, opts)
	if err != nil {
		return nil, err
	}
	if err := reply.Body.Data.Settings.Decode(out); err != nil {
		return nil, fmt.Errorf("management: decoding the %s settings: %w", id, err)
	}
	return out, nil
}

// StoreExtensionSettings stores settings for the extension they configure,
// for the app appID (see [ExtensionsService.StoreSettings]):
//
//	_, err := management.StoreExtensionSettings(ctx, mc.Extensions, appID, &management.GiphySettings{GiphyAPIKey: key})
//
// API: POST /apps/{appId}/extensions/{extId}/v1/settings (management)
func StoreExtensionSettings[T any, PT settingsPtr[T]](ctx context.Context, s *ExtensionsService, appID string, settings PT, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	if settings == nil {
		return nil, argError("settings", "must not be nil")
	}
	return s.StoreSettings(ctx, appID, settings.ExtensionID(), settings, opts...)
}

// UpdateExtensionSettings updates the settings of the extension they
// configure, for the app appID (see [ExtensionsService.UpdateSettings]).
//
// API: PUT /apps/{appId}/extensions/{extId}/v1/settings (management)
func UpdateExtensionSettings[T any, PT settingsPtr[T]](ctx context.Context, s *ExtensionsService, appID string, settings PT, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	if settings == nil {
		return nil, argError("settings", "must not be nil")
	}
	return s.settingsCall(ctx, http.MethodPut, appID, settings.ExtensionID(), settings, opts)
}

// DeleteExtensionSettings deletes the settings of the extension T
// configures, for the app appID:
//
//	_, err := management.DeleteExtensionSettings[management.GiphySettings](ctx, mc.Extensions, appID)
//
// API: DELETE /apps/{appId}/extensions/{extId}/v1/settings (management)
func DeleteExtensionSettings[T any, PT settingsPtr[T]](ctx context.Context, s *ExtensionsService, appID string, opts ...chat.RequestOption) (*ExtensionReply[SettingsBody], error) {
	return s.settingsCall(ctx, http.MethodDelete, appID, PT(new(T)).ExtensionID(), nil, opts)
}

// GiphySettings configure the gifs-giphy extension.
type GiphySettings struct {
	// GiphyAPIKey is the Giphy API key (a credential).
	GiphyAPIKey chat.Secret `json:"giphyApiKey,omitempty"`
}

// ExtensionID is [ExtensionGiphy].
func (GiphySettings) ExtensionID() ExtensionID { return ExtensionGiphy }

// TenorSettings configure the gifs-tenor extension.
type TenorSettings struct {
	// TenorAPIKey is the Tenor API key (a credential).
	TenorAPIKey chat.Secret `json:"tenorApiKey,omitempty"`
}

// ExtensionID is [ExtensionTenor].
func (TenorSettings) ExtensionID() ExtensionID { return ExtensionTenor }

// XSSFilterSettings configure the xss-filter extension.
type XSSFilterSettings struct {
	// DropMessage drops a message that carries a script instead of
	// sanitizing it; required (the update's default is true).
	DropMessage bool `json:"dropMessage"`
}

// ExtensionID is [ExtensionXSSFilter].
func (XSSFilterSettings) ExtensionID() ExtensionID { return ExtensionXSSFilter }

// ImageModerationSettings configure the image-moderation extension.
type ImageModerationSettings struct {
	// DropMessage drops a message whose image is unsafe.
	DropMessage bool `json:"dropMessage"`
}

// ExtensionID is [ExtensionImageModeration].
func (ImageModerationSettings) ExtensionID() ExtensionID { return ExtensionImageModeration }

// SentimentAnalysisSettings configure the sentiment-analysis extension.
type SentimentAnalysisSettings struct {
	// DropMessage drops a message with a negative sentiment.
	DropMessage bool `json:"dropMessage"`
}

// ExtensionID is [ExtensionSentimentAnalysis].
func (SentimentAnalysisSettings) ExtensionID() ExtensionID { return ExtensionSentimentAnalysis }

// ReportSettings are the settings the report-user and report-message
// extensions share; use them as [ReportUserSettings] or
// [ReportMessageSettings].
type ReportSettings struct {
	// MaxReports is how many reports trigger the action.
	MaxReports int `json:"maxReports"`
	// UseWebhook sends the reports to WebhookURL.
	UseWebhook bool `json:"useWebhook"`
	// WebhookURL receives the reports.
	WebhookURL string `json:"webhookURL,omitempty"`
	// BasicAuthUsername and BasicAuthPassword (a credential) authenticate
	// the webhook calls.
	BasicAuthUsername string      `json:"basicAuthUsername,omitempty"`
	BasicAuthPassword chat.Secret `json:"basicAuthPassword,omitempty"`
}

// ReportUserSettings configure the report-user extension.
type ReportUserSettings struct{ ReportSettings }

// ExtensionID is [ExtensionReportUser].
func (ReportUserSettings) ExtensionID() ExtensionID { return ExtensionReportUser }

// ReportMessageSettings configure the report-message extension.
type ReportMessageSettings struct{ ReportSettings }

// ExtensionID is [ExtensionReportMessage].
func (ReportMessageSettings) ExtensionID() ExtensionID { return ExtensionReportMessage }

// VoiceTranscriptionSettings configure the voice-transcription extension.
type VoiceTranscriptionSettings struct {
	// RevAIAPIKey is the Rev.ai API key (a credential); required.
	RevAIAPIKey chat.Secret `json:"revaiAPIKey,omitempty"`
}

// ExtensionID is [ExtensionVoiceTranscription].
func (VoiceTranscriptionSettings) ExtensionID() ExtensionID { return ExtensionVoiceTranscription }

// StipopSettings configure the stickers-stipop extension.
type StipopSettings struct {
	// StipopAPIKey is the Stipop API key (a credential).
	StipopAPIKey chat.Secret `json:"stipopApiKey,omitempty"`
	// StipopAppID is the Stipop app id.
	StipopAppID string `json:"stipopAppId,omitempty"`
}

// ExtensionID is [ExtensionStipop].
func (StipopSettings) ExtensionID() ExtensionID { return ExtensionStipop }

// TinyURLSettings configure the url-shortener-tinyurl extension.
type TinyURLSettings struct {
	// TinyURLAPIToken is the TinyURL API token (a credential).
	TinyURLAPIToken chat.Secret `json:"tinyUrlAPIToken,omitempty"`
	// TinyURLDomain is the domain of the short links.
	TinyURLDomain string `json:"tinyUrlDomain,omitempty"`
}

// ExtensionID is [ExtensionTinyURL].
func (TinyURLSettings) ExtensionID() ExtensionID { return ExtensionTinyURL }

// BitlySettings configure the url-shortener-bitly extension.
type BitlySettings struct {
	// BitlyAccessToken is the Bitly access token (a credential).
	BitlyAccessToken chat.Secret `json:"bitlyAccessToken,omitempty"`
	// GroupGUID is the Bitly group.
	GroupGUID string `json:"groupGUID,omitempty"`
}

// ExtensionID is [ExtensionBitly].
func (BitlySettings) ExtensionID() ExtensionID { return ExtensionBitly }

// IntercomSettings configure the intercom extension.
type IntercomSettings struct {
	// AppID is the Intercom app id.
	AppID string `json:"appId,omitempty"`
	// CustomerSupportUID is the user who answers in the chat.
	CustomerSupportUID string `json:"customerSupportUid,omitempty"`
	// IntercomAccessToken is the Intercom access token (a credential).
	IntercomAccessToken chat.Secret `json:"intercomAccessToken,omitempty"`
	// WebhookURL receives Intercom's events.
	WebhookURL string `json:"webhookURL,omitempty"`
}

// ExtensionID is [ExtensionIntercom].
func (IntercomSettings) ExtensionID() ExtensionID { return ExtensionIntercom }

// ChatwootSettings configure the chatwoot extension.
type ChatwootSettings struct {
	// ChatwootAccessToken is the Chatwoot access token (a credential).
	ChatwootAccessToken chat.Secret `json:"chatwootAccessToken,omitempty"`
	// CustomerSupportUID is the user who answers in the chat.
	CustomerSupportUID string `json:"customerSupportUid,omitempty"`
	// ChatwootInboxID and ChatwootAccountID locate the Chatwoot inbox.
	ChatwootInboxID   string `json:"chatwootInboxId,omitempty"`
	ChatwootAccountID string `json:"chatwootAccountId,omitempty"`
	// AppID is the app id.
	AppID string `json:"appId,omitempty"`
	// WebhookURL receives Chatwoot's events.
	WebhookURL string `json:"webhookURL,omitempty"`
}

// ExtensionID is [ExtensionChatwoot].
func (ChatwootSettings) ExtensionID() ExtensionID { return ExtensionChatwoot }

// RichMediaSettings configure the rich-media extension.
type RichMediaSettings struct {
	// IframelyAPIKey is the Iframely API key (a credential).
	IframelyAPIKey chat.Secret `json:"iframelyApiKey,omitempty"`
}

// ExtensionID is [ExtensionRichMedia].
func (RichMediaSettings) ExtensionID() ExtensionID { return ExtensionRichMedia }

// VirusScannerSettings configure the virus-malware-scanner extension.
type VirusScannerSettings struct {
	// ScaniiAPIKey and ScaniiSecretKey are the Scanii credentials.
	ScaniiAPIKey    chat.Secret `json:"scaniiApiKey,omitempty"`
	ScaniiSecretKey chat.Secret `json:"scaniiSecretKey,omitempty"`
}

// ExtensionID is [ExtensionVirusScanner].
func (VirusScannerSettings) ExtensionID() ExtensionID { return ExtensionVirusScanner }

// BroadcastSettings configure the broadcast extension.
type BroadcastSettings struct {
	// APIVideoKey is the api.video key (a credential).
	APIVideoKey chat.Secret `json:"apiVideoKey,omitempty"`
	// RecordVideo records the broadcasts.
	RecordVideo bool `json:"recordVideo"`
}

// ExtensionID is [ExtensionBroadcast].
func (BroadcastSettings) ExtensionID() ExtensionID { return ExtensionBroadcast }

// E2EESettings configure the e2ee (end-to-end encryption) extension.
type E2EESettings struct {
	// VirgilAppID and VirgilAppKeyID identify the Virgil app and key.
	VirgilAppID    string `json:"virgilAppID,omitempty"`
	VirgilAppKeyID string `json:"virgilAppKeyID,omitempty"`
	// VirgilAppKey is the Virgil app key (a credential).
	VirgilAppKey chat.Secret `json:"virgilAppKey,omitempty"`
}

// ExtensionID is [ExtensionE2EE].
func (E2EESettings) ExtensionID() ExtensionID { return ExtensionE2EE }

// HumanModerationSettings configure the human-moderation extension: which
// messages wait for a moderator.
type HumanModerationSettings struct {
	// AllUserMessages, AllGroupMessages and AllMessages hold every
	// one-to-one, group, or any message.
	AllUserMessages  bool `json:"allUserMessages"`
	AllGroupMessages bool `json:"allGroupMessages"`
	AllMessages      bool `json:"allMessages"`
	// Senders are the uids whose messages are held.
	Senders []string `json:"senders,omitzero"`
	// ReceiverGroups are the guids whose messages are held.
	ReceiverGroups []string `json:"receiverGroups,omitzero"`
	// ReceiverUsers are the uids whose incoming messages are held.
	ReceiverUsers []string `json:"receiverUsers,omitzero"`
}

// ExtensionID is [ExtensionHumanModeration].
func (HumanModerationSettings) ExtensionID() ExtensionID { return ExtensionHumanModeration }

// Sticker is one sticker of the stickers extension.
type Sticker struct {
	ID              string `json:"id,omitempty"`
	StickerName     string `json:"stickerName,omitempty"`
	StickerOrder    int    `json:"stickerOrder"`
	StickerSetID    string `json:"stickerSetId,omitempty"`
	StickerSetName  string `json:"stickerSetName,omitempty"`
	StickerSetOrder int    `json:"stickerSetOrder"`
	StickerURL      string `json:"stickerUrl,omitempty"`
	// EnableFlag reports whether the sticker is offered.
	EnableFlag bool `json:"enableFlag"`
}

// StickersSettings configure the stickers extension, which has no store
// operation: use [UpdateExtensionSettings].
type StickersSettings struct {
	// DropMessage is the extension's dropMessage setting, sent as set.
	DropMessage bool `json:"dropMessage"`
	// CustomMasterStickersData are the app's own stickers.
	CustomMasterStickersData []Sticker `json:"customMasterStickersData,omitzero"`
	// DefaultMasterStickersData are the built-in stickers.
	DefaultMasterStickersData []Sticker `json:"defaultMasterStickersData,omitzero"`
}

// ExtensionID is [ExtensionStickers].
func (StickersSettings) ExtensionID() ExtensionID { return ExtensionStickers }

// MaskingRegex is one pattern of the data-masking extension.
type MaskingRegex struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	Regex string `json:"regex,omitempty"`
	// EnableFlag reports whether the pattern is applied.
	EnableFlag bool `json:"enableFlag"`
}

// DataMaskingSettings configure the data-masking extension, which has no
// store operation: [UpdateExtensionSettings] stores or updates.
type DataMaskingSettings struct {
	// DropMessage drops a message that matches instead of masking it.
	DropMessage bool `json:"dropMessage"`
	// CustomRegexData are the app's own patterns.
	CustomRegexData []MaskingRegex `json:"customregexData,omitzero"`
	// DefaultRegexData are the built-in patterns.
	DefaultRegexData []MaskingRegex `json:"defaultRegexData,omitzero"`
}

// ExtensionID is [ExtensionDataMasking].
func (DataMaskingSettings) ExtensionID() ExtensionID { return ExtensionDataMasking }

// ProfanityFilterSettings configure the profanity-filter extension.
type ProfanityFilterSettings struct {
	// Badwords are words filtered beyond the built-in list.
	Badwords []string `json:"badwords,omitzero"`
	// DropMessage drops a message with profanity instead of masking it.
	DropMessage bool `json:"dropMessage"`
}

// ExtensionID is [ExtensionProfanityFilter].
func (ProfanityFilterSettings) ExtensionID() ExtensionID { return ExtensionProfanityFilter }

// EmailRepliesSettings configure the email-replies extension.
type EmailRepliesSettings struct {
	// SenderEmailForReplies is the address replies are sent from.
	SenderEmailForReplies string `json:"senderEmailForReplies,omitempty"`
	// SendEmailReplies turns replying by email on.
	SendEmailReplies bool `json:"sendEmailReplies"`
}

// ExtensionID is [ExtensionEmailReplies].
func (EmailRepliesSettings) ExtensionID() ExtensionID { return ExtensionEmailReplies }

// SMSNotificationSettings configure the sms-notification extension.
type SMSNotificationSettings struct {
	// FromMobileNo is the sending number.
	FromMobileNo string `json:"fromMobileNo,omitempty"`
	// MessageDelay is how long a message stays unread before the SMS.
	MessageDelay int `json:"messageDelay"`
	// TwilioAccountSid and TwilioAuthToken (a credential) are the Twilio
	// account.
	TwilioAccountSid string      `json:"twilioAccountSid,omitempty"`
	TwilioAuthToken  chat.Secret `json:"twilioAuthToken,omitempty"`
	// WebsiteURL is linked in the SMS.
	WebsiteURL string `json:"websiteURL,omitempty"`
}

// ExtensionID is [ExtensionSMSNotification].
func (SMSNotificationSettings) ExtensionID() ExtensionID { return ExtensionSMSNotification }

// EmailNotificationSettings configure the email-notification extension.
type EmailNotificationSettings struct {
	// MessageDelay is how long a message stays unread before the email.
	MessageDelay int `json:"messageDelay"`
	// SenderEmail and SenderName are the sender.
	SenderEmail string `json:"senderEmail,omitempty"`
	SenderName  string `json:"senderName,omitempty"`
	// SendGridAPIKey is the SendGrid API key (a credential).
	SendGridAPIKey chat.Secret `json:"sendGridApiKey,omitempty"`
	// SendGridTemplateID and SendGridUnsubscribeGroupID select the SendGrid
	// template and unsubscribe group.
	SendGridTemplateID         string `json:"sendGridTemplateId,omitempty"`
	SendGridUnsubscribeGroupID string `json:"sendGridUnsubscribeGroupId,omitempty"`
	// UseWebhook sends the notifications to WebhookURL instead.
	UseWebhook bool   `json:"useWebhook"`
	WebhookURL string `json:"webhookURL,omitempty"`
	// UseWebhookBasicAuth authenticates the webhook calls with
	// WebhookUsername and WebhookPassword (a credential).
	UseWebhookBasicAuth bool        `json:"useWebhookBasicAuth"`
	WebhookUsername     string      `json:"webhookUsername,omitempty"`
	WebhookPassword     chat.Secret `json:"webhookPassword,omitempty"`
}

// ExtensionID is [ExtensionEmailNotification].
func (EmailNotificationSettings) ExtensionID() ExtensionID { return ExtensionEmailNotification }

// MessageShortcutsSettings configure the message-shortcuts extension.
type MessageShortcutsSettings struct {
	// Shortcuts maps a shortcut (e.g. "!ty") to the text it expands to.
	Shortcuts map[string]string `json:"shortcuts,omitzero"`
}

// ExtensionID is [ExtensionMessageShortcuts].
func (MessageShortcutsSettings) ExtensionID() ExtensionID { return ExtensionMessageShortcuts }

// FCMCredentials are the Firebase service-account credentials of the
// push-notification extension.
type FCMCredentials struct {
	ProjectID   string `json:"project_id,omitempty"`
	ClientEmail string `json:"client_email,omitempty"`
	// PrivateKey is the service account's private key (a credential).
	PrivateKey   chat.Secret `json:"private_key,omitempty"`
	PrivateKeyID string      `json:"private_key_id,omitempty"`
}

// Format prints the credentials as fmt would, its Secret fields as REDACTED. (A type
// that holds a Secret and is held by pointer needs it: fmt prints a pointer
// field with %s, %q, %x or %d through a path that calls no method of the
// values under it.)
func (c FCMCredentials) Format(f fmt.State, verb rune) {
	type plain FCMCredentials
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(c))
}

// NotificationInPayload selects, per platform, whether push payloads carry
// a notification object.
type NotificationInPayload struct {
	Web          bool `json:"web"`
	Android      bool `json:"android"`
	IonicCordova bool `json:"ionic_cordova"`
	ReactNative  bool `json:"react_native"`
	IOS          bool `json:"ios"`
	Flutter      bool `json:"flutter"`
}

// MessagePayloadOptions trim the message carried in push payloads.
type MessagePayloadOptions struct {
	SkipSenderMetadata   bool `json:"skipSenderMetadata"`
	SkipReceiverMetadata bool `json:"skipReceiverMetadata"`
	SkipMessageMetadata  bool `json:"skipMessageMetadata"`
	TrimMessageText      bool `json:"trimMessageText"`
}

// PushNotificationSettings configure the push-notification extension.
// APNs certificates are uploaded apart, with
// [ExtensionsService.UploadAPNsP12] or [ExtensionsService.UploadAPNsP8].
type PushNotificationSettings struct {
	// Version is the settings format, 2.
	Version int `json:"version"`
	// PushProvider selects the provider, an integer sent as set.
	PushProvider int `json:"pushProvider"`
	// FCMCredentials are the Firebase credentials.
	FCMCredentials *FCMCredentials `json:"fcmCredentials,omitempty"`
	// NotificationInPayload selects notification objects per platform.
	NotificationInPayload *NotificationInPayload `json:"notificationInPayload,omitempty"`
	// UseP8 uses the p8 key rather than the p12 certificate for APNs.
	UseP8 bool `json:"useP8"`
	// SendAPNsProduction sends to the production APNs rather than the
	// sandbox.
	SendAPNsProduction bool `json:"sendApnsProduction"`
	// The events that send a notification.
	SendNewMessageNotification         bool `json:"sendNewMessageNotification"`
	SendEditMessageNotification        bool `json:"sendEditMessageNotification"`
	SendDeleteMessageNotification      bool `json:"sendDeleteMessageNotification"`
	SendThreadedMessageNotification    bool `json:"sendThreadedMessageNotification"`
	SendIncomingCallNotification       bool `json:"sendIncomingCallNotification"`
	SendMissedCallNotification         bool `json:"sendMissedCallNotification"`
	SendMemberJoinedNotification       bool `json:"sendMemberJoinedNotification"`
	SendMemberLeftNotification         bool `json:"sendMemberLeftNotification"`
	SendMemberKickedNotification       bool `json:"sendMemberKickedNotification"`
	SendMemberBannedNotification       bool `json:"sendMemberBannedNotification"`
	SendMemberUnbannedNotification     bool `json:"sendMemberUnbannedNotification"`
	SendMemberAddedNotification        bool `json:"sendMemberAddedNotification"`
	SendMemberScopeChangedNotification bool `json:"sendMemberScopeChangedNotification"`
	// KeyID, TeamID and BundleID identify the p8 key, the Apple team and
	// the iOS app.
	KeyID    string `json:"keyId,omitempty"`
	TeamID   string `json:"teamId,omitempty"`
	BundleID string `json:"bundleId,omitempty"`
	// AppID is the extension's appId setting, sent as set.
	AppID string `json:"appId,omitempty"`
	// CometChatMessagePayloadOptions trim the message in the payload.
	CometChatMessagePayloadOptions *MessagePayloadOptions `json:"cometchatMessagePayloadOptions,omitempty"`
}

// ExtensionID is [ExtensionPushNotification].
func (PushNotificationSettings) ExtensionID() ExtensionID { return ExtensionPushNotification }
