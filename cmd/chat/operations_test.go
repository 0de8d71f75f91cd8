package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listedCommand is an entry of chat commands --json.
type listedCommand struct {
	Command string `json:"command"`
	Method  string `json:"method"`
	Path    string `json:"path"`
	API     string `json:"api"`
}

// listCommands runs chat commands --json.
func listCommands(t *testing.T) []listedCommand {
	t.Helper()
	r := runChat(t, baseEnv(t.TempDir()), "", "commands", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var cmds []listedCommand
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &cmds))
	return cmds
}

// referenceOperation is an operation of the reference, as the repository's
// copy of it lists: its API (chat, calls, management or data import),
// method and path.
type referenceOperation struct{ api, method, path, source string }

// referenceOperations reads every operation of the repository's copy of
// the reference: the operation indexes of the chat and platform
// references, and the example fixture of each operation of the chat,
// calls, management and data import API documents.
func referenceOperations(t *testing.T) []referenceOperation {
	t.Helper()
	root := filepath.Join("..", "..", "testdata")
	var ops []referenceOperation
	apiOfBase := func(base, path string) string {
		switch {
		case base == "CALL":
			return "calls"
		case base == "MGMT":
			return "management"
		case strings.HasPrefix(path, "/data_import/"):
			return "data import"
		}
		return "chat"
	}
	for _, file := range []string{"chat-operations.txt", "platform-operations.txt"} {
		b, err := os.ReadFile(filepath.Join(root, file))
		require.NoError(t, err)
		for line := range strings.Lines(string(b)) {
			fields := strings.Fields(line)
			if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
				continue
			}
			base := "CHAT"
			if fields[0] == "CHAT" || fields[0] == "CALL" || fields[0] == "MGMT" {
				base, fields = fields[0], fields[1:]
			}
			ops = append(ops, referenceOperation{apiOfBase(base, fields[1]), fields[0], fields[1], file})
		}
	}
	fixtures, err := filepath.Glob(filepath.Join(root, "reference", "examples", "*", "*.json"))
	require.NoError(t, err)
	require.Len(t, fixtures, 278, "the reference's example fixtures: one per operation")
	docAPI := map[string]string{"chat": "chat", "calls": "calls", "management": "management", "data-import": "data import"}
	for _, f := range fixtures {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var fx struct{ Method, Path string }
		require.NoError(t, json.Unmarshal(b, &fx), f)
		doc := filepath.Base(filepath.Dir(f))
		require.Contains(t, docAPI, doc)
		ops = append(ops, referenceOperation{docAPI[doc], fx.Method, fx.Path, filepath.Join(doc, filepath.Base(f))})
	}
	return ops
}

// pathMatches reports whether a command's path stands for a reference
// path: the same segments, where a parameter matches any segment (the
// extensions' settings: /apps/{appId}/extensions/{extId}/v1/settings is
// the reference's /apps/{appId}/extensions/broadcast/v1/settings).
func pathMatches(cmdPath, refPath string) bool {
	a, b := strings.Split(strings.Trim(cmdPath, "/"), "/"), strings.Split(strings.Trim(refPath, "/"), "/")
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !strings.HasPrefix(a[i], "{") && !strings.HasPrefix(b[i], "{") {
			return false
		}
	}
	return true
}

// TestCommandsCoverEveryOperation checks chat commands --json against the
// reference: every operation of it has a command, and every command is an
// operation of it.
func TestCommandsCoverEveryOperation(t *testing.T) {
	cmds := listCommands(t)
	ref := referenceOperations(t)

	seen := map[string]bool{}
	for _, c := range cmds {
		assert.False(t, seen[c.Command], "%q listed twice", c.Command)
		seen[c.Command] = true
		assert.Regexp(t, `^(GET|POST|PUT|PATCH|DELETE)$`, c.Method, c.Command)
		assert.Regexp(t, `^(/[a-z0-9_.-]+|/\{[A-Za-z]+\})+$`, c.Path, c.Command)
	}

	covered := map[string]bool{} // reference operations, by API, method and path
	var missing []string
	for _, op := range ref {
		key := op.api + " " + op.method + " " + op.path
		ok := slices.ContainsFunc(cmds, func(c listedCommand) bool {
			return c.API == op.api && c.Method == op.method && pathMatches(c.Path, op.path)
		})
		if !ok {
			missing = append(missing, key+" ("+op.source+")")
		}
		covered[key] = true
	}
	assert.Empty(t, missing, "operations of the reference with no command")
	for _, c := range cmds {
		assert.True(t, slices.ContainsFunc(ref, func(op referenceOperation) bool {
			return c.API == op.api && c.Method == op.method && pathMatches(c.Path, op.path)
		}), "chat %s (%s %s) is no operation of the reference", c.Command, c.Method, c.Path)
	}
	t.Logf("%d commands cover the reference: its 278 example fixtures (one per operation) and the %d lines of its two operation indexes (%d distinct method and path pairs in all)",
		len(cmds), len(ref)-278, len(covered))
}

