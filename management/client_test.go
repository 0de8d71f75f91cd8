package management_test

import (
	"fmt"
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

func TestNewClientValidates(t *testing.T) {
	for _, tt := range []struct {
		name, key, secret string
		opts              []chat.Option
		arg               string
	}{
		{"empty key", "", wiretest.MgmtSecret, nil, "key"},
		{"empty secret", wiretest.MgmtKey, "", nil, "secret"},
		{"key with newline", "k\nx", wiretest.MgmtSecret, nil, "key"},
		{"secret with newline", wiretest.MgmtKey, "s\r\n", nil, "secret"},
		{"plain http", wiretest.MgmtKey, wiretest.MgmtSecret, []chat.Option{chat.WithBaseURL("http://example.com")}, "baseURL"},
		{"plain http loopback without opt-in", wiretest.MgmtKey, wiretest.MgmtSecret, []chat.Option{chat.WithBaseURL("http://127.0.0.1:1")}, "baseURL"},
		{"credentials in URL", wiretest.MgmtKey, wiretest.MgmtSecret, []chat.Option{chat.WithBaseURL("https://u:p@example.com")}, "baseURL"},
		{"negative retries", wiretest.MgmtKey, wiretest.MgmtSecret, []chat.Option{chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: -1})}, "options"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := management.NewClient(tt.key, tt.secret, tt.opts...)
			assert.Nil(t, c)
			wiretest.RequireArgError(t, err, tt.arg)
			assert.NotContains(t, err.Error(), wiretest.MgmtSecret)
		})
	}
}

func TestNewClientAddresses(t *testing.T) {
	c, err := management.NewClient(wiretest.MgmtKey, wiretest.MgmtSecret)
	require.NoError(t, err)
	assert.Equal(t, management.DefaultBaseURL, c.BaseURL())

	c, err = management.NewClient(wiretest.MgmtKey, wiretest.MgmtSecret, chat.WithBaseURL("https://proxy.example.com/mgmt/"))
	require.NoError(t, err)
	assert.Equal(t, "https://proxy.example.com/mgmt", c.BaseURL())

	c, err = management.NewClient(wiretest.MgmtKey, wiretest.MgmtSecret, chat.WithBaseURL("http://127.0.0.1:8080"), chat.WithInsecureLoopback())
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
	mc, err := management.NewClient(wiretest.MgmtKey, wiretest.MgmtSecret, chat.WithBaseURL(srv.URL), chat.WithInsecureLoopback(),
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
