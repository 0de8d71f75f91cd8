package management_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

const extensionJSON = `{"id":"polls","name":"Polls","tagLine":"Ask","description":"Polls in chats","author":"CometChat",
	"email":"ext@example.com","webhookURL":"https://ext.example.com/hook","accessToAppData":true,"adminURL":"https://a",
	"websiteURL":"https://w","isActive":true,"isPrivate":false,"isInvisible":false,"isThirdParty":false,"createdAt":1600000000,
	"hooks":{"data":[{"hook":"before_message","description":"checks","isActive":true,"enabled":1,"createdAt":1600000001}]},
	"categories":{"data":[]}}`

func wantExtension() management.Extension {
	return management.Extension{
		ID: management.ExtensionPolls, Name: "Polls", TagLine: "Ask", Description: "Polls in chats", Author: "CometChat",
		Email: "ext@example.com", WebhookURL: "https://ext.example.com/hook", AccessToAppData: true, AdminURL: "https://a",
		WebsiteURL: "https://w", IsActive: true, CreatedAt: 1600000000,
		Hooks: []management.ExtensionHook{
			{Hook: management.HookBeforeMessage, Description: "checks", IsActive: true, Enabled: 1, CreatedAt: 1600000001},
		},
		Categories: []json.RawMessage{},
	}
}

// settingsReply is an extension settings answer with body.data.settings.
func settingsReply(settings string) string {
	return `{"data":{"statusCode":200,"success":true,"responseTime":12.5,"body":{"data":{"settings":` + settings + `}}}}`
}

