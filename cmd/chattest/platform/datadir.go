package platform

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/chatrest/chat/chattest"
)

// WithDataDir keeps the server's state in the directory dir (created if
// missing), so that a server opened on it later, even after this one was
// killed, starts with the state this one had (see [chattest.WithStore]).
//
// The directory holds a database (chattest.db, of go.etcd.io/bbolt) with
// the state: a snapshot of it, kept when its server was closed, and the
// changes made since, in order (see [chattest.Store]). A request's change is
// written to a log beside the database (chattest.wal and chattest-2.wal)
// before the request is answered; the changes of concurrent requests are
// written together, in one write, and copied into the database in larger
// transactions; opening the directory reads back what the log holds
// beyond the database. What a crash loses:
//
//   - A crash or kill of the process (kill -9): nothing answered. What was
//     written is in the operating system's cache, which outlives it.
//   - A crash of the machine, or a power loss: the changes of about the
//     last 100 ms, answered or not. The log is synced to the disk in the
//     background, at least every 100 ms, and when the server is closed.
//     With [SyncEachChange] it is synced before the changes are answered,
//     and nothing answered is lost.
//
// (A websocket push or a webhook delivery of a change may leave before the
// change is written: a crash in that moment can lose a change another
// client was pushed.) A request whose change cannot be written answers 500
// ERR_EXCEPTION, and so does every later request that would change the
// state.
//
// A database file that is damaged (emptied, cut short, overwritten) fails
// to open with an error that names it and says what to do: the file is
// checked before bbolt, which reads it in place, opens it, and a fault
// reading it is an error, never a crash. One server at a time may have a
// directory open. Use [chattest.OpenServer] or [chattest.OpenHandler],
// which report a directory that cannot be used, and close the server to
// close the directory.
func WithDataDir(dir string, opts ...DataDirOption) chattest.Option {
	d := &dataDir{dir: dir}
	for _, o := range opts {
		o(&d.dur)
	}
	return chattest.WithStore(d)
}

// A DataDirOption configures [WithDataDir].
type DataDirOption func(*durability)

// SyncEachChange makes [WithDataDir] sync its log to the disk (fdatasync)
// before the changes written there are answered, so that nothing answered
// is lost even in a crash of the machine or a power loss, not only of the
// process. Concurrent requests share a sync, but the requests a second are
// bounded by how long the disk takes to sync: see BENCHMARKS.md. Without
// it, the log is synced in the background at least every 100 ms, as
// databases do by default (Redis's appendfsync everysec, PostgreSQL's
// synchronous_commit off).
func SyncEachChange() DataDirOption { return func(d *durability) { d.syncEach = true } }

// durability is when a data directory's log is synced (datadir_wal.go).
type durability struct {
	syncEach bool                 // SyncEachChange: before the changes written are answered
	every    time.Duration        // else in the background, at least this often: syncEvery when zero
	sync     func(*os.File) error // syncs a file of the log: fdatasync when nil
}

// syncEvery is how often, at least, a data directory's log is synced in
// the background.
const syncEvery = 100 * time.Millisecond

// orDefaults is d with the defaults of what it leaves zero.
func (d durability) orDefaults() durability {
	if d.every == 0 {
		d.every = syncEvery
	}
	if d.sync == nil {
		d.sync = fdatasync
	}
	return d
}

// dataDir is the [chattest.Store] of a data directory: a bbolt database
// of the changes and the server's values, and a write-ahead log of the
// changes appended since the last checkpoint (datadir_wal.go).
type dataDir struct {
	dir string
	dur durability
	db  *bolt.DB

	// Without dur.syncEach, syncLoop syncs the log in the background.
	dirty       chan struct{} // tells syncLoop that the log was written
	quit        chan struct{} // closed by Close: syncLoop returns
	syncStopped chan struct{} // closed when syncLoop returns

	mu           sync.Mutex    // guards what follows
	logs         [2]*wal       // the log's files
	active       int           // the index in logs of the file being written
	held         uint64        // the changes appended, in the database or the log
	unsaved      [][]byte      // the changes logged in the file being written, not in the database
	unsavedFrom  uint64        // the sequence number of the first of unsaved
	copying      chan struct{} // closed when the last checkpoint started has ended; nil: none started
	checkpointAt int64         // the bytes logged in a file that make a checkpoint: walCheckpoint
	err          error         // a failure in the background (a sync, a checkpoint): Append returns it
	closed       bool
}

