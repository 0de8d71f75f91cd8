package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// printed is what a banner says, as a person reads it.
type printed struct {
	base, certFile, apiKey, mgmtKey, mgmtSecret string
	others                                      []string
	env                                         map[string]string // set by the export lines
	curl                                        []string          // the curl line's words, as a shell reads them after the exports
}

// parseBanner reads a banner the way a shell would run it: every line is
// a comment, an export or the curl line.
func parseBanner(t *testing.T, banner string) printed {
	t.Helper()
	p := printed{env: map[string]string{}}
	field := func(line, prefix string) (string, bool) {
		v, ok := strings.CutPrefix(line, prefix)
		return strings.TrimSpace(v), ok
	}
	for line := range strings.Lines(banner) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "export "):
			for _, w := range shellWords(t, strings.TrimPrefix(line, "export "), p.env) {
				k, v, ok := strings.Cut(w, "=")
				require.True(t, ok, line)
				p.env[k] = v
			}
		case strings.HasPrefix(line, "curl "):
			p.curl = shellWords(t, line, p.env)
		case strings.HasPrefix(line, "#"):
			if v, ok := field(line, "# Chat, calls and management APIs:"); ok {
				p.base = v
			}
			if v, ok := field(line, "# Certificate (self-signed, trust it):"); ok {
				p.certFile = v
			}
			for _, how := range []string{"generated at start", "kept in the data directory"} {
				if v, ok := field(line, "# API key, "+how+":"); ok {
					p.apiKey = v
				}
				if v, ok := field(line, "# Management key and secret, "+how+":"); ok {
					p.mgmtKey, p.mgmtSecret, _ = strings.Cut(v, " ")
				}
			}
			if v, ok := field(line, "# From other machines:"); ok {
				p.others = strings.Split(v, ", ")
			}
		default:
			t.Fatalf("a line that is no comment, export or curl: %q", line)
		}
	}
	require.NotEmpty(t, p.base, banner)
	require.NotEmpty(t, p.curl, banner)
	return p
}

// readCat replaces each "$(cat FILE)" in s, the inside of double quotes,
// with what FILE holds less its trailing newlines, as a shell does.
func readCat(t *testing.T, s string, env map[string]string) string {
	t.Helper()
	for {
		i := strings.Index(s, "$(cat ")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], ')')
		require.GreaterOrEqual(t, j, 0, "unclosed $( in %q", s)
		words := shellWords(t, s[i+len("$(cat "):i+j], env)
		require.Len(t, words, 1, s)
		b, err := os.ReadFile(words[0])
		require.NoError(t, err)
		s = s[:i] + strings.TrimRight(string(b), "\n") + s[i+j+1:]
	}
}

