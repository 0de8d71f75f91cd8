// Package chattest serves an in-memory, stateful fake of the chat REST API v3
// over HTTPS on a loopback address, for tests of code that uses package chat.
// It stores what the requests create and answers as the service does:
// the same paths, envelopes, error codes and statuses, so that a
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
// It serves every operation of the chat REST API (and the client API of
// the platform's client SDKs: see Client API below): users, auth tokens,
// API keys, groups with their members and bans, messages of every category
// (and the action messages the service emits when members change or a
// message is edited or deleted), threads and thread subscriptions,
// reactions, pins, saves, interactions, flags, conversations with unread
// counts, read/delivered marks, tags and pins, friends, blocked users
// (whose messages are refused), roles, restricted features, RBAC
// permissions and moderation reasons. It serves the platform APIs too:
// moderation rules and keyword lists, which it applies to the messages
// sent (blocked messages wait for review), flagged and reviewed messages,
// messages of another chat submitted for moderation (kept apart, with the
// rules' verdict), notifications (settings, providers, preferences, mutes,
// timezones, contact details, push tokens, and delivery logs of the
// messages sent and the reactions to them),
// data import, usage and message metrics, AI agents, and the calls API
// (on the same address; [chat.Client.Calls] sends there when
// [chat.WithBaseURL] is set). A path it does not serve answers 404
// ERR_API_NOT_FOUND.
//
// # Answers held to the reference
//
// The fake's answers are held to the API reference's own examples, an
// example request and answer for each of the 278 operations of the chat,
// calls, management and data import APIs (testdata/reference/examples in
// the repository): sent as documented, each operation answers the
// documented status and an answer with the same keys at every level, each
// of the same JSON type (arrays compared element by element). One rule
// lets an answer leave a key out: a key whose documented value is null, an
// empty string, an empty array or an empty object is absent when the
// fake's state has nothing for it. Where the live service answers
// otherwise (reactivating, deactivating and soft-deleting users), the fake
// answers as the service does; where the reference contradicts its own
// example (a list example nested into an object, an answer copied from
// another operation's), as the reference's text says. So users and groups
// show updatedAt only once they changed, groups show their tags, and an
// app, a webhook or an extension's settings take the shape the examples
// give them.
//
// Every request of the server API needs the apikey header (401 AUTH_ERR_EMPTY_APIKEY or
// AUTH_ERR_APIKEY_NOT_FOUND otherwise); an authOnly key may only create users
// and auth tokens (403 AUTH_ERR_NO_ACCESS). Where an operation takes the
// onBehalfOf header it must name an existing, active user (404
// ERR_UID_NOT_FOUND); where it takes none, the header is ignored.
// Validation failures are 400 ERR_BAD_REQUEST with details per field.
//
// A message sent with a muid (send, bot send or thread reply) that its
// sender already used is not stored again: the server answers 200 with the
// message first sent with that muid and fires no event; another sender's
// muid is another message, and a send without a muid is never
// deduplicated. Code that also runs against the service should not count
// on it doing the same.
//
// Ids are deterministic: message ids count up from "1", and other ids
// derive from the app id and a counter. Timestamps come from [WithClock].
// Credentials are not: auth tokens ("{uid}_" then the time in seconds and
// random hex, as the service's), API keys (40 hex characters), the keys of
// the management API's apps, the server's own API key and management
// credentials unless given, and the key that signs the client API's jwts
// come from crypto/rand, so that no other server, of the same app id or
// not, accepts them. [WithDataDir] keeps them valid across restarts.
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
// # Details the reference leaves open
//
// Where the reference does not say, the fake answers as follows; code that
// also runs against the service should not count on the same:
//
//   - A message sent without onBehalfOf is sent by "app_system"; a group
//     created without an owner is owned by the onBehalfOf user, else by
//     "app_system".
//   - Blocking users answers a map keyed by the blocked UIDs.
//   - A conversation's 100 pinned messages count the app's pins and the
//     users' together.
//   - Updating a user with "tags": [] clears its tags; without "tags"
//     leaves them.
//   - Listing groups takes the type "protected" as "password".
//   - Restricting features takes a key with or without its "u." prefix
//     ("listUsers" or "u.listUsers").
//   - A moderation rule's filter with the in or notIn operator reads its
//     value as comma-separated values.
//   - Listing calls with startedAt keeps the calls started at or after it,
//     with endedAt those ended at or before it.
//   - Unregistering push tokens answers the tokens removed.
//   - A webhook created without "enabled" is enabled.
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
// A client's [chat.RateLimiter] paces by the real clock; against a server
// with [WithFastClock], give the client the limiter of
// [Server.RateLimiter], which paces by the server's clock (and has its
// budgets), so that a minute of budget lasts a minute of the server's:
//
//	srv := chattest.NewServer(chattest.WithFastClock(60), chattest.WithRateLimit(600, 1200))
//	client := srv.Client(chat.WithLimiter(srv.RateLimiter(chat.RateLimits{})))
//
// # Scale
//
// The store is indexed: a page of any list (users, groups, members,
// conversations, the messages of a group, a user pair, a thread or the
// app) walks only what it skips and shows, so it costs about the same with
// a thousand items stored as with a hundred thousand. A filter that is not
// indexed is applied as the walk goes; a page-based list with such a
// filter walks the whole list to count its total.
//
// # Keeping the state
//
// The state lives in memory. [WithDataDir] keeps it in a directory across
// stops and crashes. Every change is written there before it is answered,
// which a crash or kill of the process does not undo, and synced to the
// disk in the background, at least every 100 ms: a crash of the machine or
// a power loss loses at most the changes of about the last 100 ms.
// [WithDataDirSync] syncs each change before it is answered, so that such
// a crash loses nothing answered either, at a cost in throughput.
// [Server.Export] writes the state as a JSON state file, which [WithSeedFile]
// starts another server from, e.g. shared demo data or a test's fixture
// ([WithExport] keeps what Export needs without a directory). What the
// client API and its websocket change is kept too, and a client SDK's
// login stays valid across restarts of a directory. Open such a server
// with [OpenServer], which reports a directory or file it cannot use:
//
//	srv, err := chattest.OpenServer(chattest.WithDataDir("testdata/state"))
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
// query, headers, body, status, fault), with every credential replaced by
// [Redacted]: keys, tokens, passwords, providers' secrets, the password of
// any URL with user info, and any value under a name that says it is a
// credential, found by what the body holds rather than by its
// Content-Type, and in a body that does not parse too (see [Request]). A
// body that is binary, or would still show a credential once decoded, is
// shown as a note of its size. [Server.RequestCount] counts them by route
// and [Server.AwaitRequests] waits for them.
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
// No page shows a credential: messages, webhook URLs ("user:REDACTED@")
// and delivery errors are redacted as the request log is. An open page updates itself, through a
// Server-Sent Events stream (/_chattest/events), whenever a request is
// served or a delivery progresses; the state seeded with the methods of
// [Server] shows on the next change or reload. The pages answer GET only,
// and only to loopback clients that address the server by a loopback name,
// unless [WithLocalNetwork] is given. [Handler.Close] ends the streams.
//
// # Client API
//
// The same address serves the client API of the platform's official client
// SDKs, and its websocket, so that a web or mobile app logs in with an auth
// token minted through [chat.AuthTokensService] and chats against the fake.
// What the fake serves is the service's behaviour as the official
// JavaScript SDK
// (@cometchat/chat-sdk-javascript 4.2.0) shows it, and what that SDK needs.
// Point the SDK at the fake with its AppSettingsBuilder's
// overrideClientHost and overrideAdminHost, both "HOST:PORT/v3.0", and
// have it trust [Server.Certificate]:
//
//	new CometChat.AppSettingsBuilder().setRegion("us")
//	  .overrideClientHost("127.0.0.1:PORT/v3.0").overrideAdminHost("127.0.0.1:PORT/v3.0").build()
//
// Its requests, under /v3.0, carry the appId and authToken headers instead
// of apikey: the token's owner is the acting user, as onBehalfOf is on the
// server API. Either way the acting user reaches only what they may see:
// the messages of their one-on-one conversations and of the groups they
// are a member of, public and password groups, and the private groups
// they are in (the members of a public group, of the others only as a
// member); anything else answers as if it did not exist (404
// ERR_MSG_NOT_FOUND, ERR_GUID_NOT_FOUND, ...). A user creates groups as
// themself: a body's owner is then ignored. A missing or unknown token (or one of a deactivated user)
// answers 401 AUTH_ERR_AUTH_TOKEN_NOT_FOUND, on which the SDK logs out; an
// appId of another app 401 AUTH_ERR_APP_NOT_FOUND. The client API is not
// counted against [WithRateLimit]'s budgets, and lets pages of any origin
// call it (CORS). Its routes:
//
//   - PUT /v3.0/me, the login ({platform, deviceId, appInfo}; name, avatar,
//     link, statusMessage and metadata, when sent, update the user): the
//     user, its authToken, status "online", a jwt for the websocket, and
//     settings (CLIENT_API_HOST, ADMIN_API_HOST, CHAT_HOST, CHAT_WSS_PORT:
//     the address the request came to; CHAT_API_VERSION "v3.0";
//     ANALYTICS_PING_DISABLED). GET /v3.0/me answers the same; DELETE
//     /v3.0/me logs out, the token staying valid; GET /v3.0/settings
//     answers the settings; POST /v3.0/user_sessions answers an empty
//     object.
//   - POST, GET and DELETE /v3.0/blockedusers ({blockedUids}): the acting
//     user's blocked users. POST /v3.0/groups/{guid}/members: the acting
//     user joins a public group, or a password group with its password,
//     and gets the "joined" action message; DELETE
//     /v3.0/groups/{guid}/members: the acting user leaves.
//   - The server API's users, groups, members (PUT
//     /v3.0/groups/{guid}/members adds them) and banned users;
//     conversations, with their read, delivered, unread and pin marks;
//     messages (send, get, edit, delete with a JSON body), user and group
//     message lists, threads, reactions, pins, saves and flags: as on /v3,
//     with the acting user's view. A single conversation is an object, not
//     an array of one. The lists take per_page, the SDKs' page size: as
//     perPage on page lists, as limit on message lists, whose meta.cursor
//     repeats meta.next, and whose meta.pagination counts the whole list,
//     as SDK 3.x reads it. A message list asked with unread=1 and count=1
//     answers the unread counts of the acting user's conversations,
//     [{entityId, entityType, count}].
//
// Any other path under /v3.0 (calls, push notifications, AI features)
// answers 404 ERR_API_NOT_FOUND.
//
// The websocket is at wss://HOST:PORT/ (the SDK builds it from CHAT_HOST
// and CHAT_WSS_PORT). A client authenticates with the frame {"type":
// "auth", "body": {"auth": jwt}} and is answered {"type": "auth", "body":
// {"code": "200", "status": "OK"}}, or "401" and closed; the jwt is valid
// while its user is active and holds the token it logged in with. A
// websocket is closed (1008) as soon as that no longer holds (the token
// is deleted or flushed, the user deactivated or deleted), and when it
// sends no valid auth frame in time ([WithRealtimeAuthTimeout]). A
// {"action": "ping"} frame is answered {"action": "pong"}. The server
// pushes, as JSON text frames:
//
//   - "message": every message a user should see, sent by a client, by the
//     server API (on behalf of a user, or as the app), by a bot, as a
//     thread reply, to a group's members, and the action messages of edits,
//     deletions and member changes. Its deviceId is the resource header of
//     the request that sent it (the SDK's session), so that the sending
//     client skips its own. A message held by moderation is not pushed.
//   - "receipts": the read and delivered marks, made with a "receipts"
//     frame (which marks the conversation, as the REST marks do) or through
//     the REST API, to the message's sender, or to the group's members.
//   - "typing_indicator": the frames of a client, relayed to the receiver
//     or to the group's members.
//   - "presence": a user's first websocket makes them available, the last
//     to close offline; clients subscribed to presence (ALL_USERS, ROLES,
//     FRIENDS) are told.
//
// Frames are written by one goroutine per connection, from a queue of 1024:
// a client that stops reading until its queue is full is dropped (no more
// frames; closed with 1008 after the frame being written), and the server
// never waits for it. [Server.AwaitOnline] waits until a user's websocket
// has authenticated. The jwt and the authToken header are redacted in the
// request log; websocket frames are not logged.
//
// To serve the fake outside a test, on a fixed address, use [NewHandler]
// (or [OpenHandler], and [Handler.Close]), or the command cmd/chattest,
// which serves the chat API, the Management API and the dashboard on one
// address, and whose -data, -seed and -export flags keep, seed and export
// the state.
package chattest
