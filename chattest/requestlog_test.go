package chattest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
)

func TestRequestLogRecordsTheWire(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()

	hi := toUser("bob", "hi")
	hi.MUID = "m1"
	_, err := client.Messages.Send(ctx, hi, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Users.Get(ctx, "a/b")
	require.ErrorIs(t, err, chat.ErrNotFound)
	_, err = client.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
	require.NoError(t, err)
	resp, _ := fetch(t, srv, "GET", "/v3/nothing?x=1", "")
	require.Equal(t, 404, resp.StatusCode)

	log := srv.Requests()
	require.Len(t, log, 4)

	send := log[0]
	assert.Equal(t, t0, send.Time)
	assert.Equal(t, "POST", send.Method)
	assert.Equal(t, "/v3/messages", send.Path)
	assert.Equal(t, "POST /v3/messages", send.Route)
	assert.Empty(t, send.Query)
	assert.Equal(t, []string{chattest.Redacted}, send.Header["Apikey"])
	assert.Equal(t, "alice", send.Header.Get("onBehalfOf"))
	assert.Equal(t, "application/json", send.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(send.Header.Get("User-Agent"), "chat-go/"))
	assert.JSONEq(t, `{"receiver":"bob","receiverType":"user","data":{"text":"hi"},"muid":"m1"}`, send.Body)
	assert.Equal(t, 200, send.Status)
	assert.Equal(t, chattest.Fault{}, send.Fault)

	get := log[1]
	assert.Equal(t, "/v3/users/a%2Fb", get.Path, "escaped, as received")
	assert.Equal(t, "GET /v3/users/{uid}", get.Route)
	assert.Equal(t, 404, get.Status)
	assert.Empty(t, get.Body)

	assert.Equal(t, url.Values{"perPage": {"5"}, "page": {"2"}}, log[2].Query)
	assert.Equal(t, "GET /v3/users", log[2].Route)

	assert.Equal(t, "", log[3].Route, "no route matched")
	assert.Equal(t, "/v3/nothing", log[3].Path)
	assert.Equal(t, url.Values{"x": {"1"}}, log[3].Query)
	assert.Equal(t, 404, log[3].Status)
}

func TestRequestLogNeverHoldsCredentials(t *testing.T) {
	// A key with characters that paths, queries and JSON escape.
	const mainKey = "k+y/=<&>0123456789"
	srv, _ := start(t, chattest.WithAPIKey(mainKey))
	require.Equal(t, mainKey, srv.APIKey())
	client := srv.Client()
	ctx := t.Context()
	seed(srv, "alice")

	created, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob", WithAuthToken: true})
	require.NoError(t, err)
	require.NotEmpty(t, created.AuthToken)
	tok, err := client.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	_, err = client.AuthTokens.Get(ctx, "alice", string(tok.AuthToken))
	require.NoError(t, err)
	_, err = client.AuthTokens.Update(ctx, "alice", string(tok.AuthToken), &chat.UpdateAuthTokenRequest{Platform: "ios"})
	require.NoError(t, err)
	_, err = client.AuthTokens.Get(ctx, "alice", "not-a-token-but-in-its-place")
	require.ErrorIs(t, err, chat.ErrNotFound)

	key, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "made", Scope: chat.ScopeFullAccess})
	require.NoError(t, err)
	_, err = client.APIKeys.Get(ctx, string(key.APIKey))
	require.NoError(t, err)
	_, err = client.APIKeys.Delete(ctx, string(key.APIKey))
	require.NoError(t, err)
	seeded := srv.AddAPIKey("seeded", chat.ScopeAuthOnly)
	_, err = srv.ClientWithAPIKey(string(seeded.APIKey)).Users.Create(ctx, &chat.CreateUserRequest{UID: "carol", Name: "Carol"})
	require.NoError(t, err)
	_, err = srv.ClientWithAPIKey("wrong-key-0123").Users.List(ctx, nil)
	require.ErrorIs(t, err, chat.ErrUnauthorized)

	// Credentials where they do not belong: in a message, a query, headers
	// and a body's apiKey field.
	secrets := []string{mainKey, string(created.AuthToken), string(tok.AuthToken), string(key.APIKey), string(seeded.APIKey), "wrong-key-0123",
		"not-a-token-but-in-its-place", "bearer-token-0123", "mgmt-key-0123", "mgmt-secret-0123", "in-a-field-0123"}
	leak := "keys " + mainKey + " " + key.APIKey + " " + seeded.APIKey + " tokens " + created.AuthToken + " " + tok.AuthToken
	_, err = client.Messages.Send(ctx, toUser("bob", string(leak)), chat.OnBehalfOf("alice"),
		chat.WithHeader("X-Debug", string(leak)), chat.WithHeader("Authorization", "Bearer bearer-token-0123"),
		chat.WithHeader("Key", "mgmt-key-0123"), chat.WithHeader("Secret", "mgmt-secret-0123"))
	require.NoError(t, err)
	_, err = client.Users.List(ctx, &chat.ListUsersOptions{SearchKey: string(tok.AuthToken)})
	require.NoError(t, err)
	resp, _ := fetch(t, srv, "POST", "/v3/nothing?k="+url.QueryEscape(mainKey), `{"nested":[{"APIKEY":"in-a-field-0123"}],"also":"`+strings.ReplaceAll(mainKey, "/", `\/`)+`"}`)
	require.Equal(t, 404, resp.StatusCode)
	resp, _ = fetch(t, srv, "GET", "/v3/users/"+escapeAll(mainKey), "")
	require.Equal(t, 404, resp.StatusCode)

	log := srv.Requests()
	forms := func(s string) []string {
		j, _ := json.Marshal(s)
		return []string{s, url.PathEscape(s), url.QueryEscape(s), string(j[1 : len(j)-1]), escapeAll(s)}
	}
	js, err := json.Marshal(log)
	require.NoError(t, err)
	shown := map[string]string{
		"%v":   fmt.Sprintf("%v", log),
		"%+v":  fmt.Sprintf("%+v", log),
		"%#v":  fmt.Sprintf("%#v", log),
		"JSON": string(js),
	}
	for _, r := range log {
		shown[r.Method+" "+r.Path+" %+v"] = fmt.Sprintf("%+v", r)
	}
	for name, text := range shown {
		for _, s := range secrets {
			for _, f := range forms(s) {
				assert.NotContains(t, text, f, "%s shows %q", name, s)
			}
		}
	}

	// What is not a credential is still there.
	byPath := map[string]chattest.Request{}
	for _, r := range log {
		byPath[r.Method+" "+r.Path] = r
	}
	assert.Contains(t, byPath, "GET /v3/users/alice/auth_tokens/REDACTED")
	assert.Contains(t, byPath, "PUT /v3/users/alice/auth_tokens/REDACTED")
	assert.Contains(t, byPath, "GET /v3/apikeys/REDACTED")
	assert.Contains(t, byPath, "DELETE /v3/apikeys/REDACTED")
	msg := byPath["POST /v3/messages"]
	assert.Contains(t, msg.Body, `"text":"keys REDACTED REDACTED REDACTED tokens REDACTED REDACTED"`)
	assert.Equal(t, "keys REDACTED REDACTED REDACTED tokens REDACTED REDACTED", msg.Header.Get("X-Debug"))
	for _, h := range []string{"Apikey", "Authorization", "Key", "Secret"} {
		assert.Equal(t, []string{chattest.Redacted}, msg.Header[h], h)
	}
	assert.Equal(t, "alice", msg.Header.Get("onBehalfOf"))
	assert.Equal(t, chattest.Redacted, byPath["GET /v3/users"].Query.Get("searchKey"))
	assert.Equal(t, url.Values{"k": {chattest.Redacted}}, byPath["POST /v3/nothing"].Query)
	assert.JSONEq(t, `{"nested":[{"APIKEY":"REDACTED"}],"also":"REDACTED"}`, byPath["POST /v3/nothing"].Body)
	assert.Contains(t, byPath, "GET /v3/users/REDACTED")
}

