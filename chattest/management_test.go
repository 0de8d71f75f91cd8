package chattest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
)

// startMgmt returns a server at t0 and a management client without
// retries.
func startMgmt(t *testing.T, opts ...chattest.Option) (*chattest.Server, *management.Client) {
	t.Helper()
	srv, _ := start(t, opts...)
	return srv, srv.ManagementClient(chat.WithoutRetries())
}

// rawMgmt sends a request to the management API with the key and secret
// headers (unless basic), for what the SDK refuses to send.
func rawMgmt(t *testing.T, srv *chattest.Server, method, path, contentType string, body []byte, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.ManagementURL()+path, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("key", srv.ManagementKey())
	req.Header.Set("secret", srv.ManagementSecret())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b.String()
}

func TestManagementOwnApp(t *testing.T) {
	srv, mc := startMgmt(t, chattest.WithAppID("shop-app"))
	page, err := mc.Apps.List(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	own := page.Data[0]
	assert.Equal(t, "shop-app", own.ID)
	assert.Equal(t, chat.RegionUS, own.Region)
	assert.Equal(t, management.AppStateActive, own.State)
	assert.Empty(t, own.Version, "apps are answered as the reference's examples show them: no version, planName or role")
	assert.Equal(t, "1", own.Owner, "the owner's id, a number on the wire")
	assert.NotZero(t, own.TrialEndsAt)
	assert.NotEmpty(t, own.AccessKey, "a list shows the access key")
	assert.Equal(t, chattest.ManagementOwnerEmail, own.AppOwner.Email)
	assert.Equal(t, management.Timestamp(t0.Unix()), own.CreatedAt)
	key, ok := own.APIKeys.Key(chat.ScopeFullAccess)
	require.True(t, ok)
	assert.Equal(t, srv.APIKey(), key, "its keys are the chat API's")
	assert.Equal(t, 1, page.Meta.Pagination.Total)
	assert.Equal(t, 25, page.Meta.Pagination.PerPage, "perPage defaults to 25")

	// A key made through the chat API shows up.
	extra := srv.AddAPIKey("mobile", chat.ScopeAuthOnly)
	got, ok := srv.ManagementApp("shop-app")
	require.True(t, ok)
	assert.Contains(t, got.APIKeys, string(extra.APIKey))
	k, _ := got.APIKeys.Key(chat.ScopeAuthOnly)
	assert.Equal(t, string(extra.APIKey), k)

	// It cannot be deleted.
	_, err = mc.Apps.Delete(t.Context(), "shop-app")
	requireAPIError(t, err, http.StatusForbidden, "ERR_APP_DELETION", chat.ErrForbidden)
	// It is what the chat API serves: the key from the listing works.
	_, err = srv.ClientWithAPIKey(key).Users.List(t.Context(), nil)
	require.NoError(t, err)
}

func TestManagementAppLifecycle(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()

	created, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "My Shop!", Region: chat.RegionEU, SkipSampleData: new(true)})
	require.NoError(t, err)
	assert.Equal(t, "my-shop", created.ID, "the id derives from the name")
	assert.Equal(t, "My Shop!", created.Name)
	assert.Equal(t, chat.RegionEU, created.Region)
	assert.Equal(t, chat.RegionEU, created.AppRegion.ID)
	assert.Equal(t, "Europe", created.AppRegion.Name)
	assert.Equal(t, management.Timestamp(t0.Unix()), created.CreatedAt)
	assert.Equal(t, management.Timestamp(t0.Add(30*24*time.Hour).Unix()), created.TrialEndsAt)
	assert.Empty(t, created.AccessKey, "create shows no access key")
	require.Len(t, created.APIKeys, 2)
	restKey, ok := created.APIKeys.Key(chat.ScopeFullAccess)
	require.True(t, ok)
	assert.Regexp(t, `^[0-9a-f]{40}$`, restKey)
	assert.Equal(t, "Rest API Key", created.APIKeys[restKey].Name)
	authKey, ok := created.APIKeys.Key(chat.ScopeAuthOnly)
	require.True(t, ok)
	assert.NotEqual(t, restKey, authKey)

	second, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "my shop", Region: chat.RegionIN, Version: "3"})
	require.NoError(t, err)
	assert.Equal(t, "my-shop-2", second.ID, "a taken id gets a suffix")
	third, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "日本", Region: chat.RegionUS})
	require.NoError(t, err)
	assert.Equal(t, "app", third.ID, "a name without letters or digits")

	// Search by id or name, ignoring case; lists add the access key.
	page, err := mc.Apps.List(ctx, &management.ListAppsOptions{SearchKey: "SHOP"})
	require.NoError(t, err)
	var ids []string
	for _, a := range page.Data {
		ids = append(ids, a.ID)
		assert.NotEmpty(t, a.AccessKey)
	}
	assert.Equal(t, []string{"my-shop", "my-shop-2"}, ids)

	// Every app, two a page.
	ids = nil
	for a, err := range mc.Apps.All(ctx, &management.ListAppsOptions{PerPage: 2}) {
		require.NoError(t, err)
		ids = append(ids, a.ID)
	}
	assert.Equal(t, []string{srv.AppID(), "my-shop", "my-shop-2", "app"}, ids)

	// Delete schedules the deletion 30 days later and archives the app.
	res, err := mc.Apps.Delete(ctx, "my-shop")
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, chat.TimestampOf(t0.Add(30*24*time.Hour)), res.ScheduledToDeleteAt)
	got, ok := srv.ManagementApp("my-shop")
	require.True(t, ok)
	assert.Equal(t, management.AppStateArchived, got.State, "still listed, archived")
	_, err = mc.Apps.Delete(ctx, "my-shop")
	requireAPIError(t, err, http.StatusForbidden, "ERR_APP_ARCHIVED", chat.ErrForbidden)
	_, err = mc.Settings.List(ctx, "my-shop")
	requireAPIError(t, err, http.StatusForbidden, "ERR_APP_ARCHIVED", chat.ErrForbidden)
	_, err = mc.Apps.Delete(ctx, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)

	// Usage reports.
	r, err := mc.Apps.RequestUsage(ctx, srv.AppID(), nil)
	require.NoError(t, err)
	assert.True(t, r.Success)
	assert.Contains(t, r.Message, "current billing cycle")
	r, err = mc.Apps.RequestUsage(ctx, srv.AppID(), &management.UsageRequest{UsePreviousBillingCycle: true})
	require.NoError(t, err)
	assert.Contains(t, r.Message, "previous billing cycle")
	_, err = mc.Apps.RequestUsage(ctx, "nope", nil)
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
}

