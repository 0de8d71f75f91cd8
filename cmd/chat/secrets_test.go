package main

import (
	"encoding/json"
	"encoding/pem"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The credentials of TestCredentialsNeverShow: what a hostile or broken
// server echoes back.
const (
	testAPIKey     = "k3y-0f-th3-4pp-7e57c4a7d00d"
	testMgmtKey    = "mgmt-k3y-5ecr3t-7e57"
	testMgmtSecret = "mgmt-5ecr3t-v4lu3-7e57c4a7"
)

// echoServer answers every request with its credentials in the answer: as
// the API's error (400, which no client retries), or with echo200 as the
// data of a success, in every string the command shows.
func echoServer(t *testing.T, echo200 bool) (url, caFile string) {
	t.Helper()
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		creds := "apikey=" + r.Header.Get("apikey") + " key=" + r.Header.Get("key") + " secret=" + r.Header.Get("secret")
		w.Header().Set("Content-Type", "application/json")
		if !echo200 {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"code": "ERR_BAD_REQUEST", "message": "bad request from " + creds, "devMessage": creds,
				"details": map[string][]string{"apikey": {creds}},
			}})
			return
		}
		item := map[string]any{"uid": creds, "name": creds, "guid": creds, "id": creds, "apiKey": r.Header.Get("apikey"),
			"webhookURL": "https://" + creds, "authToken": creds, "text": creds, "data": map[string]any{"text": creds}}
		var data any = item
		if r.Method == http.MethodGet && (strings.HasSuffix(r.URL.Path, "s") || strings.HasSuffix(r.URL.Path, "triggers")) {
			data = []any{item}
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data, "meta": map[string]any{"pagination": map[string]any{"total": 1, "count": 1, "per_page": 100, "current_page": 1, "total_pages": 1}}})
	}))
	t.Cleanup(ts.Close)
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o644))
	return ts.URL, caFile
}