// The log redacts by name the fields that hold a credential (passwords,
// providers' keys, push tokens, certificates) in JSON bodies, multipart
// and URL-encoded forms, queries and paths, however short the value, and
// leaves every other field as sent.
func TestRequestLogRedactsCredentialFieldsByName(t *testing.T) {
	srv, client := start(t)
	mc := srv.ManagementClient(chat.WithoutRetries())
	ctx := t.Context()
	seed(srv, "alice")
	n := client.Notifications
	auth := login(t, client, "alice")

	// Push tokens in bodies, a query and a path.
	_, err := n.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-1", ServiceAccountFilename: "sa.json",
		ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "proj", ClientEmail: "sa@proj.test", PrivateKey: "pk-fcm-0123", PrivateKeyID: "pkid-1"}})
	require.NoError(t, err)
	for platform, token := range map[chat.PushPlatform]string{
		chat.PushPlatformFCMAndroid: "fcm-token-0123", chat.PushPlatformAPNsIOSDevice: "device-token-0123", chat.PushPlatformAPNsIOSVoIP: "voip-token-0123",
	} {
		_, err := n.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: platform, Token: chat.Secret(token), AuthToken: chat.Secret(auth), Timezone: "Europe/Paris"})
		require.NoError(t, err, platform)
	}
	_, err = n.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: chat.Secret(auth), All: true})
	require.NoError(t, err)
	_, err = n.DeletePushToken(ctx, "fcm-token-0123", &chat.DeletePushTokenRequest{AuthToken: chat.Secret(auth)})
	require.NoError(t, err)

	// Providers' credentials; one-letter passwords.
	_, err = n.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "apns-1", KeyID: "kid", TeamID: "team", BundleID: "app.bundle",
		P8KeyFilename: "key.p8", P8Key: "p8-key-0123"})
	require.NoError(t, err)
	_, err = n.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: "twilio-0123", TwilioSenderPhoneNumber: "+15550100"})
	require.NoError(t, err)
	_, err = n.AddSendGridProvider(ctx, &chat.SendGridProvider{SendGridAPIKey: "SG.sendgrid-0123", SendGridTemplateID: "d-1",
		SendGridUnsubscribeGroupID: "7", SenderName: "Demo", SenderEmail: "no-reply@demo.test"})
	require.NoError(t, err)
	_, err = n.AddCustomPushProvider(ctx, &chat.CustomPushProvider{IsEnabled: true, WebhookURL: "https://hooks.demo/push",
		UseBasicAuth: true, BasicAuthUsername: "pusher", BasicAuthPassword: "p"})
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "happy-path", Name: "Happy path", Type: chat.GroupPassword, Password: "p"})
	require.NoError(t, err)

	// Management: a webhook's and a tenant's passwords, a certificate.
	_, err = mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "happyhook", Name: "happy path",
		URL: "https://hooks.demo/happy", UseBasicAuth: true, Username: "pp", Password: "p"})
	require.NoError(t, err)
	_, err = mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "Pat Piper", Email: "pat@example.com", Password: "tenant-pw-0123",
		AppName: "Pepper app", AppRegion: chat.RegionEU})
	require.NoError(t, err)
	// The extension is off: the upload is refused, and logged.
	_, err = mc.Extensions.UploadAPNsP8(ctx, srv.AppID(), "AuthKey.p8", []byte("-----BEGIN PRIVATE KEY-----cert-0123"))
	require.ErrorIs(t, err, chat.ErrForbidden)

	// Forms and numbers, sent as they are.
	raw := func(ct, body string) {
		req := httptest.NewRequest("POST", "/v3/anything", strings.NewReader(body))
		req.Header.Set("apikey", srv.APIKey())
		req.Header.Set("Content-Type", ct)
		srv.Handler().ServeHTTP(httptest.NewRecorder(), req)
	}
	const multipartBody = "--b0undary\r\n" +
		"Content-Disposition: form-data; name=\"note\"\r\n\r\npepper\r\n" +
		"--b0undary\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\np\r\n" +
		"--b0undary\r\nContent-Disposition: form-data; name=\"certificate\"; filename=\"c.p12\"\r\nContent-Type: application/octet-stream\r\n\r\nmulti-0123\r\n" +
		"--b0undary--\r\n"
	raw("application/json", `{"password":1234,"pin_password":"p","withAuthToken":true,"tokens":["a"],"note":"pepper"}`)
	raw("application/x-www-form-urlencoded", "note=pepper&pass_word=p&empty_password=&client%5Fsecret=form-secret-0123")
	raw(`multipart/form-data; boundary="b0undary"`, multipartBody)

	log := srv.Requests()
	js, err := json.Marshal(log)
	require.NoError(t, err)
	for _, secret := range []string{"pk-fcm-0123", "fcm-token-0123", "device-token-0123", "voip-token-0123", auth, "p8-key-0123",
		"twilio-0123", "SG.sendgrid-0123", "tenant-pw-0123", "cert-0123", "form-secret-0123", "multi-0123", "1234"} {
		assert.NotContains(t, string(js), secret)
		assert.NotContains(t, fmt.Sprintf("%+v", log), secret)
	}

	bodies := map[string][]map[string]any{}
	byRoute := map[string][]chattest.Request{}
	for _, r := range log {
		byRoute[r.Route] = append(byRoute[r.Route], r)
		var m map[string]any
		if json.Unmarshal([]byte(r.Body), &m) == nil {
			bodies[r.Route] = append(bodies[r.Route], m)
		}
	}
	first := func(route string) map[string]any {
		t.Helper()
		require.NotEmpty(t, bodies[route], route)
		return bodies[route][0]
	}

	fcm := first("POST /v3/notifications/push/v1/providers/fcm")
	assert.Equal(t, map[string]any{"project_id": "proj", "client_email": "sa@proj.test", "private_key": chattest.Redacted,
		"private_key_id": "pkid-1"}, fcm["serviceAccountCreds"])
	assert.Equal(t, "sa.json", fcm["serviceAccountFilename"])
	registered := map[string]string{}
	for _, b := range bodies["POST /v3/notifications/push/v1/tokens"] {
		assert.Equal(t, chattest.Redacted, b["authToken"])
		assert.Equal(t, "Europe/Paris", b["timezone"])
		for _, f := range []string{"fcmToken", "deviceToken", "voipToken"} {
			if v, ok := b[f].(string); ok {
				registered[f] = v
			}
		}
	}
	assert.Equal(t, map[string]string{"fcmToken": chattest.Redacted, "deviceToken": chattest.Redacted, "voipToken": chattest.Redacted}, registered)
	list := byRoute["GET /v3/notifications/push/v1/tokens"]
	require.Len(t, list, 1)
	assert.Equal(t, url.Values{"authToken": {chattest.Redacted}, "all": {"true"}}, list[0].Query)
	del := byRoute["DELETE /v3/notifications/push/v1/tokens/{pushToken}"]
	require.Len(t, del, 1)
	assert.Equal(t, "/v3/notifications/push/v1/tokens/REDACTED", del[0].Path)
	assert.JSONEq(t, `{"authToken":"REDACTED"}`, del[0].Body)

	apns := first("POST /v3/notifications/push/v1/providers/apns")
	assert.Equal(t, chattest.Redacted, apns["p8Key"])
	assert.Equal(t, "key.p8", apns["p8KeyFilename"])
	assert.Equal(t, "kid", apns["keyId"])
	twilio := first("POST /v3/notifications/sms/v1/providers/twilio")
	assert.Equal(t, chattest.Redacted, twilio["twilioAuthToken"])
	assert.Equal(t, "AC1", twilio["twilioAccountSID"])
	sendgrid := first("POST /v3/notifications/email/v1/providers/sendgrid")
	assert.Equal(t, chattest.Redacted, sendgrid["sendGridApiKey"])
	assert.Equal(t, "d-1", sendgrid["sendGridTemplateID"])
	custom := first("POST /v3/notifications/push/v1/providers/custom")
	assert.Equal(t, chattest.Redacted, custom["basicAuthPassword"])
	assert.Equal(t, "pusher", custom["basicAuthUsername"], "a one-letter password wipes no other p")
	assert.Equal(t, "https://hooks.demo/push", custom["webhookURL"])
	group := first("POST /v3/groups")
	assert.Equal(t, chattest.Redacted, group["password"])
	assert.Equal(t, "happy-path", group["guid"])
	assert.Equal(t, "Happy path", group["name"])

	hook := first("POST /apps/{appId}/webhooks")
	assert.Equal(t, chattest.Redacted, hook["password"])
	assert.Equal(t, "pp", hook["username"])
	assert.Equal(t, "happy path", hook["name"])
	tenant := first("POST /tenants")
	assert.Equal(t, chattest.Redacted, tenant["password"])
	assert.Equal(t, "Pepper app", tenant["appName"])
	assert.Equal(t, []string{chattest.Redacted}, byRoute["POST /tenants"][0].Header["Authorization"], "Basic auth")
	upload := byRoute["POST /apps/{appId}/extensions/push-notification/v1/upload-certificate-p8"]
	require.Len(t, upload, 1)
	assert.Contains(t, upload[0].Body, `name="certificate"; filename="AuthKey.p8"`)
	assert.Contains(t, upload[0].Body, "\r\n\r\nREDACTED\r\n--")

	anything := byRoute[""]
	require.Len(t, anything, 3)
	assert.JSONEq(t, `{"password":"REDACTED","pin_password":"REDACTED","withAuthToken":true,"tokens":["a"],"note":"pepper"}`, anything[0].Body,
		"only strings and numbers are redacted; tokens is not a token")
	assert.Equal(t, "note=pepper&pass_word=REDACTED&empty_password=&client%5Fsecret=REDACTED", anything[1].Body)
	assert.Equal(t, strings.Replace(strings.Replace(multipartBody, "\r\n\r\np\r\n", "\r\n\r\nREDACTED\r\n", 1), "multi-0123", "REDACTED", 1),
		anything[2].Body)
}

