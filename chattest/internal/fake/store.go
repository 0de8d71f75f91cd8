package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

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
// API's jwts, the server's own credentials), and the changes the state
// went through, in order, each a JSON document: a snapshot of the whole
// state, which the server appends when it is closed (and when a state
// file seeds the store), then each request of the chat, management and
// client APIs that may have changed the state since, each call of a
// seeding method, and what the client API's websockets change. A change
// is numbered from 0 in the order the server made it. Opening reads the
// last snapshot and replays only the changes after it, which a server that
// was killed left.
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
	// appended: [Server.Export] writes them.
	Changes() ([][]byte, error)

	// Close keeps what was appended and releases the store.
	Close() error
}

// The names of the values a store keeps.
const (
	storeFormat      = "format"
	storeApp         = "app"
	storeCreated     = "created"
	storeJWTKey      = "jwtKey"
	storeCredentials = "credentials"
)

// openJournal opens the journal of the store s for appID, creating its
// state with the creation time created when it is new, and returns it
// with the changes the store holds.
func openJournal(s Store, appID string, created time.Time) (*journal, []change, error) {
	own := ownCredentials{APIKey: randomHex(), MgmtKey: randomHex(), MgmtSecret: randomHex()}
	ownJSON, _ := json.Marshal(own) // strings always encode
	values, kept, err := s.Open(map[string][]byte{
		storeFormat:      fmt.Append(nil, changesFormat),
		storeApp:         []byte(appID),
		storeCreated:     []byte(created.Format(time.RFC3339Nano)),
		storeJWTKey:      newJWTKey(),
		storeCredentials: ownJSON,
	})
	if err != nil {
		return nil, nil, err
	}
	j, changes, err := readStore(s, appID, values, kept)
	if err != nil {
		return nil, nil, errors.Join(err, s.Close())
	}
	j.work, j.stopped = make(chan struct{}, 1), make(chan struct{})
	go j.writeLoop()
	return j, changes, nil
}

// readStore checks the values and changes the store s holds, and returns
// the journal they make, its writer not started, and the changes.
func readStore(s Store, appID string, values map[string][]byte, kept [][]byte) (*journal, []change, error) {
	damaged := func(format string, args ...any) error {
		return fmt.Errorf("chattest: %s is damaged: %s. Restore it from a backup, or move it away to start anew", s, fmt.Sprintf(format, args...))
	}
	if f := string(values[storeFormat]); f != fmt.Sprint(changesFormat) {
		return nil, nil, fmt.Errorf("chattest: %s holds a state of format %q; this chattest reads format %d", s, f, changesFormat)
	}
	if app := string(values[storeApp]); app != appID {
		return nil, nil, fmt.Errorf("chattest: %s holds the state of app %q, not of %q", s, app, appID)
	}
	created, err := time.Parse(time.RFC3339Nano, string(values[storeCreated]))
	if err != nil {
		return nil, nil, damaged("its creation time is not readable: %v", err)
	}
	var own ownCredentials
	if err := json.Unmarshal(values[storeCredentials], &own); err != nil || !validAPIKey(own.APIKey) || !validAPIKey(own.MgmtKey) || !validAPIKey(own.MgmtSecret) {
		return nil, nil, damaged("its credentials are not readable")
	}
	jwtKey := values[storeJWTKey]
	if len(jwtKey) == 0 {
		return nil, nil, damaged("it has no key to sign the client API's jwts")
	}
	changes := make([]change, len(kept))
	for i, b := range kept {
		if err := json.Unmarshal(b, &changes[i]); err != nil {
			return nil, nil, damaged("change %d is not readable: %v", i+1, err)
		}
	}
	j := newJournal(s, appID, created, uint64(len(changes)))
	j.jwtKey, j.own = jwtKey, own
	return j, changes, nil
}
