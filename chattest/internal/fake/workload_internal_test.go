package fake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// everyArea changes every area of the server at least once, through the
// SDK (the chat and management APIs) and the seeding methods: users and
// their tokens, API keys, groups, members and bans, messages of every
// kind with reactions, pins, saves, interactions, flags and threads,
// conversations and their read state, friends and blocks, roles and
// permissions, moderation reasons, rules, keyword lists and reviews,
// notification settings, providers, preferences and push tokens, data
// imports, AI agents, calls, management apps, settings, extensions,
// collaborators, tenants and webhooks, and what the client API and its
// websocket change (clientArea). It returns how many calls failed,
// for the caller to check that most did not: a failure changes less, not
// nothing that matters here.
func everyArea(t *testing.T, srv *Server) (failed int) {
	t.Helper()
	ctx := context.Background()
	c := srv.Client(chat.WithoutRetries())
	mc := srv.ManagementClient()
	check := func(what string, err error) {
		if err != nil {
			failed++
			t.Logf("%s: %v", what, err)
		}
	}
	obo := chat.OnBehalfOf

	for _, uid := range []string{"alice", "bob", "carol", "dave"} {
		_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: "User " + uid, Tags: []string{"t-" + uid}, Metadata: map[string]any{"n": 1.5}})
		check("create user", err)
	}
	_, err := c.Users.Update(ctx, "dave", &chat.UpdateUserRequest{Name: "Dave Two"})
	check("update user", err)
	tok, err := c.AuthTokens.Create(ctx, "alice", &chat.CreateAuthTokenRequest{})
	check("auth token", err)
	_, err = c.APIKeys.Create(ctx, &chat.CreateAPIKeyRequest{Name: "second", Scope: chat.ScopeAuthOnly})
	check("api key", err)

	_, err = c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "Team", Owner: "alice", Tags: []string{"work"}})
	check("create group", err)
	_, err = c.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"bob", "carol"}})
	check("add members", err)
	_, err = c.Members.ChangeScope(ctx, "team", "bob", &chat.ChangeScopeRequest{Scope: chat.MemberModerator})
	check("change scope", err)
	_, err = c.Bans.Ban(ctx, "team", "dave")
	check("ban", err)
	_, err = c.Groups.Update(ctx, "team", &chat.UpdateGroupRequest{Description: "the team"})
	check("update group", err)

	m1, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi <@uid:bob> https://x.example"}}, obo("alice"))
	check("send", err)
	m2, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "hello team"}, Tags: []string{"x"}}, obo("carol"))
	check("send group", err)
	_, err = c.Messages.SendAsBot(ctx, "dave", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "beep"}})
	check("bot", err)
	if m1 != nil && m2 != nil {
		_, err = c.Messages.SendThread(ctx, m2.ID, "bob", &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup, Data: chat.MessageData{Text: "reply"}})
		check("thread", err)
		_, err = c.Messages.AddReaction(ctx, m1.ID, "👍", "bob")
		check("react", err)
		_, err = c.Messages.Pin(ctx, m2.ID)
		check("pin", err)
		_, err = c.Messages.Save(ctx, m2.ID, "bob")
		check("save", err)
		_, err = c.Messages.SubscribeThread(ctx, m2.ID, "alice")
		check("subscribe", err)
		reason, err := c.Moderation.CreateReason(ctx, &chat.CreateReasonRequest{ID: "rude", Name: "Rude"})
		check("reason", err)
		if reason != nil {
			_, err = c.Messages.Flag(ctx, m2.ID, "alice", &chat.FlagMessageRequest{ReasonID: "rude", Remark: "meh"})
			check("flag", err)
		}
		_, err = c.Messages.Update(ctx, m1.ID, &chat.UpdateMessageRequest{Data: chat.MessageData{Text: "hi again"}}, obo("alice"))
		check("edit", err)
		_, err = c.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{})
		check("read", err)
		_, err = c.Conversations.MarkGroupDelivered(ctx, "team", "bob", &chat.MarkDeliveredRequest{})
		check("delivered", err)
		_, err = c.Conversations.UpdateUser(ctx, "alice", "bob", &chat.UpdateConversationRequest{Tags: []string{"fav"}})
		check("conversation tags", err)
		_, err = c.Conversations.PinUser(ctx, "alice", "bob")
		check("pin conversation", err)
		_, err = c.Messages.Delete(ctx, m1.ID, &chat.DeleteMessageRequest{}, obo("alice"))
		check("delete", err)
	}
	_, err = c.Conversations.ResetGroup(ctx, "team", "carol", &chat.ResetConversationRequest{})
	check("reset", err)
	_, err = c.Conversations.ReplaceAppPinned(ctx, &chat.ReplaceAppPinnedRequest{PinnedConversations: []chat.ConversationRef{{GUID: "team"}}})
	check("app pins", err)

	_, err = c.Friends.Add(ctx, "alice", &chat.AddFriendsRequest{Accepted: []string{"carol"}, AddToConversations: true})
	check("friends", err)
	_, err = c.Blocked.Block(ctx, "carol", &chat.BlockUsersRequest{BlockedUIDs: []string{"dave"}})
	check("block", err)
	_, err = c.Roles.Create(ctx, &chat.CreateRoleRequest{Role: "vip", Name: "VIP"})
	check("role", err)
	_, err = c.Permissions.SetRole(ctx, "vip", &chat.SetPermissionsRequest{Permissions: map[string]any{"sendMessage": "deny"}})
	check("role permissions", err)
	_, err = c.Moderation.ListRules(ctx, nil) // dates the built-in rules
	check("rules", err)
	_, err = c.Moderation.CreateKeywordList(ctx, &chat.CreateKeywordListRequest{ID: "words", Category: chat.KeywordWord, Name: "Words", SearchTerms: []string{"darn"}})
	check("keywords", err)

	_, err = c.Notifications.UpdateTimezone(ctx, "alice", &chat.UpdateTimezoneRequest{Timezone: "Europe/Paris"})
	check("timezone", err)
	_, err = c.Notifications.UpdateContactDetails(ctx, "alice", &chat.UpdateContactDetailsRequest{Email: "alice@example.com"})
	check("contact", err)
	_, err = c.Notifications.AddFCMProvider(ctx, &chat.FCMProvider{ProviderID: "fcm-1", ServiceAccountFilename: "sa.json",
		ServiceAccountCreds: &chat.FCMServiceAccount{ProjectID: "p", ClientEmail: "sa@p.example", PrivateKey: "-----BEGIN PRIVATE KEY-----", PrivateKeyID: "k1"}})
	check("fcm", err)
	if tok != nil {
		_, err = c.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{Platform: chat.PushPlatformFCMAndroid, ProviderID: "fcm-1", Token: "push-token-1", AuthToken: tok.AuthToken})
		check("push token", err)
	}
	_, err = c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "ping"}}, obo("bob"))
	check("send after push", err)
	_, err = c.Notifications.ListLogs(ctx, nil) // writes the log of the messages since, with the push token
	check("logs", err)
	if tok != nil {
		_, err = c.Notifications.DeletePushToken(ctx, "push-token-1", &chat.DeletePushTokenRequest{AuthToken: tok.AuthToken})
		check("delete push token", err)
	}

	_, err = c.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "erin", Name: "Erin", CreatedAt: 1_600_000_000}})
	check("import users", err)
	_, err = c.AIAgents.CreateAgent(ctx, &chat.CreateAgentRequest{Name: "Helper", Instruction: "help"})
	check("agent", err)

	_, err = mc.Apps.Create(ctx, &management.CreateAppRequest{Name: "Other", Region: chat.RegionEU})
	check("app", err)
	_, err = mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "hook", Name: "Hook", URL: "http://127.0.0.1:1/hook"})
	check("webhook", err)
	_, err = mc.Webhooks.AddTriggers(ctx, srv.AppID(), "hook", []webhook.Trigger{webhook.TriggerMessageSent})
	check("triggers", err)
	_, err = mc.Settings.Map(ctx, srv.AppID(), map[management.SettingKey]bool{management.SettingPushEnabled: true})
	check("settings", err)

	clientArea(t, srv, check)

	srv.AddUser(chat.User{UID: "frank", Name: "Frank", Metadata: map[string]any{"k": []any{"v"}}})
	srv.AddGroup(chat.Group{GUID: "club", Name: "Club"}, "frank", "alice:admin")
	srv.AddMessage(chat.Message{Sender: "frank", ReceiverType: chat.ReceiverGroup, Receiver: "club", Data: chat.MessageData{Text: "seeded"}})
	srv.AddFriends("frank", "bob")
	srv.Block("frank", "carol")
	srv.AddRole(chat.Role{Role: "gold", Name: "Gold"})
	srv.SetRolePermissions("gold", map[string]any{"sendMessage": "allow"})
	srv.SetScopePermissions("club", chat.MemberParticipant, map[string]any{"sendMessage": "deny"})
	srv.AddModerationReason(chat.ModerationReason{ID: "spam", Name: "Spam"})
	srv.AddAPIKey("seeded", chat.ScopeFullAccess)
	if call, err := srv.AddCall(chat.Call{Initiator: "alice", Receiver: "bob", StartedAt: 1_700_000_000, EndedAt: 1_700_000_060}); err == nil {
		check("transcription", srv.AddTranscription(call.SessionID, chat.CallTranscription{}))
	} else {
		check("call", err)
	}
	if _, err := srv.AddManagementApp("Seeded app", chat.RegionUS); err != nil {
		check("management app", err)
	}
	srv.EnableExtensions(srv.AppID(), management.KnownExtensionIDs()[0])
	srv.Role("gold")
	srv.NotificationLogs()
	return failed
}