// Headers named as credentials are redacted whole, however short; the
// others keep their text, scrubbed of the secrets in the ones redacted.
func TestRequestLogRedactsCredentialHeaders(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	_, err := client.Users.Get(t.Context(), "alice", chat.WithHeader("X-Auth-Token", "header-token-0123"),
		chat.WithHeader("X-Api-Key", "k"), chat.WithHeader("Cookie", "session=cookie-0123"),
		chat.WithHeader("X-Debug", "saw header-token-0123 and session=cookie-0123 and k"))
	require.NoError(t, err)
	log := srv.Requests()
	require.Len(t, log, 1)
	h := log[0].Header
	for _, name := range []string{"X-Auth-Token", "X-Api-Key", "Cookie", "Apikey"} {
		assert.Equal(t, []string{chattest.Redacted}, h[name], name)
	}
	assert.Equal(t, "saw REDACTED and REDACTED and k", h.Get("X-Debug"), "a one-letter key wipes no other k")
}

// A short API key or management secret is redacted where it is a
// credential (its header), not wherever its letters appear.
func TestRequestLogShortCredentials(t *testing.T) {
	srv, client := start(t, chattest.WithAPIKey("k"), chattest.WithManagementCredentials("m", "s"))
	seed(srv, "kate")
	_, err := client.Users.Get(t.Context(), "kate")
	require.NoError(t, err)
	_, err = srv.ManagementClient().Apps.List(t.Context(), nil)
	require.NoError(t, err)
	log := srv.Requests()
	require.Len(t, log, 2)
	assert.Equal(t, "/v3/users/kate", log[0].Path)
	assert.Equal(t, []string{chattest.Redacted}, log[0].Header["Apikey"])
	assert.Equal(t, []string{chattest.Redacted}, log[1].Header["Key"])
	assert.Equal(t, []string{chattest.Redacted}, log[1].Header["Secret"])
	assert.Equal(t, "/apps", log[1].Path)
}

