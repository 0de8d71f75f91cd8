package chat_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// The credentials of the leak test, distinctive so that any occurrence in
// what the SDK prints is found.
const (
	leakAPIKey        = "LEAKCHECK-apikey-7f3a9c5e"
	leakMgmtKey       = "LEAKCHECK-mgmtkey-51be04"
	leakMgmtSecret    = "LEAKCHECK-mgmtsecret-c0de77"
	leakWrongKey      = "LEAKCHECK-wrongkey-9911aa"
	leakWrongSecret   = "LEAKCHECK-wrongsecret-3e3e"
	leakHookPassword  = "LEAKCHECKhookpw1234"
	leakHookPassword2 = "LEAKCHECKhookpw5678"
	leakTenantPass    = "LEAKCHECK-tenantpw-4242"
	leakPrivateKey    = "LEAKCHECK-fcm-private-key"
	leakP8Key         = "LEAKCHECK-apns-p8-key"
	leakTwilio        = "LEAKCHECK-twilio-token"
	leakSendGrid      = "LEAKCHECK-sendgrid-key"
	leakBasicAuth     = "LEAKCHECK-basic-auth-pw"
	leakGiphy         = "LEAKCHECK-giphy-key"
	leakGroupPassword = "LEAKCHECK-group-pw"
	leakFCMToken      = "LEAKCHECK-fcm-push-token"
	leakDeviceToken   = "LEAKCHECK-apns-device-token"
	leakVoIPToken     = "LEAKCHECK-apns-voip-token"
	leakUnknownToken  = "LEAKCHECK-unknown-auth-token"
	leakUnknownPush   = "LEAKCHECK-unknown-push-token"
	// leakField is what the type scan puts in every field that holds a
	// credential.
	leakField = "LEAKCHECK-field-0f1e2d"
)

// leakBuffer is a log destination safe for concurrent writes.
type leakBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *leakBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *leakBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func debugLogger(w *leakBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// shown collects everything a session printed, by label.
type shown struct {
	t     *testing.T
	texts map[string]string
}

// leakVerbs are the verbs every value is printed with.
var leakVerbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x"}

// shows reports whether text shows secret, as it is or hex-encoded (%x).
func shows(text, secret string) bool {
	return strings.Contains(text, secret) || strings.Contains(text, hex.EncodeToString([]byte(secret)))
}

// add records text under label, numbered when the label is taken.
func (s *shown) add(label, text string) {
	key := label
	for i := 2; ; i++ {
		if _, taken := s.texts[key]; !taken {
			break
		}
		key = fmt.Sprintf("%s #%d", label, i)
	}
	s.texts[key] = text
}

// value records v printed with every verb.
func (s *shown) value(label string, v any) {
	for _, verb := range leakVerbs {
		s.add(label+" "+verb, fmt.Sprintf(verb, v))
	}
}

// result records a call's result and error: the result printed with every
// verb, and the error's text, printed with every verb.
func (s *shown) result(label string, v any, err error) {
	s.t.Helper()
	s.value(label, v)
	s.err(label, err)
}

func (s *shown) err(label string, err error) {
	if err == nil {
		return
	}
	s.add(label+" Error()", err.Error())
	s.value(label+" error", err)
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		s.value(label+" cause", e)
	}
}

// ok records a call that must succeed.
func (s *shown) ok(label string, v any, err error) {
	s.t.Helper()
	require.NoError(s.t, err, label)
	s.result(label, v, nil)
}

// fails records a call that must fail.
func (s *shown) fails(label string, v any, err error) {
	s.t.Helper()
	require.Error(s.t, err, label)
	s.result(label, v, err)
}

