package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/chatrest/chat"
)

// Open returns the core of cfg, its state read from cfg.Store or
// cfg.SeedFile. It reports a directory or file that cannot be read or
// written, a file that is not a state file, a state of another app, or a
// change that does not replay as it happened.
func Open(cfg Config) (*Core, error) {
	var seed *stateFile
	if cfg.SeedFile != "" {
		f, err := readStateFile(cfg.SeedFile, cfg.AppID)
		if err != nil {
			return nil, err
		}
		seed = &f
	}
	created := cfg.Clock()
	if seed != nil {
		created = seed.Created
	}
	var j Journal
	var changes []change
	if cfg.Store != nil {
		var kept [][]byte
		var err error
		if j, kept, err = cfg.OpenJournal(cfg.Store, cfg.AppID, created); err != nil {
			return nil, err
		}
		if changes, err = decodeChanges(cfg.Store, kept); err != nil {
			return nil, errors.Join(err, j.Close())
		}
		created = j.Created()
		cfg.defaultCredentials(j.Own())
	}
	// The state is the last snapshot's, then the changes after it.
	var snap *change
	from := cfg.SeedFile
	seeding := len(changes) == 0 && seed != nil
	if !seeding && cfg.Store != nil {
		from = cfg.Store.String()
		for i := len(changes) - 1; i >= 0; i-- {
			if changes[i].Seed == snapshotOp {
				snap, changes = &changes[i], changes[i+1:]
				j.Snapshotted(j.Next() - uint64(len(changes)))
				break
			}
		}
	} else if seeding {
		changes = seed.Changes
		if seed.State != nil {
			snap = &change{At: seed.At, Args: seed.State}
		}
	}
	h := newHandler(cfg, &created)
	h.created = created
	if j != nil && j.JWTKey() != nil {
		h.st.jwtKey = j.JWTKey()
	}
	fail := func(err error) (*Core, error) {
		if j != nil {
			j.Close()
		}
		return nil, err
	}
	rp := h.newReplayer()
	if snap != nil {
		h.st.mu.Lock()
		secrets, err := h.st.loadSnapshot(snap.Args)
		h.st.mu.Unlock()
		if err != nil {
			return fail(fmt.Errorf("chattest: reading the state of %s: %w", from, err))
		}
		for _, s := range secrets {
			h.log.Learn(s) // the request log hides what was issued before the restart
		}
		for uid, u := range h.st.users {
			if u.u.Status != chat.UserOffline {
				rp.online[uid] = true // no websocket outlived the server that kept the state
			}
		}
		h.st.lastAt = snap.At
		if rp.last = snap.At; rp.last.IsZero() { // a WithClock server's: as of now
			h.st.mu.Lock()
			rp.last = h.st.clock()
			h.st.mu.Unlock()
		}
	}
	if err := rp.replay(changes); err != nil {
		return fail(fmt.Errorf("chattest: replaying the state of %s: %w", from, err))
	}
	h.st.journal = j
	rp.endPresence()
	if j != nil && seeding {
		// What was seeded is kept as a snapshot. (What was replayed is
		// kept as one when the server is closed.)
		if err := h.keepSnapshot(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.Store, err))
		}
	}
	if j != nil {
		if err := j.Sync(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.Store, err))
		}
	}
	if h.paced != nil && !rp.last.IsZero() {
		h.paced = h.paced.notBefore(rp.last)
		h.st.clock = h.paced.Now
	}
	return h, nil
}

// now is the time of a snapshot, which the servers that load it do not go
// back before: the time of the last change, or, when none was kept, the
// time of the server's clock (none for a [WithClock] clock, which is not
// read outside a change). st.mu is held.
func (h *Core) now() time.Time {
	if !h.st.lastAt.IsZero() || h.paced == nil {
		return h.st.lastAt
	}
	return h.st.clock()
}

