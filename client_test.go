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
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

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
		{name: "valid", appID: "myapp", apiKey: wiretest.APIKey},
		{name: "valid with hyphens and digits", appID: "my-app-42", apiKey: wiretest.APIKey},
		{name: "63 characters", appID: strings.Repeat("a", 63), apiKey: wiretest.APIKey},
		{name: "empty appID", appID: "", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "dots in appID", appID: "evil.com", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "slash in appID", appID: "my/app", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "at sign in appID", appID: "me@evil", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "colon in appID", appID: "evil:443", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "question mark in appID", appID: "app?x", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "hash in appID", appID: "app#x", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "space in appID", appID: "my app", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "unicode in appID", appID: "äpp", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "64 characters", appID: strings.Repeat("a", 64), apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "leading hyphen", appID: "-app", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "trailing hyphen", appID: "app-", apiKey: wiretest.APIKey, wantName: "appID"},
		{name: "empty apiKey", appID: "myapp", apiKey: "", wantName: "apiKey"},
		{name: "apiKey with a newline", appID: "myapp", apiKey: wiretest.APIKey + "\r\nX-Evil: 1", wantName: "apiKey"},
		{name: "region eu", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithRegion(chat.RegionEU)}},
		{name: "region xx", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithRegion("xx")}, wantName: "region"},
		{name: "region upper case", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithRegion("US")}, wantName: "region"},
		{name: "empty region", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithRegion("")}, wantName: "region"},
		{name: "negative retries", appID: "myapp", apiKey: wiretest.APIKey,
			opts: []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: -1})}, wantName: "options"},
		{name: "negative timeout", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithTimeout(-time.Second)}, wantName: "options"},
		{name: "negative max response bytes", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{chat.WithMaxResponseBytes(-1)}, wantName: "options"},
		{name: "nil option is ignored", appID: "myapp", apiKey: wiretest.APIKey, opts: []chat.Option{nil}},
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
		}{name: fmt.Sprintf("baseURL %s loopback=%v", b.url, b.loopback), appID: "myapp", apiKey: wiretest.APIKey,
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
			client, m := wiretest.Chat(t, chat.WithRegion(region))
			c := client
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
		c, err := chat.NewClient("myapp", wiretest.APIKey)
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
			client, m := wiretest.Chat(t, append([]chat.Option{chat.WithBaseURL(tt.baseURL)}, tt.opts...)...)
			assert.Equal(t, tt.wantBase, client.BaseURL())
			assert.Equal(t, tt.wantBase, client.CallsBaseURL())

			m.Reply(http.StatusOK, `{"data":{"id":"43","parentId":"42"}}`)
			_, err := client.Messages.SendThread(context.Background(), "42", "cometchat-uid-2", &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
			require.NoError(t, err)
			r := m.Only()
			assert.Equal(t, tt.wantURL, r.Scheme+"://"+r.Host+r.Path)

			m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MSG_NOT_FOUND"}}`)
			_, err = client.Messages.SendThread(context.Background(), "42", "cometchat-uid-2", &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser})
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
			client, m := wiretest.Chat(t, tt.opts...)
			_, err := client.Users.Get(context.Background(), "u1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, m.Only().Header.Get("User-Agent"))
		})
	}
	assert.NotEmpty(t, chat.Version)
}

