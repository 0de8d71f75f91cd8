package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// filledDir runs the built command on a new data directory, creates users
// through it, stops it, and returns the directory and its database's
// bytes.
func filledDir(t *testing.T, bin string) (dir string, db []byte) {
	t.Helper()
	dir = t.TempDir()
	p := startHTTP(t, bin, "-data", dir)
	c := client(t, p)
	for i := range 60 {
		uid := "user-" + strconv.Itoa(i)
		_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: uid, Name: strings.Repeat(uid+" ", 10)})
		require.NoError(t, err)
	}
	c.CloseIdleConnections()
	code, _ := p.stop(t, syscall.SIGTERM)
	require.Equal(t, 0, code)
	db, err := os.ReadFile(filepath.Join(dir, "chattest.db"))
	require.NoError(t, err)
	return dir, db
}

// exitOf runs the built command with args until it exits (it must, within
// a minute), and returns its exit code, stdout and stderr.
func exitOf(t *testing.T, bin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "the command did not exit: %s%s", out.String(), errOut.String())
	if err != nil {
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// Started on a data directory whose database was cut short, emptied,
// overwritten or cut at its tail, the command exits non-zero with one
// line on stderr that names the file and says what to do: no crash, no
// stack, no banner claiming the credentials were kept.
func TestProcessRefusesADamagedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin := build(t)["chattest"]
	dir, db := filledDir(t, bin)
	path := filepath.Join(dir, "chattest.db")
	// bbolt's meta page 0: the page size at byte 24, the pages in use at 56.
	pageSize := int(binary.NativeEndian.Uint32(db[24:]))
	used := int(binary.NativeEndian.Uint64(db[56:])) * pageSize
	require.Greater(t, used, 4*pageSize)
	garbage := bytes.Repeat([]byte("not a database "), len(db)/15+1)[:len(db)]
	for name, content := range map[string][]byte{
		"truncated":     db[:used/2],
		"empty":         {},
		"garbage":       garbage,
		"tail cut":      db[:used-pageSize/2],
		"first page":    db[:pageSize],
		"pages garbled": append(bytes.Clone(db[:2*pageSize]), garbage[2*pageSize:]...),
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, content, 0o600))
			code, stdout, stderr := exitOf(t, bin, "-http", "-addr", "127.0.0.1:0", "-data", dir)
			assert.NotEqual(t, 0, code)
			assert.Empty(t, stdout, "no banner")
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			require.Len(t, lines, 1, "one line: %s", stderr)
			assert.Contains(t, lines[0], path)
			assert.True(t, strings.HasPrefix(lines[0], "chattest: the database "+path+" is damaged: "), lines[0])
			assert.NotContains(t, lines[0], "chattest: chattest:")
			assert.Contains(t, lines[0], "Restore it from a backup, or move it away to start the data directory anew")
			for _, w := range []string{"goroutine", "panic", "SIGBUS", "SIGSEGV"} {
				assert.NotContains(t, stderr, w)
			}
		})
	}
}

