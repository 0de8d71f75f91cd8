package chattest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/memstore"
)

// A state exported while a user is online starts a server where that user
// is offline, as of the export: no websocket outlives its server.
func TestSeededUsersAreOffline(t *testing.T) {
	rt := chattest.NewMemTransport()
	srv := chattest.NewServer(chattest.WithExport(), chattest.WithRealtime(rt))
	c := srv.Client()
	seed(srv, "alice", "bob")
	online(t, rt, srv, c, "alice", "")
	during, err := c.Users.Get(context.Background(), "alice")
	require.NoError(t, err)
	require.Equal(t, chat.UserAvailable, during.Status)
	c.CloseIdleConnections()
	file := exportFile(t, srv)

	for _, opts := range [][]chattest.Option{{chattest.WithSeedFile(file)}, {chattest.WithSeedFile(file), chattest.WithStore(&memstore.Store{})}} {
		seeded, err := chattest.OpenServer(opts...)
		require.NoError(t, err)
		u, ok := seeded.User("alice")
		require.True(t, ok)
		assert.Equal(t, chat.UserOffline, u.Status)
		assert.GreaterOrEqual(t, u.LastActiveAt, during.LastActiveAt, "as of the export")
		seeded.Close()
	}
}

// exportFile exports the state of srv to a file, closes srv, and returns
// the file's path.
func exportFile(t *testing.T, srv *chattest.Server) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, srv.Export(&out))
	srv.Close()
	path := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(path, out.Bytes(), 0o600))
	return path
}

// Export then WithSeedFile: the seeded server serves what the file holds,
// and exports the same file.
func TestSeedFileServesWhatItHolds(t *testing.T) {
	ctx := context.Background()
	src := chattest.NewServer(chattest.WithExport())
	c := src.Client()
	faketest.SeedThroughAPI(t, c)
	m, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hello"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	src.AddUser(chat.User{UID: "dave", Name: "Dave", Tags: []string{"seeded"}})
	c.CloseIdleConnections()
	path := exportFile(t, src)
	srv, err := chattest.OpenServer(chattest.WithSeedFile(path), chattest.WithExport())
	require.NoError(t, err)
	defer srv.Close()
	c = srv.Client()
	defer c.CloseIdleConnections()
	got, err := c.Messages.Get(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "hello", got.Data.Text)
	assert.Equal(t, m.SentAt, got.SentAt)
	dave, err := c.Users.Get(ctx, "dave")
	require.NoError(t, err)
	assert.Equal(t, "Dave", dave.Name)
	group, err := c.Groups.Get(ctx, "team")
	require.NoError(t, err)
	assert.Equal(t, 3, group.MembersCount)

	want, err := os.ReadFile(path)
	require.NoError(t, err)
	var again bytes.Buffer
	require.NoError(t, srv.Export(&again))
	type stateFile struct {
		Created time.Time       `json:"created"`
		Records json.RawMessage `json:"records"`
	}
	var before, after stateFile
	require.NoError(t, json.Unmarshal(want, &before))
	require.NoError(t, json.Unmarshal(again.Bytes(), &after))
	assert.Equal(t, before.Created, after.Created)
	assert.JSONEq(t, string(before.Records), string(after.Records), "the same state")
}

