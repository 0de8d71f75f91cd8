package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// The app and key every mock client uses. The key has the shape of a real
// one (40 hex characters) so that a leak would be recognisable.
const (
	testAppID    = "myapp"
	testAPIKey   = "f1915e328e249ffaaafd97fb46a57ba55d233fbf"
	testHost     = "myapp.api-us.cometchat.io"
	testCallHost = "myapp.call-us.cometchat.io"
)

// mockAPI is a chat client whose requests go to the wire harness's mock
// transport. Retries are off unless opts turn them on.
type mockAPI struct {
	*wiretest.Mock
	client *chat.Client
}

// newMockAPI returns a client for testAppID/testAPIKey over a mock
// transport that answers 200 until told otherwise.
func newMockAPI(t testing.TB, opts ...chat.Option) *mockAPI {
	t.Helper()
	m := &mockAPI{Mock: wiretest.New(t)}
	all := append([]chat.Option{chat.WithoutRetries()}, opts...)
	c, err := chat.NewClient(testAppID, testAPIKey, append(all, chat.WithHTTPClient(m.HTTPClient()))...)
	require.NoError(t, err)
	m.client = c
	return m
}

// wire is the chat client as the wire harness drives it: a client over a
// fresh mock, its requests to the app's host (the Calls API's for
// /v3/calls), each with its API key.
var wire = wiretest.Harness[*chat.Client]{
	New: func(t testing.TB) (*wiretest.Mock, *chat.Client) {
		m := newMockAPI(t)
		return m.Mock, m.client
	},
	Host:        chatHost,
	Credentials: map[string]string{"apikey": testAPIKey},
}

// chatHost is the host a request to path goes to.
func chatHost(escapedPath string) string {
	if strings.HasPrefix(escapedPath, "/v3/calls") {
		return testCallHost // the Calls API's own address
	}
	return testHost
}

// wholeClient is the service of wiretest.RunArgs for calls made on the client.
func wholeClient(c *chat.Client) *chat.Client { return c }

// decodeBody decodes a request body into a generic map.
func decodeBody(t *testing.T, r wiretest.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), "body %q", r.Body)
	return m
}