func TestManagementAppValidationAndLimit(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	_, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: strings.Repeat("x", 101), Region: "mars", Version: "2"})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "name")
	assert.Contains(t, ce.Details, "region")
	assert.Contains(t, ce.Details, "version")
	_, err = mc.Apps.List(ctx, &management.ListAppsOptions{PerPage: 1001})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)

	// The account may have MaxManagementApps active apps, its own included;
	// archiving one makes room.
	for i := 1; i < chattest.MaxManagementApps; i++ {
		_, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: fmt.Sprintf("app %d", i), Region: chat.RegionUS})
		require.NoError(t, err)
	}
	_, err = mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "one too many", Region: chat.RegionUS})
	requireAPIError(t, err, http.StatusForbidden, "ERR_APP_CREATION_FAILED_MAX_LIMIT", chat.ErrLimitExceeded)
	_, err = srv.AddManagementApp("seeded", chat.RegionUS)
	assert.EqualError(t, err, "chattest: the account has 10 active apps, its limit")
	_, err = mc.Apps.Delete(ctx, "app-1")
	require.NoError(t, err)
	seeded, err := srv.AddManagementApp("seeded", chat.RegionEU)
	require.NoError(t, err)
	assert.Equal(t, "seeded", seeded.ID)
	assert.Len(t, seeded.APIKeys, 2)
}

