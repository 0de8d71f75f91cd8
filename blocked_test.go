package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestBlockedWire(t *testing.T) {
	ctx := context.Background()
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Block",
			Call: func(c *chat.Client) (any, error) {
				return c.Blocked.Block(ctx, "cometchat-uid-1", &chat.BlockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2", "cometchat-uid-3"}})
			},
			Reply:  `{"data":{"cometchat-uid-2":{"success":true,"message":"Blocked."},"cometchat-uid-3":{"success":true,"message":"Blocked."}}}`,
			Path:   "/v3/users/cometchat-uid-1/blockedusers",
			Method: http.MethodPost, Body: `{"blockedUids":["cometchat-uid-2","cometchat-uid-3"]}`,
			Want: map[string]chat.Result{"cometchat-uid-2": {Success: true, Message: "Blocked."}, "cometchat-uid-3": {Success: true, Message: "Blocked."}},
		},
		{
			Name: "Block with an empty answer",
			Call: func(c *chat.Client) (any, error) {
				return c.Blocked.Block(ctx, "cometchat-uid-1", &chat.BlockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2"}})
			},
			Reply:  `{"data":{}}`,
			Path:   "/v3/users/cometchat-uid-1/blockedusers",
			Method: http.MethodPost, Body: `{"blockedUids":["cometchat-uid-2"]}`,
			Want: map[string]chat.Result{},
		},
		{
			Name: "Unblock sends a body on DELETE",
			Call: func(c *chat.Client) (any, error) {
				return c.Blocked.Unblock(ctx, "cometchat-uid-1", &chat.UnblockUsersRequest{BlockedUIDs: []string{"cometchat-uid-2"}})
			},
			Reply:  `{"data":{"cometchat-uid-2":{"success":true,"message":"Unblocked."}}}`,
			Path:   "/v3/users/cometchat-uid-1/blockedusers",
			Method: http.MethodDelete, Body: `{"blockedUids":["cometchat-uid-2"]}`,
			Want: map[string]chat.Result{"cometchat-uid-2": {Success: true, Message: "Unblocked."}},
		},
		{
			Name: "List",
			Call: func(c *chat.Client) (any, error) {
				return c.Blocked.List(ctx, "cometchat-uid-1", &chat.ListBlockedOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
			},
			Reply: `{"data":[{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
				"updatedAt":1596537300,"conversationId":"cometchat-uid-1_user_cometchat-uid-2","blockedByMe":true,
				"blockedByMeAt":1638354015,"blockedAt":1638354015}],
				"meta":{"pagination":{"total":6,"count":1,"per_page":5,"current_page":2,"total_pages":2},"cursor":{"updatedAt":1638354015,"affix":"prepend"}}}`,
			Path:   "/v3/users/cometchat-uid-1/blockedusers",
			Method: http.MethodGet, Query: "page=2&perPage=5",
			Want: &chat.Page[chat.User]{
				Data: []chat.User{{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserOffline, Role: "default", CreatedAt: 1596537299,
					UpdatedAt: 1596537300, ConversationID: "cometchat-uid-1_user_cometchat-uid-2", BlockedByMe: true,
					BlockedByMeAt: 1638354015, BlockedAt: 1638354015}},
				Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 6, Count: 1, PerPage: 5, CurrentPage: 2, TotalPages: 2},
					Cursor: &chat.Cursor{UpdatedAt: 1638354015, Direction: chat.DirectionBefore}},
			},
		},
		{
			Name:   "List with lenient flags",
			Call:   func(c *chat.Client) (any, error) { return c.Blocked.List(ctx, "cometchat-uid-1", nil) },
			Reply:  `{"data":[{"uid":"b","blockedByMe":"1","blockedAt":"1638354015"}],"meta":{}}`,
			Path:   "/v3/users/cometchat-uid-1/blockedusers",
			Method: http.MethodGet,
			Want:   &chat.Page[chat.User]{Data: []chat.User{{UID: "b", BlockedByMe: true, BlockedAt: 1638354015}}},
		},
	})
}

func TestBlockedAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"b"},{"uid":"c"}],"meta":{"pagination":{"per_page":2,"current_page":1}}}`,
		"2": `{"data":[],"meta":{"pagination":{"per_page":2,"current_page":2}}}`,
	})
	uids := collectKeys(t, client.Blocked.All(context.Background(), "a/b", &chat.ListBlockedOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(u *chat.User) string { return u.UID })
	assert.Equal(t, []string{"b", "c"}, uids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "/v3/users/a%2Fb/blockedusers", reqs[0].Path)
	assert.Equal(t, "page=2&perPage=2", reqs[1].RawQuery)
}

func TestBlockedArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Block empty uid", Call: func(c *chat.Client) error {
			_, err := c.Blocked.Block(ctx, "", &chat.BlockUsersRequest{BlockedUIDs: []string{"b"}})
			return err
		}, Arg: "uid"},
		{Name: "Block nil request", Call: func(c *chat.Client) error { _, err := c.Blocked.Block(ctx, "a", nil); return err }, Arg: "req.BlockedUIDs"},
		{Name: "Block nobody", Call: func(c *chat.Client) error { _, err := c.Blocked.Block(ctx, "a", &chat.BlockUsersRequest{}); return err }, Arg: "req.BlockedUIDs"},
		{Name: "Unblock dot uid", Call: func(c *chat.Client) error {
			_, err := c.Blocked.Unblock(ctx, "..", &chat.UnblockUsersRequest{BlockedUIDs: []string{"b"}})
			return err
		}, Arg: "uid"},
		{Name: "Unblock nobody", Call: func(c *chat.Client) error {
			_, err := c.Blocked.Unblock(ctx, "a", &chat.UnblockUsersRequest{})
			return err
		}, Arg: "req.BlockedUIDs"},
		{Name: "List empty uid", Call: func(c *chat.Client) error { _, err := c.Blocked.List(ctx, "", nil); return err }, Arg: "uid"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}

// TestBlockedValidate holds the Validate of the block and unblock requests to the checks
// their methods run before sending.
func TestBlockedValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a block", Value: &chat.BlockUsersRequest{BlockedUIDs: []string{"b"}}},
		{Name: "a block of nobody", Value: &chat.BlockUsersRequest{}, Field: "req.BlockedUIDs"},
		{Name: "a nil block", Value: (*chat.BlockUsersRequest)(nil), Field: "req.BlockedUIDs"},
		{Name: "an unblock", Value: &chat.UnblockUsersRequest{BlockedUIDs: []string{"b"}}},
		{Name: "an unblock of nobody", Value: &chat.UnblockUsersRequest{BlockedUIDs: []string{}}, Field: "req.BlockedUIDs"},
		{Name: "a nil unblock", Value: (*chat.UnblockUsersRequest)(nil), Field: "req.BlockedUIDs"},
	})
}
