package chattest

import (
	"context"
	"net/http"

	"github.com/coder/websocket"
)

// The realtime transport on github.com/coder/websocket: it carries the
// client API's websocket, and nothing of its protocol.

// wsReadLimit bounds a frame from a client.
const wsReadLimit = 64 << 10

// websocketTransport is the [RealtimeTransport] of a server without
// [WithRealtime].
type websocketTransport struct{}

// ServeRealtime accepts the websocket of r and feeds the connection the
// frames it reads until the client leaves or the fake closes it.
func (websocketTransport) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(Socket) (*RealtimeConn, error)) {
	// Any origin may connect: the fake listens on loopback, and a frame
	// does nothing before it authenticates with a jwt.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	ws.SetReadLimit(wsReadLimit)
	rc, err := connect(wsSocket{ws})
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

// wsSocket is a websocket as the fake writes to it.
type wsSocket struct{ ws *websocket.Conn }

func (s wsSocket) Send(ctx context.Context, frame []byte) error {
	return s.ws.Write(ctx, websocket.MessageText, frame)
}

func (s wsSocket) Close(ctx context.Context, code int, reason string) error {
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