// A state file written by hand: requests without status and seeding calls.
func TestSeedFileWrittenByHand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"chattest": 1, "appId": "demo", "created": "2025-01-01T00:00:00Z", "changes": [
{"at": "2025-01-01T00:00:01Z", "seed": "AddUser", "args": {"uid": "alice", "name": "Alice"}},
{"at": "2025-01-01T00:00:02Z", "method": "POST", "path": "/v3/users", "key": 1, "body": {"uid": "bob", "name": "Bob"}},
{"at": "2025-01-01T00:00:03Z", "method": "POST", "path": "/v3/messages", "key": 1, "onBehalfOf": "alice", "body": {"receiver": "bob", "receiverType": "user", "data": {"text": "Welcome!"}}}
]}`), 0o600))
	srv, err := chattest.OpenServer(chattest.WithAppID("demo"), chattest.WithSeedFile(path))
	require.NoError(t, err)
	defer srv.Close()
	c := srv.Client()
	defer c.CloseIdleConnections()
	page, err := c.Messages.ListUserMessages(context.Background(), "bob", nil, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, "Welcome!", page.Data[0].Data.Text)
	assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 3, 0, time.UTC), page.Data[0].SentAt.Time().UTC())
}

// What stops the options is reported by OpenServer, and by every request
// of a server from NewServer.
func TestStateOptionsReportTheirProblems(t *testing.T) {
	store := &memstore.Store{}
	first, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	_, err = chattest.OpenServer(chattest.WithStore(store))
	assert.ErrorContains(t, err, "is in use by another server")
	first.Close()

	_, err = chattest.OpenServer(chattest.WithAppID("other"), chattest.WithStore(store))
	assert.EqualError(t, err, `chattest: the memory store holds the state of app "test-app", not of "other"`)
	reopened, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err, "the store a refused opening closed opens again")
	reopened.Close()

	missing := filepath.Join(t.TempDir(), "missing.json")
	_, err = chattest.OpenServer(chattest.WithSeedFile(missing))
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)

	diverging := filepath.Join(t.TempDir(), "diverging.json")
	require.NoError(t, os.WriteFile(diverging, []byte(`{"chattest": 1, "appId": "test-app", "created": "2025-01-01T00:00:00Z", "changes": [
{"at": "2025-01-01T00:00:01Z", "method": "GET", "path": "/v3/users/nobody", "key": 1, "status": 200}]}`), 0o600))
	_, err = chattest.OpenServer(chattest.WithSeedFile(diverging))
	assert.ErrorContains(t, err, "change 1: GET /v3/users/nobody answered 404, not 200 as when it was made")

	srv := chattest.NewServer(chattest.WithSeedFile(missing))
	defer srv.Close()
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	_, err = c.Users.Get(context.Background(), "alice")
	var apiErr *chat.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)
	assert.Contains(t, apiErr.DevMessage, "missing.json")

	plain := chattest.NewServer()
	defer plain.Close()
	assert.NoError(t, plain.Export(&bytes.Buffer{}), "a server without a store exports its state too")
}

// A request that was answered with an error changed nothing, and opening
// does not serve it again: a state file (or data directory) written by a
// release that kept such requests opens whatever today's handlers answer
// them (a repeated create answered 409 then, and another error now).
func TestSeedFileSkipsRequestsAnsweredWithAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "old.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"chattest": 1, "appId": "test-app", "created": "2025-01-01T00:00:00Z", "changes": [
{"at": "2025-01-01T00:00:01Z", "method": "POST", "path": "/v3/users", "key": 1, "body": {"uid": "alice", "name": "Alice"}, "status": 200},
{"at": "2025-01-01T00:00:02Z", "method": "POST", "path": "/v3/users", "key": 1, "body": {"uid": "alice", "name": "Alice again"}, "status": 418},
{"at": "2025-01-01T00:00:03Z", "method": "GET", "path": "/v3/users/nobody", "key": 1, "status": 404}]}`), 0o600))
	srv, err := chattest.OpenServer(chattest.WithSeedFile(file))
	require.NoError(t, err)
	defer srv.Close()
	c := srv.Client(chat.WithoutRetries())
	defer c.CloseIdleConnections()
	u, err := c.Users.Get(context.Background(), "alice")
	require.NoError(t, err)
	assert.Equal(t, "Alice", u.Name, "the request answered with an error changed nothing")
}

