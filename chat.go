// Package chat is a Go client for the chat REST API v3: users, auth tokens,
// API keys, groups, messages and threads, conversations and more, for
// server-side programs that manage an app's users and send messages on their
// behalf.
//
// Create one [Client] per app and share it: it is safe for concurrent use and
// keeps a pool of connections.
//
//	client, err := chat.NewClient(appID, apiKey, chat.WithRegion(chat.RegionEU))
//	if err != nil {
//		return err
//	}
//	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
//		Receiver:     "cometchat-uid-2",
//		ReceiverType: chat.ReceiverUser,
//		Data:         chat.MessageData{Text: "Can you check the order?"},
//	}, chat.OnBehalfOf("cometchat-uid-1"))
//	if err != nil {
//		return err
//	}
//	reply, err := client.Messages.SendThread(ctx, msg.ID, "cometchat-uid-2", &chat.SendMessageRequest{
//		Receiver:     "cometchat-uid-1",
//		ReceiverType: chat.ReceiverUser,
//		Data:         chat.MessageData{Text: "On it!"},
//	})
//
// Every call takes a [context.Context] first. Operations that act as a user
// take that user's UID as a positional onBehalfOf argument when the API
// requires it, and accept the [OnBehalfOf] request option where it is
// optional.
//
// Failed calls return a [*Error] carrying the HTTP status and the API's error
// code; each falls under exactly one class, which [errors.Is] matches:
// [ErrUnauthorized], [ErrForbidden], [ErrNotFound], [ErrConflict],
// [ErrBadRequest], [ErrLimitExceeded], [ErrRateLimited] or [ErrServer]. Bad
// arguments are reported before anything is sent, as an [*ArgumentError].
//
// Lists return one [Page] at a time, and an iterator walks every page:
//
//	for user, err := range client.Users.All(ctx, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(user.UID)
//	}
//
// An iterator asks for the next page only when the previous one was full,
// stops at the first error, which it yields, and yields
// [ErrPaginationStalled] rather than loop when a server repeats a page or a
// cursor. Each range starts afresh from the options it was given, which it
// never modifies. A walk stopped part way can be resumed later without
// repeating an item: [PageOptions.ResumeAt] continues a page-based list
// after the number of items already seen, [CursorOptions.ResumeAfter] a
// message list after the last message seen.
//
// # Testing
//
// Package chattest serves the API as an in-memory fake over HTTPS on a
// loopback address; its Server.Client returns a Client wired to it, for
// tests of code that uses this package.
package chat

import "github.com/chatrest/chat/internal/engine"

// Version is the SDK's version, sent in the default User-Agent.
const Version = engine.Version
