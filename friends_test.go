package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestFriendsWire(t *testing.T) {
	ctx := context.Background()
	friend := chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserOffline, Role: "default", CreatedAt: 1596537299,
		ConversationID: "cometchat-uid-1_user_cometchat-uid-2"}
	const friendJSON = `{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
		"conversationId":"cometchat-uid-1_user_cometchat-uid-2"}`
	runWire(t, []wireCase{
		{
			name: "Add",
			call: func(c *chat.Client) (any, error) {
				return c.Friends.Add(ctx, "cometchat-uid-1", &chat.AddFriendsRequest{Accepted: []string{"cometchat-uid-2", "cometchat-uid-3"}, AddToConversations: true})
			},
			response: `{"data":{"accepted":{"cometchat-uid-2":{"success":true,"message":"Added cometchat-uid-2 as a friend."},
				"cometchat-uid-3":{"success":false,"message":"Already a friend."}}}}`,
			method: http.MethodPost, path: "/v3/users/cometchat-uid-1/friends",
			body: `{"accepted":["cometchat-uid-2","cometchat-uid-3"],"addToConversations":true}`,
			want: &chat.AddFriendsResponse{Accepted: map[string]chat.Result{
				"cometchat-uid-2": {Success: true, Message: "Added cometchat-uid-2 as a friend."},
				"cometchat-uid-3": {Success: false, Message: "Already a friend."},
			}},
		},
		{
			name: "Add with the success flag as a string",
			call: func(c *chat.Client) (any, error) {
				return c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: []string{"b"}})
			},
			response: `{"data":{"accepted":{"b":{"success":"true","message":"ok"}}}}`,
			method:   http.MethodPost, path: "/v3/users/a/friends", body: `{"accepted":["b"]}`,
			want: &chat.AddFriendsResponse{Accepted: map[string]chat.Result{"b": {Success: true, Message: "ok"}}},
		},
		{
			name: "List",
			call: func(c *chat.Client) (any, error) {
				return c.Friends.List(ctx, "cometchat-uid-1", &chat.ListFriendsOptions{PageOptions: chat.PageOptions{PerPage: 10, Page: 3}, SearchKey: "geo"})
			},
			response: `{"data":[` + friendJSON + `],"meta":{"pagination":{"total":21,"count":1,"per_page":10,"current_page":3,"total_pages":3},
				"cursor":{"updatedAt":1638354799,"affix":"prepend"}}}`,
			method: http.MethodGet, path: "/v3/users/cometchat-uid-1/friends", query: "page=3&perPage=10&searchKey=geo",
			want: &chat.Page[chat.User]{Data: []chat.User{friend}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 21, Count: 1, PerPage: 10, CurrentPage: 3, TotalPages: 3},
				Cursor:     &chat.Cursor{UpdatedAt: 1638354799, Direction: chat.DirectionBefore},
			}},
		},
		{
			name:     "List without options",
			call:     func(c *chat.Client) (any, error) { return c.Friends.List(ctx, "a b", nil) },
			response: `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":100,"current_page":1,"total_pages":0}}}`,
			method:   http.MethodGet, path: "/v3/users/a%20b/friends",
			want: &chat.Page[chat.User]{Data: []chat.User{}, Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 100, CurrentPage: 1}}},
		},
		{
			name: "Remove sends a body on DELETE",
			call: func(c *chat.Client) (any, error) {
				return c.Friends.Remove(ctx, "cometchat-uid-1", &chat.RemoveFriendsRequest{Friends: []string{"cometchat-uid-2"}})
			},
			response: `{"data":{"success":true,"message":"Removed."}}`,
			method:   http.MethodDelete, path: "/v3/users/cometchat-uid-1/friends", body: `{"friends":["cometchat-uid-2"]}`,
			want: &chat.Result{Success: true, Message: "Removed."},
		},
	})
}

func TestFriendsAll(t *testing.T) {
	m := newMockAPI(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"b"},{"uid":"c"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"uid":"d"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	uids := collectKeys(t, m.client.Friends.All(context.Background(), "a", &chat.ListFriendsOptions{SearchKey: "x", PageOptions: chat.PageOptions{PerPage: 2}}),
		func(u *chat.User) string { return u.UID })
	assert.Equal(t, []string{"b", "c", "d"}, uids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "/v3/users/a/friends", reqs[1].Path)
	assert.Equal(t, "page=2&perPage=2&searchKey=x", reqs[1].RawQuery)
}

func TestFriendsArguments(t *testing.T) {
	ctx := context.Background()
	many := make([]string, 26)
	for i := range many {
		many[i] = fmt.Sprintf("u%d", i)
	}
	tests := []argCase[*chat.Client]{
		{"Add empty uid", func(c *chat.Client) error {
			_, err := c.Friends.Add(ctx, "", &chat.AddFriendsRequest{Accepted: []string{"b"}})
			return err
		}, "uid"},
		{"Add nil request", func(c *chat.Client) error { _, err := c.Friends.Add(ctx, "a", nil); return err }, "req.Accepted"},
		{"Add nobody", func(c *chat.Client) error { _, err := c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{}); return err }, "req.Accepted"},
		{"Add 26 users", func(c *chat.Client) error {
			_, err := c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: many})
			return err
		}, "req.Accepted"},
		{"List dot uid", func(c *chat.Client) error { _, err := c.Friends.List(ctx, ".", nil); return err }, "uid"},
		{"Remove empty uid", func(c *chat.Client) error {
			_, err := c.Friends.Remove(ctx, "", &chat.RemoveFriendsRequest{Friends: []string{"b"}})
			return err
		}, "uid"},
		{"Remove nil request", func(c *chat.Client) error { _, err := c.Friends.Remove(ctx, "a", nil); return err }, "req.Friends"},
		{"Remove nobody", func(c *chat.Client) error {
			_, err := c.Friends.Remove(ctx, "a", &chat.RemoveFriendsRequest{})
			return err
		}, "req.Friends"},
	}
	runArgs(t, wholeClient, tests)
	t.Run("25 users are sent", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusOK, `{"data":{"accepted":{}}}`)
		_, err := m.client.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: many[:25]})
		require.NoError(t, err)
		assert.Len(t, decodeBody(t, m.Only())["accepted"], 25)
	})
}