func TestExtensionsWire(t *testing.T) {
	ctx := context.Background()
	giphy := &management.GiphySettings{GiphyAPIKey: "giphy-key"}
	wiretest.ManagementWire.Run(t, []wiretest.Case[*management.Client]{
		{
			Name: "list",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.List(ctx, "app1", &management.ListExtensionsOptions{PerPage: 1})
			},
			Reply: `{"data":[` + extensionJSON + `],"meta":{"pagination":{"total":2,"count":1,"per_page":1,"current_page":1,
				"total_pages":2,"links":{"next":"https://apimgmt.cometchat.io/apps/app1/extensions?page=2&perPage=1"}}}}`,
			Method: http.MethodGet, Path: "/apps/app1/extensions", Query: "perPage=1",
			Want: &chat.Page[management.Extension]{Data: []management.Extension{wantExtension()}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 2, Count: 1, PerPage: 1, CurrentPage: 1, TotalPages: 2,
					Links: &chat.PageLinks{Next: "https://apimgmt.cometchat.io/apps/app1/extensions?page=2&perPage=1"}},
			}},
		},
		{
			Name: "set enabled",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.SetEnabled(ctx, "app1", &management.SetExtensionsRequest{
					Enabled: []management.ExtensionID{management.ExtensionPolls, management.ExtensionGiphy}, Disabled: []management.ExtensionID{"stickers"},
				})
			},
			Reply:  `{"data":{"enabled":{"polls":{"success":true,"message":"ok"},"gifs-giphy":{"success":true}},"disabled":{"stickers":{"success":true}}}}`,
			Method: http.MethodPost, Path: "/apps/app1/extensions",
			Body: `{"enabled":["polls","gifs-giphy"],"disabled":["stickers"]}`,
			Want: &management.ExtensionsUpdate{
				Enabled:  management.Results{"polls": {Success: true, Message: "ok"}, "gifs-giphy": {Success: true}},
				Disabled: management.Results{"stickers": {Success: true}},
			},
		},
		{
			Name: "store settings raw",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.StoreSettings(ctx, "app1", "custom-ext", json.RawMessage(`{"a":1}`))
			},
			Reply:  settingsReply(`{"a":1}`),
			Method: http.MethodPost, Path: "/apps/app1/extensions/custom-ext/v1/settings",
			Body: `{"settings":{"a":1}}`,
			Want: &management.ExtensionReply[management.SettingsBody]{StatusCode: 200, Success: true, ResponseTime: 12.5,
				Body: management.SettingsBody{Data: management.SettingsData{Settings: management.RawSettings(`{"a":1}`)}}},
		},
		{
			Name: "update settings raw",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.UpdateSettings(ctx, "app1", management.ExtensionStickers, map[string]bool{"dropMessage": true})
			},
			Reply:  settingsReply(`{"dropMessage":true}`),
			Method: http.MethodPut, Path: "/apps/app1/extensions/stickers/v1/settings",
			Body: `{"settings":{"dropMessage":true}}`,
			Want: &management.ExtensionReply[management.SettingsBody]{StatusCode: 200, Success: true, ResponseTime: 12.5,
				Body: management.SettingsBody{Data: management.SettingsData{Settings: management.RawSettings(`{"dropMessage":true}`)}}},
		},
		{
			Name: "get settings raw",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.GetSettings(ctx, "app1", management.ExtensionXSSFilter)
			},
			Reply:  settingsReply(`{"dropMessage":false,"appId":"app1"}`),
			Method: http.MethodGet, Path: "/apps/app1/extensions/xss-filter/v1/settings",
			Want: &management.ExtensionReply[management.SettingsBody]{StatusCode: 200, Success: true, ResponseTime: 12.5,
				Body: management.SettingsBody{Data: management.SettingsData{Settings: management.RawSettings(`{"dropMessage":false,"appId":"app1"}`)}}},
		},
		{
			Name: "delete settings raw",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.DeleteSettings(ctx, "app1", management.ExtensionGiphy)
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"data":{"success":true}}}}`,
			Method: http.MethodDelete, Path: "/apps/app1/extensions/gifs-giphy/v1/settings",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				r := got.(*management.ExtensionReply[management.SettingsBody])
				assert.True(t, r.Body.OK())
				assert.Empty(t, r.Body.Data.Settings)
			},
		},
		{
			Name: "delete settings, sms-notification answers body.success",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.DeleteSettings(ctx, "app1", management.ExtensionSMSNotification)
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"success":true}}}`,
			Method: http.MethodDelete, Path: "/apps/app1/extensions/sms-notification/v1/settings",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.True(t, got.(*management.ExtensionReply[management.SettingsBody]).Body.OK())
			},
		},
		{
			Name: "store typed",
			Call: func(c *management.Client) (any, error) {
				return management.StoreExtensionSettings(ctx, c.Extensions, "app1", giphy)
			},
			Reply:  settingsReply(`{"giphyApiKey":"giphy-key"}`),
			Method: http.MethodPost, Path: "/apps/app1/extensions/gifs-giphy/v1/settings",
			Body: `{"settings":{"giphyApiKey":"giphy-key"}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				var s management.GiphySettings
				require.NoError(t, got.(*management.ExtensionReply[management.SettingsBody]).Body.Data.Settings.Decode(&s))
				assert.Equal(t, *giphy, s)
			},
		},
		{
			Name: "update typed: booleans and numbers are sent, empty strings are not",
			Call: func(c *management.Client) (any, error) {
				return management.UpdateExtensionSettings(ctx, c.Extensions, "app1", &management.ReportMessageSettings{
					ReportSettings: management.ReportSettings{MaxReports: 3, WebhookURL: "https://hook.example.com"},
				})
			},
			Reply:  settingsReply(`{}`),
			Method: http.MethodPut, Path: "/apps/app1/extensions/report-message/v1/settings",
			Body:  `{"settings":{"maxReports":3,"useWebhook":false,"webhookURL":"https://hook.example.com"}}`,
			Check: func(*testing.T, wiretest.Request, any) {},
		},
		{
			Name: "get typed",
			Call: func(c *management.Client) (any, error) {
				return management.GetExtensionSettings[management.PushNotificationSettings](ctx, c.Extensions, "app1")
			},
			Reply: settingsReply(`{"appId":"app1","version":2,"pushProvider":1,"useP8":true,"sendNewMessageNotification":"true",
				"fcmCredentials":{"project_id":"p","client_email":"c@example.com","private_key":"-----BEGIN PRIVATE KEY-----x","private_key_id":"k1"},
				"notificationInPayload":{"ios":true},"cometchatMessagePayloadOptions":{"trimMessageText":true},"keyId":"K","teamId":"T"}`),
			Method: http.MethodGet, Path: "/apps/app1/extensions/push-notification/v1/settings",
			Want: &management.PushNotificationSettings{
				AppID: "app1", Version: 2, PushProvider: 1, UseP8: true, SendNewMessageNotification: true,
				FCMCredentials:                 &management.FCMCredentials{ProjectID: "p", ClientEmail: "c@example.com", PrivateKey: "-----BEGIN PRIVATE KEY-----x", PrivateKeyID: "k1"},
				NotificationInPayload:          &management.NotificationInPayload{IOS: true},
				CometChatMessagePayloadOptions: &management.MessagePayloadOptions{TrimMessageText: true},
				KeyID:                          "K", TeamID: "T",
			},
		},
		{
			Name: "get typed, no settings stored",
			Call: func(c *management.Client) (any, error) {
				return management.GetExtensionSettings[management.ProfanityFilterSettings](ctx, c.Extensions, "app1")
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"data":{}}}}`,
			Method: http.MethodGet, Path: "/apps/app1/extensions/profanity-filter/v1/settings",
			Want: &management.ProfanityFilterSettings{},
		},
		{
			Name: "delete typed",
			Call: func(c *management.Client) (any, error) {
				return management.DeleteExtensionSettings[management.DataMaskingSettings](ctx, c.Extensions, "app1")
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"data":{"success":true}}}}`,
			Method: http.MethodDelete, Path: "/apps/app1/extensions/data-masking/v1/settings",
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.True(t, got.(*management.ExtensionReply[management.SettingsBody]).Body.OK())
			},
		},
		{
			Name: "store chat widget",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.StoreChatWidget(ctx, "app1", map[string]any{"name": "Support", "version": "v2"})
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"data":{"widgetId":"8fbe4a2f"}}}}`,
			Method: http.MethodPost, Path: "/apps/app1/extensions/widget/v2/settings",
			Body: `{"settings":{"name":"Support","version":"v2"}}`,
			Want: &management.ExtensionReply[management.WidgetBody]{StatusCode: 200, Success: true,
				Body: management.WidgetBody{Data: management.WidgetData{WidgetID: "8fbe4a2f"}}},
		},
		{
			Name: "update chat widget adds the widget id to the settings",
			Call: func(c *management.Client) (any, error) {
				return c.Extensions.UpdateChatWidget(ctx, "app1", "8fbe4a2f", json.RawMessage(`{"name":"Help","main":{"send_files":false}}`))
			},
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"data":{"success":true}}}}`,
			Method: http.MethodPut, Path: "/apps/app1/extensions/widget/v2/settings",
			Body: `{"settings":{"name":"Help","main":{"send_files":false},"widgetId":"8fbe4a2f"}}`,
			Want: &management.ExtensionReply[management.WidgetBody]{StatusCode: 200, Success: true,
				Body: management.WidgetBody{Data: management.WidgetData{Success: true}}},
		},
		{
			Name: "list chat widgets",
			Call: func(c *management.Client) (any, error) { return c.Extensions.ListChatWidgets(ctx, "app1") },
			Reply: `{"data":{"statusCode":200,"success":true,"body":{"data":[{"configuration":{"name":"Help","version":"v2","appId":"app1"},
				"widgetId":"8fbe4a2f"}]}}}`,
			Method: http.MethodGet, Path: "/apps/app1/extensions/widget/v2/settings",
			Want: &management.ExtensionReply[management.WidgetListBody]{StatusCode: 200, Success: true,
				Body: management.WidgetListBody{Data: []management.ChatWidget{
					{WidgetID: "8fbe4a2f", Configuration: json.RawMessage(`{"name":"Help","version":"v2","appId":"app1"}`)},
				}}},
		},
		{
			Name:   "query certificates",
			Call:   func(c *management.Client) (any, error) { return c.Extensions.QueryCertificates(ctx, "app1") },
			Reply:  `{"data":{"statusCode":200,"success":true,"body":{"success":true},"responseTime":3}}`,
			Method: http.MethodGet, Path: "/apps/app1/extensions/push-notification/v1/query-certificates",
			Want: &management.ExtensionReply[management.CertificatesBody]{StatusCode: 200, Success: true, ResponseTime: 3,
				Body: management.CertificatesBody{Success: true}},
		},
	})
}

// TestExtensionsUploadCertificates checks the multipart bodies of the
// certificate uploads.
func TestExtensionsUploadCertificates(t *testing.T) {
	for _, tt := range []struct {
		name, op, filename, response string
		upload                       func(c *management.Client, filename string, content []byte) (*management.ExtensionReply[management.CertificatesBody], error)
		want                         management.CertificatesBody
	}{
		{
			name: "p12", op: "upload-certificate-p12", filename: "apns.p12",
			response: `{"data":{"statusCode":200,"success":true,"body":{"certificate_p12":true,"certificate_p8":false}}}`,
			upload: func(c *management.Client, fn string, b []byte) (*management.ExtensionReply[management.CertificatesBody], error) {
				return c.Extensions.UploadAPNsP12(context.Background(), "app1", fn, b)
			},
			want: management.CertificatesBody{CertificateP12: true},
		},
		{
			name: "p8", op: "upload-certificate-p8", filename: `Auth"Key.p8`,
			response: `{"data":{"statusCode":200,"success":true,"body":{"success":true}}}`,
			upload: func(c *management.Client, fn string, b []byte) (*management.ExtensionReply[management.CertificatesBody], error) {
				return c.Extensions.UploadAPNsP8(context.Background(), "app1", fn, b)
			},
			want: management.CertificatesBody{Success: true},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Management(t)
			m.Reply(http.StatusOK, tt.response)
			content := []byte("\x00\x01certificate bytes\xff")
			got, err := tt.upload(client, tt.filename, content)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Body)
			r := m.Only()
			wiretest.ManagementWire.Sent(t, r, http.MethodPost, "/apps/app1/extensions/push-notification/v1/"+tt.op)
			mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			require.NoError(t, err)
			assert.Equal(t, "multipart/form-data", mediaType)
			mr := multipart.NewReader(strings.NewReader(string(r.Body)), params["boundary"])
			part, err := mr.NextPart()
			require.NoError(t, err)
			assert.Equal(t, "certificate", part.FormName())
			assert.Equal(t, tt.filename, part.FileName())
			b, err := io.ReadAll(part)
			require.NoError(t, err)
			assert.Equal(t, content, b)
			_, err = mr.NextPart()
			assert.ErrorIs(t, err, io.EOF, "one part only")
		})
	}
}