// The state file holds the state, versioned, without the server's own
// API key.
func TestExportShowsNoKey(t *testing.T) {
	srv := chattest.NewServer(chattest.WithAPIKey("my-secret-key-123"))
	defer srv.Close()
	c := srv.Client()
	defer c.CloseIdleConnections()
	_, err := c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, srv.Export(&out))
	assert.NotContains(t, out.String(), "my-secret-key-123")
	var f struct {
		Format  int             `json:"chattest"`
		AppID   string          `json:"appId"`
		Records json.RawMessage `json:"records"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &f))
	assert.Equal(t, 3, f.Format)
	assert.Equal(t, "test-app", f.AppID)
	assert.Contains(t, string(f.Records), `"Alice"`)
}

// What was deleted for good is not in an export, nor in the state a data
// directory keeps: a user's name and metadata, a message's text.
func TestExportForgetsWhatWasDeletedForGood(t *testing.T) {
	store := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	ctx := context.Background()
	c := srv.Client()
	defer c.CloseIdleConnections()
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "zed", Name: "Zed Forgottenname", Metadata: map[string]any{"secret": "forgotten-metadata"}})
	require.NoError(t, err)
	seed(srv, "alice", "bob")
	m, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "forgotten text"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, srv.Export(&out))
	require.Contains(t, out.String(), "forgotten text", "the export holds the message before its deletion")

	_, err = c.Messages.Delete(ctx, m.ID, &chat.DeleteMessageRequest{Permanent: true}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = c.Users.Delete(ctx, "zed", &chat.DeleteUserRequest{Permanent: true})
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, srv.Export(&out))
	for _, gone := range []string{"Forgottenname", "forgotten-metadata", "forgotten text"} {
		assert.NotContains(t, out.String(), gone)
	}
	srv.Close()

	again, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	defer again.Close()
	_, ok := again.User("zed")
	assert.False(t, ok)
	out.Reset()
	require.NoError(t, again.Export(&out))
	assert.NotContains(t, out.String(), "forgotten text")
}

// BenchmarkReplay starts a server from a state file of 1,000 users and
// 100,000 messages sent through the API between them, and reports the
// time per change replayed (ns/change) and for the whole file
// (s/100k-messages): what starting a data directory that size costs.
func BenchmarkReplay(b *testing.B) {
	const users, messages = 1000, 100_000
	var file bytes.Buffer
	file.WriteString(`{"chattest":1,"appId":"test-app","created":"2025-01-01T00:00:00Z","changes":[`)
	at := time.Date(2025, 1, 1, 0, 0, 1, 0, time.UTC)
	for i := range users {
		if i > 0 {
			file.WriteString(",")
		}
		fmt.Fprintf(&file, "\n{\"at\":%q,\"method\":\"POST\",\"path\":\"/v3/users\",\"key\":1,\"body\":{\"uid\":\"user-%d\",\"name\":\"User %d\"},\"status\":200}", at.Format(time.RFC3339), i, i)
	}
	for i := range messages {
		at = at.Add(10 * time.Millisecond)
		fmt.Fprintf(&file, ",\n{\"at\":%q,\"method\":\"POST\",\"path\":\"/v3/messages\",\"onBehalfOf\":\"user-%d\",\"key\":1,\"body\":{\"receiver\":\"user-%d\",\"receiverType\":\"user\",\"data\":{\"text\":\"Hello number %d\"}},\"status\":200}",
			at.Format(time.RFC3339Nano), i%users, (i+1)%users, i)
	}
	file.WriteString("\n]}\n")
	path := filepath.Join(b.TempDir(), "state.json")
	if err := os.WriteFile(path, file.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("replay", func(b *testing.B) {
		for b.Loop() {
			srv, err := chattest.OpenServer(chattest.WithSeedFile(path))
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := srv.Message(strconv.Itoa(messages)); !ok {
				b.Fatalf("message %d was not replayed", messages)
			}
			srv.Close()
		}
		perOp := b.Elapsed().Seconds() / float64(b.N)
		b.ReportMetric(perOp*1e9/(users+messages), "ns/change")
		b.ReportMetric(perOp, "s/100k-messages")
	})

	// The same state as records (format 3): exporting it, the file's
	// size, and starting a server from it.
	srv, err := chattest.OpenServer(chattest.WithSeedFile(path))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var snap bytes.Buffer
	b.Run("export", func(b *testing.B) {
		for b.Loop() {
			snap.Reset()
			if err := srv.Export(&snap); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/100k-messages")
		b.ReportMetric(float64(snap.Len())/(1<<20), "MiB")
	})
	snapPath := filepath.Join(b.TempDir(), "snapshot.json")
	if err := os.WriteFile(snapPath, snap.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			srv, err := chattest.OpenServer(chattest.WithSeedFile(snapPath))
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := srv.Message(strconv.Itoa(messages)); !ok {
				b.Fatalf("message %d was not loaded", messages)
			}
			srv.Close()
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/100k-messages")
	})
}

// A data directory opens under another import limit than the one its
// changes were made under: a replayed import is admitted, and one the
// limit refused (which changed nothing) is not kept.
func TestDataDirOpensUnderAnotherImportLimit(t *testing.T) {
	ctx := context.Background()
	imports := func(srv *chattest.Server, from, n int) (refused int) {
		c := srv.Client(chat.WithoutRetries())
		defer c.CloseIdleConnections()
		for i := from; i < from+n; i++ {
			_, err := c.DataImport.ImportUsers(ctx, []chat.ImportUser{{UID: "u" + strconv.Itoa(i), Name: "U"}})
			if errors.Is(err, chat.ErrRateLimited) {
				refused++
				continue
			}
			require.NoError(t, err)
		}
		return refused
	}
	frozen := chattest.WithClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) })

	lifted := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(lifted), chattest.WithDataImportLimit(-1), frozen)
	require.NoError(t, err)
	assert.Zero(t, imports(srv, 0, 70))
	srv.Close()
	srv, err = chattest.OpenServer(chattest.WithStore(lifted), frozen) // 60 a minute
	require.NoError(t, err, "70 imports in a minute, made without a limit, replayed under one")
	_, ok := srv.User("u69")
	assert.True(t, ok)
	srv.Close()

	limited := &memstore.Store{}
	srv, err = chattest.OpenServer(chattest.WithStore(limited), frozen)
	require.NoError(t, err)
	assert.Equal(t, 5, imports(srv, 0, 65))
	srv.Close()
	srv, err = chattest.OpenServer(chattest.WithStore(limited), chattest.WithDataImportLimit(-1), frozen)
	require.NoError(t, err, "imports refused with 429 replayed without a limit")
	defer srv.Close()
	_, ok = srv.User("u59")
	assert.True(t, ok)
	_, ok = srv.User("u60")
	assert.False(t, ok, "an import the limit refused is not made by the replay")
}

// After a restart the request log still hides the credentials issued
// before it: an auth token sent in a message's text shows as redacted.
func TestRequestLogHidesCredentialsIssuedBeforeARestart(t *testing.T) {
	store := &memstore.Store{}
	ctx := context.Background()
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	c := srv.Client()
	u, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice", WithAuthToken: true})
	require.NoError(t, err)
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err)
	c.CloseIdleConnections()
	srv.Close()
	token := string(u.AuthToken)
	require.NotEmpty(t, token)

	srv, err = chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	defer srv.Close()
	c = srv.Client()
	defer c.CloseIdleConnections()
	_, err = c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "my token is " + token}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	reqs := srv.Requests()
	require.NotEmpty(t, reqs)
	last := reqs[len(reqs)-1]
	assert.Equal(t, "POST /v3/messages", last.Route)
	assert.NotContains(t, last.Body, token)
	assert.Contains(t, last.Body, "my token is ")
}

// A seeding method called after the server was closed changes the state
// in memory, as without a store, and nothing in the store: never a
// panic.
func TestSeedingAfterCloseKeepsNothing(t *testing.T) {
	store := &memstore.Store{}
	srv, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.Close()
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	_, ok := srv.User("bob")
	assert.True(t, ok)

	again, err := chattest.OpenServer(chattest.WithStore(store))
	require.NoError(t, err)
	defer again.Close()
	_, ok = again.User("alice")
	assert.True(t, ok)
	_, ok = again.User("bob")
	assert.False(t, ok)
}
