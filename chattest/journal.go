package chattest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The state lives in memory. A journal keeps, beside it, every change the
// state went through, in order (WithDataDir, WithExport): the requests the
// API served that changed it, and the calls of the seeding methods, each
// at the server's time. Replaying the changes through the same code at the
// same times rebuilds the same state, every id included: ids derive from
// the app id and counters, never from chance. Credentials are drawn by
// chance (credentials.go): a change records those it issued, and its
// replay issues them again. That covers everything the fake serves
// without a format per kind of record, and a change made by any route is
// kept as soon as the route exists.
//
// A change is journaled when the route's handler ran (the request passed
// the rate limit and authentication) and answered success: every method
// but GET, and a GET that brought lazily kept state up to date (st.lazy),
// such as the notification log. A request answered with an error changed
// nothing but, at most, that lazily kept state, which is journaled as a
// call of "sync". Whatever a request carried, its change replays: a body
// is kept as JSON when encoding/json reads it back within its depth limit
// (maxKeptDepth), else as text or base64, and a request whose query or
// journaled headers are not UTF-8 is refused before it is served
// (unjournalable).

// stateFormat is the version of the state file and of the journal's
// records.
const stateFormat = 1

// change is one change of the state, as the journal keeps it and the state
// file shows it: a request the API served, or a call of a seeding method.
type change struct {
	// At is the server's time when the change happened.
	At time.Time `json:"at"`

	// A request: its method, escaped path and query, the onBehalfOf
	// header (for the client API, /v3.0, the user whose auth token sent
	// it), the API key that sent it by creation order (1 is the server's
	// own; 0 for the management and client APIs, whose credentials are
	// the server's and the user's), the headers a handler reads
	// (journaledHeaders), the body (JSON as it is, else as text or
	// base64), and the status answered, which a replay must answer too.
	Method     string            `json:"method,omitempty"`
	Path       string            `json:"path,omitempty"`
	OnBehalfOf string            `json:"onBehalfOf,omitempty"`
	Key        int64             `json:"key,omitempty"`
	Header     map[string]string `json:"header,omitempty"`
	Body       json.RawMessage   `json:"body,omitempty"`
	Text       string            `json:"text,omitempty"`
	Base64     []byte            `json:"base64,omitempty"`
	Status     int               `json:"status,omitempty"`

	// A change made outside a request (seed_ops.go): a call of a seeding
	// method, or an event of the client API's websocket (realtime.go),
	// by name, and its arguments.
	Seed string          `json:"seed,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`

	// The credentials the change issued (auth tokens, API keys), in the
	// order it issued them, which its replay issues again
	// (credentials.go).
	Issued []string `json:"issued,omitempty"`
}

// journaledHeaders are the request headers that handlers read, besides
// onBehalfOf and the credentials, which a change keeps apart.
var journaledHeaders = []string{"Content-Type", "X-Webhook-Version"}

// requestChange is the change a request served at at makes.
func requestChange(st *state, r *http.Request, body []byte, res served, at time.Time) change {
	ch := change{At: at, Method: r.Method, Path: r.URL.EscapedPath(), OnBehalfOf: r.Header.Get("onBehalfOf"), Status: res.status}
	if res.client != "" {
		ch.OnBehalfOf = res.client
	}
	if r.URL.RawQuery != "" {
		ch.Path += "?" + r.URL.RawQuery
	}
	if k := st.apiKeys[res.apiKey]; k != nil {
		ch.Key = k.seq
	}
	for _, name := range journaledHeaders {
		if v := r.Header.Get(name); v != "" {
			if ch.Header == nil {
				ch.Header = map[string]string{}
			}
			ch.Header[name] = v
		}
	}
	switch {
	case len(body) == 0:
	case keptAsJSON(body):
		ch.Body = body
	case utf8.Valid(body):
		ch.Text = string(body)
	default:
		ch.Base64 = body
	}
	return ch
}

