package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// userJSON is the reference's user example (chat-core §2.1).
const userJSON = `{"uid":"cometchat-uid-5","name":"John Paul","link":"https://example.com/jp","avatar":"https://example.com/jp.png",
 "metadata":{"email":"user@email.com","contactNumber":"0123456789"},
 "status":"offline","role":"manager","createdAt":1638354015,"updatedAt":1638354799,
 "conversationId":"cometchat-uid-4_user_cometchat-uid-5"}`

func TestUsersCreate(t *testing.T) {
	const token = "cometchat-uid-5_1630306819c3027ce530b2367f3c97b4106f0cb8"
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":{"uid":"cometchat-uid-5","name":"John Paul","role":"default","tags":["vip"],
		"metadata":{"rawMetadata":"{\"email\":\"user@email.com\"}"},"createdAt":1638354015,"authToken":"`+token+`"}}`)

	user, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{
		UID:           "cometchat-uid-5",
		Name:          "John Paul",
		Avatar:        "https://example.com/jp.png",
		Link:          "https://example.com/jp",
		Role:          "default",
		StatusMessage: "busy",
		Metadata:      map[string]any{"@private": map[string]any{"email": "user@email.com", "contactNumber": "0123456789"}},
		Tags:          []string{"vip"},
		WithAuthToken: true,
	})
	require.NoError(t, err)

	r := m.Only()
	wiretest.ChatWire.Sent(t, r, http.MethodPost, "/v3/users")
	wiretest.NoOnBehalfOf(t, r)
	wiretest.JSONBody(t, r, `{"uid":"cometchat-uid-5","name":"John Paul","avatar":"https://example.com/jp.png",
		"link":"https://example.com/jp","role":"default","statusMessage":"busy",
		"metadata":{"@private":{"email":"user@email.com","contactNumber":"0123456789"}},
		"tags":["vip"],"withAuthToken":true}`)

	assert.Equal(t, "cometchat-uid-5", user.UID)
	assert.Equal(t, chat.Secret(token), user.AuthToken)
	assert.Equal(t, []string{"vip"}, user.Tags)
	assert.Equal(t, map[string]any{"rawMetadata": `{"email":"user@email.com"}`}, user.Metadata)
	assert.Equal(t, chat.Timestamp(1638354015), user.CreatedAt)

	t.Run("withAuthToken false is left out", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"uid":"u1","name":"U"}}`)
		user, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "u1", Name: "U"})
		require.NoError(t, err)
		wiretest.JSONBody(t, m.Only(), `{"uid":"u1","name":"U"}`)
		assert.Empty(t, user.AuthToken)
	})

	t.Run("a uid in use", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusBadRequest, serviceBody(t, "create-user-uid-exists"))
		user, err := client.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "cometchat-uid-5", Name: "John Paul"})
		assert.Nil(t, user)
		assert.ErrorIs(t, err, chat.ErrConflict, "the code says so, whatever the status")
		assert.NotErrorIs(t, err, chat.ErrBadRequest)
		ce := wiretest.RequireAPIError(t, err)
		assert.Equal(t, http.StatusBadRequest, ce.StatusCode)
		assert.Equal(t, "ERR_UID_ALREADY_EXISTS", ce.Code)
		assert.Equal(t, "The UID cometchat-uid-5 already exists. Please try with a different UID.", ce.Message)
		assert.Equal(t, 1, m.Calls(), "not retried")
	})

	for _, tt := range []struct {
		name     string
		req      *chat.CreateUserRequest
		wantName string
	}{
		{"nil request", nil, "req"},
		{"empty uid", &chat.CreateUserRequest{Name: "U"}, "req.UID"},
		{"empty name", &chat.CreateUserRequest{UID: "u1"}, "req.Name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			_, err := client.Users.Create(context.Background(), tt.req)
			wiretest.RequireArgError(t, err, tt.wantName)
			assert.Zero(t, m.Calls())
		})
	}
}

