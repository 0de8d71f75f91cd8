package chattest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// accessWorld is an app in which bob talks with alice one-on-one and in a
// public, a password and a private group (alice owns them, bob is a
// participant), and mallory, a user of the same app with a conversation
// of her own with alice, takes part in none of them.
type accessWorld struct {
	srv    *chattest.Server
	client *chat.Client
	hc     *http.Client           // one connection for the raw requests
	rt     *chattest.MemTransport // the client API's websocket, in memory
	tokens map[string]string      // a login's auth token, by uid
}

func newAccessWorld(t *testing.T) *accessWorld {
	t.Helper()
	rt := chattest.NewMemTransport()
	srv, client := start(t, chattest.WithRealtime(rt))
	seed(srv, "alice", "bob", "mallory")
	ctx := t.Context()
	for _, g := range []chat.CreateGroupRequest{
		{GUID: "pub", Name: "Public", Type: chat.GroupPublic},
		{GUID: "pass", Name: "Password", Type: chat.GroupPassword, Password: "s3cret"},
		{GUID: "priv", Name: "Private", Type: chat.GroupPrivate},
	} {
		g.Owner, g.Members = "alice", &chat.AddMembersRequest{Participants: []string{"bob"}}
		_, err := client.Groups.Create(ctx, &g)
		require.NoError(t, err)
	}
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam"})
	_, err := client.Messages.Send(ctx, toUser("alice", "hello"), chat.OnBehalfOf("mallory"))
	require.NoError(t, err)
	w := &accessWorld{srv: srv, client: client, hc: srv.HTTPClient(), rt: rt, tokens: map[string]string{}}
	for _, uid := range []string{"alice", "bob", "mallory"} {
		w.tokens[uid] = mint(t, client, uid)
	}
	return w
}

// actingAPI is how a request reaches the service as a user: the client
// API with the user's auth token, as the client SDKs call it, or the
// server API with onBehalfOf.
type actingAPI struct {
	name   string
	prefix string
	client bool
}

var actingAPIs = []actingAPI{{"client API", "/v3.0", true}, {"server API with onBehalfOf", "/v3", false}}

// do sends a request of api as uid; path is under the API's prefix.
func (w *accessWorld) do(t *testing.T, api actingAPI, uid, method, path, body string) rawResponse {
	t.Helper()
	header := key(w.srv, "onBehalfOf", uid)
	if api.client {
		header = as(w.srv, w.tokens[uid])
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
		header["Content-Type"] = "application/json"
	}
	req, err := http.NewRequestWithContext(t.Context(), method, w.srv.URL()+api.prefix+path, rd)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := w.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out), "every answer is JSON")
	return rawResponse{resp, out}
}

// requireFails asserts that r is the error status and code.
func requireFails(t *testing.T, r rawResponse, status int, code string) {
	t.Helper()
	require.Equal(t, status, r.resp.StatusCode, "%v", r.body)
	assert.Equal(t, code, r.errorBody(t)["code"])
}

// requireOK asserts that r succeeded and returns its data.
func requireOK(t *testing.T, r rawResponse) any {
	t.Helper()
	require.Equal(t, http.StatusOK, r.resp.StatusCode, "%v", r.body)
	return r.body["data"]
}

// conversationTarget is a conversation bob is in and mallory is not.
type conversationTarget struct {
	name         string
	receiver     string // of bob's messages in it
	receiverType string
	convPath     string // of its per-user conversation operations
	conversation string // its id
	// What mallory gets from the conversation's own operations (marks,
	// message list, sending to it).
	status int
	code   string
	send   string // the code of a message mallory sends to it
}

