package management

import (
	"context"
	"net/http"

	"github.com/chatrest/chat"
)

// TenantsService adds tenants. Get it from [Client.Tenants].
//
// Unlike every other management operation, adding a tenant authenticates
// with HTTP Basic auth rather than the key and secret headers: this
// service sends the management key as the user name and the secret as the
// password ("Authorization: Basic base64(key:secret)"), and not the key
// and secret headers.
type TenantsService struct{ c caller }

// AddTenantRequest is the body of [TenantsService.Add]: the tenant's
// account and its first app.
//
// Printing an AddTenantRequest (with any fmt verb) shows the password as
// REDACTED; JSON encoding keeps it.
type AddTenantRequest struct {
	// Name is the customer's name; required.
	Name string `json:"name"`
	// Email is the customer's email address, the account's identifier;
	// required.
	Email string `json:"email"`
	// Password is the account's password, in plain text; required.
	Password chat.Secret `json:"password"`
	// ContactNumber is the customer's phone number.
	ContactNumber string `json:"contactNumber,omitempty"`
	// Role is the customer's role, e.g. "developer" or "business owner".
	Role string `json:"role,omitempty"`
	// AppName is the name of the app created with the account; required.
	AppName string `json:"appName"`
	// AppRegion is the app's region; required.
	AppRegion chat.Region `json:"appRegion"`
	// Industry is the domain the app serves.
	Industry string `json:"industry,omitempty"`
	// Technology is what the app is built with.
	Technology string `json:"technology,omitempty"`
}

// Tenant is an account added with [TenantsService.Add], with its app.
type Tenant struct {
	// Name is the customer's name.
	Name string `json:"name"`
	// Email is the account's email address.
	Email string `json:"email"`
	// ContactNumber is the customer's phone number.
	ContactNumber string `json:"contactNumber,omitempty"`
	// CreatedAt is when the account was created.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
	// App is the app created with the account.
	App TenantApp `json:"app"`
}

// TenantApp is the app created with a tenant, with its two API keys.
//
// Printing a TenantApp (with any fmt verb), or a [Tenant] holding it, shows
// the keys as REDACTED; JSON encoding keeps them.
type TenantApp struct {
	// Name is the app's name.
	Name string `json:"name"`
	// AppID is the app id.
	AppID string `json:"appId"`
	// Region is the app's region.
	Region chat.Region `json:"region"`
	// AuthKey is the app's authOnly key, for creating users and auth
	// tokens.
	AuthKey chat.Secret `json:"authKey,omitempty"`
	// APIKey is the app's fullAccess REST API key.
	APIKey chat.Secret `json:"apiKey,omitempty"`
	// CreatedAt is when the app was created.
	CreatedAt chat.Timestamp `json:"createdAt,omitempty"`
	// Plan is the app's plan, e.g. "Build".
	Plan string `json:"plan,omitempty"`
}

// Validate checks r as [TenantsService.Add] does before sending: Name,
// Email, Password, AppName and AppRegion set. It returns a
// [*chat.ArgumentError] naming the field at fault, or nil.
func (r *AddTenantRequest) Validate() error {
	return required("req.Name", r.Name, "req.Email", r.Email, "req.Password", string(r.Password),
		"req.AppName", r.AppName, "req.AppRegion", string(r.AppRegion))
}

// Add creates a tenant: a customer account with its first app, and returns
// both, the app's API keys included. It authenticates with HTTP Basic auth
// (see [TenantsService]).
//
// API: POST /tenants (management)
func (s *TenantsService) Add(ctx context.Context, req *AddTenantRequest, opts ...chat.RequestOption) (*Tenant, error) {
	if req == nil {
		return nil, argError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Tenant](ctx, s.c, &chat.Request{Method: http.MethodPost, Path: []string{"tenants"}, Body: req}, opts)
}
