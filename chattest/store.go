package chattest

// A Store keeps a server's state outside its memory, so that a server
// opened on the store later, even after this one was killed, starts with
// the state this one had: users, keys, tokens, groups, messages,
// conversations and read marks, webhooks, everything the fake serves, and
// what the seeding methods stored. Attach one with [WithStore]; the local
// platform's data directory (github.com/chatrest/chat/cmd/chattest/platform)
// is a Store on disk.
//
// A store keeps two things, both opaque to it: a few named values of the
// server (the app id, the creation time, the key that signs the client
// API's jwts, the server's own credentials, the version of what it
// holds), and the changes the state went through, in order, each a JSON
// document: a snapshot of the whole state as records, which the server
// appends when it is closed (and when a state file seeds the store), then
// the records each request of the chat, management and client APIs, each
// call of a seeding method and each frame of the client API's websockets
// set or removed since. A change is numbered from 0 in the order the
// server made it. Opening sets the records of the last snapshot, then of
// the changes after it, which a server that was killed left.
//
// The server calls Open once, before it serves; then Append, from one
// goroutine, one call at a time, and Changes from any; Close once, when
// the server is closed. A store given to another server after that is
// opened again, and one given to a second server while the first has it
// open should refuse to open.
type Store interface {
	// String names the store in errors, e.g. "the database
	// /srv/chat/chattest.db".
	String() string

	// Open reads the store. It keeps each value of defaults whose name
	// it does not hold yet, and returns every value it holds (those it
	// kept included) and every change it holds, in order.
	Open(defaults map[string][]byte) (values map[string][]byte, changes [][]byte, err error)

	// Append keeps changes, the first of them numbered first, after
	// those the store holds: the changes that concurrent requests made,
	// together. The requests that made them are answered once it returns
	// nil. An error stops the server's journal: a request that would
	// change the state is answered 500 ERR_EXCEPTION from then on.
	Append(first uint64, changes [][]byte) error

	// Changes returns every change the store holds, in order, as
	// appended.
	Changes() ([][]byte, error)

	// Close keeps what was appended and releases the store.
	Close() error
}