func TestUsersGet(t *testing.T) {
	tests := []struct {
		name     string
		uid      string
		wantPath string
	}{
		{"plain", "cometchat-uid-5", "/v3/users/cometchat-uid-5"},
		{"slash", "a/b", "/v3/users/a%2Fb"},
		{"climbing", "../../apikeys", "/v3/users/..%2F..%2Fapikeys"},
		{"question mark", "a?b=c", "/v3/users/a%3Fb=c"},
		{"hash", "a#b", "/v3/users/a%23b"},
		{"percent", "100%", "/v3/users/100%25"},
		{"already escaped", "a%2Fb", "/v3/users/a%252Fb"},
		{"space", "john paul", "/v3/users/john%20paul"},
		{"plus", "a+b", "/v3/users/a+b"},
		{"semicolon and comma", "a;b,c", "/v3/users/a%3Bb%2Cc"},
		{"at and colon", "user@host:1", "/v3/users/user@host:1"},
		{"unicode", "ünï😀", "/v3/users/%C3%BCn%C3%AF%F0%9F%98%80"},
		{"three dots is a name", "...", "/v3/users/..."},
		{"CRLF", "a\r\nb", "/v3/users/a%0D%0Ab"},
		{"backslash", `a\b`, "/v3/users/a%5Cb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":`+userJSON+`}`)

			user, err := client.Users.Get(context.Background(), tt.uid)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodGet, tt.wantPath)
			assert.Empty(t, r.RawQuery, "query")
			assert.Empty(t, r.Fragment, "fragment")
			wiretest.NoBody(t, r)
			wiretest.NoOnBehalfOf(t, r)
			assert.Equal(t, "cometchat-uid-5", user.UID)
		})
	}

	t.Run("decodes the reference example", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":`+userJSON+`}`)
		user, err := client.Users.Get(context.Background(), "cometchat-uid-5", chat.OnBehalfOf("cometchat-uid-4"))
		require.NoError(t, err)
		assert.Equal(t, "cometchat-uid-4", m.Only().Header.Get("onBehalfOf"))
		assert.Equal(t, &chat.User{
			UID: "cometchat-uid-5", Name: "John Paul", Link: "https://example.com/jp", Avatar: "https://example.com/jp.png",
			Metadata: map[string]any{"email": "user@email.com", "contactNumber": "0123456789"},
			Status:   chat.UserOffline, Role: "manager", CreatedAt: 1638354015, UpdatedAt: 1638354799,
			ConversationID: "cometchat-uid-4_user_cometchat-uid-5",
		}, user)
	})

	for _, uid := range []string{"", ".", ".."} {
		t.Run(fmt.Sprintf("uid %q", uid), func(t *testing.T) {
			client, m := wiretest.Chat(t)
			_, err := client.Users.Get(context.Background(), uid)
			wiretest.RequireArgError(t, err, "uid")
			assert.Zero(t, m.Calls())
		})
	}

	t.Run("not found", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"The UID nobody does not exist."}}`)
		user, err := client.Users.Get(context.Background(), "nobody")
		assert.Nil(t, user)
		assert.ErrorIs(t, err, chat.ErrNotFound)
		ce := wiretest.RequireAPIError(t, err)
		assert.Equal(t, "ERR_UID_NOT_FOUND", ce.Code)
		assert.Equal(t, "/v3/users/nobody", ce.Path)
	})
}

func TestUsersList(t *testing.T) {
	tests := []struct {
		name      string
		opts      *chat.ListUsersOptions
		wantQuery map[string]string // decoded
		wantRaw   string            // as sent
	}{
		{name: "nil options", opts: nil, wantQuery: map[string]string{}, wantRaw: ""},
		{name: "zero options", opts: &chat.ListUsersOptions{}, wantQuery: map[string]string{}, wantRaw: ""},
		{
			name: "every filter",
			opts: &chat.ListUsersOptions{
				PageOptions:     chat.PageOptions{PerPage: 50, Page: 2},
				SearchKey:       "john",
				SearchIn:        []string{"name", "uid"},
				Status:          "available,offline",
				Count:           true,
				Role:            "manager",
				Roles:           []string{"default", "manager"},
				WithTags:        true,
				Tags:            []string{"vip", "beta"},
				OnlyDeactivated: true,
				WithDeactivated: true,
				CreatedFrom:     1738368000,
				CreatedTo:       1738454400,
				UpdatedFrom:     1738368001,
				UpdatedTo:       1738454401,
			},
			wantQuery: map[string]string{
				"perPage": "50", "page": "2", "searchKey": "john", "searchIn": "name,uid",
				"status": "available,offline", "count": "true", "role": "manager", "roles": "default,manager",
				"withTags": "true", "tags": "vip,beta", "onlyDeactivated": "true", "withDeactivated": "true",
				"createdAt[from]": "1738368000", "createdAt[to]": "1738454400",
				"updatedAt[from]": "1738368001", "updatedAt[to]": "1738454401",
			},
			wantRaw: "count=true&createdAt%5Bfrom%5D=1738368000&createdAt%5Bto%5D=1738454400&onlyDeactivated=true" +
				"&page=2&perPage=50&role=manager&roles=default,manager&searchIn=name,uid&searchKey=john" +
				"&status=available,offline&tags=vip,beta&updatedAt%5Bfrom%5D=1738368001&updatedAt%5Bto%5D=1738454401" +
				"&withDeactivated=true&withTags=true",
		},
		{
			name:      "a search key with reserved characters",
			opts:      &chat.ListUsersOptions{SearchKey: "a&b=c d#e"},
			wantQuery: map[string]string{"searchKey": "a&b=c d#e"},
			wantRaw:   "searchKey=a%26b%3Dc+d%23e",
		},
		{
			name:      "single-value lists",
			opts:      &chat.ListUsersOptions{Tags: []string{"a"}, SearchIn: []string{"uid"}},
			wantQuery: map[string]string{"tags": "a", "searchIn": "uid"},
			wantRaw:   "searchIn=uid&tags=a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":[`+userJSON+`],"meta":{"pagination":{"total":1,"count":1,"per_page":50,"current_page":2,"total_pages":2}},
				"cursor":{"updatedAt":1638354799,"affix":"prepend"}}`)

			page, err := client.Users.List(context.Background(), tt.opts)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/users")
			wiretest.NoBody(t, r)
			got := map[string]string{}
			for k, vs := range r.Query {
				require.Len(t, vs, 1, "query %s repeated", k)
				got[k] = vs[0]
			}
			assert.Equal(t, tt.wantQuery, got)
			assert.Equal(t, tt.wantRaw, r.RawQuery)

			require.Len(t, page.Data, 1)
			assert.Equal(t, "cometchat-uid-5", page.Data[0].UID)
			assert.Equal(t, &chat.Pagination{Total: 1, Count: 1, PerPage: 50, CurrentPage: 2, TotalPages: 2}, page.Meta.Pagination)
			assert.Equal(t, &chat.Cursor{UpdatedAt: 1638354799, Direction: chat.DirectionBefore}, page.Cursor)
		})
	}

	t.Run("pagination numbers as strings", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":[],"meta":{"pagination":{"total":"0","count":"5","per_page":"100","current_page":"1","total_pages":"1"}}}`)
		page, err := client.Users.List(context.Background(), nil)
		require.NoError(t, err)
		assert.Equal(t, &chat.Pagination{Total: 0, Count: 5, PerPage: 100, CurrentPage: 1, TotalPages: 1}, page.Meta.Pagination)
	})
}

