package platform_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/coder/websocket"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// A server on a data directory keeps its state across restarts: a second
// server opened on the directory serves what the first was told.
func ExampleWithDataDir() {
	dir, err := os.MkdirTemp("", "chat-state")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	srv, err := chattest.OpenServer(platform.WithDataDir(dir))
	if err != nil {
		fmt.Println(err)
		return
	}
	client := srv.Client()
	if _, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"}); err != nil {
		fmt.Println(err)
		return
	}
	client.CloseIdleConnections()
	srv.Close()

	again, err := chattest.OpenServer(platform.WithDataDir(dir))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer again.Close()
	client = again.Client()
	defer client.CloseIdleConnections()
	u, err := client.Users.Get(ctx, "alice")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Name)
	// Output: Alice
}

// A client SDK opens the websocket at the server's address: a ping is
// answered with a pong, and once the client authenticates with the jwt of
// its login (see chattest's CLIENTAPI.md), the server pushes what concerns
// its user.
func ExampleWithWebSocket() {
	srv := chattest.NewServer(platform.WithWebSocket())
	defer srv.Close()
	ctx := context.Background()
	ws, _, err := websocket.Dial(ctx, "wss://"+strings.TrimPrefix(srv.URL(), "https://"), &websocket.DialOptions{HTTPClient: srv.HTTPClient()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`)); err != nil {
		fmt.Println(err)
		return
	}
	_, frame, err := ws.Read(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(frame))
	// Output: {"appId":"test-app","action":"pong","deviceId":""}
}