func TestManagementTenants(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	req := &management.AddTenantRequest{Name: "Ann Tenant", Email: "Ann@Example.com", Password: "pw-123456",
		ContactNumber: "555", Role: "owner", AppName: "Ann's App", AppRegion: chat.RegionIN, Industry: "retail"}
	tenant, err := mc.Tenants.Add(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "Ann Tenant", tenant.Name)
	assert.Equal(t, "ann@example.com", tenant.Email)
	assert.Equal(t, "555", tenant.ContactNumber)
	assert.Equal(t, chat.TimestampOf(t0), tenant.CreatedAt)
	assert.Equal(t, "ann-s-app", tenant.App.AppID)
	assert.Equal(t, chat.RegionIN, tenant.App.Region)
	assert.Equal(t, "Build", tenant.App.Plan)
	assert.Regexp(t, `^[0-9a-f]{40}$`, string(tenant.App.APIKey))
	assert.Regexp(t, `^[0-9a-f]{40}$`, string(tenant.App.AuthKey))

	// The tenant's app is an app of the account, owned by the tenant.
	app, ok := srv.ManagementApp("ann-s-app")
	require.True(t, ok)
	assert.Equal(t, "ann@example.com", app.AppOwner.Email)
	k, _ := app.APIKeys.Key(chat.ScopeFullAccess)
	assert.Equal(t, string(tenant.App.APIKey), k)
	assert.Equal(t, &management.AppMetadata{Industry: "retail"}, app.Metadata)

	// An email is one account.
	_, err = mc.Tenants.Add(ctx, req)
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "email")
	bad := *req
	bad.Email, bad.AppRegion = "not-an-email", "moon"
	_, err = mc.Tenants.Add(ctx, &bad)
	ce = requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "email")
	assert.Contains(t, ce.Details, "appRegion")

	// Basic auth, with the management credentials.
	_, err = srv.ManagementClientWith(srv.ManagementKey(), "wrong-secret", chat.WithoutRetries()).Tenants.Add(ctx, req)
	requireAPIError(t, err, http.StatusUnauthorized, "AUTH_ERR_APIKEY_NOT_FOUND", chat.ErrUnauthorized)
	body, err := json.Marshal(map[string]any{"name": "B", "email": "b@example.com", "password": "p", "appName": "B", "appRegion": "us"})
	require.NoError(t, err)
	status, out := rawMgmt(t, srv, http.MethodPost, "/tenants", "application/json", body, nil)
	assert.Equal(t, http.StatusUnauthorized, status, "the key and secret headers are not Basic auth")
	assert.Contains(t, out, "AUTH_ERR_EMPTY_AUTH_HEADER")
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(srv.ManagementKey()+":"+srv.ManagementSecret()))
	status, out = rawMgmt(t, srv, http.MethodPost, "/tenants", "application/json", body, map[string]string{"Authorization": basic})
	assert.Equal(t, http.StatusOK, status, out)

	// Tenants' apps count against the account's limit.
	for i := 0; i < chattest.MaxManagementApps-3; i++ {
		_, err := srv.AddManagementApp(fmt.Sprintf("filler %d", i), chat.RegionUS)
		require.NoError(t, err)
	}
	r2 := *req
	r2.Email = "late@example.com"
	_, err = mc.Tenants.Add(ctx, &r2)
	requireAPIError(t, err, http.StatusForbidden, "ERR_APP_CREATION_FAILED_MAX_LIMIT", chat.ErrLimitExceeded)
	r2.Email = "late@example.com"
	_, err = mc.Apps.Delete(ctx, "filler-0")
	require.NoError(t, err)
	_, err = mc.Tenants.Add(ctx, &r2)
	require.NoError(t, err, "a refused tenant's email is not taken")
}