// maxKeptDepth bounds the nesting of a body kept as JSON in a change
// (deeper, it is kept as text): a change nests its body one level deeper,
// and a state file three, and encoding/json reads 10,000 levels at most.
const maxKeptDepth = 1000

// keptAsJSON reports whether a change keeps the body b as JSON: b is a
// JSON document, compact (it has no insignificant space, so that it is
// kept byte for byte as a JSON value of the journal), whose arrays and
// objects nest maxKeptDepth deep at most.
func keptAsJSON(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxKeptDepth {
				return false
			}
		case c == ']' || c == '}':
			depth--
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false // outside a string, in a valid document: insignificant
		}
	}
	return true
}

// body is the request body the change keeps.
func (ch *change) body() []byte {
	switch {
	case ch.Body != nil:
		return ch.Body
	case ch.Text != "":
		return []byte(ch.Text)
	}
	return ch.Base64
}

// encode is the change as the journal keeps it: one line of JSON.
func (ch *change) encode() []byte {
	e := changeEncoders.Get().(*changeEncoder)
	e.buf.Reset()
	if err := e.enc.Encode(ch); err != nil {
		// Unreachable: the fields are strings, numbers, a map of strings
		// and valid JSON.
		panic("chattest: unreachable: encoding a change: " + err.Error())
	}
	b := bytes.Clone(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	if e.buf.Cap() <= 64<<10 { // a buffer grown by a large body is let go
		changeEncoders.Put(e)
	}
	return b
}

// changeEncoder encodes changes into its buffer, which encodings reuse.
type changeEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var changeEncoders = sync.Pool{New: func() any {
	e := new(changeEncoder)
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// lazyParts are parts of the state kept up to date lazily, by the request
// or call that next needs them: a read that brings one up to date changes
// the state, and is journaled.
type lazyParts uint8

const (
	lazyNotifications lazyParts = 1 << iota // the notification log (notifSync)
	lazyModeration                          // the dates of the built-in moderation rules (stampModeration)
	lazyRoles                               // the date of the default role (stampDefaults)
)

// journal keeps the changes, in a bbolt database in the data directory or
// in memory, and writes them in order: a request waits, after leaving the
// state's lock, until its change is written, before it is answered.
// Changes added meanwhile by other requests are written with it, in one
// write of the directory's log (persist_wal.go), which is synced in the
// background, or before the changes are answered with dur.syncEach; the
// changes logged are copied into the database at checkpoints.
type journal struct {
	db      *bolt.DB      // nil: in memory
	dur     durability    // with db: when the log is synced
	work    chan struct{} // with db: tells writeLoop that changes are pending; closed by close
	stopped chan struct{} // closed when writeLoop returns

	// Without dur.syncEach, syncLoop syncs the log in the background.
	dirty       chan struct{} // tells syncLoop that the log was written
	quit        chan struct{} // closed by close: syncLoop returns
	syncStopped chan struct{} // closed when syncLoop returns

	wmu          sync.Mutex    // held by writeLoop while it writes, and by flush and close: guards what follows
	logs         [2]*wal       // with db: the log's files (persist_wal.go)
	unsaved      [][]byte      // the changes logged in the file being written, not in the database
	unsavedFrom  uint64        // the sequence number of the first of unsaved
	copying      chan struct{} // closed when the last checkpoint started has ended; nil: none started
	checkpointAt int64         // the bytes logged in a file that make a checkpoint: walCheckpoint

	mu      sync.Mutex
	cond    sync.Cond
	active  int      // the index in logs of the file being written: changed with mu and wmu held
	pending [][]byte // changes added and not yet written, in order
	memory  [][]byte // every change, in memory
	next    uint64   // the sequence number of the next change added
	written uint64   // every change before this one is written
	err     error    // the first failure to write: nothing is written after it

	appID   string
	created time.Time      // when the state began: the time of its first server
	jwtKey  []byte         // the key that signs the client API's jwts, kept in the database; nil in memory
	own     ownCredentials // the server's own credentials, kept in the database: those its options do not set
}

// The database's buckets and the keys of its meta bucket.
var (
	changesBucket = []byte("changes")
	metaBucket    = []byte("meta")
	formatKey     = []byte("format")
	appKey        = []byte("app")
	createdKey    = []byte("created")
	jwtKeyKey     = []byte("jwtKey")
	ownKey        = []byte("credentials")
)

// dbFile is the database's file in the data directory.
const dbFile = "chattest.db"

func newJournal(db *bolt.DB, appID string, created time.Time, written uint64) *journal {
	j := &journal{db: db, appID: appID, created: created, next: written, written: written, unsavedFrom: written}
	j.cond.L = &j.mu
	return j
}

// openJournal opens the journal of the data directory's database, creating
// it for appID with the creation time created when it is new, and returns
// it with the changes it holds. Its log is synced as dur says.
func openJournal(dir, appID string, created time.Time, dur durability) (*journal, []change, error) {
	db, err := openDB(dir)
	if err != nil {
		return nil, nil, err
	}
	var changes []change
	var jwtKey []byte
	var own ownCredentials
	err = guarded(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			meta, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			cb, err := tx.CreateBucketIfNotExists(changesBucket)
			if err != nil {
				return err
			}
			// The jwts a server signed stay valid on the directory's next
			// server, so that the client SDKs' websockets reconnect.
			if jwtKey = bytes.Clone(meta.Get(jwtKeyKey)); jwtKey == nil {
				jwtKey = newJWTKey()
				if err := meta.Put(jwtKeyKey, jwtKey); err != nil {
					return err
				}
			}
			// So do the server's own credentials generated at its creation.
			if b := meta.Get(ownKey); b != nil {
				if err := json.Unmarshal(b, &own); err != nil || !validAPIKey(own.APIKey) || !validAPIKey(own.MgmtKey) || !validAPIKey(own.MgmtSecret) {
					return damage{"its credentials are not readable"}
				}
			} else {
				own = ownCredentials{APIKey: randomHex(), MgmtKey: randomHex(), MgmtSecret: randomHex()}
				b, _ := json.Marshal(own) // strings always encode
				if err := meta.Put(ownKey, b); err != nil {
					return err
				}
			}
			if meta.Get(appKey) == nil {
				if err := meta.Put(formatKey, []byte(fmt.Sprint(stateFormat))); err != nil {
					return err
				}
				if err := meta.Put(appKey, []byte(appID)); err != nil {
					return err
				}
				return meta.Put(createdKey, []byte(created.Format(time.RFC3339Nano)))
			}
			if f := string(meta.Get(formatKey)); f != fmt.Sprint(stateFormat) {
				return fmt.Errorf("its state has format %q; this chattest reads format %d", f, stateFormat)
			}
			if app := string(meta.Get(appKey)); app != appID {
				return fmt.Errorf("it holds the state of app %q, not of %q", app, appID)
			}
			if created, err = time.Parse(time.RFC3339Nano, string(meta.Get(createdKey))); err != nil {
				return damage{fmt.Sprintf("its creation time is not readable: %v", err)}
			}
			return cb.ForEach(func(k, v []byte) error {
				n := len(changes) + 1
				if len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(len(changes)) {
					return damage{fmt.Sprintf("change %d is missing or out of order (key %x)", n, k)}
				}
				var ch change
				if err := json.Unmarshal(v, &ch); err != nil {
					return damage{fmt.Sprintf("change %d is not readable: %v", n, err)}
				}
				changes = append(changes, ch)
				return nil
			})
		})
	})
	var logs [2]*wal
	if err == nil {
		if logs, changes, err = recoverLog(dir, db, changes); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	if err != nil {
		db.Close()
		var d damage
		if errors.As(err, &d) || errors.As(err, new(panicked)) {
			return nil, nil, damagedDB(filepath.Join(dir, dbFile), err.Error())
		}
		return nil, nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	}
	j := newJournal(db, appID, created, uint64(len(changes)))
	j.jwtKey, j.own, j.logs, j.checkpointAt = jwtKey, own, logs, walCheckpoint
	j.dur = dur.orDefaults()
	j.work, j.stopped = make(chan struct{}, 1), make(chan struct{})
	go j.writeLoop()
	if !j.dur.syncEach {
		j.dirty, j.quit, j.syncStopped = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go j.syncLoop()
	}
	return j, changes, nil
}

// recoverLog opens the log of the data directory dir, whose database db
// holds changes, and copies into the database the changes logged after
// them: those written since the last checkpoint, when the server that
// wrote them did not close. It returns the log's files, to be written from
// the start of the first, and every change.
func recoverLog(dir string, db *bolt.DB, changes []change) ([2]*wal, []change, error) {
	logs, err := openWALs(dir)
	if err != nil {
		return logs, nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	}
	fail := func(err error) ([2]*wal, []change, error) {
		logs[0].close()
		logs[1].close()
		return logs, nil, err
	}
	damaged := func(w *wal, format string, args ...any) error {
		return fmt.Errorf("chattest: the log %s is damaged: %s. Restore the directory from a backup, or move the log's files (%s) away to open the directory without its last changes",
			w.path, fmt.Sprintf(format, args...), strings.Join(walFiles[:], ", "))
	}
	type run struct {
		first   uint64
		records [][]byte
		clean   bool
	}
	var runs [2]run
	for i, w := range logs {
		r := &runs[i]
		if r.first, r.records, r.clean, err = w.records(); err != nil {
			return fail(fmt.Errorf("chattest: the data directory %s: %w", dir, err))
		}
	}
	// The changes beyond the database: in one file, or in one and then
	// the other, which the writer went on in.
	held := uint64(len(changes))
	next := held
	var fresh [][]byte
	for more := true; more; {
		more = false
		for i, r := range runs {
			if next < r.first || next >= r.first+uint64(len(r.records)) {
				continue
			}
			for _, b := range r.records[next-r.first:] {
				var ch change
				if err := json.Unmarshal(b, &ch); err != nil {
					return fail(damaged(logs[i], "change %d is not readable: %v", next+1, err))
				}
				changes = append(changes, ch)
				fresh = append(fresh, b)
				next++
			}
			more = true
		}
	}
	for i, r := range runs {
		if len(r.records) > 0 && r.first > next {
			return fail(damaged(logs[i], "its changes start at %d, after the %d of the database and the log", r.first+1, next))
		}
	}
	if len(fresh) > 0 {
		err := guarded(func() error {
			return db.Update(func(tx *bolt.Tx) error { return putChanges(tx, held, fresh) })
		})
		if errors.As(err, new(panicked)) {
			return fail(damagedDB(filepath.Join(dir, dbFile), err.Error()))
		}
		if err != nil {
			return fail(fmt.Errorf("chattest: the data directory %s: %w", dir, err))
		}
	}
	for i, r := range runs {
		if !r.clean {
			// Past the tear may lie records numbered as the changes to
			// come: none may be read after them.
			if err := logs[i].clear(); err != nil {
				return fail(fmt.Errorf("chattest: the data directory %s: %w", dir, err))
			}
		}
	}
	return logs, changes, nil
}

// putChanges stores the changes batch, the first numbered first.
func putChanges(tx *bolt.Tx, first uint64, batch [][]byte) error {
	b := tx.Bucket(changesBucket)
	// Changes are only ever appended: full pages split least, and write
	// the fewest.
	b.FillPercent = 1
	keys := make([]byte, 0, 8*len(batch)) // one allocation: the transaction keeps every key until it ends
	for i, ch := range batch {
		keys = binary.BigEndian.AppendUint64(keys, first+uint64(i))
		if err := b.Put(keys[len(keys)-8:], ch); err != nil {
			return err
		}
	}
	return nil
}

// openDB opens the database of the data directory dir, creating both. A
// database file that is damaged is an error naming it (persist_check.go).
func openDB(dir string) (*bolt.DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, dbFile)
	if err := checkDB(path); err != nil {
		return nil, err
	}
	var db *bolt.DB
	err := guarded(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		return err
	})
	var pe *fs.PathError
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("chattest: the data directory %s is in use by another server", dir)
	case errors.As(err, &pe):
		return nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	case err != nil:
		return nil, damagedDB(path, err.Error())
	}
	return db, nil
}

