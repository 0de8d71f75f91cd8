package management_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

func TestClientNeverPrintsCredentials(t *testing.T) {
	c, err := management.NewClient(wiretest.MgmtKey, wiretest.MgmtSecret)
	require.NoError(t, err)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		out := fmt.Sprintf(verb, c)
		assert.NotContains(t, out, wiretest.MgmtKey, verb)
		assert.NotContains(t, out, wiretest.MgmtSecret, verb)
		assert.Contains(t, out, "apimgmt.cometchat.io", verb)
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

func TestExtensionSettingsNeverPrintCredentials(t *testing.T) {
	for _, tt := range []struct {
		v       any
		shown   string
		secrets []string
	}{
		{management.GiphySettings{GiphyAPIKey: "s3cret-giphy"}, "GiphyAPIKey", []string{"s3cret-giphy"}},
		{management.TenorSettings{TenorAPIKey: "s3cret-tenor"}, "TenorAPIKey", []string{"s3cret-tenor"}},
		{management.ReportUserSettings{ReportSettings: management.ReportSettings{BasicAuthUsername: "bob", BasicAuthPassword: "s3cret-pw"}}, "bob", []string{"s3cret-pw"}},
		{management.ReportMessageSettings{ReportSettings: management.ReportSettings{BasicAuthUsername: "bob", BasicAuthPassword: "s3cret-pw"}}, "bob", []string{"s3cret-pw"}},
		{management.VoiceTranscriptionSettings{RevAIAPIKey: "s3cret-rev"}, "RevAIAPIKey", []string{"s3cret-rev"}},
		{management.StipopSettings{StipopAPIKey: "s3cret-stipop", StipopAppID: "app-9"}, "app-9", []string{"s3cret-stipop"}},
		{management.TinyURLSettings{TinyURLAPIToken: "s3cret-tiny", TinyURLDomain: "tiny.one"}, "tiny.one", []string{"s3cret-tiny"}},
		{management.BitlySettings{BitlyAccessToken: "s3cret-bitly", GroupGUID: "g-1"}, "g-1", []string{"s3cret-bitly"}},
		{management.IntercomSettings{IntercomAccessToken: "s3cret-intercom", AppID: "ic-1"}, "ic-1", []string{"s3cret-intercom"}},
		{management.ChatwootSettings{ChatwootAccessToken: "s3cret-chatwoot", ChatwootInboxID: "7"}, "ChatwootInboxID", []string{"s3cret-chatwoot"}},
		{management.RichMediaSettings{IframelyAPIKey: "s3cret-iframely"}, "IframelyAPIKey", []string{"s3cret-iframely"}},
		{management.VirusScannerSettings{ScaniiAPIKey: "s3cret-scanii", ScaniiSecretKey: "s3cret-scanii-2"}, "ScaniiAPIKey", []string{"s3cret-scanii", "s3cret-scanii-2"}},
		{management.BroadcastSettings{APIVideoKey: "s3cret-video", RecordVideo: true}, "RecordVideo:true", []string{"s3cret-video"}},
		{management.E2EESettings{VirgilAppKey: "s3cret-virgil", VirgilAppID: "v-1"}, "v-1", []string{"s3cret-virgil"}},
		{management.SMSNotificationSettings{TwilioAuthToken: "s3cret-twilio", TwilioAccountSid: "AC1"}, "AC1", []string{"s3cret-twilio"}},
		{management.EmailNotificationSettings{SendGridAPIKey: "s3cret-sendgrid", WebhookPassword: "s3cret-hookpw", SenderName: "Shop"}, "Shop", []string{"s3cret-sendgrid", "s3cret-hookpw"}},
		{management.FCMCredentials{PrivateKey: "s3cret-private-key", ProjectID: "proj"}, "proj", []string{"s3cret-private-key"}},
		{management.PushNotificationSettings{FCMCredentials: &management.FCMCredentials{PrivateKey: "s3cret-private-key", ProjectID: "proj"}}, "proj", []string{"s3cret-private-key"}},
	} {
		t.Run(fmt.Sprintf("%T", tt.v), func(t *testing.T) {
			assertHidden(t, tt.v, tt.shown, tt.secrets...)
		})
	}

	// Raw settings show their size only.
	raw := management.RawSettings(`{"giphyApiKey":"s3cret-giphy"}`)
	reply := management.ExtensionReply[management.SettingsBody]{Body: management.SettingsBody{Data: management.SettingsData{Settings: raw}}}
	for _, verb := range verbs {
		assert.NotContains(t, fmt.Sprintf(verb, raw), "s3cret-giphy", verb)
		assert.NotContains(t, fmt.Sprintf(verb, reply), "s3cret-giphy", verb)
		assert.NotContains(t, fmt.Sprintf(verb, &reply), "s3cret-giphy", verb)
	}
	assert.Equal(t, "RawSettings(30 bytes)", fmt.Sprint(raw))
	b, err := json.Marshal(reply.Body)
	require.NoError(t, err)
	assert.JSONEq(t, `{"data":{"settings":{"giphyApiKey":"s3cret-giphy"}}}`, string(b), "JSON keeps the settings")
}

func TestWebhookTypesNeverPrintThePassword(t *testing.T) {
	hook := management.Webhook{ID: "h1", Name: "Hook", URL: "https://cc:" + hookPassword + "@example.com/h", UseBasicAuth: true, Username: "cc", Password: hookPassword, Enabled: true}
	create := management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h", UseBasicAuth: true, Username: "cc", Password: hookPassword, Enabled: new(true)}
	update := management.UpdateWebhookRequest{Name: new("Hook"), Password: new(chat.Secret(hookPassword)), URL: new("https://u:" + hookPassword + "@example.com/")}
	for _, v := range []any{hook, &hook, []management.Webhook{hook}, create, &create, update, &update,
		struct{ W *management.Webhook }{&hook}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, hookPassword, "%s of %T", verb, v)
			assert.NotContains(t, out, fmt.Sprintf("%x", hookPassword), "%s of %T", verb, v)
		}
	}
	assert.Equal(t, `management.Webhook{ID: "h1", Name: "Hook", URL: "https://cc:xxxxx@example.com/h", UseBasicAuth: true, Username: "cc", Password: REDACTED, Enabled: true, RetryOnFailure: false, CreatedAt: 0, UpdatedAt: 0}`, hook.String())
	assert.Equal(t, `management.CreateWebhookRequest{ID: "h1", Name: "Hook", URL: "https://example.com/h", UseBasicAuth: true, Username: "cc", Password: REDACTED, Enabled: true, RetryOnFailure: false}`, fmt.Sprint(&create))
	assert.Equal(t, `management.UpdateWebhookRequest{Name: "Hook", URL: "https://u:xxxxx@example.com/", UseBasicAuth: nil, Username: nil, Password: REDACTED, RetryOnFailure: nil, Enabled: nil}`, fmt.Sprint(update))
	assert.Contains(t, fmt.Sprint(management.Webhook{ID: "h2"}), `Password: ""`, "an empty password shows as empty")
	var nilHook *management.Webhook
	assert.Equal(t, "<nil>", fmt.Sprint(nilHook))
}
