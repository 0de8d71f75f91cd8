package chat_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// groupJSON is the reference's group example (chat-core §2.2).
const groupJSON = `{"guid":"project-group","name":"Project Group","description":"For the project","icon":"https://example.com/g.png",
 "type":"public","scope":"admin","membersCount":1,"joinedAt":1638440784,
 "conversationId":"group_project-group","hasJoined":true,"createdAt":1638440784,
 "owner":"cometchat-uid-4","tags":["friends","project"]}`

// groupValue is groupJSON decoded.
var groupValue = &chat.Group{
	GUID: "project-group", Name: "Project Group", Description: "For the project", Icon: "https://example.com/g.png",
	Type: chat.GroupPublic, Scope: chat.MemberAdmin, MembersCount: 1, JoinedAt: 1638440784,
	ConversationID: "group_project-group", HasJoined: true, CreatedAt: 1638440784,
	Owner: "cometchat-uid-4", Tags: []string{"friends", "project"},
}

const groupsPageMeta = `"meta":{"pagination":{"total":1,"count":1,"per_page":100,"current_page":1,"total_pages":1},
 "cursor":{"updatedAt":1638440784,"affix":"prepend"}}`

func TestGroupsWire(t *testing.T) {
	ctx := context.Background()
	runWire(t, []wireCase{
		{
			name: "Create with every field",
			call: func(c *chat.Client) (any, error) {
				return c.Groups.Create(ctx, &chat.CreateGroupRequest{
					GUID: "project-group", Name: "Project Group", Type: chat.GroupPassword, Password: "s3cret",
					Icon: "https://example.com/g.png", Description: "For the project",
					Metadata: map[string]any{"floor": 3.0}, Owner: "cometchat-uid-4", Tags: []string{"friends", "project"},
					Members: &chat.AddMembersRequest{
						Admins: []string{"a1"}, Moderators: []string{"m1"}, Participants: []string{"p1", "p2"}, UsersToBan: []string{"b1"},
					},
				})
			},
			response: `{"data":` + groupJSON + `}`,
			method:   http.MethodPost, path: "/v3/groups",
			body: `{"guid":"project-group","name":"Project Group","type":"password","password":"s3cret",
				"icon":"https://example.com/g.png","description":"For the project","metadata":{"floor":3},
				"owner":"cometchat-uid-4","tags":["friends","project"],
				"members":{"admins":["a1"],"moderators":["m1"],"participants":["p1","p2"],"usersToBan":["b1"]}}`,
			want: groupValue,
		},
		{
			name: "Create minimal on behalf of a user leaves out empty fields and lists",
			call: func(c *chat.Client) (any, error) {
				return c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G",
					Members: &chat.AddMembersRequest{Participants: []string{"p1"}}}, chat.OnBehalfOf("cometchat-uid-4"))
			},
			response: `{"data":` + groupJSON + `}`,
			method:   http.MethodPost, path: "/v3/groups", obo: "cometchat-uid-4",
			body: `{"guid":"g","name":"G","members":{"participants":["p1"]}}`,
			want: groupValue,
		},
		{
			name:     "Get",
			call:     func(c *chat.Client) (any, error) { return c.Groups.Get(ctx, "project-group") },
			response: `{"data":` + groupJSON + `}`,
			method:   http.MethodGet, path: "/v3/groups/project-group",
			want: groupValue,
		},
		{
			name:     "Get on behalf of a user escapes the guid",
			call:     func(c *chat.Client) (any, error) { return c.Groups.Get(ctx, "a/../b?c", chat.OnBehalfOf("u1")) },
			response: `{"data":` + groupJSON + `}`,
			method:   http.MethodGet, path: "/v3/groups/a%2F..%2Fb%3Fc", obo: "u1",
			want: groupValue,
		},
		{
			name:     "List without options",
			call:     func(c *chat.Client) (any, error) { return c.Groups.List(ctx, nil) },
			response: `{"data":[` + groupJSON + `],` + groupsPageMeta + `}`,
			method:   http.MethodGet, path: "/v3/groups",
			want: &chat.Page[chat.Group]{Data: []chat.Group{*groupValue}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1},
				Cursor:     &chat.Cursor{UpdatedAt: 1638440784, Direction: chat.DirectionBefore},
			}},
		},
		{
			name: "List hasJoined on behalf of a user",
			call: func(c *chat.Client) (any, error) {
				return c.Groups.List(ctx, &chat.ListGroupsOptions{HasJoined: true}, chat.OnBehalfOf("cometchat-uid-4"))
			},
			response: `{"data":[` + groupJSON + `],` + groupsPageMeta + `}`,
			method:   http.MethodGet, path: "/v3/groups", query: "hasJoined=true", obo: "cometchat-uid-4",
			want: &chat.Page[chat.Group]{Data: []chat.Group{*groupValue}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1},
				Cursor:     &chat.Cursor{UpdatedAt: 1638440784, Direction: chat.DirectionBefore},
			}},
		},
		{
			name: "Update",
			call: func(c *chat.Client) (any, error) {
				return c.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{
					Name: "Renamed", Type: chat.GroupPrivate, Password: "p", Icon: "https://example.com/i.png",
					Description: "d", Metadata: map[string]any{"k": "v"}, Owner: "cometchat-uid-5",
					Tags: []string{"t"}, Unset: []string{"icon", "description", "metadata"},
				})
			},
			response: `{"data":{"guid":"project-group","name":"Renamed","type":"private","owner":"cometchat-uid-5",
				"updatedAt":1638440999,"updatedBy":"app_system","membersCount":"2"}}`,
			method: http.MethodPut, path: "/v3/groups/project-group",
			body: `{"name":"Renamed","type":"private","password":"p","icon":"https://example.com/i.png","description":"d",
				"metadata":{"k":"v"},"owner":"cometchat-uid-5","tags":["t"],"unset":["icon","description","metadata"]}`,
			want: &chat.Group{GUID: "project-group", Name: "Renamed", Type: chat.GroupPrivate, Owner: "cometchat-uid-5",
				UpdatedAt: 1638440999, UpdatedBy: "app_system", MembersCount: 2},
		},
		{
			name: "Update on behalf of a user with an empty request",
			call: func(c *chat.Client) (any, error) {
				return c.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{}, chat.OnBehalfOf("u1"))
			},
			response: `{"data":` + groupJSON + `}`,
			method:   http.MethodPut, path: "/v3/groups/project-group", obo: "u1", body: `{}`,
			want: groupValue,
		},
		{
			name:     "Delete",
			call:     func(c *chat.Client) (any, error) { return c.Groups.Delete(ctx, "project-group") },
			response: `{"data":{"success":true,"message":"Group project-group has been deleted successfully."}}`,
			method:   http.MethodDelete, path: "/v3/groups/project-group",
			want: &chat.Result{Success: true, Message: "Group project-group has been deleted successfully."},
		},
		{
			name:     "Delete on behalf of a user",
			call:     func(c *chat.Client) (any, error) { return c.Groups.Delete(ctx, "g 1", chat.OnBehalfOf("u1")) },
			response: `{"data":{"success":true,"message":"deleted"}}`,
			method:   http.MethodDelete, path: "/v3/groups/g%201", obo: "u1",
			want: &chat.Result{Success: true, Message: "deleted"},
		},
	})
}