// TestNoSecretLeaks runs a whole session against chattest and scans
// everything the SDK printed for the credentials it handled: the API key,
// the management key and secret, every auth token, API key and push token,
// and the passwords and providers' credentials, as they are and
// hex-encoded. Printed are the error texts (Error() and every verb, causes
// included), every result with %v, %+v, %#v, %s, %q and %x, the debug logs
// of the chat and management clients and of the webhook receiver, and
// chattest's request log (every verb and JSON) and its deliveries.
// TestExportedTypesHideSecrets checks every exported type the same way.
func TestNoSecretLeaks(t *testing.T) {
	var chatLog, mgmtLog, hookLog leakBuffer
	srv := chattest.NewServer(chattest.WithAPIKey(leakAPIKey), chattest.WithManagementCredentials(leakMgmtKey, leakMgmtSecret))
	defer srv.Close()
	client := srv.Client(chat.WithLogger(debugLogger(&chatLog)), chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	mc := srv.ManagementClient(chat.WithLogger(debugLogger(&mgmtLog)), chat.WithoutRetries())
	s := &shown{t: t, texts: map[string]string{}}
	secrets := []string{leakAPIKey, leakMgmtKey, leakMgmtSecret, leakWrongKey, leakWrongSecret, leakHookPassword, leakHookPassword2,
		leakTenantPass, leakPrivateKey, leakP8Key, leakTwilio, leakSendGrid, leakBasicAuth, leakGiphy, leakGroupPassword,
		leakFCMToken, leakDeviceToken, leakVoIPToken, leakUnknownToken, leakUnknownPush,
		base64.StdEncoding.EncodeToString([]byte(leakMgmtKey + ":" + leakMgmtSecret))}
	keep := func(values ...string) {
		for _, v := range values {
			if v != "" && !slices.Contains(secrets, v) {
				secrets = append(secrets, v)
			}
		}
	}
	ctx := t.Context()

	// Clients and the server themselves.
	s.value("client", client)
	s.value("management client", mc)
	s.value("server", srv)
	s.value("handler", srv.Handler())

	// Users and auth tokens: minted, listed, used in paths, deleted.
	alice, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice", WithAuthToken: true})
	s.ok("create user with token", alice, err)
	keep(string(alice.AuthToken))
	bob, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	s.ok("create user", bob, err)
	tok, err := client.AuthTokens.Create(ctx, "alice", nil)
	s.ok("create auth token", tok, err)
	tok2, err := client.AuthTokens.Create(ctx, "alice", &chat.CreateAuthTokenRequest{Force: true})
	s.ok("create another auth token", tok2, err)
	keep(string(tok.AuthToken), string(tok2.AuthToken))
	tokens, err := client.AuthTokens.List(ctx, "alice", nil)
	s.ok("list auth tokens", tokens, err)
	for _, at := range tokens.Data {
		keep(string(at.AuthToken))
	}
	got, err := client.AuthTokens.Get(ctx, "alice", string(tok.AuthToken))
	s.ok("get auth token", got, err)
	upd, err := client.AuthTokens.Update(ctx, "alice", string(tok.AuthToken), &chat.UpdateAuthTokenRequest{Platform: "ios"})
	s.ok("update auth token", upd, err)
	res, err := client.AuthTokens.Delete(ctx, "alice", string(tok2.AuthToken))
	s.ok("delete auth token", res, err)
	got, err = client.AuthTokens.Get(ctx, "alice", string(tok2.AuthToken))
	s.fails("get a deleted auth token (404)", got, err)
	got, err = client.AuthTokens.Get(ctx, "alice", leakUnknownToken)
	s.fails("get an unknown auth token (404)", got, err)
	for at, err := range client.AuthTokens.All(ctx, "alice", nil) {
		s.result("iterate auth tokens", at, err)
	}

	// API keys: created, read, changed and deleted by value.
	key, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "leak", Scope: chat.ScopeFullAccess})
	s.ok("create API key", key, err)
	keep(string(key.APIKey))
	keys, err := client.APIKeys.List(ctx, nil)
	s.ok("list API keys", keys, err)
	for _, k := range keys.Data {
		keep(string(k.APIKey))
	}
	k2, err := client.APIKeys.Get(ctx, string(key.APIKey))
	s.ok("get API key", k2, err)
	k2, err = client.APIKeys.Update(ctx, string(key.APIKey), &chat.UpdateAPIKeyRequest{Name: "renamed"})
	s.ok("update API key", k2, err)
	res, err = client.APIKeys.Delete(ctx, string(key.APIKey))
	s.ok("delete API key", res, err)
	k2, err = client.APIKeys.Get(ctx, string(key.APIKey))
	s.fails("get a deleted API key (404)", k2, err)

	// Messages, groups, failures.
	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "hello"}}, chat.OnBehalfOf("alice"))
	s.ok("send message", msg, err)
	msgs, err := client.Messages.List(ctx, nil)
	s.ok("list messages", msgs, err)
	group, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "secret-club", Name: "Club", Type: chat.GroupPassword, Password: leakGroupPassword})
	s.ok("create password group", group, err)
	u, err := client.Users.Get(ctx, "nobody")
	s.fails("get unknown user (404)", u, err)
	group, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "no-password", Name: "Club", Type: chat.GroupPassword})
	s.fails("create password group without a password (400)", group, err)
	wrong := srv.ClientWithAPIKey(leakWrongKey, chat.WithLogger(debugLogger(&chatLog)), chat.WithoutRetries())
	users, err := wrong.Users.List(ctx, nil)
	s.fails("list users with a wrong key (401)", users, err)
	got, err = client.AuthTokens.Get(ctx, "alice", "")
	s.fails("argument error", got, err)
	_, err = chat.NewClient("my app", leakAPIKey)
	s.fails("NewClient with a bad app id", nil, err)
	_, err = chat.NewClient("myapp", leakAPIKey+"\n")
	s.fails("NewClient with a bad key", nil, err)
	_, err = management.NewClient(leakMgmtKey, leakMgmtSecret+"\n")
	s.fails("management.NewClient with a bad secret", nil, err)
	require.NoError(t, srv.Fail(chattest.Fault{Route: "GET /v3/users/{uid}/auth_tokens/{authToken}", Kind: chattest.FaultDropBefore, Times: 2}))
	got, err = client.AuthTokens.Get(ctx, "alice", string(tok.AuthToken))
	s.fails("connection dropped twice on an auth token's path", got, err)
	require.NoError(t, srv.Fail(chattest.Fault{Route: "GET /v3/apikeys/{apiKey}", Kind: chattest.FaultHTML, Status: 502, Times: 2}))
	k2, err = client.APIKeys.Get(ctx, leakAPIKey)
	s.fails("an HTML 502 on an API key's path", k2, err)

	// Notifications: providers' credentials, push tokens in bodies, a
	// query and paths.
	n := client.Notifications
	r, err := n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-1", ServiceAccountCreds: &chat.FCMServiceAccount{
		ProjectID: "proj", ClientEmail: "sa@proj.test", PrivateKey: leakPrivateKey, PrivateKeyID: "kid"}})
	s.ok("add FCM provider", r, err)
	fcms, err := n.ListFCMProviders(ctx)
	s.ok("list FCM providers", fcms, err)
	r, err = n.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns-1", KeyID: "kid", TeamID: "team", BundleID: "app.b", P8Key: leakP8Key})
	s.ok("add APNs provider", r, err)
	apns, err := n.ListAPNsProviders(ctx)
	s.ok("list APNs providers", apns, err)
	twilio, err := n.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: leakTwilio, TwilioSenderPhoneNumber: "+15550100"})
	s.ok("save Twilio", twilio, err)
	twilio, err = n.GetTwilioProvider(ctx)
	s.ok("get Twilio", twilio, err)
	sendgrid, err := n.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: leakSendGrid, SendGridTemplateID: "d-1",
		SendGridUnsubscribeGroupID: "7", SenderName: "Demo", SenderEmail: "no-reply@demo.test"})
	s.ok("save SendGrid", sendgrid, err)
	sendgrid, err = n.GetSendGridProvider(ctx)
	s.ok("get SendGrid", sendgrid, err)
	custom, err := n.AddCustomPushProvider(ctx, &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/push",
		UseBasicAuth: true, BasicAuthUsername: "u", BasicAuthPassword: leakBasicAuth})
	s.ok("save custom push provider", custom, err)
	custom, err = n.GetCustomPushProvider(ctx)
	s.ok("get custom push provider", custom, err)
	for platform, token := range map[chat.PushPlatform]string{
		chat.PushPlatformFCMAndroid: leakFCMToken, chat.PushPlatformAPNsIOSDevice: leakDeviceToken, chat.PushPlatformAPNsIOSVoIP: leakVoIPToken,
	} {
		req := &chat.RegisterPushTokenRequest{Platform: platform, Token: chat.Secret(token), AuthToken: tok.AuthToken}
		s.value("register push token request", req)
		r, err := n.RegisterPushToken(ctx, req)
		s.ok("register push token", r, err)
	}
	r, err = n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, Token: leakFCMToken, AuthToken: leakUnknownToken})
	s.fails("register a push token with an unknown auth token", r, err)
	pushTokens, err := n.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: tok.AuthToken, All: true})
	s.ok("list push tokens", pushTokens, err)
	s.value("server's push tokens", srv.PushTokens("alice"))
	pushTokens, err = n.DeletePushToken(ctx, leakFCMToken, &chat.DeletePushTokenRequest{AuthToken: tok.AuthToken})
	s.ok("delete push token", pushTokens, err)
	pushTokens, err = n.DeletePushToken(ctx, leakUnknownPush, &chat.DeletePushTokenRequest{AuthToken: tok.AuthToken})
	s.fails("delete an unknown push token", pushTokens, err)
	pushTokens, err = n.UnregisterPushTokens(ctx, &chat.UnregisterPushTokensRequest{AuthToken: tok.AuthToken, All: true})
	s.ok("unregister push tokens", pushTokens, err)
	logs, err := n.ListLogs(ctx, nil)
	s.ok("list notification logs", logs, err)

	// Data import, a password group included.
	imported, err := client.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "carol", Name: "Carol"}})
	s.ok("import users", imported, err)
	imported, err = client.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "", Name: "No id"}})
	s.fails("import a user without uid", imported, err)
	importedGroups, err := client.DataImport.ImportGroups(ctx, []chat.ImportGroup{{GUID: "imported", Name: "Imported", Type: chat.GroupPassword,
		Password: leakGroupPassword, Owner: "carol"}})
	s.ok("import groups", importedGroups, err)

	// Calls.
	callPage, err := client.Calls.List(ctx, nil)
	s.ok("list calls", callPage, err)

	// Management: apps with their API keys, tenants, webhooks with
	// passwords, extensions' credentials, failures.
	app, err := mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "Leak app", Region: chat.RegionEU})
	s.ok("create app", app, err)
	apps, err := mc.Apps.List(ctx, nil)
	s.ok("list apps", apps, err)
	for _, a := range apps.Data {
		keep(string(a.AccessKey), string(a.StatsToken))
		for k, v := range a.APIKeys {
			keep(k, string(v.APIKey))
		}
	}
	tenant, err := mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "Ann", Email: "ann@example.com", Password: leakTenantPass,
		AppName: "Ann's app", AppRegion: chat.RegionUS})
	s.ok("add tenant", tenant, err)
	keep(string(tenant.App.APIKey), string(tenant.App.AuthKey))
	_, err = srv.ManagementClientWith(leakMgmtKey, leakWrongSecret, chat.WithLogger(debugLogger(&mgmtLog))).Apps.List(ctx, nil)
	s.fails("list apps with a wrong secret (401)", nil, err)
	_, err = srv.ManagementClientWith(leakMgmtKey, leakWrongSecret, chat.WithLogger(debugLogger(&mgmtLog))).Tenants.Add(ctx,
		&management.AddTenantRequest{Name: "B", Email: "b@example.com", Password: leakTenantPass, AppName: "B", AppRegion: chat.RegionUS})
	s.fails("add tenant with a wrong secret (401)", nil, err)
	require.True(t, srv.EnableExtensions(srv.AppID(), management.ExtensionGiphy))
	reply, err := management.StoreExtensionSettings(ctx, mc.Extensions, srv.AppID(), &management.GiphySettings{GiphyAPIKey: leakGiphy})
	s.ok("store Giphy settings", reply, err)
	giphy, err := management.GetExtensionSettings[management.GiphySettings](ctx, mc.Extensions, srv.AppID())
	s.ok("get Giphy settings", giphy, err)
	raw, err := mc.Extensions.GetSettings(ctx, srv.AppID(), management.ExtensionGiphy)
	s.ok("get raw Giphy settings", raw, err)

	// Webhooks: one receiver with the right password, one webhook with a
	// wrong one, both fired by a message.
	var events []webhook.Event
	var evMu sync.Mutex
	verifier := &webhook.Verifier{Username: "hookuser", Password: leakHookPassword}
	s.value("verifier", verifier)
	recv := httptest.NewServer(webhook.NewHandler(verifier, func(_ context.Context, ev webhook.Event) error {
		evMu.Lock()
		defer evMu.Unlock()
		events = append(events, ev)
		return nil
	}, webhook.WithLogger(debugLogger(&hookLog))))
	defer recv.Close()
	for id, pw := range map[string]string{"leakhook": leakHookPassword, "wronghook": leakHookPassword2} {
		req := &management.CreateWebhookRequest{ID: id, Name: id, URL: recv.URL, UseBasicAuth: true, Username: "hookuser", Password: chat.Secret(pw)}
		s.value("create webhook request", req)
		hook, err := mc.Webhooks.Create(ctx, srv.AppID(), req)
		s.ok("create webhook", hook, err)
		added, err := mc.Webhooks.AddTriggers(ctx, srv.AppID(), id, []webhook.Trigger{"message_sent"})
		s.ok("add triggers", added, err)
	}
	hook, err := mc.Webhooks.Get(ctx, srv.AppID(), "leakhook")
	s.ok("get webhook", hook, err)
	hooks, err := mc.Webhooks.List(ctx, srv.AppID(), nil)
	s.ok("list webhooks", hooks, err)
	newPassword := chat.Secret(leakHookPassword)
	updReq := &management.UpdateWebhookRequest{Password: &newPassword}
	s.value("update webhook request", updReq)
	hook, err = mc.Webhooks.Update(ctx, srv.AppID(), "leakhook", updReq)
	s.ok("update webhook", hook, err)
	hook, err = mc.Webhooks.Get(ctx, srv.AppID(), "nohook")
	s.fails("get unknown webhook (404)", hook, err)
	msg, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "deliver me"}}, chat.OnBehalfOf("alice"))
	s.ok("send message to webhooks", msg, err)
	awaitCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, srv.AwaitDeliveries(awaitCtx, 2))
	deliveries := srv.Deliveries()
	s.value("deliveries", deliveries)
	js, err := json.Marshal(deliveries)
	require.NoError(t, err)
	s.add("deliveries JSON", string(js))
	evMu.Lock()
	require.Len(t, events, 1, "the webhook with the right password got the event")
	s.value("events", events)
	evMu.Unlock()

	// The request log, the logs.
	requests := srv.Requests()
	s.value("requests", requests)
	js, err = json.Marshal(requests)
	require.NoError(t, err)
	s.add("requests JSON", string(js))
	s.add("chat client log", chatLog.String())
	s.add("management client log", mgmtLog.String())
	s.add("webhook receiver log", hookLog.String())
	require.NotEmpty(t, chatLog.String())
	require.NotEmpty(t, mgmtLog.String())
	require.Contains(t, hookLog.String(), "401", "the webhook with the wrong password was refused and logged")

	// The credentials the service issued really went through the session.
	for _, issued := range []string{string(alice.AuthToken), string(tok.AuthToken), string(tok2.AuthToken), string(key.APIKey), string(tenant.App.APIKey), string(tenant.App.AuthKey)} {
		require.NotEmpty(t, issued)
		require.Contains(t, secrets, issued)
	}
	require.NotEmpty(t, app.APIKeys, "the apps list shows API keys")

	for _, label := range slices.Sorted(maps.Keys(s.texts)) {
		for _, secret := range secrets {
			if shows(s.texts[label], secret) {
				t.Errorf("%s shows the secret %.16s...: %s", label, secret, s.texts[label])
			}
		}
	}
}

