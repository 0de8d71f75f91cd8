package chattest

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

// memTransport is a realtime transport in memory, the one the package's
// tests use (export_test.go names it for the tests of package
// chattest_test): each websocket upgrade request served gives the test a
// memSocket, whose frames the test writes and reads without a network.
type memTransport struct{ sockets chan *memSocket }

func newMemTransport() *memTransport { return &memTransport{sockets: make(chan *memSocket, 4)} }

// memFrameTimeout bounds the wait for a frame or a socket the test
// expects.
const memFrameTimeout = 10 * time.Second

func (t *memTransport) ServeRealtime(w http.ResponseWriter, r *http.Request, connect func(Socket) (*RealtimeConn, error)) {
	s := &memSocket{in: make(chan []byte), out: make(chan []byte, 64), closed: make(chan struct{})}
	rc, err := connect(s)
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

// Open serves a websocket upgrade request through srv's handler, as the
// server would, and returns the socket the transport made for it; the
// request is served until the socket closes, at the latest when the test
// ends.
func (t *memTransport) Open(tb testing.TB, srv *Server) *memSocket {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Connection", "Upgrade")
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Handler().ServeHTTP(httptest.NewRecorder(), r)
	}()
	select {
	case s := <-t.sockets:
		tb.Cleanup(func() {
			s.Close(context.Background(), statusGoingAway, "the test ended") // the client leaves
			<-served
		})
		return s
	case <-time.After(memFrameTimeout):
		tb.Fatal("the transport was not asked to serve the websocket")
		return nil
	}
}

// memSocket is one websocket of memTransport.
type memSocket struct {
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

func (s *memSocket) Send(ctx context.Context, frame []byte) error {
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

func (s *memSocket) Close(ctx context.Context, code int, reason string) error {
	s.once.Do(func() {
		s.Code, s.Reason, s.Cut = code, reason, ctx.Err() != nil
		close(s.closed)
	})
	return nil
}

// Write sends v to the fake as a client's frame.
func (s *memSocket) Write(tb testing.TB, v any) {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	select {
	case s.in <- b:
	case <-time.After(memFrameTimeout):
		tb.Fatal("the transport took no frame")
	}
}

// Next returns the next frame the fake wrote.
func (s *memSocket) Next(tb testing.TB) map[string]any {
	tb.Helper()
	select {
	case b := <-s.out:
		var f map[string]any
		if err := json.Unmarshal(b, &f); err != nil {
			tb.Fatalf("a frame that is not JSON: %s", b)
		}
		return f
	case <-time.After(memFrameTimeout):
		tb.Fatal("no frame came")
		return nil
	}
}

// NextOf returns the next frame the fake wrote of type typ, skipping the
// others.
func (s *memSocket) NextOf(tb testing.TB, typ string) map[string]any {
	tb.Helper()
	for {
		if f := s.Next(tb); f["type"] == typ {
			return f
		}
	}
}

// AwaitClosed waits until the fake closes s.
func (s *memSocket) AwaitClosed(tb testing.TB) {
	tb.Helper()
	select {
	case <-s.closed:
	case <-time.After(memFrameTimeout):
		tb.Fatal("the socket was not closed")
	}
}