func TestRequestHeaderOption(t *testing.T) {
	client, m := wiretest.Chat(t)
	_, err := client.Users.Get(context.Background(), "u1", chat.WithHeader("X-Request-Id", "req-1"))
	require.NoError(t, err)
	assert.Equal(t, "req-1", m.Only().Header.Get("X-Request-Id"))

	_, err = client.Users.Get(context.Background(), "u1", chat.WithHeader("X-Evil", "a\r\nb"))
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
	client, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL(srv.URL), chat.WithInsecureLoopback(),
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
	client, _ := wiretest.Chat(t)
	c := client
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%q", "%x"} {
		for name, v := range map[string]any{"pointer": c, "value": *c, "services": c.Users} {
			t.Run(verb+" "+name, func(t *testing.T) {
				out := fmt.Sprintf(verb, v)
				assert.NotContains(t, out, wiretest.APIKey)
				assert.NotContains(t, strings.ToLower(out), fmt.Sprintf("%x", wiretest.APIKey[:20]))
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
	client, m := wiretest.Chat(t, chat.WithLogger(logger),
		chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	m.Serve(func(attempt int, req *http.Request) (*http.Response, error) {
		switch attempt {
		case 1:
			return nil, fmt.Errorf("proxy refused %s: %w", req.URL, syscall.ECONNRESET)
		case 2:
			return wiretest.JSONResponse(http.StatusServiceUnavailable, `{"error":{"code":"ERR_X","message":"key `+wiretest.APIKey+`"}}`), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":`+authTokenJSON+`}`), nil
	})

	const actingUser = "acting-user-77"
	_, err := client.AuthTokens.Get(context.Background(), "cometchat-uid-1", testToken, chat.OnBehalfOf(actingUser))
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
	assert.NotContains(t, out, wiretest.APIKey)
	assert.NotContains(t, out, testToken)
	assert.NotContains(t, out, testTokenTail)
	assert.NotContains(t, out, actingUser, "the log shows the acting user")
}

func TestLoggerAboveDebugLogsNothing(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	client, m := wiretest.Chat(t, chat.WithLogger(logger), fastRetries)
	m.Reply(http.StatusServiceUnavailable, `{}`)
	_, err := client.Users.Get(context.Background(), "u1")
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

	client, m := wiretest.Chat(t, chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	m.Reply(http.StatusServiceUnavailable, `{"error":{"code":"ERR_X"}}`)
	_, err := client.Users.Get(context.Background(), "u1")
	require.ErrorIs(t, err, chat.ErrServer)
	m.Serve(func(int, *http.Request) (*http.Response, error) { return nil, syscall.ECONNREFUSED })
	_, err = client.Users.Get(context.Background(), "u1")
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
			client, m := wiretest.Chat(t, chat.WithTimeout(20*time.Millisecond),
				chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
			m.Serve(blockUntilDone)
			err := tt.call(client)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, 1, m.Calls(), "retried after the call's time was up")
		})
	}

	t.Run("a call's own deadline", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Serve(blockUntilDone)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := client.Users.Get(ctx, "u1")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})

	t.Run("fast calls are unaffected", func(t *testing.T) {
		client, m := wiretest.Chat(t, chat.WithTimeout(time.Minute))
		m.Reply(http.StatusOK, `{"data":{"uid":"u1"}}`)
		u, err := client.Users.Get(context.Background(), "u1")
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
			client, m := wiretest.Chat(t, chat.WithMaxResponseBytes(limit))
			m.Reply(tt.status, tt.body)
			u, err := client.Users.Get(context.Background(), "u1")
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
	c, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithHTTPClient(hc), chat.WithoutRetries())
	require.NoError(t, err)
	assert.Same(t, mt, hc.Transport.(*httpmock.MockTransport), "transport replaced")
	assert.Equal(t, reflect.ValueOf(check).Pointer(), reflect.ValueOf(hc.CheckRedirect).Pointer(), "CheckRedirect replaced")

	_, err = c.Users.Get(context.Background(), "u1")
	require.ErrorContains(t, err, "no redirects here")
	assert.True(t, calledRedirect, "the client's own CheckRedirect was not called")
}

// bodyCountingTransport counts the response body bytes its client read.
type bodyCountingTransport struct {
	rt   http.RoundTripper
	read atomic.Int64
}

func (c *bodyCountingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(req)
	if resp != nil {
		resp.Body = &bodyCounter{ReadCloser: resp.Body, n: &c.read}
	}
	return resp, err
}

type bodyCounter struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *bodyCounter) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// TestMaxResponseBytesAgainstAnEndlessBody points the chat and management
// clients at a server whose answers never end: each call fails with an
// *chat.Error after reading at most the cap and one byte, and the server
// sees the connection closed.
func TestMaxResponseBytesAgainstAnEndlessBody(t *testing.T) {
	const limit = 256 << 10
	type client struct {
		name string
		call func(t *testing.T, base string, hc *http.Client) error
	}
	clients := []client{
		{"chat", func(t *testing.T, base string, hc *http.Client) error {
			c, err := chat.NewClient("myapp", wiretest.APIKey, chat.WithBaseURL(base), chat.WithInsecureLoopback(), chat.WithoutRetries(),
				chat.WithHTTPClient(hc), chat.WithMaxResponseBytes(limit), chat.WithTimeout(time.Minute))
			require.NoError(t, err)
			_, err = c.Users.Get(context.Background(), "u1")
			return err
		}},
		{"management", func(t *testing.T, base string, hc *http.Client) error {
			mc, err := management.NewClient("key", "secret", chat.WithBaseURL(base), chat.WithInsecureLoopback(), chat.WithoutRetries(),
				chat.WithHTTPClient(hc), chat.WithMaxResponseBytes(limit), chat.WithTimeout(time.Minute))
			require.NoError(t, err)
			_, err = mc.Apps.List(context.Background(), nil)
			return err
		}},
	}
	answers := []struct {
		name   string
		status int
		header []string
	}{
		{"200, chunked", http.StatusOK, nil},
		{"200 claiming a terabyte", http.StatusOK, []string{"Content-Length", "1099511627776"}},
		{"500, chunked", http.StatusInternalServerError, nil},
	}
	for _, c := range clients {
		for _, a := range answers {
			t.Run(c.name+"/"+a.name, func(t *testing.T) {
				srv := wiretest.NewEndlessServer(t, a.status, a.header...)
				ct := &bodyCountingTransport{rt: &http.Transport{}}
				hc := &http.Client{Transport: ct}
				t.Cleanup(hc.CloseIdleConnections)

				err := c.call(t, srv.URL, hc)

				ce := wiretest.RequireAPIError(t, err)
				assert.Equal(t, a.status, ce.StatusCode)
				require.EqualError(t, ce.Err, "response body exceeds 262144 bytes", "the cause is kept")
				assert.LessOrEqual(t, ct.read.Load(), int64(limit+1), "bytes the client read")
				// The client closed the connection rather than drain it:
				// the handler's writes fail and it returns.
				select {
				case <-srv.Done():
				case <-time.After(30 * time.Second):
					t.Fatal("the server is still streaming")
				}
				assert.Greater(t, srv.Served(), int64(limit), "bytes the server wrote")
			})
		}
	}
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
