package fake

import (
	"encoding/json"
	"fmt"
	"time"
)

// Store keeps the state outside the memory: a chattest.Store, which
// documents it (chattest.WithStore).
type Store interface {
	String() string
	Open(defaults map[string][]byte) (values map[string][]byte, changes [][]byte, err error)
	Append(first uint64, changes [][]byte) error
	Changes() ([][]byte, error)
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
