// Package fake is the core of package chattest: a model of the chat
// service for one app. It holds the state and its records, the routes of
// the chat, client and management APIs and every operation's handler, the
// one access policy, the lifecycle cascades, the state's snapshots and
// their replay, and the events each change records in its outbox.
//
// What turns the events and requests into outputs are adapters, in
// packages of their own that import this one and that package chattest
// gives the [Core] through its [Config]: the webhooks
// (internal/webhooks), the websocket's pushes (internal/realtime), the
// dashboard (internal/dashboard), the request log (internal/requestlog)
// and the journal of the changes (internal/journal). The core names none
// of them: a new consumer of the events subscribes to the outbox, and no
// handler changes.
package fake
