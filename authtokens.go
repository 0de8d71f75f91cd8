package chat

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
)

// AuthTokensService mints and manages the auth tokens users log in with from
// the client libraries. Get it from [Client.AuthTokens].
type AuthTokensService struct{ c *caller }

// AuthToken is a login token of a user. Treat it as a secret: hand it to
// that user's client only.
//
// Printing an AuthToken shows the token as REDACTED; JSON encoding keeps it.
type AuthToken struct {
	// UID is the user the token belongs to.
	UID string `json:"uid"`
	// AuthToken is the token itself.
	AuthToken Secret `json:"authToken"`
	// CreatedAt is when the token was minted.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// Platform is the device platform recorded with Update.
	Platform string `json:"platform,omitempty"`
	// UserAgent is the client user agent recorded with Update.
	UserAgent string `json:"userAgent,omitempty"`
	// AppInfo is the app information recorded with Update, as JSON: a
	// string or an object, kept as sent.
	AppInfo json.RawMessage `json:"appInfo,omitempty"`
}

// CreateAuthTokenRequest is the body of [AuthTokensService.Create].
type CreateAuthTokenRequest struct {
	// Force always mints a new token instead of returning an existing one.
	Force bool `json:"force,omitempty"`
}

// Create mints an auth token for the user uid. A nil req uses the defaults.
//
// API: POST /v3/users/{uid}/auth_tokens (onBehalfOf not supported)
func (s *AuthTokensService) Create(ctx context.Context, uid string, req *CreateAuthTokenRequest, opts ...RequestOption) (*AuthToken, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	if req == nil {
		req = &CreateAuthTokenRequest{}
	}
	return do[AuthToken](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"users", uid, "auth_tokens"}, Body: req}, opts)
}

// ListAuthTokensOptions selects a page of auth tokens.
type ListAuthTokensOptions struct {
	PageOptions
}

// List returns one page of the auth tokens of the user uid.
//
// API: GET /v3/users/{uid}/auth_tokens (onBehalfOf not supported)
func (s *AuthTokensService) List(ctx context.Context, uid string, opts *ListAuthTokensOptions, reqOpts ...RequestOption) (*Page[AuthToken], error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return list[AuthToken](ctx, s.c, &Request{Path: []string{"users", uid, "auth_tokens"}, Query: opts}, reqOpts)
}

// All iterates over every auth token of the user uid.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/users/{uid}/auth_tokens (onBehalfOf not supported)
func (s *AuthTokensService) All(ctx context.Context, uid string, opts *ListAuthTokensOptions, reqOpts ...RequestOption) iter.Seq2[*AuthToken, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListAuthTokensOptions) (*Page[AuthToken], error) {
		return s.List(ctx, uid, o, reqOpts...)
	})
}

// Get returns the auth token authToken of the user uid.
//
// API: GET /v3/users/{uid}/auth_tokens/{authToken} (onBehalfOf not supported)
func (s *AuthTokensService) Get(ctx context.Context, uid, authToken string, opts ...RequestOption) (*AuthToken, error) {
	if err := required("uid", uid, "authToken", authToken); err != nil {
		return nil, err
	}
	return do[AuthToken](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"users", uid, "auth_tokens", authToken}, Secrets: []Secret{Secret(authToken)}}, opts)
}

// UpdateAuthTokenRequest is the body of [AuthTokensService.Update]: what the
// token is used from.
type UpdateAuthTokenRequest struct {
	// Platform is the device platform, e.g. "ios".
	Platform string `json:"platform,omitempty"`
	// UserAgent is the client's user agent.
	UserAgent string `json:"userAgent,omitempty"`
	// AppInfo is free-form information about the app.
	AppInfo map[string]any `json:"appInfo,omitempty"`
}

// Update records the platform, user agent and app information of an auth
// token.
//
// API: PUT /v3/users/{uid}/auth_tokens/{authToken} (onBehalfOf not supported)
func (s *AuthTokensService) Update(ctx context.Context, uid, authToken string, req *UpdateAuthTokenRequest, opts ...RequestOption) (*AuthToken, error) {
	if err := required("uid", uid, "authToken", authToken); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[AuthToken](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"users", uid, "auth_tokens", authToken}, Secrets: []Secret{Secret(authToken)}, Body: req}, opts)
}

// Delete deletes one auth token of the user uid.
//
// API: DELETE /v3/users/{uid}/auth_tokens/{authToken} (onBehalfOf not supported)
func (s *AuthTokensService) Delete(ctx context.Context, uid, authToken string, opts ...RequestOption) (*Result, error) {
	if err := required("uid", uid, "authToken", authToken); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users", uid, "auth_tokens", authToken}, Secrets: []Secret{Secret(authToken)}}, opts)
}

// Flush deletes every auth token of the user uid, logging them out
// everywhere.
//
// API: DELETE /v3/users/{uid}/auth_tokens (onBehalfOf not supported)
func (s *AuthTokensService) Flush(ctx context.Context, uid string, opts ...RequestOption) (*Result, error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"users", uid, "auth_tokens"}}, opts)
}
