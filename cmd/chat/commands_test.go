package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedUsers creates n users uNNN through the SDK.
func seedUsers(t *testing.T, f *fake, n int) {
	t.Helper()
	users := make([]chat.ImportUser, n)
	for i := range users {
		users[i] = chat.ImportUser{UID: fmt.Sprintf("u%03d", i), Name: fmt.Sprintf("User %d", i), Metadata: map[string]any{"n": i}, Tags: []string{"t"}}
	}
	_, err := f.client(t).DataImport.BulkImportUsers(t.Context(), users, &chat.BulkOptions{RequestsPerMinute: 1 << 20})
	require.NoError(t, err)
}

func TestUsersListJSONIsEveryPageTheAPIAnswered(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	seedUsers(t, f, 250)
	f.rec.reset()

	r := f.ok(t, "users", "list", "--json", "--all")

	pages := f.rec.matching(http.MethodGet, "/v3/users")
	require.Len(t, pages, 3, "100 users a page")
	assert.Equal(t, string(dataArrays(t, pages)), string(compact(t, []byte(r.stdout))))
	var users []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &users))
	require.Len(t, users, 250)
	assert.Equal(t, "u000", users[0]["uid"])
	assert.Equal(t, map[string]any{"n": 0.0}, users[0]["metadata"], "fields the SDK decodes are kept as sent")
}

func TestUsersListLimitStopsPaging(t *testing.T) {
	f := newFake(t, chattest.WithDataImportLimit(0))
	seedUsers(t, f, 250)
	f.rec.reset()

	r := f.ok(t, "users", "list", "--json", "--limit", "30")
	var users []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &users))
	assert.Len(t, users, 30)
	pages := f.rec.matching(http.MethodGet, "/v3/users")
	require.Len(t, pages, 1)
	assert.Contains(t, pages[0].query, "perPage=30")

	table := f.ok(t, "users", "list", "--limit", "2").stdout
	lines := strings.Split(strings.TrimSpace(table), "\n")
	require.Len(t, lines, 3)
	assert.Regexp(t, `^UID\s+NAME\s+STATUS\s+ROLE\s+CREATED$`, lines[0])
	assert.Regexp(t, `^u000\s+User 0\s+offline\s+default\s+\d{4}-\d\d-\d\dT`, lines[1])
}

func TestUsersGetJSONIsTheAPIAnswer(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "alice", "--name", "Alice", "--metadata", `{"plan":"pro","seats":3}`, "--tag", "vip")
	f.rec.reset()

	r := f.ok(t, "users", "get", "alice", "--json")

	got := f.rec.matching(http.MethodGet, "/v3/users/alice")
	require.Len(t, got, 1)
	assert.Equal(t, string(dataOf(t, got[0].body)), string(compact(t, []byte(r.stdout))))
	var u map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &u))
	assert.Equal(t, "Alice", u["name"])

	human := f.ok(t, "users", "get", "alice").stdout
	assert.Regexp(t, `(?m)^uid\s+alice$`, human)
	assert.Regexp(t, `(?m)^metadata\s+\{"plan":"pro","seats":3\}$`, human)
}

func TestMessagesSendJSONContract(t *testing.T) {
	f := newFake(t)
	for _, u := range []string{"alice", "bob"} {
		f.ok(t, "users", "create", u, "--name", u)
	}
	f.ok(t, "groups", "create", "team", "--name", "Team", "--type", "public", "--owner", "alice")

	t.Run("to a user", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "messages", "send", "--as", "alice", "--to", "bob", "--text", "hello", "--json")
		sent := f.rec.matching(http.MethodPost, "/v3/messages")
		require.Len(t, sent, 1)
		assert.Equal(t, string(dataOf(t, sent[0].body)), string(compact(t, []byte(r.stdout))))
		var m chat.Message
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &m))
		assert.Equal(t, "alice", m.Sender)
		assert.Equal(t, "bob", m.Receiver)
		assert.Equal(t, chat.ReceiverUser, m.ReceiverType)
		assert.Equal(t, "hello", m.Data.Text)
	})
	t.Run("to a group, then a reply in its thread", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "messages", "send", "--as", "alice", "--to", "team", "--group", "--text", "standup?", "--json")
		var parent chat.Message
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &parent))
		assert.Equal(t, chat.ReceiverGroup, parent.ReceiverType)
		assert.Equal(t, "team", parent.Receiver)

		r = f.ok(t, "messages", "send", "--as", "alice", "--to", "team", "--group", "--text", "at 10", "--thread", parent.ID, "--json")
		sent := f.rec.matching(http.MethodPost, "/v3/messages/"+parent.ID+"/thread")
		require.Len(t, sent, 1)
		assert.Equal(t, string(dataOf(t, sent[0].body)), string(compact(t, []byte(r.stdout))))
		var reply chat.Message
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &reply))
		assert.Equal(t, parent.ID, reply.ParentID)
		assert.Equal(t, "alice", reply.Sender)

		thread := f.ok(t, "messages", "list", "--thread", parent.ID, "--json").stdout
		var replies []chat.Message
		require.NoError(t, json.Unmarshal([]byte(thread), &replies))
		require.Len(t, replies, 1)
		assert.Equal(t, "at 10", replies[0].Data.Text)
	})
	t.Run("the conversation of two users", func(t *testing.T) {
		f.ok(t, "messages", "send", "--as", "bob", "--to", "alice", "--text", "hi back")
		out := f.ok(t, "messages", "list", "--with", "bob", "--as", "alice").stdout
		assert.Regexp(t, `(?m)^\d+\s+\S+\s+alice\s+bob\s+text\s+0\s+hello$`, out)
		assert.Regexp(t, `(?m)^\d+\s+\S+\s+bob\s+alice\s+text\s+0\s+hi back$`, out)
	})
}