// snapshotOp names the changes of a store that are a snapshot of the
// whole state (snapshot.go), its "args": opening reads the last one, and
// replays only the changes after it.
const snapshotOp = "snapshot"

// keepSnapshot adds a snapshot of the state to the journal, and waits
// until it is written.
func (h *Core) keepSnapshot() error {
	st := h.st
	st.mu.Lock()
	snap, err := st.snapshotState()
	var seq uint64
	if err == nil {
		seq = st.journal.Add((&change{At: h.now(), Seed: snapshotOp, Args: snap}).encode())
		st.journal.Snapshotted(seq + 1)
	}
	st.mu.Unlock()
	if err != nil {
		return err
	}
	return st.journal.Wait(seq)
}

// unusable returns the error a request answers when the handler cannot
// serve it: its store or seed file could not be used, or its
// journal can no longer be written and the request may change the state.
func (h *Core) unusable(r *http.Request) *apiError {
	if h.broken != nil {
		return newAPIError(http.StatusInternalServerError, codeException, "The fake could not start as configured.", h.broken.Error())
	}
	if h.st.journal != nil && r.Method != http.MethodGet {
		if err := h.st.journal.Failed(); err != nil {
			return errNotSaved(err)
		}
	}
	return h.st.unjournalable(r)
}

// Close does the work of chattest.Handler.Close, which documents it.
func (h *Core) Close() error {
	h.Halt()
	var err error
	h.closed.Do(func() {
		if j := h.st.journal; j != nil {
			h.serving.Lock()
			if j.Failed() == nil && j.ChangedSinceSnapshot() {
				err = h.keepSnapshot() // the next opening reads the state, and serves no request again
			}
			err = errors.Join(err, j.Close())
			h.serving.Unlock()
		}
	})
	return err
}

// Export does the work of chattest.Handler.Export, which documents it.
func (h *Core) Export(w io.Writer) error {
	st := h.st
	st.mu.Lock()
	snap, err := st.snapshotState()
	at := h.now()
	st.mu.Unlock()
	if err != nil {
		return fmt.Errorf("chattest: exporting the state: %w", err)
	}
	out, err := json.Marshal(stateFile{Format: stateFormat, AppID: h.appID, Created: h.created.UTC(), At: at.UTC(), State: snap})
	if err != nil {
		return fmt.Errorf("chattest: exporting the state: %w", err)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// stateFile is the JSON form of a state (see [WithSeedFile]): the state
// (format 2), or the changes that make it (format 1, as written by the
// releases before; read only).
type stateFile struct {
	Format  int             `json:"chattest"`
	AppID   string          `json:"appId"`
	Created time.Time       `json:"created"`
	At      time.Time       `json:"at,omitzero"`    // the time of the last change
	State   json.RawMessage `json:"state,omitzero"` // a snapshot: snapshot.go
	Changes []change        `json:"changes,omitzero"`
}

// readStateFile reads the state file path, which must hold a state of
// appID.
func readStateFile(path, appID string) (stateFile, error) {
	var f stateFile
	b, err := os.ReadFile(path)
	if err != nil {
		return f, fmt.Errorf("chattest: the seed file: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("chattest: the seed file %s is not a state file: %w", path, err)
	}
	switch {
	case f.Format != stateFormat && f.Format != ChangesFormat:
		return f, fmt.Errorf("chattest: the seed file %s is not a state file of format %d or %d (its \"chattest\" field is %d)", path, ChangesFormat, stateFormat, f.Format)
	case f.Format == stateFormat && f.State == nil:
		return f, fmt.Errorf("chattest: the seed file %s holds no state (\"state\")", path)
	case f.AppID != appID:
		return f, fmt.Errorf("chattest: the seed file %s holds the state of app %q, not of %q", path, f.AppID, appID)
	case f.Created.IsZero():
		return f, fmt.Errorf("chattest: the seed file %s has no creation time (\"created\")", path)
	}
	return f, nil
}
