package chattest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// WithSeedFile starts the server from the state in the file path, as
// written by [Server.Export] (and cmd/chattest -export): its changes are
// replayed, at the times they happened, before the server serves. With
// [WithStore], the file seeds a store that holds no state yet, and is
// ignored otherwise, so that the same options start a server every time.
// The file's app id must be the server's ([WithAppID]).
//
// A state file is JSON: {"chattest": 1, "appId": ..., "created": ...,
// "changes": [...]}, one change a line, each a request ({"at", "method",
// "path", "onBehalfOf", "key", "header", "body", "status"}: key is the API
// key it was sent with, by creation order, 1 being the server's own; for
// the client API (paths under /v3.0), onBehalfOf is the user whose auth
// token sent it, and who must hold one when it replays; status is what it
// answered, which replaying checks when present), a seeding call ({"at",
// "seed": "AddUser", "args": {...}}), or what a websocket changed ({"at",
// "seed": "receipt", "args": {"uid", "receiver", "receiverType",
// "action", "messageId"}} or {"at", "seed": "presence", "args": {"uid",
// "online"}}). A change that issued credentials (auth tokens, API keys)
// lists them in "issued", and its replay issues the same, so that they stay
// valid on the servers started from the file: keep a state file as you
// keep a password. A request answered with an error (a status of 400 or
// more) changed nothing and is not replayed. Such a file may be written by
// hand, e.g. as fixture data: a change without "status" is replayed
// whatever it answers, and one without "issued" issues new credentials
// (one with a "status" but no "issued", as written by releases before
// credentials were recorded, issues those they issued).
func WithSeedFile(path string) Option { return func(c *config) { c.seedFile = path } }

// WithExport makes the server keep the changes of its state in memory, so
// that [Server.Export] can write them, without a store. It costs
// the memory of every request that changed the state.
func WithExport() Option { return func(c *config) { c.export = true } }

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
	switch {
	case cfg.store != nil:
		var err error
		if j, changes, err = openJournal(cfg.store, cfg.appID, created); err != nil {
			return nil, err
		}
		created = j.created
		cfg.defaultCredentials(j.own)
	case cfg.export:
		j = newJournal(nil, cfg.appID, created, 0)
	}
	seeding := seed != nil && len(changes) == 0
	if seeding {
		changes = seed.Changes
	}
	h := newHandler(cfg, &created)
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
	if err := rp.replay(changes); err != nil {
		from := cfg.seedFile
		if !seeding && cfg.store != nil {
			from = cfg.store.String()
		}
		return fail(fmt.Errorf("chattest: replaying the state of %s: %w", from, err))
	}
	if seeding && j != nil {
		for i := range changes {
			j.add(changes[i].encode())
		}
	}
	h.st.journal = j
	rp.endPresence()
	if j != nil {
		if err := j.sync(); err != nil {
			return fail(fmt.Errorf("chattest: writing %s: %w", cfg.store, err))
		}
	}
	if n := len(changes); n > 0 && h.paced != nil {
		h.paced = h.paced.notBefore(changes[n-1].At)
		h.st.clock = h.paced.now
	}
	return h, nil
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
			err = j.close()
			h.serving.Unlock()
		}
	})
	return err
}

// Export writes the state to w as a state file (see [WithSeedFile]), for
// [WithSeedFile] to start another server from: the changes the state went
// through, in order. It needs [WithStore] or [WithExport], without which
// the server keeps no record of its changes.
func (h *Handler) Export(w io.Writer) error {
	if h.st.journal == nil {
		return errors.New("chattest: Export needs WithStore or WithExport: without them the server keeps no record of its changes")
	}
	changes, err := h.st.journal.changes()
	if err != nil {
		return fmt.Errorf("chattest: reading the changes: %w", err)
	}
	bw := bufio.NewWriter(w)
	head, _ := json.Marshal(struct {
		Format  int       `json:"chattest"`
		AppID   string    `json:"appId"`
		Created time.Time `json:"created"`
	}{stateFormat, h.st.journal.appID, h.st.journal.created.UTC()}) // strings and a time always encode
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"changes":[`)
	for i, ch := range changes {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n")
		bw.Write(ch)
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// Export writes the server's state to w, as [Handler.Export] does.
func (s *Server) Export(w io.Writer) error { return s.h.Export(w) }

// stateFile is the JSON form of a state (see [WithSeedFile]).
type stateFile struct {
	Format  int       `json:"chattest"`
	AppID   string    `json:"appId"`
	Created time.Time `json:"created"`
	Changes []change  `json:"changes"`
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
	case f.Format != stateFormat:
		return f, fmt.Errorf("chattest: the seed file %s is not a state file of format %d (its \"chattest\" field is %d)", path, stateFormat, f.Format)
	case f.AppID != appID:
		return f, fmt.Errorf("chattest: the seed file %s holds the state of app %q, not of %q", path, f.AppID, appID)
	case f.Created.IsZero():
		return f, fmt.Errorf("chattest: the seed file %s has no creation time (\"created\")", path)
	}
	return f, nil
}
