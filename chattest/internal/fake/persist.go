package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/chatrest/chat"
)

// Open returns the core of cfg, its state read from cfg.Store or
// cfg.SeedFile. It reports a directory or file that cannot be read or
// written, a file that is not a state file, a state of another app, or a
// record that cannot be set.
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
			if changes[i].State != nil || changes[i].Seed == snapshotOp {
				snap, changes = &changes[i], changes[i+1:]
				j.Snapshotted(j.Next() - uint64(len(changes)))
				break
			}
		}
	} else if seeding {
		changes = seed.Changes
		switch {
		case seed.Records != nil:
			snap = &change{At: seed.At, State: seed.Records}
		case seed.State != nil:
			snap = &change{At: seed.At, Seed: snapshotOp, Args: seed.State}
		}
	}
	h := newHandler(cfg, &created)
	h.created = created
	h.st.rec.ownKey = h.apiKey // which records keep as "", with or without a store
	if j != nil && j.JWTKey() != nil {
		h.st.jwtKey = j.JWTKey()
	}
	fail := func(err error) (*Core, error) {
		if j != nil {
			j.Close()
		}
		return nil, err
	}
	legacy := snap != nil && snap.State == nil
	for _, ch := range changes {
		legacy = legacy || ch.Records == nil
	}
	var last time.Time
	var err error
	if legacy {
		last, err = h.replayLegacy(snap, changes)
	} else {
		last, err = h.setRecords(snap, changes)
	}
	if err != nil {
		return fail(fmt.Errorf("chattest: reading the state of %s: %w", from, err))
	}
	h.st.lastAt = last
	if last.IsZero() && snap != nil { // a WithClock server's: as of now
		h.st.mu.Lock()
		last = h.st.clock()
		h.st.mu.Unlock()
	}
	h.st.journal = j
	if j != nil || CheckRecords {
		h.st.startRecording()
	}
	if CheckRecords {
		if err := h.st.startCheck(cfg); err != nil {
			return fail(fmt.Errorf("chattest: checking the records of %s: %w", from, err))
		}
	}
	h.endPresence(last)
	if j != nil && (seeding || legacy) {
		// What was seeded, or replayed from requests, is kept as a
		// snapshot: the next opening reads it.
		if err := h.keepSnapshot(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.Store, err))
		}
	}
	if j != nil {
		if err := j.Sync(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.Store, err))
		}
	}
	if h.paced != nil && !last.IsZero() {
		h.paced = h.paced.notBefore(last)
		h.st.clock = h.paced.Now
	}
	return h, nil
}

// setRecords sets the records of the snapshot snap (if any), then of the
// changes, and returns the time of the last.
func (h *Core) setRecords(snap *change, changes []change) (time.Time, error) {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var last time.Time
	own := h.apiKey
	learn := func(secrets []string) {
		for _, s := range secrets {
			h.log.Learn(s) // the request log hides what was issued before the restart
		}
	}
	if snap != nil {
		st.rec.ownKey = own
		secrets, err := st.applySnapshot(snap.State)
		if err != nil {
			return last, fmt.Errorf("the snapshot: %w", err)
		}
		learn(secrets)
		last = snap.At
	}
	for i, ch := range changes {
		secrets, err := st.applyRecords(ch.Records, own)
		if err != nil {
			return last, fmt.Errorf("change %d: %w", i+1, err)
		}
		learn(secrets)
		last = ch.At
	}
	st.finishRecords()
	return last, nil
}

// replayLegacy loads the snapshot snap (if any) and replays the changes
// after it, of a store or state file written before records, and
// returns the time of the last.
func (h *Core) replayLegacy(snap *change, changes []change) (time.Time, error) {
	rp := h.newReplayer()
	if snap != nil {
		if snap.State != nil {
			return time.Time{}, errors.New("changes of requests follow a snapshot of records")
		}
		h.st.mu.Lock()
		secrets, err := h.st.loadSnapshot(snap.Args)
		h.st.mu.Unlock()
		if err != nil {
			return time.Time{}, err
		}
		for _, s := range secrets {
			h.log.Learn(s)
		}
		rp.last = snap.At
	}
	if err := rp.replay(changes); err != nil {
		return time.Time{}, fmt.Errorf("replaying: %w", err)
	}
	return rp.last, nil
}

// endPresence makes the users the state has online go offline, at last:
// no websocket outlived the server that kept the state.
func (h *Core) endPresence(last time.Time) {
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	clock := st.clock
	st.clock = func() time.Time { return last }
	defer func() { st.clock = clock }()
	for _, uid := range slices.Sorted(maps.Keys(st.users)) {
		if u := st.users[uid]; u.u.Status != chat.UserOffline {
			st.presenceChanged(uid, false, nil)
		}
	}
	st.keepRecords(last) // Open syncs the journal after
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
	recs, err := st.allRecords()
	var seq uint64
	if err == nil {
		seq = st.journal.Add(recordsChange(h.now(), "state", recs))
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
	return nil
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
	recs, err := st.allRecords()
	at := h.now()
	st.mu.Unlock()
	if err != nil {
		return fmt.Errorf("chattest: exporting the state: %w", err)
	}
	out, err := json.Marshal(stateFile{Format: recordsFileFormat, AppID: h.appID, Created: h.created.UTC(), At: at.UTC(), Records: recs})
	if err != nil {
		return fmt.Errorf("chattest: exporting the state: %w", err)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// stateFile is the JSON form of a state (see [WithSeedFile]): its records
// (format 3), or, as written by the releases before and read only, the
// state as a whole (format 2) or the changes that make it (format 1).
type stateFile struct {
	Format  int               `json:"chattest"`
	AppID   string            `json:"appId"`
	Created time.Time         `json:"created"`
	At      time.Time         `json:"at,omitzero"`      // the time of the last change
	Records []json.RawMessage `json:"records,omitzero"` // every record: records.go
	State   json.RawMessage   `json:"state,omitzero"`   // a snapshot: snapshot.go
	Changes []change          `json:"changes,omitzero"`
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
	case f.Format != recordsFileFormat && f.Format != stateFormat && f.Format != ChangesFormat:
		return f, fmt.Errorf("chattest: the seed file %s is not a state file of format %d, %d or %d (its \"chattest\" field is %d)", path, ChangesFormat, stateFormat, recordsFileFormat, f.Format)
	case f.Format == recordsFileFormat && f.Records == nil:
		return f, fmt.Errorf("chattest: the seed file %s holds no records (\"records\")", path)
	case f.Format == stateFormat && f.State == nil:
		return f, fmt.Errorf("chattest: the seed file %s holds no state (\"state\")", path)
	case f.AppID != appID:
		return f, fmt.Errorf("chattest: the seed file %s holds the state of app %q, not of %q", path, f.AppID, appID)
	case f.Created.IsZero():
		return f, fmt.Errorf("chattest: the seed file %s has no creation time (\"created\")", path)
	}
	return f, nil
}
