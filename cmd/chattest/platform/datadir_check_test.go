package platform

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// keptDir returns a closed data directory holding users and messages over
// several pages of its database, and the database's bytes.
func keptDir(t *testing.T) (dir string, db []byte) {
	t.Helper()
	dir = t.TempDir()
	srv, err := chattest.OpenServer(WithDataDir(dir))
	require.NoError(t, err)
	c := srv.Client()
	ctx := context.Background()
	for i := range 80 {
		_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "u" + strconv.Itoa(i), Name: strings.Repeat("A user with a long name ", 4)})
		require.NoError(t, err)
	}
	c.CloseIdleConnections()
	srv.Close()
	db, err = os.ReadFile(filepath.Join(dir, dbFile))
	require.NoError(t, err)
	return dir, db
}

// A database emptied, cut short, overwritten or cut at its tail fails to
// open with an error that names it and says what to do, never a panic or
// a fault; the directory's credentials are not reported kept.
func TestDamagedDatabaseIsAnError(t *testing.T) {
	dir, db := keptDir(t)
	path := filepath.Join(dir, dbFile)
	garbage := make([]byte, len(db))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range garbage {
		garbage[i] = byte(r.Uint32())
	}
	ps := 4096
	m0, ok0 := readBoltMeta(bytes.NewReader(db), 0, int64(len(db)))
	m1, ok1 := readBoltMeta(bytes.NewReader(db), int64(ps), int64(len(db)))
	require.True(t, ok0 && ok1)
	used := int(max(m0.pages, m1.pages)) * ps
	require.Greater(t, used, 8*ps, "pages enough to cut")
	for name, tc := range map[string]struct {
		content []byte
		why     string
	}{
		"empty":             {nil, "it is empty (0 bytes)"},
		"first page only":   {db[:ps], "cut short"},
		"half":              {db[:len(db)/2], "cut short"},
		"last page cut":     {db[:used-ps], "cut short"},
		"cut in a page":     {db[:used-100], "cut short"},
		"garbage":           {garbage, "it is no bbolt database"},
		"metas overwritten": {append(bytes.Clone(garbage[:2*ps]), db[2*ps:]...), "it is no bbolt database"},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, tc.content, 0o600))
			_, err := chattest.OpenServer(WithDataDir(dir))
			require.ErrorContains(t, err, "the database "+path+" is damaged: ")
			assert.Contains(t, err.Error(), tc.why)
			assert.Contains(t, err.Error(), "Restore it from a backup, or move it away")
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// Pages overwritten anywhere, at random, make opening the directory fail
// with an error naming it or succeed, never panic or fault.
func TestOverwrittenPagesNeverCrash(t *testing.T) {
	dir, db := keptDir(t)
	path := filepath.Join(dir, dbFile)
	r := rand.New(rand.NewPCG(3, 4))
	failed := 0
	for range 60 {
		b := bytes.Clone(db)
		for range 1 + r.IntN(4) {
			at := r.IntN(len(b))
			n := min(len(b)-at, 1+r.IntN(2*4096))
			for i := range n {
				b[at+i] = byte(r.Uint32())
			}
		}
		if r.IntN(3) == 0 {
			b = b[:r.IntN(len(b))]
		}
		require.NoError(t, os.WriteFile(path, b, 0o600))
		srv, err := chattest.OpenServer(WithDataDir(dir))
		if err != nil {
			failed++
			assert.Contains(t, err.Error(), dir)
			continue
		}
		srv.Close()
	}
	assert.NotZero(t, failed, "the damage was seen")
}

// A data directory whose changes are not numbered 1, 2, 3... (a key of
// another length, a gap) is refused with an error, never a panic.
func TestDataDirWithStrayKeysIsRefused(t *testing.T) {
	for name, key := range map[string][]byte{"short key": {7}, "gap": binary.BigEndian.AppendUint64(nil, 5)} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			srv, err := chattest.OpenServer(WithDataDir(dir))
			require.NoError(t, err)
			c := srv.Client()
			_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
			require.NoError(t, err)
			c.CloseIdleConnections()
			srv.Close()

			db, err := bolt.Open(filepath.Join(dir, dbFile), 0o600, nil)
			require.NoError(t, err)
			require.NoError(t, db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(changesBucket).Put(key, []byte(`{"method":"GET","path":"/v3/users"}`))
			}))
			require.NoError(t, db.Close())

			_, err = chattest.OpenServer(WithDataDir(dir))
			assert.ErrorContains(t, err, "change 3 is missing or out of order", "after the user's and the snapshot kept at the close")
		})
	}
}

// A directory in use by another server, or holding the state of another
// app, is refused with an error that says so.
func TestDataDirInUseOrOfAnotherApp(t *testing.T) {
	dir := t.TempDir()
	first, err := chattest.OpenServer(WithDataDir(dir))
	require.NoError(t, err)
	_, err = chattest.OpenServer(WithDataDir(dir))
	assert.EqualError(t, err, "chattest: the data directory "+dir+" is in use by another server")
	first.Close()

	_, err = chattest.OpenServer(chattest.WithAppID("other"), WithDataDir(dir))
	assert.EqualError(t, err, `chattest: the data directory `+dir+` holds the state of app "test-app", not of "other"`)
	again, err := chattest.OpenServer(WithDataDir(dir))
	require.NoError(t, err, "a refused opening leaves the directory closed")
	again.Close()
}