// TestEveryCommandAnswersHelp runs --help of each command chat commands
// lists.
func TestEveryCommandAnswersHelp(t *testing.T) {
	env := baseEnv(t.TempDir())
	for _, c := range listCommands(t) {
		r := runChat(t, env, "", append(strings.Fields(c.Command), "--help")...)
		if !assert.Equal(t, 0, r.code, "chat %s --help: %s", c.Command, r.stderr) {
			continue
		}
		assert.Contains(t, r.stdout, "Usage:\n  chat "+c.Command, c.Command)
		assert.Empty(t, r.stderr, c.Command)
	}
}

// TestOperationCommands runs commands made from the table against
// chattest: flags and fields become the body, path parameters arguments,
// --as the onBehalfOf header, and the answer is printed.
func TestOperationCommands(t *testing.T) {
	f := newFake(t)
	for _, u := range []string{"alice", "bob", "carol"} {
		f.ok(t, "users", "create", u, "--name", u)
	}

	t.Run("body from flags, answer as JSON", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "roles", "create", "--role", "editor", "--name", "Editor", "--description", "edits", "--json")
		sent := f.rec.matching(http.MethodPost, "/v3/roles")
		require.Len(t, sent, 1)
		assert.Equal(t, string(dataOf(t, sent[0].body)), string(compact(t, []byte(r.stdout))))
		got, err := f.client(t).Roles.Get(t.Context(), "editor")
		require.NoError(t, err)
		assert.Equal(t, "Editor", got.Name)
		assert.Equal(t, "edits", got.Description)

		table := f.ok(t, "roles", "get", "editor").stdout
		assert.Regexp(t, `(?m)^FIELD\s+VALUE$`, table)
		assert.Regexp(t, `(?m)^name\s+Editor$`, table)
	})
	t.Run("fields for what no flag holds", func(t *testing.T) {
		f.ok(t, "friends", "add", "alice", "-F", `accepted=["bob","carol"]`)
		var uids []string
		for u, err := range f.client(t).Friends.All(t.Context(), "alice", nil) {
			require.NoError(t, err)
			uids = append(uids, u.UID)
		}
		assert.ElementsMatch(t, []string{"bob", "carol"}, uids)

		r := f.ok(t, "friends", "list", "alice", "--json")
		var friends []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &friends))
		assert.Len(t, friends, 2)
	})
	t.Run("onBehalfOf required", func(t *testing.T) {
		r := f.run(t, []string{"messages", "save", "1"})
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, "--as is required")

		msg := f.ok(t, "messages", "send", "--as", "alice", "--to", "bob", "--text", "hi", "--json")
		var m chat.Message
		require.NoError(t, json.Unmarshal([]byte(msg.stdout), &m))
		f.ok(t, "messages", "pin", m.ID, "--as", "alice")
		r = f.ok(t, "conversations", "get-user", "bob", "--as", "alice", "--json")
		var conv []map[string]any // the API answers with an array of one
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &conv))
		require.Len(t, conv, 1)
		assert.Equal(t, "alice_user_bob", conv[0]["conversationId"])
	})
	t.Run("management, the app from the settings", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "extensions", "list", "--json")
		require.Len(t, f.rec.matching(http.MethodGet, "/apps/"+f.srv.AppID()+"/extensions"), 1)
		var exts []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &exts))
		assert.NotEmpty(t, exts)
	})
	t.Run("a usage error for a missing argument", func(t *testing.T) {
		r := f.run(t, []string{"roles", "get"})
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, "accepts 1 arg(s), received 0")
	})
}