func TestManagementCollaborators(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	app := srv.AppID()

	res, err := mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{
		Admins: []string{"Ann@example.com"}, Moderators: []string{"mo@example.com", "max@example.com"},
	})
	require.NoError(t, err)
	assert.Equal(t, management.Results{"ann@example.com": {Success: true}}, res.Admins)
	assert.Equal(t, management.Results{"mo@example.com": {Success: true}, "max@example.com": {Success: true}}, res.Moderators)
	assert.Empty(t, res.CollaboratorsToRemove, "an empty list is answered as []")

	list, err := mc.Collaborators.List(ctx, app)
	require.NoError(t, err)
	assert.Equal(t, []management.Collaborator{
		{ID: "1", Name: "ann", Email: "ann@example.com", Role: management.RoleAdmin, CreatedAt: chat.TimestampOf(t0)},
		{ID: "2", Name: "mo", Email: "mo@example.com", Role: management.RoleModerator, CreatedAt: chat.TimestampOf(t0)},
		{ID: "3", Name: "max", Email: "max@example.com", Role: management.RoleModerator, CreatedAt: chat.TimestampOf(t0)},
	}, list)

	// Promote one, remove another.
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{
		Admins: []string{"mo@example.com"}, CollaboratorsToRemove: []string{"max@example.com"},
	})
	require.NoError(t, err)
	list, err = mc.Collaborators.List(ctx, app)
	require.NoError(t, err)
	var summary []string
	for _, c := range list {
		summary = append(summary, c.Email+":"+string(c.Role))
	}
	assert.Equal(t, []string{"ann@example.com:admin", "mo@example.com:admin"}, summary)

	// Refusals change nothing.
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{
		Admins: []string{"new@example.com", chattest.ManagementOwnerEmail},
	})
	requireAPIError(t, err, http.StatusForbidden, "ERR_SELF_ACTION_DENIED", chat.ErrForbidden)
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{
		Admins: []string{"new@example.com"}, CollaboratorsToRemove: []string{"stranger@example.com"},
	})
	requireAPIError(t, err, http.StatusNotFound, "ERR_NOT_A_COLLABORATOR", chat.ErrNotFound)
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{Moderators: []string{"nope"}})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "moderators.0")
	list, err = mc.Collaborators.List(ctx, app)
	require.NoError(t, err)
	assert.Len(t, list, 2)

	// A tenant's app belongs to the tenant.
	tenant, err := mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "T", Email: "t@example.com", Password: "p",
		AppName: "T App", AppRegion: chat.RegionUS})
	require.NoError(t, err)
	_, err = mc.Collaborators.Update(ctx, tenant.App.AppID, &management.UpdateCollaboratorsRequest{Admins: []string{"t@example.com"}})
	requireAPIError(t, err, http.StatusConflict, "ERR_ALREADY_AN_OWNER", chat.ErrConflict)

	// At most 25 members.
	var many []string
	for i := range 24 {
		many = append(many, fmt.Sprintf("m%d@example.com", i))
	}
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{Moderators: many})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	_, err = mc.Collaborators.Update(ctx, app, &management.UpdateCollaboratorsRequest{Moderators: many[:23]})
	require.NoError(t, err)

	_, err = mc.Collaborators.List(ctx, "nope")
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
}

func TestManagementSettings(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	app := srv.AppID()

	s, err := mc.Settings.List(ctx, app)
	require.NoError(t, err)
	v, ok := s.Bool(management.SettingUpdateOnReplies)
	assert.True(t, ok && v, "updateOnReplies defaults to true")
	v, ok = s.Bool(management.SettingUpdateOnMessageActions)
	assert.True(t, ok && !v, "updateOnMessageActions defaults to false")
	included, ok := s.Strings(management.SettingPushAdvancedIncluded)
	assert.True(t, ok)
	assert.Empty(t, included)

	res, err := mc.Settings.Map(ctx, app, map[management.SettingKey]bool{
		management.SettingUpdateOnReplies: false, management.SettingPushEnabled: true,
	})
	require.NoError(t, err)
	assert.Equal(t, management.Results{
		string(management.SettingUpdateOnReplies): {Success: true, Message: "Added setting(s) successfully."},
		string(management.SettingPushEnabled):     {Success: true, Message: "Added setting(s) successfully."},
	}, res)
	s, err = mc.Settings.List(ctx, app)
	require.NoError(t, err)
	v, _ = s.Bool(management.SettingUpdateOnReplies)
	assert.False(t, v)
	v, _ = s.Bool(management.SettingPushEnabled)
	assert.True(t, v)

	r, err := mc.Settings.Unmap(ctx, app, []management.SettingKey{management.SettingUpdateOnReplies})
	require.NoError(t, err)
	assert.True(t, r.Success)
	s, err = mc.Settings.List(ctx, app)
	require.NoError(t, err)
	v, _ = s.Bool(management.SettingUpdateOnReplies)
	assert.True(t, v, "back to its default")
	v, _ = s.Bool(management.SettingPushEnabled)
	assert.True(t, v, "the others stay")

	_, err = mc.Settings.Map(ctx, app, map[management.SettingKey]bool{"core.typo": true, management.SettingPushAdvancedIncluded: true})
	ce := requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	assert.Contains(t, ce.Details, "settings.core.typo")
	assert.Contains(t, ce.Details, "settings."+string(management.SettingPushAdvancedIncluded))
	_, err = mc.Settings.Unmap(ctx, app, []management.SettingKey{"core.typo"})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	_, err = mc.Settings.Map(ctx, "nope", map[management.SettingKey]bool{management.SettingPushEnabled: true})
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)

	// The other accepted unmap body: an object of keys.
	status, out := rawMgmt(t, srv, http.MethodDelete, "/apps/"+app+"/settings", "application/json",
		[]byte(`{"settings":{"core.notifications.push.enabled":true}}`), nil)
	assert.Equal(t, http.StatusOK, status, out)
	s, err = mc.Settings.List(ctx, app)
	require.NoError(t, err)
	v, _ = s.Bool(management.SettingPushEnabled)
	assert.False(t, v)

	// The array-valued setting maps from an array of strings.
	status, out = rawMgmt(t, srv, http.MethodPost, "/apps/"+app+"/settings", "application/json",
		[]byte(`{"settings":{"core.notifications.push.advanced.included":["preferences","templates"]}}`), nil)
	assert.Equal(t, http.StatusOK, status, out)
	s, err = mc.Settings.List(ctx, app)
	require.NoError(t, err)
	included, _ = s.Strings(management.SettingPushAdvancedIncluded)
	assert.Equal(t, []string{"preferences", "templates"}, included)
}