// usersPage is a page of n users numbered from first, with its pagination
// meta (omitted fields are left out of the JSON).
func usersPage(first, n int, meta string) string {
	var users []string
	for i := range n {
		users = append(users, fmt.Sprintf(`{"uid":"u%d","name":"User %d"}`, first+i, first+i))
	}
	return `{"data":[` + strings.Join(users, ",") + `],"meta":{"pagination":{` + meta + `}}}`
}

func TestUsersAll(t *testing.T) {
	tests := []struct {
		name      string
		opts      *chat.ListUsersOptions
		pages     map[string]string // by the page query parameter
		wantUIDs  []string
		wantPages []string
		wantErr   error
	}{
		{
			name: "stops on a short page",
			opts: &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}},
			pages: map[string]string{
				"1": usersPage(1, 2, `"per_page":2,"current_page":1`),
				"2": usersPage(3, 2, `"per_page":2,"current_page":2`),
				"3": usersPage(5, 1, `"per_page":2,"current_page":3`),
			},
			wantUIDs:  []string{"u1", "u2", "u3", "u4", "u5"},
			wantPages: []string{"1", "2", "3"},
		},
		{
			name: "stops on total_pages",
			opts: &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}},
			pages: map[string]string{
				"1": usersPage(1, 2, `"per_page":2,"current_page":1,"total_pages":2`),
				"2": usersPage(3, 2, `"per_page":2,"current_page":2,"total_pages":2`),
			},
			wantUIDs:  []string{"u1", "u2", "u3", "u4"},
			wantPages: []string{"1", "2"},
		},
		{
			name: "stops on an empty page",
			opts: &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}},
			pages: map[string]string{
				"1": usersPage(1, 2, `"current_page":1`),
				"2": usersPage(3, 2, `"current_page":2`),
				"3": usersPage(0, 0, `"current_page":3`),
			},
			wantUIDs:  []string{"u1", "u2", "u3", "u4"},
			wantPages: []string{"1", "2", "3"},
		},
		{
			name: "per_page from the meta when none was asked",
			pages: map[string]string{
				"1": usersPage(1, 3, `"per_page":3,"current_page":1`),
				"2": usersPage(4, 1, `"per_page":3,"current_page":2`),
			},
			wantUIDs:  []string{"u1", "u2", "u3", "u4"},
			wantPages: []string{"1", "2"},
		},
		{
			name: "starts at the page asked for",
			opts: &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2, Page: 3}},
			pages: map[string]string{
				"3": usersPage(5, 2, `"per_page":2,"current_page":3,"total_pages":4`),
				"4": usersPage(7, 1, `"per_page":2,"current_page":4,"total_pages":4`),
			},
			wantUIDs:  []string{"u5", "u6", "u7"},
			wantPages: []string{"3", "4"},
		},
		{
			name: "a server ignoring page stalls without repeating users",
			opts: &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}},
			pages: map[string]string{
				"1": usersPage(1, 2, `"per_page":2,"current_page":1,"total_pages":5`),
				"2": usersPage(1, 2, `"per_page":2,"current_page":1,"total_pages":5`),
			},
			wantUIDs:  []string{"u1", "u2"},
			wantPages: []string{"1", "2"},
			wantErr:   chat.ErrPaginationStalled,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.ServePages("page", tt.pages)
			var before chat.ListUsersOptions
			if tt.opts != nil {
				before = *tt.opts
			}

			uids, errs := collect(client.Users.All(context.Background(), tt.opts), func(u *chat.User) string { return u.UID })

			assertYielded(t, uids, errs, tt.wantUIDs, tt.wantErr)
			var pages []string
			for _, r := range m.Requests() {
				pages = append(pages, r.Query.Get("page"))
				if before.PerPage != 0 {
					assert.Equal(t, strconv.Itoa(before.PerPage), r.Query.Get("perPage"))
				}
			}
			assert.Equal(t, tt.wantPages, pages)
			if tt.opts != nil {
				assert.Equal(t, before, *tt.opts, "opts modified")
			}
		})
	}
}

