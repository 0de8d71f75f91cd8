package chat_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// echoServer answers every request with a 400 whose every field echoes
// what the request carried: its path and query, every header value, its
// body, each also URL-escaped, in code, message, devMessage, source and in
// the keys and values of details, as a careless service might.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var headers []string
		for _, vs := range r.Header {
			headers = append(headers, vs...)
		}
		sort.Strings(headers)
		all := r.URL.RequestURI() + " " + strings.Join(headers, " ") + " " + string(body)
		escaped := url.QueryEscape(all)
		resp := map[string]any{"error": map[string]any{
			"code": all, "message": all, "devMessage": escaped, "source": r.Header.Get("apikey") + r.Header.Get("secret"),
			"details": map[string]any{all: []string{all, escaped}, escaped: all},
		}}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEchoedSecretsAreScrubbed sends every kind of credential a request can
// carry, in the chat client and in management, to a server that echoes
// everything back in every field of its error: no rendering of the error
// shows any of them.
func TestEchoedSecretsAreScrubbed(t *testing.T) {
	const (
		apiKey     = "echo-api-key-0123456789abcdef"
		mgmtKey    = "echo-mgmt-key-0123456789"
		mgmtSecret = "echo-mgmt-secret-0123456789"
		groupPass  = "grp pass/1+2"
		shortPass  = "pw9"
		hookPass   = "hook-password-echo-42"
		tenantPass = "tenant-password-echo-42"
		giphyKey   = "giphy-key-echo-0123"
		twilio     = "twilio-token-echo-0123"
		authToken  = "alice_echoed-auth-token-0123"
	)
	basic := base64.StdEncoding.EncodeToString([]byte(mgmtKey + ":" + mgmtSecret))
	secrets := []string{apiKey, mgmtKey, mgmtSecret, groupPass, url.QueryEscape(groupPass), url.PathEscape(groupPass), hookPass,
		tenantPass, giphyKey, twilio, authToken, basic}
	srv := echoServer(t)
	c, err := chat.NewClient("myapp", apiKey, chat.WithBaseURL(srv.URL), chat.WithHTTPClient(srv.Client()), chat.WithoutRetries())
	require.NoError(t, err)
	mc, err := management.NewClient(mgmtKey, mgmtSecret, chat.WithBaseURL(srv.URL), chat.WithHTTPClient(srv.Client()),
		chat.WithoutRetries())
	require.NoError(t, err)
	ctx := t.Context()

	for name, call := range map[string]func() error{
		"group create": func() error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g1", Name: "G", Type: chat.GroupPassword, Password: groupPass})
			return err
		},
		"group update with a short password": func() error {
			_, err := c.Groups.Update(ctx, "g1", &chat.UpdateGroupRequest{Password: shortPass})
			return err
		},
		"data import of a group": func() error {
			_, err := c.DataImport.ImportGroups(ctx, []chat.ImportGroup{{GUID: "g1", Name: "G", Type: chat.GroupPassword, Password: groupPass}})
			return err
		},
		"provider secret": func() error {
			_, err := c.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "sid", TwilioAuthToken: twilio, TwilioSenderPhoneNumber: "+1"})
			return err
		},
		"auth token in the path": func() error { _, err := c.AuthTokens.Get(ctx, "alice", authToken); return err },
		"auth token in the query": func() error {
			_, err := c.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: authToken})
			return err
		},
		"webhook password": func() error {
			_, err := mc.Webhooks.Create(ctx, "app1", &management.CreateWebhookRequest{ID: "hook", Name: "hook",
				URL: "https://example.com/hook", UseBasicAuth: true, Username: "u", Password: hookPass})
			return err
		},
		"tenant password": func() error {
			_, err := mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "n", Email: "e@example.com", Password: tenantPass,
				AppName: "a", AppRegion: chat.RegionEU})
			return err
		},
		"extension API key": func() error {
			_, err := management.UpdateExtensionSettings(ctx, mc.Extensions, "app1", &management.GiphySettings{GiphyAPIKey: giphyKey})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := call()
			var ce *chat.Error
			require.ErrorAs(t, err, &ce, "the server answered")
			require.Equal(t, http.StatusBadRequest, ce.StatusCode)
			require.NotEmpty(t, ce.Message, "the echo arrived")
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"} {
				out := fmt.Sprintf(verb, err) + fmt.Sprintf(verb, *ce)
				for _, s := range secrets {
					assert.NotContains(t, out, s, "%s shows a credential", verb)
					assert.NotContains(t, out, fmt.Sprintf("%x", s), "%s shows a credential in hex", verb)
				}
			}
			if strings.Contains(name, "short") {
				assert.NotRegexp(t, `(^|[^a-z0-9])pw9([^a-z0-9]|$)`, fmt.Sprintf("%+v", *ce))
			}
		})
	}
}
