package fake

import (
	"encoding/json"
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

// Journal keeps the changes of the state in its [Store], in the order
// they are made; package chattest opens one around the store
// (Config.OpenJournal). It is safe for concurrent use.
type Journal interface {
	// Add adds a change, encoded, and returns its sequence number. It is
	// called with st.mu held, so that changes are added in the order
	// they were made.
	Add(change []byte) (seq uint64)
	// Wait returns once the change seq is written, or with the error
	// that stopped the journal before.
	Wait(seq uint64) error
	// Sync returns once every change added is written, or with the error
	// that stopped the journal.
	Sync() error
	// Failed is the error that stopped the journal, if any.
	Failed() error
	// Changes returns every change, encoded, once those added are
	// written.
	Changes() ([][]byte, error)
	// Next is the sequence number of the next change added.
	Next() uint64
	// Snapshotted records that the changes before next are a snapshot's.
	Snapshotted(next uint64)
	// ChangedSinceSnapshot reports whether a change was added after the
	// last snapshot, or none was added.
	ChangedSinceSnapshot() bool
	// Created is when the state began: the time of its first server.
	Created() time.Time
	// JWTKey is the key that signs the client API's jwts, kept in the
	// store.
	JWTKey() []byte
	// Own are the server's own credentials kept in the store: those its
	// options do not set.
	Own() OwnCredentials
	// Close writes the changes added, then closes the store: every later
	// change fails.
	Close() error
}

// Damaged is the error of a store whose content cannot be read.
func Damaged(s Store, format string, args ...any) error {
	return fmt.Errorf("chattest: %s is damaged: %s. Restore it from a backup, or move it away to start anew", s, fmt.Sprintf(format, args...))
}

// decodeChanges decodes the changes kept in the store s.
func decodeChanges(s Store, kept [][]byte) ([]change, error) {
	changes := make([]change, len(kept))
	for i, b := range kept {
		if err := json.Unmarshal(b, &changes[i]); err != nil {
			return nil, Damaged(s, "change %d is not readable: %v", i+1, err)
		}
	}
	return changes, nil
}