// TestListsShowOnePage checks that a list makes one call and shows one
// page by default, and walks every page only with --all.
func TestListsShowOnePage(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	seedUsers(t, f, 250)
	// u000 has 120 friends (a list of pages) and 120 messages from u001
	// (a list of cursors).
	for i := 1; i <= 120; i += 24 {
		var uids []string
		for j := i; j < i+24 && j <= 120; j++ {
			uids = append(uids, fmt.Sprintf("u%03d", j))
		}
		_, err := f.client(t).Friends.Add(t.Context(), "u000", &chat.AddFriendsRequest{Accepted: uids})
		require.NoError(t, err)
	}
	msgs := make([]chat.ImportMessage, 120)
	for i := range msgs {
		msgs[i] = chat.ImportMessage{MUID: fmt.Sprintf("m%03d", i), Sender: "u001", ReceiverType: chat.ReceiverUser, Receiver: "u000",
			Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: chat.ImportMessageData{Text: fmt.Sprint(i)}, SentAt: chat.Timestamp(1700000000 + i)}
	}
	_, err := f.client(t).DataImport.BulkImportMessages(t.Context(), msgs, &chat.BulkOptions{RequestsPerMinute: 1 << 20})
	require.NoError(t, err)

	t.Run("a hand-written list", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "users", "list")
		pages := f.rec.matching(http.MethodGet, "/v3/users")
		require.Len(t, pages, 1, "one call")
		assert.Contains(t, pages[0].query, "perPage=30")
		assert.Len(t, strings.Split(strings.TrimSpace(r.stdout), "\n"), 31, "a header and 30 rows")

		f.rec.reset()
		r = f.ok(t, "users", "list", "--json")
		var users []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &users))
		assert.Len(t, users, 30, "--json follows the same rule")
		assert.Len(t, f.rec.matching(http.MethodGet, "/v3/users"), 1)
	})
	t.Run("a list of pages made from the table", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "friends", "list", "u000", "--json")
		var items []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
		assert.Len(t, items, 30)
		pages := f.rec.matching(http.MethodGet, "/v3/users/u000/friends")
		require.Len(t, pages, 1)
		assert.Contains(t, pages[0].query, "perPage=30")

		f.rec.reset()
		r = f.ok(t, "friends", "list", "u000", "--all", "--json")
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
		assert.Len(t, items, 120)
		assert.Len(t, f.rec.matching(http.MethodGet, "/v3/users/u000/friends"), 2, "pages of 100")

		r = f.ok(t, "friends", "list", "u000", "--all", "--limit", "110", "--json")
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
		assert.Len(t, items, 110)

		table := f.ok(t, "friends", "list", "u000", "--limit", "3").stdout
		lines := strings.Split(strings.TrimSpace(table), "\n")
		require.Len(t, lines, 4)
		assert.Regexp(t, `^UID\s+NAME\s`, lines[0])
	})
	t.Run("a list of cursors made from the table", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "messages", "list-user", "u001", "--as", "u000", "--json")
		var items []map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
		assert.Len(t, items, 30)
		require.Len(t, f.rec.matching(http.MethodGet, "/v3/users/u001/messages"), 1)

		f.rec.reset()
		r = f.ok(t, "messages", "list-user", "u001", "--as", "u000", "--all", "--json")
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
		ids := map[any]bool{}
		for _, m := range items {
			ids[m["id"]] = true
		}
		assert.Len(t, ids, 120, "each message once")
		assert.GreaterOrEqual(t, len(f.rec.matching(http.MethodGet, "/v3/users/u001/messages")), 2)
	})
	t.Run("--limit above a page needs --all", func(t *testing.T) {
		for _, args := range [][]string{{"users", "list", "--limit", "101"}, {"friends", "list", "u000", "--limit", "500"}} {
			f.rec.reset()
			r := f.run(t, args)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, "--all")
			f.rec.mu.Lock()
			assert.Empty(t, f.rec.exchanges)
			f.rec.mu.Unlock()
		}
	})
}

// TestDestructiveCommandsNeedYes checks that a destructive command run
// without a terminal sends nothing unless --yes is given.
func TestDestructiveCommandsNeedYes(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "alice", "--name", "Alice")
	f.ok(t, "groups", "create", "team", "--name", "Team", "--type", "public", "--owner", "alice")
	f.ok(t, "roles", "create", "--role", "editor", "--name", "Editor")

	for _, args := range [][]string{
		{"users", "delete", "alice", "--permanent"},
		{"groups", "delete", "team"},
		{"roles", "delete", "editor"},
		{"tokens", "flush", "alice"},
		{"users", "deactivate", "alice"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			f.rec.reset()
			r := f.run(t, args)
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, "--yes")
			assert.Contains(t, r.stderr, "nothing was sent")
			f.rec.mu.Lock()
			assert.Empty(t, f.rec.exchanges, "nothing sent")
			f.rec.mu.Unlock()
		})
	}
	_, err := f.client(t).Groups.Get(t.Context(), "team")
	require.NoError(t, err, "the group is still there")

	f.ok(t, "groups", "delete", "team", "--yes")
	_, err = f.client(t).Groups.Get(t.Context(), "team")
	require.Error(t, err)
	f.ok(t, "roles", "delete", "editor", "-y")
}

