package chat

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// PushPlatform is the platform and SDK of a device's push token; it says
// which provider and which kind of token the token is. Unknown values
// decode as they are.
type PushPlatform string

// Push platforms: FCM tokens, APNs device tokens and APNs VoIP tokens.
const (
	PushPlatformFCMAndroid             PushPlatform = "fcm_android"
	PushPlatformFCMIOS                 PushPlatform = "fcm_ios"
	PushPlatformFCMWeb                 PushPlatform = "fcm_web"
	PushPlatformFCMFlutterAndroid      PushPlatform = "fcm_flutter_android"
	PushPlatformFCMFlutterIOS          PushPlatform = "fcm_flutter_ios"
	PushPlatformFCMReactNativeAndroid  PushPlatform = "fcm_react_native_android"
	PushPlatformFCMReactNativeIOS      PushPlatform = "fcm_react_native_ios"
	PushPlatformFCMIonicCordovaAndroid PushPlatform = "fcm_ionic_cordova_android"
	PushPlatformFCMIonicCordovaIOS     PushPlatform = "fcm_ionic_cordova_ios"

	PushPlatformAPNsIOSDevice          PushPlatform = "apns_ios_device"
	PushPlatformAPNsFlutterDevice      PushPlatform = "apns_flutter_device"
	PushPlatformAPNsReactNativeDevice  PushPlatform = "apns_react_native_device"
	PushPlatformAPNsIonicCordovaDevice PushPlatform = "apns_ionic_cordova_device"

	PushPlatformAPNsIOSVoIP          PushPlatform = "apns_ios_voip"
	PushPlatformAPNsFlutterVoIP      PushPlatform = "apns_flutter_voip"
	PushPlatformAPNsIonicCordovaVoIP PushPlatform = "apns_ionic_cordova_voip"
	PushPlatformAPNsReactNativeVoIP  PushPlatform = "apns_react_native_voip"
)

// TokenField is the body field a token of platform p is registered in:
// "fcmToken" for fcm_* platforms, "voipToken" for apns_*_voip ones and
// "deviceToken" for other apns_* ones; "" for a platform of neither
// family.
func (p PushPlatform) TokenField() string {
	switch s := string(p); {
	case strings.HasPrefix(s, "fcm_"):
		return "fcmToken"
	case strings.HasPrefix(s, "apns_") && strings.HasSuffix(s, "_voip"):
		return "voipToken"
	case strings.HasPrefix(s, "apns_"):
		return "deviceToken"
	}
	return ""
}

// RegisterPushTokenRequest is the body of
// [NotificationsService.RegisterPushToken]. Token and AuthToken are
// secrets: printing the request shows them as REDACTED.
type RegisterPushTokenRequest struct {
	// Platform is required; it says which field Token is sent in (see
	// [PushPlatform.TokenField]).
	Platform PushPlatform
	// ProviderID is the FCM or APNs provider to send through; empty means
	// the app's default provider for the platform.
	ProviderID string
	// Token is the device's push token (at most 4,096 characters):
	// required.
	Token Secret
	// AuthToken is the auth token of the user's login on the device:
	// required. The push token belongs to that user and login.
	AuthToken Secret
	// Timezone is the device's IANA time zone, e.g. "Asia/Kolkata".
	Timezone string
}

// MarshalJSON sends Token in the field its platform calls for: fcmToken,
// deviceToken or voipToken.
func (r RegisterPushTokenRequest) MarshalJSON() ([]byte, error) {
	body := map[string]string{"platform": string(r.Platform), "authToken": string(r.AuthToken)}
	if r.ProviderID != "" {
		body["providerId"] = r.ProviderID
	}
	if r.Timezone != "" {
		body["timezone"] = r.Timezone
	}
	if f := r.Platform.TokenField(); f != "" {
		body[f] = string(r.Token)
	}
	return json.Marshal(body)
}

// PushTokenType is what a push token is used for. Unknown values decode
// as they are.
type PushTokenType string

// Push token types.
const (
	PushTokenChat PushTokenType = "chat"
)

