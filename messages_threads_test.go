package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestMessagesSendThread(t *testing.T) {
	const reply = `{"data":{"id":"43","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-2",
		"receiverType":"user","receiver":"cometchat-uid-1","category":"message","type":"text",
		"data":{"text":"On it!"},"sentAt":1638423490,"updatedAt":1638423490,"parentId":"42",
		"editedAt":null,"editedBy":"","deliveredAt":null,"readAt":null,"deletedAt":null}}`
	req := &chat.SendMessageRequest{
		Receiver:          "cometchat-uid-1",
		ReceiverType:      chat.ReceiverUser,
		Category:          chat.CategoryMessage,
		Type:              chat.MessageTypeText,
		Data:              chat.MessageData{Text: "On it!", Metadata: map[string]any{"priority": "high"}},
		MultipleReceivers: &chat.MultipleReceivers{UIDs: []string{"cometchat-uid-3"}, GUIDs: []string{"project-group"}},
		Tags:              []string{"urgent"},
	}

	tests := []struct {
		name     string
		parentID string
		wantPath string
		opts     []chat.RequestOption
	}{
		{name: "plain id", parentID: "42", wantPath: "/v3/messages/42/thread"},
		{name: "positional onBehalfOf wins over the option", parentID: "42", wantPath: "/v3/messages/42/thread",
			opts: []chat.RequestOption{chat.OnBehalfOf("someone-else")}},
		{name: "slash in id stays in its segment", parentID: "4/2", wantPath: "/v3/messages/4%2F2/thread"},
		{name: "query and fragment characters are escaped", parentID: "42?x=1#f", wantPath: "/v3/messages/42%3Fx=1%23f/thread"},
		{name: "dot-dot inside an id", parentID: "../admin", wantPath: "/v3/messages/..%2Fadmin/thread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, reply)

			msg, err := client.Messages.SendThread(context.Background(), tt.parentID, "cometchat-uid-2", req, tt.opts...)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodPost, tt.wantPath)
			assert.Empty(t, r.RawQuery)
			assert.Empty(t, r.Fragment)
			assert.Equal(t, []string{"cometchat-uid-2"}, r.Header.Values("onBehalfOf"))

			// The body is the request, field for field.
			assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
			var sent chat.SendMessageRequest
			require.NoError(t, json.Unmarshal(r.Body, &sent))
			// Without a muid of the caller's, the SDK sends its own,
			// returns it, and leaves req alone.
			assert.Empty(t, req.MUID, "the caller's request is not changed")
			assert.NotEmpty(t, sent.MUID, "muid sent")
			assert.Equal(t, sent.MUID, msg.MUID, "the muid sent is returned")
			sent.MUID = ""
			assert.Equal(t, *req, sent)
			body := decodeBody(t, r)
			assert.Equal(t, map[string]any{"uids": []any{"cometchat-uid-3"}, "guids": []any{"project-group"}}, body["multipleReceivers"])

			assert.Equal(t, "43", msg.ID)
			assert.Equal(t, "42", msg.ParentID)
			assert.Equal(t, "On it!", msg.Data.Text)
			assert.Zero(t, msg.EditedAt, "editedAt null")
			assert.Empty(t, msg.EditedBy)
			assert.Zero(t, msg.DeliveredAt)
		})
	}
}

func TestMessagesSendThreadArguments(t *testing.T) {
	req := &chat.SendMessageRequest{Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}
	tests := []struct {
		name       string
		parentID   string
		onBehalfOf string
		req        *chat.SendMessageRequest
		wantName   string
	}{
		{"empty parentID", "", "cometchat-uid-2", req, "parentID"},
		{"dot parentID", ".", "cometchat-uid-2", req, "parentID"},
		{"dot-dot parentID", "..", "cometchat-uid-2", req, "parentID"},
		{"empty onBehalfOf", "42", "", req, "onBehalfOf"},
		{"both empty names parentID first", "", "", req, "parentID"},
		{"nil request", "42", "cometchat-uid-2", nil, "req"},
		{"header injection in onBehalfOf", "42", "uid\r\nHost: evil", req, "onBehalfOf"},
		{"NUL in onBehalfOf", "42", "uid\x00", req, "onBehalfOf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			msg, err := client.Messages.SendThread(context.Background(), tt.parentID, tt.onBehalfOf, tt.req)
			assert.Nil(t, msg)
			wiretest.RequireArgError(t, err, tt.wantName)
			assert.Zero(t, m.Calls(), "requests sent")
			if tt.onBehalfOf != "" && tt.wantName == "onBehalfOf" {
				assert.NotContains(t, err.Error(), tt.onBehalfOf, "the error shows the value")
			}
		})
	}
}