func TestUsersUpdate(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":{"uid":"cometchat-uid-5","name":"Johnny","tags":["a"],"updatedAt":1638354799}}`)

	user, err := client.Users.Update(context.Background(), "cometchat-uid-5", &chat.UpdateUserRequest{
		Name:     "Johnny",
		Metadata: map[string]any{"email": "j@example.com"},
		Tags:     []string{"a"},
		Unset:    []string{"avatar", "link"},
	})
	require.NoError(t, err)

	r := m.Only()
	wiretest.ChatWire.Sent(t, r, http.MethodPut, "/v3/users/cometchat-uid-5")
	wiretest.JSONBody(t, r, `{"name":"Johnny","metadata":{"email":"j@example.com"},"tags":["a"],"unset":["avatar","link"]}`)
	assert.Equal(t, "Johnny", user.Name)
	assert.Equal(t, chat.Timestamp(1638354799), user.UpdatedAt)

	for _, tt := range []struct {
		name, uid string
		req       *chat.UpdateUserRequest
		wantName  string
	}{
		{"empty uid", "", &chat.UpdateUserRequest{Name: "x"}, "uid"},
		{"nil request", "u1", nil, "req"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			_, err := client.Users.Update(context.Background(), tt.uid, tt.req)
			wiretest.RequireArgError(t, err, tt.wantName)
			assert.Zero(t, m.Calls())
		})
	}
}