// extPage answers a page of extensions whose links.next names the next
// page, over 5 extensions.
func extPage(r *http.Request) string {
	page := r.URL.Query().Get("page")
	ids := map[string][]string{"": {"a", "b"}, "2": {"c", "d"}, "3": {"e"}}[page]
	var items []string
	for _, id := range ids {
		items = append(items, `{"id":"`+id+`"}`)
	}
	next := map[string]string{"": "https://elsewhere.example.com/apps/app1/extensions?perPage=2&page=2", "2": "/apps/app1/extensions?perPage=2&page=3"}[page]
	return fmt.Sprintf(`{"data":[%s],"meta":{"pagination":{"total":5,"count":%d,"per_page":2,"links":{"next":%q}}}}`,
		strings.Join(items, ","), len(items), next)
}

func TestExtensionsAllFollowsLinks(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Answer(extPage)
	var ids []string
	for e, err := range client.Extensions.All(context.Background(), "app1", &management.ListExtensionsOptions{PerPage: 2}) {
		require.NoError(t, err)
		ids = append(ids, string(e.ID))
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, ids)
	assert.Equal(t, []string{"perPage=2", "page=2&perPage=2", "page=3&perPage=2"}, m.Queries(), "the link's query, sent to the same host")
}

func TestExtensionsAllPageNumbersWithoutLinks(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Answer(func(r *http.Request) string {
		page := r.URL.Query().Get("page")
		id := map[string]string{"": "a", "2": "b"}[page]
		cur := map[string]int{"": 1, "2": 2}[page]
		return fmt.Sprintf(`{"data":[{"id":%q}],"meta":{"pagination":{"total":2,"count":1,"per_page":1,"current_page":%d,"total_pages":2}}}`, id, cur)
	})
	var ids []string
	for e, err := range client.Extensions.All(context.Background(), "app1", &management.ListExtensionsOptions{PerPage: 1}) {
		require.NoError(t, err)
		ids = append(ids, string(e.ID))
	}
	assert.Equal(t, []string{"a", "b"}, ids)
	assert.Equal(t, []string{"perPage=1", "page=2&perPage=1"}, m.Queries())
}

