package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// echoImport answers every entity of an import request with success and
// the entity itself as data, and records the keys of each request.
type echoImport struct {
	prop string
	keys [][]string
}

func (e *echoImport) answer(raw []byte) (*http.Response, error) {
	var body map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	out := map[string]any{}
	var keys []string
	for k, v := range body[e.prop] {
		keys = append(keys, k)
		out[k] = map[string]any{"success": true, "data": v}
	}
	sort.Strings(keys)
	e.keys = append(e.keys, keys)
	b, err := json.Marshal(map[string]any{"data": out})
	if err != nil {
		return nil, err
	}
	return wiretest.JSONResponse(http.StatusOK, string(b)), nil
}

// serveImport makes m answer import requests through e, except those
// refuse answers (by request number, from 1) with a response of its own.
func serveImport(m *wiretest.Mock, e *echoImport, refuse func(n int) *http.Response) {
	m.Serve(func(n int, _ *http.Request) (*http.Response, error) {
		if refuse != nil {
			if resp := refuse(n); resp != nil {
				return resp, nil
			}
		}
		return e.answer(m.Requests()[n-1].Body)
	})
}

// fast paces a bulk import so that tests do not wait.
var fast = &chat.BulkOptions{RequestsPerMinute: 6_000_000}

func numberedUsers(n int) []chat.ImportUser {
	users := make([]chat.ImportUser, n)
	for i := range users {
		users[i] = chat.ImportUser{UID: fmt.Sprintf("u%03d", i), Name: fmt.Sprint("User ", i)}
	}
	return users
}

func TestBulkImportChunks(t *testing.T) {
	ctx := context.Background()

	t.Run("120 users in requests of 50, 50 and 20", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, nil)
		users := numberedUsers(120)
		var progress []chat.BulkProgress
		opts := *fast
		opts.Progress = func(p chat.BulkProgress) { progress = append(progress, p) }

		res, err := client.DataImport.BulkImportUsers(ctx, users, &opts)
		require.NoError(t, err)
		require.Len(t, res, 120)
		for i, r := range res {
			assert.Equal(t, i, r.Index)
			assert.Equal(t, users[i].UID, r.Key)
			assert.True(t, r.Success)
			require.NoError(t, r.Err)
			assert.Equal(t, users[i].Name, r.Data.Name)
		}
		reqs := m.Requests()
		require.Len(t, reqs, 3)
		for _, r := range reqs {
			wiretest.ChatWire.Sent(t, r, http.MethodPost, "/v3/data_import/users")
		}
		require.Len(t, e.keys, 3)
		assert.Len(t, e.keys[0], 50)
		assert.Len(t, e.keys[1], 50)
		assert.Len(t, e.keys[2], 20)
		assert.Equal(t, "u000", e.keys[0][0], "in the order given")
		assert.Equal(t, "u050", e.keys[1][0])
		assert.Equal(t, "u119", e.keys[2][19])
		assert.Equal(t, []chat.BulkProgress{
			{Total: 120, Done: 50, Succeeded: 50, Requests: 1},
			{Total: 120, Done: 100, Succeeded: 100, Requests: 2},
			{Total: 120, Done: 120, Succeeded: 120, Requests: 3},
		}, progress)
	})

	t.Run("a smaller batch size", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "members"}
		serveImport(m, e, nil)
		members := []chat.ImportMember{{GUID: "g", UID: "a"}, {GUID: "g", UID: "b"}, {GUID: "h", UID: "a"}}
		res, err := client.DataImport.BulkImportMembers(ctx, members, &chat.BulkOptions{BatchSize: 2, RequestsPerMinute: 6_000_000})
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"g_member_a", "g_member_b"}, {"h_member_a"}}, e.keys)
		assert.Equal(t, "h_member_a", res[2].Key)
		assert.Equal(t, &chat.ImportedMember{GUID: "h", UID: "a"}, res[2].Data)
	})

	t.Run("entities the SDK refuses are not sent, the others are", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "messages"}
		serveImport(m, e, nil)
		msg := func(muid string, sentAt chat.Timestamp) chat.ImportMessage {
			return chat.ImportMessage{MUID: muid, Sender: "ann", ReceiverType: chat.ReceiverUser, Receiver: "ben", SentAt: sentAt}
		}
		msgs := []chat.ImportMessage{msg("a", 1), msg("", 2), msg("b", 3), msg("a", 4), msg("c", 5)}
		msgs[4].ReceiverType = "channel"
		res, err := client.DataImport.BulkImportMessages(ctx, msgs, fast)
		require.NoError(t, err)
		assert.Equal(t, [][]string{{"a", "b"}}, e.keys)
		assert.True(t, res[0].Success)
		wiretest.RequireArgError(t, res[1].Err, "messages[1].muid")
		assert.True(t, res[2].Success)
		wiretest.RequireArgError(t, res[3].Err, "messages[3].muid")
		wiretest.RequireArgError(t, res[4].Err, "messages[4].receiverType")
		assert.Equal(t, chat.Timestamp(3), res[2].Data.SentAt)
	})

	t.Run("nothing to import sends nothing", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		res, err := client.DataImport.BulkImportGroups(ctx, nil, nil)
		require.NoError(t, err)
		assert.Empty(t, res)
		assert.Zero(t, m.Calls())
	})
}