func TestExitStatusAndErrors(t *testing.T) {
	f := newFake(t)
	t.Run("API error", func(t *testing.T) {
		r := f.run(t, []string{"users", "get", "nobody"})
		assert.Equal(t, 1, r.code)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "404 ERR_UID_NOT_FOUND")
	})
	t.Run("API error of a list with --json", func(t *testing.T) {
		r := f.run(t, []string{"users", "list", "--json"}, "CHAT_API_KEY=not-the-key")
		assert.Equal(t, 1, r.code)
		assert.Empty(t, r.stdout, "no JSON begun for a list that failed")
		assert.Contains(t, r.stderr, "401 AUTH_ERR_APIKEY_NOT_FOUND")
		assert.NotContains(t, r.stderr, "not-the-key")
	})
	t.Run("a bad --limit", func(t *testing.T) {
		r := f.run(t, []string{"users", "list", "--json", "--limit", "-1"})
		assert.Equal(t, 2, r.code)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "--limit must be at least 1")
	})
	t.Run("unknown flag", func(t *testing.T) {
		r := f.run(t, []string{"users", "list", "--bogus"})
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "unknown flag: --bogus")
		assert.Contains(t, r.stderr, "Run 'chat users list --help' for usage.")
	})
	t.Run("unknown command", func(t *testing.T) {
		r := f.run(t, []string{"user", "list"})
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, `unknown command "user" for "chat"; did you mean "users"?`)
	})
	t.Run("missing argument", func(t *testing.T) {
		r := f.run(t, []string{"users", "get"})
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "accepts 1 arg(s), received 0")
	})
	t.Run("an argument the SDK refuses", func(t *testing.T) {
		r := f.run(t, []string{"users", "get", ".."})
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "invalid argument uid")
	})
	t.Run("no API key", func(t *testing.T) {
		r := runChat(t, append(baseEnv(t.TempDir()), "CHAT_APP_ID=x"), "", "users", "list")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "no API key")
	})
	t.Run("plain http only on loopback", func(t *testing.T) {
		r := runChat(t, append(baseEnv(t.TempDir()), "CHAT_APP_ID=x", "CHAT_API_KEY=k", "CHAT_BASE_URL=http://example.com"), "", "users", "list")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "base")
	})
}

func TestGroupsAndMembers(t *testing.T) {
	f := newFake(t)
	for _, u := range []string{"alice", "bob", "carol"} {
		f.ok(t, "users", "create", u, "--name", strings.ToUpper(u[:1])+u[1:])
	}
	f.ok(t, "groups", "create", "team", "--name", "Team", "--type", "private", "--owner", "alice")
	out := f.ok(t, "members", "add", "team", "bob", "carol", "--scope", "moderator").stdout
	assert.Regexp(t, `(?m)^bob\s+added as moderator$`, out)
	f.ok(t, "members", "kick", "team", "carol", "--yes")

	f.rec.reset()
	r := f.ok(t, "members", "list", "team", "--json")
	assert.Equal(t, string(dataArrays(t, f.rec.matching(http.MethodGet, "/v3/groups/team/members"))), string(compact(t, []byte(r.stdout))))
	var members []chat.GroupMember
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &members))
	scopes := map[string]chat.MemberScope{}
	for _, m := range members {
		scopes[m.UID] = m.Scope
	}
	assert.Equal(t, map[string]chat.MemberScope{"alice": chat.MemberAdmin, "bob": chat.MemberModerator}, scopes)

	table := f.ok(t, "groups", "list").stdout
	assert.Regexp(t, `(?m)^team\s+Team\s+private\s+2\s+alice\s+`, table)
}

