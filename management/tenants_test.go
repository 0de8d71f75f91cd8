package management_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

const (
	tenantPassword = "pw-Sup3r$ecret#!"
	tenantAuthKey  = "05753974edb58b7ce7c1ab10eb3eb3033e3dd1e9"
	tenantAPIKey   = "5db447476272190a2cda793e10e59f58bcc17317"
	tenantJSON     = `{"name":"Example User","email":"user@example.com","createdAt":1715947984,"contactNumber":"1234567890",
	"app":{"name":"Create App","appId":"2531446b588709f6","region":"us","authKey":"` + tenantAuthKey + `",
	"apiKey":"` + tenantAPIKey + `","createdAt":1715947984,"plan":"Build"}}`
)

func tenantRequest() *management.AddTenantRequest {
	return &management.AddTenantRequest{
		Name: "Example User", Email: "user@example.com", Password: tenantPassword, ContactNumber: "1234567890",
		Role: "engineer", AppName: "Create App", AppRegion: chat.RegionUS, Industry: "retail", Technology: "go",
	}
}

// TestTenantsAddWire checks that add-tenant authenticates with HTTP Basic
// auth (key as user name, secret as password) and without the key and
// secret headers, and decodes the tenant.
func TestTenantsAddWire(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusOK, `{"data":`+tenantJSON+`}`)
	got, err := client.Tenants.Add(context.Background(), tenantRequest())
	require.NoError(t, err)
	r := m.Only()

	assert.Equal(t, http.MethodPost, r.Method)
	assert.Equal(t, "/tenants", r.Path)
	assert.Equal(t, "https", r.Scheme)
	assert.Equal(t, wiretest.MgmtHost, r.Host)
	assert.Empty(t, r.RawQuery)
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(wiretest.MgmtKey+":"+wiretest.MgmtSecret))
	assert.Equal(t, []string{want}, r.Header.Values("Authorization"), "Basic auth")
	req := &http.Request{Header: r.Header}
	user, pass, ok := req.BasicAuth()
	require.True(t, ok)
	assert.Equal(t, wiretest.MgmtKey, user, "the key is the user name")
	assert.Equal(t, wiretest.MgmtSecret, pass, "the secret is the password")
	assert.Empty(t, r.Header.Values("key"), "no key header")
	assert.Empty(t, r.Header.Values("secret"), "no secret header")
	assert.Empty(t, r.Header.Values("apikey"), "no apikey header")
	wiretest.JSONBody(t, r, `{"name":"Example User","email":"user@example.com","password":"`+tenantPassword+`",
		"contactNumber":"1234567890","role":"engineer","appName":"Create App","appRegion":"us","industry":"retail","technology":"go"}`)

	assert.Equal(t, &management.Tenant{
		Name: "Example User", Email: "user@example.com", ContactNumber: "1234567890", CreatedAt: 1715947984,
		App: management.TenantApp{Name: "Create App", AppID: "2531446b588709f6", Region: chat.RegionUS,
			AuthKey: tenantAuthKey, APIKey: tenantAPIKey, CreatedAt: 1715947984, Plan: "Build"},
	}, got)
}

// TestTenantsOthersKeepKeySecret checks that the Basic-auth client of the
// tenants service leaves the other services' credentials alone.
func TestTenantsOthersKeepKeySecret(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusOK, `{"data":`+tenantJSON+`}`)
	_, err := client.Tenants.Add(context.Background(), tenantRequest())
	require.NoError(t, err)
	m.Reply(http.StatusOK, `{"data":[]}`)
	_, err = client.Apps.List(context.Background(), nil)
	require.NoError(t, err)
	second := m.Requests()[1]
	wiretest.ManagementWire.Sent(t, second, http.MethodGet, "/apps")
	assert.Empty(t, second.Header.Values("Authorization"))
}

func TestTenantsValidate(t *testing.T) {
	client, m := wiretest.Management(t)
	ctx := context.Background()
	_, err := client.Tenants.Add(ctx, nil)
	wiretest.RequireArgError(t, err, "req")
	for _, tt := range []struct {
		arg    string
		change func(*management.AddTenantRequest)
	}{
		{"req.Name", func(r *management.AddTenantRequest) { r.Name = "" }},
		{"req.Email", func(r *management.AddTenantRequest) { r.Email = "" }},
		{"req.Password", func(r *management.AddTenantRequest) { r.Password = "" }},
		{"req.AppName", func(r *management.AddTenantRequest) { r.AppName = "" }},
		{"req.AppRegion", func(r *management.AddTenantRequest) { r.AppRegion = "" }},
	} {
		req := tenantRequest()
		tt.change(req)
		_, err := client.Tenants.Add(ctx, req)
		wiretest.RequireArgError(t, err, tt.arg)
	}
	assert.Zero(t, m.Calls())
}

func TestTenantsNeverPrintSecrets(t *testing.T) {
	req := tenantRequest()
	assertHidden(t, *req, "Example User", tenantPassword)
	assertHidden(t, req, "Example User", tenantPassword)

	var tenant management.Tenant
	require.NoError(t, json.Unmarshal([]byte(tenantJSON), &tenant))
	assertHidden(t, tenant, "2531446b588709f6", tenantAuthKey, tenantAPIKey)
	assertHidden(t, &tenant, "2531446b588709f6", tenantAuthKey, tenantAPIKey)
	assertHidden(t, tenant.App, "2531446b588709f6", tenantAuthKey, tenantAPIKey)

	// A failure shows neither the credentials nor the Basic auth header.
	client, m := wiretest.Management(t)
	m.Reply(http.StatusUnauthorized, `{"error":{"code":"AUTH_ERR_EMPTY_AUTH_HEADER","message":"missing"}}`)
	_, err := client.Tenants.Add(context.Background(), tenantRequest())
	var ce *chat.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, "AUTH_ERR_EMPTY_AUTH_HEADER", ce.Code)
	assert.ErrorIs(t, err, chat.ErrUnauthorized)
	basic := base64.StdEncoding.EncodeToString([]byte(wiretest.MgmtKey + ":" + wiretest.MgmtSecret))
	for _, s := range []string{wiretest.MgmtKey, wiretest.MgmtSecret, basic, tenantPassword} {
		assert.False(t, strings.Contains(err.Error(), s))
	}
}

// TestAddTenantRequestValidate holds AddTenantRequest.Validate to the
// checks Add runs before sending.
func TestAddTenantRequestValidate(t *testing.T) {
	without := func(change func(*management.AddTenantRequest)) *management.AddTenantRequest {
		r := tenantRequest()
		change(r)
		return r
	}
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a tenant", Value: tenantRequest()},
		{Name: "a tenant without an email", Value: without(func(r *management.AddTenantRequest) { r.Email = "" }), Field: "req.Email"},
		{Name: "a tenant without a password", Value: without(func(r *management.AddTenantRequest) { r.Password = "" }), Field: "req.Password"},
		{Name: "a tenant without an app region", Value: without(func(r *management.AddTenantRequest) { r.AppRegion = "" }), Field: "req.AppRegion"},
	})
}
