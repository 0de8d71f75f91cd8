package chat_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// Credentials of the redirect tests, distinctive so that a test can tell
// where each one arrived.
const (
	redirAPIKey     = "redirect-test-api-key-0123456789"
	redirMgmtKey    = "redirect-test-mgmt-key-0123"
	redirMgmtSecret = "redirect-test-mgmt-secret-0123"
	redirBearer     = "Bearer redirect-test-bearer-0123"
)

// redirHeaders are the headers whose arrival the redirect tests follow:
// the credentials of both clients, a caller's Authorization and the
// acting user.
var redirHeaders = []string{"Apikey", "Key", "Secret", "Authorization", "onBehalfOf"}

// The chat client follows a GET's redirect to another host without the API
// key, the acting user or an Authorization header; on its own host with
// them all. It never follows a POST's or a PATCH's redirect, whose status
// it returns as a *chat.Error, stops a redirect loop, and once a redirect
// has left its host, does not send the credentials again even when a later
// redirect comes back.
func TestChatClientRedirects(t *testing.T) {
	h := wiretest.NewRedirectHosts(t, redirHeaders...)
	c, err := chat.NewClient("myapp", redirAPIKey, chat.WithBaseURL(h.Origin.URL), chat.WithInsecureLoopback())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	ctx := t.Context()
	creds := []chat.RequestOption{chat.OnBehalfOf("alice"), chat.WithHeader("Authorization", redirBearer)}
	withCreds := http.Header{"Apikey": {redirAPIKey}, "onBehalfOf": {"alice"}, "Authorization": {redirBearer}}

	t.Run("GET to another host arrives without credentials", func(t *testing.T) {
		h.Redirect("origin", "GET", "/v3/users/away", h.Other.URL+"/v3/users/moved")
		_, err := c.Users.Get(ctx, "away", creds...)
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "GET", Path: "/v3/users/away", Header: withCreds},
			{Host: "other", Method: "GET", Path: "/v3/users/moved", Header: http.Header{}},
		}, h.Take())
	})

	t.Run("DELETE to another host arrives without credentials", func(t *testing.T) {
		h.Redirect("origin", "DELETE", "/v3/users/away", h.Other.URL+"/v3/users/moved")
		_, err := c.Users.Delete(ctx, "away", nil, creds...)
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "DELETE", Path: "/v3/users/away", Header: withCreds},
			{Host: "other", Method: "DELETE", Path: "/v3/users/moved", Header: http.Header{}},
		}, h.Take())
	})

	t.Run("GET on the same host keeps the credentials", func(t *testing.T) {
		h.Redirect("origin", "GET", "/v3/users/nearby", "/v3/users/here")
		_, err := c.Users.Get(ctx, "nearby", creds...)
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "GET", Path: "/v3/users/nearby", Header: withCreds},
			{Host: "origin", Method: "GET", Path: "/v3/users/here", Header: withCreds},
		}, h.Take())
	})

	t.Run("back on the origin after another host, still without credentials", func(t *testing.T) {
		h.Redirect("origin", "GET", "/v3/users/bounce", h.Other.URL+"/v3/users/bounce")
		h.Redirect("other", "GET", "/v3/users/bounce", h.Origin.URL+"/v3/users/chosen-by-other")
		_, err := c.Users.Get(ctx, "bounce", creds...)
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "GET", Path: "/v3/users/bounce", Header: withCreds},
			{Host: "other", Method: "GET", Path: "/v3/users/bounce", Header: http.Header{}},
			{Host: "origin", Method: "GET", Path: "/v3/users/chosen-by-other", Header: http.Header{}},
		}, h.Take())
	})

	notFollowed := []struct {
		name, method, path string
		call               func() error
	}{
		{"POST", "POST", "/v3/messages", func() error {
			_, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Text: "hi"}}, creds...)
			return err
		}},
		{"PATCH", "PATCH", "/v3/notifications/v1/settings", func() error {
			_, err := c.Notifications.UpdateSettings(ctx, &chat.NotificationSettings{}, creds...)
			return err
		}},
	}
	for _, tt := range notFollowed {
		for _, to := range []string{"another host", "the same host"} {
			t.Run(tt.name+" to "+to+" is not followed", func(t *testing.T) {
				location := h.Other.URL + tt.path
				if to == "the same host" {
					location = tt.path + "-moved"
				}
				h.Redirect("origin", tt.method, tt.path, location)
				err := tt.call()
				var ce *chat.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, http.StatusTemporaryRedirect, ce.StatusCode)
				assert.Equal(t, tt.method, ce.Method)
				assert.Equal(t, tt.path, ce.Path)
				assert.Equal(t, 1, ce.Attempts, "a redirect is not retried")
				assert.Equal(t, []wiretest.Arrival{{Host: "origin", Method: tt.method, Path: tt.path, Header: withCreds}}, h.Take())
			})
		}
	}

	t.Run("a redirect loop stops", func(t *testing.T) {
		h.Redirect("origin", "GET", "/v3/users/loop", "/v3/users/loop")
		_, err := c.Users.Get(ctx, "loop")
		require.ErrorContains(t, err, "redirect refused: stopped after 10 redirects")
		assert.NotContains(t, err.Error(), redirAPIKey)
		var ce *chat.Error
		assert.False(t, errors.As(err, &ce), "a transport error, not an API error")
		// The first request and 9 redirects (net/http's limit of 10
		// requests), once: a loop is not retried under the default policy.
		assert.Len(t, h.Take(), 10)
	})
}

