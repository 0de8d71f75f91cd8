package management_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// examplesDir holds the reference's example requests and answers, one file
// per operation, copied as they are (INDEX.md there gives the format).
const examplesDir = "../testdata/reference/examples"

const appID = "app-1"

// contractCall calls the SDK method of one operation, the answer being
// served whatever is asked, and returns what the method returned.
type contractCall func(ctx context.Context, c *management.Client) (any, error)

// contractCase is how one operation's result is compared with its
// documented answer: see [wiretest.Contract] for part, view and repair.
type contractCase struct {
	call   contractCall
	part   string
	view   func(t *testing.T, result any) any
	repair func(t *testing.T, doc any) any
	// decode, set instead of call, decodes the documented body as the SDK
	// does, for an example that is not an answer the method could read.
	decode func(t *testing.T, body []byte) (any, error)
}

// contractExcused are the places where the SDK drops or rewrites on
// purpose what a documented answer holds, by operation; each is a line of
// CHOICES.md ("What the SDK does not keep of a documented answer"). A
// path covers what lies below it; "[*]" stands for any index, a leading
// "**." for any depth.
var contractExcused = map[string][]string{}

// typedExcused are the members of the settings a get documents that the
// typed settings do not keep on purpose, unless the type has a field of
// that name (CHOICES.md): the app's id the service adds.
var typedExcused = []string{"appId"}

// TestContractRoundTrip serves each management operation's documented
// answer to the SDK method that calls it, encodes what the method returns
// again with encoding/json, and checks that every key and every value of
// the documented answer (of the part the method returns) is there, at
// every level. An extension's settings are also decoded into the typed
// settings of the extension ([management.GiphySettings], ...) and held to
// the documented settings the same way.
func TestContractRoundTrip(t *testing.T) {
	examples := wiretest.LoadExamples(t, examplesDir, "management")
	cases := managementContractCases()
	for name := range cases {
		_, ok := examples[name]
		assert.True(t, ok, "a case for %s, which has no example", name)
	}
	for name := range contractExcused {
		_, ok := examples[name]
		assert.True(t, ok, "excused places for %s, which has no example", name)
	}
	for _, name := range slices.Sorted(maps.Keys(examples)) {
		ex := examples[name]
		t.Run(name, func(t *testing.T) {
			cc, ok := cases[name]
			if !ok {
				cc, ok = settingsCase(t, ex)
			}
			require.True(t, ok, "no case for %s %s (%s)", ex.Method, ex.Path, ex.File)
			wiretest.CheckContract(t, ex, wiretest.Contract{
				Call: func(t *testing.T, body []byte, _ any) (any, error) {
					if cc.decode != nil {
						return cc.decode(t, body)
					}
					return serve(t, ex, body, cc.call)
				},
				Part: cc.part, View: cc.view, Repair: cc.repair,
				Excused: contractExcused[name],
			})
			if typed, ok := typedSettingsCase(t, ex); ok {
				t.Run("typed", func(t *testing.T) {
					wiretest.CheckContract(t, ex, typed)
				})
			}
		})
	}
}

// serve answers every request of a client with body, calls the method
// and checks that it sent the operation's method and path.
func serve(t *testing.T, ex wiretest.Example, body []byte, call contractCall) (any, error) {
	return wiretest.ManagementWire.Answer(t, ex, "", body, func(c *management.Client) (any, error) { return call(t.Context(), c) })
}

// typedSettings are the typed settings of one extension: the typed get
// ([management.GetExtensionSettings]) and the decoding of raw settings
// into them ([management.RawSettings.Decode]).
type typedSettings struct {
	get    contractCall
	decode func(management.RawSettings) (any, error)
}

func typed[T any, PT interface {
	*T
	management.ExtensionSettings
}]() typedSettings {
	return typedSettings{
		get: func(ctx context.Context, c *management.Client) (any, error) {
			return management.GetExtensionSettings[T, PT](ctx, c.Extensions, appID)
		},
		decode: func(r management.RawSettings) (any, error) {
			v := new(T)
			return v, r.Decode(v)
		},
	}
}