// The database's buckets.
var (
	changesBucket = []byte("changes")
	valuesBucket  = []byte("meta")
)

// dbFile is the database's file in the data directory.
const dbFile = "chattest.db"

// String names the directory in errors.
func (d *dataDir) String() string { return "the data directory " + d.dir }

// Open opens the directory, creating it and its database when missing,
// keeps the values of defaults it does not hold, and returns its values
// and changes, those its log holds beyond the database included.
func (d *dataDir) Open(defaults map[string][]byte) (map[string][]byte, [][]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.db != nil && !d.closed {
		return nil, nil, fmt.Errorf("chattest: the data directory %s is in use by another server", d.dir)
	}
	// The option may open the directory again once its server closed it.
	d.closed, d.err, d.copying, d.unsaved, d.active = false, nil, nil, nil, 0
	d.dur = d.dur.orDefaults()
	db, err := openDB(d.dir)
	if err != nil {
		return nil, nil, err
	}
	values := map[string][]byte{}
	var changes [][]byte
	err = guarded(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			vb, err := tx.CreateBucketIfNotExists(valuesBucket)
			if err != nil {
				return err
			}
			cb, err := tx.CreateBucketIfNotExists(changesBucket)
			if err != nil {
				return err
			}
			for name, v := range defaults {
				if vb.Get([]byte(name)) == nil {
					if err := vb.Put([]byte(name), v); err != nil {
						return err
					}
				}
			}
			if err := vb.ForEach(func(k, v []byte) error {
				values[string(k)] = bytes.Clone(v)
				return nil
			}); err != nil {
				return err
			}
			return cb.ForEach(func(k, v []byte) error {
				if len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(len(changes)) {
					return damage{fmt.Sprintf("change %d is missing or out of order (key %x)", len(changes)+1, k)}
				}
				changes = append(changes, bytes.Clone(v))
				return nil
			})
		})
	})
	var logs [2]*wal
	if err == nil {
		logs, changes, err = recoverLog(d.dir, db, changes)
	}
	if err != nil {
		db.Close()
		var dm damage
		if errors.As(err, &dm) || errors.As(err, new(panicked)) {
			return nil, nil, damagedDB(filepath.Join(d.dir, dbFile), err.Error())
		}
		return nil, nil, err
	}
	d.db, d.logs, d.checkpointAt = db, logs, walCheckpoint
	d.held, d.unsavedFrom = uint64(len(changes)), uint64(len(changes))
	if !d.dur.syncEach {
		d.dirty, d.quit, d.syncStopped = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go d.syncLoop()
	}
	return values, changes, nil
}

// recoverLog opens the log of the data directory dir, whose database db
// holds changes, and copies into the database the changes logged after
// them: those written since the last checkpoint, when the server that
// wrote them did not close. It returns the log's files, to be written from
// the start of the first, and every change.
func recoverLog(dir string, db *bolt.DB, changes [][]byte) ([2]*wal, [][]byte, error) {
	logs, err := openWALs(dir)
	if err != nil {
		return logs, nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	}
	fail := func(err error) ([2]*wal, [][]byte, error) {
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
		for _, r := range runs {
			if next < r.first || next >= r.first+uint64(len(r.records)) {
				continue
			}
			for _, b := range r.records[next-r.first:] {
				changes = append(changes, b)
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
// database file that is damaged is an error naming it (datadir_check.go).
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
	// The state holds credentials: the owner's only, even when the file
	// was copied in with other permissions.
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("chattest: the data directory %s: %w", dir, err)
	}
	return db, nil
}

// damage is what makes a database file unreadable, found while reading it.
type damage struct{ why string }

func (d damage) Error() string { return d.why }

// Append writes the changes of batch, the first numbered first, to the
// file of the log being written, and syncs it with dur.syncEach, or else
// tells syncLoop. Once the file holds checkpointAt bytes, it starts a
// checkpoint.
func (d *dataDir) Append(first uint64, batch [][]byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.err != nil:
		return d.err
	case d.closed:
		return errors.New("chattest: the data directory is closed")
	case first != d.held:
		return fmt.Errorf("chattest: change %d appended after the %d of %s", first+1, d.held, d)
	}
	w := d.logs[d.active]
	if err := w.write(first, batch); err != nil {
		return err
	}
	d.unsaved = append(d.unsaved, batch...)
	d.held += uint64(len(batch))
	if d.dur.syncEach {
		if err := d.dur.sync(w.f); err != nil {
			return err
		}
	} else {
		select {
		case d.dirty <- struct{}{}:
		default: // syncLoop was told already
		}
	}
	if w.off >= d.checkpointAt && d.copied() {
		return d.startCheckpoint()
	}
	return nil
}

// syncLoop syncs the file of the log being written once it was written,
// no sooner than dur.every after its last sync, so that a change is synced
// within dur.every (and the sync's time) of its write, until the directory
// is closed.
func (d *dataDir) syncLoop() {
	defer close(d.syncStopped)
	last := time.Now()
	for {
		select {
		case <-d.dirty:
		case <-d.quit:
			return
		}
		if wait := time.Until(last.Add(d.dur.every)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-d.quit:
				t.Stop()
				return
			}
		}
		last = time.Now()
		d.mu.Lock()
		w := d.logs[d.active]
		d.mu.Unlock()
		if err := d.dur.sync(w.f); err != nil {
			d.fail(err)
			return
		}
	}
}

