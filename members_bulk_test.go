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
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// TestBulkAddWire sends 30 users in two calls (25, then 5), each naming
// every user in the list of its scope, and reads each user's entry.
func TestBulkAddWire(t *testing.T) {
	client, m := wiretest.Chat(t)
	members := []chat.MemberToAdd{{UID: "a0", Scope: chat.MemberAdmin}, {UID: "m0", Scope: chat.MemberModerator}}
	for i := range 28 {
		members = append(members, chat.MemberToAdd{UID: fmt.Sprintf("p%02d", i)})
	}
	members[29].Scope = chat.MemberParticipant
	m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
		if attempt == 1 {
			var parts []string
			for i := range 23 {
				parts = append(parts, fmt.Sprintf(`"p%02d":{"success":true}`, i))
			}
			return wiretest.JSONResponse(http.StatusOK, `{"data":{"admins":{"a0":{"success":true}},"moderators":{"m0":{"success":true}},"participants":{`+
				strings.Join(parts, ",")+`}}}`), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"participants":{"p23":{"success":true},"p24":{"success":true},"p25":{"success":true},"p26":{"success":true},`+
			`"p27":{"success":false,"error":{"code":"ERR_ALREADY_JOINED","message":"already a member"}}}}}`), nil
	})

	res, err := client.Members.BulkAdd(context.Background(), "g/1", members, one, chat.OnBehalfOf("mod"))
	require.NoError(t, err)

	reqs := m.Requests()
	require.Len(t, reqs, 2, "30 users in calls of at most 25")
	for _, r := range reqs {
		wiretest.ChatWire.Sent(t, r, http.MethodPost, "/v3/groups/g%2F1/members")
		assert.Equal(t, "mod", r.Header.Get("onBehalfOf"))
	}
	first := decodeBody(t, reqs[0])
	assert.Equal(t, []any{"a0"}, first["admins"])
	assert.Equal(t, []any{"m0"}, first["moderators"])
	assert.Len(t, first["participants"], 23)
	assert.NotContains(t, first, "usersToBan")
	wiretest.JSONBody(t, reqs[1], `{"participants":["p23","p24","p25","p26","p27"]}`)

	require.Len(t, res, 30)
	for i, r := range res[:29] {
		assert.Equal(t, i, r.Index)
		assert.Equal(t, members[i].UID, r.Key)
		require.NoError(t, r.Err, r.Key)
		assert.Equal(t, &chat.MemberResult{Success: true}, r.Data)
	}
	assert.Equal(t, &chat.MemberResult{Error: &chat.MemberError{Code: "ERR_ALREADY_JOINED", Message: "already a member"}}, res[29].Data)
	assert.Equal(t, &chat.AddMemberError{UID: "p27", Code: "ERR_ALREADY_JOINED", Message: "already a member"}, res[29].Err)
	assert.ErrorIs(t, res[29].Err, chat.ErrConflict)
	assert.EqualError(t, res[29].Err, "chat: user p27 not added: ERR_ALREADY_JOINED: already a member")
}

func TestBulkAddFailures(t *testing.T) {
	t.Run("a failed call fails its users", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_GUID_NOT_FOUND","message":"no group"}}`)
		res, err := client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{{UID: "a"}, {UID: "b"}}, nil)
		require.NoError(t, err)
		for _, r := range res {
			assert.ErrorIs(t, r.Err, chat.ErrNotFound)
			assert.Nil(t, r.Data)
		}
		assert.Equal(t, 1, m.Calls())
	})
	t.Run("a user the answer does not mention", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"participants":{"a":{"success":true}}}}`)
		res, err := client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{{UID: "a"}, {UID: "B"}}, nil)
		require.NoError(t, err)
		assert.NoError(t, res[0].Err)
		var me *chat.AddMemberError
		require.ErrorAs(t, res[1].Err, &me)
		assert.Equal(t, "B", me.UID)
		assert.Empty(t, me.Code)
		assert.Nil(t, res[1].Data)
	})
	t.Run("refused before sending", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"participants":{"b":{"success":true}}}}`)
		res, err := client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{
			{UID: ""}, {UID: "a", Scope: "owner"}, {UID: "b"}, {UID: "B"},
		}, nil)
		require.NoError(t, err)
		wiretest.RequireArgError(t, res[0].Err, "members[0].UID")
		wiretest.RequireArgError(t, res[1].Err, "members[1].Scope")
		assert.NoError(t, res[2].Err)
		wiretest.RequireArgError(t, res[3].Err, "members[3].UID")
		wiretest.JSONBody(t, m.Only(), `{"participants":["b"]}`)

		_, err = client.Members.BulkAdd(context.Background(), ".", nil, nil)
		wiretest.RequireArgError(t, err, "guid")
		_, err = client.Members.BulkAdd(context.Background(), "g", nil, &chat.BulkOptions{Concurrency: -2})
		wiretest.RequireArgError(t, err, "opts.Concurrency")
		assert.Equal(t, 1, m.Calls())
	})
}