func membersCountp(n int) *int { return &n }

func TestGroupsListQuery(t *testing.T) {
	tests := []struct {
		name    string
		opts    *chat.ListGroupsOptions
		obo     string
		wantRaw string
	}{
		{name: "zero options", opts: &chat.ListGroupsOptions{}, wantRaw: ""},
		{
			name: "every filter",
			opts: &chat.ListGroupsOptions{
				PageOptions: chat.PageOptions{PerPage: 50, Page: 2},
				SearchKey:   "proj ect", SearchIn: []string{"name", "guid"},
				SortBy: chat.GroupSortByCreatedAt, SortOrder: chat.SortDescending,
				Direction: chat.DirectionAfter, UpdatedAt: 1638440000,
				WithTags: true, Tags: []string{"a", "b"},
				Type: chat.GroupPassword, Types: []chat.GroupType{chat.GroupPublic, chat.GroupPrivate},
				HasJoined: true, GUID: "g1", GUIDs: []string{"g2", "g3"},
				CreatedFrom: 1738368000, CreatedTo: 1738454400, UpdatedFrom: 1738368001, UpdatedTo: 1738454401,
				MembersCountGTE: membersCountp(2), MembersCountLTE: membersCountp(10), MembersCountEQ: membersCountp(5),
			},
			obo: "u1",
			wantRaw: "affix=append&createdAt%5Bfrom%5D=1738368000&createdAt%5Bto%5D=1738454400&guid=g1&guids=g2,g3" +
				"&hasJoined=true&membersCount%5Beq%5D=5&membersCount%5Bgte%5D=2&membersCount%5Blte%5D=10" +
				"&page=2&perPage=50&searchIn=name,guid&searchKey=proj+ect&sortBy=createdAt&sortOrder=desc" +
				"&tags=a,b&type=password&types=public,private&updatedAt=1638440000" +
				"&updatedAt%5Bfrom%5D=1738368001&updatedAt%5Bto%5D=1738454401&withTags=true",
		},
		{
			name:    "a zero members count is sent",
			opts:    &chat.ListGroupsOptions{MembersCountEQ: membersCountp(0)},
			wantRaw: "membersCount%5Beq%5D=0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMockAPI(t)
			m.Reply(http.StatusOK, `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":100,"current_page":1,"total_pages":0}}}`)
			var opts []chat.RequestOption
			if tt.obo != "" {
				opts = append(opts, chat.OnBehalfOf(tt.obo))
			}
			_, err := m.client.Groups.List(context.Background(), tt.opts, opts...)
			require.NoError(t, err)
			r := m.Only()
			assertWire(t, r, http.MethodGet, "/v3/groups")
			assert.Equal(t, tt.wantRaw, r.RawQuery)
			for k, vs := range r.Query {
				assert.Len(t, vs, 1, "query %s repeated", k)
			}
		})
	}
}

