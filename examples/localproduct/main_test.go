package main

import (
	"bufio"
	"context"
	"encoding/pem"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCertDefault shows that without -cert the product trusts
// ~/chattest.pem, where the manual has chattest write its certificate, and
// that a certificate missing there is named with what to do.
func TestCertDefault(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CHATTEST_API_KEY", "local-dev-key")
	cert := filepath.Join(home, "chattest.pem")

	err := run(t.Context(), []string{"-addr", "127.0.0.1:0"}, io.Discard)
	require.Error(t, err)
	assert.Equal(t, "-cert "+cert+": no such file: start chattest with -cert "+cert+", or give -cert the file its -cert wrote", err.Error())

	err = run(t.Context(), []string{"-addr", "127.0.0.1:0", "-cert", ""}, io.Discard)
	require.Error(t, err)
	assert.Equal(t, "-cert: name chattest's certificate, the file its -cert wrote", err.Error())

	// A certificate there: the product starts, and stops with its context.
	tls := httptest.NewTLSServer(nil)
	defer tls.Close()
	require.NoError(t, os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tls.Certificate().Raw}), 0o600))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-chattest", tls.URL}, w) }()
	line, err := bufio.NewReader(r).ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, "localproduct: open http://127.0.0.1:"), line)
	cancel()
	require.NoError(t, <-done)
}
