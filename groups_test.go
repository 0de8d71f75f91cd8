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
	wiretest.ChatWire.Run(t, []wiretest.Case[*chat.Client]{
		{
			Name: "Create with every field",
			Call: func(c *chat.Client) (any, error) {
				return c.Groups.Create(ctx, &chat.CreateGroupRequest{
					GUID: "project-group", Name: "Project Group", Type: chat.GroupPassword, Password: "s3cret",
					Icon: "https://example.com/g.png", Description: "For the project",
					Metadata: map[string]any{"floor": 3.0}, Owner: "cometchat-uid-4", Tags: []string{"friends", "project"},
					Members: &chat.AddMembersRequest{
						Admins: []string{"a1"}, Moderators: []string{"m1"}, Participants: []string{"p1", "p2"}, UsersToBan: []string{"b1"},
					},
				})
			},
			Reply:  `{"data":` + groupJSON + `}`,
			Method: http.MethodPost, Path: "/v3/groups",
			Body: `{"guid":"project-group","name":"Project Group","type":"password","password":"s3cret",
				"icon":"https://example.com/g.png","description":"For the project","metadata":{"floor":3},
				"owner":"cometchat-uid-4","tags":["friends","project"],
				"members":{"admins":["a1"],"moderators":["m1"],"participants":["p1","p2"],"usersToBan":["b1"]}}`,
			Want: groupValue,
		},
		{
			Name: "Create minimal on behalf of a user leaves out empty fields and lists",
			Call: func(c *chat.Client) (any, error) {
				return c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G",
					Members: &chat.AddMembersRequest{Participants: []string{"p1"}}}, chat.OnBehalfOf("cometchat-uid-4"))
			},
			Reply:  `{"data":` + groupJSON + `}`,
			Method: http.MethodPost, Path: "/v3/groups", OnBehalfOf: "cometchat-uid-4",
			Body: `{"guid":"g","name":"G","members":{"participants":["p1"]}}`,
			Want: groupValue,
		},
		{
			Name:   "Get",
			Call:   func(c *chat.Client) (any, error) { return c.Groups.Get(ctx, "project-group") },
			Reply:  `{"data":` + groupJSON + `}`,
			Method: http.MethodGet, Path: "/v3/groups/project-group",
			Want: groupValue,
		},
		{
			Name:   "Get on behalf of a user escapes the guid",
			Call:   func(c *chat.Client) (any, error) { return c.Groups.Get(ctx, "a/../b?c", chat.OnBehalfOf("u1")) },
			Reply:  `{"data":` + groupJSON + `}`,
			Method: http.MethodGet, Path: "/v3/groups/a%2F..%2Fb%3Fc", OnBehalfOf: "u1",
			Want: groupValue,
		},
		{
			Name:   "List without options",
			Call:   func(c *chat.Client) (any, error) { return c.Groups.List(ctx, nil) },
			Reply:  `{"data":[` + groupJSON + `],` + groupsPageMeta + `}`,
			Method: http.MethodGet, Path: "/v3/groups",
			Want: &chat.Page[chat.Group]{Data: []chat.Group{*groupValue}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1},
				Cursor:     &chat.Cursor{UpdatedAt: 1638440784, Direction: chat.DirectionBefore},
			}},
		},
		{
			Name: "List hasJoined on behalf of a user",
			Call: func(c *chat.Client) (any, error) {
				return c.Groups.List(ctx, &chat.ListGroupsOptions{HasJoined: true}, chat.OnBehalfOf("cometchat-uid-4"))
			},
			Reply:  `{"data":[` + groupJSON + `],` + groupsPageMeta + `}`,
			Method: http.MethodGet, Path: "/v3/groups", Query: "hasJoined=true", OnBehalfOf: "cometchat-uid-4",
			Want: &chat.Page[chat.Group]{Data: []chat.Group{*groupValue}, Meta: chat.PageMeta{
				Pagination: &chat.Pagination{Total: 1, Count: 1, PerPage: 100, CurrentPage: 1, TotalPages: 1},
				Cursor:     &chat.Cursor{UpdatedAt: 1638440784, Direction: chat.DirectionBefore},
			}},
		},
		{
			Name: "Update",
			Call: func(c *chat.Client) (any, error) {
				return c.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{
					Name: "Renamed", Type: chat.GroupPrivate, Password: "p", Icon: "https://example.com/i.png",
					Description: "d", Metadata: map[string]any{"k": "v"}, Owner: "cometchat-uid-5",
					Tags: []string{"t"}, Unset: []string{"icon", "description", "metadata"},
				})
			},
			Reply: `{"data":{"guid":"project-group","name":"Renamed","type":"private","owner":"cometchat-uid-5",
				"updatedAt":1638440999,"updatedBy":"app_system","membersCount":"2"}}`,
			Method: http.MethodPut, Path: "/v3/groups/project-group",
			Body: `{"name":"Renamed","type":"private","password":"p","icon":"https://example.com/i.png","description":"d",
				"metadata":{"k":"v"},"owner":"cometchat-uid-5","tags":["t"],"unset":["icon","description","metadata"]}`,
			Want: &chat.Group{GUID: "project-group", Name: "Renamed", Type: chat.GroupPrivate, Owner: "cometchat-uid-5",
				UpdatedAt: 1638440999, UpdatedBy: "app_system", MembersCount: 2},
		},
		{
			Name: "Update on behalf of a user with an empty request",
			Call: func(c *chat.Client) (any, error) {
				return c.Groups.Update(ctx, "project-group", &chat.UpdateGroupRequest{}, chat.OnBehalfOf("u1"))
			},
			Reply:  `{"data":` + groupJSON + `}`,
			Method: http.MethodPut, Path: "/v3/groups/project-group", OnBehalfOf: "u1", Body: `{}`,
			Want: groupValue,
		},
		{
			Name:   "Delete",
			Call:   func(c *chat.Client) (any, error) { return c.Groups.Delete(ctx, "project-group") },
			Reply:  `{"data":{"success":true,"message":"Group project-group has been deleted successfully."}}`,
			Method: http.MethodDelete, Path: "/v3/groups/project-group",
			Want: &chat.Result{Success: true, Message: "Group project-group has been deleted successfully."},
		},
		{
			Name:   "Delete on behalf of a user",
			Call:   func(c *chat.Client) (any, error) { return c.Groups.Delete(ctx, "g 1", chat.OnBehalfOf("u1")) },
			Reply:  `{"data":{"success":true,"message":"deleted"}}`,
			Method: http.MethodDelete, Path: "/v3/groups/g%201", OnBehalfOf: "u1",
			Want: &chat.Result{Success: true, Message: "deleted"},
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
			client, m := wiretest.Chat(t)
			m.Reply(http.StatusOK, `{"data":[],"meta":{"pagination":{"total":0,"count":0,"per_page":100,"current_page":1,"total_pages":0}}}`)
			var opts []chat.RequestOption
			if tt.obo != "" {
				opts = append(opts, chat.OnBehalfOf(tt.obo))
			}
			_, err := client.Groups.List(context.Background(), tt.opts, opts...)
			require.NoError(t, err)
			r := m.Only()
			wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/groups")
			assert.Equal(t, tt.wantRaw, r.RawQuery)
			for k, vs := range r.Query {
				assert.Len(t, vs, 1, "query %s repeated", k)
			}
		})
	}
}