// The management client follows a GET's redirect to another host without
// its key and secret, keeps them on its own host, and never follows the
// redirect of a POST (adding a tenant with Basic auth included) or a
// PATCH.
func TestManagementClientRedirects(t *testing.T) {
	h := wiretest.NewRedirectHosts(t, redirHeaders...)
	mc, err := management.NewClient(redirMgmtKey, redirMgmtSecret, chat.WithBaseURL(h.Origin.URL),
		chat.WithInsecureLoopback())
	require.NoError(t, err)
	t.Cleanup(mc.CloseIdleConnections)
	ctx := t.Context()
	withCreds := http.Header{"Key": {redirMgmtKey}, "Secret": {redirMgmtSecret}}
	auth := chat.WithHeader("Authorization", redirBearer)
	withAuth := http.Header{"Key": {redirMgmtKey}, "Secret": {redirMgmtSecret}, "Authorization": {redirBearer}}

	t.Run("GET to another host arrives without credentials", func(t *testing.T) {
		h.Redirect("origin", "GET", "/apps/app1/webhooks/away", h.Other.URL+"/apps/app1/webhooks/moved")
		_, err := mc.Webhooks.Get(ctx, "app1", "away", auth)
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "GET", Path: "/apps/app1/webhooks/away", Header: withAuth},
			{Host: "other", Method: "GET", Path: "/apps/app1/webhooks/moved", Header: http.Header{}},
		}, h.Take())
	})

	t.Run("GET on the same host keeps the credentials", func(t *testing.T) {
		h.Redirect("origin", "GET", "/apps/app1/webhooks/nearby", "/apps/app1/webhooks/here")
		_, err := mc.Webhooks.Get(ctx, "app1", "nearby")
		require.NoError(t, err)
		assert.Equal(t, []wiretest.Arrival{
			{Host: "origin", Method: "GET", Path: "/apps/app1/webhooks/nearby", Header: withCreds},
			{Host: "origin", Method: "GET", Path: "/apps/app1/webhooks/here", Header: withCreds},
		}, h.Take())
	})

	basic := "Basic " + base64Credentials(redirMgmtKey, redirMgmtSecret)
	notFollowed := []struct {
		name, method, path string
		sent               http.Header
		call               func() error
	}{
		{"POST", "POST", "/apps/app1/webhooks", withCreds, func() error {
			_, err := mc.Webhooks.Create(ctx, "app1", &management.CreateWebhookRequest{ID: "hook", Name: "hook",
				URL: "https://example.com/hook", UseBasicAuth: true, Username: "u", Password: "p"})
			return err
		}},
		{"POST with Basic auth", "POST", "/tenants", http.Header{"Authorization": {basic}}, func() error {
			_, err := mc.Tenants.Add(ctx, &management.AddTenantRequest{Name: "n", Email: "e@example.com", Password: "pw",
				AppName: "a", AppRegion: chat.RegionEU})
			return err
		}},
		{"PATCH", "PATCH", "/apps/app1/moderation/blocked-messages/m1", withCreds, func() error {
			//lint:ignore SA1019 the management API's only PATCH is this deprecated one
			_, err := mc.Moderation.ReviewBlockedMessage(ctx, "app1", "m1", &chat.ReviewBlockedMessageRequest{Status: "approved"})
			return err
		}},
	}
	for _, tt := range notFollowed {
		t.Run(tt.name+" is not followed", func(t *testing.T) {
			h.Redirect("origin", tt.method, tt.path, h.Other.URL+tt.path)
			err := tt.call()
			var ce *chat.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, http.StatusTemporaryRedirect, ce.StatusCode)
			assert.Equal(t, tt.method, ce.Method)
			assert.Equal(t, []wiretest.Arrival{{Host: "origin", Method: tt.method, Path: tt.path, Header: tt.sent}}, h.Take())
			assert.NotContains(t, err.Error(), redirMgmtSecret)
		})
	}

	t.Run("a redirect loop stops", func(t *testing.T) {
		h.Redirect("origin", "GET", "/apps/app1/webhooks/loop", h.Origin.URL+"/apps/app1/webhooks/loop")
		_, err := mc.Webhooks.Get(ctx, "app1", "loop")
		require.ErrorContains(t, err, "redirect refused: stopped after 10 redirects")
		assert.Len(t, h.Take(), 10)
	})
}