var conversationTargets = []conversationTarget{
	{"another pair's conversation", "alice", "user", "/users/alice/conversation", "alice_user_bob", 404, "ERR_MSG_NOT_FOUND", ""},
	{"a private group", "priv", "group", "/groups/priv/conversation", "group_priv", 404, "ERR_GUID_NOT_FOUND", "ERR_GUID_NOT_FOUND"},
	{"a password group", "pass", "group", "/groups/pass/conversation", "group_pass", 403, "ERR_CONVERSATION_NOT_ACCESSIBLE", "ERR_GROUP_NOT_JOINED"},
	{"a public group not joined", "pub", "group", "/groups/pub/conversation", "group_pub", 403, "ERR_CONVERSATION_NOT_ACCESSIBLE", "ERR_GROUP_NOT_JOINED"},
}

// post sends, on behalf of bob, an interactive message into tg (one bob
// may interact with, at its element "ok"), and returns its id.
func (w *accessWorld) post(t *testing.T, tg conversationTarget) string {
	t.Helper()
	r := w.do(t, actingAPIs[1], "bob", "POST", "/messages", fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"category":"interactive","type":"card",
		"data":{"text":"card","allowSenderInteraction":true,"interactionGoal":{"type":"anyOf","elementIds":["ok"]},
		"interactiveData":{"text":"Lunch?","cardActions":[{"elementType":"button","elementId":"ok","buttonText":"OK"}]}}}`, tg.receiver, tg.receiverType))
	return requireOK(t, r).(map[string]any)["id"].(string)
}

// snapshot is what a request about the message id, the newest, could
// change, as the app and as mallory see it: the message, the ones after
// it (a quote, a reply, an action message), mallory's conversation.
func (w *accessWorld) snapshot(t *testing.T, id string) any {
	asApp, _ := w.srv.Message(id)
	asMallory, _ := w.srv.MessageAs(id, "mallory")
	n, err := strconv.Atoi(id)
	require.NoError(t, err)
	_, next := w.srv.Message(strconv.Itoa(n + 1))
	conv, _ := w.srv.Conversation("mallory", "alice_user_mallory")
	return []any{asApp, asMallory, w.srv.MessageFlags(id), w.srv.ThreadSubscribers(id), next, conv}
}

// messageVerb is an operation on one message.
type messageVerb struct {
	name     string
	method   string
	path     string // under /messages/{id}; "conv" for the conversation's read or delivered mark
	body     func(tg conversationTarget, id string, outsider bool) string
	notFound string // what mallory gets: the operation's answer for a message that does not exist
	check    func(t *testing.T, data any, id string)
}

func noBody(conversationTarget, string, bool) string { return "" }

func jsonBody(s string) func(conversationTarget, string, bool) string {
	return func(conversationTarget, string, bool) string { return s }
}

// markBody is the body of a read or delivered mark of the message id.
func markBody(_ conversationTarget, id string, _ bool) string { return `{"messageId":` + id + `}` }

var messageVerbs = []messageVerb{
	{name: "see", method: "GET", body: noBody, notFound: "ERR_MSG_NOT_FOUND", check: func(t *testing.T, data any, id string) {
		assert.Equal(t, id, data.(map[string]any)["id"])
	}},
	{name: "quote", method: "POST", path: "/quote", notFound: "ERR_MSG_NOT_FOUND",
		body: func(tg conversationTarget, id string, outsider bool) string {
			if outsider { // into her own conversation with alice
				tg.receiver, tg.receiverType = "alice", "user"
			}
			return fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"category":"message","type":"text","data":{"text":"as you said"},"quotedMessageId":%q}`, tg.receiver, tg.receiverType, id)
		},
		check: func(t *testing.T, data any, id string) {
			quoted, _ := data.(map[string]any)["quotedMessage"].(map[string]any)
			assert.Equal(t, id, quoted["id"], "the answer embeds the quoted message")
		}},
	{name: "reply in its thread", method: "POST", path: "/thread", notFound: "ERR_MSG_NOT_FOUND",
		body: func(tg conversationTarget, _ string, _ bool) string {
			return fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"data":{"text":"reply"}}`, tg.receiver, tg.receiverType)
		},
		check: func(t *testing.T, data any, id string) { assert.Equal(t, id, data.(map[string]any)["parentId"]) }},
	{name: "list its thread", method: "GET", path: "/thread", body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "react", method: "POST", path: "/reactions/" + url.PathEscape("👍"), body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "list its reactions", method: "GET", path: "/reactions", body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "remove a reaction", method: "DELETE", path: "/reactions/" + url.PathEscape("👍"), body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "pin", method: "POST", path: "/pin", body: noBody, notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "unpin", method: "DELETE", path: "/pin", body: noBody, notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "save", method: "POST", path: "/save", body: noBody, notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "unsave", method: "DELETE", path: "/save", body: noBody, notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "flag", method: "POST", path: "/flagged", body: jsonBody(`{"reasonId":"spam","remark":"x"}`), notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "interact", method: "PATCH", path: "/interacted", body: jsonBody(`{"interactions":["ok"]}`), notFound: "ERR_MESSAGE_ID_NOT_FOUND"},
	{name: "subscribe to its thread", method: "POST", path: "/thread/subscription", body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "unsubscribe from its thread", method: "DELETE", path: "/thread/subscription", body: noBody, notFound: "ERR_MSG_NOT_FOUND"},
	{name: "edit", method: "PUT", body: jsonBody(`{"data":{"text":"edited"}}`), notFound: "ERR_MSG_NOT_FOUND"},
	{name: "delete", method: "DELETE", body: jsonBody(`{"permanent":true}`), notFound: "ERR_MSG_NOT_FOUND"},
	{name: "mark read", method: "POST", path: "conv/read", body: markBody},
	{name: "mark delivered", method: "POST", path: "conv/delivered", body: markBody},
}

// TestAccessToMessages tries every operation on a message, through the
// client API and through the server API with onBehalfOf, as an outsider to
// its conversation (another pair's, a private group's, a password group's,
// a public group's she did not join), who is answered as if it did not
// exist, changing nothing, then as bob, a member, who succeeds.
func TestAccessToMessages(t *testing.T) {
	w := newAccessWorld(t)
	for _, api := range actingAPIs {
		for _, tg := range conversationTargets {
			for _, v := range messageVerbs {
				t.Run(api.name+"/"+tg.name+"/"+v.name, func(t *testing.T) {
					id := w.post(t, tg)
					path := "/messages/" + id + v.path
					switch {
					case v.path == "/quote":
						path = "/messages"
					case v.path == "conv/read" || v.path == "conv/delivered":
						path = tg.convPath + v.path[len("conv"):]
					}
					before := w.snapshot(t, id)
					r := w.do(t, api, "mallory", v.method, path, v.body(tg, id, true))
					status, code := http.StatusNotFound, v.notFound
					if code == "" {
						status, code = tg.status, tg.code
					}
					requireFails(t, r, status, code)
					assert.NotContains(t, r.body["error"].(map[string]any)["message"], "bob", "nothing about the conversation shows")
					assert.Equal(t, before, w.snapshot(t, id), "the outsider changed nothing")

					data := requireOK(t, w.do(t, api, "bob", v.method, path, v.body(tg, id, false)))
					if v.check != nil {
						v.check(t, data, id)
					}
				})
			}
		}
	}
}

// messageIDsOf lists the ids of a message list's answer.
func messageIDsOf(t *testing.T, data any) []string {
	t.Helper()
	var out []string
	for _, m := range data.([]any) {
		out = append(out, m.(map[string]any)["id"].(string))
	}
	return out
}

// TestAccessToMessageLists checks that no list shows an outsider a
// message of a conversation she is not in, or the conversation, while bob
// sees them.
func TestAccessToMessageLists(t *testing.T) {
	w := newAccessWorld(t)
	for _, api := range actingAPIs {
		for _, tg := range conversationTargets {
			t.Run(api.name+"/"+tg.name, func(t *testing.T) {
				id := w.post(t, tg)
				reply := requireOK(t, w.do(t, api, "bob", "POST", "/messages/"+id+"/thread",
					fmt.Sprintf(`{"receiver":%q,"receiverType":%q,"data":{"text":"reply"}}`, tg.receiver, tg.receiverType))).(map[string]any)["id"].(string)
				own := "/users/alice/messages"
				if tg.receiverType == "group" {
					own = "/groups/" + tg.receiver + "/messages"
				}
				for _, list := range []string{"/messages", "/users/bob/messages", "/threads"} {
					got := messageIDsOf(t, requireOK(t, w.do(t, api, "mallory", "GET", list+"?limit=1000", "")))
					assert.NotContains(t, got, id, list)
					assert.NotContains(t, got, reply, list)
				}
				if tg.receiverType == "group" {
					r := w.do(t, api, "mallory", "GET", own, "")
					requireFails(t, r, tg.status, tg.send)
				} else {
					got := messageIDsOf(t, requireOK(t, w.do(t, api, "mallory", "GET", own+"?limit=1000", "")))
					assert.NotContains(t, got, id, own)
				}
				var convs []string
				for _, c := range requireOK(t, w.do(t, api, "mallory", "GET", "/conversations", "")).([]any) {
					convs = append(convs, c.(map[string]any)["conversationId"].(string))
				}
				assert.Equal(t, []string{"alice_user_mallory"}, convs, "only her own conversation")

				// bob, a member, sees them.
				for _, list := range []string{"/messages", own, "/threads"} {
					got := messageIDsOf(t, requireOK(t, w.do(t, api, "bob", "GET", list+"?limit=1000", "")))
					assert.Contains(t, got, id, list)
				}
				assert.Contains(t, messageIDsOf(t, requireOK(t, w.do(t, api, "bob", "GET", "/messages?limit=1000", ""))), reply)
			})
		}
	}
}

// TestAccessToGroups checks what an outsider may do with each type of
// group: a private group does not exist for her; a password or public
// group shows, but she does nothing in it as a member would (its members
// she lists only in a public group); bob, a member, may.
func TestAccessToGroups(t *testing.T) {
	w := newAccessWorld(t)
	type op struct {
		name, method, path, body string
		clientOnly               bool // the server API takes no onBehalfOf here
		// mallory's answer in the public and password groups; a private
		// group is always 404 ERR_GUID_NOT_FOUND.
		public, password string // "" for 200
		member           bool   // bob succeeds too
	}
	ops := []op{
		{name: "get", method: "GET", path: "", member: true},
		{name: "list members", method: "GET", path: "/members", clientOnly: true, password: "ERR_GROUP_NOT_JOINED", member: true},
		{name: "list banned users", method: "GET", path: "/bannedusers", clientOnly: true, password: "ERR_GROUP_NOT_JOINED", member: true},
		{name: "list messages", method: "GET", path: "/messages", public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED", member: true},
		{name: "unread counts", method: "GET", path: "/messages?unread=1&count=1", clientOnly: true, public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED", member: true},
		{name: "get the conversation", method: "GET", path: "/conversation", public: "ERR_CONVERSATION_NOT_ACCESSIBLE", password: "ERR_CONVERSATION_NOT_ACCESSIBLE"},
		{name: "update", method: "PUT", path: "", body: `{"name":"Mine now"}`, public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "add members", method: "POST", path: "/members", body: `{"admins":["mallory"]}`, public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "change a scope", method: "PUT", path: "/members/bob", body: `{"scope":"moderator"}`, public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "kick", method: "DELETE", path: "/members/bob", public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "ban", method: "POST", path: "/bannedusers/bob", public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "unban", method: "DELETE", path: "/bannedusers/bob", public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
		{name: "delete", method: "DELETE", path: "", public: "ERR_GROUP_NOT_JOINED", password: "ERR_GROUP_NOT_JOINED"},
	}
	statusOf := map[string]int{"ERR_GROUP_NOT_JOINED": 403, "ERR_CONVERSATION_NOT_ACCESSIBLE": 403, "ERR_GUID_NOT_FOUND": 404}
	for _, api := range actingAPIs {
		for _, o := range ops {
			if o.clientOnly && !api.client {
				continue
			}
			for _, guid := range []string{"priv", "pass", "pub"} {
				t.Run(api.name+"/"+o.name+"/"+guid, func(t *testing.T) {
					method, path := o.method, "/groups/"+guid+o.path
					if o.name == "add members" && api.client {
						method = "PUT" // as the client SDKs add members
					}
					code := map[string]string{"priv": "ERR_GUID_NOT_FOUND", "pass": o.password, "pub": o.public}[guid]
					g, _ := w.srv.Group(guid)
					members, banned := memberScopes(t, w.client, guid), bannedUIDs(t, w.client, guid)
					r := w.do(t, api, "mallory", method, path, o.body)
					if code == "" {
						requireOK(t, r)
					} else {
						requireFails(t, r, statusOf[code], code)
					}
					after, ok := w.srv.Group(guid)
					require.True(t, ok, "the group is still there")
					assert.Equal(t, g, after)
					assert.Equal(t, members, memberScopes(t, w.client, guid))
					assert.Equal(t, banned, bannedUIDs(t, w.client, guid))
					if o.member {
						requireOK(t, w.do(t, api, "bob", method, path, o.body))
					}
				})
			}
		}
		t.Run(api.name+"/list groups", func(t *testing.T) {
			var guids []string
			for _, g := range requireOK(t, w.do(t, api, "mallory", "GET", "/groups", "")).([]any) {
				guids = append(guids, g.(map[string]any)["guid"].(string))
			}
			slices.Sort(guids)
			assert.Equal(t, []string{"pass", "pub"}, guids, "the private group is not listed")
		})
		t.Run(api.name+"/send to the group", func(t *testing.T) {
			for _, tg := range conversationTargets[1:] {
				r := w.do(t, api, "mallory", "POST", "/messages", fmt.Sprintf(`{"receiver":%q,"receiverType":"group","data":{"text":"let me in"}}`, tg.receiver))
				requireFails(t, r, statusOf[tg.send], tg.send)
				requireOK(t, w.do(t, api, "bob", "POST", "/messages", fmt.Sprintf(`{"receiver":%q,"receiverType":"group","data":{"text":"hi"}}`, tg.receiver)))
			}
		})
	}
	t.Run("join a private group", func(t *testing.T) {
		requireFails(t, w.do(t, actingAPIs[0], "mallory", "POST", "/groups/priv/members", "{}"), 404, "ERR_GUID_NOT_FOUND")
		assert.Equal(t, []string{"alice:admin", "bob:participant"}, memberScopes(t, w.client, "priv"))
	})
}

// TestAccessCreateGroupAsSelf checks that a user creates groups as
// themself: the owner a request names is ignored when a user acts.
func TestAccessCreateGroupAsSelf(t *testing.T) {
	w := newAccessWorld(t)
	for i, api := range actingAPIs {
		t.Run(api.name, func(t *testing.T) {
			guid := fmt.Sprintf("mine-%d", i)
			data := requireOK(t, w.do(t, api, "mallory", "POST", "/groups",
				fmt.Sprintf(`{"guid":%q,"name":"Mine","type":"private","owner":"bob"}`, guid))).(map[string]any)
			assert.Equal(t, "mallory", data["owner"])
			assert.Equal(t, true, data["hasJoined"])
			assert.Equal(t, "admin", data["scope"])
			g, _ := w.srv.Group(guid)
			assert.Equal(t, "mallory", g.Owner)
			assert.Equal(t, []string{"mallory:admin"}, memberScopes(t, w.client, guid), "bob was not made a member")
			requireFails(t, w.do(t, api, "bob", "GET", "/groups/"+guid, ""), 404, "ERR_GUID_NOT_FOUND")
		})
	}
	// The app, acting as itself, still names the owner.
	g, err := w.client.Groups.Create(t.Context(), &chat.CreateGroupRequest{GUID: "bobs", Name: "Bob's", Owner: "bob"})
	require.NoError(t, err)
	assert.Equal(t, "bob", g.Owner)
}

// TestAccessConversationByID checks that the deprecated conversation
// operations answer an outsider the same for another's conversation as for
// one that does not exist, so that neither a pair's conversation nor a
// private group shows.
func TestAccessConversationByID(t *testing.T) {
	w := newAccessWorld(t)
	api := actingAPIs[1] // the server API only
	for _, tg := range conversationTargets {
		w.post(t, tg)
	}
	for _, id := range []string{"alice_user_bob", "alice_user_nobody", "group_priv", "group_nowhere", "group_pass", "group_pub"} {
		for _, method := range []string{"GET", "DELETE"} {
			requireFails(t, w.do(t, api, "mallory", method, "/conversations/"+id, ""), 403, "ERR_CONVERSATION_NOT_ACCESSIBLE")
		}
	}
	requireFails(t, w.do(t, api, "mallory", "GET", "/conversations/mallory_user_nobody", ""), 404, "ERR_CONVERSATION_NOT_FOUND")
	for _, tg := range conversationTargets {
		data := requireOK(t, w.do(t, api, "bob", "GET", "/conversations/"+tg.conversation, "")).([]any)
		assert.Equal(t, tg.conversation, data[0].(map[string]any)["conversationId"], "bob's is still there")
	}
}

// privateOf is the private metadata of uid in TestAccessPrivateMetadata:
// an email only that user (and the app) may read.
func privateOf(uid string) map[string]any {
	return map[string]any{"email": uid + "@private.example", "contactNumber": "555-" + uid}
}

// TestAccessPrivateMetadata checks that a user's metadata["@private"]
// reaches that user and the app only: every answer another user gets
// (client API, server API with onBehalfOf) and every websocket frame
// pushed to them shows the user with the rest of their metadata, wherever
// the user sits in it (the user asked for, lists, message entities,
// conversationWith, reactions, members), while the reader's own user keeps
// theirs.
func TestAccessPrivateMetadata(t *testing.T) {
	w := newAccessWorld(t)
	ctx := t.Context()
	for _, uid := range []string{"alice", "bob"} {
		_, err := w.client.Users.Update(ctx, uid, &chat.UpdateUserRequest{
			Metadata: map[string]any{"@private": privateOf(uid), "team": "team-" + uid}})
		require.NoError(t, err)
	}
	// Realtime: alice is online, watching everyone's presence.
	rt := online(t, w.rt, w.srv, w.client, "alice", "ALL_USERS")

	// bob talks with alice, one-on-one and in the public group.
	fromBob := requireOK(t, w.do(t, actingAPIs[1], "bob", "POST", "/messages",
		`{"receiver":"alice","receiverType":"user","data":{"text":"hi alice"}}`)).(map[string]any)["id"].(string)
	requireOK(t, w.do(t, actingAPIs[1], "bob", "POST", "/messages/"+fromBob+"/reactions/"+url.PathEscape("👍"), ""))
	requireOK(t, w.do(t, actingAPIs[1], "bob", "POST", "/messages/"+fromBob+"/thread",
		`{"receiver":"alice","receiverType":"user","data":{"text":"in the thread"}}`))
	requireOK(t, w.do(t, actingAPIs[1], "bob", "POST", "/messages", `{"receiver":"pub","receiverType":"group","data":{"text":"hi all"}}`))

	bobsEmail, alicesEmail := privateOf("bob")["email"].(string), privateOf("alice")["email"].(string)
	shown := func(t *testing.T, r rawResponse) string {
		t.Helper()
		requireOK(t, r)
		b, err := json.Marshal(r.body)
		require.NoError(t, err)
		return string(b)
	}

	// What alice reads about bob: bob is there (his public metadata), his
	// private metadata is not; alice's own, where she is in it, is.
	reads := []struct {
		path       string
		clientOnly bool // the server API lists it as the app, whatever onBehalfOf says
		withAlice  bool // alice's own user is in the answer
	}{
		{path: "/users/bob"},
		{path: "/users?perPage=100", clientOnly: true, withAlice: true},
		{path: "/messages/" + fromBob, withAlice: true},
		{path: "/users/bob/messages", withAlice: true},
		{path: "/messages/" + fromBob + "/thread", withAlice: true},
		{path: "/messages/" + fromBob + "/reactions"},
		{path: "/conversations", withAlice: true},
		{path: "/users/bob/conversation", withAlice: true},
		{path: "/groups/pub/messages"},
		{path: "/groups/pub/members", clientOnly: true, withAlice: true},
	}
	for _, api := range actingAPIs {
		t.Run(api.name, func(t *testing.T) {
			for _, rd := range reads {
				if rd.clientOnly && !api.client {
					continue
				}
				got := shown(t, w.do(t, api, "alice", "GET", rd.path, ""))
				assert.Contains(t, got, `"team":"team-bob"`, "%s: bob is in it", rd.path)
				assert.NotContains(t, got, bobsEmail, "%s: bob's private metadata", rd.path)
				if rd.withAlice {
					assert.Contains(t, got, alicesEmail, "%s: alice's own private metadata", rd.path)
				}
			}
			// What alice sends shows bob as its receiver.
			got := shown(t, w.do(t, api, "alice", "POST", "/messages", `{"receiver":"bob","receiverType":"user","data":{"text":"hello bob"}}`))
			assert.Contains(t, got, `"team":"team-bob"`)
			assert.NotContains(t, got, bobsEmail)
			assert.Contains(t, got, alicesEmail)

			// bob reads himself whole; alice sees the rest of his user as
			// the app does.
			own := requireOK(t, w.do(t, api, "bob", "GET", "/users/bob", "")).(map[string]any)
			assert.Equal(t, privateOf("bob"), own["metadata"].(map[string]any)["@private"])
			other := requireOK(t, w.do(t, api, "alice", "GET", "/users/bob", "")).(map[string]any)
			delete(own["metadata"].(map[string]any), "@private")
			assert.Equal(t, own, other)
		})
	}

	// The app reads everything.
	u, err := w.client.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, privateOf("bob"), u.Metadata["@private"])
	m, err := w.client.Messages.Get(ctx, fromBob)
	require.NoError(t, err)
	sender, err := m.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, privateOf("bob"), sender.Metadata["@private"])

	// The Server's views as alice sees things agree.
	seen, ok := w.srv.Conversation("alice", "alice_user_bob")
	require.True(t, ok)
	with, err := seen.User()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"team": "team-bob"}, with.Metadata)
	asAlice, ok := w.srv.MessageAs(fromBob, "alice")
	require.True(t, ok)
	sender, err = asAlice.Data.Entities.Sender.User()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"team": "team-bob"}, sender.Metadata)
	receiver, err := asAlice.Data.Entities.Receiver.User()
	require.NoError(t, err)
	assert.Equal(t, privateOf("alice"), receiver.Metadata["@private"])

	// Frames pushed to alice: bob's message, his typing, his presence.
	bobRT := online(t, w.rt, w.srv, w.client, "bob", "")
	presence := rt.NextOf(t, "presence")
	requireOK(t, w.do(t, actingAPIs[0], "bob", "POST", "/messages", `{"receiver":"alice","receiverType":"user","data":{"text":"live"}}`))
	message := rt.NextOf(t, "message")
	bobRT.Write(t, map[string]any{"appId": w.srv.AppID(), "type": "typing_indicator", "receiver": "alice", "receiverType": "user",
		"sender": "bob", "deviceId": "device-bob", "body": map[string]any{"action": "started"}})
	typing := rt.NextOf(t, "typing_indicator")
	for _, f := range []map[string]any{presence, message, typing} {
		b, err := json.Marshal(f)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"team":"team-bob"`, "%s frame: bob is in it", f["type"])
		assert.NotContains(t, string(b), bobsEmail, "%s frame", f["type"])
	}
	assert.Contains(t, func() string { b, _ := json.Marshal(message); return string(b) }(), alicesEmail, "alice's own entity in the message frame")
}