// damage is what makes a database file unreadable, found while reading it.
type damage struct{ why string }

func (d damage) Error() string { return d.why }

// add adds a change, encoded, and returns its sequence number. It is
// called with st.mu held, so that changes are added in the order they
// were made.
func (j *journal) add(b []byte) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	seq := j.next
	j.next++
	if j.db == nil {
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

// wait returns once the change seq is written, or with the error that
// stopped the journal before.
func (j *journal) wait(seq uint64) error {
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
// change pending in one write of the log (and one sync with dur.syncEach),
// then at once those added meanwhile, and so on (group commit). Once the
// file being written holds checkpointAt bytes, it starts a checkpoint.
func (j *journal) writeLoop() {
	defer close(j.stopped)
	for range j.work {
		j.wmu.Lock()
		j.mu.Lock()
		for len(j.pending) > 0 && j.err == nil {
			batch, first := j.pending, j.written
			j.pending = nil
			j.mu.Unlock()
			err := j.log(first, batch)
			j.mu.Lock()
			if err == nil {
				j.written = first + uint64(len(batch))
				j.cond.Broadcast() // the batch is written: its requests are answered
				if j.logs[j.active].off >= j.checkpointAt && j.copied() {
					j.mu.Unlock()
					err = j.startCheckpoint()
					j.mu.Lock()
				}
			}
			if err != nil && j.err == nil {
				j.err = err
				j.cond.Broadcast()
			}
		}
		j.mu.Unlock()
		j.wmu.Unlock()
	}
}

// log writes the changes of batch, the first numbered first, to the file
// being written, and syncs it with dur.syncEach, or else tells syncLoop.
// It runs with j.wmu held.
func (j *journal) log(first uint64, batch [][]byte) error {
	w := j.logs[j.active]
	if err := w.write(first, batch); err != nil {
		return err
	}
	j.unsaved = append(j.unsaved, batch...)
	if j.dur.syncEach {
		return j.dur.sync(w.f)
	}
	select {
	case j.dirty <- struct{}{}:
	default: // syncLoop was told already
	}
	return nil
}

// syncLoop syncs the file of the log being written once it was written,
// no sooner than dur.every after its last sync, so that a change is synced
// within dur.every (and the sync's time) of its write, until the journal
// is closed.
func (j *journal) syncLoop() {
	defer close(j.syncStopped)
	last := time.Now()
	for {
		select {
		case <-j.dirty:
		case <-j.quit:
			return
		}
		if wait := time.Until(last.Add(j.dur.every)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-j.quit:
				t.Stop()
				return
			}
		}
		last = time.Now()
		j.mu.Lock()
		w := j.logs[j.active]
		j.mu.Unlock()
		if err := j.dur.sync(w.f); err != nil {
			j.fail(err)
			return
		}
	}
}

// copied reports whether the last checkpoint started has ended. It runs
// with j.wmu held.
func (j *journal) copied() bool {
	if j.copying == nil {
		return true
	}
	select {
	case <-j.copying:
		return true
	default:
		return false
	}
}

// startCheckpoint starts copying the changes of the file being written
// into the database, in a goroutine, and makes the writer go on in the
// other file, from its start: the checkpoint before, which has ended,
// copied its changes. It syncs the file first, so that no change of the
// other reaches the disk before these. It runs with j.wmu held.
func (j *journal) startCheckpoint() error {
	if !j.dur.syncEach {
		if err := j.dur.sync(j.logs[j.active].f); err != nil {
			return err
		}
	}
	first, batch := j.unsavedFrom, j.unsaved
	j.unsaved, j.unsavedFrom = nil, first+uint64(len(batch))
	done := make(chan struct{})
	j.copying = done
	go func() {
		defer close(done)
		if err := j.copy(first, batch); err != nil {
			j.fail(err)
		}
	}()
	j.mu.Lock()
	j.active = 1 - j.active
	j.mu.Unlock()
	j.logs[j.active].reset()
	return nil
}

// copy stores the changes batch in the database, the first numbered first.
func (j *journal) copy(first uint64, batch [][]byte) error {
	return j.db.Update(func(tx *bolt.Tx) error { return putChanges(tx, first, batch) })
}

// checkpoint copies every change logged into the database, once the
// checkpoint in progress has ended, and makes the writer go on from the
// start of its file. It runs with j.wmu held.
func (j *journal) checkpoint() error {
	if j.copying != nil {
		<-j.copying
	}
	if err := j.failed(); err != nil {
		return err // the checkpoint in progress failed
	}
	if len(j.unsaved) > 0 {
		if err := j.copy(j.unsavedFrom, j.unsaved); err != nil {
			j.fail(err)
			return err
		}
		j.unsavedFrom += uint64(len(j.unsaved))
		j.unsaved = nil
	}
	j.logs[j.active].reset()
	return nil
}

// fail stops the journal with err, unless it stopped already.
func (j *journal) fail(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = err
	}
	j.cond.Broadcast()
}

