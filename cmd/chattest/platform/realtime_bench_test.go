package platform_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// BenchmarkLiveDelivery measures what a live receiver costs a send, in the
// same run: a message sent through the SDK with its receiver offline
// (offline: the send alone), with the receiver's client online (online:
// the send, and its push to the websocket), and the send until the
// receiver's client has read the frame (received: how long a user waits to
// see a message sent to them).
func BenchmarkLiveDelivery(b *testing.B) {
	for _, mode := range []string{"offline", "online", "received"} {
		b.Run(mode, func(b *testing.B) {
			srv := chattest.NewServer(platform.WithWebSocket())
			defer srv.Close()
			seed(srv, "alice", "bob")
			client := srv.Client()
			defer client.CloseIdleConnections()
			var bob *rtClient
			if mode != "offline" {
				bob, _ = online(b, srv, client, "bob", "")
			}
			if mode == "online" { // bob's client reads, and nobody waits for it
				go func() {
					for {
						select {
						case <-bob.frames:
						case <-bob.done:
							return
						}
					}
				}()
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
					Data: chat.MessageData{Text: "Hello " + strconv.Itoa(i)}}, chat.OnBehalfOf("alice"))
				if err != nil {
					b.Fatal(err)
				}
				if mode == "received" {
					<-bob.frames
				}
			}
		})
	}
}