func TestMessagesListThread(t *testing.T) {
	tests := []struct {
		name      string
		opts      *chat.ListThreadOptions
		reqOpts   []chat.RequestOption
		wantQuery string // raw, as sent
		body      string
		check     func(t *testing.T, p *chat.Page[chat.Message])
	}{
		{
			name:      "no options",
			wantQuery: "",
			body: `{"data":[{"id":"43","parentId":"42","data":{"text":"a"},"sentAt":1638423490}],
				"meta":{"current":{"limit":10,"count":1},"next":{"affix":"append","sentAt":1638423490,"id":"43"}}}`,
			check: func(t *testing.T, p *chat.Page[chat.Message]) {
				require.Len(t, p.Data, 1)
				assert.Equal(t, "43", p.Data[0].ID)
				assert.Equal(t, "42", p.Data[0].ParentID)
				assert.Equal(t, &chat.PageCount{Limit: 10, Count: 1}, p.Meta.Current)
				assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, SentAt: 1638423490, ID: "43"}, p.Meta.Next)
				assert.Nil(t, p.Meta.Pagination)
			},
		},
		{
			name: "every cursor option",
			opts: &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{
				Direction: chat.DirectionBefore, ID: "40", SentAt: 1638423400, Limit: 25,
			}},
			wantQuery: "affix=prepend&id=40&limit=25&sentAt=1638423400",
			body:      `{"data":[],"meta":{"current":{"limit":25,"count":0}}}`,
			check: func(t *testing.T, p *chat.Page[chat.Message]) {
				assert.Empty(t, p.Data)
				assert.Equal(t, &chat.PageCount{Limit: 25, Count: 0}, p.Meta.Current)
				assert.Nil(t, p.Meta.Next)
			},
		},
		{
			name:      "lenient meta: numeric strings and a numeric cursor id",
			opts:      &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 2}},
			wantQuery: "limit=2",
			body: `{"data":[{"id":43,"parentId":42},{"id":"44","parentId":"42"}],
				"meta":{"current":{"limit":"2","count":"2"},"next":{"affix":"append","sentAt":"1638423499","id":44}}}`,
			check: func(t *testing.T, p *chat.Page[chat.Message]) {
				require.Len(t, p.Data, 2)
				assert.Equal(t, "43", p.Data[0].ID)
				assert.Equal(t, "42", p.Data[0].ParentID)
				assert.Equal(t, &chat.PageCount{Limit: 2, Count: 2}, p.Meta.Current)
				assert.Equal(t, &chat.Cursor{Direction: chat.DirectionAfter, SentAt: 1638423499, ID: "44"}, p.Meta.Next)
			},
		},
		{
			name:      "onBehalfOf option",
			reqOpts:   []chat.RequestOption{chat.OnBehalfOf("cometchat-uid-1")},
			wantQuery: "",
			body:      `{"data":[],"meta":{"current":{"limit":10,"count":0}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, tt.body)

			page, err := client.Messages.ListThreadMessages(context.Background(), "42", tt.opts, tt.reqOpts...)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/messages/42/thread")
			assert.Equal(t, tt.wantQuery, r.RawQuery)
			wiretest.NoBody(t, r)
			if len(tt.reqOpts) > 0 {
				assert.Equal(t, "cometchat-uid-1", r.Header.Get("onBehalfOf"))
			} else {
				wiretest.NoOnBehalfOf(t, r)
			}
			if tt.check != nil {
				tt.check(t, page)
			}
		})
	}

	t.Run("empty parentID", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.Messages.ListThreadMessages(context.Background(), "", nil)
		wiretest.RequireArgError(t, err, "parentID")
		assert.Zero(t, m.Calls())
	})
}

func threadPage(next string, ids ...string) string {
	var data []string
	for _, id := range ids {
		data = append(data, fmt.Sprintf(`{"id":%q,"parentId":"42","sentAt":1638423%s}`, id, fmt.Sprintf("%03s", id)))
	}
	meta := fmt.Sprintf(`{"current":{"limit":2,"count":%d}}`, len(ids))
	if next != "" {
		meta = fmt.Sprintf(`{"current":{"limit":2,"count":%d},"next":{"affix":"append","id":%q}}`, len(ids), next)
	}
	return `{"data":[` + strings.Join(data, ",") + `],"meta":` + meta + `}`
}

func TestMessagesAllThread(t *testing.T) {
	tests := []struct {
		name      string
		pages     map[string]string
		wantIDs   []string
		wantErr   error
		wantIDQry []string // the id cursor of each request, in order
	}{
		{
			name: "a short page ends the walk without another request",
			pages: map[string]string{
				"":  threadPage("2", "1", "2"),
				"2": threadPage("4", "3", "4"),
				"4": threadPage("5", "5"),
				"5": threadPage("5"),
			},
			wantIDs:   []string{"1", "2", "3", "4", "5"},
			wantIDQry: []string{"", "2", "4"},
		},
		{
			name: "a full page then an empty one",
			pages: map[string]string{
				"":  threadPage("2", "1", "2"),
				"2": threadPage("4", "3", "4"),
				"4": threadPage("4"),
			},
			wantIDs:   []string{"1", "2", "3", "4"},
			wantIDQry: []string{"", "2", "4"},
		},
		{
			name: "three pages, the last without a next cursor",
			pages: map[string]string{
				"":  threadPage("2", "1", "2"),
				"2": threadPage("4", "3", "4"),
				"4": threadPage("", "5"),
			},
			wantIDs:   []string{"1", "2", "3", "4", "5"},
			wantIDQry: []string{"", "2", "4"},
		},
		{
			name: "a repeating cursor stalls",
			pages: map[string]string{
				"":  threadPage("2", "1", "2"),
				"2": threadPage("2", "3", "4"),
			},
			wantIDs:   []string{"1", "2", "3", "4"},
			wantErr:   chat.ErrPaginationStalled,
			wantIDQry: []string{"", "2"},
		},
		{
			name:      "an empty first page",
			pages:     map[string]string{"": threadPage("9")},
			wantIDQry: []string{""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.ServePages("id", tt.pages)
			opts := &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 2}}

			ids, errs := collect(client.Messages.AllThreadMessages(context.Background(), "42", opts), messageID)
			assertYielded(t, ids, errs, tt.wantIDs, tt.wantErr)

			var got []string
			for _, r := range m.Requests() {
				assert.Equal(t, "/v3/messages/42/thread", r.Path)
				assert.Equal(t, "2", r.Query.Get("limit"), "limit kept on every page")
				got = append(got, r.Query.Get("id"))
				if r.Query.Get("id") != "" {
					assert.Equal(t, "append", r.Query.Get("affix"), "affix from meta.next")
				}
			}
			assert.Equal(t, tt.wantIDQry, got)
			assert.Equal(t, chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 2}}, *opts, "opts modified")
		})
	}

	t.Run("ranging twice starts afresh", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{"": threadPage("2", "1", "2"), "2": threadPage("", "3")})
		seq := client.Messages.AllThreadMessages(context.Background(), "42", nil)
		first, _ := collect(seq, messageID)
		second, _ := collect(seq, messageID)
		assert.Equal(t, []string{"1", "2", "3"}, first)
		assert.Equal(t, first, second)
		assert.Equal(t, 4, m.Calls())
	})

	t.Run("breaking out stops fetching", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{"": threadPage("2", "1", "2"), "2": threadPage("", "3")})
		for range client.Messages.AllThreadMessages(context.Background(), "42", nil) {
			break
		}
		assert.Equal(t, 1, m.Calls())
	})

	t.Run("cancelled context stops it", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.ServePages("id", map[string]string{"": threadPage("2", "1", "2"), "2": threadPage("", "3")})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var last error
		n := 0
		for msg, err := range client.Messages.AllThreadMessages(ctx, "42", nil) {
			n++
			require.Less(t, n, 10, "iterator did not stop")
			if err != nil {
				last = err
				continue
			}
			if msg.ID == "1" {
				cancel()
			}
		}
		assert.ErrorIs(t, last, context.Canceled)
		assert.Equal(t, 1, m.Calls(), "fetched a page after the context was cancelled")
	})

	t.Run("an API error is yielded and ends it", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_MSG_NOT_FOUND","message":"no such message"}}`)
		ids, errs := collect(client.Messages.AllThreadMessages(context.Background(), "42", nil), messageID)
		assert.Empty(t, ids)
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], chat.ErrNotFound)
	})

	t.Run("empty parentID", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, errs := collect(client.Messages.AllThreadMessages(context.Background(), "", nil), messageID)
		require.Len(t, errs, 1)
		wiretest.RequireArgError(t, errs[0], "parentID")
		assert.Zero(t, m.Calls())
	})
}

