package chattest

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
)

// modes are the two ways a data directory syncs its log.
var modes = map[string][]Option{
	"background sync": nil,
	"sync each":       {WithDataDirSync()},
}

// crash stops the server's journal as a crash would: its writer stops
// and its files close, nothing copied into the database that a
// checkpoint had not started to copy. It returns the log file being
// written, the end of its records, the number of the next change and how
// many changes logged were not copied.
func crash(t *testing.T, srv *Server) (path string, end int64, next uint64, unsaved int) {
	t.Helper()
	j := srv.st.journal
	close(j.work)
	<-j.stopped
	if j.quit != nil {
		close(j.quit)
		<-j.syncStopped
	}
	if j.copying != nil {
		<-j.copying
	}
	w := j.logs[j.active]
	path, end, next, unsaved = w.path, w.off, j.written, len(j.unsaved)
	require.NoError(t, j.logs[0].close())
	require.NoError(t, j.logs[1].close())
	require.NoError(t, j.db.Close())
	srv.h.halt()
	srv.ts.Close()
	srv.mts.Close()
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
	for mode, opts := range modes {
		for name, torn := range map[string]bool{"whole": false, "torn record after": true} {
			t.Run(mode+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				srv, err := OpenServer(append([]Option{WithDataDir(dir)}, opts...)...)
				require.NoError(t, err)
				srv.st.journal.wmu.Lock()
				srv.st.journal.checkpointAt = 2 << 10 // a checkpoint every few changes
				srv.st.journal.wmu.Unlock()
				c := srv.Client(chat.WithoutRetries())
				const n = 120
				createUsers(t, c, n)
				j := srv.st.journal
				j.wmu.Lock()
				j.checkpointAt = 1 << 40 // the last change stays in the log only
				j.wmu.Unlock()
				_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "last", Name: "Last"})
				require.NoError(t, err)
				c.CloseIdleConnections()
				path, end, next, unsaved := crash(t, srv)
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

				again, err := OpenServer(append([]Option{WithDataDir(dir)}, opts...)...)
				require.NoError(t, err)
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
				j = again.st.journal
				assert.Zero(t, j.logs[j.active].off, "the log was copied into the database")
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
	for mode, opts := range modes {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			srv, err := OpenServer(append([]Option{WithDataDir(dir)}, opts...)...)
			require.NoError(t, err)
			defer srv.Close()
			j := srv.st.journal
			j.wmu.Lock()
			j.checkpointAt = 2 << 10
			j.wmu.Unlock()
			tx, err := j.db.Begin(true) // the checkpoint waits for it
			require.NoError(t, err)
			defer tx.Rollback() // on failure, before the server closes
			c := srv.Client(chat.WithoutRetries())
			defer c.CloseIdleConnections()
			ctx := context.Background()
			created := 0
			for ; ; created++ {
				j.mu.Lock()
				other := j.active == 1
				j.mu.Unlock()
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
			j.wmu.Lock()
			assert.False(t, j.copied(), "the checkpoint waits")
			j.mu.Lock()
			written := j.written
			j.mu.Unlock()
			crashed := t.TempDir()
			for _, name := range append([]string{dbFile}, walFiles[:]...) {
				b, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(crashed, name), b, 0o600))
			}
			j.wmu.Unlock()
			require.NoError(t, tx.Rollback())

			again, err := OpenServer(append([]Option{WithDataDir(crashed)}, opts...)...)
			require.NoError(t, err)
			defer again.Close()
			for i := range created {
				_, ok := again.User("u" + strconv.Itoa(i))
				assert.True(t, ok, "u%d", i)
			}
			all, err := again.st.journal.changes()
			require.NoError(t, err)
			assert.Len(t, all, int(written), "every change, once")
		})
	}
}

