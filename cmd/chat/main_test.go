package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"

	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/stretchr/testify/require"
)

// update rewrites the golden files: go test -run TestHelp -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// chatBin is the command, built once for every test, which runs it as a
// user's script would: a process with its environment and arguments.
var chatBin string

func TestMain(m *testing.M) {
	if bin := os.Getenv("CHAT_TEST_MEASURE_BIN"); bin != "" {
		os.Exit(measure(bin))
	}
	flag.Parse()
	dir, err := os.MkdirTemp("", "chat-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	chatBin = filepath.Join(dir, "chat")
	build := exec.Command("go", "build", "-o", chatBin, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the command:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// measure runs bin with the JSON arguments of $CHAT_TEST_MEASURE_ARGS,
// and writes its peak memory (bytes) to $CHAT_TEST_MEASURE_OUT. A run of
// the test binary does this, a process much smaller than a test's: a
// child's peak memory counts its parent's at the time it started the
// child (the kernel keeps it across the exec), so a command started by a
// test holding a fake's data would seem to use that much.
func measure(bin string) int {
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("CHAT_TEST_MEASURE_ARGS")), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
	if err := os.WriteFile(os.Getenv("CHAT_TEST_MEASURE_OUT"), []byte(strconv.FormatInt(rss, 10)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	return cmd.ProcessState.ExitCode()
}

// exchange is a request the fake answered, with the body it sent.
type exchange struct {
	at           time.Time // when it arrived
	method, path string
	query        string
	status       int
	body         []byte
}

// recorder keeps every exchange of the handlers it wraps.
type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
}

func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		cw := &capture{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(cw, r)
		rec.mu.Lock()
		rec.exchanges = append(rec.exchanges, exchange{at, r.Method, r.URL.Path, r.URL.RawQuery, cw.status, cw.body.Bytes()})
		rec.mu.Unlock()
	})
}

// matching returns the exchanges of method on path.
func (rec *recorder) matching(method, path string) []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []exchange
	for _, x := range rec.exchanges {
		if x.method == method && x.path == path {
			out = append(out, x)
		}
	}
	return out
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.exchanges = nil
}

type capture struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (c *capture) WriteHeader(status int) {
	c.status = status
	c.ResponseWriter.WriteHeader(status)
}

func (c *capture) Write(b []byte) (int, error) {
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

func (c *capture) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// fake is chattest's fake of the platform, served over TLS on loopback
// with every answer recorded, and the environment that points the command
// at it, as chattest's banner prints it.
type fake struct {
	srv    *chattest.Server
	rec    *recorder
	url    string // the chat API
	mgmt   string // the management API
	caFile string
	dir    string
	env    []string
}

func newFake(t testing.TB, opts ...chattest.Option) *fake {
	t.Helper()
	srv := chattest.NewServer(opts...)
	t.Cleanup(srv.Close)
	f := &fake{srv: srv, rec: &recorder{}, dir: t.TempDir()}
	h := srv.Handler().(*chattest.Handler)
	ts := httptest.NewUnstartedServer(f.rec.wrap(h))
	ts.StartTLS()
	t.Cleanup(ts.Close)
	mts := httptest.NewUnstartedServer(f.rec.wrap(h.Management()))
	mts.StartTLS()
	t.Cleanup(mts.Close)
	f.url, f.mgmt = ts.URL, mts.URL

	// Both servers use httptest's certificate.
	f.caFile = filepath.Join(f.dir, "chattest.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	require.NoError(t, os.WriteFile(f.caFile, pemBytes, 0o644))
	f.env = []string{
		"CHAT_APP_ID=" + srv.AppID(), "CHAT_REGION=us", "CHAT_API_KEY=" + srv.APIKey(),
		"CHAT_BASE_URL=" + f.url, "CHAT_CA_FILE=" + f.caFile,
		"CHAT_MGMT_KEY=" + srv.ManagementKey(), "CHAT_MGMT_SECRET=" + srv.ManagementSecret(), "CHAT_MGMT_BASE_URL=" + f.mgmt,
	}
	return f
}

// client is an SDK client of the fake, to set up and check its state.
func (f *fake) client(t testing.TB) *chat.Client {
	t.Helper()
	ts := f.srv.HTTPClient()
	client, err := chat.NewClient(f.srv.AppID(), f.srv.APIKey(), chat.WithBaseURL(f.url), chat.WithHTTPClient(ts))
	require.NoError(t, err)
	return client
}

// mgmtClient is a management client of the fake.
func (f *fake) mgmtClient(t testing.TB) *management.Client {
	t.Helper()
	mc, err := management.NewClient(f.srv.ManagementKey(), f.srv.ManagementSecret(), chat.WithBaseURL(f.mgmt), chat.WithHTTPClient(f.srv.HTTPClient()))
	require.NoError(t, err)
	return mc
}

// result is what a run of the command printed and its exit status.
type result struct {
	stdout, stderr string
	code           int
	maxRSS         int64 // peak resident memory, bytes, measured by runMeasured
}

// baseEnv is the environment of every run: no configuration of the
// machine's, UTC.
func baseEnv(dir string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "TZ=UTC",
	}
}

// run runs the command with args against the fake, with extra environment.
func (f *fake) run(t testing.TB, args []string, extraEnv ...string) result {
	t.Helper()
	return runChat(t, append(append(baseEnv(f.dir), f.env...), extraEnv...), "", args...)
}

// runChat runs the command with env, stdin and args.
func runChat(t testing.TB, env []string, stdin string, args ...string) result {
	t.Helper()
	return runChatAs(t, chatBin, env, stdin, args...)
}

// runMeasured runs the command as runChat does, through a small process
// that measures its peak memory (see measure) into the result's maxRSS.
func runMeasured(t testing.TB, env []string, stdin string, args ...string) result {
	t.Helper()
	encoded, err := json.Marshal(args)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "rss")
	test, err := os.Executable()
	require.NoError(t, err)
	r := runChatAs(t, test, append(env, "CHAT_TEST_MEASURE_BIN="+chatBin, "CHAT_TEST_MEASURE_ARGS="+string(encoded), "CHAT_TEST_MEASURE_OUT="+out), stdin)
	b, err := os.ReadFile(out)
	require.NoError(t, err, "stderr: %s", r.stderr)
	r.maxRSS, err = strconv.ParseInt(string(b), 10, 64)
	require.NoError(t, err)
	return r
}

// runChatAs runs bin with env, stdin and args.
func runChatAs(t testing.TB, bin string, env []string, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), bin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else {
		require.NoError(t, err, "running chat %s", strings.Join(args, " "))
	}
	return r
}

// ok runs the command and requires it to succeed.
func (f *fake) ok(t testing.TB, args ...string) result {
	t.Helper()
	r := f.run(t, args)
	require.Equal(t, 0, r.code, "chat %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.stdout, r.stderr)
	return r
}

// answerData returns the compacted "data" of an answer's body.
func dataOf(t testing.TB, body []byte) []byte {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &env), "%s", body)
	return compact(t, env.Data)
}

func compact(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, json.Compact(&buf, b), "%s", b)
	return buf.Bytes()
}

// dataArrays joins the data arrays of answers into one compacted array.
func dataArrays(t testing.TB, xs []exchange) []byte {
	t.Helper()
	var items []json.RawMessage
	for _, x := range xs {
		var page []json.RawMessage
		require.NoError(t, json.Unmarshal(dataOf(t, x.body), &page))
		items = append(items, page...)
	}
	b, err := json.Marshal(items)
	require.NoError(t, err)
	return compact(t, b)
}