// escapeAll percent-encodes every byte of s, a valid but unusual escaping.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

func TestRequestsAreCopies(t *testing.T) {
	srv, client := start(t)
	_, err := client.Users.List(t.Context(), &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 5}})
	require.NoError(t, err)
	log := srv.Requests()
	log[0].Header.Set("Apikey", "changed")
	log[0].Query.Set("perPage", "6")
	log[0].Status = 1
	again := srv.Requests()
	assert.Equal(t, chattest.Redacted, again[0].Header.Get("Apikey"))
	assert.Equal(t, "5", again[0].Query.Get("perPage"))
	assert.Equal(t, 200, again[0].Status)
}

func TestRequestCountAndReset(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()
	for range 2 {
		_, err := client.Users.Get(ctx, "alice")
		require.NoError(t, err)
	}
	_, err := client.Users.List(ctx, nil)
	require.NoError(t, err)
	fetch(t, srv, "GET", "/v3/nothing", "")

	assert.Equal(t, 2, srv.RequestCount(getUser))
	assert.Equal(t, 1, srv.RequestCount("GET /v3/users"))
	assert.Equal(t, 0, srv.RequestCount("POST /v3/users"))
	assert.Equal(t, 4, srv.RequestCount("*"))
	assert.Equal(t, 4, srv.RequestCount(""))

	srv.ResetRequests()
	assert.Empty(t, srv.Requests())
	assert.Equal(t, 0, srv.RequestCount("*"))
	assert.Equal(t, 0, srv.RequestCount(getUser))
	_, err = client.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, 1, srv.RequestCount(getUser))
	assert.Len(t, srv.Requests(), 1)

	assert.Equal(t, 0, srv.RequestCount("GET /v3/user"), "a route the server does not register has no requests")
	assert.ErrorContains(t, srv.AwaitRequests(ctx, "/v3/users", 1), `route "/v3/users" is not a pattern the server registers`)
}