// flush returns once every change added is written and in the database.
func (j *journal) flush() error {
	if err := j.sync(); err != nil {
		return err
	}
	j.wmu.Lock()
	defer j.wmu.Unlock()
	return j.checkpoint()
}

// failed is the error that stopped the journal, if any; nil for no
// journal.
func (j *journal) failed() error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// changes returns every change, encoded, once those added are written.
func (j *journal) changes() ([][]byte, error) {
	if j.db == nil {
		j.mu.Lock()
		defer j.mu.Unlock()
		return j.memory[:j.next:j.next], nil
	}
	if err := j.flush(); err != nil {
		return nil, err
	}
	j.mu.Lock()
	last := j.written
	j.mu.Unlock()
	var out [][]byte
	err := j.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(changesBucket).Cursor()
		for k, v := c.First(); k != nil && binary.BigEndian.Uint64(k) < last; k, v = c.Next() {
			out = append(out, bytes.Clone(v))
		}
		return nil
	})
	return out, err
}

// sync returns once every change added is written, or with the error
// that stopped the journal.
func (j *journal) sync() error {
	j.mu.Lock()
	last := j.next
	j.mu.Unlock()
	if last == 0 {
		return nil
	}
	return j.wait(last - 1)
}

// close writes the changes added, syncs the log and copies its changes
// into the database, then closes both: every later change fails with
// errJournalClosed. The log is synced first, so that its changes are
// durable should the copy fail.
func (j *journal) close() error {
	if j.db == nil {
		return nil
	}
	err := j.sync()
	if err == nil {
		j.wmu.Lock()
		if !j.dur.syncEach {
			err = j.dur.sync(j.logs[j.active].f)
		}
		if err == nil {
			err = j.checkpoint()
		}
		j.wmu.Unlock()
	}
	j.fail(errJournalClosed)
	close(j.work)
	<-j.stopped
	if j.quit != nil {
		close(j.quit)
		<-j.syncStopped
	}
	if j.copying != nil {
		<-j.copying
	}
	return errors.Join(err, j.logs[0].close(), j.logs[1].close(), j.db.Close())
}

