package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/management"
)

// output collects what the command prints, and signals each line.
type output struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func newOutput() *output { return &output{lines: make(chan string, 100)} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.buf.Write(p)
	o.mu.Unlock()
	for line := range strings.Lines(string(p)) {
		select {
		case o.lines <- strings.TrimSuffix(line, "\n"):
		default: // nobody reads this far
		}
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// banner reads the lines printed at start, up to the last one.
func (o *output) banner(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for line := range o.lines {
		b.WriteString(line + "\n")
		if line == bannerEnd {
			return b.String()
		}
	}
	t.Fatal("the command ended before it was ready")
	return ""
}

// instance is a running command.
type instance struct {
	printed
	banner string
	out    *output
	stop   func() error // stops it and returns what run returned
}

// serve runs the command with args until the test stops it.
func serve(t *testing.T, args ...string) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := newOutput(), newOutput()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, out, errOut)
		close(out.lines)
	}()
	in := &instance{out: out}
	var once sync.Once
	var err error
	in.stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { in.stop() })
	in.banner = out.banner(t)
	in.printed = parseBanner(t, in.banner)
	return in
}

// trusting returns an HTTP client that trusts the PEM certificate in file.
func trusting(t *testing.T, file string) *http.Client {
	t.Helper()
	pem, err := os.ReadFile(file)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	tr := chat.NewTransport()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	hc := &http.Client{Transport: tr}
	t.Cleanup(hc.CloseIdleConnections)
	return hc
}

func noLeaks(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

func TestServeHTTPS(t *testing.T) {
	noLeaks(t)
	const key = "a-key-of-the-test-0123"
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	in := serve(t, "-addr", "127.0.0.1:0", "-app-id", "demo", "-api-key", key, "-cert", certFile)

	assert.True(t, strings.HasPrefix(in.base, "https://127.0.0.1:"), in.base)
	assert.Equal(t, certFile, in.certFile)
	assert.Contains(t, in.banner, `app "demo"`)
	assert.Contains(t, in.banner, `# Go: client, err := chat.NewClient(appID, apiKey, chat.WithBaseURL("`+in.base+`"), chat.WithCAFile("`+certFile+`"))`+"\n")
	assert.Contains(t, in.banner, `# Go: mc, err := management.NewClient(key, secret, chat.WithBaseURL("`+in.base+`"), chat.WithCAFile("`+certFile+`"))`+"\n")
	assert.Contains(t, in.banner, "# Dashboard: "+in.base+"/_chattest/\n")
	assert.NotContains(t, in.banner, key, "the key given is not printed")
	assert.Empty(t, in.apiKey)
	assert.Equal(t, key, in.env["CHAT_API_KEY"], "read from the file the banner names")
	assert.Equal(t, "demo", in.env["CHAT_APP_ID"])
	assert.Empty(t, in.others, "loopback only")

	// The banner's Go line, as a program of the user's runs it.
	client, err := chat.NewClient("demo", key, chat.WithBaseURL(in.base), chat.WithCAFile(certFile), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(client.CloseIdleConnections)
	hc := trusting(t, certFile)
	ctx := t.Context()
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	u, err := client.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, "Alice", u.Name)

	t.Run("HTTP/2, and localhost is in the certificate", func(t *testing.T) {
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(in.base, "https://"))
		req, err := http.NewRequestWithContext(ctx, "GET", "https://localhost:"+port+"/v3/users/alice", nil)
		require.NoError(t, err)
		req.Header.Set("apikey", key)
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode)
		assert.Equal(t, 2, resp.ProtoMajor)
		assert.Equal(t, "20000", resp.Header.Get("X-Rate-Limit"))
	})

	t.Run("the management API on the same address", func(t *testing.T) {
		assert.Contains(t, in.banner, `management.NewClient(key, secret, chat.WithBaseURL("`+in.base+`"), chat.WithCAFile("`+certFile+`"))`)
		assert.Regexp(t, `^[0-9a-f]{40}$`, in.mgmtKey)
		assert.Regexp(t, `^[0-9a-f]{40}$`, in.mgmtSecret)
		mc, err := management.NewClient(in.mgmtKey, in.mgmtSecret,
			chat.WithBaseURL(in.base), chat.WithCAFile(certFile), chat.WithoutRetries())
		require.NoError(t, err)
		apps, err := mc.Apps.List(ctx, nil)
		require.NoError(t, err)
		require.NotEmpty(t, apps.Data)
		assert.Equal(t, "demo", apps.Data[0].ID)
		defaults := chattest.NewHandler()
		bad, err := management.NewClient(defaults.ManagementKey(), defaults.ManagementSecret(), chat.WithBaseURL(in.base), chat.WithHTTPClient(hc), chat.WithoutRetries())
		require.NoError(t, err)
		_, err = bad.Apps.List(ctx, nil)
		require.ErrorIs(t, err, chat.ErrUnauthorized)
	})

	t.Run("another key is refused", func(t *testing.T) {
		other, err := chat.NewClient("demo", "nope", chat.WithBaseURL(in.base), chat.WithHTTPClient(hc))
		require.NoError(t, err)
		_, err = other.Users.Get(ctx, "alice")
		require.ErrorIs(t, err, chat.ErrUnauthorized)
	})

	// An idle HTTP/2 client would hold the shutdown for a second (the
	// server's wait after GOAWAY); a stop with requests in flight is the
	// same, graceful, stop.
	hc.CloseIdleConnections()
	require.NoError(t, in.stop())
	assert.Contains(t, in.out.String(), "chattest: shutting down")
	assert.NotContains(t, in.out.String(), key)
	_, err = client.Users.Get(ctx, "alice")
	require.ErrorIs(t, err, syscall.ECONNREFUSED, "stopped")
}

