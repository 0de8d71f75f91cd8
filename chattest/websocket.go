package chattest

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/chatrest/chat/chattest/internal/fake"
)

// RealtimeTransport carries the client API's websocket (at "/", see
// CLIENTAPI.md) between the client SDKs and the fake, which speaks the
// protocol: it reads the frames the clients send, acts on them, and writes
// the frames it pushes. A transport only carries bytes. Attach one with
// [WithRealtime].
type RealtimeTransport interface {
	// ServeRealtime serves r, a websocket upgrade request at "/", until
	// its websocket closes. It accepts the websocket, or answers w with
	// why not; then it calls connect with a [Socket] over it, and feeds the
	// [RealtimeConn] connect returns every frame it reads, in order, with
	// [RealtimeConn.Receive]. When reading ends (the client left, or the
	// fake closed the socket), it calls [RealtimeConn.Close]. When connect
	// returns an error (the server is closing), the socket is closed
	// already.
	ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(Socket) (*RealtimeConn, error))
}

// Socket is one accepted websocket, as the fake writes to it. The fake
// calls its methods from one goroutine per connection, one at a time.
type Socket interface {
	// Send writes frame, a JSON document, to the client as one text
	// frame. When ctx ends before the client takes it, Send cuts the
	// connection and returns an error.
	Send(ctx context.Context, frame []byte) error
	// Close sends a close frame with code and reason and closes the
	// connection, which ends the transport's reading. When ctx ends
	// first, it cuts the connection without waiting for the client.
	Close(ctx context.Context, code int, reason string) error
}

// RealtimeConn is one websocket of the client API, as its
// [RealtimeTransport] sees it: the transport feeds it the frames it reads,
// and closes it when reading ends.
type RealtimeConn struct {
	c *fake.Conn
}

// String describes the connection, and nothing of the server's state,
// which holds its credentials.
func (rc RealtimeConn) String() string { return "chattest.RealtimeConn" }

// GoString is String, so that %#v shows no credential either.
func (rc RealtimeConn) GoString() string { return rc.String() }

// Format prints [RealtimeConn.String] for every verb.
func (rc RealtimeConn) Format(f fmt.State, verb rune) { io.WriteString(f, rc.String()) }

// Receive acts on frame, a frame the client sent. It returns once what the
// frame changed is kept (with a [Store], durable), so that the transport
// reads the next frame after it.
func (rc *RealtimeConn) Receive(frame []byte) { rc.c.Receive(frame) }

// Close ends the connection once its transport has stopped reading: the
// user goes offline if it was their last, and Close returns once the fake
// has stopped writing to the socket. Calling it again does nothing.
func (rc *RealtimeConn) Close() { rc.c.Close() }

// AwaitOnline waits until the user uid has a websocket of the client API
// that authenticated with its login's jwt, so that a test can send what
// that user's client should receive live without sleeping. It returns an
// error when ctx ends first, or when the server closes.
func (s *Server) AwaitOnline(ctx context.Context, uid string) error {
	return s.h.core.AwaitOnline(ctx, uid)
}

// transport is a [RealtimeTransport] as the core uses it.
type transport struct{ t RealtimeTransport }

func (t transport) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(fake.Socket) (*fake.Conn, error)) {
	t.t.ServeRealtime(w, r, func(s Socket) (*RealtimeConn, error) {
		c, err := connect(s)
		if err != nil {
			return nil, err
		}
		return &RealtimeConn{c: c}, nil
	})
}
