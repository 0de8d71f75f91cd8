// Package chattest serves an in-memory, stateful fake of the chat REST API v3
// over HTTPS on a loopback address, for tests of code that uses package chat.
// It stores what the requests create and answers as the API reference
// describes: the same paths, envelopes, error codes and statuses, so that a
// [chat.Client] pointed at it behaves as against the service.
//
//	func TestWelcome(t *testing.T) {
//		srv := chattest.NewServer()
//		defer srv.Close()
//		srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
//		srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
//		client := srv.Client() // a *chat.Client wired to the fake
//		msg, err := client.Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob",
//			ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi"}}, chat.OnBehalfOf("alice"))
//		if err != nil || msg.ConversationID != "alice_user_bob" {
//			t.Fatalf("Send: %v", err)
//		}
//	}
//
// It serves every operation of the chat API reference: users, auth tokens,
// API keys, groups with their members and bans, messages of every category
// (and the action messages the service emits when members change or a
// message is edited or deleted), threads and thread subscriptions,
// reactions, pins, saves, interactions, flags, conversations with unread
// counts, read/delivered marks, tags and pins, friends, blocked users
// (whose messages are refused), roles, restricted features, RBAC
// permissions and moderation reasons. It serves the platform APIs too:
// moderation rules and keyword lists, which it applies to the messages
// sent (blocked messages wait for review), flagged and reviewed messages,
// notifications (settings, providers, preferences, mutes, timezones,
// contact details, push tokens, and delivery logs of the messages sent),
// data import, usage and message metrics, AI agents, and the calls API
// (on the same address; [chat.Client.Calls] sends there when
// [chat.WithBaseURL] is set). A path it does not serve answers 404
// ERR_API_NOT_FOUND.
//
// Every request needs the apikey header (401 AUTH_ERR_EMPTY_APIKEY or
// AUTH_ERR_APIKEY_NOT_FOUND otherwise); an authOnly key may only create users
// and auth tokens (403 AUTH_ERR_NO_ACCESS). Where the reference declares the
// onBehalfOf header it must name an existing, active user (404
// ERR_UID_NOT_FOUND); where it declares none, the header is ignored.
// Validation failures are 400 ERR_BAD_REQUEST with details per field.
//
// A message sent with a muid (send, bot send or thread reply) that its
// sender already used is not stored again: the server answers 200 with the
// message first sent with that muid and fires no event; another sender's
// muid is another message, and a send without a muid is never
// deduplicated. What the real service does with a repeated muid is
// unconfirmed.
//
// Ids are deterministic: message ids count up from "1", and API keys and
// auth tokens derive from the app id and a counter. Timestamps come from
// [WithClock].
//
// Seed and inspect the state directly, without requests, with
// [Server.AddUser], [Server.User], [Server.AddAPIKey], [Server.AddGroup],
// [Server.Group], [Server.AddMessage], [Server.Messages], [Server.Message],
// [Server.AddFriends], [Server.Block], [Server.AddRole],
// [Server.SetRolePermissions], [Server.AddModerationReason],
// [Server.Conversation], [Server.AddCall], [Server.AddTranscription],
// [Server.Call], [Server.PushTokens], [Server.NotificationLogs],
// [Server.AddManagementApp], [Server.ManagementApp] and
// [Server.EnableExtensions].
//
// # Management API and webhooks
//
// The fake's Management API runs on its own HTTPS server
// ([Server.ManagementURL], same certificate), authenticated with the key
// and secret headers ([WithManagementCredentials]; add-tenant takes them
// as HTTP Basic auth). [Server.ManagementClient] returns a
// [management.Client] for it. It shares the fake's state: the fake's app
// is the account's first app, and apps created through it are records.
//
// Webhooks created through it for the fake's app receive the deliveries of
// the events the fake produces: messages sent, edited and deleted,
// reactions, delivery and read receipts, blocks, group and member changes,
// moderation decisions, and the calls seeded with [Server.AddCall].
// Deliveries are POSTed by one goroutine per server, in order, with the
// webhook's Basic auth, to loopback receivers only (the fake connects
// nowhere else), or under [WithLocalNetwork] to receivers on the networks
// of the machine's interfaces too; [Server.Deliveries] reports them, [Server.AwaitDeliveries]
// waits for them, [Server.Fire] sends any trigger by hand, and
// [Server.Close] stops them.
//
// # Rate limits
//
// Every answer carries X-Rate-Limit and X-Rate-Limit-Remaining for the
// request's class, core (create and delete a user, create a group, add
// group members) or standard (the rest), counted per minute of the server's
// clock. Nothing is refused unless [WithRateLimit] sets budgets; then a
// request over budget is answered 429 ERR_TOO_MANY_REQUESTS with
// Retry-After and X-Rate-Limit-Reset, as the service does, and a test
// refills the budgets by moving its clock to the next minute, or runs at
// speed with [WithFastClock].
// The data import endpoints are the exception: each accepts 60 requests a
// minute, as the service's do, unless [WithDataImportLimit] says otherwise.
//
// # Faults
//
// [Server.Fail] injects a [Fault] into the next requests of a route, or of
// all routes: an error status with the API's error body or a proxy's HTML
// page, a 200 that is not JSON, a delay, a connection dropped before the
// service acts or after it has acted, or a body cut short. They are
// deterministic and need no sleeping: test retries, timeouts and
// duplicate writes with them.
//
//	srv.Fail(chattest.Fault{Route: "GET /v3/users/{uid}", Kind: chattest.FaultStatus, Status: 503, Times: 1})
//	u, err := client.Users.Get(ctx, "alice") // retried: succeeds
//	n := srv.RequestCount("GET /v3/users/{uid}") // 2 attempts
//
// # Request log
//
// [Server.Requests] returns every request received (method, path, route,
// query, headers, body, status, fault), with the API key and auth tokens
// replaced by [Redacted] (and the management credentials); [Server.RequestCount] counts them by route and
// [Server.AwaitRequests] waits for them.
//
// # Dashboard
//
// The same address serves a dashboard at /_chattest/ ([Server.DashboardURL]):
// read-only HTML pages of the app as it stands, for a person to see what a
// test or a demo did. They show the users with their auth tokens (masked to
// their last 4 characters), the groups and their members, the conversations
// with each owner's unread count, the messages of a conversation with their
// threads and reactions, the webhooks with each delivery's state, status
// and attempts, and the request log (redacted, as [Server.Requests] is).
// No page shows a credential. An open page updates itself, through a
// Server-Sent Events stream (/_chattest/events), whenever a request is
// served or a delivery progresses; the state seeded with the methods of
// [Server] shows on the next change or reload. The pages answer GET only,
// and only to loopback clients that address the server by a loopback name,
// unless [WithLocalNetwork] is given. [Handler.Close] ends the streams.
//
// To serve the fake outside a test, on a fixed address, use [NewHandler], or
// the command cmd/chattest, which serves the chat API, the Management API
// and the dashboard on one address.
package chattest
