package management_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// The app of the reference's create example, with recognisable keys.
const (
	restKey   = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c"
	authKey   = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4"
	accessKey = "acc-7d1c9e2b4f"
	appJSON   = `{"id":"2531446b588709f6","name":"Shop","plan":"trial","trialEndsAt":1588887393,"state":"active",
	"owner":1656,"region":"us","createdAt":1586295393,
	"appOwner":{"id":"1656","name":"Owner","email":"owner@example.com"},
	"appRegion":{"id":"us","name":"USA","description":"The USA region has servers located at Ohio."},
	"apiKeys":{"` + restKey + `":{"apiKey":"` + restKey + `","name":"Rest API Key","scope":"fullAccess","createdBy":"app_system"},
	           "` + authKey + `":{"apiKey":"` + authKey + `","name":"Auth Key","scope":"authOnly","createdBy":"app_system"}},
	"accessKey":"` + accessKey + `"}`
)

// wantApp is appJSON decoded.
func wantApp() *management.App {
	return &management.App{
		ID: "2531446b588709f6", Name: "Shop", Plan: "trial", TrialEndsAt: 1588887393, State: management.AppStateActive,
		Owner: "1656", Region: chat.RegionUS, CreatedAt: 1586295393,
		AppOwner:  &management.AppOwner{ID: "1656", Name: "Owner", Email: "owner@example.com"},
		AppRegion: &management.AppRegion{ID: chat.RegionUS, Name: "USA", Description: "The USA region has servers located at Ohio."},
		APIKeys: management.AppAPIKeys{
			restKey: {APIKey: restKey, Name: "Rest API Key", Scope: chat.ScopeFullAccess, CreatedBy: "app_system"},
			authKey: {APIKey: authKey, Name: "Auth Key", Scope: chat.ScopeAuthOnly, CreatedBy: "app_system"},
		},
		AccessKey: accessKey,
	}
}

func TestAppsWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "create",
			Call: func(c *management.Client) (any, error) {
				return c.Apps.Create(ctx, &management.CreateAppRequest{Name: "Shop", Region: chat.RegionUS, Version: "3", SkipSampleData: new(false)})
			},
			Reply:  `{"data":` + appJSON + `}`,
			Method: http.MethodPost, Path: "/apps",
			Body: `{"name":"Shop","region":"us","version":"3","skipSampleData":false}`,
			Want: wantApp(),
		},
		{
			Name: "create minimal",
			Call: func(c *management.Client) (any, error) {
				return c.Apps.Create(ctx, &management.CreateAppRequest{Name: "Shop", Region: chat.RegionEU})
			},
			Reply:  `{"data":{"id":"x"}}`,
			Method: http.MethodPost, Path: "/apps",
			Body: `{"name":"Shop","region":"eu"}`,
			Want: &management.App{ID: "x"},
		},
		{
			Name: "list",
			Call: func(c *management.Client) (any, error) {
				return c.Apps.List(ctx, &management.ListAppsOptions{SearchKey: "sh op", PerPage: 10, Page: 2})
			},
			Reply:  `{"data":[` + appJSON + `],"meta":{"pagination":{"total":11,"count":1,"per_page":10,"current_page":2,"total_pages":2}}}`,
			Method: http.MethodGet, Path: "/apps", Query: "page=2&perPage=10&searchKey=sh+op",
			Want: &chat.Page[management.App]{Data: []management.App{*wantApp()}, Meta: chat.PageMeta{Pagination: &chat.Pagination{
				Total: 11, Count: 1, PerPage: 10, CurrentPage: 2, TotalPages: 2}}},
		},
		{
			Name:   "list without options",
			Call:   func(c *management.Client) (any, error) { return c.Apps.List(ctx, nil) },
			Reply:  `{"data":[]}`,
			Method: http.MethodGet, Path: "/apps",
			Want: &chat.Page[management.App]{Data: []management.App{}},
		},
		{
			Name:   "delete",
			Call:   func(c *management.Client) (any, error) { return c.Apps.Delete(ctx, "app/1") },
			Reply:  `{"data":{"success":true,"scheduledToDeleteAt":1700000000}}`,
			Method: http.MethodDelete, Path: "/apps/app%2F1",
			Want: &management.DeleteAppResult{Success: true, ScheduledToDeleteAt: 1700000000},
		},
		{
			Name: "usage, previous cycle",
			Call: func(c *management.Client) (any, error) {
				return c.Apps.RequestUsage(ctx, "parent", &management.UsageRequest{UsePreviousBillingCycle: true})
			},
			Reply:  `{"data":{"success":true,"message":"The report will be emailed."}}`,
			Method: http.MethodPost, Path: "/apps/parent/usage",
			Body: `{"usePreviousBillingCycle":true}`,
			Want: &chat.Result{Success: true, Message: "The report will be emailed."},
		},
		{
			Name:   "usage, nil request sends the current cycle",
			Call:   func(c *management.Client) (any, error) { return c.Apps.RequestUsage(ctx, "parent", nil) },
			Reply:  `{"data":{"success":true}}`,
			Method: http.MethodPost, Path: "/apps/parent/usage",
			Body: `{"usePreviousBillingCycle":false}`,
			Want: &chat.Result{Success: true},
		},
	})
}

