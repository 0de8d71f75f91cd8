// Package chattest is a stateful fake of the chat REST API v3, served over
// HTTPS on a loopback address, for tests of code that uses package chat. It
// stores what the requests create and answers as the service does (the same
// paths, envelopes, error codes and statuses), so that a [chat.Client]
// pointed at it behaves as against the service.
//
//	func TestWelcome(t *testing.T) {
//		srv := chattest.NewServer()
//		defer srv.Close()
//		srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
//		srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
//		msg, err := srv.Client().Messages.Send(t.Context(), &chat.SendMessageRequest{Receiver: "bob",
//			ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "Hi"}}, chat.OnBehalfOf("alice"))
//		if err != nil || msg.ConversationID != "alice_user_bob" {
//			t.Fatalf("Send: %v", err)
//		}
//	}
//
// Where things are:
//
//   - [NewServer] starts a fake; [Server.Client] and [Server.ManagementClient]
//     talk to it; [NewHandler] is the same fake as an [http.Handler] to serve
//     yourself.
//   - Seeding and inspection without requests: [Server.AddUser],
//     [Server.AddGroup], [Server.AddMessage], [Server.User],
//     [Server.Messages] and the other Add and read methods of [Server].
//   - Faults ([Server.Fail]), the request log ([Server.Requests]), rate
//     limits ([WithRateLimit], [WithFastClock]), webhook deliveries
//     ([Server.Deliveries], [Server.Fire]) and the dashboard
//     ([Server.DashboardURL]).
//   - The state across restarts and as a file: [WithStore], [OpenServer],
//     [Server.Export], [WithSeedFile].
//   - The client API of the platform's client SDKs, and its websocket
//     ([WithRealtime], [Server.AwaitOnline]).
//   - The local platform, a module of its own beside the SDK's, gives a
//     server a data directory and the client SDKs' websocket
//     (github.com/chatrest/chat/cmd/chattest/platform: WithDataDir,
//     WithWebSocket), and serves it as a process (cmd/chattest).
//
// How the fake answers each API is in [the fake's README]; the client API of
// the platform's client SDKs and its websocket protocol in [CLIENTAPI.md].
//
// [the fake's README]: https://github.com/chatrest/chat/blob/main/chattest/README.md
// [CLIENTAPI.md]: https://github.com/chatrest/chat/blob/main/chattest/CLIENTAPI.md
package chattest