func TestManagementExtensions(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	app := srv.AppID()
	ext := mc.Extensions

	page, err := ext.List(ctx, app, &management.ListExtensionsOptions{PerPage: 10})
	require.NoError(t, err)
	require.Len(t, page.Data, 10)
	assert.Equal(t, management.ExtensionWidget, page.Data[0].ID)
	assert.Equal(t, "Chat Widget", page.Data[0].Name)
	assert.Equal(t, 39, page.Meta.Pagination.Total)
	assert.Equal(t, srv.ManagementURL()+"/apps/"+app+"/extensions?page=2&perPage=10", page.Meta.Pagination.Links.Next)
	for _, e := range page.Data {
		assert.False(t, e.IsActive, "nothing is enabled at first")
	}
	masking := page.Data[3]
	assert.Equal(t, management.ExtensionDataMasking, masking.ID)
	require.Len(t, masking.Hooks, 1)
	assert.Equal(t, management.HookBeforeMessage, masking.Hooks[0].Hook)

	res, err := ext.SetEnabled(ctx, app, &management.SetExtensionsRequest{
		Enabled: []management.ExtensionID{management.ExtensionGiphy, management.ExtensionSMSNotification, management.ExtensionXSSFilter,
			management.ExtensionDataMasking, management.ExtensionStickers, management.ExtensionWidget, management.ExtensionPushNotification},
	})
	require.NoError(t, err)
	assert.True(t, res.Enabled[string(management.ExtensionGiphy)].Success)
	assert.Empty(t, res.Disabled)

	// Every extension, following links.next.
	var active []management.ExtensionID
	n := 0
	for e, err := range ext.All(ctx, app, &management.ListExtensionsOptions{PerPage: 7}) {
		require.NoError(t, err)
		n++
		if e.IsActive {
			active = append(active, e.ID)
		}
	}
	assert.Equal(t, 39, n)
	assert.ElementsMatch(t, []management.ExtensionID{management.ExtensionGiphy, management.ExtensionSMSNotification,
		management.ExtensionXSSFilter, management.ExtensionDataMasking, management.ExtensionStickers,
		management.ExtensionWidget, management.ExtensionPushNotification}, active)

	_, err = ext.SetEnabled(ctx, app, &management.SetExtensionsRequest{Enabled: []management.ExtensionID{"gifs-giphy", "no-such"}})
	requireAPIError(t, err, http.StatusNotFound, "ERR_EXTENSION_NOT_FOUND", chat.ErrNotFound)

	// Typed settings: store, get (the app id the service adds is dropped),
	// update, delete.
	_, err = management.StoreExtensionSettings(ctx, ext, app, &management.GiphySettings{GiphyAPIKey: "giphy-1"})
	require.NoError(t, err)
	giphy, err := management.GetExtensionSettings[management.GiphySettings](ctx, ext, app)
	require.NoError(t, err)
	assert.Equal(t, &management.GiphySettings{GiphyAPIKey: "giphy-1"}, giphy)
	reply, err := ext.GetSettings(ctx, app, management.ExtensionGiphy)
	require.NoError(t, err)
	assert.JSONEq(t, `{"giphyApiKey":"giphy-1","appId":"`+app+`"}`, string(reply.Body.Data.Settings))
	assert.Equal(t, 200, reply.StatusCode)
	_, err = management.UpdateExtensionSettings(ctx, ext, app, &management.GiphySettings{GiphyAPIKey: "giphy-2"})
	require.NoError(t, err)
	giphy, err = management.GetExtensionSettings[management.GiphySettings](ctx, ext, app)
	require.NoError(t, err)
	assert.Equal(t, chat.Secret("giphy-2"), giphy.GiphyAPIKey)
	del, err := management.DeleteExtensionSettings[management.GiphySettings](ctx, ext, app)
	require.NoError(t, err)
	assert.True(t, del.Body.OK(), "gifs-giphy reports its deletion in body.data.settings")
	giphy, err = management.GetExtensionSettings[management.GiphySettings](ctx, ext, app)
	require.NoError(t, err)
	assert.Empty(t, giphy.GiphyAPIKey)

	// sms-notification answers body.success.
	sms, err := management.StoreExtensionSettings(ctx, ext, app, &management.SMSNotificationSettings{FromMobileNo: "+1555", MessageDelay: 5})
	require.NoError(t, err)
	assert.True(t, sms.Body.Success)
	assert.Empty(t, sms.Body.Data.Settings)

	// Update keeps the fields it is not sent; xss-filter requires
	// dropMessage, which update defaults to true.
	_, err = ext.StoreSettings(ctx, app, management.ExtensionXSSFilter, map[string]any{})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)
	_, err = ext.UpdateSettings(ctx, app, management.ExtensionXSSFilter, map[string]any{"note": "x"})
	require.NoError(t, err)
	xss, err := management.GetExtensionSettings[management.XSSFilterSettings](ctx, ext, app)
	require.NoError(t, err)
	assert.True(t, xss.DropMessage)

	// data-masking and stickers have no store operation: their update
	// stores.
	status, out := rawMgmt(t, srv, http.MethodPost, "/apps/"+app+"/extensions/data-masking/v1/settings", "application/json",
		[]byte(`{"settings":{"dropMessage":true}}`), nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Contains(t, out, "ERR_API_NOT_FOUND")
	_, err = management.UpdateExtensionSettings(ctx, ext, app, &management.DataMaskingSettings{DropMessage: true,
		CustomRegexData: []management.MaskingRegex{{ID: "r1", Name: "cards", Regex: `\d{16}`, EnableFlag: true}}})
	require.NoError(t, err)
	masked, err := management.GetExtensionSettings[management.DataMaskingSettings](ctx, ext, app)
	require.NoError(t, err)
	assert.Equal(t, []management.MaskingRegex{{ID: "r1", Name: "cards", Regex: `\d{16}`, EnableFlag: true}}, masked.CustomRegexData)

	// image-moderation, like gifs-giphy, reports its deletion in
	// body.data.settings.
	_, err = ext.SetEnabled(ctx, app, &management.SetExtensionsRequest{Enabled: []management.ExtensionID{management.ExtensionImageModeration}})
	require.NoError(t, err)
	_, err = management.StoreExtensionSettings(ctx, ext, app, &management.ImageModerationSettings{DropMessage: true})
	require.NoError(t, err)
	del, err = management.DeleteExtensionSettings[management.ImageModerationSettings](ctx, ext, app)
	require.NoError(t, err)
	assert.True(t, del.Body.OK())

	// A disabled or unknown extension.
	_, err = management.GetExtensionSettings[management.TenorSettings](ctx, ext, app)
	requireAPIError(t, err, http.StatusForbidden, "ERR_EXTENSION_INACTIVE", chat.ErrForbidden)
	_, err = ext.GetSettings(ctx, app, "no-such")
	requireAPIError(t, err, http.StatusNotFound, "ERR_EXTENSION_NOT_FOUND", chat.ErrNotFound)
	_, err = ext.SetEnabled(ctx, app, &management.SetExtensionsRequest{Disabled: []management.ExtensionID{management.ExtensionGiphy}})
	require.NoError(t, err)
	_, err = management.StoreExtensionSettings(ctx, ext, app, &management.GiphySettings{GiphyAPIKey: "g"})
	requireAPIError(t, err, http.StatusForbidden, "ERR_EXTENSION_INACTIVE", chat.ErrForbidden)
	_, err = ext.List(ctx, "nope", nil)
	requireAPIError(t, err, http.StatusNotFound, "ERR_APP_NOT_FOUND", chat.ErrNotFound)
}