func TestServeHTTPWithRateLimit(t *testing.T) {
	noLeaks(t)
	t.Setenv("CHATTEST_API_KEY", "from-the-environment")
	in := serve(t, "-addr", "127.0.0.1:0", "-http", "-rate-limit", "1,0")

	assert.True(t, strings.HasPrefix(in.base, "http://127.0.0.1:"), in.base)
	assert.Empty(t, in.certFile)
	assert.NotContains(t, in.banner, "from-the-environment")
	assert.Contains(t, in.banner, "# API key: the one given with -api-key or $CHATTEST_API_KEY, not shown: the lines below read it from ")
	assert.Equal(t, "from-the-environment", in.env["CHAT_API_KEY"])
	assert.Contains(t, in.banner, `# Go: client, err := chat.NewClient(appID, apiKey, chat.WithBaseURL("`+in.base+`"), chat.WithInsecureLoopback())`+"\n")
	assert.NotContains(t, in.env, "CHAT_CA_FILE")

	hc := &http.Client{Transport: chat.NewTransport()}
	t.Cleanup(hc.CloseIdleConnections)
	client, err := chat.NewClient("test-app", "from-the-environment", chat.WithBaseURL(in.base),
		chat.WithInsecureLoopback(), chat.WithHTTPClient(hc),
		chat.WithRetryPolicy(chat.RetryPolicy{MaxRetries: 2, MaxServerWait: 1}))
	require.NoError(t, err)
	ctx := t.Context()
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 429, ce.StatusCode)
	assert.Equal(t, 1, ce.RateLimit)
	_, err = client.Users.Get(ctx, "alice")
	require.NoError(t, err, "standard requests are not limited")
	require.NoError(t, in.stop())
}

