package chat

import (
	"context"
	"fmt"
	"net/http"
)

// FCMProvider is a Firebase Cloud Messaging configuration that push
// notifications are sent through. It carries the service account's private
// key: printing it shows the key as REDACTED; JSON encoding keeps it.
// Items of the provider list decode into the fields the add and update
// bodies have.
type FCMProvider struct {
	// ProviderID names the provider; push tokens registered with this id
	// are sent through it.
	ProviderID string `json:"providerId"`
	// ServiceAccountFilename is the name of the service account JSON file
	// the credentials came from.
	ServiceAccountFilename string `json:"serviceAccountFilename,omitempty"`
	// ServiceAccountCreds are the Firebase service account's credentials.
	ServiceAccountCreds *FCMServiceAccount `json:"serviceAccountCreds,omitempty"`
	// NotificationInPayload says, per platform, whether the payload carries
	// FCM's "notification" key.
	NotificationInPayload *FCMNotificationInPayload `json:"notificationInPayload,omitempty"`
}

// FCMServiceAccount holds the fields of a Firebase service account key.
// PrivateKey is a secret: printing the struct shows it as REDACTED.
type FCMServiceAccount struct {
	ProjectID    string `json:"project_id"`
	ClientEmail  string `json:"client_email"`
	PrivateKey   Secret `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
}

// Format prints the service account as fmt would, its Secret fields as REDACTED. (A type
// that holds a Secret and is held by pointer needs it: fmt prints a pointer
// field with %s, %q, %x or %d through a path that calls no method of the
// values under it.)
func (a FCMServiceAccount) Format(f fmt.State, verb rune) {
	type plain FCMServiceAccount
	fmt.Fprintf(f, fmt.FormatString(f, verb), plain(a))
}

// FCMNotificationInPayload says, per platform, for which notifications the
// FCM payload carries the "notification" key.
type FCMNotificationInPayload struct {
	IOS     FCMPayloadFlags `json:"ios"`
	Android FCMPayloadFlags `json:"android"`
	Web     FCMPayloadFlags `json:"web"`
}

// FCMPayloadFlags turn the "notification" key on for chat and call
// notifications; both are always sent.
type FCMPayloadFlags struct {
	Chat bool `json:"chat"`
	Call bool `json:"call"`
}

// APNsProvider is an Apple Push Notification service configuration. It
// carries the .p8 signing key: printing it shows P8Key as REDACTED; JSON
// encoding keeps it. The boolean fields are always sent.
type APNsProvider struct {
	// ProviderID names the provider.
	ProviderID string `json:"providerId"`
	// KeyID, TeamID and BundleID identify the key, the Apple developer team
	// and the app.
	KeyID    string `json:"keyId,omitempty"`
	TeamID   string `json:"teamId,omitempty"`
	BundleID string `json:"bundleId,omitempty"`
	// P8KeyFilename is the name of the .p8 file; P8Key its content.
	P8KeyFilename string `json:"p8KeyFilename,omitempty"`
	P8Key         Secret `json:"p8Key,omitempty"`
	// IncludeContentAvailable sets content-available, for background
	// notifications.
	IncludeContentAvailable bool `json:"includeContentAvailable"`
	// IncludeMutableContent sets mutable-content, so that the app may
	// change a notification before it shows.
	IncludeMutableContent bool `json:"includeMutableContent"`
	// ProductionMode sends through APNs' production environment rather
	// than the sandbox.
	ProductionMode bool `json:"productionMode"`
}

// pushProviders is the answer of the push provider lists.
type pushProviders[T any] struct {
	PushProviders []T `json:"pushProviders"`
}

func fcmPath(segments ...string) []string {
	return notificationsPath(append([]string{"push", "v1", "providers", "fcm"}, segments...)...)
}

func apnsPath(segments ...string) []string {
	return notificationsPath(append([]string{"push", "v1", "providers", "apns"}, segments...)...)
}

// ListFCMProviders returns the app's FCM providers.
//
// API: GET /v3/notifications/push/v1/providers/fcm (onBehalfOf not supported)
func (s *NotificationsService) ListFCMProviders(ctx context.Context, opts ...RequestOption) ([]FCMProvider, error) {
	out, err := do[pushProviders[FCMProvider]](ctx, s.c, &Request{Method: http.MethodGet, Path: fcmPath()}, opts)
	if err != nil {
		return nil, err
	}
	return out.PushProviders, nil
}

// Validate checks p as [NotificationsService.AddFCMProvider] and
// UpdateFCMProvider do before sending: ProviderID set. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (p *FCMProvider) Validate() error { return required("req.ProviderID", p.ProviderID) }

// AddFCMProvider adds an FCM provider; req.ProviderID must be new.
//
// API: POST /v3/notifications/push/v1/providers/fcm (onBehalfOf not supported)
func (s *NotificationsService) AddFCMProvider(ctx context.Context, req *FCMProvider, opts ...RequestOption) (*Result, error) {
	return s.sendFCM(ctx, http.MethodPost, req, opts)
}

// UpdateFCMProvider replaces the configuration of the FCM provider
// req.ProviderID with req.
//
// API: PUT /v3/notifications/push/v1/providers/fcm (onBehalfOf not supported)
func (s *NotificationsService) UpdateFCMProvider(ctx context.Context, req *FCMProvider, opts ...RequestOption) (*Result, error) {
	return s.sendFCM(ctx, http.MethodPut, req, opts)
}

func (s *NotificationsService) sendFCM(ctx context.Context, method string, req *FCMProvider, opts []RequestOption) (*Result, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: method, Path: fcmPath(), Body: req}, opts)
}

// DeleteFCMProvider deletes the FCM provider providerID.
//
// API: DELETE /v3/notifications/push/v1/providers/fcm/{providerId} (onBehalfOf not supported)
func (s *NotificationsService) DeleteFCMProvider(ctx context.Context, providerID string, opts ...RequestOption) (*Result, error) {
	if err := required("providerID", providerID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: fcmPath(providerID)}, opts)
}

// SetDefaultFCMProvider makes providerID the FCM provider of push tokens
// registered without one.
//
// API: PUT /v3/notifications/push/v1/providers/fcm/default/{providerId} (onBehalfOf not supported)
func (s *NotificationsService) SetDefaultFCMProvider(ctx context.Context, providerID string, opts ...RequestOption) (*Result, error) {
	if err := required("providerID", providerID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPut, Path: fcmPath("default", providerID)}, opts)
}

// ListAPNsProviders returns the app's APNs providers.
//
// API: GET /v3/notifications/push/v1/providers/apns (onBehalfOf not supported)
func (s *NotificationsService) ListAPNsProviders(ctx context.Context, opts ...RequestOption) ([]APNsProvider, error) {
	out, err := do[pushProviders[APNsProvider]](ctx, s.c, &Request{Method: http.MethodGet, Path: apnsPath()}, opts)
	if err != nil {
		return nil, err
	}
	return out.PushProviders, nil
}

// Validate checks p as [NotificationsService.AddAPNsProvider] and
// UpdateAPNsProvider do before sending: ProviderID set. It returns an
// [*ArgumentError] naming the field at fault, or nil.
func (p *APNsProvider) Validate() error { return required("req.ProviderID", p.ProviderID) }

// AddAPNsProvider adds an APNs provider; req.ProviderID must be new. The
// service may answer {"pushProviders": []} where the other provider calls
// answer {"success": true}: Result.Success is then false, and the nil
// error is what reports success.
//
// API: POST /v3/notifications/push/v1/providers/apns (onBehalfOf not supported)
func (s *NotificationsService) AddAPNsProvider(ctx context.Context, req *APNsProvider, opts ...RequestOption) (*Result, error) {
	return s.sendAPNs(ctx, http.MethodPost, req, opts)
}

// UpdateAPNsProvider replaces the configuration of the APNs provider
// req.ProviderID with req.
//
// API: PUT /v3/notifications/push/v1/providers/apns (onBehalfOf not supported)
func (s *NotificationsService) UpdateAPNsProvider(ctx context.Context, req *APNsProvider, opts ...RequestOption) (*Result, error) {
	return s.sendAPNs(ctx, http.MethodPut, req, opts)
}

func (s *NotificationsService) sendAPNs(ctx context.Context, method string, req *APNsProvider, opts []RequestOption) (*Result, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: method, Path: apnsPath(), Body: req}, opts)
}

// DeleteAPNsProvider deletes the APNs provider providerID.
//
// API: DELETE /v3/notifications/push/v1/providers/apns/{providerId} (onBehalfOf not supported)
func (s *NotificationsService) DeleteAPNsProvider(ctx context.Context, providerID string, opts ...RequestOption) (*Result, error) {
	if err := required("providerID", providerID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: apnsPath(providerID)}, opts)
}

// SetDefaultAPNsProvider makes providerID the APNs provider of push tokens
// registered without one.
//
// API: PUT /v3/notifications/push/v1/providers/apns/default/{providerId} (onBehalfOf not supported)
func (s *NotificationsService) SetDefaultAPNsProvider(ctx context.Context, providerID string, opts ...RequestOption) (*Result, error) {
	if err := required("providerID", providerID); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPut, Path: apnsPath("default", providerID)}, opts)
}

// CustomPushProvider sends push notifications to a webhook of yours
// instead of FCM or APNs. It carries the webhook's basic-auth password:
// printing it shows the password as REDACTED; JSON encoding keeps it.
//
// As the body of [NotificationsService.AddCustomPushProvider] every field
// is required (the booleans are always sent); BasicAuthUsername and
// BasicAuthPassword matter when UseBasicAuth is set.
type CustomPushProvider struct {
	IsEnabled bool `json:"isEnabled"`
	// WebhookURL must be a public HTTPS URL.
	WebhookURL        string `json:"webhookURL"`
	UseBasicAuth      bool   `json:"useBasicAuth"`
	BasicAuthUsername string `json:"basicAuthUsername,omitempty"`
	BasicAuthPassword Secret `json:"basicAuthPassword,omitempty"`
}

// UpdateCustomProviderRequest is the body of the custom provider updates
// ([NotificationsService.UpdateCustomPushProvider], UpdateCustomSMSProvider
// and UpdateCustomEmailProvider): only the fields set are sent and changed.
// UseStoredPhoneNumber applies to SMS and UseStoredEmailID to email
// providers only. Printing it shows the password as REDACTED.
type UpdateCustomProviderRequest struct {
	IsEnabled            *bool  `json:"isEnabled,omitempty"`
	UseStoredPhoneNumber *bool  `json:"useStoredPhNo,omitempty"`
	UseStoredEmailID     *bool  `json:"useStoredEmailID,omitempty"`
	WebhookURL           string `json:"webhookURL,omitempty"`
	UseBasicAuth         *bool  `json:"useBasicAuth,omitempty"`
	BasicAuthUsername    string `json:"basicAuthUsername,omitempty"`
	BasicAuthPassword    Secret `json:"basicAuthPassword,omitempty"`
}

func customPushPath() []string {
	return notificationsPath("push", "v1", "providers", "custom")
}

// firstProvider unwraps the one provider of a {"pushProviders": [...]}
// answer: the zero provider when the list is empty.
func firstProvider[T any](out *pushProviders[T], err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	if len(out.PushProviders) == 0 {
		return new(T), nil
	}
	return &out.PushProviders[0], nil
}

// GetCustomPushProvider returns the app's custom push provider. The
// service answers with a list ({"pushProviders": [...]}); this returns its
// first item, or a zero provider when the list is empty.
//
// API: GET /v3/notifications/push/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) GetCustomPushProvider(ctx context.Context, opts ...RequestOption) (*CustomPushProvider, error) {
	return firstProvider(do[pushProviders[CustomPushProvider]](ctx, s.c, &Request{Method: http.MethodGet, Path: customPushPath()}, opts))
}

// Validate checks p as [NotificationsService.AddCustomPushProvider] does
// before sending: WebhookURL set. It returns an [*ArgumentError] naming
// the field at fault, or nil.
func (p *CustomPushProvider) Validate() error { return required("req.WebhookURL", p.WebhookURL) }

// AddCustomPushProvider configures the app's custom push provider and
// returns it as saved.
//
// API: POST /v3/notifications/push/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) AddCustomPushProvider(ctx context.Context, req *CustomPushProvider, opts ...RequestOption) (*CustomPushProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodPost, Path: customPushPath(), Body: req}
	return firstProvider(do[pushProviders[CustomPushProvider]](ctx, s.c, call, opts))
}

// UpdateCustomPushProvider changes the fields set in req of the app's
// custom push provider and returns the provider.
//
// API: PUT /v3/notifications/push/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) UpdateCustomPushProvider(ctx context.Context, req *UpdateCustomProviderRequest, opts ...RequestOption) (*CustomPushProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	call := &Request{Method: http.MethodPut, Path: customPushPath(), Body: req}
	return firstProvider(do[pushProviders[CustomPushProvider]](ctx, s.c, call, opts))
}

// DeleteCustomPushProvider removes the app's custom push provider.
//
// API: DELETE /v3/notifications/push/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) DeleteCustomPushProvider(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: customPushPath()}, opts)
}

// TwilioProvider holds the Twilio credentials SMS notifications are sent
// with. TwilioAuthToken is a secret: printing the struct shows it as
// REDACTED; JSON encoding keeps it.
type TwilioProvider struct {
	// TwilioAccountSID, TwilioAuthToken and TwilioSenderPhoneNumber are
	// required to save.
	TwilioAccountSID        string `json:"twilioAccountSID,omitempty"`
	TwilioAuthToken         Secret `json:"twilioAuthToken,omitempty"`
	TwilioSenderPhoneNumber string `json:"twilioSenderPhoneNumber,omitempty"`
	// IsEnabled turns the provider on or off; nil leaves it as it is.
	// Answers may leave it out.
	IsEnabled *bool `json:"isEnabled,omitempty"`
}

func twilioPath() []string { return notificationsPath("sms", "v1", "providers", "twilio") }

// GetTwilioProvider returns the app's Twilio credentials.
//
// API: GET /v3/notifications/sms/v1/providers/twilio (onBehalfOf not supported)
func (s *NotificationsService) GetTwilioProvider(ctx context.Context, opts ...RequestOption) (*TwilioProvider, error) {
	return do[TwilioProvider](ctx, s.c, &Request{Method: http.MethodGet, Path: twilioPath()}, opts)
}

// Validate checks p as [NotificationsService.AddTwilioProvider] does
// before sending: TwilioAccountSID, TwilioAuthToken and
// TwilioSenderPhoneNumber set. UpdateTwilioProvider sends the fields set
// and checks none. It returns an [*ArgumentError] naming the field at
// fault, or nil.
func (p *TwilioProvider) Validate() error {
	return required("req.TwilioAccountSID", p.TwilioAccountSID, "req.TwilioAuthToken", string(p.TwilioAuthToken),
		"req.TwilioSenderPhoneNumber", p.TwilioSenderPhoneNumber)
}

// AddTwilioProvider stores the app's Twilio credentials and returns them.
//
// API: POST /v3/notifications/sms/v1/providers/twilio (onBehalfOf not supported)
func (s *NotificationsService) AddTwilioProvider(ctx context.Context, req *TwilioProvider, opts ...RequestOption) (*TwilioProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return s.sendTwilio(ctx, http.MethodPost, req, opts)
}

// UpdateTwilioProvider changes the fields set in req of the app's Twilio
// credentials and returns them.
//
// API: PUT /v3/notifications/sms/v1/providers/twilio (onBehalfOf not supported)
func (s *NotificationsService) UpdateTwilioProvider(ctx context.Context, req *TwilioProvider, opts ...RequestOption) (*TwilioProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return s.sendTwilio(ctx, http.MethodPut, req, opts)
}

func (s *NotificationsService) sendTwilio(ctx context.Context, method string, req *TwilioProvider, opts []RequestOption) (*TwilioProvider, error) {
	call := &Request{Method: method, Path: twilioPath(), Body: req}
	return do[TwilioProvider](ctx, s.c, call, opts)
}

// DeleteTwilioProvider removes the app's Twilio credentials.
//
// API: DELETE /v3/notifications/sms/v1/providers/twilio (onBehalfOf not supported)
func (s *NotificationsService) DeleteTwilioProvider(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: twilioPath()}, opts)
}

// CustomSMSProvider sends SMS notifications to a webhook of yours. Printing
// it shows the basic-auth password as REDACTED; JSON encoding keeps it.
// As the body of [NotificationsService.AddCustomSMSProvider] every field
// is required (the booleans are always sent).
type CustomSMSProvider struct {
	IsEnabled bool `json:"isEnabled"`
	// UseStoredPhoneNumber sends only to users with a stored phone number
	// (see [NotificationsService.UpdateContactDetails]).
	UseStoredPhoneNumber bool `json:"useStoredPhNo"`
	// WebhookURL must be a public HTTPS URL.
	WebhookURL        string `json:"webhookURL"`
	UseBasicAuth      bool   `json:"useBasicAuth"`
	BasicAuthUsername string `json:"basicAuthUsername,omitempty"`
	BasicAuthPassword Secret `json:"basicAuthPassword,omitempty"`
}

func customSMSPath() []string { return notificationsPath("sms", "v1", "providers", "custom") }

// GetCustomSMSProvider returns the app's custom SMS provider.
//
// API: GET /v3/notifications/sms/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) GetCustomSMSProvider(ctx context.Context, opts ...RequestOption) (*CustomSMSProvider, error) {
	return do[CustomSMSProvider](ctx, s.c, &Request{Method: http.MethodGet, Path: customSMSPath()}, opts)
}

// Validate checks p as [NotificationsService.AddCustomSMSProvider] does
// before sending: WebhookURL set. It returns an [*ArgumentError] naming
// the field at fault, or nil.
func (p *CustomSMSProvider) Validate() error { return required("req.WebhookURL", p.WebhookURL) }

// AddCustomSMSProvider configures the app's custom SMS provider and
// returns it.
//
// API: POST /v3/notifications/sms/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) AddCustomSMSProvider(ctx context.Context, req *CustomSMSProvider, opts ...RequestOption) (*CustomSMSProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodPost, Path: customSMSPath(), Body: req}
	return do[CustomSMSProvider](ctx, s.c, call, opts)
}

// UpdateCustomSMSProvider changes the fields set in req of the app's
// custom SMS provider and returns it.
//
// API: PUT /v3/notifications/sms/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) UpdateCustomSMSProvider(ctx context.Context, req *UpdateCustomProviderRequest, opts ...RequestOption) (*CustomSMSProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	call := &Request{Method: http.MethodPut, Path: customSMSPath(), Body: req}
	return do[CustomSMSProvider](ctx, s.c, call, opts)
}

// DeleteCustomSMSProvider removes the app's custom SMS provider.
//
// API: DELETE /v3/notifications/sms/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) DeleteCustomSMSProvider(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: customSMSPath()}, opts)
}

// SendGridProvider holds the SendGrid settings email notifications are
// sent with. SendGridAPIKey is a secret: printing the struct shows it as
// REDACTED; JSON encoding keeps it.
type SendGridProvider struct {
	// SendGridAPIKey, SendGridTemplateID, SendGridUnsubscribeGroupID,
	// SenderName and SenderEmail are required to save.
	SendGridAPIKey             Secret `json:"sendGridApiKey,omitempty"`
	SendGridTemplateID         string `json:"sendGridTemplateID,omitempty"`
	SendGridUnsubscribeGroupID string `json:"sendGridUnsubscribeGroupID,omitempty"`
	SenderName                 string `json:"senderName,omitempty"`
	SenderEmail                string `json:"senderEmail,omitempty"`
	// AllowEmailReplies lets users answer notifications by email (required
	// to save; false by default).
	AllowEmailReplies *bool `json:"allowEmailReplies,omitempty"`
	// SenderEmailForReplies is the address replies go to.
	SenderEmailForReplies string `json:"senderEmailForReplies,omitempty"`
	// IsEnabled turns the provider on or off; nil leaves it as it is.
	IsEnabled *bool `json:"isEnabled,omitempty"`
	// RepliesWebhook is where the service receives replies (answers only).
	RepliesWebhook string `json:"repliesWebhook,omitempty"`
}

func sendGridPath() []string { return notificationsPath("email", "v1", "providers", "sendgrid") }

// GetSendGridProvider returns the app's SendGrid settings.
//
// API: GET /v3/notifications/email/v1/providers/sendgrid (onBehalfOf not supported)
func (s *NotificationsService) GetSendGridProvider(ctx context.Context, opts ...RequestOption) (*SendGridProvider, error) {
	return do[SendGridProvider](ctx, s.c, &Request{Method: http.MethodGet, Path: sendGridPath()}, opts)
}

// Validate checks p as [NotificationsService.AddSendGridProvider] does
// before sending: SendGridAPIKey, SendGridTemplateID,
// SendGridUnsubscribeGroupID, SenderName and SenderEmail set.
// UpdateSendGridProvider sends the fields set and checks none. It returns
// an [*ArgumentError] naming the field at fault, or nil.
func (p *SendGridProvider) Validate() error {
	return required("req.SendGridAPIKey", string(p.SendGridAPIKey), "req.SendGridTemplateID", p.SendGridTemplateID,
		"req.SendGridUnsubscribeGroupID", p.SendGridUnsubscribeGroupID, "req.SenderName", p.SenderName,
		"req.SenderEmail", p.SenderEmail)
}

// AddSendGridProvider stores the app's SendGrid settings and returns them.
// AllowEmailReplies is sent as false when nil, as the service requires it.
//
// API: POST /v3/notifications/email/v1/providers/sendgrid (onBehalfOf not supported)
func (s *NotificationsService) AddSendGridProvider(ctx context.Context, req *SendGridProvider, opts ...RequestOption) (*SendGridProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	body := *req
	if body.AllowEmailReplies == nil {
		body.AllowEmailReplies = new(false)
	}
	return s.sendSendGrid(ctx, http.MethodPost, &body, opts)
}

// UpdateSendGridProvider changes the fields set in req of the app's SendGrid
// settings and returns them.
//
// API: PUT /v3/notifications/email/v1/providers/sendgrid (onBehalfOf not supported)
func (s *NotificationsService) UpdateSendGridProvider(ctx context.Context, req *SendGridProvider, opts ...RequestOption) (*SendGridProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return s.sendSendGrid(ctx, http.MethodPut, req, opts)
}

func (s *NotificationsService) sendSendGrid(ctx context.Context, method string, req *SendGridProvider, opts []RequestOption) (*SendGridProvider, error) {
	call := &Request{Method: method, Path: sendGridPath(), Body: req}
	return do[SendGridProvider](ctx, s.c, call, opts)
}

// DeleteSendGridProvider removes the app's SendGrid settings.
//
// API: DELETE /v3/notifications/email/v1/providers/sendgrid (onBehalfOf not supported)
func (s *NotificationsService) DeleteSendGridProvider(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: sendGridPath()}, opts)
}

// CustomEmailProvider sends email notifications to a webhook of yours.
// Printing it shows the basic-auth password as REDACTED; JSON encoding
// keeps it. As the body of [NotificationsService.AddCustomEmailProvider]
// every field is required (the booleans are always sent).
type CustomEmailProvider struct {
	IsEnabled bool `json:"isEnabled"`
	// UseStoredEmailID sends only to users with a stored email address
	// (see [NotificationsService.UpdateContactDetails]).
	UseStoredEmailID bool `json:"useStoredEmailID"`
	// WebhookURL must be a public HTTPS URL.
	WebhookURL        string `json:"webhookURL"`
	UseBasicAuth      bool   `json:"useBasicAuth"`
	BasicAuthUsername string `json:"basicAuthUsername,omitempty"`
	BasicAuthPassword Secret `json:"basicAuthPassword,omitempty"`
}

func customEmailPath() []string { return notificationsPath("email", "v1", "providers", "custom") }

// GetCustomEmailProvider returns the app's custom email provider.
//
// API: GET /v3/notifications/email/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) GetCustomEmailProvider(ctx context.Context, opts ...RequestOption) (*CustomEmailProvider, error) {
	return do[CustomEmailProvider](ctx, s.c, &Request{Method: http.MethodGet, Path: customEmailPath()}, opts)
}

// Validate checks p as [NotificationsService.AddCustomEmailProvider] does
// before sending: WebhookURL set. It returns an [*ArgumentError] naming
// the field at fault, or nil.
func (p *CustomEmailProvider) Validate() error { return required("req.WebhookURL", p.WebhookURL) }

// AddCustomEmailProvider configures the app's custom email provider and
// returns it.
//
// API: POST /v3/notifications/email/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) AddCustomEmailProvider(ctx context.Context, req *CustomEmailProvider, opts ...RequestOption) (*CustomEmailProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodPost, Path: customEmailPath(), Body: req}
	return do[CustomEmailProvider](ctx, s.c, call, opts)
}

// UpdateCustomEmailProvider changes the fields set in req of the app's
// custom email provider and returns it.
//
// API: PUT /v3/notifications/email/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) UpdateCustomEmailProvider(ctx context.Context, req *UpdateCustomProviderRequest, opts ...RequestOption) (*CustomEmailProvider, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	call := &Request{Method: http.MethodPut, Path: customEmailPath(), Body: req}
	return do[CustomEmailProvider](ctx, s.c, call, opts)
}

// DeleteCustomEmailProvider removes the app's custom email provider.
//
// API: DELETE /v3/notifications/email/v1/providers/custom (onBehalfOf not supported)
func (s *NotificationsService) DeleteCustomEmailProvider(ctx context.Context, opts ...RequestOption) (*Result, error) {
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: customEmailPath()}, opts)
}
