package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestBansWire(t *testing.T) {
	ctx := context.Background()
	bannedPage := `{"data":[` + userJSON + `],"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1}}}`
	var user chat.User
	require.NoError(t, json.Unmarshal([]byte(userJSON), &user))
	wantPage := &chat.Page[chat.User]{Data: []chat.User{user},
		Meta: chat.PageMeta{Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1}}}
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name:   "Ban",
			Call:   func(c *chat.Client) (any, error) { return c.Bans.Ban(ctx, "g", "cometchat-uid-5") },
			Reply:  `{"data":{"success":true,"message":"User cometchat-uid-5 has been banned."}}`,
			Method: http.MethodPost, Path: "/v3/groups/g/bannedusers/cometchat-uid-5",
			Want: &chat.Result{Success: true, Message: "User cometchat-uid-5 has been banned."},
		},
		{
			Name:   "Ban on behalf of a user escapes the ids",
			Call:   func(c *chat.Client) (any, error) { return c.Bans.Ban(ctx, "g/x", "u?1", chat.OnBehalfOf("u1")) },
			Reply:  `{"data":{"success":true,"message":"banned"}}`,
			Method: http.MethodPost, Path: "/v3/groups/g%2Fx/bannedusers/u%3F1", OnBehalfOf: "u1",
			Want: &chat.Result{Success: true, Message: "banned"},
		},
		{
			Name:   "Unban",
			Call:   func(c *chat.Client) (any, error) { return c.Bans.Unban(ctx, "g", "cometchat-uid-5") },
			Reply:  `{"data":{"success":true,"Message":"User cometchat-uid-5 has been unbanned."}}`,
			Method: http.MethodDelete, Path: "/v3/groups/g/bannedusers/cometchat-uid-5",
			Want: &chat.Result{Success: true, Message: "User cometchat-uid-5 has been unbanned."},
		},
		{
			Name:   "Unban on behalf of a user",
			Call:   func(c *chat.Client) (any, error) { return c.Bans.Unban(ctx, "g", "u2", chat.OnBehalfOf("u1")) },
			Reply:  `{"data":{"success":true,"message":"unbanned"}}`,
			Method: http.MethodDelete, Path: "/v3/groups/g/bannedusers/u2", OnBehalfOf: "u1",
			Want: &chat.Result{Success: true, Message: "unbanned"},
		},
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.Bans.List(ctx, "g", nil) },
			Reply:  bannedPage,
			Method: http.MethodGet, Path: "/v3/groups/g/bannedusers",
			Want: wantPage,
		},
		{
			Name: "List a page",
			Call: func(c *chat.Client) (any, error) {
				return c.Bans.List(ctx, "g", &chat.ListBannedOptions{PageOptions: chat.PageOptions{PerPage: 5, Page: 2}})
			},
			Reply:  bannedPage,
			Method: http.MethodGet, Path: "/v3/groups/g/bannedusers", Query: "page=2&perPage=5",
			Want: wantPage,
		},
	})
}

func TestBansAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": usersPage(1, 2, `"per_page":2,"current_page":1,"total_pages":2`),
		"2": usersPage(3, 2, `"per_page":2,"current_page":2,"total_pages":2`),
	})
	uids := collectKeys(t, client.Bans.All(context.Background(), "g", &chat.ListBannedOptions{PageOptions: chat.PageOptions{PerPage: 2}}),
		func(u *chat.User) string { return u.UID })
	assert.Equal(t, []string{"u1", "u2", "u3", "u4"}, uids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/groups/g/bannedusers")
		wiretest.NoOnBehalfOf(t, r)
		assert.Equal(t, fmt.Sprintf("page=%d&perPage=2", i+1), r.RawQuery)
	}

	t.Run("stops at the first error", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_GUID_NOT_FOUND","message":"no such group"}}`)
		var errs []error
		for _, err := range client.Bans.All(context.Background(), "nope", nil) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], chat.ErrNotFound)
		assert.Equal(t, "ERR_GUID_NOT_FOUND", wiretest.RequireAPIError(t, errs[0]).Code)
	})
}

func TestBansArguments(t *testing.T) {
	ctx := context.Background()
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Ban empty guid", Call: func(c *chat.Client) error { _, err := c.Bans.Ban(ctx, "", "u"); return err }, Arg: "guid"},
		{Name: "Ban empty uid", Call: func(c *chat.Client) error { _, err := c.Bans.Ban(ctx, "g", ""); return err }, Arg: "uid"},
		{Name: "Unban dot guid", Call: func(c *chat.Client) error { _, err := c.Bans.Unban(ctx, ".", "u"); return err }, Arg: "guid"},
		{Name: "Unban dot uid", Call: func(c *chat.Client) error { _, err := c.Bans.Unban(ctx, "g", ".."); return err }, Arg: "uid"},
		{Name: "List empty guid", Call: func(c *chat.Client) error { _, err := c.Bans.List(ctx, "", nil); return err }, Arg: "guid"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}
