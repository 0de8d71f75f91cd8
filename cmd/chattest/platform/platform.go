// Package platform attaches to a [chattest] server what the local chat
// platform serves beyond the in-process fake: the client API's websocket,
// which the platform's client SDKs open ([WithWebSocket]), and a data
// directory that keeps the state across restarts and crashes
// ([WithDataDir]). The command chattest, this module's main package,
// serves a handler with both.
//
//	srv, err := chattest.OpenServer(platform.WithWebSocket(), platform.WithDataDir("testdata/state"))
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer srv.Close()
//
// The package lives in a module of its own, beside the SDK's, so that a
// program that uses the SDK and tests with chattest does not depend on
// bbolt or a websocket library.
package platform

import (
	"github.com/chatrest/chat/chattest"

	"github.com/chatrest/chat/cmd/chattest/internal/wsrealtime"
)

// WithWebSocket serves the client API's websocket at wss://HOST:PORT/, as
// the platform's client SDKs open it (see chattest's CLIENTAPI.md), on
// github.com/coder/websocket.
func WithWebSocket() chattest.Option { return chattest.WithRealtime(wsrealtime.Transport{}) }