// A log whose changes start after those of the database (records were
// lost between them) is an error naming it, not a state with a hole.
func TestLogWithAGapIsAnError(t *testing.T) {
	dir := t.TempDir()
	srv, err := OpenServer(WithDataDir(dir))
	require.NoError(t, err)
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
	_, err = OpenServer(WithDataDir(dir))
	require.ErrorContains(t, err, "the log "+path+" is damaged: its changes start at 6, after the 2 of the database and the log")
}

// syncs records the calls of a data directory's sync of its log: the
// file synced, on calls, and waits for hold, when not nil, before it
// returns err.
type syncs struct {
	calls chan string
	hold  chan struct{}
	err   error
}

func (s *syncs) durability(every time.Duration) Option {
	return func(c *config) {
		c.durability.every = every
		c.durability.sync = func(f *os.File) error {
			s.calls <- f.Name()
			if s.hold != nil {
				<-s.hold
			}
			return s.err
		}
	}
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
	srv, err := OpenServer(WithDataDir(dir), s.durability(time.Millisecond))
	require.NoError(t, err)
	defer srv.Close()
	defer close(s.hold)
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err, "answered while the sync is held")
	assert.Equal(t, filepath.Join(dir, walFiles[0]), s.next(t), "the background sync")
}

// Closing the server syncs the log, which the background sync, every
// hour here, had not.
func TestCloseSyncsTheLog(t *testing.T) {
	dir := t.TempDir()
	s := &syncs{calls: make(chan string, 100)}
	srv, err := OpenServer(WithDataDir(dir), s.durability(time.Hour))
	require.NoError(t, err)
	c := srv.Client(chat.WithoutRetries())
	_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	c.CloseIdleConnections()
	assert.Empty(t, s.calls, "synced before the close")
	require.NoError(t, srv.h.Close())
	srv.Close()
	assert.Equal(t, filepath.Join(dir, walFiles[0]), s.next(t))
}

// With WithDataDirSync, a change is answered once its write is synced.
func TestSyncEachSyncsBeforeAnswering(t *testing.T) {
	dir := t.TempDir()
	s := &syncs{calls: make(chan string, 100)}
	srv, err := OpenServer(WithDataDir(dir), WithDataDirSync(), s.durability(time.Hour))
	require.NoError(t, err)
	defer srv.Close()
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	select {
	case name := <-s.calls:
		assert.Equal(t, filepath.Join(dir, walFiles[0]), name)
	default:
		t.Fatal("answered before a sync")
	}
}

// A sync that fails stops the journal: with WithDataDirSync the change
// whose sync failed answers 500; in the background, the change written
// before is answered, and those that follow the failure answer 500.
func TestFailedSyncStopsTheJournal(t *testing.T) {
	for mode, opts := range modes {
		t.Run(mode, func(t *testing.T) {
			s := &syncs{calls: make(chan string, 100), hold: make(chan struct{}), err: errors.New("the disk is gone")}
			srv, err := OpenServer(append([]Option{WithDataDir(t.TempDir()), s.durability(time.Millisecond)}, opts...)...)
			require.NoError(t, err)
			defer srv.Close()
			c := srv.Client(chat.WithoutRetries())
			defer c.CloseIdleConnections()
			ctx := context.Background()
			if mode == "sync each" {
				close(s.hold)
			} else {
				_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
				require.NoError(t, err, "answered while the sync is held")
				s.next(t)
				close(s.hold)
				failed := make(chan struct{})
				go func() {
					j := srv.st.journal
					j.mu.Lock()
					for j.err == nil {
						j.cond.Wait()
					}
					j.mu.Unlock()
					close(failed)
				}()
				select {
				case <-failed:
				case <-time.After(time.Minute):
					t.Fatal("the failed sync did not stop the journal within a minute")
				}
			}
			_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
			var apiErr *chat.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
			assert.True(t, strings.Contains(apiErr.Message, "could not be saved"), apiErr.Message)
			assert.Contains(t, srv.st.journal.failed().Error(), "the disk is gone")
		})
	}
}
