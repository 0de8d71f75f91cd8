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
// This version serves users (create, get, list, update, delete, deactivate,
// reactivate), auth tokens, API keys, and messages with threads (send, get,
// send a thread reply, list a thread). Any other path answers 404
// ERR_API_NOT_FOUND. Groups are not stored: a message to a group is accepted
// for any guid.
//
// Every request needs the apikey header (401 AUTH_ERR_EMPTY_APIKEY or
// AUTH_ERR_APIKEY_NOT_FOUND otherwise); an authOnly key may only create users
// and auth tokens (403 AUTH_ERR_NO_ACCESS). Where the reference declares the
// onBehalfOf header it must name an existing, active user (404
// ERR_UID_NOT_FOUND); where it declares none, the header is ignored.
// Validation failures are 400 ERR_BAD_REQUEST with details per field.
//
// Ids are deterministic: message ids count up from "1", and API keys and
// auth tokens derive from the app id and a counter. Timestamps come from
// [WithClock]. Every response carries X-Rate-Limit and
// X-Rate-Limit-Remaining; the limit is not enforced yet.
//
// Seed and inspect the state directly with [Server.AddUser], [Server.User],
// [Server.AddAPIKey], [Server.Messages] and [Server.Message].
package chattest