// TestPerItemFailures shows, for each command answering per user, why the
// service refused a user: in the table and in the JSON.
func TestPerItemFailures(t *testing.T) {
	f := newFake(t)
	for _, u := range []string{"alice", "bob"} {
		f.ok(t, "users", "create", u, "--name", strings.ToUpper(u[:1])+u[1:])
	}
	f.ok(t, "groups", "create", "team", "--name", "Team", "--owner", "alice")
	f.ok(t, "members", "add", "team", "bob")

	out := f.ok(t, "members", "add", "team", "bob").stdout
	assert.Regexp(t, `(?m)^bob\s+failed: ERR_ALREADY_JOINED: The user bob is already a member of the group team\.$`, out)
	var added chat.AddMembersResponse
	require.NoError(t, json.Unmarshal([]byte(f.ok(t, "members", "add", "team", "bob", "--json").stdout), &added))
	assert.Equal(t, "The user bob is already a member of the group team.", added.Participants["bob"].Reason())

	f.ok(t, "friends", "add", "alice", "-F", `accepted=["bob"]`)
	out = f.ok(t, "friends", "add", "alice", "-F", `accepted=["bob","nobody"]`).stdout
	assert.Regexp(t, `(?m)^bob\s+failed: The user bob is already a friend of alice\.$`, out)
	assert.Regexp(t, `(?m)^nobody\s+failed: The user with uid nobody does not exist or has been deactivated\.$`, out)

	out = f.ok(t, "blocked", "block", "alice", "-F", `blockedUids=["bob","nobody"]`).stdout
	assert.Regexp(t, `(?m)^bob\s+blocked$`, out)
	assert.Regexp(t, `(?m)^nobody\s+failed: The user with uid nobody does not exist or has been deactivated\.$`, out)
	out = f.ok(t, "blocked", "unblock", "alice", "-F", `blockedUids=["bob"]`).stdout
	assert.Regexp(t, `(?m)^bob\s+unblocked$`, out)
}

// TestUsersDeactivateReactivateDelete shows what became of each uid a
// deactivation, a reactivation and a soft delete named.
func TestUsersDeactivateReactivateDelete(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "alice", "--name", "Alice")
	f.ok(t, "users", "create", "bob", "--name", "Bob")

	out := f.ok(t, "users", "deactivate", "alice", "Ghost", "--yes").stdout
	assert.Regexp(t, `(?m)^deactivated\s+alice$`, out)
	assert.Regexp(t, `(?m)^already deactivated\s+-$`, out)
	assert.Regexp(t, `(?m)^not found\s+Ghost$`, out)

	out = f.ok(t, "users", "reactivate", "alice", "bob").stdout
	assert.Regexp(t, `(?m)^reactivated\s+alice$`, out)
	assert.Regexp(t, `(?m)^not deactivated\s+bob$`, out)

	out = f.ok(t, "users", "delete", "bob", "--yes").stdout
	assert.Regexp(t, `(?m)^success\s+yes$`, out, "a soft delete deactivates the user")
	assert.Regexp(t, `(?m)^deactivated\s+bob$`, out)
	out = f.ok(t, "users", "delete", "bob", "--permanent", "--yes").stdout
	assert.Regexp(t, `(?m)^success\s+yes$`, out)
	assert.Regexp(t, `(?m)^message\s+User bob has been deleted successfully\.$`, out)
	assert.NotContains(t, out, "deactivated")
}

func TestTokensMintALogin(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "tester", "--name", "Tester")
	r := f.ok(t, "tokens", "create", "tester", "--json")
	var tok chat.AuthToken
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tok))
	require.NotEmpty(t, tok.AuthToken)

	list := f.ok(t, "tokens", "list", "tester").stdout
	assert.Contains(t, list, string(tok.AuthToken), "the token is the user's to log in with: shown")
	f.ok(t, "tokens", "delete", "tester", string(tok.AuthToken), "--yes")
	assert.NotContains(t, f.ok(t, "tokens", "list", "tester").stdout, string(tok.AuthToken))
}