func TestNewClientValidation(t *testing.T) {
	tests := []struct {
		name     string
		appID    string
		apiKey   string
		opts     []chat.Option
		wantName string // "" means NewClient succeeds
	}{
		{name: "valid", appID: "myapp", apiKey: testAPIKey},
		{name: "valid with hyphens and digits", appID: "my-app-42", apiKey: testAPIKey},
		{name: "63 characters", appID: strings.Repeat("a", 63), apiKey: testAPIKey},
		{name: "empty appID", appID: "", apiKey: testAPIKey, wantName: "appID"},
		{name: "dots in appID", appID: "evil.com", apiKey: testAPIKey, wantName: "appID"},
		{name: "slash in appID", appID: "my/app", apiKey: testAPIKey, wantName: "appID"},
		{name: "at sign in appID", appID: "me@evil", apiKey: testAPIKey, wantName: "appID"},
		{name: "colon in appID", appID: "evil:443", apiKey: testAPIKey, wantName: "appID"},
		{name: "question mark in appID", appID: "app?x", apiKey: testAPIKey, wantName: "appID"},
		{name: "hash in appID", appID: "app#x", apiKey: testAPIKey, wantName: "appID"},
		{name: "space in appID", appID: "my app", apiKey: testAPIKey, wantName: "appID"},
		{name: "unicode in appID", appID: "äpp", apiKey: testAPIKey, wantName: "appID"},
		{name: "64 characters", appID: strings.Repeat("a", 64), apiKey: testAPIKey, wantName: "appID"},
		{name: "leading hyphen", appID: "-app", apiKey: testAPIKey, wantName: "appID"},
		{name: "trailing hyphen", appID: "app-", apiKey: testAPIKey, wantName: "appID"},
		{name: "empty apiKey", appID: "myapp", apiKey: "", wantName: "apiKey"},
		{name: "apiKey with a newline", appID: "myapp", apiKey: testAPIKey + "\r\nX-Evil: 1", wantName: "apiKey"},
		{name: "region eu", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithRegion(chat.RegionEU)}},
		{name: "region xx", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithRegion("xx")}, wantName: "region"},
		{name: "region upper case", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithRegion("US")}, wantName: "region"},
		{name: "empty region", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithRegion("")}, wantName: "region"},
		{name: "negative retries", appID: "myapp", apiKey: testAPIKey,
			opts: []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: -1})}, wantName: "options"},
		{name: "negative timeout", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithTimeout(-time.Second)}, wantName: "options"},
		{name: "negative max response bytes", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{chat.WithMaxResponseBytes(-1)}, wantName: "options"},
		{name: "nil option is ignored", appID: "myapp", apiKey: testAPIKey, opts: []chat.Option{nil}},
	}
	baseURLs := []struct {
		url      string
		loopback bool
		ok       bool
	}{
		{"https://127.0.0.1:8443", false, true},
		{"https://proxy.example.com/chat", false, true},
		{"http://127.0.0.1:8080", false, false},
		{"http://localhost:8080", false, false},
		{"http://127.0.0.1:8080", true, true},
		{"http://127.9.9.9:8080", true, true},
		{"http://localhost:8080", true, true},
		{"http://LOCALHOST", true, true},
		{"http://[::1]:8080", true, true},
		{"http://example.com", true, false},
		{"http://localhost.example.com", true, false},
		{"http://127.0.0.1.nip.io", true, false},
		{"http://10.0.0.1", true, false},
		{"https://example.com?x=1", false, false},
		{"https://example.com/?", false, false},
		{"https://example.com#frag", false, false},
		{"https://user:pass@example.com", false, false},
		{"https://user@example.com", false, false},
		{"ftp://example.com", false, false},
		{"example.com", false, false},
		{"/v3", false, false},
		{"https://", false, false},
		{"://nope", false, false},
	}
	for _, b := range baseURLs {
		tt := struct {
			name     string
			appID    string
			apiKey   string
			opts     []chat.Option
			wantName string
		}{name: fmt.Sprintf("baseURL %s loopback=%v", b.url, b.loopback), appID: "myapp", apiKey: testAPIKey,
			opts: []chat.Option{chat.WithBaseURL(b.url)}}
		if b.loopback {
			tt.opts = append(tt.opts, chat.WithInsecureLoopback())
		}
		if !b.ok {
			tt.wantName = "baseURL"
		}
		tests = append(tests, tt)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := chat.NewClient(tt.appID, tt.apiKey, tt.opts...)
			if tt.wantName == "" {
				require.NoError(t, err)
				require.NotNil(t, c)
				return
			}
			assert.Nil(t, c)
			ae := wiretest.RequireArgError(t, err, tt.wantName)
			assert.NotEmpty(t, ae.Problem)
			if tt.apiKey != "" {
				assert.NotContains(t, err.Error(), tt.apiKey, "the error shows the key")
			}
		})
	}
}

