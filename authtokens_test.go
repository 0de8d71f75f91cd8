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

// A token as the reference shows them: "{uid}_{digits+hex}".
const (
	testToken     = "cometchat-uid-1_1630306819c3027ce530b2367f3c97b4106f0cb8"
	testTokenTail = "1630306819c3027ce530b2367f3c97b4106f0cb8"
	authTokenJSON = `{"uid":"cometchat-uid-1","authToken":"` + testToken + `","createdAt":1630306819}`
)

func TestAuthTokensWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Create with force",
			Call: func(c *chat.Client) (any, error) {
				return c.AuthTokens.Create(ctx, "cometchat-uid-1", &chat.CreateAuthTokenRequest{Force: true})
			},
			Reply:  `{"data":` + authTokenJSON + `}`,
			Method: http.MethodPost, Path: "/v3/users/cometchat-uid-1/auth_tokens", Body: `{"force":true}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, &chat.AuthToken{UID: "cometchat-uid-1", AuthToken: testToken, CreatedAt: 1630306819}, got)
			},
		},
		{
			Name:   "Create with defaults sends an empty object",
			Call:   func(c *chat.Client) (any, error) { return c.AuthTokens.Create(ctx, "a b", nil) },
			Reply:  `{"data":` + authTokenJSON + `}`,
			Method: http.MethodPost, Path: "/v3/users/a%20b/auth_tokens", Body: `{}`,
			Want: &chat.AuthToken{UID: "cometchat-uid-1", AuthToken: testToken, CreatedAt: 1630306819},
		},
		{
			Name: "List",
			Call: func(c *chat.Client) (any, error) {
				return c.AuthTokens.List(ctx, "cometchat-uid-1", &chat.ListAuthTokensOptions{PageOptions: chat.PageOptions{PerPage: 10, Page: 2}})
			},
			Reply: `{"data":[` + authTokenJSON + `,{"uid":"cometchat-uid-1","authToken":"t2","platform":"android","userAgent":"ua","appInfo":"v1"}],
				"meta":{"pagination":{"total":2,"count":2,"per_page":10,"current_page":2,"total_pages":2}}}`,
			Method: http.MethodGet, Path: "/v3/users/cometchat-uid-1/auth_tokens", Query: "page=2&perPage=10",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				page := got.(*chat.Page[chat.AuthToken])
				require.Len(t, page.Data, 2)
				assert.Equal(t, chat.Secret(testToken), page.Data[0].AuthToken)
				assert.Equal(t, "android", page.Data[1].Platform)
				assert.Equal(t, "ua", page.Data[1].UserAgent)
				assert.JSONEq(t, `"v1"`, string(page.Data[1].AppInfo), "appInfo as a string")
				assert.Equal(t, 2, page.Meta.Pagination.CurrentPage)
			},
		},
		{
			Name:   "Get",
			Call:   func(c *chat.Client) (any, error) { return c.AuthTokens.Get(ctx, "cometchat-uid-1", testToken) },
			Reply:  `{"data":` + authTokenJSON + `}`,
			Method: http.MethodGet, Path: "/v3/users/cometchat-uid-1/auth_tokens/" + testToken,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, chat.Secret(testToken), got.(*chat.AuthToken).AuthToken)
			},
		},
		{
			Name:   "Get escapes a token with reserved characters",
			Call:   func(c *chat.Client) (any, error) { return c.AuthTokens.Get(ctx, "u/1", "t/k?n#1") },
			Reply:  `{"data":` + authTokenJSON + `}`,
			Method: http.MethodGet, Path: "/v3/users/u%2F1/auth_tokens/t%2Fk%3Fn%231",
			Want: &chat.AuthToken{UID: "cometchat-uid-1", AuthToken: testToken, CreatedAt: 1630306819},
		},
		{
			Name: "Update",
			Call: func(c *chat.Client) (any, error) {
				return c.AuthTokens.Update(ctx, "cometchat-uid-1", testToken, &chat.UpdateAuthTokenRequest{
					Platform: "ios", UserAgent: "MyApp/1.0", AppInfo: map[string]any{"version": "1.0", "build": 7},
				})
			},
			Reply:  `{"data":{"uid":"cometchat-uid-1","authToken":"` + testToken + `","createdAt":1630306819,"platform":"ios","appInfo":{"version":"1.0"}}}`,
			Method: http.MethodPut, Path: "/v3/users/cometchat-uid-1/auth_tokens/" + testToken,
			Body: `{"platform":"ios","userAgent":"MyApp/1.0","appInfo":{"version":"1.0","build":7}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				tok := got.(*chat.AuthToken)
				assert.Equal(t, "ios", tok.Platform)
				assert.JSONEq(t, `{"version":"1.0"}`, string(tok.AppInfo), "appInfo as an object")
			},
		},
		{
			Name:   "Delete",
			Call:   func(c *chat.Client) (any, error) { return c.AuthTokens.Delete(ctx, "cometchat-uid-1", testToken) },
			Reply:  `{"data":{"success":true,"message":"Auth token deleted."}}`,
			Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-1/auth_tokens/" + testToken,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, &chat.Result{Success: true, Message: "Auth token deleted."}, got)
			},
		},
		{
			Name:   "Flush",
			Call:   func(c *chat.Client) (any, error) { return c.AuthTokens.Flush(ctx, "cometchat-uid-1") },
			Reply:  `{"data":{"success":true,"message":"All auth tokens deleted."}}`,
			Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-1/auth_tokens",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.True(t, got.(*chat.Result).Success)
			},
		},
	})
}

func TestAuthTokensAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"u1","authToken":"t1"},{"uid":"u1","authToken":"t2"}],
		"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"uid":"u1","authToken":"t3"}],
		"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	tokens := collectKeys(t, client.AuthTokens.All(context.Background(), "u1", &chat.ListAuthTokensOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(tok *chat.AuthToken) string { return string(tok.AuthToken) })
	assert.Equal(t, []string{"t1", "t2", "t3"}, tokens)
	for _, r := range m.Requests() {
		assert.Equal(t, "/v3/users/u1/auth_tokens", r.Path)
	}
	assert.Equal(t, 2, m.Calls())
}

func TestAuthTokensArguments(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		call     func(c *chat.Client) error
		wantName string
	}{
		{"Create empty uid", func(c *chat.Client) error { _, err := c.AuthTokens.Create(ctx, "", nil); return err }, "uid"},
		{"List empty uid", func(c *chat.Client) error { _, err := c.AuthTokens.List(ctx, "", nil); return err }, "uid"},
		{"Get empty uid", func(c *chat.Client) error { _, err := c.AuthTokens.Get(ctx, "", testToken); return err }, "uid"},
		{"Get empty token", func(c *chat.Client) error { _, err := c.AuthTokens.Get(ctx, "u1", ""); return err }, "authToken"},
		{"Get dot-dot token", func(c *chat.Client) error { _, err := c.AuthTokens.Get(ctx, "u1", ".."); return err }, "authToken"},
		{"Update empty token", func(c *chat.Client) error {
			_, err := c.AuthTokens.Update(ctx, "u1", "", &chat.UpdateAuthTokenRequest{})
			return err
		}, "authToken"},
		{"Update nil request", func(c *chat.Client) error { _, err := c.AuthTokens.Update(ctx, "u1", testToken, nil); return err }, "req"},
		{"Delete empty token", func(c *chat.Client) error { _, err := c.AuthTokens.Delete(ctx, "u1", ""); return err }, "authToken"},
		{"Flush empty uid", func(c *chat.Client) error { _, err := c.AuthTokens.Flush(ctx, ""); return err }, "uid"},
		{"All empty uid", func(c *chat.Client) error {
			for _, err := range c.AuthTokens.All(ctx, "", nil) {
				return err
			}
			return nil
		}, "uid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			err := tt.call(client)
			ae := wiretest.RequireArgError(t, err, tt.wantName)
			assert.NotContains(t, ae.Error(), testToken)
			assert.Zero(t, m.Calls())
		})
	}
}