// typedByExtension are the extensions the package has settings types for.
var typedByExtension = map[management.ExtensionID]typedSettings{
	management.ExtensionGiphy:              typed[management.GiphySettings](),
	management.ExtensionTenor:              typed[management.TenorSettings](),
	management.ExtensionXSSFilter:          typed[management.XSSFilterSettings](),
	management.ExtensionImageModeration:    typed[management.ImageModerationSettings](),
	management.ExtensionSentimentAnalysis:  typed[management.SentimentAnalysisSettings](),
	management.ExtensionReportUser:         typed[management.ReportUserSettings](),
	management.ExtensionReportMessage:      typed[management.ReportMessageSettings](),
	management.ExtensionVoiceTranscription: typed[management.VoiceTranscriptionSettings](),
	management.ExtensionStipop:             typed[management.StipopSettings](),
	management.ExtensionTinyURL:            typed[management.TinyURLSettings](),
	management.ExtensionBitly:              typed[management.BitlySettings](),
	management.ExtensionIntercom:           typed[management.IntercomSettings](),
	management.ExtensionChatwoot:           typed[management.ChatwootSettings](),
	management.ExtensionRichMedia:          typed[management.RichMediaSettings](),
	management.ExtensionVirusScanner:       typed[management.VirusScannerSettings](),
	management.ExtensionBroadcast:          typed[management.BroadcastSettings](),
	management.ExtensionE2EE:               typed[management.E2EESettings](),
	management.ExtensionHumanModeration:    typed[management.HumanModerationSettings](),
	management.ExtensionStickers:           typed[management.StickersSettings](),
	management.ExtensionDataMasking:        typed[management.DataMaskingSettings](),
	management.ExtensionProfanityFilter:    typed[management.ProfanityFilterSettings](),
	management.ExtensionEmailReplies:       typed[management.EmailRepliesSettings](),
	management.ExtensionSMSNotification:    typed[management.SMSNotificationSettings](),
	management.ExtensionEmailNotification:  typed[management.EmailNotificationSettings](),
	management.ExtensionMessageShortcuts:   typed[management.MessageShortcutsSettings](),
	management.ExtensionPushNotification:   typed[management.PushNotificationSettings](),
}

// typedSettingsCase holds the typed settings of the extension of a
// settings operation to the settings its answer documents
// (data.body.data.settings), when it documents some: a get through
// [management.GetExtensionSettings], a store or update by decoding what
// the method returned.
func typedSettingsCase(t *testing.T, ex wiretest.Example) (wiretest.Contract, bool) {
	m := settingsPath.FindStringSubmatch(ex.Path)
	if m == nil {
		return wiretest.Contract{}, false
	}
	ext := management.ExtensionID(m[1])
	ts, ok := typedByExtension[ext]
	require.True(t, ok, "no settings type for the extension %s", ext)
	_, bodies := ex.Answers()
	settings, ok := member(wiretest.DecodeTree(t, bodies[0]), "data", "body", "data", "settings").(map[string]any)
	if !ok || ex.Method == http.MethodDelete {
		return wiretest.Contract{}, false // no settings documented (or not an answer: see pushSettingsCase)
	}
	var excused []string
	for _, name := range typedExcused {
		if _, ok := settings[name]; ok && ex.Method == http.MethodGet && !hasJSONField(ts, name) {
			excused = append(excused, name)
		}
	}
	cc, _ := settingsCase(t, ex)
	return wiretest.Contract{
		Call: func(t *testing.T, body []byte, _ any) (any, error) {
			if ex.Method == http.MethodGet {
				return serve(t, ex, body, ts.get)
			}
			res, err := serve(t, ex, body, cc.call)
			if err != nil {
				return nil, err
			}
			return ts.decode(res.(*management.ExtensionReply[management.SettingsBody]).Body.Data.Settings)
		},
		Part:    "data.body.data.settings",
		Excused: excused,
	}, true
}

// member returns the member of tree at the path of keys, or nil.
func member(tree any, keys ...string) any {
	for _, k := range keys {
		m, ok := tree.(map[string]any)
		if !ok {
			return nil
		}
		tree = m[k]
	}
	return tree
}

// hasJSONField reports whether the typed settings have a field of that
// JSON name.
func hasJSONField(ts typedSettings, name string) bool {
	v, err := ts.decode(management.RawSettings(`{}`))
	if err != nil {
		return false
	}
	t := reflect.TypeOf(v).Elem()
	for _, f := range reflect.VisibleFields(t) {
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
			return true
		}
	}
	return false
}

// settingsPath matches the path of an extension's settings operations.
var settingsPath = regexp.MustCompile(`^/apps/\{appId\}/extensions/([a-z0-9-]+)/v1/settings$`)

// settingsCase is the case of an extension settings operation: the method
// of ExtensionsService its request line names, called for the extension
// the path names.
func settingsCase(t *testing.T, ex wiretest.Example) (contractCase, bool) {
	m := settingsPath.FindStringSubmatch(ex.Path)
	if m == nil {
		return contractCase{}, false
	}
	ext := management.ExtensionID(m[1])
	settings := map[string]any{"dropMessage": true}
	var call contractCall
	switch ex.Method {
	case http.MethodGet:
		call = func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.GetSettings(ctx, appID, ext)
		}
	case http.MethodPost:
		call = func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.StoreSettings(ctx, appID, ext, settings)
		}
	case http.MethodPut:
		call = func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.UpdateSettings(ctx, appID, ext, settings)
		}
	case http.MethodDelete:
		call = func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.DeleteSettings(ctx, appID, ext)
		}
	default:
		t.Fatalf("no settings method for %s", ex.Method)
	}
	return contractCase{call: call}, true
}

