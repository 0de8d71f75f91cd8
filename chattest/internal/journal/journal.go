// Package journal keeps the changes of a fake's state in its store
// (chattest.WithStore), in the order they were made, and reads what the
// store holds when the fake opens it: the glue between the core and a
// [fake.Store].
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chatrest/chat/chattest/internal/fake"
)

// The names of the values a store keeps.
const (
	storeFormat      = "format"
	storeApp         = "app"
	storeCreated     = "created"
	storeJWTKey      = "jwtKey"
	storeCredentials = "credentials"
)

// Open opens the journal of the store s for appID, creating its
// state with the creation time created when it is new, and returns it
// with the changes the store holds, encoded: fake.Config.OpenJournal.
func Open(s fake.Store, appID string, created time.Time) (fake.Journal, [][]byte, error) {
	own := fake.OwnCredentials{APIKey: fake.RandomHex(), MgmtKey: fake.RandomHex(), MgmtSecret: fake.RandomHex()}
	ownJSON, _ := json.Marshal(own) // strings always encode
	values, kept, err := s.Open(map[string][]byte{
		storeFormat:      fmt.Append(nil, fake.RecordsFormat),
		storeApp:         []byte(appID),
		storeCreated:     []byte(created.Format(time.RFC3339Nano)),
		storeJWTKey:      fake.NewJWTKey(),
		storeCredentials: ownJSON,
	})
	if err != nil {
		return nil, nil, err
	}
	j, kept, err := readStore(s, appID, values, kept)
	if err != nil {
		return nil, nil, errors.Join(err, s.Close())
	}
	j.work, j.stopped = make(chan struct{}, 1), make(chan struct{})
	go j.writeLoop()
	return j, kept, nil
}

// readStore checks the values and changes the store s holds, and returns
// the journal they make, its writer not started, and the changes.
func readStore(s fake.Store, appID string, values map[string][]byte, kept [][]byte) (*Journal, [][]byte, error) {
	damaged := func(format string, args ...any) error { return fake.Damaged(s, format, args...) }
	// A store of requests (format 1) holds records after its first
	// opening by a release of records, which replays its requests once.
	if f := string(values[storeFormat]); f != fmt.Sprint(fake.ChangesFormat) && f != fmt.Sprint(fake.RecordsFormat) {
		return nil, nil, fmt.Errorf("chattest: %s holds a state of format %q; this chattest reads formats %d and %d", s, f, fake.ChangesFormat, fake.RecordsFormat)
	}
	if app := string(values[storeApp]); app != appID {
		return nil, nil, fmt.Errorf("chattest: %s holds the state of app %q, not of %q", s, app, appID)
	}
	created, err := time.Parse(time.RFC3339Nano, string(values[storeCreated]))
	if err != nil {
		return nil, nil, damaged("its creation time is not readable: %v", err)
	}
	var own fake.OwnCredentials
	if err := json.Unmarshal(values[storeCredentials], &own); err != nil || !own.Valid() {
		return nil, nil, damaged("its credentials are not readable")
	}
	jwtKey := values[storeJWTKey]
	if len(jwtKey) == 0 {
		return nil, nil, damaged("it has no key to sign the client API's jwts")
	}
	j := newJournal(s, appID, created, uint64(len(kept)))
	j.jwtKey, j.own = jwtKey, own
	return j, kept, nil
}

// journal keeps the changes, in a [Store] or in memory, and writes them
// in order: a request waits, after leaving the state's lock, until its
// change is written, before it is answered. Changes added meanwhile by
// other requests are written with it, in one call of the store's Append
// (group commit).
type Journal struct {
	store   fake.Store    // nil: in memory
	work    chan struct{} // with store: tells writeLoop that changes are pending; closed by close
	stopped chan struct{} // closed when writeLoop returns

	mu      sync.Mutex
	cond    sync.Cond
	pending [][]byte // Changes added and not yet written, in order
	memory  [][]byte // every change, in memory
	next    uint64   // the sequence number of the next change added
	snapped uint64   // the sequence number after the last snapshot added (keepSnapshot); 0: none
	written uint64   // every change before this one is written
	err     error    // the first failure to write: nothing is written after it

	appID   string
	created time.Time           // when the state began: the time of its first server
	jwtKey  []byte              // the key that signs the client API's jwts, kept in the store; nil in memory
	own     fake.OwnCredentials // the server's own credentials, kept in the store: those its options do not set
}