func TestBulkImportRateLimited(t *testing.T) {
	ctx := context.Background()

	t.Run("a 429 is sent again once, and nothing is imported twice", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
			}
			return nil
		})
		res, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(120), fast)
		require.NoError(t, err)
		for _, r := range res {
			require.True(t, r.Success, r.Key)
		}
		assert.Equal(t, 4, m.Calls(), "the refused request went again")
		require.Len(t, e.keys, 3, "three requests were processed")
		seen := map[string]bool{}
		for _, keys := range e.keys {
			for _, k := range keys {
				assert.False(t, seen[k], "%s imported twice", k)
				seen[k] = true
			}
		}
		assert.Len(t, seen, 120)
	})

	t.Run("a wait beyond the context's deadline stops at once", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "3600")
			}
			return nil
		})
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		start := time.Now()
		res, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(120), fast)
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 3600*time.Second, wiretest.RequireAPIError(t, err).RetryAfter)
		assert.Equal(t, 2, m.Calls())
		assert.True(t, res[49].Success)
		assert.ErrorIs(t, res[50].Err, chat.ErrRateLimited, "refused, so not imported")
		assert.ErrorIs(t, res[100].Err, chat.ErrNotSent)
		assert.ErrorIs(t, res[100].Err, chat.ErrRateLimited, "ErrNotSent wraps the cause")
	})

	t.Run("a wait beyond the client's cap stops at once, without a deadline", func(t *testing.T) {
		for _, retryAfter := range []string{"3600", "99999999999999999999999", "soon", "-1"} {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", retryAfter)
			ctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(3), fast)
				done <- err
			}()
			select {
			case err := <-done:
				assert.ErrorIs(t, err, chat.ErrRateLimited, retryAfter)
				assert.Equal(t, 1, m.Calls(), "Retry-After %s: the refused request is not sent again", retryAfter)
			case <-time.After(10 * time.Second):
				t.Errorf("Retry-After %s: the import is still waiting", retryAfter)
			}
			cancel()
		}
	})

	t.Run("RateLimitRetries bounds the repeats", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
		_, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(3), &chat.BulkOptions{RequestsPerMinute: 6_000_000, RateLimitRetries: 2})
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 3, m.Calls())

		client, m = wiretest.Chat(t)
		m.Reply(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0")
		_, err = client.DataImport.BulkImportUsers(ctx, numberedUsers(3), &chat.BulkOptions{RequestsPerMinute: 6_000_000, RateLimitRetries: -1})
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, 1, m.Calls())
	})

	t.Run("another failure is not sent again and stops the import", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "groups"}
		serveImport(m, e, func(n int) *http.Response {
			if n == 2 {
				return wiretest.JSONResponse(http.StatusInternalServerError, `{"error":{"code":"ERR_MISSION_FAILED"}}`)
			}
			return nil
		})
		groups := make([]chat.ImportGroup, 5)
		for i := range groups {
			groups[i] = chat.ImportGroup{GUID: fmt.Sprint("g", i), Name: "G", Type: chat.GroupPublic}
		}
		var last chat.BulkProgress
		res, err := client.DataImport.BulkImportGroups(ctx, groups, &chat.BulkOptions{BatchSize: 2, RequestsPerMinute: 6_000_000,
			Progress: func(p chat.BulkProgress) { last = p }})
		assert.Equal(t, "ERR_MISSION_FAILED", wiretest.RequireAPIError(t, err).Code)
		assert.Equal(t, 2, m.Calls())
		assert.True(t, res[1].Success)
		assert.Equal(t, "ERR_MISSION_FAILED", wiretest.RequireAPIError(t, res[2].Err).Code, "the request's error: the outcome is unknown")
		assert.NotErrorIs(t, res[2].Err, chat.ErrNotSent)
		assert.ErrorIs(t, res[4].Err, chat.ErrNotSent)
		assert.Equal(t, chat.BulkProgress{Total: 5, Done: 4, Succeeded: 2, Failed: 2, Requests: 2}, last)
	})
}

