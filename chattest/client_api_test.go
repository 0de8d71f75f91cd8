package chattest_test

import (
	"cmp"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// mint returns a new auth token of uid, as a backend mints it.
func mint(t testing.TB, client *chat.Client, uid string) string {
	t.Helper()
	tok, err := client.AuthTokens.Create(t.Context(), uid, &chat.CreateAuthTokenRequest{Force: true})
	require.NoError(t, err)
	return string(tok.AuthToken)
}

// doRaw sends a request without a body and returns the answer, its body
// closed.
func doRaw(t *testing.T, srv *chattest.Server, method, path string, header map[string]string) *http.Response {
	t.Helper()
	resp := faketest.SendRaw(t, srv, method, path, "", header)
	resp.Body.Close()
	return resp
}

// as returns the headers of a client SDK logged in with token; its
// session id (resource) is "device-" and the token's user.
func as(srv *chattest.Server, token string) map[string]string {
	uid, _, _ := strings.Cut(token, "_")
	return map[string]string{"appId": srv.AppID(), "authToken": token, "resource": "device-" + uid}
}

func TestClientLogin(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	tok := mint(t, client, "alice")

	r := do(t, srv, "PUT", "/v3.0/me", `{"platform":"WEB","deviceId":"d1","appInfo":{"version":"v4.2.0"}}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	me := r.body["data"].(map[string]any)
	assert.Equal(t, "alice", me["uid"])
	assert.Equal(t, "Alice", me["name"])
	assert.Equal(t, tok, me["authToken"], "the token is echoed")
	assert.Equal(t, "online", me["status"])
	jwt, _ := me["jwt"].(string)
	assert.Len(t, strings.Split(jwt, "."), 3, "a jwt: header.claims.signature")
	assert.NotContains(t, jwt, srv.APIKey())

	u, err := url.Parse(srv.URL())
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(u.Host)
	assert.Equal(t, map[string]any{
		"CLIENT_API_HOST": u.Host, "ADMIN_API_HOST": u.Host, "CHAT_API_VERSION": "v3.0",
		"CHAT_HOST": "127.0.0.1", "CHAT_WSS_PORT": port, "CHAT_USE_SSL": true, "ANALYTICS_PING_DISABLED": true,
	}, me["settings"], "the SDK's REST and websocket addresses are this server's")

	// GET /me answers the same session; GET /settings the settings.
	r = do(t, srv, "GET", "/v3.0/me", "", as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	assert.Equal(t, "alice", r.body["data"].(map[string]any)["uid"])
	r = do(t, srv, "GET", "/v3.0/settings", "", as(srv, tok))
	assert.Equal(t, me["settings"], r.body["data"])

	// The session report and the logout answer what the SDKs expect; the
	// token stays valid after a logout.
	r = do(t, srv, "POST", "/v3.0/user_sessions", `{"data":{"device":{"id":"d1"}}}`, as(srv, tok))
	assert.Equal(t, map[string]any{"data": map[string]any{}}, r.body)
	r = do(t, srv, "DELETE", "/v3.0/me", "", as(srv, tok))
	assert.Equal(t, true, r.body["data"].(map[string]any)["success"])
	r = do(t, srv, "GET", "/v3.0/me", "", as(srv, tok))
	assert.Equal(t, 200, r.resp.StatusCode)

	// Neither the token nor the jwt shows in the request log, even when a
	// later request carries them elsewhere.
	do(t, srv, "GET", "/v3.0/users?searchKey="+url.QueryEscape(jwt), "", as(srv, tok))
	for _, req := range srv.Requests() {
		if strings.HasPrefix(req.Path, "/v3.0/") {
			assert.Equal(t, chattest.Redacted, req.Header.Get("authToken"), req.Route)
		}
		for _, v := range append([]string{req.Path, req.Body}, req.Query["searchKey"]...) {
			assert.NotContains(t, v, tok, req.Route)
			assert.NotContains(t, v, jwt, req.Route)
		}
	}
}

func TestClientLoginUpdatesTheProfile(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice")
	tok := mint(t, client, "alice")

	r := do(t, srv, "PUT", "/v3.0/me", `{"name":"Alice A.","avatar":"https://example.com/a.png","role":"admin","metadata":{"team":"red"}}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	assert.Equal(t, "Alice A.", r.body["data"].(map[string]any)["name"])
	u, _ := srv.User("alice")
	assert.Equal(t, "Alice A.", u.Name)
	assert.Equal(t, "https://example.com/a.png", u.Avatar)
	assert.Equal(t, map[string]any{"team": "red"}, u.Metadata)
	assert.Equal(t, "default", u.Role, "the role is the backend's to set")

	r = do(t, srv, "PUT", "/v3.0/me", `{"name":""}`, as(srv, tok))
	assert.Equal(t, 400, r.resp.StatusCode)
	assert.Equal(t, "ERR_BAD_REQUEST", r.errorBody(t)["code"])
}

func TestClientAuthentication(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	tok := mint(t, client, "alice")
	bobTok := mint(t, client, "bob")
	_, err := client.Users.Deactivate(t.Context(), &chat.DeactivateUsersRequest{UIDs: []string{"bob"}})
	require.NoError(t, err)

	cases := []struct {
		name   string
		header map[string]string
		code   string
	}{
		{"no auth token", map[string]string{"appId": srv.AppID()}, "AUTH_ERR_AUTH_TOKEN_NOT_FOUND"},
		{"unknown auth token", map[string]string{"appId": srv.AppID(), "authToken": "alice_0123456789abcdef"}, "AUTH_ERR_AUTH_TOKEN_NOT_FOUND"},
		{"a deactivated user's token", map[string]string{"appId": srv.AppID(), "authToken": bobTok}, "AUTH_ERR_AUTH_TOKEN_NOT_FOUND"},
		{"another app", map[string]string{"appId": "other-app", "authToken": tok}, "AUTH_ERR_APP_NOT_FOUND"},
		{"no app", map[string]string{"authToken": tok}, "AUTH_ERR_APP_NOT_FOUND"},
		{"the API key instead", key(srv, "appId", srv.AppID()), "AUTH_ERR_AUTH_TOKEN_NOT_FOUND"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, srv, "PUT", "/v3.0/me", "{}", tc.header)
			assert.Equal(t, 401, r.resp.StatusCode)
			e := r.errorBody(t)
			assert.Equal(t, tc.code, e["code"])
			assert.NotContains(t, e["message"], tok, "the token is not echoed")
			assert.Nil(t, r.body["data"], "the SDKs read data or error")
		})
	}
	// A route the fake does not serve answers 404 to a logged-in client.
	r := do(t, srv, "GET", "/v3.0/notifications/push/v1/preferences", "", as(srv, tok))
	assert.Equal(t, 404, r.resp.StatusCode)
	assert.Equal(t, "ERR_API_NOT_FOUND", r.errorBody(t)["code"])
	r = do(t, srv, "GET", "/v3.0/notifications/push/v1/preferences", "", map[string]string{"appId": srv.AppID()})
	assert.Equal(t, "AUTH_ERR_AUTH_TOKEN_NOT_FOUND", r.errorBody(t)["code"])
	// The server API does not take a client's token.
	r = do(t, srv, "GET", "/v3/users", "", as(srv, tok))
	assert.Equal(t, "AUTH_ERR_EMPTY_APIKEY", r.errorBody(t)["code"])
}