func TestAuthTokenFormat(t *testing.T) {
	tok := chat.AuthToken{UID: "cometchat-uid-1", AuthToken: testToken, CreatedAt: 1630306819, Platform: "ios"}
	hexTail := fmt.Sprintf("%x", testTokenTail)
	values := map[string]any{
		"value":     tok,
		"pointer":   &tok,
		"slice":     []chat.AuthToken{tok},
		"page":      chat.Page[chat.AuthToken]{Data: []chat.AuthToken{tok}},
		"page ptr":  &chat.Page[chat.AuthToken]{Data: []chat.AuthToken{tok}},
		"map value": map[string]chat.AuthToken{"k": tok},
	}
	for name, v := range values {
		for verb, out := range formatted(v) {
			t.Run(name+" "+verb, func(t *testing.T) {
				assert.NotContains(t, out, testTokenTail)
				assert.NotContains(t, strings.ToLower(out), hexTail)
				switch verb {
				case "%v", "%+v", "%#v", "%s":
					assert.Contains(t, out, "REDACTED")
					assert.Contains(t, out, "cometchat-uid-1")
				}
			})
		}
	}
	assert.Equal(t, chat.Secret(testToken), tok.AuthToken, "printing changed the token")

	b, err := json.Marshal(tok)
	require.NoError(t, err)
	assert.JSONEq(t, `{"uid":"cometchat-uid-1","authToken":"`+testToken+`","createdAt":1630306819,"platform":"ios"}`, string(b))
}

func TestAuthTokenErrorsHideTheToken(t *testing.T) {
	ctx := context.Background()
	calls := []struct {
		name string
		call func(c *chat.Client) error
	}{
		{"Get", func(c *chat.Client) error { _, err := c.AuthTokens.Get(ctx, "cometchat-uid-1", testToken); return err }},
		{"Update", func(c *chat.Client) error {
			_, err := c.AuthTokens.Update(ctx, "cometchat-uid-1", testToken, &chat.UpdateAuthTokenRequest{Platform: "ios"})
			return err
		}},
		{"Delete", func(c *chat.Client) error {
			_, err := c.AuthTokens.Delete(ctx, "cometchat-uid-1", testToken)
			return err
		}},
	}
	outcomes := []struct {
		name    string
		respond httpmock.Responder
		check   func(t *testing.T, err error)
	}{
		{
			name: "API error echoing the token",
			respond: httpmock.ResponderFromResponse(wiretest.JSONResponse(http.StatusNotFound, `{"error":{"code":"ERR_AUTH_TOKEN_NOT_FOUND",
				"message":"The auth token `+testToken+` does not exist.","devMessage":"token=`+testToken+`","source":"chat-api",
				"details":{"authToken":["`+testToken+` is unknown"],"`+testToken+`":"bad"}}}`)),
			check: func(t *testing.T, err error) {
				ce := wiretest.RequireAPIError(t, err)
				assert.Equal(t, "/v3/users/cometchat-uid-1/auth_tokens/REDACTED", ce.Path)
				assert.Equal(t, "ERR_AUTH_TOKEN_NOT_FOUND", ce.Code)
				assert.Equal(t, "The auth token REDACTED does not exist.", ce.Message)
				assert.Equal(t, "token=REDACTED", ce.DevMessage)
				assert.Equal(t, map[string][]string{"authToken": {"REDACTED is unknown"}, "REDACTED": {"bad"}}, ce.Details)
				assert.ErrorIs(t, err, chat.ErrNotFound)
			},
		},
		{
			name:    "connection failure",
			respond: httpmock.ConnectionFailure,
			check: func(t *testing.T, err error) {
				var ue *url.Error
				require.ErrorAs(t, err, &ue)
				assert.Equal(t, "https://"+wiretest.Host+"/v3/users/cometchat-uid-1/auth_tokens/REDACTED", ue.URL)
				assert.ErrorIs(t, err, httpmock.NoResponderFound, "the cause is kept")
			},
		},
		{
			name: "connection refused",
			respond: func(*http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("dial tcp 10.0.0.1:443: %w", syscall.ECONNREFUSED)
			},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, syscall.ECONNREFUSED)
				assert.Contains(t, err.Error(), "/auth_tokens/REDACTED")
			},
		},
		{
			name: "transport error quoting the URL",
			respond: func(req *http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("proxy refused %s %s: %w", req.Method, req.URL, syscall.ECONNRESET)
			},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, syscall.ECONNRESET, "the cause is kept")
			},
		},
	}
	for _, c := range calls {
		for _, o := range outcomes {
			t.Run(c.name+"/"+o.name, func(t *testing.T) {
				client, m := wiretest.Chat(t)
				m.Serve(func(_ int, req *http.Request) (*http.Response, error) { return o.respond(req) })
				err := c.call(client)
				o.check(t, err)
				assertNoToken(t, err, testToken, testTokenTail)
				assert.Equal(t, 1, m.Calls())
			})
		}
	}
}
