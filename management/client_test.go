package management_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// The credentials every mock client uses, shaped so that a leak would be
// recognisable.
const (
	testKey    = "mk-4f6c2b9e0d1a7c3e5b8f"
	testSecret = "ms-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d"
	testHost   = "apimgmt.cometchat.io"
)

// mockAPI is a management client whose requests go to the wire harness's
// mock transport, without retries.
type mockAPI struct {
	*wiretest.Mock
	client *management.Client
}

// newMockAPI returns a client for testKey/testSecret over a mock transport
// that answers 200 until told otherwise.
func newMockAPI(t testing.TB, opts ...chat.Option) *mockAPI {
	t.Helper()
	m := &mockAPI{Mock: wiretest.New(t)}
	all := append([]chat.Option{chat.WithoutRetries()}, opts...)
	c, err := management.NewClient(testKey, testSecret, append(all, chat.WithHTTPClient(m.HTTPClient()))...)
	require.NoError(t, err)
	m.client = c
	return m
}

// wire is the management client as the wire harness drives it: a client
// over a fresh mock, its requests to the management API's host, each with
// the key and secret and never an apikey.
var wire = wiretest.Harness[*management.Client]{
	New: func(t testing.TB) (*wiretest.Mock, *management.Client) {
		m := newMockAPI(t)
		return m.Mock, m.client
	},
	Host:        func(string) string { return testHost },
	Credentials: map[string]string{"key": testKey, "secret": testSecret},
	Absent:      []string{"apikey"},
}

func TestNewClientValidates(t *testing.T) {
	for _, tt := range []struct {
		name, key, secret string
		opts              []chat.Option
		arg               string
	}{
		{"empty key", "", testSecret, nil, "key"},
		{"empty secret", testKey, "", nil, "secret"},
		{"key with newline", "k\nx", testSecret, nil, "key"},
		{"secret with newline", testKey, "s\r\n", nil, "secret"},
		{"plain http", testKey, testSecret, []chat.Option{chat.WithBaseURL("http://example.com")}, "baseURL"},
		{"plain http loopback without opt-in", testKey, testSecret, []chat.Option{chat.WithBaseURL("http://127.0.0.1:1")}, "baseURL"},
		{"credentials in URL", testKey, testSecret, []chat.Option{chat.WithBaseURL("https://u:p@example.com")}, "baseURL"},
		{"negative retries", testKey, testSecret, []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: -1})}, "options"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := management.NewClient(tt.key, tt.secret, tt.opts...)
			assert.Nil(t, c)
			wiretest.RequireArgError(t, err, tt.arg)
			assert.NotContains(t, err.Error(), testSecret)
		})
	}
}

func TestNewClientAddresses(t *testing.T) {
	c, err := management.NewClient(testKey, testSecret)
	require.NoError(t, err)
	assert.Equal(t, management.DefaultBaseURL, c.BaseURL())

	c, err = management.NewClient(testKey, testSecret, chat.WithBaseURL("https://proxy.example.com/mgmt/"))
	require.NoError(t, err)
	assert.Equal(t, "https://proxy.example.com/mgmt", c.BaseURL())

	c, err = management.NewClient(testKey, testSecret, chat.WithBaseURL("http://127.0.0.1:8080"), chat.WithInsecureLoopback())
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:8080", c.BaseURL())
}

// TestRetryPolicyZeroWaitsAreDefaults gives the client a policy that sets
// only MaxRetries: its zero waits mean the defaults, as chat.RetryPolicy
// documents, so a 503 is retried after a backoff of at least half the
// default first wait (250ms, with jitter), and a 429's Retry-After of 1s is
// honoured (within the default cap of 60s), not refused as too long.
func TestRetryPolicyZeroWaitsAreDefaults(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	status := []int{http.StatusServiceUnavailable, http.StatusOK, http.StatusTooManyRequests, http.StatusOK}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		st := status[len(arrivals)%len(status)]
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if st == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(st)
		io.WriteString(w, `{"data":{"id":"hook","name":"hook"}}`)
	}))
	t.Cleanup(srv.Close)
	mc, err := management.NewClient(testKey, testSecret, chat.WithBaseURL(srv.URL), chat.WithInsecureLoopback(),
		chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2}))
	require.NoError(t, err)
	t.Cleanup(mc.CloseIdleConnections)

	for _, want := range []time.Duration{125 * time.Millisecond, time.Second} {
		_, err := mc.Webhooks.Get(t.Context(), "app1", "hook")
		require.NoError(t, err)
		mu.Lock()
		require.Len(t, arrivals, 2)
		assert.GreaterOrEqual(t, arrivals[1].Sub(arrivals[0]), want, "the wait before the retry")
		arrivals = arrivals[:0]
		status = status[2:]
		mu.Unlock()
	}
}