// serviceBody returns the body the live service answered with, kept in
// testdata/service/name.json.
func serviceBody(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "service", name+".json"))
	require.NoError(t, err)
	return string(b)
}

func TestUsersDelete(t *testing.T) {
	tests := []struct {
		name     string
		req      *chat.DeleteUserRequest
		wantBody string // "" means no body at all
	}{
		{"permanent", &chat.DeleteUserRequest{Permanent: true}, `{"permanent":true}`},
		{"explicitly not permanent", &chat.DeleteUserRequest{Permanent: false}, `{"permanent":false}`},
		{"nil request sends no body", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":{"success":true,"message":"User with uid u/1 has been deleted successfully."}}`)

			res, err := client.Users.Delete(context.Background(), "u/1", tt.req)
			require.NoError(t, err)

			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodDelete, "/v3/users/u%2F1")
			if tt.wantBody == "" {
				wiretest.NoBody(t, r)
			} else {
				wiretest.JSONBody(t, r, tt.wantBody)
			}
			assert.Equal(t, &chat.DeleteUserResponse{Result: chat.Result{Success: true, Message: "User with uid u/1 has been deleted successfully."}}, res)
		})
	}

	t.Run("a soft delete answers as a deactivation", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, serviceBody(t, "delete-user-soft"))
		res, err := client.Users.Delete(context.Background(), "cometchat-uid-5", &chat.DeleteUserRequest{Permanent: false})
		require.NoError(t, err)
		wiretest.JSONBody(t, m.Only(), `{"permanent":false}`)
		assert.True(t, res.Success, "the user was deactivated")
		assert.Empty(t, res.Message)
		assert.Equal(t, []string{"cometchat-uid-5"}, res.DeactivatedUIDs)
		assert.Empty(t, res.AlreadyDeactivatedUIDs)
		assert.Empty(t, res.NotFound)
	})

	for _, tt := range []struct {
		name, body  string
		wantSuccess bool
	}{
		{"already deactivated", `{"data":{"alreadyDeactivatedUids":["u1"]}}`, true},
		{"not found", `{"data":{"notFound":["U1"]}}`, false},
		{"an explicit failure", `{"data":{"success":false,"message":"no"}}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, tt.body)
			res, err := client.Users.Delete(context.Background(), "u1", nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wantSuccess, res.Success)
		})
	}

	t.Run("Message with a capital M", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"success":true,"Message":"done"}}`)
		res, err := client.Users.Delete(context.Background(), "u1", nil)
		require.NoError(t, err)
		assert.Equal(t, &chat.DeleteUserResponse{Result: chat.Result{Success: true, Message: "done"}}, res)
	})

	t.Run("empty uid", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		_, err := client.Users.Delete(context.Background(), "", nil)
		wiretest.RequireArgError(t, err, "uid")
		assert.Zero(t, m.Calls())
	})
}