func TestGroupsAll(t *testing.T) {
	m := newMockAPI(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"guid":"g1"},{"guid":"g2"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"guid":"g3"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	opts := &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 2}, Types: []chat.GroupType{chat.GroupPublic}, HasJoined: true}
	guids := collectKeys(t, m.client.Groups.All(context.Background(), opts, chat.OnBehalfOf("u1")),
		func(g *chat.Group) string { return g.GUID })
	assert.Equal(t, []string{"g1", "g2", "g3"}, guids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		assertWire(t, r, http.MethodGet, "/v3/groups")
		assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
		assert.Equal(t, []string{"hasJoined=true&page=1&perPage=2&types=public", "hasJoined=true&page=2&perPage=2&types=public"}[i], r.RawQuery)
	}
	assert.Equal(t, 0, opts.Page, "opts modified")

	t.Run("hasJoined without onBehalfOf yields the argument error", func(t *testing.T) {
		m := newMockAPI(t)
		var errs []error
		for _, err := range m.client.Groups.All(context.Background(), &chat.ListGroupsOptions{HasJoined: true}) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		wiretest.RequireArgError(t, errs[0], "opts.HasJoined")
		assert.Zero(t, m.Calls())
	})
}

func TestGroupsArguments(t *testing.T) {
	ctx := context.Background()
	tooMany := make([]string, 26)
	for i := range tooMany {
		tooMany[i] = "u" + string(rune('a'+i))
	}
	tests := []argCase[*chat.Client]{
		{"Create nil request", func(c *chat.Client) error { _, err := c.Groups.Create(ctx, nil); return err }, "req"},
		{"Create empty guid", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{Name: "G"})
			return err
		}, "req.GUID"},
		{"Create dot guid", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "..", Name: "G"})
			return err
		}, "req.GUID"},
		{"Create empty name", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g"})
			return err
		}, "req.Name"},
		{"Create with 26 members", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G",
				Members: &chat.AddMembersRequest{Admins: tooMany[:20], Participants: tooMany[20:]}})
			return err
		}, "req.Members.Participants"},
		{"Create with empty members", func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Members: &chat.AddMembersRequest{}})
			return err
		}, "req.Members"},
		{"Get empty guid", func(c *chat.Client) error { _, err := c.Groups.Get(ctx, ""); return err }, "guid"},
		{"List hasJoined without onBehalfOf", func(c *chat.Client) error {
			_, err := c.Groups.List(ctx, &chat.ListGroupsOptions{HasJoined: true}, chat.WithHeader("X-Other", "1"))
			return err
		}, "opts.HasJoined"},
		{"Update empty guid", func(c *chat.Client) error {
			_, err := c.Groups.Update(ctx, "", &chat.UpdateGroupRequest{Name: "x"})
			return err
		}, "guid"},
		{"Update nil request", func(c *chat.Client) error { _, err := c.Groups.Update(ctx, "g", nil); return err }, "req"},
		{"Delete dot guid", func(c *chat.Client) error { _, err := c.Groups.Delete(ctx, "."); return err }, "guid"},
	}
	runArgs(t, wholeClient, tests)
}

// TestGroupLenientDecoding feeds the decoder the inconsistencies of
// reference §15.1: numbers as strings, an updatedBy typed as a number, and
// a one-element array where the group object is documented.
func TestGroupLenientDecoding(t *testing.T) {
	m := newMockAPI(t)
	m.Reply(http.StatusOK, `{"data":[{"guid":"g1","membersCount":"0","joinedAt":"1638440784","createdAt":1638440784.0,
		"hasJoined":"true","updatedBy":42,"tags":["a"]}]}`)
	g, err := m.client.Groups.Get(context.Background(), "g1")
	require.NoError(t, err)
	assert.Equal(t, &chat.Group{GUID: "g1", JoinedAt: 1638440784, CreatedAt: 1638440784, HasJoined: true,
		UpdatedBy: "42", Tags: []string{"a"}}, g)
}

func TestGroupJSONRoundTrip(t *testing.T) {
	full := `{"guid":"g","name":"G","description":"d","icon":"i","type":"password","scope":"moderator","membersCount":3,
		"joinedAt":2,"hasJoined":true,"conversationId":"group_g","owner":"o","tags":["t"],"metadata":{"k":"v"},
		"createdAt":1,"updatedAt":3,"updatedBy":"u"}`
	var g chat.Group
	require.NoError(t, json.Unmarshal([]byte(full), &g))
	out, err := json.Marshal(g)
	require.NoError(t, err)
	assert.JSONEq(t, full, string(out))

	out, err = json.Marshal(chat.Group{GUID: "g"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"guid":"g"}`, string(out), "empty fields are left out")
}