// leakPackages are the SDK's public packages, by directory.
var leakPackages = map[string]string{
	"chat":       ".",
	"calls":      "calls",
	"chattest":   "chattest",
	"management": "management",
	"webhook":    "webhook",
	// The engine's types, which package chat names with aliases.
	"internal/engine": "internal/engine",
	"internal/redact": "internal/redact",
}

// leakTypes holds every exported type of the public packages (generic
// types instantiated with a type that holds a credential).
// TestExportedTypesHideSecrets fails, naming it, when a type is missing:
// add it here.
var leakTypes = []reflect.Type{
	// package internal/engine: what only package chat and management set
	reflect.TypeFor[engine.CallConfig](),
	reflect.TypeFor[engine.CallOptions](),
	reflect.TypeFor[engine.Caller](),
	reflect.TypeFor[engine.Clock](),
	reflect.TypeFor[engine.Options](),
	// package internal/redact
	reflect.TypeFor[redact.Finder](),
	reflect.TypeFor[redact.Found](),
	reflect.TypeFor[redact.Redactor](),
	reflect.TypeFor[redact.Writer](),
	// the calls API (package chat)
	reflect.TypeFor[chat.Call](),
	reflect.TypeFor[chat.ListCallsOptions](),
	reflect.TypeFor[chat.ListTranscriptionsOptions](),
	reflect.TypeFor[chat.PageMeta](),
	reflect.TypeFor[chat.CallMode](),
	reflect.TypeFor[chat.Page[chat.Call]](),
	reflect.TypeFor[chat.Pagination](),
	reflect.TypeFor[chat.CallParticipant](),
	reflect.TypeFor[chat.ReceiverType](),
	reflect.TypeFor[chat.CallRecording](),
	reflect.TypeFor[chat.CallsService](),
	reflect.TypeFor[chat.ParticipantState](),
	reflect.TypeFor[chat.CallStatus](),
	reflect.TypeFor[chat.Timestamp](),
	reflect.TypeFor[chat.CallTranscription](),
	reflect.TypeFor[chat.CallType](),

	// package chat
	reflect.TypeFor[chat.AIAgentsService](),
	reflect.TypeFor[chat.APIKey](),
	reflect.TypeFor[chat.APIKeysService](),
	reflect.TypeFor[chat.APNsProvider](),
	reflect.TypeFor[chat.ActionType](),
	reflect.TypeFor[chat.AddFriendsRequest](),
	reflect.TypeFor[chat.AddFriendsResponse](),
	reflect.TypeFor[chat.AddMemberError](),
	reflect.TypeFor[chat.AddMembersRequest](),
	reflect.TypeFor[chat.AddMembersResponse](),
	reflect.TypeFor[chat.Direction](),
	reflect.TypeFor[chat.Agent](),
	reflect.TypeFor[chat.AllowFeaturesRequest](),
	reflect.TypeFor[chat.ArgumentError](),
	reflect.TypeFor[chat.AttachmentType](),
	reflect.TypeFor[chat.Attachment](),
	reflect.TypeFor[chat.Audience](),
	reflect.TypeFor[chat.AuthToken](),
	reflect.TypeFor[chat.AuthTokensService](),
	reflect.TypeFor[chat.BYOAgent](),
	reflect.TypeFor[chat.BansService](),
	reflect.TypeFor[chat.BlockUsersRequest](),
	reflect.TypeFor[chat.BlockedMessage](),
	reflect.TypeFor[chat.BlockedService](),
	reflect.TypeFor[chat.BulkOptions](),
	reflect.TypeFor[chat.BulkProgress](),
	reflect.TypeFor[chat.ButtonAction](),
	reflect.TypeFor[chat.CallNotificationPreferences](),
	reflect.TypeFor[chat.Category](),
	reflect.TypeFor[chat.ChangeScopeRequest](),
	reflect.TypeFor[chat.Client](),
	reflect.TypeFor[chat.ConditionOperand](),
	reflect.TypeFor[chat.ConditionOperator](),
	reflect.TypeFor[chat.ContactDetails](),
	reflect.TypeFor[chat.ConversationFilters](),
	reflect.TypeFor[chat.ConversationRef](),
	reflect.TypeFor[chat.ConversationType](),
	reflect.TypeFor[chat.Conversation](),
	reflect.TypeFor[chat.ConversationsService](),
	reflect.TypeFor[chat.CreateAPIKeyRequest](),
	reflect.TypeFor[chat.CreateAgentRequest](),
	reflect.TypeFor[chat.CreateAuthTokenRequest](),
	reflect.TypeFor[chat.CreateBYOAgentRequest](),
	reflect.TypeFor[chat.CreateGroupRequest](),
	reflect.TypeFor[chat.CreateKeywordListRequest](),
	reflect.TypeFor[chat.CreateReasonRequest](),
	reflect.TypeFor[chat.CreateRoleRequest](),
	reflect.TypeFor[chat.CreateRuleRequest](),
	reflect.TypeFor[chat.CreateUserRequest](),
	reflect.TypeFor[chat.PageCount](),
	reflect.TypeFor[chat.CursorOptions](),
	reflect.TypeFor[chat.Cursor](),
	reflect.TypeFor[chat.CustomEmailProvider](),
	reflect.TypeFor[chat.CustomPushProvider](),
	reflect.TypeFor[chat.CustomSMSProvider](),
	reflect.TypeFor[chat.CustomTemplate](),
	reflect.TypeFor[chat.DNDSetting](),
	reflect.TypeFor[chat.DataImportService](),
	reflect.TypeFor[chat.DaySchedule](),
	reflect.TypeFor[chat.DeactivateUsersRequest](),
	reflect.TypeFor[chat.DeactivateUsersResponse](),
	reflect.TypeFor[chat.DeleteUserResponse](),
	reflect.TypeFor[chat.DeleteMessageRequest](),
	reflect.TypeFor[chat.DeletePushTokenRequest](),
	reflect.TypeFor[chat.DeleteUserRequest](),
	reflect.TypeFor[chat.DigestPreferences](),
	reflect.TypeFor[chat.ElementOption](),
	reflect.TypeFor[chat.ElementType](),
	reflect.TypeFor[chat.EmailTemplate](),
	reflect.TypeFor[chat.Entities](),
	reflect.TypeFor[chat.EntityType](),
	reflect.TypeFor[chat.Entity](),
	reflect.TypeFor[chat.Error](),
	reflect.TypeFor[chat.FCMNotificationInPayload](),
	reflect.TypeFor[chat.FCMPayloadFlags](),
	reflect.TypeFor[chat.FCMProvider](),
	reflect.TypeFor[chat.FCMServiceAccount](),
	reflect.TypeFor[chat.FlagMessageRequest](),
	reflect.TypeFor[chat.FlagResult](),
	reflect.TypeFor[chat.FlaggedMessage](),
	reflect.TypeFor[chat.Flagger](),
	reflect.TypeFor[chat.FriendsService](),
	reflect.TypeFor[chat.GroupDetails](),
	reflect.TypeFor[chat.GroupMember](),
	reflect.TypeFor[chat.GroupNotificationPreferences](),
	reflect.TypeFor[chat.GroupSortBy](),
	reflect.TypeFor[chat.GroupType](),
	reflect.TypeFor[chat.Group](),
	reflect.TypeFor[chat.GroupsService](),
	reflect.TypeFor[chat.ImportAttachment](),
	reflect.TypeFor[chat.ImportError](),
	reflect.TypeFor[chat.ImportGroup](),
	reflect.TypeFor[chat.ImportMember](),
	reflect.TypeFor[chat.ImportMessageData](),
	reflect.TypeFor[chat.ImportMessage](),
	reflect.TypeFor[chat.BulkResult[chat.User]](),
	reflect.TypeFor[chat.StreamResult[chat.User]](),
	reflect.TypeFor[chat.ImportUser](),
	reflect.TypeFor[chat.ImportedMember](),
	reflect.TypeFor[chat.IntegrationType](),
	reflect.TypeFor[chat.InteractionGoalType](),
	reflect.TypeFor[chat.InteractionGoal](),
	reflect.TypeFor[chat.Interaction](),
	reflect.TypeFor[chat.InteractiveData](),
	reflect.TypeFor[chat.InteractiveElement](),
	reflect.TypeFor[chat.KeywordCategory](),
	reflect.TypeFor[chat.KeywordFile](),
	reflect.TypeFor[chat.KeywordList](),
	reflect.TypeFor[chat.LimitKey](),
	reflect.TypeFor[chat.Limiter](),
	reflect.TypeFor[chat.ListAPIKeysOptions](),
	reflect.TypeFor[chat.ListAgentsOptions](),
	reflect.TypeFor[chat.ListAuthTokensOptions](),
	reflect.TypeFor[chat.ListBannedOptions](),
	reflect.TypeFor[chat.ListBlockedMessagesOptions](),
	reflect.TypeFor[chat.ListBlockedOptions](),
	reflect.TypeFor[chat.ListConversationsOptions](),
	reflect.TypeFor[chat.ListFlaggedMessagesOptions](),
	reflect.TypeFor[chat.ListFriendsOptions](),
	reflect.TypeFor[chat.ListGroupMessagesOptions](),
	reflect.TypeFor[chat.ListGroupsOptions](),
	reflect.TypeFor[chat.ListKeywordListsOptions](),
	reflect.TypeFor[chat.ListLogsOptions](),
	reflect.TypeFor[chat.ListMembersOptions](),
	reflect.TypeFor[chat.ListMessagesOptions](),
	reflect.TypeFor[chat.ListPushTokensOptions](),
	reflect.TypeFor[chat.ListReactionsOptions](),
	reflect.TypeFor[chat.ListReasonsOptions](),
	reflect.TypeFor[chat.ListReviewedMessagesOptions](),
	reflect.TypeFor[chat.ListRolesOptions](),
	reflect.TypeFor[chat.ListRuleRevisionsOptions](),
	reflect.TypeFor[chat.ListRulesOptions](),
	reflect.TypeFor[chat.ListSubmittedMessagesOptions](),
	reflect.TypeFor[chat.ListThreadOptions](),
	reflect.TypeFor[chat.ListThreadsOptions](),
	reflect.TypeFor[chat.ListUserMessagesOptions](),
	reflect.TypeFor[chat.ListUsersOptions](),
	reflect.TypeFor[chat.BulkOptions](),
	reflect.TypeFor[chat.BulkProgress](),
	reflect.TypeFor[chat.BulkResult[chat.User]](),
	reflect.TypeFor[chat.MarkDeliveredRequest](),
	reflect.TypeFor[chat.MarkInteractedRequest](),
	reflect.TypeFor[chat.MarkReadRequest](),
	reflect.TypeFor[chat.MarkUnreadRequest](),
	reflect.TypeFor[chat.MediaTemplate](),
	reflect.TypeFor[chat.MemberError](),
	reflect.TypeFor[chat.MemberResult](),
	reflect.TypeFor[chat.MemberScope](),
	reflect.TypeFor[chat.MemberToAdd](),
	reflect.TypeFor[chat.MembersService](),
	reflect.TypeFor[chat.MentionTemplate](),
	reflect.TypeFor[chat.MessageDataPoint](),
	reflect.TypeFor[chat.MessageData](),
	reflect.TypeFor[chat.MessageMetrics](),
	reflect.TypeFor[chat.MessageType](),
	reflect.TypeFor[chat.Message](),
	reflect.TypeFor[chat.MessagesService](),
	reflect.TypeFor[chat.PageMeta](),
	reflect.TypeFor[chat.MetricsService](),
	reflect.TypeFor[chat.ModelSettings](),
	reflect.TypeFor[chat.ModerationReason](),
	reflect.TypeFor[chat.ModerationRuleRef](),
	reflect.TypeFor[chat.ModerationRule](),
	reflect.TypeFor[chat.ModerationService](),
	reflect.TypeFor[chat.Moderation](),
	reflect.TypeFor[chat.MultipleReceivers](),
	reflect.TypeFor[chat.MuteNotificationPreferences](),
	reflect.TypeFor[chat.MuteRequest](),
	reflect.TypeFor[chat.MutedConversationType](),
	reflect.TypeFor[chat.MutedConversation](),
	reflect.TypeFor[chat.NotificationChannel](),
	reflect.TypeFor[chat.NotificationLog](),
	reflect.TypeFor[chat.NotificationPreferences](),
	reflect.TypeFor[chat.NotificationProviderType](),
	reflect.TypeFor[chat.NotificationReason](),
	reflect.TypeFor[chat.NotificationSetting](),
	reflect.TypeFor[chat.NotificationSettings](),
	reflect.TypeFor[chat.NotificationSound](),
	reflect.TypeFor[chat.NotificationTemplates](),
	reflect.TypeFor[chat.NotificationTrigger](),
	reflect.TypeFor[chat.NotificationsService](),
	reflect.TypeFor[chat.OneOnOneNotificationPreferences](),
	reflect.TypeFor[chat.OperationClass](),
	reflect.TypeFor[chat.Option](),
	reflect.TypeFor[chat.PageOptions](),
	reflect.TypeFor[chat.Page[chat.AuthToken]](),
	reflect.TypeFor[chat.Pagination](),
	reflect.TypeFor[chat.PermissionDataType](),
	reflect.TypeFor[chat.PermissionType](),
	reflect.TypeFor[chat.Permission](),
	reflect.TypeFor[chat.PermissionsService](),
	reflect.TypeFor[chat.Placeholder](),
	reflect.TypeFor[chat.PrivacyTemplateSetting](),
	reflect.TypeFor[chat.PushPayloadPreferences](),
	reflect.TypeFor[chat.PushPlatform](),
	reflect.TypeFor[chat.PushTokenType](),
	reflect.TypeFor[chat.PushToken](),
	reflect.TypeFor[chat.RateLimiter](),
	reflect.TypeFor[chat.RateLimits](),
	reflect.TypeFor[chat.RateObservation](),
	reflect.TypeFor[chat.ReactionCount](),
	reflect.TypeFor[chat.Reaction](),
	reflect.TypeFor[chat.ReactivateUsersRequest](),
	reflect.TypeFor[chat.ReactivateUsersResponse](),
	reflect.TypeFor[chat.ReceiverType](),
	reflect.TypeFor[chat.Region](),
	reflect.TypeFor[chat.RegisterPushTokenRequest](),
	reflect.TypeFor[chat.RemoveFriendsRequest](),
	reflect.TypeFor[chat.ReplaceAppPinnedRequest](),
	reflect.TypeFor[chat.ResetConversationRequest](),
	reflect.TypeFor[chat.RestrictFeaturesRequest](),
	reflect.TypeFor[chat.RestrictedFeature](),
	reflect.TypeFor[chat.Result](),
	reflect.TypeFor[chat.Secret](),
	reflect.TypeFor[chat.Request](),
	reflect.TypeFor[chat.RequestOption](),
	reflect.TypeFor[chat.Response](),
	reflect.TypeFor[chat.RetryPolicy](),
	reflect.TypeFor[chat.ReviewBlockedMessageRequest](),
	reflect.TypeFor[chat.ReviewFlaggedMessageRequest](),
	reflect.TypeFor[chat.ReviewStatus](),
	reflect.TypeFor[chat.ReviewedMessage](),
	reflect.TypeFor[chat.RoleSettings](),
	reflect.TypeFor[chat.Role](),
	reflect.TypeFor[chat.RolesService](),
	reflect.TypeFor[chat.RuleAction](),
	reflect.TypeFor[chat.RuleCondition](),
	reflect.TypeFor[chat.RuleFilterEntity](),
	reflect.TypeFor[chat.RuleFilterOperator](),
	reflect.TypeFor[chat.RuleFilterType](),
	reflect.TypeFor[chat.RuleFilter](),
	reflect.TypeFor[chat.SMSTemplate](),
	reflect.TypeFor[chat.ScopeChange](),
	reflect.TypeFor[chat.Scope](),
	reflect.TypeFor[chat.SendGridProvider](),
	reflect.TypeFor[chat.SendMessageRequest](),
	reflect.TypeFor[chat.SetPermissionsRequest](),
	reflect.TypeFor[chat.SetPermissionsResponse](),
	reflect.TypeFor[chat.SortOrder](),
	reflect.TypeFor[chat.SubmitMessageRequest](),
	reflect.TypeFor[chat.TestBYOAgentRequest](),
	reflect.TypeFor[chat.TestBYOAgentResult](),
	reflect.TypeFor[chat.TextTemplate](),
	reflect.TypeFor[chat.Timestamp](),
	reflect.TypeFor[chat.TwilioProvider](),
	reflect.TypeFor[chat.UnblockUsersRequest](),
	reflect.TypeFor[chat.UnmuteRequest](),
	reflect.TypeFor[chat.UnregisterPushTokensRequest](),
	reflect.TypeFor[chat.UnsetPermissionResponse](),
	reflect.TypeFor[chat.UpdateAPIKeyRequest](),
	reflect.TypeFor[chat.UpdateAuthTokenRequest](),
	reflect.TypeFor[chat.UpdateContactDetailsRequest](),
	reflect.TypeFor[chat.UpdateConversationRequest](),
	reflect.TypeFor[chat.UpdateCursorOptions](),
	reflect.TypeFor[chat.UpdateCustomProviderRequest](),
	reflect.TypeFor[chat.UpdateGroupRequest](),
	reflect.TypeFor[chat.UpdateKeywordListRequest](),
	reflect.TypeFor[chat.UpdateMessageRequest](),
	reflect.TypeFor[chat.UpdatePreferencesRequest](),
	reflect.TypeFor[chat.UpdateReasonRequest](),
	reflect.TypeFor[chat.UpdateRoleRequest](),
	reflect.TypeFor[chat.UpdateRuleRequest](),
	reflect.TypeFor[chat.UpdateSubmittedMessageRequest](),
	reflect.TypeFor[chat.UpdateTimezoneRequest](),
	reflect.TypeFor[chat.UpdateUserRequest](),
	reflect.TypeFor[chat.UsageCounts](),
	reflect.TypeFor[chat.UsageMetrics](),
	reflect.TypeFor[chat.UsageOptions](),
	reflect.TypeFor[chat.UsageTimeRange](),
	reflect.TypeFor[chat.UserGroupPreferences](),
	reflect.TypeFor[chat.UserMutePreferences](),
	reflect.TypeFor[chat.UserNotificationPreferences](),
	reflect.TypeFor[chat.UserOneOnOnePreferences](),
	reflect.TypeFor[chat.UserStatus](),
	reflect.TypeFor[chat.UserUpdate](),
	reflect.TypeFor[chat.User](),
	reflect.TypeFor[chat.UsersService](),
	reflect.TypeFor[chat.WeekSchedule](),

	// package chattest
	reflect.TypeFor[chattest.DeliveryState](),
	reflect.TypeFor[chattest.Delivery](),
	reflect.TypeFor[chattest.FaultKind](),
	reflect.TypeFor[chattest.Fault](),
	reflect.TypeFor[chattest.Handler](),
	reflect.TypeFor[chattest.MessageFlag](),
	reflect.TypeFor[chattest.Option](),
	reflect.TypeFor[chattest.Request](),
	reflect.TypeFor[chattest.RealtimeConn](),
	reflect.TypeFor[chattest.RealtimeTransport](),
	reflect.TypeFor[chattest.Server](),
	reflect.TypeFor[chattest.Socket](),
	reflect.TypeFor[chattest.Store](),

	// package management
	reflect.TypeFor[management.AddTenantRequest](),
	reflect.TypeFor[management.AppAPIKey](),
	reflect.TypeFor[management.AppAPIKeys](),
	reflect.TypeFor[management.AppMetadata](),
	reflect.TypeFor[management.AppOwner](),
	reflect.TypeFor[management.AppRegion](),
	reflect.TypeFor[management.AppSettings](),
	reflect.TypeFor[management.AppState](),
	reflect.TypeFor[management.App](),
	reflect.TypeFor[management.AppsService](),
	reflect.TypeFor[management.BitlySettings](),
	reflect.TypeFor[management.BroadcastSettings](),
	reflect.TypeFor[management.CertificatesBody](),
	reflect.TypeFor[management.ChatWidget](),
	reflect.TypeFor[management.ChatwootSettings](),
	reflect.TypeFor[management.Client](),
	reflect.TypeFor[management.CollaboratorRole](),
	reflect.TypeFor[management.Collaborator](),
	reflect.TypeFor[management.CollaboratorsService](),
	reflect.TypeFor[management.CollaboratorsUpdate](),
	reflect.TypeFor[management.CreateAppRequest](),
	reflect.TypeFor[management.CreateWebhookRequest](),
	reflect.TypeFor[management.DataMaskingSettings](),
	reflect.TypeFor[management.DeleteAppResult](),
	reflect.TypeFor[management.E2EESettings](),
	reflect.TypeFor[management.EmailNotificationSettings](),
	reflect.TypeFor[management.EmailRepliesSettings](),
	reflect.TypeFor[management.ExtensionHook](),
	reflect.TypeFor[management.ExtensionID](),
	reflect.TypeFor[management.ExtensionReply[management.SettingsBody]](),
	reflect.TypeFor[management.ExtensionSettings](),
	reflect.TypeFor[management.Extension](),
	reflect.TypeFor[management.ExtensionsService](),
	reflect.TypeFor[management.ExtensionsUpdate](),
	reflect.TypeFor[management.FCMCredentials](),
	reflect.TypeFor[management.GiphySettings](),
	reflect.TypeFor[management.HookName](),
	reflect.TypeFor[management.HumanModerationSettings](),
	reflect.TypeFor[management.ImageModerationSettings](),
	reflect.TypeFor[management.IntercomSettings](),
	reflect.TypeFor[management.ListAppsOptions](),
	reflect.TypeFor[management.ListExtensionsOptions](),
	reflect.TypeFor[management.ListWebhooksOptions](),
	reflect.TypeFor[management.MaskingRegex](),
	reflect.TypeFor[management.MessagePayloadOptions](),
	reflect.TypeFor[management.MessageShortcutsSettings](),
	reflect.TypeFor[management.ModerationService](),
	reflect.TypeFor[management.NotificationInPayload](),
	reflect.TypeFor[chat.Option](),
	reflect.TypeFor[chat.PageLinks](),
	reflect.TypeFor[management.ProfanityFilterSettings](),
	reflect.TypeFor[management.PushNotificationSettings](),
	reflect.TypeFor[management.RawSettings](),
	reflect.TypeFor[management.RegionMeta](),
	reflect.TypeFor[management.ReportMessageSettings](),
	reflect.TypeFor[management.ReportSettings](),
	reflect.TypeFor[management.ReportUserSettings](),
	reflect.TypeFor[management.Results](),
	reflect.TypeFor[management.RichMediaSettings](),
	reflect.TypeFor[management.SMSNotificationSettings](),
	reflect.TypeFor[management.SentimentAnalysisSettings](),
	reflect.TypeFor[management.SetExtensionsRequest](),
	reflect.TypeFor[management.SettingKey](),
	reflect.TypeFor[management.SettingsBody](),
	reflect.TypeFor[management.SettingsData](),
	reflect.TypeFor[management.SettingsService](),
	reflect.TypeFor[management.Sticker](),
	reflect.TypeFor[management.StickersSettings](),
	reflect.TypeFor[management.StipopSettings](),
	reflect.TypeFor[management.TenantApp](),
	reflect.TypeFor[management.Tenant](),
	reflect.TypeFor[management.TenantsService](),
	reflect.TypeFor[management.TenorSettings](),
	reflect.TypeFor[management.Timestamp](),
	reflect.TypeFor[management.TinyURLSettings](),
	reflect.TypeFor[management.Trigger](),
	reflect.TypeFor[management.UpdateCollaboratorsRequest](),
	reflect.TypeFor[management.UpdateWebhookRequest](),
	reflect.TypeFor[management.UsageRequest](),
	reflect.TypeFor[management.VirusScannerSettings](),
	reflect.TypeFor[management.VoiceTranscriptionSettings](),
	reflect.TypeFor[management.Webhook](),
	reflect.TypeFor[management.WebhooksService](),
	reflect.TypeFor[management.WidgetBody](),
	reflect.TypeFor[management.WidgetData](),
	reflect.TypeFor[management.WidgetListBody](),
	reflect.TypeFor[management.XSSFilterSettings](),

	// package webhook
	reflect.TypeFor[webhook.AppInfo](),
	reflect.TypeFor[webhook.Base](),
	reflect.TypeFor[webhook.BlockEvent](),
	reflect.TypeFor[webhook.BotMessageEvent](),
	reflect.TypeFor[webhook.CallConfig](),
	reflect.TypeFor[webhook.CallEvent](),
	reflect.TypeFor[webhook.CampaignEvent](),
	reflect.TypeFor[webhook.Connection](),
	reflect.TypeFor[webhook.EngineRequest](),
	reflect.TypeFor[webhook.Envelope](),
	reflect.TypeFor[webhook.Event](),
	reflect.TypeFor[webhook.FailedCondition](),
	reflect.TypeFor[webhook.FailureContext](),
	reflect.TypeFor[webhook.FeedItemEvent](),
	reflect.TypeFor[webhook.Flag](),
	reflect.TypeFor[webhook.GroupEvent](),
	reflect.TypeFor[webhook.Group](),
	reflect.TypeFor[webhook.HandlerOption](),
	reflect.TypeFor[webhook.Member](),
	reflect.TypeFor[webhook.MessageActionEvent](),
	reflect.TypeFor[webhook.MessageEvent](),
	reflect.TypeFor[webhook.Millis](),
	reflect.TypeFor[webhook.ModerationCondition](),
	reflect.TypeFor[webhook.ModerationEvent](),
	reflect.TypeFor[webhook.ModerationFailedEvent](),
	reflect.TypeFor[webhook.ModerationFailure](),
	reflect.TypeFor[webhook.ModerationFilter](),
	reflect.TypeFor[webhook.ModerationMatch](),
	reflect.TypeFor[webhook.ModerationRule](),
	reflect.TypeFor[webhook.NotificationCreatedEvent](),
	reflect.TypeFor[webhook.Occupant](),
	reflect.TypeFor[webhook.Origin](),
	reflect.TypeFor[webhook.ParticipantEvent](),
	reflect.TypeFor[webhook.PayloadError](),
	reflect.TypeFor[webhook.PushNotificationEvent](),
	reflect.TypeFor[webhook.ReactionEvent](),
	reflect.TypeFor[webhook.ReceiptEvent](),
	reflect.TypeFor[webhook.Receipt](),
	reflect.TypeFor[webhook.RecordingEvent](),
	reflect.TypeFor[webhook.Seconds](),
	reflect.TypeFor[webhook.SessionEndedEvent](),
	reflect.TypeFor[webhook.SessionStartedEvent](),
	reflect.TypeFor[webhook.Threshold](),
	reflect.TypeFor[webhook.Time](),
	reflect.TypeFor[webhook.TranscriptionEvent](),
	reflect.TypeFor[webhook.Trigger](),
	reflect.TypeFor[webhook.UnknownEvent](),
	reflect.TypeFor[webhook.UserConnectionEvent](),
	reflect.TypeFor[webhook.Verifier](),
}