func TestUsersDeactivate(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, serviceBody(t, "deactivate-users"))

	res, err := client.Users.Deactivate(context.Background(), &chat.DeactivateUsersRequest{UIDs: []string{"cometchat-uid-4", "cometchat-uid-5", "Ghost-1"}})
	require.NoError(t, err)

	r := m.Only()
	wiretest.ChatWire.Sent(t, r, http.MethodDelete, "/v3/users")
	wiretest.JSONBody(t, r, `{"uidsToDeactivate":["cometchat-uid-4","cometchat-uid-5","Ghost-1"]}`)
	assert.Equal(t, &chat.DeactivateUsersResponse{
		DeactivatedUIDs:        []string{"cometchat-uid-4"},
		AlreadyDeactivatedUIDs: []string{"cometchat-uid-5"},
		NotFound:               []string{"Ghost-1"},
	}, res)

	t.Run("the reference's example", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"deactivatedUids":["superhero2","superhero3"]}}`)
		res, err := client.Users.Deactivate(context.Background(), &chat.DeactivateUsersRequest{UIDs: []string{"superhero2", "superhero3"}})
		require.NoError(t, err)
		assert.Equal(t, &chat.DeactivateUsersResponse{DeactivatedUIDs: []string{"superhero2", "superhero3"}}, res)
	})

	for _, tt := range []struct {
		name string
		req  *chat.DeactivateUsersRequest
	}{{"nil request", nil}, {"no uids", &chat.DeactivateUsersRequest{}}} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			_, err := client.Users.Deactivate(context.Background(), tt.req)
			wiretest.RequireArgError(t, err, "req.UIDs")
			assert.Zero(t, m.Calls())
		})
	}
}

func TestUsersReactivate(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, serviceBody(t, "reactivate-users"))

	res, err := client.Users.Reactivate(context.Background(), &chat.ReactivateUsersRequest{UIDs: []string{"cometchat-uid-4", "cometchat-uid-5"}})
	require.NoError(t, err)

	r := m.Only()
	wiretest.ChatWire.Sent(t, r, http.MethodPut, "/v3/users")
	wiretest.JSONBody(t, r, `{"uidsToActivate":["cometchat-uid-4","cometchat-uid-5"]}`)
	assert.Equal(t, &chat.ReactivateUsersResponse{ReactivatedUIDs: []string{"cometchat-uid-4", "cometchat-uid-5"}}, res)

	t.Run("unknown uids", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, serviceBody(t, "reactivate-users-not-found"))
		res, err := client.Users.Reactivate(context.Background(), &chat.ReactivateUsersRequest{UIDs: []string{"Ghost-1", "ghost-2"}})
		require.NoError(t, err)
		assert.Equal(t, &chat.ReactivateUsersResponse{NotFound: []string{"Ghost-1", "ghost-2"}}, res)
	})

	t.Run("the reference's example", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"nonDeactivatedUids":["superhero2","superhero3"]}}`)
		res, err := client.Users.Reactivate(context.Background(), &chat.ReactivateUsersRequest{UIDs: []string{"superhero2", "superhero3"}})
		require.NoError(t, err)
		assert.Equal(t, &chat.ReactivateUsersResponse{NonDeactivatedUIDs: []string{"superhero2", "superhero3"}}, res)
	})

	for _, tt := range []struct {
		name string
		req  *chat.ReactivateUsersRequest
	}{{"nil request", nil}, {"no uids", &chat.ReactivateUsersRequest{}}} {
		t.Run(tt.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			_, err := client.Users.Reactivate(context.Background(), tt.req)
			wiretest.RequireArgError(t, err, "req.UIDs")
			assert.Zero(t, m.Calls())
		})
	}
}

