package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestBlockedWire(t *testing.T) {
	ctx := context.Background()
	runWire(t, []wireCase{
		{
			name: "Block",
			call: func(c *chat.Client) (any, error) {
				return c.Blocked.Block(ctx, "cometchat-uid-1", &chat.BlockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2", "cometchat-uid-3"}})
			},
			response: `{"data":{"cometchat-uid-2":{"success":true,"message":"Blocked."},"cometchat-uid-3":{"success":true,"message":"Blocked."}}}`,
			path:     "/v3/users/cometchat-uid-1/blockedusers",
			method:   http.MethodPost, body: `{"blockedUids":["cometchat-uid-2","cometchat-uid-3"]}`,
			want: map[string]chat.Result{"cometchat-uid-2": {Success: true, Message: "Blocked."}, "cometchat-uid-3": {Success: true, Message: "Blocked."}},
		},
		{
			name: "Block with an empty answer",
			call: func(c *chat.Client) (any, error) {
				return c.Blocked.Block(ctx, "cometchat-uid-1", &chat.BlockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2"}})
			},
			response: `{"data":{}}`,
			path:     "/v3/users/cometchat-uid-1/blockedusers",
			method:   http.MethodPost, body: `{"blockedUids":["cometchat-uid-2"]}`,
			want: map[string]chat.Result{},
		},
		{
			name: "Unblock sends a body on DELETE",
			call: func(c *chat.Client) (any, error) {
				return c.Blocked.Unblock(ctx, "cometchat-uid-1", &chat.UnblockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2"}})
			},
			response: `{"data":{"cometchat-uid-2":{"success":true,"message":"Unblocked."}}}`,
			path:     "/v3/users/cometchat-uid-1/blockedusers",
			method:   http.MethodDelete, body: `{"blockedUids":["cometchat-uid-2"]}`,
			want: map[string]chat.Result{"cometchat-uid-2": {Success: true, Message: "Unblocked."}},
		},
		{
			name: "List",
			call: func(c *chat.Client) (any, error) {
				return c.Blocked.List(ctx, "cometchat-uid-1", &chat.ListBlockedOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
			},
			response: `{"data":[{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
				"updatedAt":1596537300,"conversationId":"cometchat-uid-1_user_cometchat-uid-2","blockedByMe":true,
				"blockedByMeAt":1638354015,"blockedAt":1638354015}],
				"meta":{"pagination":{"total":6,"count":1,"per_page":5,"current_page":2,"total_pages":2},"cursor":{"updatedAt":1638354015,"affix":"prepend"}}}`,
			path:   "/v3/users/cometchat-uid-1/blockedusers",
			method: http.MethodGet, query: "page=2&perPage=5",
			want: &chat.Page[chat.User]{
				Data: []chat.User{{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserOffline, Role: "default", CreatedAt: 1596537299,
					UpdatedAt: 1596537300, ConversationID: "cometchat-uid-1_user_cometchat-uid-2", BlockedByMe: true,
					BlockedByMeAt: 1638354015, BlockedAt: 1638354015}},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 6, Count: 1, PerPage: 5, CurrentPage: 2, TotalPages: 2},
					Cursor: &chat.Cursor{UpdatedAt: 1638354015, Direction: chat.DirectionBefore}},
			},
		},
		{
			name:     "List with lenient flags",
			call:     func(c *chat.Client) (any, error) { return c.Blocked.List(ctx, "cometchat-uid-1", nil) },
			response: `{"data":[{"uid":"b","blockedByMe":"1","blockedAt":"1638354015"}],"meta":{}}`,
			path:     "/v3/users/cometchat-uid-1/blockedusers",
			method:   http.MethodGet,
			want:     &chat.Page[chat.User]{Data: []chat.User{{UID: "b", BlockedByMe: true, BlockedAt: 1638354015}}},
		},
	})
}

func TestBlockedAll(t *testing.T) {
	m := newMockAPI(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"b"},{"uid":"c"}],"meta":{"pagination":{"per_page":2,"current_page":1}}}`,
		"2": `{"data":[],"meta":{"pagination":{"per_page":2,"current_page":2}}}`,
	})
	uids := collectKeys(t, m.client.Blocked.All(context.Background(), "a/b", &chat.ListBlockedOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(u *chat.User) string { return u.UID })
	assert.Equal(t, []string{"b", "c"}, uids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "/v3/users/a%2Fb/blockedusers", reqs[0].Path)
	assert.Equal(t, "page=2&perPage=2", reqs[1].RawQuery)
}

func TestBlockedArguments(t *testing.T) {
	ctx := context.Background()
	tests := []argCase[*chat.Client]{
		{"Block empty uid", func(c *chat.Client) error {
			_, err := c.Blocked.Block(ctx, "", &chat.BlockUsersRequest{BlockedUIDs: []string{"b"}})
			return err
		}, "uid"},
		{"Block nil request", func(c *chat.Client) error { _, err := c.Blocked.Block(ctx, "a", nil); return err }, "req.BlockedUIDs"},
		{"Block nobody", func(c *chat.Client) error { _, err := c.Blocked.Block(ctx, "a", &chat.BlockUsersRequest{}); return err }, "req.BlockedUIDs"},
		{"Unblock dot uid", func(c *chat.Client) error {
			_, err := c.Blocked.Unblock(ctx, "..", &chat.UnblockUsersRequest{BlockedUIDs: []string{"b"}})
			return err
		}, "uid"},
		{"Unblock nobody", func(c *chat.Client) error {
			_, err := c.Blocked.Unblock(ctx, "a", &chat.UnblockUsersRequest{})
			return err
		}, "req.BlockedUIDs"},
		{"List empty uid", func(c *chat.Client) error { _, err := c.Blocked.List(ctx, "", nil); return err }, "uid"},
	}
	runArgs(t, wholeClient, tests)
}