func newJournal(s fake.Store, appID string, created time.Time, written uint64) *Journal {
	j := &Journal{store: s, appID: appID, created: created, next: written, written: written}
	j.cond.L = &j.mu
	return j
}

// Add adds a change, encoded, and returns its sequence number. It is
// called with st.mu held, so that changes are added in the order they
// were made.
func (j *Journal) Add(b []byte) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	seq := j.next
	j.next++
	if j.store == nil {
		j.memory = append(j.memory, b)
		j.written = j.next
		return seq
	}
	if j.err != nil {
		return seq // nothing is written since: its wait returns j.err
	}
	j.pending = append(j.pending, b)
	select {
	case j.work <- struct{}{}:
	default: // the writer was told already
	}
	return seq
}

// Wait returns once the change seq is written, or with the error that
// stopped the journal before.
func (j *Journal) Wait(seq uint64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for j.written <= seq && j.err == nil {
		j.cond.Wait()
	}
	if j.written > seq {
		return nil
	}
	return j.err
}

// writeLoop writes the changes added, until the journal is closed: every
// change pending in one Append of the store, then at once those added
// meanwhile, and so on (group commit).
func (j *Journal) writeLoop() {
	defer close(j.stopped)
	for range j.work {
		j.mu.Lock()
		for len(j.pending) > 0 && j.err == nil {
			batch, first := j.pending, j.written
			j.pending = nil
			j.mu.Unlock()
			err := j.store.Append(first, batch)
			j.mu.Lock()
			if err != nil {
				j.err = err
			} else {
				j.written = first + uint64(len(batch))
			}
			j.cond.Broadcast() // the batch is written (or failed): its requests are answered
		}
		j.mu.Unlock()
	}
}

// ChangedSinceSnapshot reports whether a change was added after the last
// snapshot, or none was added.
func (j *Journal) ChangedSinceSnapshot() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.snapped == 0 || j.next > j.snapped
}

// fail stops the journal with err, unless it stopped already.
func (j *Journal) fail(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = err
	}
	j.cond.Broadcast()
}

// Failed is the error that stopped the journal, if any; nil for no
// journal.
func (j *Journal) Failed() error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Changes returns every change, encoded, once those added are written.
func (j *Journal) Changes() ([][]byte, error) {
	if j.store == nil {
		j.mu.Lock()
		defer j.mu.Unlock()
		return j.memory[:j.next:j.next], nil
	}
	if err := j.Sync(); err != nil {
		return nil, err
	}
	return j.store.Changes()
}

// Sync returns once every change added is written, or with the error
// that stopped the journal.
func (j *Journal) Sync() error {
	j.mu.Lock()
	last := j.next
	j.mu.Unlock()
	if last == 0 {
		return nil
	}
	return j.Wait(last - 1)
}

// Close writes the changes added, then closes the store: every later
// change fails with errJournalClosed.
func (j *Journal) Close() error {
	if j.store == nil {
		return nil
	}
	err := j.Sync()
	j.fail(errJournalClosed)
	close(j.work)
	<-j.stopped
	return errors.Join(err, j.store.Close())
}

// errJournalClosed is the failure of a change made after the handler was
// closed.
var errJournalClosed = errors.New("the server was closed")

// Created is when the state the store holds began: the time of its first
// server.
func (j *Journal) Created() time.Time { return j.created }

// JWTKey is the key that signs the client API's jwts, kept in the store.
func (j *Journal) JWTKey() []byte { return j.jwtKey }

// Own are the server's own credentials kept in the store, those its
// options do not set.
func (j *Journal) Own() fake.OwnCredentials { return j.own }

// Next is the sequence number of the next change added.
func (j *Journal) Next() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.next
}

// Snapshotted records that the changes before next are a snapshot's.
func (j *Journal) Snapshotted(next uint64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.snapped = next
}