func TestManagementChatWidgets(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	app := srv.AppID()
	ext := mc.Extensions

	_, err := ext.StoreChatWidget(ctx, app, map[string]any{"name": "Help"})
	requireAPIError(t, err, http.StatusForbidden, "ERR_EXTENSION_INACTIVE", chat.ErrForbidden)
	require.True(t, srv.EnableExtensions(app, management.ExtensionWidget))

	stored, err := ext.StoreChatWidget(ctx, app, map[string]any{"name": "Help", "main": map[string]bool{"send_files": true}})
	require.NoError(t, err)
	id := stored.Body.Data.WidgetID
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, id)

	upd, err := ext.UpdateChatWidget(ctx, app, id, json.RawMessage(`{"name":"Support","main":{"send_files":false}}`))
	require.NoError(t, err)
	assert.True(t, upd.Body.Data.Success)
	_, err = ext.UpdateChatWidget(ctx, app, "nope", map[string]any{"name": "x"})
	requireAPIError(t, err, http.StatusBadRequest, "ERR_BAD_REQUEST", chat.ErrBadRequest)

	list, err := ext.ListChatWidgets(ctx, app)
	require.NoError(t, err)
	require.Len(t, list.Body.Data, 1)
	assert.Equal(t, id, list.Body.Data[0].WidgetID)
	assert.JSONEq(t, `{"name":"Support","main":{"send_files":false},"version":"v2","appId":"`+app+`"}`, string(list.Body.Data[0].Configuration))
}