func TestExtensionsAllArguments(t *testing.T) {
	client, _ := wiretest.Management(t)
	for _, err := range client.Extensions.All(context.Background(), "", nil) {
		wiretest.RequireArgError(t, err, "appID")
	}
}

func TestExtensionsValidate(t *testing.T) {
	client, m := wiretest.Management(t)
	ctx := context.Background()
	ext := client.Extensions
	_, err := ext.List(ctx, "", nil)
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.SetEnabled(ctx, "", &management.SetExtensionsRequest{Enabled: []management.ExtensionID{"polls"}})
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.SetEnabled(ctx, "app", nil)
	wiretest.RequireArgError(t, err, "req")
	_, err = ext.SetEnabled(ctx, "app", &management.SetExtensionsRequest{})
	wiretest.RequireArgError(t, err, "req")
	_, err = ext.StoreSettings(ctx, "", "polls", map[string]any{})
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.StoreSettings(ctx, "app", "", map[string]any{})
	wiretest.RequireArgError(t, err, "extID")
	_, err = ext.StoreSettings(ctx, "app", "polls", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.StoreSettings(ctx, "app", "polls", (*management.GiphySettings)(nil))
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.StoreSettings(ctx, "app", "polls", json.RawMessage(nil))
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.StoreSettings(ctx, "app", management.ExtensionStickers, map[string]any{})
	wiretest.RequireArgError(t, err, "extID")
	_, err = ext.StoreSettings(ctx, "app", management.ExtensionDataMasking, map[string]any{})
	wiretest.RequireArgError(t, err, "extID")
	_, err = management.StoreExtensionSettings(ctx, ext, "app", &management.StickersSettings{})
	wiretest.RequireArgError(t, err, "extID")
	_, err = management.StoreExtensionSettings[management.GiphySettings](ctx, ext, "app", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = management.UpdateExtensionSettings[management.GiphySettings](ctx, ext, "app", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.UpdateSettings(ctx, "app", "polls", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.GetSettings(ctx, "app", "..")
	wiretest.RequireArgError(t, err, "extID")
	_, err = management.GetExtensionSettings[management.GiphySettings](ctx, ext, "")
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.DeleteSettings(ctx, "", "polls")
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.StoreChatWidget(ctx, "", map[string]any{})
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.StoreChatWidget(ctx, "app", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.UpdateChatWidget(ctx, "app", "", map[string]any{})
	wiretest.RequireArgError(t, err, "widgetID")
	_, err = ext.UpdateChatWidget(ctx, "app", "w", []string{"not an object"})
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.UpdateChatWidget(ctx, "app", "w", nil)
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.UpdateChatWidget(ctx, "app", "w", func() {})
	wiretest.RequireArgError(t, err, "settings")
	_, err = ext.ListChatWidgets(ctx, "")
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.UploadAPNsP12(ctx, "", "a.p12", []byte("x"))
	wiretest.RequireArgError(t, err, "appID")
	_, err = ext.UploadAPNsP12(ctx, "app", "", []byte("x"))
	wiretest.RequireArgError(t, err, "filename")
	_, err = ext.UploadAPNsP8(ctx, "app", "a.p8", nil)
	wiretest.RequireArgError(t, err, "content")
	_, err = ext.QueryCertificates(ctx, "")
	wiretest.RequireArgError(t, err, "appID")
	assert.Zero(t, m.Calls())
}

// TestDeleteSettingsExamplesAreOK serves the reference's answer of every
// settings delete to DeleteSettings: OK reports the success wherever the
// extension puts it (body.data.success, body.success, or, for gifs-giphy
// and image-moderation, body.data.settings.success). The examples of two
// extensions answer settings with no outcome in the body: OK does not
// invent one, and the reply's Success still reports the extension's.
func TestDeleteSettingsExamplesAreOK(t *testing.T) {
	noOutcome := map[string]bool{"delete-settings-sentiment-analysis": true, "delete-settings-xss-filter": true}
	var deletes []string
	for name, ex := range wiretest.LoadExamples(t, examplesDir, "management") {
		if ex.Method != http.MethodDelete || !settingsPath.MatchString(ex.Path) {
			continue
		}
		deletes = append(deletes, name)
		t.Run(name, func(t *testing.T) {
			cc, _ := settingsCase(t, ex)
			_, bodies := ex.Answers()
			res, err := serve(t, ex, bodies[0], cc.call)
			require.NoError(t, err)
			reply := res.(*management.ExtensionReply[management.SettingsBody])
			assert.Equal(t, !noOutcome[name], reply.Body.OK())
			assert.True(t, reply.Success)
		})
	}
	assert.Len(t, deletes, 26, "every settings delete the reference documents")
	assert.Contains(t, deletes, "delete-settings-giphy")
	assert.Contains(t, deletes, "delete-settings-image-moderation")
}

// TestSettingsBodyOK reads the outcome from the places the extensions put
// it, and only a true success there is success.
func TestSettingsBodyOK(t *testing.T) {
	for _, tt := range []struct {
		body string
		ok   bool
	}{
		{`{"data":{"success":true}}`, true},
		{`{"success":true}`, true},
		{`{"data":{"settings":{"success":true}}}`, true},
		{`{"data":{"settings":{"success":false}}}`, false},
		{`{"data":{"settings":{"success":"true"}}}`, false},
		{`{"data":{"settings":{"giphyApiKey":"k"}}}`, false},
		{`{"data":{"settings":["success"]}}`, false},
		{`{"data":{}}`, false},
		{`{}`, false},
	} {
		var b management.SettingsBody
		require.NoError(t, json.Unmarshal([]byte(tt.body), &b))
		assert.Equal(t, tt.ok, b.OK(), tt.body)
	}
}

func TestGetExtensionSettingsBadSettings(t *testing.T) {
	client, m := wiretest.Management(t)
	m.Reply(http.StatusOK, settingsReply(`["not","an","object"]`))
	_, err := management.GetExtensionSettings[management.GiphySettings](context.Background(), client.Extensions, "app")
	assert.ErrorContains(t, err, "gifs-giphy settings")
}

// TestExtensionLists decodes an extension's hooks and categories wrapped
// in {"data": [...]}, as the service sends them, or bare, and encodes them
// wrapped.
func TestExtensionLists(t *testing.T) {
	var e management.Extension
	require.NoError(t, json.Unmarshal([]byte(`{"id":"x","hooks":[{"hook":"after_message","enabled":"1"}],"categories":{"data":["c"]}}`), &e))
	assert.Equal(t, []management.ExtensionHook{{Hook: management.HookAfterMessage, Enabled: 1}}, e.Hooks, "a bare array, leniently")
	assert.Equal(t, []json.RawMessage{json.RawMessage(`"c"`)}, e.Categories)
	require.NoError(t, json.Unmarshal([]byte(`{"id":"x","hooks":null}`), &e))
	assert.Empty(t, e.Hooks)
	b, err := json.Marshal(management.Extension{ID: "x", Hooks: []management.ExtensionHook{}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"x","isActive":false,"accessToAppData":false,"isPrivate":false,"isInvisible":false,"isThirdParty":false,"hooks":{"data":[]}}`, string(b))
	assert.Len(t, management.KnownExtensionIDs(), 39, "the reference names 39 extensions")
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

// TestSetExtensionsRequestValidate holds SetExtensionsRequest.Validate to
// the check SetEnabled runs before sending.
func TestSetExtensionsRequestValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "an extension enabled", Value: &management.SetExtensionsRequest{Enabled: []management.ExtensionID{management.ExtensionWidget}}},
		{Name: "an extension disabled", Value: &management.SetExtensionsRequest{Disabled: []management.ExtensionID{"polls"}}},
		{Name: "no extension", Value: &management.SetExtensionsRequest{}, Field: "req"},
	})
}