func TestWebhooksThroughTheManagementAPI(t *testing.T) {
	f := newFake(t)
	f.ok(t, "webhooks", "create", "orders", "--name", "Orders", "--url", "https://hooks.example.com/chat")
	f.ok(t, "webhooks", "triggers", "add", "orders", "message_sent", "group_created")
	f.rec.reset()
	r := f.ok(t, "webhooks", "triggers", "list", "orders", "--json")
	xs := f.rec.matching(http.MethodGet, "/apps/"+f.srv.AppID()+"/webhooks/orders/triggers")
	require.Len(t, xs, 1)
	assert.Equal(t, string(dataOf(t, xs[0].body)), string(compact(t, []byte(r.stdout))))

	hooks, err := f.mgmtClient(t).Webhooks.ListTriggers(t.Context(), f.srv.AppID(), "orders")
	require.NoError(t, err)
	assert.Len(t, hooks, 2)

	f.ok(t, "webhooks", "update", "orders", "--enabled=false")
	assert.Regexp(t, `(?m)^orders\s+Orders\s+https://hooks.example.com/chat\s+no\s+`, f.ok(t, "webhooks", "list").stdout)
	assert.Regexp(t, `(?m)^`+f.srv.AppID()+`\s+`, f.ok(t, "apps", "list").stdout)
}

// A password group's password can come from standard input, out of the
// process list: the group takes it (a client joins with it, and is refused
// without it) and the command's output never shows it. Given both ways,
// the command refuses with a usage error.
func TestGroupPasswordFromStdin(t *testing.T) {
	f := newFake(t)
	for _, u := range []string{"alice", "bob"} {
		f.ok(t, "users", "create", u, "--name", u)
	}
	const pw = "s3cret-vault-pass"
	r := runChat(t, append(baseEnv(f.dir), f.env...), pw+"\n",
		"groups", "create", "vault", "--name", "Vault", "--type", "password", "--owner", "alice", "--password-stdin", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout+r.stderr, pw)

	tok, err := f.client(t).AuthTokens.Create(t.Context(), "bob", &chat.CreateAuthTokenRequest{})
	require.NoError(t, err)
	join := func(password string) int {
		body, _ := json.Marshal(map[string]string{"password": password})
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL()+"/v3.0/groups/vault/members", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("appId", f.srv.AppID())
		req.Header.Set("authToken", string(tok.AuthToken))
		req.Header.Set("Content-Type", "application/json")
		resp, err := f.srv.HTTPClient().Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, join("wrong"), "the group has a password")
	assert.Equal(t, http.StatusOK, join(pw), "the password read from standard input")

	r = runChat(t, append(baseEnv(f.dir), f.env...), pw+"\n", "groups", "update", "vault", "--password", "other-pass", "--password-stdin")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--password or --password-stdin, not both")
}

// TestBodiesAreCheckedAsTheSDKChecksThem runs the SDK's Validate of an
// operation's request type on the body a command built: a body it refuses
// is not sent, and the error names the member at fault as the command's
// flags and -f name it.
func TestBodiesAreCheckedAsTheSDKChecksThem(t *testing.T) {
	f := newFake(t)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"an id the service cannot take", []string{"users", "create", "a b", "--name", "A"}, `chat: the body's "uid" may hold only letters`},
		{"a tag too long", []string{"users", "create", "ann", "--name", "Ann", "--tag", "ok", "--tag", strings.Repeat("t", 101)},
			`chat: the body's "tags[1]" must be at most 100 characters`},
		{"a nested member", []string{"groups", "create", "club", "--name", "Club", "-F", `members={"participants":["ann",""]}`},
			`chat: the body's "members.participants[1]" must not be empty`},
		{"no body at all", []string{"blocked", "block", "ann"}, `chat: the body's "blockedUids" must not be empty`},
		{"a rule on the whole body", []string{"notifications", "update-contact-details", "--as", "ann"}, "chat: the body must set Email or PhoneNumber"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f.rec.reset()
			r := f.run(t, tt.args)
			assert.Equal(t, 2, r.code)
			assert.Contains(t, r.stderr, tt.want)
			f.rec.mu.Lock()
			defer f.rec.mu.Unlock()
			assert.Empty(t, f.rec.exchanges, "requests sent")
		})
	}
	t.Run("a body the request type cannot hold goes to the service", func(t *testing.T) {
		f.rec.reset()
		r := f.run(t, []string{"users", "create", "ann", "--name", "Ann", "-F", `tags="vip"`})
		assert.Equal(t, 1, r.code, r.stderr)
		assert.Len(t, f.rec.matching(http.MethodPost, "/v3/users"), 1)
	})
	t.Run("an update the SDK sends as given", func(t *testing.T) {
		// TwilioProvider's Validate is that of AddTwilioProvider; its
		// update sends the fields set.
		f.rec.reset()
		f.run(t, []string{"notifications", "update-twilio-provider", "--twilio-sender-phone-number", "+14155550100"})
		assert.Len(t, f.rec.matching(http.MethodPut, "/v3/notifications/sms/v1/providers/twilio"), 1)
	})
}