func TestManagementPushCertificates(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	app := srv.AppID()
	ext := mc.Extensions

	_, err := ext.QueryCertificates(ctx, app)
	requireAPIError(t, err, http.StatusForbidden, "ERR_EXTENSION_INACTIVE", chat.ErrForbidden)
	require.True(t, srv.EnableExtensions(app, management.ExtensionPushNotification))
	assert.False(t, srv.EnableExtensions(app, "no-such"))
	assert.False(t, srv.EnableExtensions("nope", management.ExtensionPolls))

	q, err := ext.QueryCertificates(ctx, app)
	require.NoError(t, err)
	assert.False(t, q.Body.Success, "nothing stored")

	p8, err := ext.UploadAPNsP8(ctx, app, "AuthKey.p8", []byte("-----BEGIN PRIVATE KEY-----"))
	require.NoError(t, err)
	assert.True(t, p8.Body.Success)
	p12, err := ext.UploadAPNsP12(ctx, app, "apns.p12", []byte{0x30, 0x82, 0x01})
	require.NoError(t, err)
	assert.Equal(t, management.CertificatesBody{CertificateP12: true, CertificateP8: true}, p12.Body)
	q, err = ext.QueryCertificates(ctx, app)
	require.NoError(t, err)
	assert.True(t, q.Body.Success)

	// The part must be named "certificate" and hold a file.
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile("cert", "apns.p12")
	require.NoError(t, err)
	_, err = fw.Write([]byte("x"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	status, out := rawMgmt(t, srv, http.MethodPost, "/apps/"+app+"/extensions/push-notification/v1/upload-certificate-p12",
		w.FormDataContentType(), b.Bytes(), nil)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, out, `"certificate"`)
	status, out = rawMgmt(t, srv, http.MethodPost, "/apps/"+app+"/extensions/push-notification/v1/upload-certificate-p8",
		"application/json", []byte(`{}`), nil)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, out, "multipart/form-data")
}

// TestManagementRequestLogHidesCredentials checks that the request log
// shows neither the management credentials nor the keys of created apps.
func TestManagementRequestLogHidesCredentials(t *testing.T) {
	srv, mc := startMgmt(t)
	ctx := t.Context()
	created, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "logged", Region: chat.RegionUS})
	require.NoError(t, err)
	restKey, _ := created.APIKeys.Key(chat.ScopeFullAccess)
	_, err = mc.Apps.List(ctx, &management.ListAppsOptions{SearchKey: restKey})
	require.NoError(t, err)
	_, err = mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "T", Email: "t@example.com", Password: "p",
		AppName: "T", AppRegion: chat.RegionUS})
	require.NoError(t, err)
	out := fmt.Sprintf("%+v", srv.Requests())
	for _, s := range []string{srv.ManagementKey(), srv.ManagementSecret(), restKey,
		base64.StdEncoding.EncodeToString([]byte(srv.ManagementKey() + ":" + srv.ManagementSecret()))} {
		assert.NotContains(t, out, s)
	}
	assert.Equal(t, 1, srv.RequestCount("POST /tenants"))
}