func TestClientListsTakePerPage(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol", "dave", "erin")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob", "carol"}}})
	require.NoError(t, err)
	for range 3 {
		_, err := client.Messages.Send(ctx, toUser("alice", "hi"), chat.OnBehalfOf("bob"))
		require.NoError(t, err)
	}
	tok := mint(t, client, "alice")

	pagination := func(r rawResponse) map[string]any {
		return r.body["meta"].(map[string]any)["pagination"].(map[string]any)
	}
	for _, path := range []string{"/v3.0/users", "/v3.0/groups/g/members", "/v3.0/conversations", "/v3.0/blockedusers"} {
		r := do(t, srv, "GET", path+"?per_page=2&page=1", "", as(srv, tok))
		require.Equal(t, 200, r.resp.StatusCode, r.body)
		assert.EqualValues(t, 2, pagination(r)["per_page"], path)
		assert.LessOrEqual(t, len(r.body["data"].([]any)), 2, path)
	}
	r := do(t, srv, "GET", "/v3.0/users?per_page=2&page=3", "", as(srv, tok))
	assert.Len(t, r.body["data"], 1, "the third page of five users by two")
	r = do(t, srv, "GET", "/v3.0/users?per_page=2&perPage=3", "", as(srv, tok))
	assert.EqualValues(t, 3, pagination(r)["per_page"], "perPage, when sent, wins")
	// The server API keeps the reference's perPage.
	r = do(t, srv, "GET", "/v3/users?per_page=2", "", key(srv))
	assert.EqualValues(t, 100, pagination(r)["per_page"])

	// Message lists: per_page is the limit, meta.cursor repeats meta.next,
	// which the SDKs follow, and meta.pagination counts every message the
	// list has, as SDK 3.x reads it.
	parent, err := client.Messages.Send(ctx, toUser("bob", "thread"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	for range 3 {
		_, err := client.Messages.SendThread(ctx, parent.ID, "bob", toUser("alice", "reply"))
		require.NoError(t, err)
	}
	for _, tc := range []struct {
		path         string
		total, pages float64
	}{
		{"/v3.0/users/bob/messages", 7, 4}, // three from bob, one to him, its three replies
		{"/v3.0/groups/g/messages", 2, 1},  // bob and carol added
		{"/v3.0/messages", 9, 5},           // all of alice's, replies included
		{"/v3.0/messages/" + parent.ID + "/thread", 3, 2},
	} {
		r := do(t, srv, "GET", tc.path+"?per_page=2&affix=prepend", "", as(srv, tok))
		require.Equal(t, 200, r.resp.StatusCode, r.body)
		assert.Len(t, r.body["data"], 2, tc.path)
		meta := r.body["meta"].(map[string]any)
		require.NotNil(t, meta["cursor"], tc.path)
		assert.Equal(t, "prepend", meta["cursor"].(map[string]any)["affix"], tc.path)
		if next, ok := meta["next"]; ok {
			assert.Equal(t, next, meta["cursor"], tc.path)
		}
		pg := pagination(r)
		assert.Equal(t, tc.total, pg["total"], tc.path)
		assert.Equal(t, tc.pages, pg["total_pages"], tc.path)
		assert.EqualValues(t, 2, pg["per_page"], tc.path)
	}
}

// The client SDKs add a page of messages before what they show
// (fetchPrevious) or after it (fetchNext) as it comes, and take its last
// message as the newest: every page of every message list is oldest first,
// and following meta.cursor walks the list without a gap or a repeat.
func TestClientMessagePagesAreOldestFirst(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "alice",
		Members: &chat.AddMembersRequest{Participants: []string{"bob"}}})
	require.NoError(t, err)
	var user, group, thread []string // each list's message ids, in the order sent
	for i := range 5 {
		from, to := "alice", "bob"
		if i%2 == 1 {
			from, to = to, from
		}
		m, err := client.Messages.Send(ctx, toUser(to, fmt.Sprint("user ", i)), chat.OnBehalfOf(from))
		require.NoError(t, err)
		user = append(user, m.ID)
		g, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "g", ReceiverType: chat.ReceiverGroup,
			Data: chat.MessageData{Text: fmt.Sprint("group ", i)}}, chat.OnBehalfOf(from))
		require.NoError(t, err)
		group = append(group, g.ID)
	}
	for i := range 5 {
		r, err := client.Messages.SendThread(ctx, user[0], "bob", toUser("alice", fmt.Sprint("reply ", i)))
		require.NoError(t, err)
		thread = append(thread, r.ID)
	}
	// Ids are numbers, in the order messages are sent.
	byID := func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) }
	all := slices.SortedFunc(slices.Values(slices.Concat(user, group, thread)), byID)
	tok := mint(t, client, "alice")

	ids := func(r rawResponse) []string {
		var out []string
		for _, m := range r.body["data"].([]any) {
			out = append(out, m.(map[string]any)["id"].(string))
		}
		return out
	}
	for _, tc := range []struct {
		path string
		want []string // the list, oldest first
	}{
		{"/v3.0/users/bob/messages?hideReplies=true", user},
		{"/v3.0/groups/g/messages?categories=message", group},
		{"/v3.0/messages/" + user[0] + "/thread?hideDeleted=1", thread},
		{"/v3.0/messages?categories=message", all},
	} {
		for _, affix := range []string{"prepend", "append"} {
			// Walk the list by pages of two, as the SDKs do: from the
			// newest back (prepend) or from the oldest on (append).
			var walked [][]string
			next := tc.path + "&per_page=2&affix=" + affix
			for range 10 {
				r := do(t, srv, "GET", next, "", as(srv, tok))
				require.Equal(t, 200, r.resp.StatusCode, r.body)
				page := ids(r)
				if len(page) == 0 {
					break
				}
				assert.True(t, slices.IsSortedFunc(page, byID),
					"%s %s: a page oldest first, got %v", tc.path, affix, page)
				walked = append(walked, page)
				cursor := r.body["meta"].(map[string]any)["cursor"].(map[string]any)
				next = fmt.Sprintf("%s&per_page=2&affix=%s&id=%v", tc.path, affix, cursor["id"])
			}
			var got []string
			if affix == "prepend" { // each page goes before the ones before it
				for _, page := range slices.Backward(walked) {
					got = append(got, page...)
				}
			} else {
				got = slices.Concat(walked...)
			}
			assert.Equal(t, tc.want, got, "%s %s", tc.path, affix)
			if affix == "prepend" {
				assert.Equal(t, tc.want[len(tc.want)-2:], walked[0], "%s: the first prepend page, the two newest", tc.path)
			}
		}
	}
	// The server API's lists are as they were.
	r := do(t, srv, "GET", "/v3/groups/g/messages?categories=message&limit=2&affix=prepend", "", key(srv))
	assert.Equal(t, []string{group[4], group[3]}, ids(r), "the server API: newest first")
}