// leakSecretSuffixes end the normalized names (lower case, without "_"
// and "-", without a plural "s") of the fields that hold a credential; the
// same list as chattest's request log, plus the management key of
// chattest's own fields.
var leakSecretSuffixes = []string{"password", "token", "secret", "secretkey", "apikey", "apivideokey", "privatekey", "p8key",
	"authkey", "accesskey", "appkey", "certificate", "mgmtkey"}

// secretName reports whether one of the names (a field's Go name, its JSON
// or query name, a type's name) says it holds a credential.
func secretName(names ...string) bool {
	for _, name := range names {
		n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
		n = strings.TrimSuffix(n, "s")
		for _, suffix := range leakSecretSuffixes {
			if n != "" && strings.HasSuffix(n, suffix) {
				return true
			}
		}
	}
	return false
}

// TestExportedTypesHideSecrets prints a value of every exported type of
// the public packages, with every field that holds a credential (by its
// name) set to a secret and every other string set, with %v, %+v, %#v, %s,
// %q and %x, as a value and as a pointer: no output may show the secret. A
// type that carries a credential must hide it (a Format method printing
// it as REDACTED), however deep the field sits.
func TestExportedTypesHideSecrets(t *testing.T) {
	registered := map[string]reflect.Type{}
	for _, rt := range leakTypes {
		registered[leakTypeName(rt)] = rt
	}
	var declared []string
	generic := map[string]bool{}
	for pkg, dir := range leakPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, spec := range g.Specs {
					// An alias names a type declared elsewhere, checked there,
					// unless elsewhere is an internal package: the package
					// that exports it names it (see leakTypeName).
					if ts := spec.(*ast.TypeSpec); ts.Name.IsExported() && (!ts.Assign.IsValid() || aliasesInternal(f, ts)) {
						declared = append(declared, pkg+"."+ts.Name.Name)
						generic[pkg+"."+ts.Name.Name] = ts.TypeParams != nil
					}
				}
			}
		}
	}
	slices.Sort(declared)
	for _, name := range declared {
		switch {
		case registered[name] != nil:
		case generic[name]:
			t.Errorf("the exported type %s is not checked: add reflect.TypeFor[%s[T]]() to leakTypes, with a T that holds a credential (chat.User, say)", name, name)
		default:
			t.Errorf("the exported type %s is not checked: add reflect.TypeFor[%s]() to leakTypes", name, name)
		}
	}
	for name := range registered {
		assert.Contains(t, declared, name, "leakTypes lists a type no package declares")
	}

	for _, name := range declared {
		rt := registered[name]
		if rt == nil {
			continue
		}
		v := reflect.New(rt)
		var paths []string
		fillLeak(v.Elem(), secretName(rt.Name()), name, &paths, 0)
		forms := map[string]any{"value": v.Elem().Interface(), "pointer": v.Interface()}
		if holdsLock(rt) {
			// A value that must not be copied is printed through its
			// pointer: vet's copylocks check rejects printing a copy.
			delete(forms, "value")
		}
		for _, verb := range leakVerbs {
			for form, x := range forms {
				if out := fmt.Sprintf(verb, x); shows(out, leakField) {
					t.Errorf("%s: printing a %s with %s shows a credential set in %v: %s", name, form, verb, paths, out)
				}
			}
		}
	}
}