func TestAwaitRequests(t *testing.T) {
	noLeaks(t)
	srv, client := start(t)
	seed(srv, "alice")
	ctx := t.Context()

	require.NoError(t, srv.AwaitRequests(ctx, "*", 0), "already there")

	done := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := client.Users.Get(ctx, "alice")
			done <- err
		}()
	}
	require.NoError(t, srv.AwaitRequests(ctx, getUser, 3))
	for range 3 {
		require.NoError(t, <-done)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, srv.AwaitRequests(cctx, getUser, 4), context.Canceled)
}

func TestRequestLogKeepsTheMostRecent(t *testing.T) {
	srv, _ := start(t)
	h := srv.Handler()
	const n = 10000 + 5
	for i := range n {
		req := httptest.NewRequest("GET", fmt.Sprintf("/v3/users/u%d", i), nil)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	log := srv.Requests()
	require.Len(t, log, 10000)
	assert.Equal(t, "/v3/users/u5", log[0].Path)
	assert.Equal(t, fmt.Sprintf("/v3/users/u%d", n-1), log[len(log)-1].Path)
	assert.Equal(t, n, srv.RequestCount(getUser), "the count has no limit")
	assert.Equal(t, http.StatusUnauthorized, log[0].Status)
}

func ExampleServer_Requests() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()

	_, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice", WithAuthToken: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = client.AuthTokens.Create(context.Background(), "alice", &chat.CreateAuthTokenRequest{Force: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Route, r.Status, r.Header.Get("apikey"), r.Body)
	}
	// Output:
	// POST /v3/users POST /v3/users 200 REDACTED {"uid":"alice","name":"Alice","withAuthToken":true}
	// POST /v3/users/alice/auth_tokens POST /v3/users/{uid}/auth_tokens 200 REDACTED {"force":true}
}

// With many credentials known (an auth token for each of 100 users, past
// the few searched one by one), a token anywhere in a request is still
// redacted: in the path, the query, a header and the body.
func TestRequestLogRedactsAmongManyTokens(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	var tokens []string
	for i := range 100 {
		uid := fmt.Sprintf("user-%03d", i)
		seed(srv, uid)
		tok, err := client.AuthTokens.Create(ctx, uid, &chat.CreateAuthTokenRequest{})
		require.NoError(t, err)
		tokens = append(tokens, string(tok.AuthToken))
	}
	tok := tokens[57]
	req, err := http.NewRequest(http.MethodPost, srv.URL()+"/v3/users/user-057/auth_tokens/"+url.PathEscape(tok)+"?note="+url.QueryEscape("see "+tok),
		strings.NewReader(`{"note": "token `+tok+` here"}`))
	require.NoError(t, err)
	req.Header.Set("apikey", srv.APIKey())
	req.Header.Set("X-Trace", "trace "+tok)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	logged, err := json.Marshal(srv.Requests())
	require.NoError(t, err)
	for i, tok := range tokens {
		assert.NotContains(t, string(logged), tok, "token %d", i)
	}
	assert.Contains(t, string(logged), "trace REDACTED")
}
