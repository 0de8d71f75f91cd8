package chat

import (
	"context"
	"iter"
	"net/http"
)

// APIKeysService manages the app's API keys. Get it from [Client.APIKeys].
type APIKeysService struct{ c *caller }

// Scope is what an API key may do.
type Scope string

// API key scopes.
const (
	// ScopeFullAccess keys ("REST API Key") may call every operation; keep
	// them on servers.
	ScopeFullAccess Scope = "fullAccess"
	// ScopeAuthOnly keys ("Auth Key") may only create users and auth tokens.
	ScopeAuthOnly Scope = "authOnly"
)

// APIKey is one of the app's API keys.
//
// Printing an APIKey shows the key as REDACTED; JSON encoding keeps it.
type APIKey struct {
	// APIKey is the key itself (40 hex characters).
	APIKey Secret `json:"apiKey"`
	// Name describes the key (at most 100 characters).
	Name string `json:"name,omitempty"`
	// Scope is what the key may do.
	Scope Scope `json:"scope,omitempty"`
	// CreatedAt is when the key was created.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
}

// CreateAPIKeyRequest is the body of [APIKeysService.Create].
type CreateAPIKeyRequest struct {
	// Name is required.
	Name string `json:"name"`
	// Scope defaults to authOnly on the service.
	Scope Scope `json:"scope,omitempty"`
}

// Validate checks r as [APIKeysService.Create] does before sending: Name
// set. It returns an [*ArgumentError] naming the field at fault, or nil.
func (r *CreateAPIKeyRequest) Validate() error { return required("req.Name", r.Name) }

// Create creates an API key (at most 25 per app) and returns it.
//
// API: POST /v3/apikeys (onBehalfOf not supported)
func (s *APIKeysService) Create(ctx context.Context, req *CreateAPIKeyRequest, opts ...RequestOption) (*APIKey, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[APIKey](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"apikeys"}, Body: req}, opts)
}

// ListAPIKeysOptions filters the list of API keys.
type ListAPIKeysOptions struct {
	PageOptions
	// Scope keeps keys of this scope.
	Scope Scope `url:"scope,omitempty"`
	// SearchKey matches key names.
	SearchKey string `url:"searchKey,omitempty"`
}

// List returns the app's API keys (one page).
//
// API: GET /v3/apikeys (onBehalfOf not supported)
func (s *APIKeysService) List(ctx context.Context, opts *ListAPIKeysOptions, reqOpts ...RequestOption) (*Page[APIKey], error) {
	return list[APIKey](ctx, s.c, &Request{Path: []string{"apikeys"}, Query: opts}, reqOpts)
}

// All iterates over every API key matching opts.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/apikeys (onBehalfOf not supported)
func (s *APIKeysService) All(ctx context.Context, opts *ListAPIKeysOptions, reqOpts ...RequestOption) iter.Seq2[*APIKey, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListAPIKeysOptions) (*Page[APIKey], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// Get returns the API key apiKey.
//
// API: GET /v3/apikeys/{apiKey} (onBehalfOf not supported)
func (s *APIKeysService) Get(ctx context.Context, apiKey string, opts ...RequestOption) (*APIKey, error) {
	if err := required("apiKey", apiKey); err != nil {
		return nil, err
	}
	return do[APIKey](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"apikeys", apiKey}, Secrets: []Secret{Secret(apiKey)}}, opts)
}

// UpdateAPIKeyRequest is the body of [APIKeysService.Update]; empty fields
// are left unchanged.
type UpdateAPIKeyRequest struct {
	// Name renames the key.
	Name string `json:"name,omitempty"`
	// Scope changes what the key may do.
	Scope Scope `json:"scope,omitempty"`
}

// Update renames an API key or changes its scope. A key cannot update
// itself (ERR_APIKEY_NO_SELF_ACTION).
//
// API: PUT /v3/apikeys/{apiKey} (onBehalfOf not supported)
func (s *APIKeysService) Update(ctx context.Context, apiKey string, req *UpdateAPIKeyRequest, opts ...RequestOption) (*APIKey, error) {
	if err := required("apiKey", apiKey); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[APIKey](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"apikeys", apiKey}, Secrets: []Secret{Secret(apiKey)}, Body: req}, opts)
}

// Delete deletes an API key. A key cannot delete itself.
//
// API: DELETE /v3/apikeys/{apiKey} (onBehalfOf not supported)
func (s *APIKeysService) Delete(ctx context.Context, apiKey string, opts ...RequestOption) (*Result, error) {
	if err := required("apiKey", apiKey); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"apikeys", apiKey}, Secrets: []Secret{Secret(apiKey)}}, opts)
}