func TestClientAddresses(t *testing.T) {
	for _, region := range []chat.Region{chat.RegionUS, chat.RegionEU, chat.RegionIN} {
		t.Run(string(region), func(t *testing.T) {
			m := newMockAPI(t, chat.WithRegion(region))
			c := m.client
			assert.Equal(t, "https://myapp.api-"+string(region)+".cometchat.io/v3", c.BaseURL())
			assert.Equal(t, "https://myapp.call-"+string(region)+".cometchat.io/v3", c.CallsBaseURL())
			assert.Equal(t, region, c.Region())
			assert.Equal(t, "myapp", c.AppID())

			_, err := c.Users.Get(context.Background(), "u1")
			require.NoError(t, err)
			r := m.Only()
			assert.Equal(t, "https", r.Scheme)
			assert.Equal(t, "myapp.api-"+string(region)+".cometchat.io", r.Host)
			assert.Equal(t, "/v3/users/u1", r.Path)
		})
	}

	t.Run("default region is us", func(t *testing.T) {
		c, err := chat.NewClient("myapp", testAPIKey)
		require.NoError(t, err)
		assert.Equal(t, chat.RegionUS, c.Region())
		assert.Equal(t, "https://myapp.api-us.cometchat.io/v3", c.BaseURL())
	})

	tests := []struct {
		name      string
		baseURL   string
		opts      []chat.Option
		wantBase  string
		wantURL   string // scheme://host/path of a threaded reply
		wantError string // Error.Path of a failed call
	}{
		{"loopback https with a port", "https://127.0.0.1:8443", nil,
			"https://127.0.0.1:8443/v3", "https://127.0.0.1:8443/v3/messages/42/thread", "/v3/messages/42/thread"},
		{"trailing slash", "https://127.0.0.1:8443/", nil,
			"https://127.0.0.1:8443/v3", "https://127.0.0.1:8443/v3/messages/42/thread", "/v3/messages/42/thread"},
		{"path prefix", "https://proxy.example.com/chat/", nil,
			"https://proxy.example.com/chat/v3", "https://proxy.example.com/chat/v3/messages/42/thread", "/chat/v3/messages/42/thread"},
		{"plain http on loopback", "http://localhost:9000", []chat.Option{chat.WithInsecureLoopback()},
			"http://localhost:9000/v3", "http://localhost:9000/v3/messages/42/thread", "/v3/messages/42/thread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t, append([]chat.Option{chat.WithBaseURL(tt.baseURL)}, tt.opts...)...)
			assert.Equal(t, tt.wantBase, m.client.BaseURL())
			assert.Equal(t, tt.wantBase, m.client.CallsBaseURL())

			m.Reply(http.StatusOK, `{"data":{"id":"43","parentId":"42"}}`)
			_, err := m.client.Messages.SendThread(context.Background(), "42", "cometchat-uid-2", &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			require.NoError(t, err)
			r := m.Only()
			assert.Equal(t, tt.wantURL, r.Scheme+"://"+r.Host+r.Path)

			m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MSG_NOT_FOUND"}}`)
			_, err = m.client.Messages.SendThread(context.Background(), "42", "cometchat-uid-2", &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			assert.Equal(t, tt.wantError, wiretest.RequireAPIError(t, err).Path)
		})
	}
}

func TestUserAgent(t *testing.T) {
	tests := []struct {
		name string
		opts []chat.Option
		want string
	}{
		{"default", nil, "chat-go/" + chat.Version},
		{"WithUserAgent", []chat.Option{chat.WithUserAgent("myapp/2.0 (+https://example.com)")}, "myapp/2.0 (+https://example.com)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t, tt.opts...)
			_, err := m.client.Users.Get(context.Background(), "u1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, m.Only().Header.Get("User-Agent"))
		})
	}
	assert.NotEmpty(t, chat.Version)
}

func TestRequestHeaderOption(t *testing.T) {
	m := newMockAPI(t)
	_, err := m.client.Users.Get(context.Background(), "u1", chat.WithHeader("X-Request-Id", "req-1"))
	require.NoError(t, err)
	assert.Equal(t, "req-1", m.Only().Header.Get("X-Request-Id"))

	_, err = m.client.Users.Get(context.Background(), "u1", chat.WithHeader("X-Evil", "a\r\nb"))
	wiretest.RequireArgError(t, err, "header X-Evil")
	assert.Equal(t, 1, m.Calls(), "a request was sent with a bad header")
}

// TestRequestHeaderNames sends headers whose names HTTP does not allow
// through a real transport: each is an argument error before anything is
// sent, not a transport failure retried with backoff.
func TestRequestHeaderNames(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":{"uid":"u1"}}`)
	}))
	t.Cleanup(srv.Close)
	tr := chat.NewTransport()
	t.Cleanup(tr.CloseIdleConnections)
	counter := &countingTransport{rt: tr}
	client, err := chat.NewClient("myapp", testAPIKey, chat.WithBaseURL(srv.URL), chat.WithInsecureLoopback(),
		chat.WithHTTPClient(&http.Client{Transport: counter}), fastRetries)
	require.NoError(t, err)

	for _, name := range []string{"X Bad", "X-Bad\r\nInjected: 1", "X-Bad\n", "", "X-Colon:", "X-Tab\t", "Ünicode", "X-Nul\x00"} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			_, err := client.Users.Get(context.Background(), "u1", chat.WithHeader(name, "v"))
			wiretest.RequireArgError(t, err, "header")
			assert.Zero(t, counter.n.Load(), "round trips")
		})
	}
	_, err = client.Users.Get(context.Background(), "u1", chat.WithHeader("X-Trace_ID.v2", "v"))
	require.NoError(t, err, "a name of token characters is sent")
	assert.Equal(t, int32(1), counter.n.Load())
}

