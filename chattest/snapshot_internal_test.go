package chattest

import "testing"

// checkSnapshot loads the snapshot of srv's state into a new server with
// srv's own credentials: it must hold exactly the state srv holds, and
// indexes that follow it.
func checkSnapshot(t *testing.T, srv *Server, clock Option) {
	t.Helper()
	srv.st.mu.Lock()
	want := dumpState(srv.st)
	snap, err := srv.st.snapshotState()
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
	_, err = other.st.loadSnapshot(snap)
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