const threadItemJSON = `{"id":"42","sender":"cometchat-uid-1","category":"message","type":"text","data":{"text":"parent"},
	"sentAt":1638423490,"updatedAt":1638423499,"replyCount":3,
	"lastReply":{"id":"45","parentId":"42","sender":"cometchat-uid-2","data":{"text":"latest"},"sentAt":1638423499,
		"editedAt":null,"editedBy":"","deliveredAt":null,"readAt":null,"deletedAt":null}}`

func TestMessagesThreads(t *testing.T) {
	ctx := context.Background()
	page := `{"data":[` + threadItemJSON + `],"meta":{"current":{"limit":100,"count":1},"next":{"affix":"append","updatedAt":1638423499}}}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "ListThreads",
			Call:   func(c *chat.Client) (any, error) { return c.Messages.ListThreads(ctx, nil) },
			Method: http.MethodGet, Path: "/v3/threads", Reply: page,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
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
			Name: "ListThreads with every option",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.ListThreads(ctx, &chat.ListThreadsOptions{
					UpdateCursorOptions:  chat.UpdateCursorOptions{Direction: chat.DirectionBefore, UpdatedAt: 1638423499, Limit: 50},
					ParticipatedByMe:     true,
					WithUnreadReplyCount: true,
					WithMentionCount:     true,
				}, chat.OnBehalfOf("cometchat-uid-1"))
			},
			Method: http.MethodGet, Path: "/v3/threads", OnBehalfOf: "cometchat-uid-1",
			Query: "affix=prepend&limit=50&participatedByMe=true&updatedAt=1638423499&withMentionCount=true" +
				"&withUnreadReplyCount=true",
			Reply: page,
		},
		{
			Name: "SubscribeThread",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.SubscribeThread(ctx, "42", "cometchat-uid-1")
			},
			Method: http.MethodPost, Path: "/v3/messages/42/thread/subscription", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":{"success":true}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, &chat.Result{Success: true}, got)
			},
		},
		{
			Name: "UnsubscribeThread",
			Call: func(c *chat.Client) (any, error) {
				return c.Messages.UnsubscribeThread(ctx, "4 2", "cometchat-uid-1", chat.OnBehalfOf("other"))
			},
			Method: http.MethodDelete, Path: "/v3/messages/4%202/thread/subscription", OnBehalfOf: "cometchat-uid-1",
			Reply: `{"data":{"success":true,"message":"Unsubscribed."}}`,
			Check: func(t *testing.T, _ wiretest.Request, got any) {
				assert.Equal(t, &chat.Result{Success: true, Message: "Unsubscribed."}, got)
			},
		},
	})
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, []wiretest.ArgCase[*chat.Client]{
		{Name: "SubscribeThread empty id", Call: func(c *chat.Client) error {
			_, err := c.Messages.SubscribeThread(ctx, "", "u")
			return err
		}, Arg: "id"},
		{Name: "SubscribeThread empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.SubscribeThread(ctx, "1", "")
			return err
		}, Arg: "onBehalfOf"},
		{Name: "UnsubscribeThread empty onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Messages.UnsubscribeThread(ctx, "1", "")
			return err
		}, Arg: "onBehalfOf"},
		{Name: "UnsubscribeThread dot-dot id", Call: func(c *chat.Client) error {
			_, err := c.Messages.UnsubscribeThread(ctx, "..", "u")
			return err
		}, Arg: "id"},
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
			client, m := wiretest.Chat(t)
			m.ServePages("updatedAt", tt.pages)
			opts := &chat.ListThreadsOptions{UpdateCursorOptions: chat.UpdateCursorOptions{Limit: 2}, ParticipatedByMe: true}
			ids, errs := collect(client.Messages.AllThreads(context.Background(), opts, chat.OnBehalfOf("u1")), messageID)
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

// End to end, against chattest.

func TestAllThreadMessages(t *testing.T) {
	srv, client := faketest.Start(t)
	ctx := t.Context()
	faketest.Seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(ctx, faketest.ToUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	other, err := client.Messages.Send(ctx, faketest.ToUser("bob", "another parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	for i := range 27 {
		// Replies of another thread interleave; they must not show.
		_, err := client.Messages.SendThread(ctx, parent.ID, "bob", faketest.ToUser("alice", fmt.Sprint("reply ", i)))
		require.NoError(t, err)
		_, err = client.Messages.SendThread(ctx, other.ID, "alice", faketest.ToUser("bob", "noise"))
		require.NoError(t, err)
	}

	t.Run("append with replies added while iterating", func(t *testing.T) {
		var got []string
		added := 0
		for m, err := range client.Messages.AllThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 4}}) {
			require.NoError(t, err)
			assert.Equal(t, parent.ID, m.ParentID)
			got = append(got, m.ID)
			if len(got)%5 == 0 && added < 3 {
				_, err := client.Messages.SendThread(ctx, parent.ID, "alice", faketest.ToUser("bob", "late reply"))
				require.NoError(t, err)
				added++
			}
		}
		want := threadIDs(t, srv, parent.ID)
		require.Len(t, want, 30)
		assert.Equal(t, want, got, "every reply once, in id order, late ones included")
	})

	t.Run("prepend walks back from the newest", func(t *testing.T) {
		var got []string
		for m, err := range client.Messages.AllThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 7, Direction: chat.DirectionBefore}}) {
			require.NoError(t, err)
			got = append(got, m.ID)
		}
		want := threadIDs(t, srv, parent.ID)
		slices.Reverse(want)
		assert.Equal(t, want, got)
	})

	t.Run("from an id cursor", func(t *testing.T) {
		all := threadIDs(t, srv, parent.ID)
		page, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{ID: all[9], Limit: 3}})
		require.NoError(t, err)
		assert.Equal(t, all[10:13], pageIDs(page))
		assert.Equal(t, all[12], page.Meta.Next.ID)
		page, err = client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{ID: all[9], Limit: 3, Direction: chat.DirectionBefore}})
		require.NoError(t, err)
		assert.Equal(t, []string{all[8], all[7], all[6]}, pageIDs(page))
		assert.Equal(t, &chat.Cursor{Direction: chat.DirectionBefore, ID: all[6], SentAt: chat.TimestampOf(faketest.T0)}, page.Meta.Next)
	})

	t.Run("past the end", func(t *testing.T) {
		all := threadIDs(t, srv, parent.ID)
		last := all[len(all)-1]
		page, err := client.Messages.ListThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{ID: last}})
		require.NoError(t, err)
		assert.Empty(t, page.Data)
		assert.NotNil(t, page.Data, "an empty list is [], not null")
		assert.Equal(t, &chat.PageCount{Limit: 10, Count: 0}, page.Meta.Current)
		assert.Equal(t, last, page.Meta.Next.ID, "an empty page keeps the cursor, to poll from")
	})
}

func TestAllThreadWhileRepliesArrive(t *testing.T) {
	srv, client := faketest.Start(t)
	ctx := t.Context()
	faketest.Seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(ctx, faketest.ToUser("bob", "parent"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	for range 10 {
		_, err := client.Messages.SendThread(ctx, parent.ID, "bob", faketest.ToUser("alice", "early"))
		require.NoError(t, err)
	}

	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for range 10 {
				_, err := client.Messages.SendThread(ctx, parent.ID, "alice", faketest.ToUser("bob", fmt.Sprint("writer ", w)))
				assert.NoError(t, err)
			}
		})
	}
	var got []string
	for m, err := range client.Messages.AllThreadMessages(ctx, parent.ID, &chat.ListThreadOptions{CursorOptions: chat.CursorOptions{Limit: 3}}) {
		require.NoError(t, err)
		got = append(got, m.ID)
	}
	wg.Wait()

	all := threadIDs(t, srv, parent.ID)
	require.Len(t, all, 50)
	require.GreaterOrEqual(t, len(got), 10)
	assert.Equal(t, all[:len(got)], got, "a prefix of the thread: nothing skipped or repeated")
}

func threadIDs(t *testing.T, srv *chattest.Server, parentID string) []string {
	t.Helper()
	var ids []string
	for _, m := range srv.Messages() {
		if m.ParentID == parentID {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// pageIDs lists the ids of a page of messages.
func pageIDs(p *chat.Page[chat.Message]) []string { return faketest.MessageIDs(p.Data) }
