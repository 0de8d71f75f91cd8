package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// otherKey is a key the client manages (not the one it authenticates with).
const (
	otherKey   = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"
	apiKeyJSON = `{"apiKey":"` + otherKey + `","name":"John's apiKey","scope":"authOnly","createdAt":1625206799}`
)

func TestAPIKeysWire(t *testing.T) {
	ctx := context.Background()
	want := &chat.APIKey{APIKey: otherKey, Name: "John's apiKey", Scope: chat.ScopeAuthOnly, CreatedAt: 1625206799}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Create",
			Call: func(c *chat.Client) (any, error) {
				return c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "John's apiKey", Scope: chat.ScopeAuthOnly})
			},
			Reply:  `{"data":` + apiKeyJSON + `}`,
			Method: http.MethodPost, Path: "/v3/apikeys", Body: `{"name":"John's apiKey","scope":"authOnly"}`,
			Want: want,
		},
		{
			Name:   "Create without scope leaves it to the service",
			Call:   func(c *chat.Client) (any, error) { return c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "k"}) },
			Reply:  `{"data":` + apiKeyJSON + `}`,
			Method: http.MethodPost, Path: "/v3/apikeys", Body: `{"name":"k"}`,
			Want: want,
		},
		{
			Name: "List with filters",
			Call: func(c *chat.Client) (any, error) {
				return c.APIKeys.List(ctx, &chat.ListAPIKeysOptions{Scope: chat.ScopeFullAccess, SearchKey: "John's key"})
			},
			Reply:  `{"data":[` + apiKeyJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`,
			Method: http.MethodGet, Path: "/v3/apikeys", Query: "scope=fullAccess&searchKey=John%27s+key",
			Want: &chat.Page[chat.APIKey]{Data: []chat.APIKey{*want},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}},
		},
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.APIKeys.List(ctx, nil) },
			Reply:  `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":100,"current_page":1,"total_pages":0}}}`,
			Method: http.MethodGet, Path: "/v3/apikeys",
			Want: &chat.Page[chat.APIKey]{Data: []chat.APIKey{},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 100, CurrentPage: 1}}},
		},
		{
			Name:   "Get",
			Call:   func(c *chat.Client) (any, error) { return c.APIKeys.Get(ctx, otherKey) },
			Reply:  `{"data":` + apiKeyJSON + `}`,
			Method: http.MethodGet, Path: "/v3/apikeys/" + otherKey,
			Want: want,
		},
		{
			Name: "Update",
			Call: func(c *chat.Client) (any, error) {
				return c.APIKeys.Update(ctx, otherKey, &chat.UpdateAPIKeyRequest{Scope: chat.ScopeFullAccess})
			},
			Reply:  `{"data":{"apiKey":"` + otherKey + `","name":"John's apiKey","scope":"fullAccess","createdAt":1625206799}}`,
			Method: http.MethodPut, Path: "/v3/apikeys/" + otherKey, Body: `{"scope":"fullAccess"}`,
			Want: &chat.APIKey{APIKey: otherKey, Name: "John's apiKey", Scope: chat.ScopeFullAccess, CreatedAt: 1625206799},
		},
		{
			Name:   "Delete",
			Call:   func(c *chat.Client) (any, error) { return c.APIKeys.Delete(ctx, otherKey) },
			Reply:  `{"data":{"success":true,"message":"API key deleted."}}`,
			Method: http.MethodDelete, Path: "/v3/apikeys/" + otherKey,
			Want: &chat.Result{Success: true, Message: "API key deleted."},
		},
		{
			Name:   "Get escapes the key",
			Call:   func(c *chat.Client) (any, error) { return c.APIKeys.Get(ctx, "k/../../users") },
			Reply:  `{"data":` + apiKeyJSON + `}`,
			Method: http.MethodGet, Path: "/v3/apikeys/k%2F..%2F..%2Fusers",
			Want: want,
		},
	})
}

func TestAPIKeysAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"apiKey":"k1"},{"apiKey":"k2"}],"meta":{"pagination":{"per_page":2,"current_page":1}}}`,
		"2": `{"data":[],"meta":{"pagination":{"per_page":2,"current_page":2}}}`,
	})
	keys := collectKeys(t, client.APIKeys.All(context.Background(), &chat.ListAPIKeysOptions{Scope: chat.ScopeAuthOnly}),
		func(k *chat.APIKey) string { return string(k.APIKey) })
	assert.Equal(t, []string{"k1", "k2"}, keys)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "page=1&scope=authOnly", reqs[0].RawQuery)
	assert.Equal(t, "page=2&scope=authOnly", reqs[1].RawQuery)
}

func TestAPIKeysArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Create nil request", Call: func(c *chat.Client) error { _, err := c.APIKeys.Create(ctx, nil); return err }, Arg: "req"},
		{Name: "Create empty name", Call: func(c *chat.Client) error { _, err := c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{}); return err }, Arg: "req.Name"},
		{Name: "Get empty key", Call: func(c *chat.Client) error { _, err := c.APIKeys.Get(ctx, ""); return err }, Arg: "apiKey"},
		{Name: "Get dot key", Call: func(c *chat.Client) error { _, err := c.APIKeys.Get(ctx, "."); return err }, Arg: "apiKey"},
		{Name: "Update empty key", Call: func(c *chat.Client) error {
			_, err := c.APIKeys.Update(ctx, "", &chat.UpdateAPIKeyRequest{Name: "x"})
			return err
		}, Arg: "apiKey"},
		{Name: "Update nil request", Call: func(c *chat.Client) error { _, err := c.APIKeys.Update(ctx, otherKey, nil); return err }, Arg: "req"},
		{Name: "Delete empty key", Call: func(c *chat.Client) error { _, err := c.APIKeys.Delete(ctx, ""); return err }, Arg: "apiKey"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}

func TestAPIKeyFormat(t *testing.T) {
	k := chat.APIKey{APIKey: otherKey, Name: "ci", Scope: chat.ScopeFullAccess, CreatedAt: 1625206799}
	values := map[string]any{
		"value":   k,
		"pointer": &k,
		"slice":   []chat.APIKey{k},
		"page":    &chat.Page[chat.APIKey]{Data: []chat.APIKey{k}},
	}
	for name, v := range values {
		for verb, out := range formatted(v) {
			t.Run(name+" "+verb, func(t *testing.T) {
				assert.NotContains(t, out, otherKey)
				assert.NotContains(t, strings.ToLower(out), fmt.Sprintf("%x", otherKey))
				switch verb {
				case "%v", "%+v", "%#v", "%s":
					assert.Contains(t, out, "REDACTED")
					assert.Contains(t, out, "fullAccess")
				}
			})
		}
	}
	b, err := json.Marshal(k)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiKey":"`+otherKey+`","name":"ci","scope":"fullAccess","createdAt":1625206799}`, string(b))
}

func TestAPIKeyErrorsHideTheKeys(t *testing.T) {
	ctx := context.Background()
	outcomes := []struct {
		name    string
		respond httpmock.Responder
		check   func(t *testing.T, err error)
	}{
		{
			name: "API error echoing both keys",
			respond: httpmock.ResponderFromResponse(wiretest.JSONResponse(http.StatusForbidden, `{"error":{"code":"ERR_APIKEY_NO_SELF_ACTION",
				"message":"Key `+wiretest.APIKey+` cannot act on `+otherKey+`.","devMessage":"apikey header `+wiretest.APIKey+`"}}`)),
			check: func(t *testing.T, err error) {
				ce := wiretest.RequireAPIError(t, err)
				assert.Equal(t, "/v3/apikeys/REDACTED", ce.Path)
				assert.Equal(t, "Key REDACTED cannot act on REDACTED.", ce.Message)
				assert.Equal(t, "apikey header REDACTED", ce.DevMessage)
				assert.ErrorIs(t, err, chat.ErrForbidden)
			},
		},
		{
			name:    "connection failure",
			respond: httpmock.ConnectionFailure,
			check: func(t *testing.T, err error) {
				var ue *url.Error
				require.ErrorAs(t, err, &ue)
				assert.Equal(t, "https://"+wiretest.Host+"/v3/apikeys/REDACTED", ue.URL)
			},
		},
		{
			name: "transport error quoting the URL and the header",
			respond: func(req *http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("proxy refused %s (apikey %s): %w", req.URL, req.Header.Get("apikey"), syscall.ECONNRESET)
			},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, syscall.ECONNRESET)
				assert.Contains(t, err.Error(), "proxy refused")
			},
		},
	}
	for _, o := range outcomes {
		t.Run(o.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Serve(func(_ int, req *http.Request) (*http.Response, error) { return o.respond(req) })
			_, err := client.APIKeys.Delete(ctx, otherKey)
			o.check(t, err)
			assertNoToken(t, err, otherKey, wiretest.APIKey)
		})
	}
}

// TestAPIKeysValidate holds the Validate of the API key requests to the checks
// their methods run before sending.
func TestAPIKeysValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a key", Value: &chat.CreateAPIKeyRequest{Name: "ci", Scope: chat.ScopeAuthOnly}},
		{Name: "a key without a name", Value: &chat.CreateAPIKeyRequest{Scope: chat.ScopeFullAccess}, Field: "req.Name"},
	})
}