// TestUsersUpsert checks the two calls of an upsert: a create, and only
// when the user exists, an update with the same fields.
func TestUsersUpsert(t *testing.T) {
	ctx := context.Background()
	req := &chat.CreateUserRequest{UID: "u1", Name: "Ann", Avatar: "https://a.example/1.png", Role: "default",
		Metadata: map[string]any{"plan": "pro"}, Tags: []string{"vip"}, WithAuthToken: true}

	t.Run("a new user is created", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"uid":"u1","name":"Ann","authToken":"u1_tok"}}`)
		u, err := client.Users.Upsert(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, "u1", u.UID)
		assert.Equal(t, chat.Secret("u1_tok"), u.AuthToken)
		r := m.Only()
		wiretest.ChatWire.Sent(t, r, http.MethodPost, "/v3/users")
		wiretest.JSONBody(t, r, `{"uid":"u1","name":"Ann","avatar":"https://a.example/1.png","role":"default",
			"metadata":{"plan":"pro"},"tags":["vip"],"withAuthToken":true}`)
	})

	for _, exists := range []struct {
		name   string
		status int
		body   string
	}{
		{"as the service answers", http.StatusBadRequest, serviceBody(t, "create-user-uid-exists")},
		{"answered 409", http.StatusConflict, `{"error":{"code":"ERR_UID_ALREADY_EXISTS","message":"exists"}}`},
	} {
		t.Run("an existing user is updated, "+exists.name, func(t *testing.T) {
			client, m := wiretest.Chat(t)
			m.Serve(func(n int, _ *http.Request) (*http.Response, error) {
				if n == 1 {
					return wiretest.JSONResponse(exists.status, exists.body), nil
				}
				return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"u1","name":"Ann"}}`), nil
			})
			u, err := client.Users.Upsert(ctx, req, chat.WithHeader("X-Trace", "t1"))
			require.NoError(t, err)
			assert.Equal(t, "Ann", u.Name)
			reqs := m.Requests()
			require.Len(t, reqs, 2)
			wiretest.ChatWire.Sent(t, reqs[1], http.MethodPut, "/v3/users/u1")
			wiretest.JSONBody(t, reqs[1], `{"name":"Ann","avatar":"https://a.example/1.png","role":"default","metadata":{"plan":"pro"},"tags":["vip"]}`)
			assert.Equal(t, "t1", reqs[1].Header.Get("X-Trace"), "the options go with both calls")
		})
	}

	t.Run("another failure is returned as it is", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":"bad"}}`)
		_, err := client.Users.Upsert(ctx, req)
		assert.ErrorIs(t, err, chat.ErrBadRequest)
		assert.Equal(t, 1, m.Calls())
		_, err = client.Users.Upsert(ctx, nil)
		wiretest.RequireArgError(t, err, "req")
	})
}

// TestUserFormat prints a user that carries an auth token with every verb.
func TestUserFormat(t *testing.T) {
	const token = "cometchat-uid-5_1630306819c3027ce530b2367f3c97b4106f0cb8"
	u := chat.User{UID: "cometchat-uid-5", Name: "John Paul", AuthToken: token}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		for name, v := range map[string]any{"value": u, "pointer": &u, "in a slice": []chat.User{u}, "in a page": chat.Page[chat.User]{Data: []chat.User{u}}} {
			t.Run(verb+" "+name, func(t *testing.T) {
				out := fmt.Sprintf(verb, v)
				assert.NotContains(t, out, token)
				assert.NotContains(t, out, "1630306819c3027ce530b2367f3c97b4106f0cb8")
				assert.NotContains(t, strings.ToLower(out), fmt.Sprintf("%x", token[:16]), "hex of the token")
				if verb == "%v" || verb == "%+v" || verb == "%#v" || verb == "%s" {
					assert.Contains(t, out, "REDACTED")
					assert.Contains(t, out, "cometchat-uid-5", "the rest is shown")
				}
			})
		}
	}
	assert.Equal(t, chat.Secret(token), u.AuthToken, "printing changed the user")

	b, err := json.Marshal(u)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"authToken":"`+token+`"`, "JSON keeps the token")
}

// TestUserActivationValidate holds the Validate of the deactivation and reactivation to the checks
// their methods run before sending.
func TestUserActivationValidate(t *testing.T) {
	wiretest.RunValidate(t, []wiretest.ValidateCase{
		{Name: "a deactivation", Value: &chat.DeactivateUsersRequest{UIDs: []string{"a"}}},
		{Name: "a deactivation of nobody", Value: &chat.DeactivateUsersRequest{}, Field: "req.UIDs"},
		{Name: "a nil deactivation", Value: (*chat.DeactivateUsersRequest)(nil), Field: "req.UIDs"},
		{Name: "a reactivation", Value: &chat.ReactivateUsersRequest{UIDs: []string{"a"}}},
		{Name: "a reactivation of nobody", Value: &chat.ReactivateUsersRequest{}, Field: "req.UIDs"},
		{Name: "a nil reactivation", Value: (*chat.ReactivateUsersRequest)(nil), Field: "req.UIDs"},
	})
}