func TestClientConversationIsAnObject(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	_, err := client.Messages.Send(t.Context(), toUser("alice", "hi"), chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	tok := mint(t, client, "alice")

	r := do(t, srv, "GET", "/v3.0/users/bob/conversation", "", as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	conv, ok := r.body["data"].(map[string]any)
	require.True(t, ok, "an object: %v", r.body)
	assert.Equal(t, "alice_user_bob", conv["conversationId"])
	assert.Equal(t, "1", conv["unreadMessageCount"])
	// The server API keeps the reference's array of one.
	r = do(t, srv, "GET", "/v3/users/bob/conversation", "", key(srv, "onBehalfOf", "alice"))
	assert.Len(t, r.body["data"], 1)
}

func TestClientUnreadCounts(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	ctx := t.Context()
	_, err := client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic, Owner: "carol",
		Members: &chat.AddMembersRequest{Participants: []string{"alice"}}})
	require.NoError(t, err)
	for _, m := range []*chat.SendMessageRequest{toUser("alice", "1"), toUser("alice", "2"),
		{Receiver: "g", ReceiverType: chat.ReceiverGroup, Data: text("3")}} {
		_, err := client.Messages.Send(ctx, m, chat.OnBehalfOf("bob"))
		if m.ReceiverType == chat.ReceiverGroup {
			_, err = client.Messages.Send(ctx, m, chat.OnBehalfOf("carol"))
		}
		require.NoError(t, err)
	}
	tok := mint(t, client, "alice")
	counts := func(path string) any {
		r := do(t, srv, "GET", path, "", as(srv, tok))
		require.Equal(t, 200, r.resp.StatusCode, r.body)
		return r.body["data"]
	}
	bob := map[string]any{"entityId": "bob", "entityType": "user", "count": 2.0}
	group := map[string]any{"entityId": "g", "entityType": "group", "count": 1.0}
	assert.Equal(t, []any{group, bob}, counts("/v3.0/messages?unread=1&count=1"))
	assert.Equal(t, []any{bob}, counts("/v3.0/messages?unread=1&count=1&receiverType=user"))
	assert.Equal(t, []any{group}, counts("/v3.0/groups/g/messages?unread=1&count=1"))
	assert.Equal(t, []any{bob}, counts("/v3.0/users/bob/messages?unread=1&count=1"))
	assert.Equal(t, []any{}, counts("/v3.0/users/carol/messages?unread=1&count=1"))

	_, err = client.Conversations.MarkUserRead(ctx, "bob", "alice", nil)
	require.NoError(t, err)
	assert.Equal(t, []any{group}, counts("/v3.0/messages?unread=1&count=1"))
	// Without count, the list is the messages.
	r := do(t, srv, "GET", "/v3.0/messages?unread=1", "", as(srv, tok))
	assert.NotEmpty(t, r.body["data"].([]any)[0].(map[string]any)["id"])
}