// End to end, against chattest.

func TestBulkAdd(t *testing.T) {
	srv, client := faketest.Start(t)
	var uids []string
	for i := range 60 {
		uids = append(uids, fmt.Sprintf("m%02d", i))
	}
	faketest.Seed(srv, append(uids, "owner")...)
	srv.AddGroup(chat.Group{GUID: "g", Name: "G", Owner: "owner"}, "m05")

	members := make([]chat.MemberToAdd, 0, 64)
	for i, uid := range uids {
		m := chat.MemberToAdd{UID: uid}
		switch i {
		case 0:
			m.Scope = chat.MemberAdmin
		case 1:
			m.Scope = chat.MemberModerator
		case 2:
			m.UID = "M02" // the service lower-cases uids, its answer too
		}
		members = append(members, m)
	}
	members = append(members,
		chat.MemberToAdd{UID: "nobody"},                    // unknown user
		chat.MemberToAdd{UID: "m10"},                       // repeats members[10]
		chat.MemberToAdd{UID: "x", Scope: "owner"},         // not a scope one may add with
		chat.MemberToAdd{UID: "", Scope: chat.MemberAdmin}, // no uid
	)
	var reports []chat.BulkProgress
	res, err := client.Members.BulkAdd(t.Context(), "g", members, &chat.BulkOptions{
		Progress: func(p chat.BulkProgress) { reports = append(reports, p) },
	})
	require.NoError(t, err)
	require.Len(t, res, len(members))
	assert.Equal(t, 3, srv.RequestCount("POST /v3/groups/{guid}/members"), "61 users sent in calls of at most 25")
	assert.Len(t, reports, 3, "one report per call")

	for i := range 60 {
		r := res[i]
		assert.Equal(t, i, r.Index)
		assert.Equal(t, members[i].UID, r.Key)
		if i == 5 {
			continue
		}
		require.NoError(t, r.Err, r.Key)
		require.NotNil(t, r.Data)
		assert.True(t, r.Data.Success)
		require.NotNil(t, r.Data.Data, "the action message")
	}
	var me *chat.AddMemberError
	require.ErrorAs(t, res[5].Err, &me)
	assert.Equal(t, chat.AddMemberError{UID: "m05", Code: "ERR_ALREADY_JOINED", Message: "The user m05 is already a member of the group g."}, *me)
	assert.ErrorIs(t, res[5].Err, chat.ErrConflict)
	require.NotNil(t, res[5].Data, "the service's entry is kept")
	assert.False(t, res[5].Data.Success)
	require.ErrorAs(t, res[60].Err, &me)
	assert.Equal(t, "ERR_UID_NOT_FOUND", me.Code)
	assert.ErrorIs(t, res[60].Err, chat.ErrNotFound)

	var ae *chat.ArgumentError
	require.ErrorAs(t, res[61].Err, &ae)
	assert.Equal(t, "members[61].UID", ae.Name)
	require.ErrorAs(t, res[62].Err, &ae)
	assert.Equal(t, "members[62].Scope", ae.Name)
	require.ErrorAs(t, res[63].Err, &ae)
	assert.Equal(t, "members[63].UID", ae.Name)

	scopes := faketest.MemberScopes(t, client, "g")
	assert.Len(t, scopes, 61)
	assert.Subset(t, scopes, []string{"owner:admin", "m00:admin", "m01:moderator", "m02:participant", "m05:participant", "m59:participant"})
	g, _ := srv.Group("g")
	assert.Equal(t, 61, g.MembersCount)
	assert.Equal(t, chat.BulkProgress{Total: 64, Done: 64, Succeeded: 59, Failed: 5}, reports[2])
}

func TestAddManyToAMissingGroup(t *testing.T) {
	srv, client := faketest.Start(t)
	faketest.Seed(srv, "ann", "bob")
	res, err := client.Members.BulkAdd(t.Context(), "nope", []chat.MemberToAdd{{UID: "ann"}, {UID: "bob"}}, nil)
	require.NoError(t, err, "the call was sent")
	for _, r := range res {
		faketest.RequireServiceError(t, r.Err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
		assert.Nil(t, r.Data)
	}

	_, err = client.Members.BulkAdd(t.Context(), "", []chat.MemberToAdd{{UID: "ann"}}, nil)
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "guid", ae.Name)
}