func TestBulkImportCancel(t *testing.T) {
	client, m := wiretest.Chat(t)
	e := &echoImport{prop: "users"}
	serveImport(m, e, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// One request a minute: only cancelling ends the wait for the second.
	opts := &chat.BulkOptions{RequestsPerMinute: 1, Progress: func(chat.BulkProgress) { cancel() }}
	start := time.Now()
	res, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(120), opts)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, m.Calls())
	require.Len(t, res, 120)
	assert.True(t, res[0].Success)
	assert.True(t, res[49].Success)
	assert.ErrorIs(t, res[50].Err, chat.ErrNotSent)
	assert.ErrorIs(t, res[50].Err, context.Canceled)
	assert.Equal(t, "u119", res[119].Key)

	t.Run("a context already done sends nothing", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(1), fast)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, m.Calls())
	})

	t.Run("a deadline before the next request is due", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		e := &echoImport{prop: "users"}
		serveImport(m, e, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		res, err := client.DataImport.BulkImportUsers(ctx, numberedUsers(60), &chat.BulkOptions{RequestsPerMinute: 1})
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 1, m.Calls())
		assert.True(t, res[0].Success)
		assert.True(t, errors.Is(res[59].Err, chat.ErrNotSent))
	})
}

// TestBulkImportSharedPace checks that bulk imports at the default pace
// share it: a second import right after a first waits for its turn.
func TestBulkImportSharedPace(t *testing.T) {
	client, m := wiretest.Chat(t)
	e := &echoImport{prop: "users"}
	serveImport(m, e, nil)
	_, err := client.DataImport.BulkImportUsers(context.Background(), numberedUsers(1), nil)
	require.NoError(t, err)
	// The next users request is due a second later: a deadline sooner
	// than that stops the second import before it sends anything.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err = client.DataImport.BulkImportUsers(ctx, numberedUsers(1), nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 1, m.Calls())

	// Another endpoint has a pace of its own.
	_, err = client.DataImport.BulkImportGroups(context.Background(), []chat.ImportGroup{{GUID: "g", Name: "G", Type: chat.GroupPublic}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, m.Calls())
}

// End to end, against chattest.

// The fake's routes of the imports.
const (
	importUsersRoute    = "POST /v3/data_import/users"
	importGroupsRoute   = "POST /v3/data_import/groups"
	importMembersRoute  = "POST /v3/data_import/members"
	importMessagesRoute = "POST /v3/data_import/messages"
)

// fastImport paces bulk imports so that tests do not wait.
func fastImport() *chat.BulkOptions { return &chat.BulkOptions{RequestsPerMinute: 6_000_000} }

// importUsers returns n users to import, u000 to u(n-1), created before
// the fake's time.
func importUsers(n int) []chat.ImportUser {
	users := make([]chat.ImportUser, n)
	for i := range users {
		users[i] = chat.ImportUser{UID: fmt.Sprintf("u%03d", i), Name: fmt.Sprint("User ", i), CreatedAt: chat.TimestampOf(faketest.T0) - 1000}
	}
	return users
}

// importedKeys returns the keys of the entities of prop in the bodies of
// the requests to route that the fake processed (answered 200), each as
// often as it was imported.
func importedKeys(t *testing.T, srv *chattest.Server, route, prop string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for _, r := range srv.Requests() {
		if r.Route != route || r.Status != http.StatusOK {
			continue
		}
		var body map[string]map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(r.Body), &body))
		for k := range body[prop] {
			seen[k]++
		}
	}
	return seen
}

