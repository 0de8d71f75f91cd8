package chattest_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// TestExportStopAndResume walks lists as an exporter does: it writes items
// until it stops, and a later run resumes from what it wrote. The two runs
// together see every item once, in the list's order, and no run asks for a
// page after a short one.
func TestExportStopAndResume(t *testing.T) {
	srv, client := start(t)
	ctx := t.Context()
	var uids []string
	for i := range 25 {
		uid := fmt.Sprintf("u%02d", i)
		uids = append(uids, uid)
		seed(srv, uid)
	}

	t.Run("a page-based list resumes at the count written", func(t *testing.T) {
		for _, stopAt := range []int{0, 1, 9, 10, 11, 24, 25} {
			t.Run(fmt.Sprint("stop after ", stopAt), func(t *testing.T) {
				opts := &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 10}}
				var written []string
				for u, err := range client.Users.All(ctx, opts) {
					require.NoError(t, err)
					if len(written) == stopAt {
						break
					}
					written = append(written, u.UID)
				}
				srv.ResetRequests()
				opts.ResumeAt(len(written))
				for u, err := range client.Users.All(ctx, opts) {
					require.NoError(t, err)
					written = append(written, u.UID)
				}
				assert.Equal(t, uids, written, "every user once, in order")
				pages := 0
				for _, r := range srv.Requests() {
					assert.Equal(t, "GET /v3/users", r.Route)
					pages++
				}
				assert.Equal(t, 3-stopAt/10, pages, "pages from the one holding the next user to the short last one")
			})
		}
	})

	t.Run("ResumeAt with the default page size", func(t *testing.T) {
		opts := &chat.ListUsersOptions{}
		opts.ResumeAt(23)
		var got []string
		for u, err := range client.Users.All(ctx, opts) {
			require.NoError(t, err)
			got = append(got, u.UID)
		}
		assert.Equal(t, uids[23:], got)
		assert.Equal(t, 100, opts.PerPage)
	})

	t.Run("a message list resumes after the last message written", func(t *testing.T) {
		var want []string
		for i := range 23 {
			want = append(want, send(t, client, "u00", toUser("u01", fmt.Sprint("m", i))).ID)
		}
		for _, dir := range []chat.Direction{chat.DirectionAfter, chat.DirectionBefore} {
			if dir == chat.DirectionBefore {
				for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
					want[i], want[j] = want[j], want[i]
				}
			}
			for _, stopAt := range []int{1, 5, 6, 22} {
				t.Run(fmt.Sprint(dir, " stop after ", stopAt), func(t *testing.T) {
					opts := &chat.ListUserMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 5, Direction: dir}}
					var written []string
					var last *chat.Message
					for m, err := range client.Messages.AllUserMessages(ctx, "u01", opts, chat.OnBehalfOf("u00")) {
						require.NoError(t, err)
						if len(written) == stopAt {
							break
						}
						written, last = append(written, m.ID), m
					}
					srv.ResetRequests()
					opts.ResumeAfter(last.ID)
					for m, err := range client.Messages.AllUserMessages(ctx, "u01", opts, chat.OnBehalfOf("u00")) {
						require.NoError(t, err)
						written = append(written, m.ID)
					}
					assert.Equal(t, want, written, "every message once, in order")
					assert.Len(t, srv.Requests(), (len(want)-stopAt)/5+1, "no page after the short last one")
				})
			}
		}
	})
}
