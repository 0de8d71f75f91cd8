package chat_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// one sends the items of a bulk method one request at a time, so that the
// wire tests see them in order.
var one = &chat.BulkOptions{Concurrency: 1}

func TestBulkCreateWire(t *testing.T) {
	m := newMockAPI(t)
	m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
		uid := []string{"ann", "bob"}[attempt-1]
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"`+uid+`","name":"N","createdAt":1700000000}}`), nil
	})
	res, err := m.client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{
		{UID: "Ann", Name: "Ann", Tags: []string{"vip"}},
		{UID: "bob", Name: "Bob", WithAuthToken: true},
	}, one)
	require.NoError(t, err)

	reqs := m.Requests()
	require.Len(t, reqs, 2)
	wire.Sent(t, reqs[0], http.MethodPost, "/v3/users")
	wiretest.NoOnBehalfOf(t, reqs[0])
	wiretest.JSONBody(t, reqs[0], `{"uid":"Ann","name":"Ann","tags":["vip"]}`)
	wire.Sent(t, reqs[1], http.MethodPost, "/v3/users")
	wiretest.JSONBody(t, reqs[1], `{"uid":"bob","name":"Bob","withAuthToken":true}`)

	assert.Equal(t, []chat.BulkResult[chat.User]{
		{Index: 0, Key: "Ann", Success: true, Data: &chat.User{UID: "ann", Name: "N", CreatedAt: 1700000000}},
		{Index: 1, Key: "bob", Success: true, Data: &chat.User{UID: "bob", Name: "N", CreatedAt: 1700000000}},
	}, res)
}

func TestBulkCreateFailures(t *testing.T) {
	m := newMockAPI(t)
	m.Reply(http.StatusConflict, `{"error":{"code":"ERR_UID_ALREADY_EXISTS","message":"exists"}}`)
	res, err := m.client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{
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

	_, err = m.client.Users.BulkCreate(context.Background(), nil, &chat.BulkOptions{Concurrency: -1})
	wiretest.RequireArgError(t, err, "opts.Concurrency")
}

func TestBulkCreateDoesNotResendAnUnknownOutcome(t *testing.T) {
	m := newMockAPI(t, fastRetries)
	m.Reply(http.StatusServiceUnavailable, `{"error":{"code":"ERR_MISSION_FAILED"}}`)
	res, err := m.client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}}, nil)
	require.NoError(t, err)
	ce := wiretest.RequireAPIError(t, res[0].Err)
	assert.Equal(t, http.StatusServiceUnavailable, ce.StatusCode)
	assert.Equal(t, 1, m.Calls(), "the service may have created the user: not sent again")
}

func TestBulkCreateResendsARefusal(t *testing.T) {
	m := newMockAPI(t, fastRetries)
	m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
		if attempt == 1 {
			return wiretest.JSONResponse(http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0"), nil
		}
		return wiretest.JSONResponse(http.StatusOK, `{"data":{"uid":"ann"}}`), nil
	})
	res, err := m.client.Users.BulkCreate(context.Background(), []chat.CreateUserRequest{{UID: "ann", Name: "Ann"}}, nil)
	require.NoError(t, err)
	require.NoError(t, res[0].Err, "a 429 was not processed: it went again")
	assert.Equal(t, 2, m.Calls())
}

func TestBulkUpdateWire(t *testing.T) {
	m := newMockAPI(t)
	m.Reply(http.StatusOK, `{"data":{"uid":"a/b","name":"New"}}`)
	res, err := m.client.Users.BulkUpdate(context.Background(), []chat.UserUpdate{
		{UID: "a/b", Request: chat.UpdateUserRequest{Name: "New", Unset: []string{"avatar"}}},
		{UID: "", Request: chat.UpdateUserRequest{Name: "X"}},
	}, one)
	require.NoError(t, err)
	r := m.Only()
	wire.Sent(t, r, http.MethodPut, "/v3/users/a%2Fb")
	wiretest.NoOnBehalfOf(t, r)
	wiretest.JSONBody(t, r, `{"name":"New","unset":["avatar"]}`)
	assert.Equal(t, chat.BulkResult[chat.User]{Index: 0, Key: "a/b", Success: true, Data: &chat.User{UID: "a/b", Name: "New"}}, res[0])
	wiretest.RequireArgError(t, res[1].Err, "updates[1].UID")
}