// Bodies nested 10,000 levels deep, sent to the server API, the client
// API's login and the management API of the command, leave its data
// directory usable: it starts again with what it held, and its export,
// readable by its owner only, starts another with -seed.
func TestProcessSurvivesDeepBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin, dir := build(t)["chattest"], t.TempDir()
	p := startProcess(t, bin, nil, "-addr", "127.0.0.1:0", "-api-key", stateKey, "-data", dir)
	hc := trusting(t, p.certFile)
	send := func(method, path, body string, header map[string]string) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), method, p.base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		require.NoError(t, err)
		return resp
	}
	key := map[string]string{"apikey": stateKey}
	resp := send("POST", "/v3/users", `{"uid":"alice","name":"Alice"}`, key)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp = send("POST", "/v3/users/alice/auth_tokens", `{}`, key)
	var tok struct {
		Data struct {
			AuthToken string `json:"authToken"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&tok))
	resp.Body.Close()
	login := map[string]string{"appId": "test-app", "authToken": tok.Data.AuthToken, "resource": "device-alice"}
	mgmt := map[string]string{"key": p.mgmtKey, "secret": p.mgmtSecret}
	deep := strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)
	for _, r := range []struct {
		method, path string
		header       map[string]string
	}{
		{"POST", "/v3/users", key},
		{"PUT", "/v3/users/alice", key},
		{"DELETE", "/v3/users/nobody", key},
		{"PUT", "/v3.0/me", login},
		{"POST", "/apps", mgmt},
	} {
		resp := send(r.method, r.path, deep, r.header)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		assert.Less(t, resp.StatusCode, 500, "%s %s", r.method, r.path)
	}
	hc.CloseIdleConnections()
	code, _ := p.stop(t, syscall.SIGTERM)
	require.Equal(t, 0, code)

	again := startProcess(t, bin, nil, "-http", "-addr", "127.0.0.1:0", "-api-key", stateKey, "-data", dir)
	u, err := client(t, again).Users.Get(context.Background(), "alice")
	require.NoError(t, err, "the directory starts again")
	assert.Equal(t, "Alice", u.Name)
	kill(again)

	file := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(file, nil, 0o644)) // an export replaces the file, and its permissions
	code, stdout, stderr := exitOf(t, bin, "-data", dir, "-export", file)
	require.Equal(t, 0, code, "%s%s", stdout, stderr)
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the state holds credentials")
	seeded := startHTTP(t, bin, "-seed", file)
	u, err = client(t, seeded).Users.Get(context.Background(), "alice")
	require.NoError(t, err, "the export starts a server")
	assert.Equal(t, "Alice", u.Name)
}

// With -data, the certificate and its key are kept in the directory (the
// key readable by its owner only) and served again at the next start: its
// fingerprint does not change, and the file the banner names for clients
// to trust is the one kept.
func TestProcessKeepsItsCertificate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin, dir := build(t)["chattest"], t.TempDir()
	fingerprint := func() (sum [32]byte, certFile string) {
		p := startProcess(t, bin, nil, "-addr", "127.0.0.1:0", "-data", dir)
		hc := trusting(t, p.certFile)
		resp, err := hc.Get(p.base + "/_chattest/")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		state := resp.TLS
		require.NotNil(t, state)
		hc.CloseIdleConnections()
		code, _ := p.stop(t, syscall.SIGTERM)
		require.Equal(t, 0, code)
		return sha256.Sum256(state.PeerCertificates[0].Raw), p.certFile
	}
	first, certFile := fingerprint()
	assert.Equal(t, filepath.Join(dir, "cert.pem"), certFile, "kept in the data directory")
	_, err := os.Stat(certFile)
	require.NoError(t, err, "not removed at the stop")
	info, err := os.Stat(filepath.Join(dir, "cert-key.pem"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	second, _ := fingerprint()
	assert.Equal(t, first, second, "the same certificate after a restart")

	// A certificate of the directory that no longer reads is made anew.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cert-key.pem"), []byte("garbage"), 0o600))
	third, _ := fingerprint()
	assert.NotEqual(t, first, third)
	_, err = tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "cert-key.pem"))
	assert.NoError(t, err, "the new pair is kept")
}

// Every file of a data directory that holds a secret (the state, its log,
// the credentials, the certificate's key) is its owner's only, and so is
// the directory; files copied in with looser permissions (a backup, a
// fixture) are made so at the next start. Only the certificate, which
// clients are given, is readable by others.
func TestProcessKeepsSecretsPrivate(t *testing.T) {
	bin, dir := build(t)["chattest"], filepath.Join(t.TempDir(), "data")
	private := func(loosen bool) {
		t.Helper()
		p := startProcess(t, bin, nil, "-addr", "127.0.0.1:0", "-data", dir)
		hc := trusting(t, p.certFile)
		req, err := http.NewRequest(http.MethodPost, p.base+"/v3/users", strings.NewReader(`{"uid":"alice","name":"Alice"}`))
		require.NoError(t, err)
		req.Header.Set("apikey", p.apiKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		hc.CloseIdleConnections()
		code, _ := p.stop(t, syscall.SIGTERM)
		require.Equal(t, 0, code)

		info, err := os.Stat(dir)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "the directory")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
			info, err := e.Info()
			require.NoError(t, err)
			want := os.FileMode(0o600)
			if e.Name() == "cert.pem" {
				want = 0o644
			}
			assert.Equal(t, want, info.Mode().Perm(), e.Name())
			if loosen {
				require.NoError(t, os.Chmod(filepath.Join(dir, e.Name()), 0o644))
			}
		}
		assert.Subset(t, names, []string{"chattest.db", "credentials.json", "cert-key.pem", "cert.pem"})
	}
	private(true)
	private(false)

	file := filepath.Join(t.TempDir(), "state.json")
	code, stdout, stderr := exitOf(t, bin, "-data", dir, "-export", file)
	require.Equal(t, 0, code, "%s%s", stdout, stderr)
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the export")
}
