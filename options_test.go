package chat_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// selfSignedServer serves a user (and a management app list) over TLS with
// a certificate no system trusts, and returns it with a PEM file of that
// certificate.
func selfSignedServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v3/users/alice":
			_, _ = w.Write([]byte(`{"data":{"uid":"alice","name":"Alice"}}`))
		case "/apps":
			_, _ = w.Write([]byte(`{"data":[{"id":"app-1","name":"One"}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusting client's refused handshake
	srv.StartTLS()
	t.Cleanup(srv.Close)
	file := filepath.Join(t.TempDir(), "server.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	require.NoError(t, os.WriteFile(file, block, 0o600))
	return srv, file
}

func TestWithCAFileTrustsTheServer(t *testing.T) {
	srv, caFile := selfSignedServer(t)

	untrusting, err := chat.NewClient("app", "key", chat.WithBaseURL(srv.URL), chat.WithoutRetries())
	require.NoError(t, err)
	_, err = untrusting.Users.Get(t.Context(), "alice")
	var unknown x509.UnknownAuthorityError
	require.ErrorAs(t, err, &unknown, "without WithCAFile the certificate is not trusted")

	client, err := chat.NewClient("app", "key", chat.WithBaseURL(srv.URL), chat.WithCAFile(caFile))
	require.NoError(t, err)
	user, err := client.Users.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.Equal(t, "Alice", user.Name)

	mc, err := management.NewClient("mkey", "msecret", chat.WithBaseURL(srv.URL), chat.WithCAFile(caFile))
	require.NoError(t, err)
	apps, err := mc.Apps.List(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, apps.Data, 1)
	assert.Equal(t, "app-1", apps.Data[0].ID)
}

func TestWithCAFileEmptyAddsNothing(t *testing.T) {
	client, err := chat.NewClient("app", "key", chat.WithCAFile(""))
	require.NoError(t, err)
	assert.Equal(t, "https://app.api-us.cometchat.io/v3", client.BaseURL())
}

func TestWithCAFileRefusesWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("not a certificate"), 0o600))
	for name, opts := range map[string][]chat.Option{
		"missing file":     {chat.WithCAFile(filepath.Join(dir, "missing.pem"))},
		"no certificate":   {chat.WithCAFile(notPEM)},
		"with HTTP client": {chat.WithCAFile(notPEM), chat.WithHTTPClient(&http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}})},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := chat.NewClient("app", "key", opts...)
			var arg *chat.ArgumentError
			require.ErrorAs(t, err, &arg)
			assert.Equal(t, "WithCAFile", arg.Name)

			_, err = management.NewClient("mkey", "msecret", opts...)
			require.True(t, errors.As(err, &arg), "management: %v", err)
			assert.Equal(t, "WithCAFile", arg.Name)
		})
	}
}
