package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

const threadItemJSON = `{"id":"42","sender":"cometchat-uid-1","category":"message","type":"text","data":{"text":"parent"},
	"sentAt":1638423490,"updatedAt":1638423499,"replyCount":3,
	"lastReply":{"id":"45","parentId":"42","sender":"cometchat-uid-2","data":{"text":"latest"},"sentAt":1638423499,
		"editedAt":null,"editedBy":"","deliveredAt":null,"readAt":null,"deletedAt":null}}`

func TestMessagesThreads(t *testing.T) {
	page := `{"data":[` + threadItemJSON + `],"meta":{"current":{"limit":100,"count":1},"next":{"affix":"append","updatedAt":1638423499}}}`
	runMsgWire(t, []msgWireCase{
		{
			name:   "ListThreads",
			call:   func(ctx context.Context, c *chat.Client) (any, error) { return c.Messages.ListThreads(ctx, nil) },
			method: http.MethodGet, path: "/v3/threads", reply: page,
			checkFn: func(t *testing.T, got any) {
				p := asMessagePage(t, got)
				require.Len(t, p.Data, 1)
				parent := p.Data[0]
				assert.Equal(t, "42", parent.ID)
				assert.Equal(t, 3, parent.ReplyCount)
				require.NotNil(t, parent.LastReply)
				assert.Equal(t, "45", parent.LastReply.ID)
				assert.Equal(t, "42", parent.LastReply.ParentID)
				assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, UpdatedAt: 1638423499}, p.Meta.Next)
			},
		},
		{
			name: "ListThreads with every option",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.ListThreads(ctx, &chat.ListThreadsOptions{
					UpdateCursorOptions:  chat.UpdateCursorOptions{Direction: chat.DirectionBefore, UpdatedAt: 1638423499, Limit: 50},
					ParticipatedByMe:     true,
					WithUnreadReplyCount: true,
					WithMentionCount:     true,
				}, chat.OnBehalfOf("cometchat-uid-1"))
			},
			method: http.MethodGet, path: "/v3/threads", obo: "cometchat-uid-1",
			query: map[string]string{"affix": "prepend", "updatedAt": "1638423499", "limit": "50",
				"participatedByMe": "true", "withUnreadReplyCount": "true", "withMentionCount": "true"},
			reply: page,
		},
		{
			name: "SubscribeThread",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.SubscribeThread(ctx, "42", "cometchat-uid-1")
			},
			method: http.MethodPost, path: "/v3/messages/42/thread/subscription", obo: "cometchat-uid-1",
			reply: `{"data":{"success":true}}`,
			checkFn: func(t *testing.T, got any) {
				assert.Equal(t, &chat.Result{Success: true}, got)
			},
		},
		{
			name: "UnsubscribeThread",
			call: func(ctx context.Context, c *chat.Client) (any, error) {
				return c.Messages.UnsubscribeThread(ctx, "4 2", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			method: http.MethodDelete, path: "/v3/messages/4%202/thread/subscription", obo: "cometchat-uid-1",
			reply: `{"data":{"success":true,"message":"Unsubscribed."}}`,
			checkFn: func(t *testing.T, got any) {
				assert.Equal(t, &chat.Result{Success: true, Message: "Unsubscribed."}, got)
			},
		},
	})
	ctx := context.Background()
	runArgs(t, wholeClient, []argCase[*chat.Client]{
		{"SubscribeThread empty id", func(c *chat.Client) error {
			_, err := c.Messages.SubscribeThread(ctx, "", "u")
			return err
		}, "id"},
		{"SubscribeThread empty onBehalfOf", func(c *chat.Client) error {
			_, err := c.Messages.SubscribeThread(ctx, "1", "")
			return err
		}, "onBehalfOf"},
		{"UnsubscribeThread empty onBehalfOf", func(c *chat.Client) error {
			_, err := c.Messages.UnsubscribeThread(ctx, "1", "")
			return err
		}, "onBehalfOf"},
		{"UnsubscribeThread dot-dot id", func(c *chat.Client) error {
			_, err := c.Messages.UnsubscribeThread(ctx, "..", "u")
			return err
		}, "id"},
	})
}

// threadsPage is a page of threads with the given ids and, when next is
// not zero, a meta.next updatedAt cursor.
func threadsPage(next int, ids ...string) string {
	var data []string
	for _, id := range ids {
		data = append(data, fmt.Sprintf(`{"id":%q,"replyCount":1}`, id))
	}
	meta := `{"current":{"limit":2,"count":0}}`
	if next != 0 {
		meta = fmt.Sprintf(`{"current":{"limit":2,"count":%d},"next":{"affix":"append","updatedAt":%d}}`, len(ids), next)
	}
	return `{"data":[` + strings.Join(data, ",") + `],"meta":` + meta + `}`
}

func TestMessagesAllThreads(t *testing.T) {
	tests := []struct {
		name     string
		pages    map[string]string
		wantIDs  []string
		wantErr  error
		cursors  []string
		wantAffx []string
	}{
		{
			name:    "follows updatedAt to an empty page",
			pages:   map[string]string{"": threadsPage(100, "1", "2"), "100": threadsPage(200, "3", "4"), "200": threadsPage(0)},
			wantIDs: []string{"1", "2", "3", "4"},
			cursors: []string{"", "100", "200"},
		},
		{
			name:    "stops without a next cursor",
			pages:   map[string]string{"": threadsPage(100, "1", "2"), "100": threadsPage(0, "3")},
			wantIDs: []string{"1", "2", "3"},
			cursors: []string{"", "100"},
		},
		{
			name:    "a repeating cursor stalls",
			pages:   map[string]string{"": threadsPage(100, "1", "2"), "100": threadsPage(100, "3")},
			wantIDs: []string{"1", "2", "3"},
			wantErr: chat.ErrPaginationStalled,
			cursors: []string{"", "100"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t)
			m.ServePages("updatedAt", tt.pages)
			opts := &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 2}, ParticipatedByMe: true}
			ids, errs := collect(m.client.Messages.AllThreads(context.Background(), opts, chat.OnBehalfOf("u1")), messageID)
			assertYielded(t, ids, errs, tt.wantIDs, tt.wantErr)
			var cursors []string
			for _, r := range m.Requests() {
				assert.Equal(t, "/v3/threads", r.Path)
				assert.Equal(t, "2", r.Query.Get("limit"))
				assert.Equal(t, "true", r.Query.Get("participatedByMe"))
				assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
				assert.Empty(t, r.Query.Get("id"), "no id cursor on threads")
				if r.Query.Get("updatedAt") != "" {
					assert.Equal(t, "append", r.Query.Get("affix"))
				}
				cursors = append(cursors, r.Query.Get("updatedAt"))
			}
			assert.Equal(t, tt.cursors, cursors)
			assert.Equal(t, chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 2}, ParticipatedByMe: true}, *opts, "opts modified")
		})
	}
}