func TestClientBlockedUsers(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob", "carol")
	tok := mint(t, client, "alice")

	r := do(t, srv, "POST", "/v3.0/blockedusers", `{"blockedUids":["bob","carol"]}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	assert.Equal(t, true, r.body["data"].(map[string]any)["bob"].(map[string]any)["success"])
	r = do(t, srv, "GET", "/v3.0/blockedusers", "", as(srv, tok))
	require.Len(t, r.body["data"], 2)
	assert.Equal(t, "bob", r.body["data"].([]any)[0].(map[string]any)["uid"])
	_, err := client.Messages.Send(t.Context(), toUser("alice", "hi"), chat.OnBehalfOf("bob"))
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "ERR_BLOCKED_SENDER", ce.Code)

	r = do(t, srv, "DELETE", "/v3.0/blockedusers", `{"blockedUids":["bob"]}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	r = do(t, srv, "GET", "/v3.0/blockedusers", "", as(srv, tok))
	require.Len(t, r.body["data"], 1)
	r = do(t, srv, "POST", "/v3.0/blockedusers", `{"blockedUids":["alice"]}`, as(srv, tok))
	assert.Equal(t, "ERR_CANNOT_BLOCK_SELF", r.errorBody(t)["code"])
}

func TestClientJoinAndLeave(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	ctx := t.Context()
	for _, g := range []chat.CreateGroupRequest{
		{GUID: "open", Name: "Open", Type: chat.GroupPublic, Owner: "bob"},
		{GUID: "locked", Name: "Locked", Type: chat.GroupPassword, Password: "s3cret", Owner: "bob"},
		{GUID: "closed", Name: "Closed", Type: chat.GroupPrivate, Owner: "bob"},
	} {
		_, err := client.Groups.Create(ctx, &g)
		require.NoError(t, err)
	}
	tok := mint(t, client, "alice")

	r := do(t, srv, "POST", "/v3.0/groups/open/members", "{}", as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	action := r.body["data"].(map[string]any)
	assert.Equal(t, "action", action["category"])
	assert.Equal(t, "joined", action["data"].(map[string]any)["action"])
	forEntity := action["data"].(map[string]any)["entities"].(map[string]any)["for"].(map[string]any)["entity"].(map[string]any)
	assert.Equal(t, "open", forEntity["guid"], "the SDK reads the group from data.entities.for.entity")
	members, err := client.Members.List(ctx, "open", nil)
	require.NoError(t, err)
	assert.Len(t, members.Data, 2)

	cases := []struct {
		name, path, body, code string
		status                 int
	}{
		{"again", "/v3.0/groups/open/members", "{}", "ERR_ALREADY_JOINED", 409},
		{"a wrong password", "/v3.0/groups/locked/members", `{"password":"nope"}`, "ERR_WRONG_GROUP_PASS", 401},
		{"a private group", "/v3.0/groups/closed/members", "{}", "ERR_GUID_NOT_FOUND", 404}, // hidden from non-members
		{"an unknown group", "/v3.0/groups/nope/members", "{}", "ERR_GUID_NOT_FOUND", 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, srv, "POST", tc.path, tc.body, as(srv, tok))
			assert.Equal(t, tc.status, r.resp.StatusCode, r.body)
			assert.Equal(t, tc.code, r.errorBody(t)["code"])
		})
	}
	r = do(t, srv, "POST", "/v3.0/groups/locked/members", `{"password":"s3cret"}`, as(srv, tok))
	assert.Equal(t, 200, r.resp.StatusCode, r.body)

	r = do(t, srv, "DELETE", "/v3.0/groups/open/members", "", as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	members, err = client.Members.List(ctx, "open", nil)
	require.NoError(t, err)
	assert.Len(t, members.Data, 1)
	msgs := srv.Messages()
	last := msgs[len(msgs)-1]
	assert.Equal(t, "left", last.Data.Action)
	r = do(t, srv, "DELETE", "/v3.0/groups/open/members", "", as(srv, tok))
	assert.Equal(t, "ERR_NOT_A_MEMBER", r.errorBody(t)["code"])
}

func TestClientAddMembersAnswersEveryList(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	_, err := client.Groups.Create(t.Context(), &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPrivate, Owner: "alice"})
	require.NoError(t, err)
	tok := mint(t, client, "alice")

	r := do(t, srv, "PUT", "/v3.0/groups/g/members", `{"participants":["bob"]}`, as(srv, tok))
	require.Equal(t, 200, r.resp.StatusCode, r.body)
	lists := r.body["data"].(map[string]any)
	assert.Equal(t, map[string]any{}, lists["admins"])
	assert.Equal(t, map[string]any{}, lists["moderators"])
	assert.Equal(t, map[string]any{}, lists["usersToBan"])
	assert.Equal(t, true, lists["participants"].(map[string]any)["bob"].(map[string]any)["success"])
}

func TestClientCORS(t *testing.T) {
	srv, _ := start(t)
	r := doRaw(t, srv, "OPTIONS", "/v3.0/me", map[string]string{"Origin": "http://localhost:8080",
		"Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "appid,authtoken,content-type,resource,sdk"})
	assert.Equal(t, 204, r.StatusCode)
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, r.Header.Get("Access-Control-Allow-Methods"), "PUT")
	assert.Equal(t, "appid,authtoken,content-type,resource,sdk", r.Header.Get("Access-Control-Allow-Headers"))
	assert.Empty(t, srv.Requests(), "a preflight is no request of the API")

	r = doRaw(t, srv, "GET", "/v3.0/settings", map[string]string{"Origin": "http://localhost:8080"})
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"), "even an error answer is readable")
	r = doRaw(t, srv, "GET", "/v3/users", map[string]string{"Origin": "http://localhost:8080", "apikey": srv.APIKey()})
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"), "the server API is for servers")
}
