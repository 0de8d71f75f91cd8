package chattest

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// crash stops the server's journal as a crash would: its writer stops
// and its files close, nothing copied into the database that was not
// already. It returns the end of the log, the number of the next change
// and how many changes logged were not copied.
func crash(t *testing.T, srv *Server) (end int64, next uint64, unsaved int) {
	t.Helper()
	j := srv.st.journal
	close(j.work)
	<-j.stopped
	end, next, unsaved = j.wal.off, j.written, len(j.unsaved)
	require.NoError(t, j.wal.close())
	require.NoError(t, j.db.Close())
	srv.h.halt()
	srv.ts.Close()
	srv.mts.Close()
	return end, next, unsaved
}

// Users created from concurrent goroutines, their changes logged and some
// copied into the database at checkpoints, are all there after a crash
// that copied none of the rest: the log is read back at the next opening.
// A torn record at the log's end, a write the crash cut, is left out, and
// the directory opens.
func TestLoggedChangesSurviveACrash(t *testing.T) {
	for name, tear := range map[string]func(t *testing.T, path string, at int64, next uint64){
		"whole": func(*testing.T, string, int64, uint64) {},
		"torn record after": func(t *testing.T, path string, at int64, next uint64) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			require.NoError(t, err)
			defer f.Close()
			// A record numbered next, its CRC wrong: a write cut short.
			h := make([]byte, walHeader+3)
			binary.LittleEndian.PutUint32(h[0:], 3)
			binary.LittleEndian.PutUint32(h[4:], 12345)
			binary.LittleEndian.PutUint64(h[8:], next)
			copy(h[walHeader:], "{}x")
			_, err = f.WriteAt(h, at)
			require.NoError(t, err)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			srv, err := OpenServer(WithDataDir(dir))
			require.NoError(t, err)
			srv.st.journal.checkpointAt = 2 << 10 // a checkpoint every few changes
			c := srv.Client(chat.WithoutRetries())
			const n = 120
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g; i < n; i += 8 {
						_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "u" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i)})
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			j := srv.st.journal
			j.wmu.Lock()
			j.checkpointAt = 1 << 40 // the last change stays in the log only
			j.wmu.Unlock()
			_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "last", Name: "Last"})
			require.NoError(t, err)
			c.CloseIdleConnections()
			end, next, unsaved := crash(t, srv)
			require.NotZero(t, unsaved, "changes logged since the last checkpoint")
			tear(t, filepath.Join(dir, walFile), end, next)

			again, err := OpenServer(WithDataDir(dir))
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
			assert.Zero(t, again.st.journal.wal.off, "the log was copied into the database")
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

	w, err := openWAL(dir)
	require.NoError(t, err)
	require.NoError(t, w.append(5, [][]byte{[]byte(`{"method":"GET","path":"/v3/users"}`)}))
	require.NoError(t, w.close())
	_, err = OpenServer(WithDataDir(dir))
	require.ErrorContains(t, err, "the log "+filepath.Join(dir, walFile)+" is damaged: its changes start at 6, after the 2 of the database")
}