// holdsLock reports whether a value of rt holds a lock of package sync
// (in itself or a field, not behind a pointer), so that copying it is a
// mistake go vet reports.
func holdsLock(rt reflect.Type) bool {
	switch rt.Kind() {
	case reflect.Struct:
		if rt.PkgPath() == "sync" || rt.PkgPath() == "sync/atomic" {
			return true
		}
		for i := range rt.NumField() {
			if holdsLock(rt.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return holdsLock(rt.Elem())
	}
	return false
}

// leakTypeName is "pkg.Name" for a type of the public packages, without
// the type arguments of a generic one.
func leakTypeName(rt reflect.Type) string {
	path := strings.TrimPrefix(rt.PkgPath(), "github.com/chatrest/chat")
	if pkg := strings.TrimPrefix(path, "/"); leakPackages[pkg] == "" {
		// A type of chattest/internal/webhooks is chattest's, which
		// exports it; the engine's packages are checked themselves.
		path, _, _ = strings.Cut(path, "/internal/")
	}
	pkg := strings.TrimPrefix(path, "/")
	if pkg == "" {
		pkg = "chat"
	}
	name, _, _ := strings.Cut(rt.Name(), "[")
	return pkg + "." + name
}

// aliasesInternal reports whether ts, in f, is an alias of a type of an
// internal package of the SDK's that is not checked itself (leakPackages):
// a type the package of f exports.
func aliasesInternal(f *ast.File, ts *ast.TypeSpec) bool {
	sel, ok := ts.Type.(*ast.SelectorExpr)
	if !ok || !ts.Assign.IsValid() {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if name := path[strings.LastIndex(path, "/")+1:]; imp.Name != nil && imp.Name.Name == x.Name || imp.Name == nil && name == x.Name {
			internal := strings.HasPrefix(path, "github.com/chatrest/chat/") && strings.Contains(path, "/internal/")
			return internal && leakPackages[strings.TrimPrefix(path, "github.com/chatrest/chat/")] == ""
		}
	}
	return false
}

// fillLeak sets v: strings to leakField when secret (the field's name says
// it holds a credential) and to "plain" otherwise; slices and maps get one
// element, pointers a value; structs have each field filled by its own
// name, unexported fields of the SDK's types included. It records the path
// of each credential it sets.
func fillLeak(v reflect.Value, secret bool, path string, paths *[]string, depth int) {
	if depth > 8 {
		return
	}
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	switch v.Kind() {
	case reflect.String:
		if secret {
			v.SetString(leakField)
			*paths = append(*paths, path)
		} else {
			v.SetString("plain")
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // []byte, json.RawMessage
			if secret {
				v.SetBytes([]byte(`"` + leakField + `"`))
				*paths = append(*paths, path)
			}
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillLeak(s.Index(0), secret, path+"[0]", paths, depth+1)
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fillLeak(v.Index(i), secret, fmt.Sprintf("%s[%d]", path, i), paths, depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMapWithSize(v.Type(), 1)
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillLeak(k, secret, path+"[key]", paths, depth+1)
		fillLeak(e, secret, path+"[value]", paths, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillLeak(p.Elem(), secret, path, paths, depth+1)
		v.Set(p)
	case reflect.Interface:
		if secret && v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(leakField))
			*paths = append(*paths, path)
		}
	case reflect.Struct:
		if !strings.HasPrefix(v.Type().PkgPath(), "github.com/chatrest/chat") {
			return // time.Time and other types of the standard library
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			urlName, _, _ := strings.Cut(f.Tag.Get("url"), ",")
			fillLeak(v.Field(i), secretName(f.Name, jsonName, urlName), path+"."+f.Name, paths, depth+1)
		}
	}
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
	srv := wiretest.NewEchoServer(t)
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

// formatted prints v with every verb a user might log it with.
func formatted(v any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"} {
		out[verb] = fmt.Sprintf(verb, v)
	}
	return out
}

// assertNoToken checks that nothing a user would print of err shows the
// token, and that the request path shows REDACTED in its place; the
// caller checks which error err is.
func assertNoToken(t *testing.T, err error, secrets ...string) {
	t.Helper()
	for verb, out := range formatted(err) {
		for _, s := range secrets {
			assert.NotContains(t, out, s, "%s of the error", verb)
		}
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		var ue *url.Error
		if errors.As(e, &ue) {
			for _, s := range secrets {
				assert.NotContains(t, ue.URL, s, "url.Error URL")
			}
		}
	}
}

// TestHostileEchoedCredentials answers every hostile-server call with its
// credentials echoed back, in every form: no rendering of the result or the
// error, nor the debug log, shows any of them. Every scenario asserts all
// of the promises of hostileEnv.check.
func TestHostileEchoedCredentials(t *testing.T) { runHostile(t, hostileEchoes()) }

// hostileEchoes is TestHostileEchoedCredentials's part of the hostile-server table.
func hostileEchoes() hostileSection {
	s := hostileSection{title: "echoed credentials (class 3): to every call, in every form", test: "TestHostileEchoedCredentials (secret_leaks_test.go)"}
	add := s.add
	for _, c := range hostileCalls {
		add(hostileScenario{Call: c.name, Status: 400, Body: bodyEcho, Variant: 0},
			hostileScenario{Call: c.name, Status: 404, Body: bodyEcho, Variant: 4},
			hostileScenario{Call: c.name, Status: 422, Body: bodyEcho, Variant: 1},
			hostileScenario{Call: c.name, Status: 500, Body: bodyEcho, Variant: 3},
			hostileScenario{Call: c.name, Status: 200, Body: bodyEcho, Variant: 4},
			hostileScenario{Call: c.name, Status: 200, Body: bodyEchoWrongType, Variant: 0},
			hostileScenario{Call: c.name, Status: 502, Body: bodyHTML, Variant: 4})
	}
	add(hostileScenario{Call: "Users.Get", Status: 401, Body: bodyEcho, Variant: 2},
		hostileScenario{Call: "management Tenants.Add", Status: 401, Body: bodyEcho, Variant: 3})
	return s
}