// shellWords splits line into words as a POSIX shell does for the quoting
// the banner uses: '...', "..." and bare words, with $NAME expanded from
// env outside single quotes, and "$(cat FILE)" read from FILE.
func shellWords(t *testing.T, line string, env map[string]string) []string {
	t.Helper()
	expand := func(s string) string { return os.Expand(s, func(k string) string { return env[k] }) }
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			require.GreaterOrEqual(t, j, 0, "unclosed ' in %q", line)
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			j := strings.IndexByte(line[i+1:], '"')
			require.GreaterOrEqual(t, j, 0, "unclosed \" in %q", line)
			cur.WriteString(expand(readCat(t, line[i+1:i+1+j], env)))
			i += j + 1
			inWord = true
		case '\\':
			require.Less(t, i+1, len(line), "a trailing \\ in %q", line)
			cur.WriteByte(line[i+1])
			i++
			inWord = true
		case '`', ';', '&', '|', '<', '>', '(', ')':
			t.Fatalf("a shell would read %q specially in %q", c, line)
		default:
			j := strings.IndexAny(line[i:], " '\"\\")
			if j < 0 {
				j = len(line) - i
			}
			cur.WriteString(expand(line[i : i+j]))
			i += j - 1
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

func TestShellQuote(t *testing.T) {
	for _, s := range []string{"plain", "/tmp/with space/cert.pem", "it's", "apikey: abc", "$HOME", "a\"b"} {
		assert.Equal(t, []string{s}, shellWords(t, shellQuote(s), nil), s)
	}
}

// The curl line works as printed: run it (with curl when the machine has
// it, as a shell runs the line, and always as the same request in Go) and
// get the users list. A key given is not printed: the lines read it from a
// file of the user's only, removed at the stop.
func TestPrintedCurlWorks(t *testing.T) {
	noLeaks(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"HTTPS with a generated key", []string{"-addr", "127.0.0.1:0", "-cert", filepath.Join(t.TempDir(), "my cert.pem")}},
		{"HTTP", []string{"-addr", "127.0.0.1:0", "-http"}},
		{"a key given", []string{"-addr", "127.0.0.1:0", "-api-key", "given-key-123"}},
		{"a key given, over HTTP", []string{"-addr", "127.0.0.1:0", "-http", "-api-key", "given-key-123"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := serve(t, tc.args...)
			c := in.curl
			var keyFile string
			if in.apiKey == "" {
				assert.NotContains(t, in.banner, "given-key-123", "the given key is not printed")
				m := regexp.MustCompile(`"\$\(cat ([^)]+)\)"`).FindStringSubmatch(in.banner)
				require.NotNil(t, m, in.banner)
				keyFile = shellWords(t, m[1], nil)[0]
				info, err := os.Stat(keyFile)
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
				assert.Equal(t, "given-key-123", in.env["CHAT_API_KEY"], "the export line reads the key")
			}
			require.Equal(t, "curl", c[0])
			var cacert, header, target string
			for i := 1; i < len(c); i++ {
				switch c[i] {
				case "--cacert":
					i++
					cacert = c[i]
				case "-H":
					i++
					header = c[i]
				default:
					target = c[i]
				}
			}
			assert.Equal(t, in.base+"/v3/users", target)
			assert.Equal(t, in.certFile, cacert)
			name, value, _ := strings.Cut(header, ": ")
			require.Equal(t, "apikey", name)
			require.NotEmpty(t, value)

			if _, err := exec.LookPath("curl"); err == nil {
				line := in.banner[strings.Index(in.banner, "\ncurl ")+1:]
				line = line[:strings.IndexByte(line, '\n')]
				out, err := exec.CommandContext(t.Context(), "sh", "-c", line+" -sS --fail-with-body").CombinedOutput()
				require.NoError(t, err, "%s: %s", line, out)
				assert.True(t, bytes.HasPrefix(out, []byte(`{"data":[]`)), "%s", out)
			}
			hc := &http.Client{Transport: chat.NewTransport()}
			if cacert != "" {
				hc = trusting(t, cacert)
			}
			defer hc.CloseIdleConnections()
			req, err := http.NewRequestWithContext(t.Context(), "GET", target, nil)
			require.NoError(t, err)
			req.Header.Set(name, value)
			resp, err := hc.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			hc.CloseIdleConnections()
			require.NoError(t, in.stop())
			if keyFile != "" {
				_, err := os.Stat(keyFile)
				assert.ErrorIs(t, err, os.ErrNotExist, "removed at the stop")
			}
		})
	}
}

// The environment lines point the quickstart at the running command: it
// runs its whole flow there, and the users it made are on the dashboard.
func TestPrintedEnvironmentRunsTheQuickstart(t *testing.T) {
	noLeaks(t)
	bins := build(t, "./examples/quickstart")
	in := serve(t, "-addr", "127.0.0.1:0")
	want := map[string]string{"CHAT_APP_ID": "test-app", "CHAT_REGION": "us", "CHAT_API_KEY": in.apiKey, "CHAT_BASE_URL": in.base, "CHAT_CA_FILE": in.certFile,
		"CHAT_MGMT_KEY": in.mgmtKey, "CHAT_MGMT_SECRET": in.mgmtSecret, "CHAT_MGMT_BASE_URL": in.base}
	assert.Equal(t, want, in.env)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{40}$`), in.apiKey)

	cmd := exec.CommandContext(t.Context(), bins["quickstart"])
	cmd.Env = os.Environ()
	for k, v := range in.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "Talking to "+in.base+"/v3")
	assert.Contains(t, string(out), `5. thread of message`)
	assert.Contains(t, string(out), `quickstart-bob: "On it, I'll send notes by noon."`)

	hc := trusting(t, in.certFile)
	resp, err := hc.Get(in.base + "/_chattest/users")
	require.NoError(t, err)
	page := new(bytes.Buffer)
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	assert.Contains(t, page.String(), `<tr data-uid="quickstart-alice">`)

	// The management lines reach the Management API.
	mc, err := management.NewClient(in.env["CHAT_MGMT_KEY"], in.env["CHAT_MGMT_SECRET"],
		chat.WithBaseURL(in.env["CHAT_MGMT_BASE_URL"]), chat.WithHTTPClient(hc))
	require.NoError(t, err)
	apps, err := mc.Apps.List(t.Context(), nil)
	require.NoError(t, err)
	require.NotEmpty(t, apps.Data)
	assert.Equal(t, "test-app", apps.Data[0].ID)
	hc.CloseIdleConnections()
	require.NoError(t, in.stop())
}
