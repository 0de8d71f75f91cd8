package chattest_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// dashPages are the dashboard's pages, below /_chattest/.
var dashPages = []string{"", "users", "groups", "conversations", "messages", "webhooks", "requests"}

// getPage fetches a dashboard page from srv, asserting a 200 HTML answer,
// and returns its body.
func getPage(t *testing.T, srv *chattest.Server, hc *http.Client, page string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.DashboardURL()+page, nil)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", page, b)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'")
	return string(b)
}

// row returns the table row of page whose data attribute attr is value.
func row(t *testing.T, page, attr, value string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<tr ` + attr + `="` + regexp.QuoteMeta(value) + `"[^>]*>.*?</tr>`).FindString(page)
	require.NotEmpty(t, m, "no row %s=%q in\n%s", attr, value, page)
	return m
}

// cells returns the text of the cells of a table row, tags removed,
// entities decoded and spaces collapsed.
func cells(tr string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(tr, -1) {
		plain := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], " "))
		out = append(out, strings.Join(strings.Fields(plain), " "))
	}
	return out
}

// dashScene fills srv through the API with what every page shows: users
// with auth tokens, a group, a conversation with a thread and reactions,
// a webhook with a delivered and a failed delivery, and a faulted request.
// It returns the secrets it used.
func dashScene(t *testing.T, srv *chattest.Server) (secrets []string) {
	t.Helper()
	ctx := t.Context()
	client := srv.Client(chat.WithoutRetries())
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "broken") {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(recv.Close)
	mc := srv.ManagementClient(chat.WithoutRetries())
	for _, id := range []string{"good", "broken"} {
		_, err := mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{
			ID: id, Name: "Hook " + id, URL: recv.URL + "/" + id, UseBasicAuth: true, Username: "hooks", Password: chat.Secret("hook-password-" + id),
			RetryOnFailure: id == "broken",
		})
		require.NoError(t, err)
		_, err = mc.Webhooks.AddTriggers(ctx, srv.AppID(), id, []webhook.Trigger{"message_sent"})
		require.NoError(t, err)
		secrets = append(secrets, "hook-password-"+id)
	}

	for _, u := range []struct{ uid, name string }{{"alice", "Alice"}, {"bob", "Bob"}, {"carol", "<b>Carol</b> & co"}} {
		created, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: u.uid, Name: u.name, WithAuthToken: true})
		require.NoError(t, err)
		secrets = append(secrets, string(created.AuthToken))
	}
	tok, err := client.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	secrets = append(secrets, string(tok.AuthToken))
	key, err := client.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "CI", Scope: chat.ScopeAuthOnly})
	require.NoError(t, err)
	secrets = append(secrets, string(key.APIKey), srv.APIKey(), srv.ManagementKey(), srv.ManagementSecret())

	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "The Team", Type: chat.GroupPublic, Owner: "alice"})
	require.NoError(t, err)
	_, err = client.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"bob"}, Moderators: []string{"carol"}})
	require.NoError(t, err)

	hi, err := client.Messages.Send(ctx, toUser("bob", "Hi <Bob>"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, toUser("bob", "are you there?"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.SendThread(ctx, hi.ID, "bob", toUser("alice", "Hello Alice"))
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, hi.ID, "👍", "bob")
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, hi.ID, "👍", "alice")
	require.NoError(t, err)
	_, err = client.Messages.AddReaction(ctx, hi.ID, "🎉", "bob")
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: text("team news")}, chat.OnBehalfOf("carol"))
	require.NoError(t, err)

	require.NoError(t, srv.Fail(chattest.Fault{Route: "GET /v3/users/{uid}", Kind: chattest.FaultStatus, Status: 503, Times: 1}))
	_, err = client.Users.Get(ctx, "bob")
	requireAPIError(t, err, http.StatusServiceUnavailable, "ERR_MISSION_FAILED", chat.ErrServer)

	// 3 message_sent events (the thread reply is one too) to 2 webhooks.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, srv.AwaitDeliveries(ctx, 8))
	return secrets
}

// TestDashboardConversationOrder: the dashboard lists conversations in the
// conversation list's order, the newest last message first by when it was
// sent: an imported message stored last but sent earlier puts its
// conversation after the others.
func TestDashboardConversationOrder(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave")
	ctx := t.Context()
	_, err := client.Messages.Send(ctx, toUser("bob", "now"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.DataImport.ImportMessages(ctx, []chat.ImportMessage{{MUID: "old", Sender: "carol", ReceiverType: chat.ReceiverUser,
		Receiver: "dave", Data: chat.ImportMessageData{Text: "last year"}, SentAt: chat.TimestampOf(t0.AddDate(-1, 0, 0))}})
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, toUser("carol", "now too"), chat.OnBehalfOf("bob"))
	require.NoError(t, err)

	p := getPage(t, srv, srv.HTTPClient(), "conversations")
	at := func(id string) int {
		row(t, p, "data-conversation", id)
		return strings.Index(p, `data-conversation="`+id+`"`)
	}
	assert.Less(t, at("bob_user_carol"), at("alice_user_bob"), "of two sent in the same second, the later first")
	assert.Less(t, at("alice_user_bob"), at("carol_user_dave"), "the message sent last year last")
}

func TestDashboardPages(t *testing.T) {
	srv, _ := start(t)
	hc := srv.HTTPClient()
	secrets := dashScene(t, srv)

	t.Run("overview", func(t *testing.T) {
		p := getPage(t, srv, hc, "")
		assert.Contains(t, p, `<title>Overview · chattest · test-app</title>`)
		assert.Regexp(t, `id="count-users">3<`, p)
		assert.Regexp(t, `id="count-groups">1<`, p)
		assert.Regexp(t, `id="count-conversations">2<`, p)
		assert.Regexp(t, `id="count-messages">\d+<`, p)
		assert.Regexp(t, `id="count-webhooks">2<`, p)
		assert.Regexp(t, `id="count-deliveries">8<`, p)
		assert.Contains(t, p, "••••"+srv.APIKey()[36:], "the API key, masked")
	})

	t.Run("users and their tokens, masked", func(t *testing.T) {
		p := getPage(t, srv, hc, "users")
		c := cells(row(t, p, "data-uid", "alice"))
		assert.Equal(t, []string{"alice", "Alice", "default", "offline", "active"}, c[:5])
		assert.Equal(t, "1 ••••"+secrets[2][len(secrets[2])-4:], c[6], "alice's token")
		assert.Equal(t, "1 ••••"+secrets[3][len(secrets[3])-4:], cells(row(t, p, "data-uid", "bob"))[6], "bob's token")
		assert.Contains(t, row(t, p, "data-uid", "carol"), "&lt;b&gt;Carol&lt;/b&gt; &amp; co", "escaped")
		assert.NotContains(t, p, "<b>Carol</b>")
	})

	t.Run("groups and members", func(t *testing.T) {
		p := getPage(t, srv, hc, "groups")
		c := cells(row(t, p, "data-guid", "team"))
		assert.Equal(t, []string{"team", "The Team", "public", "alice"}, c[:4])
		assert.Equal(t, "3 alice admin carol moderator bob participant", c[5])
	})

	t.Run("conversations with unread counts", func(t *testing.T) {
		p := getPage(t, srv, hc, "conversations")
		c := cells(row(t, p, "data-conversation", "alice_user_bob"))
		assert.Equal(t, []string{"alice_user_bob", "user", "alice & bob", "2"}, c[:4])
		assert.True(t, strings.HasPrefix(c[4], "alice: are you there?"), c[4])
		assert.Equal(t, "alice: 0 bob: 2", c[5])
		c = cells(row(t, p, "data-conversation", "group_team"))
		assert.Equal(t, "alice: 1 carol: 0 bob: 1", c[5])
		assert.Less(t, strings.Index(p, "group_team"), strings.Index(p, "alice_user_bob"), "the most recent first")
	})

	t.Run("messages with threads and reactions", func(t *testing.T) {
		p := getPage(t, srv, hc, "messages?conversation=alice_user_bob")
		assert.Contains(t, p, "Hi &lt;Bob&gt;")
		assert.NotContains(t, p, "team news", "another conversation")
		thread := regexp.MustCompile(`(?s)<ol class="thread" aria-label="thread of message \d+">(.*?)</ol>`).FindStringSubmatch(p)
		require.NotNil(t, thread, p)
		assert.Contains(t, thread[1], "Hello Alice")
		assert.Contains(t, thread[1], `<b class="sender">bob</b>`)
		reactions := regexp.MustCompile(`(?s)<ul class="reactions">(.*?)</ul>`).FindStringSubmatch(p)
		require.NotNil(t, reactions)
		assert.Equal(t, []string{"👍 2 bob, alice", "🎉 1 bob"}, cells(strings.NewReplacer("<li", "<td", "</li>", "</td>").Replace(reactions[1])))
		all := getPage(t, srv, hc, "messages")
		assert.Contains(t, all, "team news")
		assert.Contains(t, all, "Hi &lt;Bob&gt;")
	})

	t.Run("webhooks and deliveries", func(t *testing.T) {
		p := getPage(t, srv, hc, "webhooks")
		c := cells(row(t, p, "data-webhook", "broken"))
		assert.Equal(t, []string{"broken", "Hook broken"}, c[:2])
		assert.Equal(t, []string{"yes", "yes", "message_sent"}, c[3:])
		good := cells(row(t, p, "data-delivery", "1"))
		bad := cells(row(t, p, "data-delivery", "2"))
		assert.Equal(t, []string{"1", "message_sent", "good", "delivered", "200", "1", ""}, good)
		assert.Equal(t, []string{"2", "message_sent", "broken", "failed", "500", "4", ""}, bad)
	})

	t.Run("request log, redacted", func(t *testing.T) {
		p := getPage(t, srv, hc, "requests")
		assert.Contains(t, p, `<td class="status">503</td>`)
		assert.Contains(t, p, "<td>status</td>", "the fault")
		assert.Contains(t, p, "/v3/users/alice/auth_tokens")
		assert.Contains(t, p, "REDACTED", "the webhook passwords in the bodies")
	})

	t.Run("no secret on any page", func(t *testing.T) {
		for _, page := range dashPages {
			p := getPage(t, srv, hc, page)
			for _, s := range secrets {
				require.NotEmpty(t, s)
				assert.NotContains(t, p, s, "page %q", page)
				assert.NotContains(t, p, hex.EncodeToString([]byte(s)), "page %q", page)
			}
		}
	})
}

// The dashboard answers loopback clients that name a loopback host only,
// unless the server has WithLocalNetwork.
func TestDashboardLoopbackOnly(t *testing.T) {
	cases := []struct {
		name, remote, host string
		local              bool
		want               int
	}{
		{"loopback", "127.0.0.1:5000", "127.0.0.1:8443", false, 200},
		{"localhost", "[::1]:5000", "localhost:8443", false, 200},
		{"IPv6 loopback", "[::1]:5000", "[::1]:8443", false, 200},
		{"another machine", "192.0.2.7:5000", "127.0.0.1:8443", false, 403},
		{"a rebound name", "127.0.0.1:5000", "attacker.example:8443", false, 403},
		{"another machine, local network", "192.0.2.7:5000", "chattest:8443", true, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var opts []chattest.Option
			if tc.local {
				opts = append(opts, chattest.WithLocalNetwork())
			}
			h := chattest.NewHandler(opts...)
			defer h.Close()
			r := httptest.NewRequest("GET", "/_chattest/users", nil)
			r.RemoteAddr, r.Host = tc.remote, tc.host
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, tc.want, w.Code, w.Body.String())
			if tc.want == 403 {
				assert.Contains(t, w.Body.String(), "loopback clients only")
			} else {
				assert.Contains(t, w.Body.String(), `<table id="users">`)
			}
		})
	}
}

func TestDashboardRoutes(t *testing.T) {
	srv, _ := start(t)
	hc := srv.HTTPClient()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	get := func(path string) *http.Response {
		resp, err := hc.Get(srv.URL() + path)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	resp := get("/_chattest")
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, "/_chattest/", resp.Header.Get("Location"))
	assert.Equal(t, http.StatusNotFound, get("/_chattest/nothing").StatusCode)
	resp = get("/_chattest/static/dashboard.js")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "javascript")
	post, err := hc.Post(srv.DashboardURL()+"users", "text/plain", nil)
	require.NoError(t, err)
	post.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, post.StatusCode, "the dashboard only shows")
	assert.Equal(t, http.StatusUnauthorized, get("/v3/_chattest/").StatusCode, "the API's paths are the API's")
	assert.Equal(t, srv.URL()+"/_chattest/", srv.DashboardURL())
}

// The events stream says "change" when a request is served and when a
// delivery progresses, and ends when the server closes.
func TestDashboardEvents(t *testing.T) {
	srv := chattest.NewServer()
	defer srv.Close()
	hc := srv.HTTPClient()
	defer hc.CloseIdleConnections()
	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.DashboardURL()+"events", nil)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				lines <- sc.Text()
			}
		}
	}()
	next := func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the stream ended")
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
			return ""
		}
	}
	assert.Equal(t, ": chattest", next(), "the stream opens at once")

	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	_, err = srv.Client().Users.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.Equal(t, "data: change", next())
	// A change right after an event, while the stream waits before the
	// next, is told too.
	_, err = srv.Client().Users.Get(t.Context(), "alice")
	require.NoError(t, err)
	assert.Equal(t, "data: change", next())

	srv.Close()
	for l := range lines {
		assert.Equal(t, "data: change", l, "nothing but changes until the end")
	}
}
