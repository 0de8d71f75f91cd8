package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
	"github.com/chatrest/chat/internal/wiretest"
)

// one sends the items of a bulk method one request at a time, so that the
// wire tests see them in order.
var one = &chat.BulkOptions{Concurrency: 1}

func TestBulkCreateWire(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
		uid := []string{"ann", "bob"}[attempt-1]
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"`+uid+`","name":"N","createdAt":1700000000}}`), nil
	})
	res, err := client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{
		{UID: "Ann", Name: "Ann", Tags: []string{"vip"}},
		{UID: "bob", Name: "Bob", WithAuthToken: true},
	}, one)
	require.NoError(t, err)

	reqs := m.Requests()
	require.Len(t, reqs, 2)
	wiretest.ChatWire.Sent(t, reqs[0], http.MethodPost, "/v3/users")
	wiretest.NoOnBehalfOf(t, reqs[0])
	wiretest.JSONBody(t, reqs[0], `{"uid":"Ann","name":"Ann","tags":["vip"]}`)
	wiretest.ChatWire.Sent(t, reqs[1], http.MethodPost, "/v3/users")
	wiretest.JSONBody(t, reqs[1], `{"uid":"bob","name":"Bob","withAuthToken":true}`)

	assert.Equal(t, []chat.BulkResult[chat.User]{
		{Index: 0, Key: "Ann", Success: true, Data: &chat.User{UID: "ann", Name: "N", CreatedAt: 1700000000}},
		{Index: 1, Key: "bob", Success: true, Data: &chat.User{UID: "bob", Name: "N", CreatedAt: 1700000000}},
	}, res)
}

func TestBulkCreateFailures(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusConflict, `{"error":{"code":"ERR_UID_ALREADY_EXISTS","message":"exists"}}`)
	res, err := client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{
		{UID: "ann", Name: "Ann"},
		{UID: "ANN", Name: "Ann"},
		{UID: "", Name: "X"},
		{UID: "bad uid", Name: "X"},
	}, one)
	require.NoError(t, err, "each user's failure is in its result")
	assert.Equal(t, 1, m.Calls(), "only the first user was sent")
	ce := wiretest.RequireAPIError(t, res[0].Err)
	assert.Equal(t, "ERR_UID_ALREADY_EXISTS", ce.Code)
	assert.ErrorIs(t, res[0].Err, chat.ErrConflict)
	assert.Nil(t, res[0].Data)
	ae := wiretest.RequireArgError(t, res[1].Err, "reqs[1].UID")
	assert.Contains(t, ae.Error(), "repeats reqs[0].UID")
	wiretest.RequireArgError(t, res[2].Err, "reqs[2].UID")
	wiretest.RequireArgError(t, res[3].Err, "req.UID")

	_, err = client.Users.BulkCreate(context.Background(), nil, &chat.BulkOptions{Concurrency: -1})
	wiretest.RequireArgError(t, err, "opts.Concurrency")
}

func TestBulkCreateDoesNotResendAnUnknownOutcome(t *testing.T) {
	client, m := wiretest.Chat(t, fastRetries)
	m.Reply(http.StatusServiceUnavailable, `{"error":{"code":"ERR_MISSION_FAILED"}}`)
	res, err := client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}}, nil)
	require.NoError(t, err)
	ce := wiretest.RequireAPIError(t, res[0].Err)
	assert.Equal(t, http.StatusServiceUnavailable, ce.StatusCode)
	assert.Equal(t, 1, m.Calls(), "the service may have created the user: not sent again")
}

func TestBulkCreateResendsARefusal(t *testing.T) {
	client, m := wiretest.Chat(t, fastRetries)
	m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
		if attempt == 1 {
			return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0"), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"ann"}}`), nil
	})
	res, err := client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}}, nil)
	require.NoError(t, err)
	require.NoError(t, res[0].Err, "a 429 was not processed: it went again")
	assert.Equal(t, 2, m.Calls())
}

func TestBulkUpdateWire(t *testing.T) {
	client, m := wiretest.Chat(t)
	m.Reply(http.StatusOK, `{"data":{"uid":"a/b","name":"New"}}`)
	res, err := client.Users.BulkUpdate(context.Background(), []chat.UserUpdate{
		{UID: "a/b", Request: chat.UpdateUserRequest{Name: "New", Unset: []string{"avatar"}}},
		{UID: "", Request: chat.UpdateUserRequest{Name: "X"}},
	}, one)
	require.NoError(t, err)
	r := m.Only()
	wiretest.ChatWire.Sent(t, r, http.MethodPut, "/v3/users/a%2Fb")
	wiretest.NoOnBehalfOf(t, r)
	wiretest.JSONBody(t, r, `{"name":"New","unset":["avatar"]}`)
	assert.Equal(t, chat.BulkResult[chat.User]{Index: 0, Key: "a/b", Success: true, Data: &chat.User{UID: "a/b", Name: "New"}}, res[0])
	wiretest.RequireArgError(t, res[1].Err, "updates[1].UID")
}

// End to end, against chattest.

func TestBulkCreate(t *testing.T) {
	srv, client := faketest.Start(t)
	faketest.Seed(srv, "taken")

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

	faketest.RequireServiceError(t, res[2].Err, http.StatusBadRequest, "ERR_UID_ALREADY_EXISTS", chat.ErrConflict)
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
	_, client := faketest.Start(t)
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
	srv, client := faketest.Start(t)
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
	srv, client := faketest.Start(t)
	faketest.Seed(srv, "ann", "bob")
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
	faketest.RequireServiceError(t, res[1].Err, http.StatusNotFound, "ERR_UID_NOT_FOUND", chat.ErrNotFound)
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
