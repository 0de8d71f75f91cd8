package chattest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func TestBulkCreate(t *testing.T) {
	srv, client := start(t)
	seed(srv, "taken")

	reqs := []chat.CreateUserRequest{
		{UID: "Ann", Name: "Ann", Tags: []string{"vip"}},
		{UID: "bob", Name: "Bob"},
		{UID: "taken", Name: "Taken"},   // exists: the service refuses it
		{UID: "ANN", Name: "Ann again"}, // repeats reqs[0]: the SDK refuses it
		{UID: "", Name: "Nobody"},
		{UID: "carl", Name: ""}, // no name: Create refuses it
		{UID: "dora", Name: "Dora"},
	}
	var progress []chat.BulkProgress
	res, err := client.Users.BulkCreate(t.Context(), reqs, &chat.BulkOptions{
		Concurrency: 3,
		Progress:    func(p chat.BulkProgress) { progress = append(progress, p) },
	})
	require.NoError(t, err, "every user was sent")
	require.Len(t, res, len(reqs))
	for i, r := range res {
		assert.Equal(t, i, r.Index)
		assert.Equal(t, reqs[i].UID, r.Key)
	}

	for _, i := range []int{0, 1, 6} {
		require.NoError(t, res[i].Err, reqs[i].UID)
		require.NotNil(t, res[i].Data)
	}
	assert.Equal(t, "ann", res[0].Data.UID)
	assert.Equal(t, []string{"vip"}, res[0].Data.Tags)
	assert.Equal(t, "Dora", res[6].Data.Name)

	requireAPIError(t, res[2].Err, http.StatusBadRequest, "ERR_UID_ALREADY_EXISTS", chat.ErrConflict)
	assert.Nil(t, res[2].Data)
	var ae *chat.ArgumentError
	require.ErrorAs(t, res[3].Err, &ae)
	assert.Equal(t, "reqs[3].UID", ae.Name, "repeats reqs[0].UID")
	require.ErrorAs(t, res[4].Err, &ae)
	assert.Equal(t, "reqs[4].UID", ae.Name)
	require.ErrorAs(t, res[5].Err, &ae)
	assert.Equal(t, "req.Name", ae.Name)

	assert.Equal(t, 4, srv.RequestCount("POST /v3/users"), "the users refused by the SDK were not sent; the rest once each")
	for _, uid := range []string{"ann", "bob", "dora"} {
		_, ok := srv.User(uid)
		assert.True(t, ok, uid)
	}

	require.Len(t, progress, 5, "one report per request")
	for i, p := range progress {
		assert.Equal(t, len(reqs), p.Total)
		assert.Equal(t, 2+1+i, p.Done, "the two refused before sending count from the start")
		assert.Equal(t, p.Done, p.Succeeded+p.Failed)
	}
	assert.Equal(t, chat.BulkProgress{Total: 7, Done: 7, Succeeded: 3, Failed: 4}, progress[4])
}

func TestBulkCreateOptions(t *testing.T) {
	_, client := start(t)
	_, err := client.Users.BulkCreate(t.Context(), []chat.CreateUserRequest{{UID: "a", Name: "A"}}, &chat.BulkOptions{Concurrency: -1})
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "opts.Concurrency", ae.Name)

	res, err := client.Users.BulkCreate(t.Context(), nil, nil)
	require.NoError(t, err)
	assert.Empty(t, res)
}

