// Package memws is a transport of the client API's websocket in memory,
// for the tests of the fake: each websocket upgrade request served gives
// the test a [Socket], whose frames the test writes and reads without a
// network.
package memws

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Conn is a connection of the fake, as a transport feeds it.
type Conn interface {
	Receive(frame []byte)
	Close()
}

// Transport is a transport in memory for a fake whose sockets are of the
// interface type S and whose connections are of type C.
type Transport[S any, C Conn] struct{ sockets chan *Socket }

// New returns a Transport.
func New[S any, C Conn]() *Transport[S, C] { return &Transport[S, C]{sockets: make(chan *Socket, 4)} }

// statusGoingAway is the close code of a client that leaves (RFC 6455, 7.4.1).
const statusGoingAway = 1001

// frameTimeout bounds the wait for a frame or a socket the test
// expects.
const frameTimeout = 10 * time.Second

// ServeRealtime serves r as the fake's transport does, over a [Socket]
// in memory.
func (t *Transport[S, C]) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(S) (C, error)) {
	s := &Socket{in: make(chan []byte), out: make(chan []byte, 64), closed: make(chan struct{})}
	rc, err := connect(any(s).(S))
	if err != nil {
		return
	}
	defer rc.Close()
	t.sockets <- s
	for {
		select {
		case f := <-s.in:
			rc.Receive(f)
		case <-s.closed:
			return
		}
	}
}

// Open serves a websocket upgrade request through h, the fake's handler,
// as its server would, and returns the socket the transport made for it;
// the request is served until the socket closes, at the latest when the
// test ends.
func (t *Transport[S, C]) Open(tb testing.TB, h http.Handler) *Socket {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Connection", "Upgrade")
	served := make(chan struct{})
	go func() {
		defer close(served)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}()
	select {
	case s := <-t.sockets:
		tb.Cleanup(func() {
			s.Close(context.Background(), statusGoingAway, "the test ended") // the client leaves
			<-served
		})
		return s
	case <-time.After(frameTimeout):
		tb.Fatal("the transport was not asked to serve the websocket")
		return nil
	}
}

// Socket is one websocket of a Transport.
type Socket struct {
	in     chan []byte // frames from the client
	out    chan []byte // frames from the fake
	once   sync.Once
	closed chan struct{} // closed by Close

	// Set before closed closes: the close code and reason, and whether
	// the connection was cut without waiting (Close's ctx had ended).
	Code   int
	Reason string
	Cut    bool
}

// Send queues frame for the test to read.
func (s *Socket) Send(ctx context.Context, frame []byte) error {
	select {
	case s.out <- frame:
		return nil
	case <-s.closed:
		return errors.New("closed")
	case <-ctx.Done():
		s.Close(ctx, 0, "")
		return ctx.Err()
	}
}

// Close closes the socket, once.
func (s *Socket) Close(ctx context.Context, code int, reason string) error {
	s.once.Do(func() {
		s.Code, s.Reason, s.Cut = code, reason, ctx.Err() != nil
		close(s.closed)
	})
	return nil
}

// Write sends v to the fake as a client's frame.
func (s *Socket) Write(tb testing.TB, v any) {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	select {
	case s.in <- b:
	case <-time.After(frameTimeout):
		tb.Fatal("the transport took no frame")
	}
}

// Next returns the next frame the fake wrote.
func (s *Socket) Next(tb testing.TB) map[string]any {
	tb.Helper()
	select {
	case b := <-s.out:
		var f map[string]any
		if err := json.Unmarshal(b, &f); err != nil {
			tb.Fatalf("a frame that is not JSON: %s", b)
		}
		return f
	case <-time.After(frameTimeout):
		tb.Fatal("no frame came")
		return nil
	}
}

// NextOf returns the next frame the fake wrote of type typ, skipping the
// others.
func (s *Socket) NextOf(tb testing.TB, typ string) map[string]any {
	tb.Helper()
	for {
		if f := s.Next(tb); f["type"] == typ {
			return f
		}
	}
}

// AwaitClosed waits until the fake closes s.
func (s *Socket) AwaitClosed(tb testing.TB) {
	tb.Helper()
	select {
	case <-s.closed:
	case <-time.After(frameTimeout):
		tb.Fatal("the socket was not closed")
	}
}
