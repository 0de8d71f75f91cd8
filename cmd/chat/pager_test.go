package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListsOfCursorsWalkEveryPage checks the pager on the lists whose
// pages follow a cursor of the answer: the threads (meta.next's
// updatedAt, where a short page does not end the list) and the
// notification logs (the logId of a page's last entry): one page by
// default, every item once with --all, as the SDK's iterators list them.
func TestListsOfCursorsWalkEveryPage(t *testing.T) {
	// Each reading of the clock is a second later: every thread has an
	// updatedAt of its own.
	var tick atomic.Int64
	base := time.Unix(1_700_000_000, 0)
	f := newFake(t, chattest.WithClock(func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Second) }))
	client := f.client(t)
	ctx := t.Context()
	for _, uid := range []string{"alice", "bob"} {
		_, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
		require.NoError(t, err)
	}
	tok, err := client.AuthTokens.Create(ctx, "bob", &chat.CreateAuthTokenRequest{})
	require.NoError(t, err)
	_, err = client.Notifications.RegisterPushToken(ctx, &chat.RegisterPushTokenRequest{
		Platform: chat.PushPlatformFCMAndroid, Token: "bob-device", AuthToken: tok.AuthToken})
	require.NoError(t, err)
	// alice writes to bob 130 times (a log entry each, for bob's device),
	// and bob answers each in its thread.
	const n = 130
	for i := range n {
		text := func(to, s string) *chat.SendMessageRequest {
			return &chat.SendMessageRequest{Receiver: to, ReceiverType: chat.ReceiverUser, Category: chat.CategoryMessage,
				Type: chat.MessageTypeText, Data: chat.MessageData{Text: s}}
		}
		m, err := client.Messages.Send(ctx, text("bob", fmt.Sprint(i)), chat.OnBehalfOf("alice"))
		require.NoError(t, err)
		_, err = client.Messages.SendThread(ctx, m.ID, "bob", text("alice", "re "+fmt.Sprint(i)))
		require.NoError(t, err)
	}

	for _, list := range []struct {
		name, path string
		args       []string
		idKey      string
		want       func() []string // every item's id, as the SDK lists them
	}{
		{"threads", "/v3/threads", []string{"messages", "list-threads"}, "id", func() []string {
			var ids []string
			for m, err := range client.Messages.AllThreads(ctx, &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 100}}) {
				require.NoError(t, err)
				ids = append(ids, m.ID)
			}
			return ids
		}},
		{"notification logs", "/v3/notifications/v1/logs", []string{"notifications", "list-logs"}, "_id", func() []string {
			var ids []string
			for l, err := range client.Notifications.AllLogs(ctx, &chat.ListLogsOptions{Limit: 100}) {
				require.NoError(t, err)
				ids = append(ids, l.ID)
			}
			return ids
		}},
	} {
		t.Run(list.name, func(t *testing.T) {
			want := list.want()
			require.Len(t, want, n, "more items than a page holds")
			ids := func(stdout string) []string {
				var items []map[string]any
				require.NoError(t, json.Unmarshal([]byte(stdout), &items))
				var out []string
				for _, it := range items {
					out = append(out, fmt.Sprint(it[list.idKey]))
				}
				return out
			}

			f.rec.reset()
			r := f.ok(t, append(list.args, "--json")...)
			assert.Equal(t, want[:defaultLimit], ids(r.stdout), "the first page")
			calls := f.rec.matching(http.MethodGet, list.path)
			require.Len(t, calls, 1, "one call")
			assert.Contains(t, calls[0].query, fmt.Sprintf("limit=%d", defaultLimit))

			f.rec.reset()
			r = f.ok(t, append(list.args, "--all", "--json")...)
			assert.Equal(t, want, ids(r.stdout), "every item once, in order")
			calls = f.rec.matching(http.MethodGet, list.path)
			assert.GreaterOrEqual(t, len(calls), 2, "pages of 100")
			assert.NotContains(t, calls[0].query, "logId")
			assert.NotContains(t, calls[0].query, "updatedAt")
			for _, c := range calls {
				assert.Equal(t, http.StatusOK, c.status, c.query)
			}
		})
	}
}