func TestGroupsAll(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.ServePages("page", map[string]string{
		"1": `{"data":[{"guid":"g1"},{"guid":"g2"}],"meta":{"pagination":{"per_page":2,"current_page":1,"total_pages":2}}}`,
		"2": `{"data":[{"guid":"g3"}],"meta":{"pagination":{"per_page":2,"current_page":2,"total_pages":2}}}`,
	})
	opts := &chat.ListGroupsOptions{PageOptions: chat.PageOptions{PerPage: 2}, Types: []chat.GroupType{chat.GroupPublic}, HasJoined: true}
	guids := collectKeys(t, client.Groups.All(context.Background(), opts, chat.OnBehalfOf("u1")),
		func(g *chat.Group) string { return g.GUID })
	assert.Equal(t, []string{"g1", "g2", "g3"}, guids)
	reqs := m.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		wiretest.ChatWire.Sent(t, r, http.MethodGet, "/v3/groups")
		assert.Equal(t, "u1", r.Header.Get("onBehalfOf"))
		assert.Equal(t, []string{"hasJoined=true&page=1&perPage=2&types=public", "hasJoined=true&page=2&perPage=2&types=public"}[i], r.RawQuery)
	}
	assert.Equal(t, 0, opts.Page, "opts modified")

	t.Run("hasJoined without onBehalfOf yields the argument error", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		var errs []error
		for _, err := range client.Groups.All(context.Background(), &chat.ListGroupsOptions{HasJoined: true}) {
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
	tests := []wiretest.ArgCase[*chat.Client]{
		{Name: "Create nil request", Call: func(c *chat.Client) error { _, err := c.Groups.Create(ctx, nil); return err }, Arg: "req"},
		{Name: "Create empty guid", Call: func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{Name: "G"})
			return err
		}, Arg: "req.GUID"},
		{Name: "Create dot guid", Call: func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "..", Name: "G"})
			return err
		}, Arg: "req.GUID"},
		{Name: "Create empty name", Call: func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g"})
			return err
		}, Arg: "req.Name"},
		{Name: "Create with 26 members", Call: func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G",
				Members: &chat.AddMembersRequest{Admins: tooMany[:20], Participants: tooMany[20:]}})
			return err
		}, Arg: "req.Members.Participants"},
		{Name: "Create with empty members", Call: func(c *chat.Client) error {
			_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Members: &chat.AddMembersRequest{}})
			return err
		}, Arg: "req.Members"},
		{Name: "Get empty guid", Call: func(c *chat.Client) error { _, err := c.Groups.Get(ctx, ""); return err }, Arg: "guid"},
		{Name: "List hasJoined without onBehalfOf", Call: func(c *chat.Client) error {
			_, err := c.Groups.List(ctx, &chat.ListGroupsOptions{HasJoined: true}, chat.WithHeader("X-Other", "1"))
			return err
		}, Arg: "opts.HasJoined"},
		{Name: "Update empty guid", Call: func(c *chat.Client) error {
			_, err := c.Groups.Update(ctx, "", &chat.UpdateGroupRequest{Name: "x"})
			return err
		}, Arg: "guid"},
		{Name: "Update nil request", Call: func(c *chat.Client) error { _, err := c.Groups.Update(ctx, "g", nil); return err }, Arg: "req"},
		{Name: "Delete dot guid", Call: func(c *chat.Client) error { _, err := c.Groups.Delete(ctx, "."); return err }, Arg: "guid"},
	}
	wiretest.RunArgs(t, wiretest.ChatWire, wholeClient, tests)
}

// TestGroupLenientDecoding feeds the decoder the inconsistencies of
// reference §15.1: numbers as strings, an updatedBy typed as a number, and
// a one-element array where the group object is documented.
func TestGroupLenientDecoding(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":[{"guid":"g1","membersCount":"0","joinedAt":"1638440784","createdAt":1638440784.0,
		"hasJoined":"true","updatedBy":42,"tags":["a"]}]}`)
	g, err := client.Groups.Get(context.Background(), "g1")
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
