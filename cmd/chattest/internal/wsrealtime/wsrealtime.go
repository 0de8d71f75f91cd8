// Package wsrealtime carries the chat client API's websocket for chattest
// on github.com/coder/websocket: it accepts the websocket and moves its
// frames, and nothing of the protocol, which chattest speaks.
package wsrealtime

import (
	"context"
	"net/http"

	"github.com/coder/websocket"

	"github.com/chatrest/chat/chattest"
)

// readLimit bounds a frame from a client.
const readLimit = 64 << 10

// Transport is the [chattest.RealtimeTransport] on github.com/coder/websocket.
// Its zero value is ready to use.
type Transport struct{}

// ServeRealtime accepts the websocket of r and feeds the connection the
// frames it reads, until the client leaves or the fake closes it.
func (Transport) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(chattest.Socket) (*chattest.RealtimeConn, error)) {
	// Any origin may connect: the fake listens on loopback, and a frame
	// does nothing before it authenticates with a jwt.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	ws.SetReadLimit(readLimit)
	rc, err := connect(socket{ws})
	if err != nil {
		return // closed
	}
	defer rc.Close()
	for {
		_, b, err := ws.Read(context.Background())
		if err != nil {
			return // the client left, or the fake closed the socket
		}
		rc.Receive(b)
	}
}

// socket is a websocket as the fake writes to it.
type socket struct{ ws *websocket.Conn }

// Send writes frame as one text frame; when ctx ends first, the
// connection is cut.
func (s socket) Send(ctx context.Context, frame []byte) error {
	return s.ws.Write(ctx, websocket.MessageText, frame)
}

// Close makes the close handshake with code and reason, or cuts the
// connection when ctx ends first.
func (s socket) Close(ctx context.Context, code int, reason string) error {
	if ctx.Err() != nil {
		return s.ws.CloseNow()
	}
	closed := make(chan error, 1)
	go func() { closed <- s.ws.Close(websocket.StatusCode(code), reason) }()
	select {
	case err := <-closed:
		return err
	case <-ctx.Done():
		s.ws.CloseNow()
		return <-closed
	}
}