// TestCredentialsNeverShow runs every command with known credentials
// against a server that echoes them in its errors and in its data, with
// and without --json and --debug, and finds them in no output.
func TestCredentialsNeverShow(t *testing.T) {
	dir := t.TempDir()
	users := filepath.Join(dir, "users.jsonl")
	require.NoError(t, os.WriteFile(users, []byte(`{"uid":"ann","name":"Ann"}`+"\n"), 0o644))
	words := filepath.Join(dir, "words.csv")
	require.NoError(t, os.WriteFile(words, []byte("darn,heck\n"), 0o644))
	commands := [][]string{
		{"users", "list"}, {"users", "get", "u"}, {"users", "create", "u", "--name", "n"}, {"users", "update", "u", "--name", "n"},
		{"users", "delete", "u", "--yes"}, {"users", "deactivate", "u", "--yes"}, {"users", "reactivate", "u"},
		{"tokens", "create", "u"}, {"tokens", "list", "u"}, {"tokens", "delete", "u", "tok", "--yes"},
		{"groups", "list"}, {"groups", "get", "g"}, {"groups", "create", "g", "--name", "n", "--type", "public"},
		{"groups", "update", "g", "--name", "n"}, {"groups", "delete", "g", "--yes"},
		{"friends", "add", "u", "--accepted", "v"}, {"blocked", "block", "u", "--blocked-uids", "v"}, {"blocked", "unblock", "u", "--blocked-uids", "v"},
		{"members", "list", "g"}, {"members", "add", "g", "u"}, {"members", "scope", "g", "u", "admin"}, {"members", "kick", "g", "u", "--yes"},
		{"messages", "send", "--as", "a", "--to", "b", "--text", "t"}, {"messages", "list", "--thread", "1"}, {"messages", "get", "1"},
		{"apikeys", "list"}, {"apikeys", "create", "--name", "n"}, {"apikeys", "delete", "k", "--yes"},
		{"import", "users", users, "--restart"},
		{"moderation", "create-keyword-list", "--id", "k", "--category", "word", "--file", words},
		{"moderation", "update-keyword-list", "k", "--category", "word", "--search-terms", "t"},
		{"app-moderation", "create-keyword-list", "--id", "k", "--category", "word", "--search-terms", "t"},
		{"app-moderation", "update-keyword-list", "k", "--category", "word", "--file", words},
		{"apps", "list"}, {"apps", "create", "--name", "n", "--region", "us"}, {"apps", "delete", "a", "--yes"},
		{"webhooks", "list"}, {"webhooks", "get", "w"}, {"webhooks", "create", "w", "--name", "n", "--url", "https://x.example"},
		{"webhooks", "update", "w", "--name", "n"}, {"webhooks", "delete", "w", "--yes"},
		{"webhooks", "triggers", "list", "w"}, {"webhooks", "triggers", "add", "w", "message_sent"},
		{"webhooks", "triggers", "remove", "w", "message_sent", "--yes"},
		{"webhooks", "trigger", "message_sent", "--to", "https://127.0.0.1:1/hooks"},
		// The commands made from the table share one code path: one of
		// each API and shape.
		{"roles", "list"}, {"calls", "get", "s"}, {"extensions", "get-settings", "x"}, {"moderation", "delete-rule", "r", "--yes"},
		{"data-import", "import-users", "-F", "users=[]"}, {"notifications", "get-contact-details", "--as", "u"},
		{"api", "/users/u"}, {"api", "-X", "POST", "/apps", "-f", "name=n"}, {"commands"},
		{"config", "list"}, {"config", "path"}, {"config", "show"}, {"config", "set", "region", "eu"}, {"config", "unset", "region"},
	}
	for _, leaf := range commandPaths(t, true) {
		covered := slices.ContainsFunc(commands, func(args []string) bool {
			return len(args) >= len(leaf) && slices.Equal(args[:len(leaf)], leaf)
		})
		assert.True(t, covered, "chat %s is not run by this test", strings.Join(leaf, " "))
	}

	// A profile holds the credentials too: config list must not show them.
	env := baseEnv(dir)
	cfgEnv := append(env, "CHAT_CONFIG="+filepath.Join(dir, "config.toml"))
	for _, kv := range [][2]string{{"api-key", testAPIKey}, {"mgmt-key", testMgmtKey}, {"mgmt-secret", testMgmtSecret}} {
		r := runChat(t, cfgEnv, kv[1]+"\n", "config", "set", kv[0], "-")
		require.Equal(t, 0, r.code, r.stderr)
	}
	info, err := os.Stat(filepath.Join(dir, "config.toml"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	for _, mode := range []struct {
		name    string
		echo200 bool
	}{{"errors", false}, {"data", true}} {
		url, ca := echoServer(t, mode.echo200)
		runEnv := append(slices.Clone(cfgEnv), "CHAT_APP_ID=app", "CHAT_BASE_URL="+url, "CHAT_CA_FILE="+ca, "CHAT_MGMT_BASE_URL="+url)
		for _, args := range commands {
			for _, extra := range [][]string{nil, {"--json"}, {"--debug"}} {
				args := append(slices.Clone(args), extra...)
				t.Run(mode.name+"/"+strings.Join(args, " "), func(t *testing.T) {
					r := runChat(t, runEnv, "", args...)
					out := r.stdout + r.stderr
					for _, secret := range []string{testAPIKey, testMgmtKey, testMgmtSecret} {
						assert.NotContains(t, out, secret)
					}
					if args[0] == "config" || args[0] == "commands" || slices.Contains(args, "trigger") {
						return
					}
					// The server echoed them in its error, or in the data
					// --json prints whole: the command hid them.
					if !mode.echo200 {
						assert.Equal(t, 1, r.code, r.stderr)
						assert.Contains(t, r.stderr, "ERR_BAD_REQUEST")
						assert.Contains(t, r.stderr, "REDACTED")
					} else if slices.Contains(args, "--json") && r.code == 0 {
						assert.Contains(t, r.stdout, "REDACTED")
					}
				})
			}
		}
	}
}

// The credentials a server stores and sends back in its answers: a
// webhook's Basic-auth password (in its own member and in its URL), a
// group's password, an app's access key and the API keys of an app the
// command did not create.
const (
	storedHookPassword  = "h00k-pa55w0rd-7e57"
	storedURLPassword   = "ur1-pa55w0rd-7e57"
	storedGroupPassword = "gr0up-pa55w0rd-7e57"
	storedAccessKey     = "acce55-k3y-7e57c4a7"
	storedAppKey        = "0th3r-4pp-k3y-7e57c4a7"
	createdAppKey       = "n3w-4pp-k3y-7e57c4a7"
	createdAPIKey       = "n3w-ap1-k3y-7e57c4a7"
	givenPassword       = "g1v3n-pa55w0rd-7e57"
)

// storingServer answers as a service that echoes the credentials it
// stores: every answer holds them.
func storingServer(t *testing.T) (url, caFile string) {
	t.Helper()
	hook := map[string]any{"id": "w", "name": "n", "webhookURL": "https://bob:" + storedURLPassword + "@hooks.example/x",
		"useBasicAuth": true, "username": "bob", "password": storedHookPassword, "enabled": true}
	app := func(key string) map[string]any {
		return map[string]any{"id": "a", "name": "n", "region": "us", "state": "active", "accessKey": storedAccessKey,
			"apiKeys": map[string]any{key: map[string]any{"apiKey": key, "name": "Rest API Key", "scope": "fullAccess"}}}
	}
	group := map[string]any{"guid": "g", "name": "n", "type": "password", "password": storedGroupPassword}
	page := map[string]any{"pagination": map[string]any{"total": 1, "count": 1, "per_page": 100, "current_page": 1, "total_pages": 1}}
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A password the request carried comes back in another member.
		var sent struct{ Password string }
		json.NewDecoder(r.Body).Decode(&sent)
		var data any
		switch p := r.URL.Path; {
		case strings.HasSuffix(p, "/webhooks") && r.Method == http.MethodGet:
			data = []any{hook}
		case strings.Contains(p, "/webhooks"):
			data = maps.Clone(hook)
			data.(map[string]any)["name"] = "hook of " + sent.Password
		case p == "/apps" && r.Method == http.MethodGet:
			data = []any{app(storedAppKey)}
		case p == "/apps":
			data = app(createdAppKey)
		case p == "/v3/groups" && r.Method == http.MethodGet:
			data = []any{group}
		case strings.HasPrefix(p, "/v3/groups"):
			data = maps.Clone(group)
			data.(map[string]any)["description"] = "joined with " + sent.Password
		case p == "/v3/apikeys":
			data = map[string]any{"apiKey": createdAPIKey, "name": "n", "scope": "authOnly"}
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"data": data, "meta": page})
	}))
	t.Cleanup(ts.Close)
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o644))
	return ts.URL, caFile
}