// Without -data or -cert, the certificate is written to a directory the
// command makes anew in the temporary directory, the owner's only, and
// removed on stop: a symbolic link planted where an earlier chattest wrote
// its certificate (chattest-PORT.pem) redirects nothing.
func TestDefaultCertificateFile(t *testing.T) {
	noLeaks(t)
	t.Setenv("CHATTEST_API_KEY", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	_, port, _ := net.SplitHostPort(addr)
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("untouched"), 0o600))
	require.NoError(t, os.Symlink(victim, filepath.Join(tmp, "chattest-"+port+".pem")))
	require.NoError(t, os.Symlink(victim, filepath.Join(tmp, "cert.pem")))

	in := serve(t, "-addr", addr)
	want := in.certFile
	assert.Equal(t, tmp, filepath.Dir(filepath.Dir(want)))
	assert.True(t, strings.HasPrefix(filepath.Base(filepath.Dir(want)), "chattest-"+port+"-"), want)
	dirInfo, err := os.Lstat(filepath.Dir(want))
	require.NoError(t, err)
	assert.True(t, dirInfo.IsDir())
	assert.Equal(t, os.FileMode(0o700), dirInfo.Mode().Perm(), "the directory is the owner's only")
	info, err := os.Lstat(want)
	require.NoError(t, err)
	assert.True(t, info.Mode().IsRegular(), "a file of its own, not a link")
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "untouched", string(got), "the planted links redirected nothing")

	assert.Contains(t, in.banner, `chat.WithCAFile("`+want+`")`)
	client, err := chat.NewClient("test-app", in.apiKey, chat.WithBaseURL(in.base), chat.WithCAFile(want))
	require.NoError(t, err)
	t.Cleanup(client.CloseIdleConnections)
	_, err = client.APIKeys.List(t.Context(), nil)
	require.NoError(t, err, "the key generated")
	fixed, err := chat.NewClient("test-app", chattest.NewHandler().APIKey(), chat.WithBaseURL(in.base), chat.WithCAFile(want))
	require.NoError(t, err)
	t.Cleanup(fixed.CloseIdleConnections)
	_, err = fixed.APIKeys.List(t.Context(), nil)
	require.ErrorIs(t, err, chat.ErrUnauthorized, "another server's default key")
	require.NoError(t, in.stop())
	assert.NoDirExists(t, filepath.Dir(want), "removed on stop")
}

func TestBadFlags(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()

	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"all interfaces", []string{"-addr", ":0"}, 2, "must be loopback (localhost, 127.0.0.1, ::1) unless -listen-any is given"},
		{"a public address", []string{"-addr", "0.0.0.0:0"}, 2, "must be loopback"},
		{"a name", []string{"-addr", "example.com:0"}, 2, "must be loopback"},
		{"no port", []string{"-addr", "127.0.0.1"}, 2, "-addr"},
		{"bad app id", []string{"-addr", "127.0.0.1:0", "-app-id", "not an id"}, 2, "-app-id"},
		{"bad key", []string{"-addr", "127.0.0.1:0", "-api-key", "has space"}, 2, "API key must be printable"},
		{"one budget", []string{"-addr", "127.0.0.1:0", "-rate-limit", "5"}, 2, "-rate-limit"},
		{"not a number", []string{"-addr", "127.0.0.1:0", "-rate-limit", "a,b"}, 2, "-rate-limit"},
		{"negative", []string{"-addr", "127.0.0.1:0", "-rate-limit", "-1,5"}, 2, "-rate-limit"},
		{"arguments", []string{"serve"}, 2, "unexpected arguments"},
		{"print-key is gone: a key given is never printed", []string{"-print-key"}, 2, "flag provided but not defined: -print-key"},
		{"unknown flag", []string{"-port", "1"}, 2, "flag provided but not defined: -port"},
		{"address in use", []string{"-addr", busy.Addr().String()}, 1, "address already in use"},
		{"unwritable certificate", []string{"-addr", "127.0.0.1:0", "-cert", filepath.Join(t.TempDir(), "no", "such", "dir")}, 1, "writing the certificate"},
		{"help", []string{"-h"}, 0, "-rate-limit core,standard"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runMain(tc.args, &stdout, &stderr)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String(), "nothing served")
		})
	}
}

// With -listen-any, the command listens beyond loopback with a warning,
// names the machine in its certificate, and shows its dashboard to a
// client on the machine's network.
func TestListenAny(t *testing.T) {
	noLeaks(t)
	ip := interfaceIP(t)
	in := serve(t, "-listen-any", "-addr", net.JoinHostPort(ip.String(), "0"))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(in.base, "https://"))
	assert.Equal(t, "https://"+net.JoinHostPort(ip.String(), port), in.base)
	assert.Contains(t, in.others, in.base)
	host, err := os.Hostname()
	require.NoError(t, err)
	assert.Contains(t, in.others, "https://"+net.JoinHostPort(host, port))
	hc := trusting(t, in.certFile) // the certificate is valid for the machine's address
	resp, err := hc.Get(in.base + "/_chattest/users")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a client on the machine's network sees the dashboard")
	hc.CloseIdleConnections()
	require.NoError(t, in.stop())
}