// TestBulkCreateCancelled cancels a run from its progress callback: it
// returns with ctx's error, the users not sent carry ErrNotSent and are
// not created, and every user created was reported so.
func TestBulkCreateCancelled(t *testing.T) {
	srv, client := start(t)
	reqs := make([]chat.CreateUserRequest, 40)
	for i := range reqs {
		reqs[i] = chat.CreateUserRequest{UID: fmt.Sprintf("u%02d", i), Name: "U"}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res, err := client.Users.BulkCreate(ctx, reqs, &chat.BulkOptions{Concurrency: 2, Progress: func(p chat.BulkProgress) {
		if p.Done == 3 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)

	notSent, succeeded := 0, 0
	for i, r := range res {
		_, created := srv.User(reqs[i].UID)
		switch {
		case r.Err == nil:
			succeeded++
			assert.True(t, created, "%s reported created", r.Key)
		case errors.Is(r.Err, chat.ErrNotSent):
			notSent++
			assert.ErrorIs(t, r.Err, context.Canceled, "ErrNotSent wraps the cause")
			assert.False(t, created, "%s not sent", r.Key)
		default:
			assert.ErrorIs(t, r.Err, context.Canceled, "%s was in flight", r.Key)
		}
	}
	assert.GreaterOrEqual(t, notSent, len(reqs)-3-2, "at most the two in flight went on")
	sent := srv.RequestCount("POST /v3/users")
	assert.GreaterOrEqual(t, sent, succeeded)
	assert.LessOrEqual(t, sent, len(reqs)-notSent, "the users not sent were not sent")
}

// TestBulkCreateStopsOnAWrongKey stops at the first 401: every other
// request would meet it.
func TestBulkCreateStopsOnAWrongKey(t *testing.T) {
	srv := chattest.NewServer()
	t.Cleanup(srv.Close)
	client := srv.ClientWithAPIKey("0000000000000000000000000000000000000000", chat.WithoutRetries())
	reqs := make([]chat.CreateUserRequest, 30)
	for i := range reqs {
		reqs[i] = chat.CreateUserRequest{UID: fmt.Sprintf("u%02d", i), Name: "U"}
	}
	res, err := client.Users.BulkCreate(t.Context(), reqs, &chat.BulkOptions{Concurrency: 1})
	require.ErrorIs(t, err, chat.ErrUnauthorized)
	assert.ErrorIs(t, res[0].Err, chat.ErrUnauthorized)
	assert.ErrorIs(t, res[29].Err, chat.ErrNotSent)
	assert.ErrorIs(t, res[29].Err, chat.ErrUnauthorized, "ErrNotSent wraps the cause")
	assert.LessOrEqual(t, srv.RequestCount("POST /v3/users"), 2, "stopped at once")
}

func TestBulkUpdate(t *testing.T) {
	srv, client := start(t)
	seed(srv, "ann", "bob")
	updates := []chat.UserUpdate{
		{UID: "ann", Request: chat.UpdateUserRequest{Name: "Ann B."}},
		{UID: "zed", Request: chat.UpdateUserRequest{Name: "Zed"}},
		{UID: "Bob", Request: chat.UpdateUserRequest{Tags: []string{"team"}}},
		{UID: "bob", Request: chat.UpdateUserRequest{Name: "Bob again"}},
	}
	var last chat.BulkProgress
	res, err := client.Users.BulkUpdate(t.Context(), updates, &chat.BulkOptions{Progress: func(p chat.BulkProgress) { last = p }})
	require.NoError(t, err)
	require.Len(t, res, 4)
	require.NoError(t, res[0].Err)
	assert.Equal(t, "Ann B.", res[0].Data.Name)
	requireAPIError(t, res[1].Err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
	require.NoError(t, res[2].Err)
	assert.Equal(t, "Bob", res[2].Key)
	assert.Equal(t, "bob", res[2].Data.UID)
	var ae *chat.ArgumentError
	require.ErrorAs(t, res[3].Err, &ae)
	assert.Equal(t, "updates[3].UID", ae.Name, "repeats updates[2].UID")

	ann, _ := srv.User("ann")
	assert.Equal(t, "Ann B.", ann.Name)
	bob, _ := srv.User("bob")
	assert.Equal(t, "Bob", bob.Name, "the repeated update was not sent")
	assert.Equal(t, 3, srv.RequestCount("PUT /v3/users/{uid}"))
	assert.Equal(t, chat.BulkProgress{Total: 4, Done: 4, Succeeded: 2, Failed: 2}, last)
}

func TestBulkAdd(t *testing.T) {
	srv, client := start(t)
	var uids []string
	for i := range 60 {
		uids = append(uids, fmt.Sprintf("m%02d", i))
	}
	seed(srv, append(uids, "owner")...)
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

	scopes := memberScopes(t, client, "g")
	assert.Len(t, scopes, 61)
	assert.Subset(t, scopes, []string{"owner:admin", "m00:admin", "m01:moderator", "m02:participant", "m05:participant", "m59:participant"})
	g, _ := srv.Group("g")
	assert.Equal(t, 61, g.MembersCount)
	assert.Equal(t, chat.BulkProgress{Total: 64, Done: 64, Succeeded: 59, Failed: 5}, reports[2])
}

func TestAddManyToAMissingGroup(t *testing.T) {
	srv, client := start(t)
	seed(srv, "ann", "bob")
	res, err := client.Members.BulkAdd(t.Context(), "nope", []chat.MemberToAdd{{UID: "ann"}, {UID: "bob"}}, nil)
	require.NoError(t, err, "the call was sent")
	for _, r := range res {
		requireAPIError(t, r.Err, http.StatusNotFound, "ERR_GUID_NOT_FOUND", chat.ErrNotFound)
		assert.Nil(t, r.Data)
	}

	_, err = client.Members.BulkAdd(t.Context(), "", []chat.MemberToAdd{{UID: "ann"}}, nil)
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "guid", ae.Name)
}

// classLimiter records, for each answer, the class the SDK gave its
// request and the budget the fake reported.
type classLimiter struct {
	mu  sync.Mutex
	got map[string]int // "class limit" -> answers
}

func (l *classLimiter) Wait(context.Context, chat.LimitKey) error { return nil }

func (l *classLimiter) Observe(_ context.Context, key chat.LimitKey, obs chat.RateObservation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got[fmt.Sprintf("%s %d", key.Class, obs.Limit)]++
}

// TestLimiterClassesMatchTheFakes checks, over real HTTP, that the class
// the SDK gives each request is the one whose budget the fake reports.
func TestLimiterClassesMatchTheFakes(t *testing.T) {
	srv := chattest.NewServer(chattest.WithRateLimit(1000, 2000))
	t.Cleanup(srv.Close)
	lim := &classLimiter{got: map[string]int{}}
	client := srv.Client(chat.WithLimiter(lim))
	ctx := t.Context()

	_, err := client.Users.BulkCreate(ctx, []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}, {UID: "bob", Name: "Bob"}}, nil)
	require.NoError(t, err)
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "g", Name: "G", Type: chat.GroupPublic})
	require.NoError(t, err)
	_, err = client.Members.BulkAdd(ctx, "g", []chat.MemberToAdd{{UID: "ann"}}, nil)
	require.NoError(t, err)
	_, err = client.Users.Delete(ctx, "bob", nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"core 1000": 5}, lim.got)

	_, err = client.Users.Get(ctx, "ann")
	require.NoError(t, err)
	_, err = client.Users.BulkUpdate(ctx, []chat.UserUpdate{{UID: "ann", Request: chat.UpdateUserRequest{Name: "A"}}}, nil)
	require.NoError(t, err)
	_, err = client.Members.List(ctx, "g", nil)
	require.NoError(t, err)
	_, err = client.Groups.Delete(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"core 1000": 5, "standard 2000": 4}, lim.got)
}
