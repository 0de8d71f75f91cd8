package platform

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// modes are the two ways a data directory syncs its log.
var modes = map[string]durability{
	"background sync": {},
	"sync each":       {syncEach: true},
}

// openDir opens a server on the data directory dir, synced as dur says,
// and returns it with the directory's store.
func openDir(t *testing.T, dir string, dur durability) (*chattest.Server, *dataDir) {
	t.Helper()
	d := &dataDir{dir: dir, dur: dur}
	srv, err := chattest.OpenServer(chattest.WithStore(d))
	require.NoError(t, err)
	return srv, d
}

// crash stops the directory as a crash would, then closes the server:
// the background sync stops and the files close, nothing copied into the
// database that a checkpoint had not started to copy. It returns the log
// file being written, the end of its records, the number of the next
// change and how many changes logged were not copied.
func crash(t *testing.T, srv *chattest.Server, d *dataDir) (path string, end int64, next uint64, unsaved int) {
	t.Helper()
	if d.quit != nil {
		close(d.quit)
		<-d.syncStopped
	}
	d.mu.Lock()
	if d.copying != nil {
		<-d.copying
	}
	d.closed = true // the server's Close finds it closed
	w := d.logs[d.active]
	path, end, next, unsaved = w.path, w.off, d.held, len(d.unsaved)
	require.NoError(t, d.logs[0].close())
	require.NoError(t, d.logs[1].close())
	require.NoError(t, d.db.Close())
	d.mu.Unlock()
	d.quit = nil
	srv.Close()
	return path, end, next, unsaved
}

// createUsers creates the users u0 to u(n-1) from 8 goroutines.
func createUsers(t *testing.T, c *chat.Client, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < n; i += 8 {
				_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "u" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i)})
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// walRecord is a record of the log numbered seq, holding the change ch,
// its CRC right, or wrong for a record torn.
func walRecord(seq uint64, ch string, torn bool) []byte {
	b := make([]byte, walHeader, walHeader+len(ch))
	binary.LittleEndian.PutUint32(b[0:], uint32(len(ch)))
	binary.LittleEndian.PutUint64(b[8:], seq)
	b = append(b, ch...)
	crc := crc32.Checksum(b[8:], walTable)
	if torn {
		crc++
	}
	binary.LittleEndian.PutUint32(b[4:], crc)
	return b
}

// Users created from concurrent goroutines, their changes logged in both
// files in turn and copied into the database at checkpoints, are all
// there after a crash that copied none of the rest: the log is read back
// at the next opening. A torn record at the log's end, a write the crash
// cut, is left out, and so is a whole record after it; the directory
// opens, and the file torn is filled with zeros, so that the record after
// the tear, numbered as the next change, is never read.
func TestLoggedChangesSurviveACrash(t *testing.T) {
	for mode, dur := range modes {
		for name, torn := range map[string]bool{"whole": false, "torn record after": true} {
			t.Run(mode+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				srv, d := openDir(t, dir, dur)
				d.mu.Lock()
				d.checkpointAt = 2 << 10 // a checkpoint every few changes
				d.mu.Unlock()
				c := srv.Client(chat.WithoutRetries())
				const n = 120
				createUsers(t, c, n)
				d.mu.Lock()
				d.checkpointAt = 1 << 40 // the last change stays in the log only
				d.mu.Unlock()
				_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "last", Name: "Last"})
				require.NoError(t, err)
				c.CloseIdleConnections()
				path, end, next, unsaved := crash(t, srv, d)
				require.NotZero(t, unsaved, "changes logged since the last checkpoint")
				if torn {
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					require.NoError(t, err)
					// A record numbered next, its CRC wrong (a write cut
					// short), then a whole one numbered next+1.
					ghost := `{"at":"2025-01-01T00:00:00Z","seed":"AddUser","args":{"uid":"ghost","name":"Ghost"}}`
					_, err = f.WriteAt(append(walRecord(next, "{}x", true), walRecord(next+1, ghost, false)...), end)
					require.NoError(t, err)
					require.NoError(t, f.Close())
				}

				again, d := openDir(t, dir, dur)
				defer again.Close()
				for i := range n {
					u, ok := again.User("u" + strconv.Itoa(i))
					if assert.True(t, ok, "u%d", i) {
						assert.Equal(t, "User "+strconv.Itoa(i), u.Name)
					}
				}
				_, ok := again.User("last")
				assert.True(t, ok)
				_, ok = again.User("ghost")
				assert.False(t, ok, "a record after a torn one")
				d.mu.Lock()
				assert.Zero(t, d.logs[d.active].off, "the log was copied into the database")
				d.mu.Unlock()
				if torn {
					b, err := os.ReadFile(path)
					require.NoError(t, err)
					assert.Zero(t, len(bytes.Trim(b, "\x00")), "the file torn holds zeros only")
				}
			})
		}
	}
}