func TestAppsValidate(t *testing.T) {
	ctx := context.Background()
	client, m := wiretest.Management(t)
	c := client
	_, err := c.Apps.Create(ctx, nil)
	wiretest.RequireArgError(t, err, "req")
	_, err = c.Apps.Create(ctx, &management.CreateAppRequest{Region: chat.RegionUS})
	wiretest.RequireArgError(t, err, "req.Name")
	_, err = c.Apps.Create(ctx, &management.CreateAppRequest{Name: "x"})
	wiretest.RequireArgError(t, err, "req.Region")
	_, err = c.Apps.Delete(ctx, "")
	wiretest.RequireArgError(t, err, "appID")
	_, err = c.Apps.Delete(ctx, "..")
	wiretest.RequireArgError(t, err, "appID")
	_, err = c.Apps.RequestUsage(ctx, "", nil)
	wiretest.RequireArgError(t, err, "appID")
	assert.Zero(t, m.Calls(), "nothing is sent")
}

// TestAppNewerExample decodes the newer list example, whose types differ:
// ISO-8601 timestamps and a string owner.
func TestAppNewerExample(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusOK, `{"data":[{"id":"a1","name":"N","version":"3","owner":"1656","role":"owner","plan":"free-2023-01",
	"planName":"Build","trialEndsAt":"2023-02-01T00:00:00.000Z","createdAt":"2023-01-01T10:20:30Z","updatedAt":"",
	"statsToken":"st-secret-99","metadata":{"industry":"retail","technology":"go","otherTechnology":""},
	"appOwner":{"id":"1656","emailVerified":true,"pooledBilling":false,"isTestAccount":true,"createdAt":"2022-12-31T23:59:59+01:00"},
	"appRegion":{"id":"eu","isActive":true,"meta":{"apiHost":"api-eu.cometchat.io","useSSL":true}}}],"meta":{}}`)
	page, err := client.Apps.List(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	a := page.Data[0]
	assert.Equal(t, "1656", a.Owner)
	assert.Equal(t, management.RoleOwner, a.Role)
	assert.Equal(t, "Build", a.PlanName)
	assert.Equal(t, time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC), a.TrialEndsAt.Time())
	assert.Equal(t, time.Date(2023, 1, 1, 10, 20, 30, 0, time.UTC), a.CreatedAt.Time())
	assert.True(t, a.UpdatedAt.IsZero())
	assert.Equal(t, chat.Secret("st-secret-99"), a.StatsToken)
	assert.Equal(t, &management.AppMetadata{Industry: "retail", Technology: "go"}, a.Metadata)
	assert.Equal(t, time.Date(2022, 12, 31, 22, 59, 59, 0, time.UTC), a.AppOwner.CreatedAt.Time())
	assert.True(t, a.AppOwner.EmailVerified)
	assert.Equal(t, "api-eu.cometchat.io", a.AppRegion.Meta.APIHost)
	assert.Equal(t, chat.RegionEU, a.AppRegion.ID)
}