// base64Credentials is the Basic auth credential of user and password.
func base64Credentials(user, password string) string {
	r, _ := http.NewRequestWithContext(context.Background(), "GET", "http://x", nil)
	r.SetBasicAuth(user, password)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

// TestRedirectNeverDowngradesToHTTP serves the API over https and answers
// with redirects to a plain http listener on loopback, for a GET and for a
// PUT whose body carries a provider's secret, in the chat and management
// clients: nothing ever arrives over plain http, and the call fails with
// a transport error that shows no credential.
func TestRedirectNeverDowngradesToHTTP(t *testing.T) {
	const twilioToken = "twilio-auth-token-downgrade-0123"
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"uid":"u1"}}`)
	}))
	t.Cleanup(plain.Close)
	var tlsHits atomic.Int32
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tlsHits.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Location", plain.URL+r.URL.Path)
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	t.Cleanup(api.Close)

	c, err := chat.NewClient("myapp", redirAPIKey, chat.WithBaseURL(api.URL), chat.WithHTTPClient(api.Client()), fastRetries)
	require.NoError(t, err)
	mc, err := management.NewClient(redirMgmtKey, redirMgmtSecret, chat.WithBaseURL(api.URL),
		chat.WithHTTPClient(api.Client()), chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	require.NoError(t, err)
	ctx := t.Context()
	for name, call := range map[string]func() error{
		"GET": func() error { _, err := c.Users.Get(ctx, "u1"); return err },
		"PUT with a provider's secret": func() error {
			_, err := c.Notifications.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "sid", TwilioAuthToken: twilioToken})
			return err
		},
		"management GET": func() error { _, err := mc.Webhooks.Get(ctx, "app1", "hook"); return err },
		"management PUT with a password": func() error {
			pw := chat.Secret("webhook-password-downgrade-0123")
			_, err := mc.Webhooks.Update(ctx, "app1", "hook", &management.UpdateWebhookRequest{Password: &pw})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			tlsHits.Store(0)
			err := call()
			require.ErrorContains(t, err, "redirect refused: http:// is not https")
			var ce *chat.Error
			assert.False(t, errors.As(err, &ce), "a transport error, not an API error")
			assert.Equal(t, int32(1), tlsHits.Load(), "a refused redirect is not retried")
			for _, secret := range []string{redirAPIKey, redirMgmtKey, redirMgmtSecret, twilioToken} {
				assert.NotContains(t, fmt.Sprintf("%v %+v %#v", err, err, err), secret)
			}
		})
	}
	assert.Zero(t, plainHits.Load(), "requests arrived over plain http")
}

// TestHostileRedirects answers hostile-server calls with redirects to plain
// http, of reads and of writes whose body carries a secret, and with other
// redirects beside them: no request reaches the plain-http listener. Every
// scenario asserts all of the promises of hostileEnv.check.
func TestHostileRedirects(t *testing.T) { runHostile(t, hostileDowngrades()) }

// hostileDowngrades is TestHostileRedirects's part of the hostile-server table.
func hostileDowngrades() hostileSection {
	s := hostileSection{title: "https downgrade (class 2): redirects to plain http, of reads and of writes whose body carries a secret; " +
		"other redirects beside them", test: "TestHostileRedirects (redirect_test.go)"}
	add := s.add
	for _, status := range []int{301, 302, 303, 307, 308} {
		add(hostileScenario{Call: "Users.Get", Status: status, Body: bodyOK, Location: locPlainHTTP})
	}
	for _, name := range []string{"Groups.Update", "Notifications.UpdateTwilioProvider", "management Webhooks.Update", "Users.Delete"} {
		for _, status := range []int{307, 308} {
			add(hostileScenario{Call: name, Status: status, Body: bodyOK, Location: locPlainHTTP})
		}
	}
	for _, name := range []string{"AuthTokens.Get", "Users.All", "Messages.All", "Users.List"} {
		add(hostileScenario{Call: name, Status: 302, Body: bodyOK, Location: locPlainHTTPEcho, Variant: 4})
	}
	add(hostileScenario{Call: "Users.Get", Status: 301, Body: bodyOK, Location: locPlainUpper},
		hostileScenario{Call: "Groups.Update", Status: 308, Body: bodyEcho, Location: locPlainHTTPEcho, Variant: 4},
		hostileScenario{Call: "Messages.Send", Status: 307, Body: bodyOK, Location: locPlainHTTP},
		hostileScenario{Call: "Users.Get", Status: 302, Body: bodyOK, Location: locOtherHTTPS},
		hostileScenario{Call: "Groups.Update", Status: 307, Body: bodyOK, Location: locOtherHTTPS},
		hostileScenario{Call: "Users.Get", Status: 302, Body: bodyOK, Location: locSameHost},
		hostileScenario{Call: "Users.Get", Status: 302, Body: bodyOK, Location: locLoop},
		hostileScenario{Call: "AuthTokens.Get", Status: 302, Body: bodyOK, Location: locGarbage, Variant: 4},
		hostileScenario{Call: "Users.Get", Status: 302, Body: bodyOK, Location: locGarbage, Variant: 1})
	return s
}

// TestRedirects uses two loopback servers: a redirect to another host must
// not carry the API key or the acting user, and a POST is never redirected.
func TestRedirects(t *testing.T) {
	type seen struct {
		path, apikey, onBehalfOf string
		hasAPIKey                bool
	}
	var mu sync.Mutex
	var atOther, atOrigin []seen
	record := func(list *[]seen, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_, has := r.Header["Apikey"]
		*list = append(*list, seen{r.URL.Path, r.Header.Get("apikey"), r.Header.Get("onBehalfOf"), has})
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(&atOther, r)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"uid":"moved","name":"Moved"}}`)
	}))
	t.Cleanup(other.Close)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(&atOrigin, r)
		switch r.URL.Path {
		case "/v3/users/away", "/v3/messages":
			w.Header().Set("Location", other.URL+r.URL.Path)
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "/v3/users/nearby":
			http.Redirect(w, r, "/v3/users/here", http.StatusFound)
		case "/v3/users/here":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"data":{"uid":"here"}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(origin.Close)

	c, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL(origin.URL), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	reset := func() {
		mu.Lock()
		defer mu.Unlock()
		atOther, atOrigin = nil, nil
	}

	t.Run("GET to another host drops the credentials", func(t *testing.T) {
		reset()
		u, err := c.Users.Get(context.Background(), "away", chat.OnBehalfOf("cometchat-uid-1"))
		require.NoError(t, err)
		assert.Equal(t, "moved", u.UID)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, atOrigin, 1)
		assert.Equal(t, wiretest.APIKey, atOrigin[0].apikey)
		assert.Equal(t, "cometchat-uid-1", atOrigin[0].onBehalfOf)
		require.Len(t, atOther, 1)
		assert.Equal(t, "/v3/users/away", atOther[0].path)
		assert.False(t, atOther[0].hasAPIKey, "apikey sent to another host")
		assert.Empty(t, atOther[0].onBehalfOf, "onBehalfOf sent to another host")
	})

	t.Run("GET on the same host keeps the credentials", func(t *testing.T) {
		reset()
		u, err := c.Users.Get(context.Background(), "nearby")
		require.NoError(t, err)
		assert.Equal(t, "here", u.UID)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, atOrigin, 2)
		assert.Equal(t, "/v3/users/here", atOrigin[1].path)
		assert.Equal(t, wiretest.APIKey, atOrigin[1].apikey)
		assert.Empty(t, atOther)
	})

	t.Run("POST is not redirected", func(t *testing.T) {
		reset()
		msg, err := c.Messages.Send(context.Background(), &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}})
		assert.Nil(t, msg)
		ce := wiretest.RequireAPIError(t, err)
		assert.Equal(t, http.StatusTemporaryRedirect, ce.StatusCode)
		assert.Equal(t, http.MethodPost, ce.Method)
		mu.Lock()
		defer mu.Unlock()
		assert.Len(t, atOrigin, 1)
		assert.Empty(t, atOther, "the POST followed the redirect")
	})
}