// errJournalClosed is the failure of a change made after the handler was
// closed.
var errJournalClosed = errors.New("the server was closed")

// seqKey is the database key of the change seq: its sequence number, big
// endian, so that keys sort in order.
func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// keep journals the request r that serve served, if it changed the
// state, and returns what waits until it is written; it is called with
// st.mu held. A request answered with an error changed nothing (a handler
// refuses before it changes the state) but the lazily kept parts it may
// have brought up to date: those are journaled as a call of "sync", which
// replays them, and the request is not. A read, which changes nothing,
// waits until the changes it may show are written, so that a crash loses
// nothing a client was shown, and so does a request answered with an
// error. Without a journal, or for a request refused before its handler
// ran, it returns a wait that returns nil at once.
func (h *Handler) keep(rt route, r *http.Request, body []byte, res served) (wait func() error) {
	st := h.st
	issued := st.issuer.take()
	if st.journal == nil || !res.ran || rt.pattern == "" {
		return noWait
	}
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	var ch change
	switch {
	case res.status >= http.StatusBadRequest && st.lazy != 0:
		args, _ := json.Marshal(syncArgs{Parts: st.lazy}) // a number always encodes
		ch = change{At: res.now, Seed: "sync", Args: args}
	case res.status >= http.StatusBadRequest, read && st.lazy == 0:
		return func() error {
			_ = st.journal.sync() // a journal that failed takes no change since: the answer is served
			return nil
		}
	default:
		ch = requestChange(st, r, body, res, res.now)
		ch.Issued = issued
	}
	seq := st.journal.add(ch.encode())
	return func() error { return st.journal.wait(seq) }
}