func TestBulkImportThroughTheFake(t *testing.T) {
	t.Run("120 users in 3 requests, each imported once", func(t *testing.T) {
		srv, client := faketest.Start(t)
		users := importUsers(120)
		res, err := client.DataImport.BulkImportUsers(t.Context(), users, fastImport())
		require.NoError(t, err)
		require.Len(t, res, 120)
		for i, r := range res {
			assert.Equal(t, i, r.Index)
			assert.Equal(t, users[i].UID, r.Key)
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
			assert.Equal(t, users[i].Name, r.Data.Name)
			assert.Equal(t, users[i].CreatedAt, r.Data.CreatedAt)
		}
		assert.Equal(t, 3, srv.RequestCount(importUsersRoute))
		seen := importedKeys(t, srv, importUsersRoute, "users")
		assert.Len(t, seen, 120)
		for k, n := range seen {
			assert.Equal(t, 1, n, k)
			_, ok := srv.User(k)
			assert.True(t, ok, k)
		}
	})

	t.Run("valid and invalid entities", func(t *testing.T) {
		srv, client := faketest.Start(t)
		faketest.Seed(srv, "u001")
		users := importUsers(60)
		users[3].Name = ""          // the SDK refuses it
		users[7].UID = ""           // the SDK refuses it
		users[9].UID = users[8].UID // a repeat: the SDK refuses it
		users[55].Role = "ghost"    // the service refuses it
		res, err := client.DataImport.BulkImportUsers(t.Context(), users, fastImport())
		require.NoError(t, err, "refused entities do not fail the import")
		imported := 0
		for _, r := range res {
			if r.Success {
				imported++
			}
		}
		assert.Equal(t, 55, imported)
		faketest.RequireImportError(t, res[1].Err, "ERR_UID_ALREADY_EXISTS")
		wiretest.RequireArgError(t, res[3].Err, "users[3].name")
		wiretest.RequireArgError(t, res[7].Err, "users[7].uid")
		wiretest.RequireArgError(t, res[9].Err, "users[9].uid")
		faketest.RequireImportError(t, res[55].Err, "ERR_IMPORT_INVALID_USER_FORMAT")
		assert.True(t, res[8].Success)
		assert.Equal(t, 2, srv.RequestCount(importUsersRoute), "57 users sent, in 2 requests")
	})

	t.Run("cancelling stops at once with the results so far", func(t *testing.T) {
		srv, client := faketest.Start(t)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		// One request a minute: only the cancellation ends the wait.
		opts := &chat.BulkOptions{RequestsPerMinute: 1, Progress: func(chat.BulkProgress) { cancel() }}
		start := time.Now()
		res, err := client.DataImport.BulkImportUsers(ctx, importUsers(120), opts)
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.ErrorIs(t, err, context.Canceled)
		require.Len(t, res, 120)
		assert.True(t, res[49].Success)
		assert.ErrorIs(t, res[50].Err, chat.ErrNotSent)
		assert.Equal(t, 1, srv.RequestCount(importUsersRoute))
		_, ok := srv.User("u049")
		assert.True(t, ok)
		_, ok = srv.User("u050")
		assert.False(t, ok)
	})

	t.Run("a 429 is sent again, and nothing is imported twice", func(t *testing.T) {
		srv, client := faketest.Start(t)
		opts := fastImport()
		requests := 0
		opts.Progress = func(chat.BulkProgress) {
			requests++
			if requests == 1 {
				// The service refuses the next request, without processing it.
				require.NoError(t, srv.Fail(chattest.Fault{Route: importUsersRoute, Kind: chattest.FaultStatus, Status: 429, Times: 1}))
			}
		}
		res, err := client.DataImport.BulkImportUsers(t.Context(), importUsers(120), opts)
		require.NoError(t, err)
		for _, r := range res {
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
		}
		assert.Equal(t, 4, srv.RequestCount(importUsersRoute), "3 requests, one of them twice")
		seen := importedKeys(t, srv, importUsersRoute, "users")
		assert.Len(t, seen, 120)
		for k, n := range seen {
			assert.Equal(t, 1, n, k)
		}
	})

	t.Run("the fake's limit: a wait past the deadline stops, the next minute finishes", func(t *testing.T) {
		clk := faketest.NewClock(faketest.T0)
		srv, client := faketest.Start(t, chattest.WithClock(clk.Now), chattest.WithDataImportLimit(2))
		users := importUsers(120)
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		start := time.Now()
		res, err := client.DataImport.BulkImportUsers(ctx, users, fastImport())
		assert.Less(t, time.Since(start), 10*time.Second, "the server asks for 40s: more than the deadline allows")
		assert.ErrorIs(t, err, chat.ErrRateLimited)
		var retry []chat.ImportUser
		for i, r := range res {
			if !r.Success {
				assert.ErrorIs(t, r.Err, chat.ErrRateLimited)
				retry = append(retry, users[i])
			}
		}
		require.Len(t, retry, 20)

		clk.Set(faketest.T0.Add(time.Minute))
		res, err = client.DataImport.BulkImportUsers(t.Context(), retry, fastImport())
		require.NoError(t, err)
		for _, r := range res {
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
		}
		seen := importedKeys(t, srv, importUsersRoute, "users")
		assert.Len(t, seen, 120)
		for k, n := range seen {
			assert.Equal(t, 1, n, k)
		}
	})

	t.Run("groups, members and messages", func(t *testing.T) {
		srv, client := faketest.Start(t)
		ctx := t.Context()
		groups := make([]chat.ImportGroup, 60)
		members := make([]chat.ImportMember, 0, 120)
		msgs := make([]chat.ImportMessage, 0, 120)
		users := importUsers(2)
		_, err := client.DataImport.BulkImportUsers(ctx, users, fastImport())
		require.NoError(t, err)
		for i := range groups {
			guid := fmt.Sprintf("g%02d", i)
			groups[i] = chat.ImportGroup{GUID: guid, Name: strings.ToUpper(guid), Type: chat.GroupPublic, CreatedAt: chat.TimestampOf(faketest.T0) - 500}
			for _, u := range users {
				members = append(members, chat.ImportMember{GUID: guid, UID: u.UID, JoinedAt: chat.TimestampOf(faketest.T0) - 400})
				msgs = append(msgs, chat.ImportMessage{MUID: guid + "-" + u.UID, Sender: u.UID, ReceiverType: chat.ReceiverGroup, Receiver: guid,
					Data: chat.ImportMessageData{Text: "hello"}, SentAt: chat.TimestampOf(faketest.T0) - 300 + chat.Timestamp(len(msgs))})
			}
		}
		gres, err := client.DataImport.BulkImportGroups(ctx, groups, fastImport())
		require.NoError(t, err)
		mres, err := client.DataImport.BulkImportMembers(ctx, members, fastImport())
		require.NoError(t, err)
		xres, err := client.DataImport.BulkImportMessages(ctx, msgs, fastImport())
		require.NoError(t, err)
		for _, r := range gres {
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
		}
		for _, r := range mres {
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
		}
		for _, r := range xres {
			require.True(t, r.Success, "%s: %v", r.Key, r.Err)
		}
		assert.Equal(t, 2, srv.RequestCount(importGroupsRoute))
		assert.Equal(t, 3, srv.RequestCount(importMembersRoute))
		assert.Equal(t, 3, srv.RequestCount(importMessagesRoute))
		g, ok := srv.Group("g59")
		require.True(t, ok)
		assert.Equal(t, 2, g.MembersCount)
		stored := srv.Messages()
		require.Len(t, stored, 120)
		for i := 1; i < len(stored); i++ {
			assert.Less(t, stored[i-1].SentAt, stored[i].SentAt, "stored in order")
		}
	})
}