func TestVersion(t *testing.T) {
	r := runChat(t, baseEnv(t.TempDir()), "", "--version")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `^chat (v\d+\.\d+\.\d+\S*|devel)\b.* chat-go/\S+ go\d`, r.stdout)
}

// TestConfigShow checks that config show names where each setting comes
// from, and masks the credentials.
func TestConfigShow(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	env := append(baseEnv(dir), "CHAT_CONFIG="+cfg)
	r := runChat(t, env, testAPIKey+"\n", "config", "set", "api-key", "-", "--profile", "staging")
	require.Equal(t, 0, r.code, r.stderr)
	r = runChat(t, env, "", "config", "set", "app-id", "from-profile", "--profile", "staging")
	require.Equal(t, 0, r.code, r.stderr)

	r = runChat(t, append(env, "CHAT_PROFILE=staging", "CHAT_MGMT_KEY="+testMgmtKey), "", "config", "show", "--region", "eu")
	require.Equal(t, 0, r.code, r.stderr)
	out := r.stdout
	assert.Regexp(t, `(?m)^app-id\s+from-profile\s+profile staging \(`+regexpQuote(cfg)+`\)$`, out)
	assert.Regexp(t, `(?m)^region\s+eu\s+flag \(--region\)$`, out)
	assert.Regexp(t, `(?m)^api-key\s+\(set\)\s+profile staging`, out)
	assert.Regexp(t, `(?m)^mgmt-key\s+\(set\)\s+environment \(\$CHAT_MGMT_KEY\)$`, out)
	assert.Regexp(t, `(?m)^mgmt-base-url\s+https://apimgmt.cometchat.io\s+default$`, out)
	assert.Regexp(t, `(?m)^base-url\s+https://from-profile.api-eu.cometchat.io/v3\s+default$`, out)
	assert.Regexp(t, `(?m)^profile\s+staging\s+environment \(\$CHAT_PROFILE\)$`, out)
	assert.NotContains(t, out, testAPIKey)
	assert.NotContains(t, out, testMgmtKey)
}

func regexpQuote(s string) string {
	return strings.NewReplacer(`.`, `\.`, `(`, `\(`, `)`, `\)`, `+`, `\+`).Replace(s)
}

// TestErrorsSayWhatToDo checks the way forward errors give.
func TestErrorsSayWhatToDo(t *testing.T) {
	f := newFake(t)
	t.Run("a CA file that is not there", func(t *testing.T) {
		r := f.run(t, []string{"users", "list"}, "CHAT_CA_FILE="+filepath.Join(t.TempDir(), "missing.pem"))
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, "--ca-file")
		assert.Contains(t, r.stderr, "$CHAT_CA_FILE")
	})
	t.Run("a certificate not trusted", func(t *testing.T) {
		r := f.run(t, []string{"users", "list"}, "CHAT_CA_FILE=")
		assert.Equal(t, exitAPI, r.code)
		assert.Contains(t, r.stderr, "x509")
		assert.Contains(t, r.stderr, "not trusted: give the PEM file of the CA that signed it with --ca-file or $CHAT_CA_FILE")
	})
	t.Run("an address nothing answers", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close())
		r := f.run(t, []string{"users", "get", "alice"}, "CHAT_BASE_URL=https://"+addr)
		assert.Equal(t, exitAPI, r.code)
		assert.Regexp(t, `Could not reach https://`+regexpQuote(addr)+` after [2-9] attempts: check the address \(--base-url or \$CHAT_BASE_URL`, r.stderr)
	})
}

// TestBodyMember names the SDK's request fields as the JSON members the
// command's flags and -f name.
func TestBodyMember(t *testing.T) {
	for _, tt := range []struct {
		t          reflect.Type
		name, want string
	}{
		{reflect.TypeFor[chat.CreateUserRequest](), "req.UID", "uid"},
		{reflect.TypeFor[chat.CreateUserRequest](), "req.Tags[3]", "tags[3]"},
		{reflect.TypeFor[chat.CreateGroupRequest](), "req.Members.Participants[1]", "members.participants[1]"},
		{reflect.TypeFor[chat.CreateKeywordListRequest](), "req.File.Content", "File.Content"},
		{reflect.TypeFor[chat.CreateUserRequest](), "req.Nothing", "req.Nothing"},
		{reflect.TypeFor[chat.CreateUserRequest](), "uid", "uid"},
	} {
		assert.Equal(t, tt.want, bodyMember(tt.t, tt.name), tt.name)
	}
}