// unjournalable returns the error that refuses the request r before it
// is served when the journal could not keep it as it came: a query or a
// header that a handler reads (journaledHeaders, onBehalfOf) and that is
// not UTF-8, which a change, JSON, cannot hold byte for byte. Without a
// journal it returns nil.
func (st *state) unjournalable(r *http.Request) *apiError {
	if st.journal == nil {
		return nil
	}
	bad := map[string][]string{}
	if !utf8.ValidString(r.URL.RawQuery) {
		bad["query"] = []string{"The query string must be UTF-8."}
	}
	for _, name := range append([]string{"onBehalfOf"}, journaledHeaders...) {
		if v := r.Header.Get(name); !utf8.ValidString(v) {
			bad[name] = []string{"The " + name + " header must be UTF-8."}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return validationError(bad)
}

func noWait() error { return nil }

// errNotSaved answers a request whose change the journal could not write.
func errNotSaved(err error) *apiError {
	return newAPIError(http.StatusInternalServerError, codeException,
		"The change was made in memory but could not be saved to the data directory, which takes no change since.", err.Error())
}

// answerError is the status and body of an error answer.
func answerError(ae *apiError) (int, []byte) {
	out, _ := json.Marshal(errorEnvelope{ae}) // an apiError always encodes
	return ae.Status, out
}

// replayer replays the changes of a journal or a state file, in order, on
// a handler whose state holds nothing else yet.
type replayer struct {
	h   *Handler
	mux *http.ServeMux
	ch  *change // the change being replayed
	res served  // what serving its request did
	hit bool    // its request matched a route

	online map[string]bool // the users whose last presence change replayed brought them online
	last   time.Time       // the time of the last change replayed
}

func (h *Handler) newReplayer() *replayer {
	rp := &replayer{h: h, mux: http.NewServeMux(), online: map[string]bool{}}
	for _, rt := range append(allRoutes(), allMgmtRoutes()...) {
		rp.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { rp.serve(rt, r) })
	}
	return rp
}

// replay applies changes to the state, each at its time: requests through
// their routes, with the credentials they were sent with, and seeding
// calls through their methods. Nothing is rate limited, logged or
// delivered to webhooks. A request answered otherwise than the change
// says is an error: the state would not be the one journaled.
func (rp *replayer) replay(changes []change) error {
	st := rp.h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	clock := st.clock
	st.replaying = true
	defer func() { st.clock, st.replaying = clock, false }()
	ops := seedOps()
	for i := range changes {
		ch := &changes[i]
		at := ch.At
		st.clock = func() time.Time { return at }
		st.issuer.given = ch.Issued
		var err error
		switch {
		case ch.Seed != "":
			op := ops[ch.Seed]
			if op == nil {
				err = fmt.Errorf("no seeding method %q", ch.Seed)
			} else {
				err = op(st, ch.Args)
			}
		case ch.Method != "":
			err = rp.request(ch)
		default:
			err = errors.New("neither a request (method) nor a seeding call (seed)")
		}
		if issued := st.issuer.take(); ch.Issued == nil {
			// A change written by hand records none: it keeps those it
			// issued now when it seeds a data directory.
			ch.Issued = issued
		}
		st.issuer.given = nil
		if err != nil {
			return fmt.Errorf("change %d: %w", i+1, err)
		}
		if ch.Seed == presenceOp {
			var a presenceArgs
			json.Unmarshal(ch.Args, &a) // replayed: it decodes
			rp.online[a.UID] = a.Online
		}
		rp.last = at
	}
	return nil
}

// endPresence makes the users whom the replayed changes left online go
// offline, at the time of the last change, which the journal keeps: their
// websockets did not outlive the server that kept the changes (a crash
// journals no offline).
func (rp *replayer) endPresence() {
	st := rp.h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	clock, last := st.clock, rp.last
	st.clock = func() time.Time { return last }
	for _, uid := range slices.Sorted(maps.Keys(rp.online)) {
		if rp.online[uid] {
			st.presenceChanged(uid, false)
		}
	}
	st.clock = clock
}

// request replays the request of ch.
func (rp *replayer) request(ch *change) error {
	u, err := url.Parse(ch.Path)
	if err != nil || u.Path == "" || u.Path[0] != '/' {
		return fmt.Errorf("the path %q is not an absolute path", ch.Path)
	}
	body := ch.body()
	r, err := http.NewRequest(ch.Method, "http://chattest"+u.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range ch.Header {
		r.Header.Set(k, v)
	}
	if ch.OnBehalfOf != "" {
		r.Header.Set("onBehalfOf", ch.OnBehalfOf)
	}
	rp.ch, rp.hit = ch, false
	rp.mux.ServeHTTP(discard{}, r)
	switch {
	case !rp.hit:
		return fmt.Errorf("%s %s: no such route", ch.Method, ch.Path)
	case ch.Status != 0 && rp.res.status != ch.Status:
		return fmt.Errorf("%s %s answered %d, not %d as when it was made: %s", ch.Method, ch.Path, rp.res.status, ch.Status, rp.res.out)
	}
	return nil
}

// serve serves the replayed request r of the route rt, with the
// credentials it was sent with. It runs with st.mu held.
func (rp *replayer) serve(rt route, r *http.Request) {
	st := rp.h.st
	switch rt.auth {
	case authAPIKey:
		for key, k := range st.apiKeys {
			if k.seq == rp.ch.Key {
				r.Header.Set("apikey", key)
			}
		}
	case authMgmt:
		r.Header.Set("key", st.mgmtKey)
		r.Header.Set("secret", st.mgmtSecret)
	case authBasic:
		r.SetBasicAuth(st.mgmtKey, st.mgmtSecret)
	case authClient:
		// The user's auth token that sent it, or another of theirs: a
		// handler reads none but to authenticate, and to sign a jwt
		// which the answer, not the state, holds.
		r.Header.Del("onBehalfOf")
		r.Header.Set("appId", st.appID)
		if u := st.users[strings.ToLower(rp.ch.OnBehalfOf)]; u != nil && len(u.tokens) > 0 {
			r.Header.Set("authToken", string(u.tokens[0].AuthToken))
		}
	}
	rp.res = st.serve(rt, classify(rt.pattern), r, rp.ch.body(), nil)
	rp.h.log.learnFrom(rp.res.out) // the request log hides what was issued before the restart
	rp.hit = true
}

// discard is a ResponseWriter for replayed requests, whose answers were
// sent when they were made.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