// TestStoredCredentialsNeverShow: the credentials a service keeps and
// echoes back (passwords, an app's access key and keys) show as REDACTED
// in tables and in --json alike, while a key the command just created is
// shown, once.
func TestStoredCredentialsNeverShow(t *testing.T) {
	dir := t.TempDir()
	url, ca := storingServer(t)
	env := append(baseEnv(dir), "CHAT_APP_ID=app", "CHAT_API_KEY="+testAPIKey, "CHAT_MGMT_KEY="+testMgmtKey,
		"CHAT_MGMT_SECRET="+testMgmtSecret, "CHAT_BASE_URL="+url, "CHAT_CA_FILE="+ca, "CHAT_MGMT_BASE_URL="+url)
	stored := []string{storedHookPassword, storedURLPassword, storedGroupPassword, storedAccessKey, storedAppKey, givenPassword}
	for _, args := range [][]string{
		{"webhooks", "create", "w", "--name", "n", "--url", "https://hooks.example/x", "--basic-auth", "--username", "bob", "--password-stdin"},
		{"webhooks", "update", "w", "--password-stdin"},
		{"groups", "create", "g", "--name", "n", "--type", "password", "--password", givenPassword},
		{"groups", "update", "g", "--password", givenPassword},
		{"webhooks", "list"}, {"webhooks", "get", "w"}, {"webhooks", "create", "w", "--name", "n", "--url", "https://hooks.example/x"},
		{"webhooks", "update", "w", "--name", "n"}, {"apps", "list"}, {"apps", "create", "--name", "n", "--region", "us"},
		{"groups", "list"}, {"groups", "get", "g"}, {"groups", "create", "g", "--name", "n", "--type", "public"},
		{"groups", "update", "g", "--name", "n"}, {"apikeys", "create", "--name", "n"},
	} {
		for _, extra := range [][]string{nil, {"--json"}, {"--debug"}} {
			args := append(slices.Clone(args), extra...)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				r := runChat(t, env, givenPassword+"\n", args...)
				require.Equal(t, 0, r.code, r.stderr)
				for _, secret := range stored {
					assert.NotContains(t, r.stdout+r.stderr, secret)
				}
				if !slices.Contains(args, "--json") {
					return
				}
				var v any
				require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), "--json prints JSON: %s", r.stdout)
				switch args[0] {
				case "webhooks":
					assert.Contains(t, r.stdout, `"password": "REDACTED"`)
					assert.Contains(t, r.stdout, `"webhookURL": "https://bob:xxxxx@hooks.example/x"`)
					assert.Contains(t, r.stdout, `"username": "bob"`, "what is not a credential is kept")
				case "groups":
					assert.Contains(t, r.stdout, `"password": "REDACTED"`)
				case "apps":
					assert.Contains(t, r.stdout, `"accessKey": "REDACTED"`)
					if args[1] == "create" {
						assert.Contains(t, r.stdout, createdAppKey, "a new app's keys are shown once")
					}
				case "apikeys":
					assert.Contains(t, r.stdout, createdAPIKey, "a new key is shown once")
				}
			})
		}
	}
}