func TestListenAnyWarns(t *testing.T) {
	noLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := newOutput(), newOutput()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen-any", "-addr", ":0", "-http"}, out, errOut)
		close(out.lines)
	}()
	banner := parseBanner(t, out.banner(t))
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, errOut.String(), "chattest: WARNING: -listen-any: listening on [::]:")
	assert.Contains(t, errOut.String(), "use it on a network you trust only")
	assert.True(t, strings.HasPrefix(banner.base, "http://127.0.0.1:"), "clients on the machine use loopback: %s", banner.base)
	assert.NotEmpty(t, banner.others)
}

func TestStopsOnSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to deliver on Windows")
	}
	noLeaks(t)
	out, errOut := newOutput(), newOutput()
	done := make(chan int, 1)
	go func() {
		done <- runMain([]string{"-addr", "127.0.0.1:0", "-http"}, out, errOut)
		close(out.lines)
	}()
	out.banner(t) // the handler of the signals is in place
	p, err := os.FindProcess(os.Getpid())
	require.NoError(t, err)
	require.NoError(t, p.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, <-done)
	assert.Contains(t, out.String(), "chattest: shutting down")
	assert.Empty(t, errOut.String())
}

// Every error line the command prints has one "chattest:" prefix, the
// package's errors (which carry their own) and the command's that wrap
// them alike, a line at a time.
func TestErrorLinesHaveOnePrefix(t *testing.T) {
	var b bytes.Buffer
	printError(&b, errors.Join(errors.New("chattest: the first"), fmt.Errorf("-export: %w", errors.New("chattest: the second"))))
	assert.Equal(t, "chattest: the first\nchattest: -export: the second\n", b.String())

	dir := t.TempDir()
	h, err := chattest.OpenHandler(chattest.WithAppID("other-app"), platform.WithDataDir(dir))
	require.NoError(t, err)
	require.NoError(t, h.Close())
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, args := range [][]string{
		{"-data", dir, "-addr", "127.0.0.1:0"},
		{"-seed", missing, "-addr", "127.0.0.1:0"},
		{"-seed", missing, "-export", "-"},
		{"-addr", "example.com:1"},
	} {
		var stdout, stderr bytes.Buffer
		assert.NotEqual(t, 0, runMain(args, &stdout, &stderr), args)
		for line := range strings.Lines(stderr.String()) {
			assert.True(t, strings.HasPrefix(line, "chattest: "), "%q", line)
			assert.Equal(t, 1, strings.Count(line, "chattest:"), "%q", line)
		}
		assert.NotEmpty(t, stderr.String(), args)
	}
}

// With -data, the certificate and its key are written to new files renamed
// into the directory: symbolic links planted there are replaced, and what
// they point to is left untouched.
func TestDataCertificateReplacesPlantedLinks(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("untouched"), 0o644))
	for _, name := range []string{"cert.pem", "cert-key.pem"} {
		require.NoError(t, os.Symlink(victim, filepath.Join(dir, name)))
	}
	in := serve(t, "-addr", "127.0.0.1:0", "-data", dir)
	require.NoError(t, in.stop())
	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "untouched", string(got))
	info, err := os.Stat(victim)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm(), "the link's target keeps its permissions")
	for name, perm := range map[string]os.FileMode{"cert.pem": 0o644, "cert-key.pem": 0o600} {
		info, err := os.Lstat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.True(t, info.Mode().IsRegular(), name)
		assert.Equal(t, perm, info.Mode().Perm(), name)
	}
	_, err = tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "cert-key.pem"))
	assert.NoError(t, err)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "no temporary file left: %s", e.Name())
	}
}
