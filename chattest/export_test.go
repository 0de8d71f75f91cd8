package chattest

// Names of the package's test helpers for the tests of package
// chattest_test.

// MemTransport is the realtime transport in memory (memTransport).
type MemTransport = memTransport

// NewMemTransport returns a MemTransport.
var NewMemTransport = newMemTransport

// MemSocket is a websocket of a MemTransport (memSocket).
type MemSocket = memSocket
