package chattest

import (
	"testing"

	"github.com/chatrest/chat/chattest/internal/memws"
)

// Names of the package's test helpers for the tests of package
// chattest_test.

// MemTransport is the realtime transport in memory (internal/memws).
type MemTransport struct {
	*memws.Transport[Socket, *RealtimeConn]
}

// NewMemTransport returns a MemTransport.
func NewMemTransport() *MemTransport { return &MemTransport{memws.New[Socket, *RealtimeConn]()} }

// Open serves a websocket upgrade request through srv's handler and
// returns the socket the transport made for it (memws.Transport.Open).
func (t *MemTransport) Open(tb testing.TB, srv *Server) *MemSocket {
	tb.Helper()
	return t.Transport.Open(tb, srv.Handler())
}

// MemSocket is a websocket of a MemTransport.
type MemSocket = memws.Socket