func TestClientFormat(t *testing.T) {
	m := newMockAPI(t)
	c := m.client
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%q", "%x"} {
		for name, v := range map[string]any{"pointer": c, "value": *c, "services": c.Users} {
			t.Run(verb+" "+name, func(t *testing.T) {
				out := fmt.Sprintf(verb, v)
				assert.NotContains(t, out, testAPIKey)
				assert.NotContains(t, strings.ToLower(out), fmt.Sprintf("%x", testAPIKey[:20]))
			})
		}
	}
	assert.Equal(t, `chat.Client{AppID: "myapp", Region: "us", BaseURL: "https://myapp.api-us.cometchat.io/v3"}`, c.String())
	assert.Equal(t, c.String(), fmt.Sprintf("%#v", c))
	assert.Equal(t, c.String(), fmt.Sprintf("%d", c))
}

func TestLogger(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := newMockAPI(t, chat.WithLogger(logger),
		chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	m.Serve(func(attempt int, req *http.Request) (*http.Response, error) {
		switch attempt {
		case 1:
			return nil, fmt.Errorf("proxy refused %s: %w", req.URL, syscall.ECONNRESET)
		case 2:
			return wiretest.JSONResponse(http.StatusServiceUnavailable, `{"error":{"code":"ERR_X","message":"key `+testAPIKey+`"}}`), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":`+authTokenJSON+`}`), nil
	})

	const actingUser = "acting-user-77"
	_, err := m.client.AuthTokens.Get(context.Background(), "cometchat-uid-1", testToken, chat.OnBehalfOf(actingUser))
	require.NoError(t, err)
	assert.Equal(t, 3, m.Calls())

	mu.Lock()
	out := buf.String()
	mu.Unlock()
	assert.Contains(t, out, "chat: request")
	assert.Contains(t, out, "chat: attempt")
	assert.Contains(t, out, "chat: response")
	assert.Contains(t, out, "method=GET")
	assert.Contains(t, out, "auth_tokens/REDACTED")
	assert.Contains(t, out, "status=503")
	assert.Contains(t, out, "status=200")
	assert.Contains(t, out, "attempt=3")
	assert.Contains(t, out, "onBehalfOf=true")
	assert.NotContains(t, out, testAPIKey)
	assert.NotContains(t, out, testToken)
	assert.NotContains(t, out, testTokenTail)
	assert.NotContains(t, out, actingUser, "the log shows the acting user")
}

func TestLoggerAboveDebugLogsNothing(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	m := newMockAPI(t, chat.WithLogger(logger), fastRetries)
	m.Reply(http.StatusServiceUnavailable, `{}`)
	_, err := m.client.Users.Get(context.Background(), "u1")
	require.ErrorIs(t, err, chat.ErrServer)
	assert.Equal(t, 4, m.Calls())
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, buf.String())
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestNoLoggerLogsNothing checks that a client without WithLogger writes
// nothing to the default loggers, even on retries and failures.
func TestNoLoggerLogsNothing(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	w := &lockedWriter{w: &buf, mu: &mu}
	oldSlog := slog.Default()
	oldFlags, oldOut := log.Flags(), log.Writer()
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.SetOutput(w)
	t.Cleanup(func() {
		slog.SetDefault(oldSlog)
		log.SetOutput(oldOut)
		log.SetFlags(oldFlags)
	})

	m := newMockAPI(t, chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	m.Reply(http.StatusServiceUnavailable, `{"error":{"code":"ERR_X"}}`)
	_, err := m.client.Users.Get(context.Background(), "u1")
	require.ErrorIs(t, err, chat.ErrServer)
	m.Serve(func(int, *http.Request) (*http.Response, error) { return nil, syscall.ECONNREFUSED })
	_, err = m.client.Users.Get(context.Background(), "u1")
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.Equal(t, 6, m.Calls())

	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, buf.String())
}

func TestTimeout(t *testing.T) {
	blockUntilDone := func(_ int, req *http.Request) (*http.Response, error) {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	tests := []struct {
		name string
		call func(c *chat.Client) error
	}{
		{"GET", func(c *chat.Client) error { _, err := c.Users.Get(context.Background(), "u1"); return err }},
		{"POST", func(c *chat.Client) error {
			_, err := c.Messages.Send(context.Background(), &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t, chat.WithTimeout(20*time.Millisecond),
				chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
			m.Serve(blockUntilDone)
			err := tt.call(m.client)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, 1, m.Calls(), "retried after the call's time was up")
		})
	}

	t.Run("a call's own deadline", func(t *testing.T) {
		m := newMockAPI(t)
		m.Serve(blockUntilDone)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := m.client.Users.Get(ctx, "u1")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})

	t.Run("fast calls are unaffected", func(t *testing.T) {
		m := newMockAPI(t, chat.WithTimeout(time.Minute))
		m.Reply(http.StatusOK, `{"data":{"uid":"u1"}}`)
		u, err := m.client.Users.Get(context.Background(), "u1")
		require.NoError(t, err)
		assert.Equal(t, "u1", u.UID)
	})
}

func TestMaxResponseBytes(t *testing.T) {
	const limit = 64
	fits := `{"data":{"uid":"u1","name":"` + strings.Repeat("x", limit-len(`{"data":{"uid":"u1","name":""}}`)) + `"}}`
	require.Len(t, fits, limit)
	tests := []struct {
		name       string
		status     int
		body       string
		wantErr    bool
		wantStatus int
	}{
		{"exactly at the limit", http.StatusOK, fits, false, 0},
		{"one byte over", http.StatusOK, fits + " ", true, http.StatusOK},
		{"far over", http.StatusOK, `{"data":{"uid":"u1","name":"` + strings.Repeat("x", 1<<20) + `"}}`, true, http.StatusOK},
		{"an error page far over", http.StatusBadRequest, strings.Repeat("<html>", 1<<16), true, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t, chat.WithMaxResponseBytes(limit))
			m.Reply(tt.status, tt.body)
			u, err := m.client.Users.Get(context.Background(), "u1")
			if !tt.wantErr {
				require.NoError(t, err)
				assert.Equal(t, "u1", u.UID)
				return
			}
			assert.Nil(t, u)
			ce := wiretest.RequireAPIError(t, err)
			assert.Equal(t, tt.wantStatus, ce.StatusCode)
			if tt.status == http.StatusOK {
				assert.Contains(t, ce.Message, "exceeds 64 bytes")
				assert.EqualError(t, ce.Unwrap(), "response body exceeds 64 bytes")
			}
		})
	}
}

// TestHTTPClientNotModified checks that the SDK honours but does not change
// the *http.Client it is given.
func TestHTTPClientNotModified(t *testing.T) {
	calledRedirect := false
	mt := httpmock.NewMockTransport()
	hc := &http.Client{Transport: mt, CheckRedirect: func(*http.Request, []*http.Request) error {
		calledRedirect = true
		return errors.New("no redirects here")
	}}
	check := hc.CheckRedirect
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == "/v3/users/u1" {
			resp := httpmock.NewStringResponse(http.StatusFound, "")
			resp.Header.Set("Location", "/v3/users/u2")
			return resp, nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"u2"}}`), nil
	})
	c, err := chat.NewClient("myapp", testAPIKey, chat.WithHTTPClient(hc), chat.WithoutRetries())
	require.NoError(t, err)
	assert.Same(t, mt, hc.Transport.(*httpmock.MockTransport), "transport replaced")
	assert.Equal(t, reflect.ValueOf(check).Pointer(), reflect.ValueOf(hc.CheckRedirect).Pointer(), "CheckRedirect replaced")

	_, err = c.Users.Get(context.Background(), "u1")
	require.ErrorContains(t, err, "no redirects here")
	assert.True(t, calledRedirect, "the client's own CheckRedirect was not called")
}

// A service made by hand, not taken from a Client, has nothing to send
// through: its methods return ErrNoClient instead of panicking.
func TestServiceWithoutClient(t *testing.T) {
	_, err := (&chat.UsersService{}).Get(context.Background(), "alice")
	require.ErrorIs(t, err, chat.ErrNoClient)
	_, err = (&chat.GroupsService{}).List(context.Background(), nil)
	require.ErrorIs(t, err, chat.ErrNoClient)
	assert.Equal(t, "chat: no client: use the services of a Client made by NewClient", err.Error())
}