func managementContractCases() map[string]contractCase {
	return map[string]contractCase{
		// Apps, tenants
		"list-apps": {part: "-", repair: repairListApps, call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Apps.List(ctx, nil)
		}},
		"create-app": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Apps.Create(ctx, &management.CreateAppRequest{Name: "App", Region: chat.RegionUS})
		}},
		"delete-app": {call: func(ctx context.Context, c *management.Client) (any, error) { return c.Apps.Delete(ctx, appID) }},
		"fetch-multi-tenant-usage": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Apps.RequestUsage(ctx, appID, &management.UsageRequest{})
		}},
		"add-tenant": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Tenants.Add(ctx, &management.AddTenantRequest{Name: "Example User", Email: "my-email@example.com", Password: "pass-word-1", AppName: "Create App", AppRegion: chat.RegionUS})
		}},

		// Collaborators, settings
		"list-collaborators": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Collaborators.List(ctx, appID)
		}},
		"add-collaborator": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Collaborators.Update(ctx, appID, &management.UpdateCollaboratorsRequest{Admins: []string{"admin1@cometchat.com"}})
		}},
		"list-settings": {call: func(ctx context.Context, c *management.Client) (any, error) { return c.Settings.List(ctx, appID) }},
		"map-settings": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Settings.Map(ctx, appID, map[management.SettingKey]bool{management.SettingUpdateOnReplies: true})
		}},
		"unmap-settings": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Settings.Unmap(ctx, appID, []management.SettingKey{management.SettingUpdateOnReplies})
		}},

		// Extensions
		"list-extensions": {part: "-", call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.List(ctx, appID, nil)
		}},
		"enable-extension": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.SetEnabled(ctx, appID, &management.SetExtensionsRequest{Enabled: []management.ExtensionID{management.ExtensionGiphy}})
		}},
		"list-chat-widget": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.ListChatWidgets(ctx, appID)
		}},
		"store-chat-widget": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.StoreChatWidget(ctx, appID, map[string]any{"name": "Test Chat Widget", "version": "v2"})
		}},
		"update-chat-widget": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.UpdateChatWidget(ctx, appID, "f7ee7c30", map[string]any{"name": "Test Chat Widget", "version": "v2"})
		}},
		"query-push-notification-certificates": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.QueryCertificates(ctx, appID)
		}},
		"upload-push-notification-certificate-p12": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.UploadAPNsP12(ctx, appID, "cert.p12", []byte("p12"))
		}},
		"upload-push-notification-certificate-p8": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Extensions.UploadAPNsP8(ctx, appID, "key.p8", []byte("p8"))
		}},

		// The push-notification settings' examples are not answers.
		"get-settings-push-notification":    pushSettingsCase,
		"store-settings-push-notification":  pushSettingsCase,
		"update-settings-push-notification": pushSettingsCase,

		// Webhooks
		"list-webhooks": {part: "-", call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.List(ctx, appID, nil)
		}},
		"create-webhook": {part: "0.data", call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.Create(ctx, appID, &management.CreateWebhookRequest{ID: "test_webhook201", Name: "test_webhook201", URL: "https://example.com/test"})
		}},
		"get-webhook": {part: "data.0.data", call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.Get(ctx, appID, "test_webhook201")
		}},
		"update-webhook": {part: "data.0.data", call: func(ctx context.Context, c *management.Client) (any, error) {
			name := "updated webhook"
			return c.Webhooks.Update(ctx, appID, "test_webhook201", &management.UpdateWebhookRequest{Name: &name})
		}},
		"delete-webhook": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.Delete(ctx, appID, "test_webhook201")
		}},
		"list-triggers": {part: "data", call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.ListTriggers(ctx, appID, "test_webhook201")
		}},
		"add-triggers": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.AddTriggers(ctx, appID, "test_webhook201", []webhook.Trigger{webhook.TriggerMessageDeliveryReceipt})
		}},
		"remove-triggers": {call: func(ctx context.Context, c *management.Client) (any, error) {
			return c.Webhooks.RemoveTriggers(ctx, appID, "test_webhook201", []webhook.Trigger{webhook.TriggerMessageDeliveryReceipt})
		}},
	}
}

// repairListApps lists the app of the list-apps example in an array, as
// its schema says: the example's data is the one app object.
func repairListApps(t *testing.T, doc any) any {
	app, ok := wiretest.Select(t, doc, "data").(map[string]any)
	require.True(t, ok)
	return map[string]any{"data": []any{app}}
}

// pushSettingsCase decodes the examples of the push-notification settings
// operations, which are the request's body ({"settings": {...}}) rather
// than an answer, as the typed settings.
var pushSettingsCase = contractCase{part: "settings", decode: func(t *testing.T, body []byte) (any, error) {
	var req struct {
		Settings management.RawSettings `json:"settings"`
	}
	require.NoError(t, json.Unmarshal(body, &req))
	return typedByExtension[management.ExtensionPushNotification].decode(req.Settings)
}}