// fail records err, a failure in the background, unless one was recorded:
// the next Append returns it.
func (d *dataDir) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = err
	}
}

// copied reports whether the last checkpoint started has ended. It runs
// with d.mu held.
func (d *dataDir) copied() bool {
	if d.copying == nil {
		return true
	}
	select {
	case <-d.copying:
		return true
	default:
		return false
	}
}

// startCheckpoint starts copying the changes of the file being written
// into the database, in a goroutine, and makes the writer go on in the
// other file, from its start: the checkpoint before, which has ended,
// copied its changes. It syncs the file first, so that no change of the
// other reaches the disk before these. It runs with d.mu held.
func (d *dataDir) startCheckpoint() error {
	if !d.dur.syncEach {
		if err := d.dur.sync(d.logs[d.active].f); err != nil {
			return err
		}
	}
	first, batch := d.unsavedFrom, d.unsaved
	d.unsaved, d.unsavedFrom = nil, first+uint64(len(batch))
	done := make(chan struct{})
	d.copying = done
	go func() {
		defer close(done)
		if err := d.copy(first, batch); err != nil {
			d.fail(err)
		}
	}()
	d.active = 1 - d.active
	d.logs[d.active].reset()
	return nil
}

// copy stores the changes batch in the database, the first numbered first.
func (d *dataDir) copy(first uint64, batch [][]byte) error {
	return d.db.Update(func(tx *bolt.Tx) error { return putChanges(tx, first, batch) })
}

// checkpoint copies every change logged into the database, once the
// checkpoint in progress has ended, and makes the writer go on from the
// start of its file. It runs with d.mu held.
func (d *dataDir) checkpoint() error {
	if d.copying != nil {
		d.mu.Unlock()
		<-d.copying
		d.mu.Lock()
	}
	if d.err != nil {
		return d.err // the checkpoint in progress failed
	}
	if len(d.unsaved) > 0 {
		if err := d.copy(d.unsavedFrom, d.unsaved); err != nil {
			d.err = err
			return err
		}
		d.unsavedFrom += uint64(len(d.unsaved))
		d.unsaved = nil
	}
	d.logs[d.active].reset()
	return nil
}

// Changes copies the changes logged into the database and returns every
// change it holds.
func (d *dataDir) Changes() ([][]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errors.New("chattest: the data directory is closed")
	}
	if err := d.checkpoint(); err != nil {
		return nil, err
	}
	var out [][]byte
	err := d.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(changesBucket).ForEach(func(_, v []byte) error {
			out = append(out, bytes.Clone(v))
			return nil
		})
	})
	return out, err
}

// Close syncs the log and copies its changes into the database, then
// closes both. The log is synced first, so that its changes are durable
// should the copy fail.
func (d *dataDir) Close() error {
	d.mu.Lock()
	if d.closed || d.db == nil {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	var err error
	if !d.dur.syncEach {
		err = d.dur.sync(d.logs[d.active].f)
	}
	if err == nil {
		err = d.checkpoint()
	}
	d.mu.Unlock()
	if d.quit != nil {
		close(d.quit)
		<-d.syncStopped
	}
	if d.copying != nil {
		<-d.copying
	}
	return errors.Join(err, d.logs[0].close(), d.logs[1].close(), d.db.Close())
}