// PushToken is a registered push token. AuthToken and Token are secrets:
// printing a PushToken shows them as REDACTED; JSON encoding keeps them.
type PushToken struct {
	// UID is the user the token belongs to.
	UID string `json:"uid"`
	// AuthToken is the login the token was registered with.
	AuthToken Secret `json:"authToken"`
	// Token is the push token itself.
	Token      Secret        `json:"pushToken"`
	Type       PushTokenType `json:"pushTokenType,omitempty"`
	Platform   PushPlatform  `json:"platform,omitempty"`
	ProviderID string        `json:"providerId,omitempty"`
	// CreatedAt and UpdatedAt are ISO-8601 date strings on the wire (not
	// Unix seconds), kept as sent: parse them with time.Parse and
	// time.RFC3339.
	CreatedAt string `json:"createdAt,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

// ListPushTokensOptions selects the push tokens to list. Printing it shows
// AuthToken as REDACTED.
type ListPushTokensOptions struct {
	// AuthToken is a login of the user: required. It is sent in the
	// query string, as the API requires.
	AuthToken Secret `url:"authToken"`
	// All lists every token of the user; otherwise only those of
	// AuthToken's login.
	All bool `url:"all,omitempty"`
}

// UnregisterPushTokensRequest selects the push tokens
// [NotificationsService.UnregisterPushTokens] removes. Printing it shows
// AuthToken as REDACTED.
type UnregisterPushTokensRequest struct {
	// AuthToken is a login of the user: required.
	AuthToken Secret `json:"authToken"`
	// All removes every token of the user; otherwise only those of
	// AuthToken's login. It is sent as the query parameter all.
	All bool `json:"-"`
}

// DeletePushTokenRequest is the body of
// [NotificationsService.DeletePushToken]. Printing it shows AuthToken as
// REDACTED.
type DeletePushTokenRequest struct {
	// AuthToken is a login of the token's user: required.
	AuthToken Secret `json:"authToken"`
}

// pushTokens is the answer of the push token calls.
type pushTokens struct {
	PushTokens []PushToken `json:"pushTokens"`
}

func tokensPath() []string { return notificationsPath("push", "v1", "tokens") }

// Validate checks r as [NotificationsService.RegisterPushToken] does
// before sending: Platform, Token and AuthToken set, and Platform an
// fcm_* or apns_* platform. It returns an [*ArgumentError] naming the
// field at fault, or nil.
func (r *RegisterPushTokenRequest) Validate() error {
	if err := required("req.Platform", string(r.Platform), "req.Token", string(r.Token), "req.AuthToken", string(r.AuthToken)); err != nil {
		return err
	}
	if r.Platform.TokenField() == "" {
		return newArgError("req.Platform", "must be an fcm_* or apns_* platform")
	}
	return nil
}

// Validate checks o as [NotificationsService.ListPushTokens] does before
// sending: AuthToken set. It returns an [*ArgumentError] naming the field
// at fault, or nil.
func (o *ListPushTokensOptions) Validate() error {
	return required("opts.AuthToken", string(o.AuthToken))
}

// Validate checks r as [NotificationsService.UnregisterPushTokens] does
// before sending: AuthToken set. It returns an [*ArgumentError] naming
// the field at fault, or nil.
func (r *UnregisterPushTokensRequest) Validate() error {
	return required("req.AuthToken", string(r.AuthToken))
}

// Validate checks r as [NotificationsService.DeletePushToken] does before
// sending: AuthToken set. It returns an [*ArgumentError] naming the field
// at fault, or nil.
func (r *DeletePushTokenRequest) Validate() error {
	return required("req.AuthToken", string(r.AuthToken))
}

// RegisterPushToken registers a device's push token for the user of
// req.AuthToken, so that their notifications reach the device.
//
// API: POST /v3/notifications/push/v1/tokens (onBehalfOf not supported)
func (s *NotificationsService) RegisterPushToken(ctx context.Context, req *RegisterPushTokenRequest, opts ...RequestOption) (*Result, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodPost, Path: tokensPath(), Body: req}
	return do[Result](ctx, s.c, call, opts)
}

// ListPushTokens returns the push tokens of the user of opts.AuthToken:
// those of that login, or all of the user's with opts.All.
//
// API: GET /v3/notifications/push/v1/tokens (onBehalfOf not supported)
func (s *NotificationsService) ListPushTokens(ctx context.Context, opts *ListPushTokensOptions, reqOpts ...RequestOption) ([]PushToken, error) {
	if opts == nil {
		return nil, newArgError("opts", "must not be nil")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodGet, Path: tokensPath(), Query: opts}
	out, err := do[pushTokens](ctx, s.c, call, reqOpts)
	if err != nil {
		return nil, err
	}
	return out.PushTokens, nil
}

// UnregisterPushTokens removes the push tokens of the login req.AuthToken,
// or with req.All every push token of its user, and returns the tokens
// the service lists in its answer.
//
// API: DELETE /v3/notifications/push/v1/tokens (onBehalfOf not supported)
func (s *NotificationsService) UnregisterPushTokens(ctx context.Context, req *UnregisterPushTokensRequest, opts ...RequestOption) ([]PushToken, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var query any
	if req.All {
		query = struct {
			All bool `url:"all"`
		}{true}
	}
	call := &Request{Method: http.MethodDelete, Path: tokensPath(), Query: query, Body: req}
	out, err := do[pushTokens](ctx, s.c, call, opts)
	if err != nil {
		return nil, err
	}
	return out.PushTokens, nil
}

// DeletePushToken removes the push token pushToken of the user of
// req.AuthToken and returns the tokens the service lists in its answer
// (as for UnregisterPushTokens). The token travels in the path; the SDK
// shows it as REDACTED in errors and logs.
//
// API: DELETE /v3/notifications/push/v1/tokens/{pushToken} (onBehalfOf not supported)
func (s *NotificationsService) DeletePushToken(ctx context.Context, pushToken string, req *DeletePushTokenRequest, opts ...RequestOption) ([]PushToken, error) {
	if err := required("pushToken", pushToken); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	call := &Request{Method: http.MethodDelete, Path: append(tokensPath(), pushToken), Secrets: []Secret{Secret(pushToken)}, Body: req}
	out, err := do[pushTokens](ctx, s.c, call, opts)
	if err != nil {
		return nil, err
	}
	return out.PushTokens, nil
}
