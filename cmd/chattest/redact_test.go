package main

import (
	"html"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command's dashboard and output show no credential a client sent in
// a body labelled wrong, or in a webhook URL's user info, and the
// dashboard still shows the requests.
func TestDashboardHidesCredentials(t *testing.T) {
	const key = "a-key-of-the-test-0123"
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	in := serve(t, "-addr", "127.0.0.1:0", "-app-id", "demo", "-api-key", key, "-cert", certFile)
	hc := trusting(t, certFile)
	send := func(path, body string, header map[string]string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), "POST", in.base+path, strings.NewReader(body))
		require.NoError(t, err)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	// curl -d: a JSON body labelled as a form.
	send("/v3/groups", `{"guid":"locked","name":"Locked","type":"password","password":"cmd-group-password"}`,
		map[string]string{"apikey": key, "Content-Type": "application/x-www-form-urlencoded"})
	send("/apps/demo/webhooks", `{"id":"userinfo","name":"Userinfo","webhookURL":"https://hookuser:cmd-url-password@hooks.example.com/in"}`,
		map[string]string{"key": in.mgmtKey, "secret": in.mgmtSecret, "Content-Type": "application/json"})

	var pages string
	for _, page := range []string{"requests", "webhooks"} {
		resp, err := hc.Get(in.base + "/_chattest/" + page)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		pages += html.UnescapeString(string(b))
	}
	hc.CloseIdleConnections()
	require.NoError(t, in.stop())
	for _, secret := range []string{"cmd-group-password", "cmd-url-password", key, in.mgmtSecret} {
		assert.NotContains(t, pages, secret)
	}
	for _, secret := range []string{"cmd-group-password", "cmd-url-password", key} { // the banner shows the generated secret
		assert.NotContains(t, in.out.String(), secret)
	}
	assert.Contains(t, pages, `"guid":"locked"`)
	assert.Contains(t, pages, "/v3/groups")
	assert.Contains(t, pages, "/apps/demo/webhooks")
	assert.Contains(t, pages, "https://hookuser:REDACTED@hooks.example.com/in")
}