func TestTimestampDecoding(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want management.Timestamp
	}{
		{`1586295393`, 1586295393},
		{`"1586295393"`, 1586295393},
		{`1586295393.7`, 1586295393},
		{`"2020-04-07T21:36:33Z"`, 1586295393},
		{`"2020-04-07T21:36:33.123+00:00"`, 1586295393},
		{`""`, 0},
		{`null`, 0},
		{`1e300`, 253402300799},
		{`"99999999999999999999999"`, 253402300799},
		{`"-Infinity"`, -253402300799},
	} {
		var got management.Timestamp
		require.NoError(t, json.Unmarshal([]byte(tt.in), &got), tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	var bad management.Timestamp
	assert.EqualError(t, json.Unmarshal([]byte(`"yesterday"`), &bad), `json: cannot unmarshal timestamp "yesterday" into Go value of type management.Timestamp`)
	assert.EqualError(t, json.Unmarshal([]byte(`"NaN"`), &bad), `json: cannot unmarshal timestamp "NaN" into Go value of type management.Timestamp`)
	assert.Equal(t, time.Time{}, management.Timestamp(0).Time())
	out, err := json.Marshal(management.Timestamp(1586295393))
	require.NoError(t, err)
	assert.Equal(t, "1586295393", string(out), "encodes as seconds")
}

func TestAppAPIKeysKey(t *testing.T) {
	keys := wantApp().APIKeys
	k, ok := keys.Key(chat.ScopeFullAccess)
	assert.True(t, ok)
	assert.Equal(t, restKey, k)
	k, ok = keys.Key(chat.ScopeAuthOnly)
	assert.True(t, ok)
	assert.Equal(t, authKey, k)
	_, ok = management.AppAPIKeys{}.Key(chat.ScopeFullAccess)
	assert.False(t, ok)
	// A key the value does not repeat is its map key.
	k, _ = management.AppAPIKeys{"only-map-key": {Scope: chat.ScopeFullAccess}}.Key(chat.ScopeFullAccess)
	assert.Equal(t, "only-map-key", k)
}

// verbs are the fmt verbs a secret must not show through.
var verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"}

// listPages answers page n (from 1) of total apps, perPage a page.
func listPages(total, perPage int) func(*http.Request) string {
	return func(r *http.Request) string {
		page, err := strconv.Atoi(r.URL.Query().Get("page"))
		if err != nil {
			page = 1
		}
		var items []string
		for i := (page - 1) * perPage; i < min(page*perPage, total); i++ {
			items = append(items, fmt.Sprintf(`{"id":"app-%d"}`, i))
		}
		return fmt.Sprintf(`{"data":[%s],"meta":{"pagination":{"total":%d,"count":%d,"per_page":%d,"current_page":%d,"total_pages":%d}}}`,
			strings.Join(items, ","), total, len(items), perPage, page, (total+perPage-1)/perPage)
	}
}

func TestAppsAll(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Answer(listPages(5, 2))
	var ids []string
	for a, err := range client.Apps.All(context.Background(), &management.ListAppsOptions{PerPage: 2, SearchKey: "app"}) {
		require.NoError(t, err)
		ids = append(ids, a.ID)
	}
	assert.Equal(t, []string{"app-0", "app-1", "app-2", "app-3", "app-4"}, ids)
	assert.Equal(t, []string{"page=1&perPage=2&searchKey=app", "page=2&perPage=2&searchKey=app", "page=3&perPage=2&searchKey=app"}, m.Queries())

	// From page 2, and stopping early.
	client, m = wiretest.Management(t)
	m.Answer(listPages(5, 2))
	ids = nil
	for a, err := range client.Apps.All(context.Background(), &management.ListAppsOptions{PerPage: 2, Page: 2}) {
		require.NoError(t, err)
		ids = append(ids, a.ID)
		break
	}
	assert.Equal(t, []string{"app-2"}, ids)
	assert.Equal(t, []string{"page=2&perPage=2"}, m.Queries())
}

func TestAppsAllStopsOnError(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_APP_NOT_FOUND","message":"no"}}`)
	n := 0
	for a, err := range client.Apps.All(context.Background(), nil) {
		n++
		assert.Nil(t, a)
		assert.ErrorIs(t, err, chat.ErrNotFound)
	}
	assert.Equal(t, 1, n)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, err := range client.Apps.All(ctx, nil) {
		assert.ErrorIs(t, err, context.Canceled)
	}
}

// assertHidden checks that no verb prints any of secrets, and that %+v
// still shows the value (shown is a part of it that must appear).
func assertHidden(t *testing.T, v any, shown string, secrets ...string) {
	t.Helper()
	for _, verb := range verbs {
		out := fmt.Sprintf(verb, v)
		for _, s := range secrets {
			assert.NotContains(t, out, s, verb)
		}
	}
	assert.Contains(t, fmt.Sprintf("%+v", v), shown, "%+v shows the value")
	assert.Contains(t, fmt.Sprintf("%+v", v), "REDACTED", "%+v marks what it hides")
}

func TestAppNeverPrintsCredentials(t *testing.T) {
	a := wantApp()
	a.StatsToken = "st-secret-99"
	secrets := []string{restKey, authKey, accessKey, "st-secret-99"}
	assertHidden(t, *a, "Shop", secrets...)
	assertHidden(t, a, "Shop", secrets...)
	assertHidden(t, []management.App{*a}, "Shop", secrets...)
	assertHidden(t, a.APIKeys, "Rest API Key", secrets...)
	assertHidden(t, a.APIKeys[restKey], "Rest API Key", secrets...)
	// JSON keeps them: it is how they are stored and sent.
	b, err := json.Marshal(a)
	require.NoError(t, err)
	for _, s := range secrets {
		assert.Contains(t, string(b), s)
	}
}

// TestCreateAppRequestValidate holds CreateAppRequest.Validate to the
// checks Create runs before sending.
func TestCreateAppRequestValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an app", Value: &management.CreateAppRequest{Name: "Shop", Region: chat.RegionEU}},
		{Name: "an app without a name", Value: &management.CreateAppRequest{Region: chat.RegionEU}, Field: "req.Name"},
		{Name: "an app without a region", Value: &management.CreateAppRequest{Name: "Shop"}, Field: "req.Region"},
	})
}
