package fake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/memstore"
)

// TestReplayRebuildsTheState changes a server at random (see
// randomWorld), then opens its store again, and starts a third
// server from its export: each must hold exactly the state the first held,
// every field of every record (dumpState), and indexes that follow it.
func TestReplayRebuildsTheState(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			clock := tyingClock(r)
			store := &memstore.Store{}
			srv, err := OpenServer(WithStore(store), clock)
			if err != nil {
				t.Fatal(err)
			}
			w := &randomWorld{t: t, r: r, srv: srv, hc: srv.HTTPClient()}
			for range 300 {
				w.step()
			}
			checkRebuilt(t, srv, store, clock)
		})
	}
}

// TestReplayRebuildsEveryArea changes every area of a server (everyArea),
// then opens its store again and starts another server from its export:
// each must hold exactly the state the first held.
func TestReplayRebuildsEveryArea(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := WithClock(func() time.Time { now = now.Add(time.Second); return now })
	store := &memstore.Store{}
	srv, err := OpenServer(WithStore(store), clock, withPipes())
	if err != nil {
		t.Fatal(err)
	}
	if failed := everyArea(t, srv); failed > 0 {
		t.Errorf("%d calls failed", failed)
	}
	checkRebuilt(t, srv, store, clock)
}

// checkRebuilt opens what srv's store holds as a kill of srv would leave
// it (changes of records only, after no snapshot), then closes srv, whose
// store is store, opens the store again and starts a server from srv's
// export, all with clock: each must hold exactly the state srv held, and
// indexes that follow it.
func checkRebuilt(t *testing.T, srv *Server, store *memstore.Store, clock Option) {
	t.Helper()
	checkSnapshot(t, srv, clock)
	want := lockedDump(srv)
	killed := store.Killed()
	checkOnlyRecords(t, killed)
	var export bytes.Buffer
	if err := srv.Export(&export); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	file := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(file, export.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	own := []Option{WithAPIKey(srv.APIKey()), WithManagementCredentials(srv.ManagementKey(), srv.ManagementSecret())}
	for _, opt := range []Option{WithStore(killed), WithStore(store), WithSeedFile(file)} {
		again, err := OpenServer(append(own, opt, clock)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := lockedDump(again); got != want {
			t.Errorf("the state rebuilt differs: %s", diffLines(want, got))
		}
		if err := again.st.checkIndexes(); err != nil {
			t.Error(err)
		}
		again.Close()
	}
}

// checkOnlyRecords checks that every change store holds is records: no
// request or seeding call, which opening would replay through handlers.
func checkOnlyRecords(t *testing.T, store Store) {
	t.Helper()
	kept, err := store.Changes()
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range kept {
		var ch change
		if err := json.Unmarshal(b, &ch); err != nil {
			t.Fatal(err)
		}
		if ch.Records == nil && ch.State == nil || ch.Method != "" || ch.Seed != "" {
			t.Errorf("change %d is not records: %.200s", i+1, b)
		}
	}
}

func lockedDump(s *Server) string {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return dumpState(s.st)
}

// TestReadsChangeNothingUnjournaled sends every GET route of the chat,
// management and client APIs, as the app, on behalf of a user and as a
// logged-in user, to a server holding something of every area
// (everyArea): a GET that changes the state must have been journaled, or
// a restart would lose the change (GETs are journaled only when they
// bring lazily kept state up to date). Every dashboard page must change
// nothing at all: it is never journaled.
func TestReadsChangeNothingUnjournaled(t *testing.T) {
	srv, err := OpenServer(WithStore(&memstore.Store{}), withPipes())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if failed := everyArea(t, srv); failed > 0 {
		t.Fatalf("%d calls failed", failed)
	}
	st := srv.st
	st.mu.Lock()
	values := map[string]string{
		"{apiKey}": srv.APIKey(), "{appId}": srv.AppID(), "{authToken}": string(st.users["alice"].tokens[0].AuthToken),
		"{conversationId}": "alice_user_bob", "{extId}": "polls", "{guid}": "team", "{id}": st.messages[1].m.ID,
		"{keywordId}": "words", "{reaction}": "👍", "{role}": "vip", "{scope}": "participant", "{uid}": "alice", "{webhookId}": "hook",
	}
	for id := range st.rules {
		values["{ruleId}"] = id
	}
	for id := range st.calls {
		values["{sessionId}"] = id
	}
	st.mu.Unlock()
	journaled := func() int {
		changes, err := srv.st.journal.Changes()
		if err != nil {
			t.Fatal(err)
		}
		return len(changes)
	}
	hc := srv.HTTPClient()
	sent, failed := 0, []string(nil) // the GETs, and the routes of those that did not answer 200
	mgmt := map[string]bool{}
	for _, rt := range allMgmtRoutes() {
		mgmt[rt.pattern] = true
	}
	for _, rt := range append(allRoutes(), allMgmtRoutes()...) {
		method, path, _ := strings.Cut(rt.pattern, " ")
		if method != http.MethodGet {
			continue
		}
		path = wildcard.ReplaceAllStringFunc(path, func(w string) string { return url.PathEscape(values[w]) })
		for _, obo := range []string{"", "alice"} {
			before, n := lockedDump(srv), journaled()
			base := srv.URL()
			if mgmt[rt.pattern] {
				base = srv.ManagementURL()
			}
			req, _ := http.NewRequest(method, base+path, nil)
			req.Header.Set("apikey", srv.APIKey())
			req.Header.Set("key", srv.ManagementKey())
			req.Header.Set("secret", srv.ManagementSecret())
			req.Header.Set("appId", srv.AppID())               // the client API (/v3.0),
			req.Header.Set("authToken", values["{authToken}"]) // as alice
			if obo != "" {
				req.Header.Set("onBehalfOf", obo)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			sent++
			if resp.StatusCode != http.StatusOK {
				failed = append(failed, rt.pattern)
			}
			if after := lockedDump(srv); after != before && journaled() == n {
				t.Errorf("%s (onBehalfOf %q) changed the state without journaling it: %s", rt.pattern, obo, diffLines(before, after))
			}
		}
	}
	if len(failed) > sent/4 {
		t.Errorf("%d of %d GETs failed, too many for the check to mean much: %v", len(failed), sent, failed)
	}

	for _, page := range []string{"", "users", "groups", "conversations", "messages?conversation=alice_user_bob", "messages?conversation=group_team", "webhooks", "requests"} {
		before := lockedDump(srv)
		resp, err := hc.Get(srv.DashboardURL() + page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("dashboard page %q: %s", page, resp.Status)
		}
		if after := lockedDump(srv); after != before {
			t.Errorf("the dashboard page %q changed the state: %s", page, diffLines(before, after))
		}
	}
}

// TestUnsavedChangeIsAnError: once the journal cannot be written, the
// request whose change was not saved answers 500, later requests that
// would change the state are refused, and reads are still served.
func TestUnsavedChangeIsAnError(t *testing.T) {
	store := &memstore.Store{}
	srv, err := OpenServer(WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	ctx := context.Background()
	if _, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"}); err != nil {
		t.Fatal(err)
	}
	store.FailAppends(errors.New("the disk went away"))

	for _, uid := range []string{"bob", "carol"} {
		_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
		var apiErr *chat.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusInternalServerError || !strings.Contains(apiErr.Message, "could not be kept") {
			t.Fatalf("creating %s: %v", uid, err)
		}
	}
	if _, ok := srv.User("carol"); ok {
		t.Error("carol was created after the journal failed")
	}
	if _, err := c.Users.Get(ctx, "alice"); err != nil {
		t.Errorf("a read after the failure: %v", err)
	}
}
