package chattest

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

// WithSeedFile starts the server from the state in the file path, as
// written by [Server.Export] (and cmd/chattest -export). With [WithStore],
// the file seeds a store that holds no state yet, and is ignored
// otherwise, so that the same options start a server every time. The
// file's app id must be the server's ([WithAppID]).
//
// A state file is JSON: {"chattest": 2, "appId": ..., "created": ...,
// "at": ..., "state": {...}}, the state itself: every record the server
// held, field by field (see snapshot.go), with the credentials it issued
// (auth tokens, API keys) but not the server's own API key: keep a state
// file as you keep a password. Loading it serves no request again, so a
// file reads the same whatever the handlers of the release that reads it
// answer.
//
// The state files of format 1, which releases before wrote, are read
// too, and may be written by hand, e.g. as fixture data: {"chattest": 1,
// "appId": ..., "created": ..., "changes": [...]}, the changes that made
// the state, replayed at their times: a request ({"at", "method", "path",
// "onBehalfOf", "key", "header", "body", "status", "issued"}: key is the
// API key it was sent with, by creation order, 1 being the server's own;
// for the client API (paths under /v3.0), onBehalfOf is the user whose
// auth token sent it; status is what it answered, which replaying checks
// when present, a request answered with an error being skipped, as it
// changed nothing; issued lists the credentials it issued, which its
// replay issues again), a seeding call ({"at", "seed": "AddUser", "args":
// {...}}), or what a websocket changed ({"at", "seed": "receipt", "args":
// {"uid", "receiver", "receiverType", "action", "messageId"}} or {"at",
// "seed": "presence", "args": {"uid", "online"}}). A change without
// "issued" issues new credentials, unless it has a "status" (written by a
// release before credentials were recorded): it issues those that release
// issued.
func WithSeedFile(path string) Option { return func(c *config) { c.seedFile = path } }

// WithExport does nothing: [Server.Export] writes the state of every
// server. (It made a server without a store keep the changes of its
// state, which Export wrote, before Export wrote the state itself.)
func WithExport() Option { return func(*config) {} }

// OpenHandler is [NewHandler] that reports what stops [WithStore] or
// [WithSeedFile]: a directory or file that cannot be read or written, a
// file that is not a state file, a state of another app, or a change that
// does not replay as it happened.
func OpenHandler(opts ...Option) (*Handler, error) {
	cfg := configure(opts)
	var seed *stateFile
	if cfg.seedFile != "" {
		f, err := readStateFile(cfg.seedFile, cfg.appID)
		if err != nil {
			return nil, err
		}
		seed = &f
	}
	created := cfg.clock()
	if seed != nil {
		created = seed.Created
	}
	var j *journal
	var changes []change
	if cfg.store != nil {
		var err error
		if j, changes, err = openJournal(cfg.store, cfg.appID, created); err != nil {
			return nil, err
		}
		created = j.created
		cfg.defaultCredentials(j.own)
	}
	// The state is the last snapshot's, then the changes after it.
	var snap *change
	from := cfg.seedFile
	seeding := len(changes) == 0 && seed != nil
	if !seeding && cfg.store != nil {
		from = cfg.store.String()
		for i := len(changes) - 1; i >= 0; i-- {
			if changes[i].Seed == snapshotOp {
				snap, changes = &changes[i], changes[i+1:]
				j.snapped = j.next - uint64(len(changes))
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
	if j != nil && j.jwtKey != nil {
		h.st.jwtKey = j.jwtKey
	}
	fail := func(err error) (*Handler, error) {
		if j != nil {
			j.close()
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
			h.log.learn(s) // the request log hides what was issued before the restart
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
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.store, err))
		}
	}
	if j != nil {
		if err := j.sync(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.store, err))
		}
	}
	if h.paced != nil && !rp.last.IsZero() {
		h.paced = h.paced.notBefore(rp.last)
		h.st.clock = h.paced.now
	}
	return h, nil
}

// now is the time of a snapshot, which the servers that load it do not go
// back before: the time of the last change, or, when none was kept, the
// time of the server's clock (none for a [WithClock] clock, which is not
// read outside a change). st.mu is held.
func (h *Handler) now() time.Time {
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
func (h *Handler) keepSnapshot() error {
	st := h.st
	st.mu.Lock()
	snap, err := st.snapshotState()
	var seq uint64
	if err == nil {
		seq = st.journal.add((&change{At: h.now(), Seed: snapshotOp, Args: snap}).encode())
		st.journal.snapped = seq + 1
	}
	st.mu.Unlock()
	if err != nil {
		return err
	}
	return st.journal.wait(seq)
}

// unusable returns the error a request answers when the handler cannot
// serve it: its store or seed file could not be used, or its
// journal can no longer be written and the request may change the state.
func (h *Handler) unusable(r *http.Request) *apiError {
	if h.broken != nil {
		return newAPIError(http.StatusInternalServerError, codeException, "The fake could not start as configured.", h.broken.Error())
	}
	if h.st.journal != nil && r.Method != http.MethodGet {
		if err := h.st.journal.failed(); err != nil {
			return errNotSaved(err)
		}
	}
	return h.st.unjournalable(r)
}

// OpenServer is [NewServer] that reports what stops [WithStore] or
// [WithSeedFile], as [OpenHandler] does.
func OpenServer(opts ...Option) (*Server, error) {
	h, err := OpenHandler(opts...)
	if err != nil {
		return nil, err
	}
	return serve(h), nil
}

// Close ends what the handler runs beside the requests it answers: the
// dashboard's live streams, the client API's websockets and the requests
// held by a [Fault.Delay] end at once, and webhook deliveries stop,
// failing those not yet made with [ErrDeliveryStopped]. With
// [WithStore], it then closes the store once the
// requests in flight have kept their changes. Call it when you stop
// serving the handler, before [http.Server.Shutdown], which would
// otherwise wait for the streams. The handler still answers requests after
// Close, but with a store it refuses those that would change the
// state (500 ERR_EXCEPTION). [Server.Close] closes its handler. Calling it
// again does nothing more.
func (h *Handler) Close() error {
	h.halt()
	var err error
	h.closed.Do(func() {
		if j := h.st.journal; j != nil {
			h.serving.Lock()
			if j.failed() == nil && j.changedSinceSnapshot() {
				err = h.keepSnapshot() // the next opening reads the state, and serves no request again
			}
			err = errors.Join(err, j.close())
			h.serving.Unlock()
		}
	})
	return err
}

// Export writes the state to w as a state file (see [WithSeedFile]), for
// [WithSeedFile] to start another server from: every record the state
// holds, not the requests that made them, so that what was deleted for
// good is not in it.
func (h *Handler) Export(w io.Writer) error {
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

// Export writes the server's state to w, as [Handler.Export] does.
func (s *Server) Export(w io.Writer) error { return s.h.Export(w) }

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
	case f.Format != stateFormat && f.Format != changesFormat:
		return f, fmt.Errorf("chattest: the seed file %s is not a state file of format %d or %d (its \"chattest\" field is %d)", path, changesFormat, stateFormat, f.Format)
	case f.Format == stateFormat && f.State == nil:
		return f, fmt.Errorf("chattest: the seed file %s holds no state (\"state\")", path)
	case f.AppID != appID:
		return f, fmt.Errorf("chattest: the seed file %s holds the state of app %q, not of %q", path, f.AppID, appID)
	case f.Created.IsZero():
		return f, fmt.Errorf("chattest: the seed file %s has no creation time (\"created\")", path)
	}
	return f, nil
}
