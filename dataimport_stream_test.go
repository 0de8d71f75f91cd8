package chat_test

import (
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// textMessages yields n messages from ann to ben, each with a text of
// chars characters, m000 to m(n-1), sent before the fake's time.
func textMessages(n, chars int) iter.Seq2[chat.ImportMessage, error] {
	return func(yield func(chat.ImportMessage, error) bool) {
		for i := range n {
			m := chat.ImportMessage{MUID: fmt.Sprintf("m%03d", i), Sender: "ann", ReceiverType: chat.ReceiverUser, Receiver: "ben",
				Data: chat.ImportMessageData{Text: strings.Repeat("x", chars)}, SentAt: chat.TimestampOf(faketest.T0) - 100 + chat.Timestamp(i),
				SenderUserDetails: &chat.UserDetails{UID: "ann", Name: "Ann"}, ReceiverUserDetails: &chat.UserDetails{UID: "ben", Name: "Ben"}}
			if !yield(m, nil) {
				return
			}
		}
	}
}

// collectStream ranges over a stream and returns its results and the error that
// ended it.
func collectStream[T any](seq iter.Seq2[chat.StreamResult[T], error]) ([]chat.StreamResult[T], error) {
	var out []chat.StreamResult[T]
	for r, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func TestStreamImport(t *testing.T) {
	t.Run("requests are cut under the request limit as well as at 50 entities", func(t *testing.T) {
		srv, client := faketest.Start(t)
		// 60 messages of 40,000 characters: 2.4 MB, more than two requests
		// of 1 MiB hold.
		res, err := collectStream(client.DataImport.StreamMessages(t.Context(), textMessages(60, 40_000), fastImport()))
		require.NoError(t, err)
		require.Len(t, res, 60)
		for i, r := range res {
			require.NoError(t, r.Err, "message %d", i)
			assert.Equal(t, i, r.Index)
			assert.Equal(t, i+1, r.Done)
		}
		assert.Equal(t, 3, srv.RequestCount(importMessagesRoute), "26 messages a request at most")
	})

	t.Run("an entity too large for a request is refused, the others go", func(t *testing.T) {
		srv, client := faketest.Start(t)
		msgs := func(yield func(chat.ImportMessage, error) bool) {
			for m := range textMessages(3, 10) {
				if m.MUID == "m001" {
					m.Data.Text = strings.Repeat("y", chat.MaxImportRequestBytes)
				}
				if !yield(m, nil) {
					return
				}
			}
		}
		res, err := collectStream(client.DataImport.StreamMessages(t.Context(), msgs, fastImport()))
		require.NoError(t, err)
		require.Len(t, res, 3)
		assert.True(t, res[0].Success)
		wiretest.RequireArgError(t, res[1].Err, "messages[1]")
		assert.Contains(t, res[1].Err.Error(), "a request takes at most 1048576")
		assert.Equal(t, 2, res[1].Done)
		assert.True(t, res[2].Success)
		assert.Equal(t, 1, srv.RequestCount(importMessagesRoute))
	})

	t.Run("read errors and invalid entities get their own result, in order", func(t *testing.T) {
		_, client := faketest.Start(t)
		unreadable := errors.New("line 2: not JSON")
		users := func(yield func(chat.ImportUser, error) bool) {
			_ = yield(chat.ImportUser{UID: "ann", Name: "Ann"}, nil) &&
				yield(chat.ImportUser{}, unreadable) &&
				yield(chat.ImportUser{UID: "bad uid", Name: "Bad"}, nil) &&
				yield(chat.ImportUser{UID: "ben", Name: "Ben"}, nil)
		}
		res, err := collectStream(client.DataImport.StreamUsers(t.Context(), users, fastImport()))
		require.NoError(t, err)
		require.Len(t, res, 4)
		assert.True(t, res[0].Success)
		assert.ErrorIs(t, res[1].Err, unreadable)
		wiretest.RequireArgError(t, res[2].Err, "users[2].uid")
		assert.True(t, res[3].Success)
		assert.Equal(t, "ben", res[3].Key)
		assert.Equal(t, []int{1, 2, 3, 4}, []int{res[0].Done, res[1].Done, res[2].Done, res[3].Done})
	})

	t.Run("a repeated id starts the next request", func(t *testing.T) {
		srv, client := faketest.Start(t)
		users := func(yield func(chat.ImportUser, error) bool) {
			_ = yield(chat.ImportUser{UID: "ann", Name: "Ann"}, nil) &&
				yield(chat.ImportUser{UID: "ANN", Name: "Ann again"}, nil)
		}
		res, err := collectStream(client.DataImport.StreamUsers(t.Context(), users, fastImport()))
		require.NoError(t, err)
		require.Len(t, res, 2)
		assert.True(t, res[0].Success)
		faketest.RequireImportError(t, res[1].Err, "ERR_UID_ALREADY_EXISTS")
		assert.Equal(t, 2, srv.RequestCount(importUsersRoute))
	})

	t.Run("a failed request ends the stream; Done stops before it", func(t *testing.T) {
		srv, client := faketest.Start(t)
		require.NoError(t, srv.Fail(chattest.Fault{Route: importUsersRoute, Delay: 1, Times: 1}))
		require.NoError(t, srv.Fail(chattest.Fault{Route: importUsersRoute, Kind: chattest.FaultStatus, Status: http.StatusServiceUnavailable, Times: 10}))
		users := func(yield func(chat.ImportUser, error) bool) {
			for _, u := range importUsers(500) {
				if !yield(u, nil) {
					return
				}
			}
		}
		var res []chat.StreamResult[chat.User]
		var stop error
		for r, err := range client.DataImport.StreamUsers(t.Context(), users, &chat.BulkOptions{RequestsPerMinute: 6_000_000}) {
			if err != nil {
				stop = err
				break
			}
			res = append(res, r)
		}
		require.Error(t, stop)
		var ce *chat.Error
		require.ErrorAs(t, stop, &ce)
		assert.Equal(t, http.StatusServiceUnavailable, ce.StatusCode)
		require.Len(t, res, 100, "the first request's results, then the second's with its error")
		assert.Equal(t, 50, res[49].Done)
		for _, r := range res[50:] {
			assert.Equal(t, 50, r.Done, "a restart sends the failed request's entities again")
			assert.ErrorIs(t, r.Err, stop)
		}
		assert.Equal(t, 2, srv.RequestCount(importUsersRoute), "no request after the failure")
	})
}
