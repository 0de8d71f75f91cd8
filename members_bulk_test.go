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
	"github.com/chatrest/chat/internal/wiretest"
)

// TestBulkAddWire sends 30 users in two calls (25, then 5), each naming
// every user in the list of its scope, and reads each user's entry.
func TestBulkAddWire(t *testing.T) {
	m := newMockAPI(t)
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

	res, err := m.client.Members.BulkAdd(context.Background(), "g/1", members, one, chat.OnBehalfOf("mod"))
	require.NoError(t, err)

	reqs := m.Requests()
	require.Len(t, reqs, 2, "30 users in calls of at most 25")
	for _, r := range reqs {
		wire.Sent(t, r, http.MethodPost, "/v3/groups/g%2F1/members")
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
		m := newMockAPI(t)
		m.Reply(http.StatusNotFound, `{"error":{"code":"ERR_GUID_NOT_FOUND","message":"no group"}}`)
		res, err := m.client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{{UID: "a"}, {UID: "b"}}, nil)
		require.NoError(t, err)
		for _, r := range res {
			assert.ErrorIs(t, r.Err, chat.ErrNotFound)
			assert.Nil(t, r.Data)
		}
		assert.Equal(t, 1, m.Calls())
	})
	t.Run("a user the answer does not mention", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusOK, `{"data":{"participants":{"a":{"success":true}}}}`)
		res, err := m.client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{{UID: "a"}, {UID: "B"}}, nil)
		require.NoError(t, err)
		assert.NoError(t, res[0].Err)
		var me *chat.AddMemberError
		require.ErrorAs(t, res[1].Err, &me)
		assert.Equal(t, "B", me.UID)
		assert.Empty(t, me.Code)
		assert.Nil(t, res[1].Data)
	})
	t.Run("refused before sending", func(t *testing.T) {
		m := newMockAPI(t)
		m.Reply(http.StatusOK, `{"data":{"participants":{"b":{"success":true}}}}`)
		res, err := m.client.Members.BulkAdd(context.Background(), "g", []chat.MemberToAdd{
			{UID: ""}, {UID: "a", Scope: "owner"}, {UID: "b"}, {UID: "B"},
		}, nil)
		require.NoError(t, err)
		wiretest.RequireArgError(t, res[0].Err, "members[0].UID")
		wiretest.RequireArgError(t, res[1].Err, "members[1].Scope")
		assert.NoError(t, res[2].Err)
		wiretest.RequireArgError(t, res[3].Err, "members[3].UID")
		wiretest.JSONBody(t, m.Only(), `{"participants":["b"]}`)

		_, err = m.client.Members.BulkAdd(context.Background(), ".", nil, nil)
		wiretest.RequireArgError(t, err, "guid")
		_, err = m.client.Members.BulkAdd(context.Background(), "g", nil, &chat.BulkOptions{Concurrency: -2})
		wiretest.RequireArgError(t, err, "opts.Concurrency")
		assert.Equal(t, 1, m.Calls())
	})
}