// clientArea changes what the client API changes, as the users alice and
// bob (made by everyArea): a login that updates the profile, joining and
// leaving a group, blocking, sending, reacting and marking read through
// /v3.0, and, on bob's websocket, coming online, a receipts frame and
// going offline. It reports each failure to check.
func clientArea(t *testing.T, srv *Server, check func(string, error)) {
	t.Helper()
	ctx := context.Background()
	c := srv.Client(chat.WithoutRetries())
	hc := srv.HTTPClient()
	defer hc.CloseIdleConnections()
	token := func(uid string) string {
		tok, err := c.AuthTokens.Create(ctx, uid, &chat.CreateAuthTokenRequest{})
		check("token of "+uid, err)
		if tok == nil {
			return ""
		}
		return string(tok.AuthToken)
	}
	alice, bob := token("alice"), token("bob")
	// as sends a request of the client API with the auth token tok and
	// returns the data of a 200.
	as := func(tok, method, path, body string) map[string]any {
		req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
		req.Header.Set("appId", srv.AppID())
		req.Header.Set("authToken", tok)
		req.Header.Set("resource", "device-1")
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			check(method+" "+path, err)
			return nil
		}
		defer resp.Body.Close()
		var out struct {
			Data  map[string]any  `json:"data"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			check(method+" "+path, fmt.Errorf("status %d: %s", resp.StatusCode, out.Error))
		}
		return out.Data
	}

	as(alice, "PUT", "/v3.0/me", `{"platform":"javascript","deviceId":"device-1","name":"Alice Client","statusMessage":"around"}`)
	_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "lobby", Name: "Lobby", Type: chat.GroupPublic, Owner: "carol"})
	check("create lobby", err)
	as(alice, "POST", "/v3.0/groups/lobby/members", `{}`)
	as(bob, "POST", "/v3.0/groups/lobby/members", `{}`)
	as(bob, "DELETE", "/v3.0/groups/lobby/members", "")
	as(alice, "POST", "/v3.0/blockedusers", `{"blockedUids":["dave"]}`)
	sent := as(alice, "POST", "/v3.0/messages", `{"receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"from a client"}}`)
	as(alice, "POST", "/v3.0/messages", `{"receiver":"lobby","receiverType":"group","category":"message","type":"text","data":{"text":"hello lobby"}}`)
	id, _ := sent["id"].(string)
	as(bob, "POST", "/v3.0/messages/"+id+"/reactions/"+url.PathEscape("🎉"), `{}`)
	as(bob, "POST", "/v3.0/users/alice/conversation/delivered", `{"messageId":`+id+`}`)

	// bob's websocket: online, a receipts frame marking alice's message
	// read, then offline.
	jwt, _ := as(bob, "PUT", "/v3.0/me", `{"platform":"javascript","deviceId":"device-2"}`)["jwt"].(string)
	ws := srv.realtime.(*memTransport).Open(t, srv)
	ws.Write(t, map[string]any{"appId": srv.AppID(), "type": "auth", "sender": "bob", "deviceId": "device-2", "body": map[string]any{"auth": jwt}})
	ws.NextOf(t, "auth")
	ws.Write(t, map[string]any{"appId": srv.AppID(), "type": "receipts", "receiver": "alice", "receiverType": "user", "deviceId": "device-2",
		"body": map[string]any{"action": "read", "messageId": id}})
	// Frames are acted on in order: the pong follows the receipt.
	ws.Write(t, map[string]any{"action": "ping"})
	for f := ws.Next(t); f["action"] != "pong"; f = ws.Next(t) {
	}
	ws.Close(ctx, statusNormalClosure, "")
	awaitOffline(t, srv, "bob")
}

// withPipes is the option of a server whose websocket is in memory.
func withPipes() Option { return WithRealtime(newMemTransport()) }

// awaitOffline waits until uid has no websocket left.
func awaitOffline(t *testing.T, srv *Server, uid string) {
	t.Helper()
	st := srv.st
	timeout := time.After(10 * time.Second)
	for {
		st.mu.Lock()
		online, changed := len(st.rtByUID[uid]) > 0, st.rtChanged
		st.mu.Unlock()
		if !online {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("%s still has a websocket after 10s", uid)
		}
	}
}
