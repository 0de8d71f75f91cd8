package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

func TestFriendsWire(t *testing.T) {
	ctx := context.Background()
	friend := chat.User{UID: "cometchat-uid-2", Name: "George Alan", Status: chat.UserOffline, Role: "default", CreatedAt: 1596537299,
		ConversationID: "cometchat-uid-1_user_cometchat-uid-2"}
	const friendJSON = `{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1596537299,
		"conversationId":"cometchat-uid-1_user_cometchat-uid-2"}`
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Add",
			Call: func(c *chat.Client) (any, error) {
				return c.Friends.Add(ctx, "cometchat-uid-1", &chat.AddFriendsRequest{Accepted: []string{"cometchat-uid-2", "cometchat-uid-3"}, AddToConversations: true})
			},
			Reply: `{"data":{"accepted":{"cometchat-uid-2":{"success":true,"message":"Added cometchat-uid-2 as a friend."},
				"cometchat-uid-3":{"success":false,"message":"Already a friend."}}}}`,
			Method: http.MethodPost, Path: "/v3/users/cometchat-uid-1/friends",
			Body: `{"accepted":["cometchat-uid-2","cometchat-uid-3"],"addToConversations":true}`,
			Want: &chat.AddFriendsResponse{Accepted: map[string]chat.Result{
				"cometchat-uid-2": {Success: true, Message: "Added cometchat-uid-2 as a friend."},
				"cometchat-uid-3": {Success: false, Message: "Already a friend."},
			}},
		},
		{
			Name: "Add with the success flag as a string",
			Call: func(c *chat.Client) (any, error) {
				return c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: []string{"b"}})
			},
			Reply:  `{"data":{"accepted":{"b":{"success":"true","message":"ok"}}}}`,
			Method: http.MethodPost, Path: "/v3/users/a/friends", Body: `{"accepted":["b"]}`,
			Want: &chat.AddFriendsResponse{Accepted: map[string]chat.Result{"b": {Success: true, Message: "ok"}}},
		},
		{
			Name: "List",
			Call: func(c *chat.Client) (any, error) {
				return c.Friends.List(ctx, "cometchat-uid-1", &chat.ListFriendsOptions{PageOptions: chat.PageOptions{PerPage: 10, Page: 3}, SearchKey: "geo"})
			},
			Reply: `{"data":[` + friendJSON + `],"meta":{"pagination":{"total":21,"count":1,"per_page":10,"current_page":3,"total_pages":3},
				"cursor":{"updatedAt":1638354799,"affix":"prepend"}}}`,
			Method: http.MethodGet, Path: "/v3/users/cometchat-uid-1/friends", Query: "page=3&perPage=10&searchKey=geo",
			Want: &chat.Page[chat.User]{Data: []chat.User{friend}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 21, Count: 1, PerPage: 10, CurrentPage: 3, TotalPages: 3},
				Cursor:     &chat.Cursor{UpdatedAt: 1638354799, Direction: chat.DirectionBefore},
			}},
		},
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.Friends.List(ctx, "a b", nil) },
			Reply:  `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":100,"current_page":1,"total_pages":0}}}`,
			Method: http.MethodGet, Path: "/v3/users/a%20b/friends",
			Want: &chat.Page[chat.User]{Data: []chat.User{}, Meta: chat.PageMeta{Pagination: &chat.Pagination{PerPage: 100, CurrentPage: 1}}},
		},
		{
			Name: "Remove sends a body on DELETE",
			Call: func(c *chat.Client) (any, error) {
				return c.Friends.Remove(ctx, "cometchat-uid-1", &chat.RemoveFriendsRequest{Friends: []string{"cometchat-uid-2"}})
			},
			Reply:  `{"data":{"success":true,"message":"Removed."}}`,
			Method: http.MethodDelete, Path: "/v3/users/cometchat-uid-1/friends", Body: `{"friends":["cometchat-uid-2"]}`,
			Want: &chat.Result{Success: true, Message: "Removed."},
		},
	})
}

func TestFriendsAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"uid":"b"},{"uid":"c"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"uid":"d"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	uids := collectKeys(t, client.Friends.All(context.Background(), "a", &chat.ListFriendsOptions{SearchKey: "x", PageOptions: chat.PageOptions{PerPage: 2}}),
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
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Add empty uid", Call: func(c *chat.Client) error {
			_, err := c.Friends.Add(ctx, "", &chat.AddFriendsRequest{Accepted: []string{"b"}})
			return err
		}, Arg: "uid"},
		{Name: "Add nil request", Call: func(c *chat.Client) error { _, err := c.Friends.Add(ctx, "a", nil); return err }, Arg: "req.Accepted"},
		{Name: "Add nobody", Call: func(c *chat.Client) error { _, err := c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{}); return err }, Arg: "req.Accepted"},
		{Name: "Add 26 users", Call: func(c *chat.Client) error {
			_, err := c.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: many})
			return err
		}, Arg: "req.Accepted"},
		{Name: "List dot uid", Call: func(c *chat.Client) error { _, err := c.Friends.List(ctx, ".", nil); return err }, Arg: "uid"},
		{Name: "Remove empty uid", Call: func(c *chat.Client) error {
			_, err := c.Friends.Remove(ctx, "", &chat.RemoveFriendsRequest{Friends: []string{"b"}})
			return err
		}, Arg: "uid"},
		{Name: "Remove nil request", Call: func(c *chat.Client) error { _, err := c.Friends.Remove(ctx, "a", nil); return err }, Arg: "req.Friends"},
		{Name: "Remove nobody", Call: func(c *chat.Client) error {
			_, err := c.Friends.Remove(ctx, "a", &chat.RemoveFriendsRequest{})
			return err
		}, Arg: "req.Friends"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
	t.Run("25 users are sent", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"accepted":{}}}`)
		_, err := client.Friends.Add(ctx, "a", &chat.AddFriendsRequest{Accepted: many[:25]})
		require.NoError(t, err)
		assert.Len(t, decodeBody(t, m.Only())["accepted"], 25)
	})
}

// TestFriendsValidate holds the Validate of the friend requests to the
// checks their methods run before sending.
func TestFriendsValidate(t *testing.T) {
	uids := func(n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprintf("u%d", i)
		}
		return s
	}
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "25 friends", Value: &chat.AddFriendsRequest{Accepted: uids(25)}},
		{Name: "26 friends", Value: &chat.AddFriendsRequest{Accepted: uids(26)}, Field: "req.Accepted"},
		{Name: "no friend", Value: &chat.AddFriendsRequest{AddToConversations: true}, Field: "req.Accepted"},
		{Name: "a nil add", Value: (*chat.AddFriendsRequest)(nil), Field: "req.Accepted"},
		{Name: "a removal", Value: &chat.RemoveFriendsRequest{Friends: uids(1)}},
		{Name: "a removal of nobody", Value: &chat.RemoveFriendsRequest{}, Field: "req.Friends"},
		{Name: "a nil removal", Value: (*chat.RemoveFriendsRequest)(nil), Field: "req.Friends"},
	})
}