// A crash while a checkpoint copies the changes of one file of the log,
// the writer gone on in the other, loses none of either: the directory
// as the crash left it (the files copied while the checkpoint waits for
// the database) opens with the changes of both, in order.
func TestChangesOfBothLogFilesSurviveACrash(t *testing.T) {
	for mode, dur := range modes {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			srv, d := openDir(t, dir, dur)
			defer srv.Close()
			d.mu.Lock()
			d.checkpointAt = 2 << 10
			d.mu.Unlock()
			tx, err := d.db.Begin(true) // the checkpoint waits for it
			require.NoError(t, err)
			defer tx.Rollback() // on failure, before the server closes
			c := srv.Client(chat.WithoutRetries())
			defer c.CloseIdleConnections()
			ctx := context.Background()
			created := 0
			for ; ; created++ {
				d.mu.Lock()
				other := d.active == 1
				d.mu.Unlock()
				if other {
					break
				}
				_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "u" + strconv.Itoa(created), Name: "User"})
				require.NoError(t, err)
			}
			for range 5 { // in the other file
				_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "u" + strconv.Itoa(created), Name: "User"})
				require.NoError(t, err)
				created++
			}
			d.mu.Lock()
			assert.False(t, d.copied(), "the checkpoint waits")
			written := d.held
			crashed := t.TempDir()
			for _, name := range append([]string{dbFile}, walFiles[:]...) {
				b, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(crashed, name), b, 0o600))
			}
			d.mu.Unlock()
			require.NoError(t, tx.Rollback())

			again, d2 := openDir(t, crashed, dur)
			defer again.Close()
			for i := range created {
				_, ok := again.User("u" + strconv.Itoa(i))
				assert.True(t, ok, "u%d", i)
			}
			all, err := d2.Changes()
			require.NoError(t, err)
			assert.Len(t, all, int(written), "every change, once")
		})
	}
}

// A log whose changes start after those of the database (records were
// lost between them) is an error naming it, not a state with a hole.
func TestLogWithAGapIsAnError(t *testing.T) {
	dir := t.TempDir()
	srv, _ := openDir(t, dir, durability{})
	c := srv.Client()
	for _, uid := range []string{"alice", "bob"} {
		_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: uid, Name: uid})
		require.NoError(t, err)
	}
	c.CloseIdleConnections()
	srv.Close()

	path := filepath.Join(dir, walFiles[1])
	w, err := openWAL(path)
	require.NoError(t, err)
	require.NoError(t, w.write(5, [][]byte{[]byte(`{"method":"GET","path":"/v3/users"}`)}))
	require.NoError(t, w.close())
	_, err = chattest.OpenServer(WithDataDir(dir))
	require.ErrorContains(t, err, "the log "+path+" is damaged: its changes start at 6, after the 3 of the database and the log") // the users' and the snapshot kept at the close
}

// syncs records the calls of a data directory's sync of its log: the
// file synced, on calls, and waits for hold, when not nil, before it
// returns err.
type syncs struct {
	calls chan string
	hold  chan struct{}
	err   error
}

func (s *syncs) durability(syncEach bool, every time.Duration) durability {
	return durability{syncEach: syncEach, every: every, sync: func(f *os.File) error {
		s.calls <- f.Name()
		if s.hold != nil {
			<-s.hold
		}
		return s.err
	}}
}

// next returns the file of the next sync, within a minute.
func (s *syncs) next(t *testing.T) string {
	t.Helper()
	select {
	case name := <-s.calls:
		return name
	case <-time.After(time.Minute):
		t.Fatal("the log was not synced within a minute")
		return ""
	}
}

// By default a change is answered once written to the log, while its
// sync has not returned, and the log is synced in the background.
func TestChangesAreAnsweredBeforeTheirSync(t *testing.T) {
	dir := t.TempDir()
	s := &syncs{calls: make(chan string, 100), hold: make(chan struct{})}
	srv, _ := openDir(t, dir, s.durability(false, time.Millisecond))
	defer srv.Close()
	defer close(s.hold)
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err, "answered while the sync is held")
	assert.Equal(t, filepath.Join(dir, walFiles[0]), s.next(t), "the background sync")
}

// Closing the server syncs the log, which the background sync, every
// hour here, had not.
func TestCloseSyncsTheLog(t *testing.T) {
	dir := t.TempDir()
	s := &syncs{calls: make(chan string, 100)}
	srv, _ := openDir(t, dir, s.durability(false, time.Hour))
	c := srv.Client(chat.WithoutRetries())
	_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	c.CloseIdleConnections()
	assert.Empty(t, s.calls, "synced before the close")
	srv.Close()
	assert.Equal(t, filepath.Join(dir, walFiles[0]), s.next(t))
}

// With SyncEachChange, a change is answered once its write is synced.
func TestSyncEachSyncsBeforeAnswering(t *testing.T) {
	dir := t.TempDir()
	s := &syncs{calls: make(chan string, 100)}
	srv, _ := openDir(t, dir, s.durability(true, time.Hour))
	defer srv.Close()
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	select {
	case name := <-s.calls:
		assert.Equal(t, filepath.Join(dir, walFiles[0]), name)
	default:
		t.Fatal("answered before a sync")
	}
}

// A sync that fails stops the directory: with SyncEachChange the change
// whose sync failed answers 500; in the background, the change written
// before is answered, and those that follow the failure answer 500.
func TestFailedSyncStopsTheDataDir(t *testing.T) {
	for mode, dur := range modes {
		t.Run(mode, func(t *testing.T) {
			s := &syncs{calls: make(chan string, 100), hold: make(chan struct{}), err: errors.New("the disk is gone")}
			srv, d := openDir(t, t.TempDir(), s.durability(dur.syncEach, time.Millisecond))
			defer srv.Close()
			c := srv.Client(chat.WithoutRetries())
			defer c.CloseIdleConnections()
			ctx := context.Background()
			if dur.syncEach {
				close(s.hold)
			} else {
				_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
				require.NoError(t, err, "answered while the sync is held")
				s.next(t)
				close(s.hold)
				select {
				case <-d.syncStopped: // it stops at the failure
				case <-time.After(time.Minute):
					t.Fatal("the background sync did not stop within a minute of its failure")
				}
			}
			for _, uid := range []string{"bob", "carol"} {
				_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
				var apiErr *chat.Error
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
				assert.True(t, strings.Contains(apiErr.Message, "could not be kept"), apiErr.Message)
				assert.Contains(t, apiErr.DevMessage, "the disk is gone")
			}
		})
	}
}
