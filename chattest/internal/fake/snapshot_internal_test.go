package fake

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chatrest/chat"
)

// checkSnapshot sets the records of srv's state in a new server with
// srv's own credentials: it must hold exactly the state srv holds, and
// indexes that follow it.
func checkSnapshot(t *testing.T, srv *Server, clock Option) {
	t.Helper()
	srv.st.mu.Lock()
	want := dumpState(srv.st)
	srv.st.rec.ownKey = srv.APIKey()
	snap, err := srv.st.allRecords()
	again := dumpState(srv.st)
	srv.st.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if again != want {
		t.Fatalf("taking a snapshot changed the state: %s", diffLines(want, again))
	}
	other, err := OpenServer(WithAPIKey(srv.APIKey()), WithManagementCredentials(srv.ManagementKey(), srv.ManagementSecret()), clock)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.st.mu.Lock()
	other.st.rec.ownKey = other.APIKey()
	_, err = other.st.applySnapshot(snap)
	other.st.finishRecords()
	other.st.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if got := lockedDump(other); got != want {
		t.Errorf("the state loaded from the snapshot differs: %s", diffLines(want, got))
	}
	if err := other.st.checkIndexes(); err != nil {
		t.Error(err)
	}
}

// fixedStore is a Store in memory whose changes a test may edit between
// servers.
type fixedStore struct {
	values  map[string][]byte
	changes [][]byte
}

func (s *fixedStore) String() string { return "the fixed store" }

func (s *fixedStore) Open(defaults map[string][]byte) (map[string][]byte, [][]byte, error) {
	if s.values == nil {
		s.values = map[string][]byte{}
	}
	for k, v := range defaults {
		if _, ok := s.values[k]; !ok {
			s.values[k] = v
		}
	}
	return s.values, s.changes, nil
}

func (s *fixedStore) Append(first uint64, changes [][]byte) error {
	s.changes = append(s.changes, changes...)
	return nil
}

func (s *fixedStore) Changes() ([][]byte, error) { return s.changes, nil }
func (s *fixedStore) Close() error               { return nil }

// Closing a server keeps a snapshot of its state in its store, and the
// next opening sets its records and serves none of the requests before it
// again: a request there that today's handlers would answer otherwise
// changes nothing. The records of a change after the snapshot (a killed
// server's) are set, but for a collection the state does not have; a
// request after a snapshot of records is a damaged store.
func TestOpeningReadsTheLastSnapshot(t *testing.T) {
	store := &fixedStore{}
	srv, err := OpenServer(WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	c := srv.Client()
	if _, err := c.Users.Create(t.Context(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"}); err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()
	want := lockedDump(srv)
	srv.Close()
	var last change
	if err := json.Unmarshal(store.changes[len(store.changes)-1], &last); err != nil || last.State == nil {
		t.Fatalf("the last change kept is not a snapshot: %.200s", store.changes[len(store.changes)-1])
	}
	creds := []Option{WithAPIKey(srv.APIKey()), WithManagementCredentials(srv.ManagementKey(), srv.ManagementSecret())}

	// Answered 200 when it was made, 404 today.
	diverging := []byte(`{"at":"2025-01-01T00:00:00Z","method":"GET","path":"/v3/users/nobody","key":1,"status":200}`)
	store.changes = append([][]byte{diverging}, store.changes...)
	again, err := OpenServer(append(creds, WithStore(store))...)
	if err != nil {
		t.Fatalf("a change before the snapshot was replayed: %v", err)
	}
	if got := lockedDump(again); got != want {
		t.Errorf("the state loaded differs: %s", diffLines(want, got))
	}
	n := len(store.changes)
	again.Close()
	if len(store.changes) != n {
		t.Errorf("a server that changed nothing kept another snapshot")
	}

	// A record of a collection that no release has (one this release no
	// longer has) is left aside.
	renamed := []byte(`{"at":"2025-01-02T00:00:00Z","records":[["users","alice",{"$id":0,"v":{"u":{"UID":"alice","Name":"Alice Two","Status":"offline","Role":"default"}}}],["gone",null,1]]}`)
	store.changes = append(store.changes, renamed)
	third, err := OpenServer(append(creds, WithStore(store))...)
	if err != nil {
		t.Fatalf("a change of records after the snapshot: %v", err)
	}
	u, err := third.Client().Users.Get(t.Context(), "alice")
	if err != nil || u.Name != "Alice Two" {
		t.Errorf("the user after the change of records: %+v, %v", u, err)
	}
	third.Close()

	store.changes = append(store.changes, diverging)
	if _, err := OpenServer(WithStore(store)); err == nil || !strings.Contains(err.Error(), "changes of requests follow a snapshot of records") {
		t.Errorf("a request after a snapshot of records: %v", err)
	}
}
