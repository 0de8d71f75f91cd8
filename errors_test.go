package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// getUserError makes Users.Get("nobody") fail with the given response and
// returns the *chat.Error. Retries are off.
func getUserError(t *testing.T, status int, body string, header ...string) (*chat.Error, error) {
	t.Helper()
	client, m := wiretest.Chat(t)
	m.Serve(func(int, *http.Request) (*http.Response, error) {
		resp := wiretest.JSONResponse(status, body, header...)
		return resp, nil
	})
	user, err := client.Users.Get(context.Background(), "nobody")
	assert.Nil(t, user)
	return wiretest.RequireAPIError(t, err), err
}

func TestErrorFromBadRequest(t *testing.T) {
	ce, err := getUserError(t, http.StatusBadRequest, `{"error":{"message":"Failed to validate the data sent with the request.",
		"devMessage":"Please check the details.","source":"chat-api",
		"details":{"uid":["The uid field is required.","The uid must be a string."],"name":"The name field is required.","age":12},
		"code":"ERR_BAD_REQUEST"}}`)

	assert.Equal(t, http.StatusBadRequest, ce.StatusCode)
	assert.Equal(t, "ERR_BAD_REQUEST", ce.Code)
	assert.Equal(t, "Failed to validate the data sent with the request.", ce.Message)
	assert.Equal(t, "Please check the details.", ce.DevMessage)
	assert.Equal(t, "chat-api", ce.Source)
	assert.Equal(t, map[string][]string{
		"uid":  {"The uid field is required.", "The uid must be a string."},
		"name": {"The name field is required."},
		"age":  {"12"},
	}, ce.Details)
	assert.Equal(t, http.MethodGet, ce.Method)
	assert.Equal(t, "/v3/users/nobody", ce.Path)
	assert.Equal(t, 1, ce.Attempts)
	assert.Nil(t, ce.Unwrap())
	assert.Equal(t, "chat: GET /v3/users/nobody: 400 ERR_BAD_REQUEST: Failed to validate the data sent with the request."+
		"; age: 12; name: The name field is required.; uid: The uid field is required., The uid must be a string.", err.Error())
	assert.ErrorIs(t, err, chat.ErrBadRequest)
}

// TestErrorSaysADetailOnce: a 400 whose details repeat its message for one
// field says it once.
func TestErrorSaysADetailOnce(t *testing.T) {
	const msg = `The receiverType must be "user" or "group".`
	_, err := getUserError(t, http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":`+strconv.Quote(msg)+`,
		"details":{"receiverType":[`+strconv.Quote(msg)+`],"receiver":["The receiver is required."]}}}`)
	assert.Equal(t, "chat: GET /v3/users/nobody: 400 ERR_BAD_REQUEST: "+msg+"; receiver: The receiver is required.", err.Error())
	assert.Equal(t, 1, strings.Count(err.Error(), msg))
}

func TestErrorStatuses(t *testing.T) {
	reset := time.Date(2021, 7, 1, 12, 40, 46, 0, time.UTC)
	rateHeaders := []string{"X-Rate-Limit", "700", "X-Rate-Limit-Remaining", "0", "X-Rate-Limit-Reset", fmt.Sprint(reset.Unix())}
	tests := []struct {
		name           string
		status         int
		code           string
		header         []string
		wantSentinel   error
		wantRetryAfter time.Duration
		wantReset      time.Time
		wantLimit      int
		wantRemaining  int
	}{
		{name: "401", status: http.StatusUnauthorized, code: "AUTH_ERR_APIKEY_NOT_FOUND", wantSentinel: chat.ErrUnauthorized},
		{name: "403 for a key without the scope", status: http.StatusForbidden, code: "AUTH_ERR_NO_ACCESS", wantSentinel: chat.ErrForbidden},
		{name: "403", status: http.StatusForbidden, code: "ERR_PERMISSION_DENIED", wantSentinel: chat.ErrForbidden},
		{name: "404", status: http.StatusNotFound, code: "ERR_UID_NOT_FOUND", wantSentinel: chat.ErrNotFound,
			header: []string{"X-Rate-Limit", "700", "X-Rate-Limit-Remaining", "699"}, wantLimit: 700, wantRemaining: 699},
		{name: "409", status: http.StatusConflict, code: "ERR_ALREADY_JOINED", wantSentinel: chat.ErrConflict},
		{name: "429 with Retry-After in seconds", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: append([]string{"Retry-After", "15"}, rateHeaders...), wantSentinel: chat.ErrRateLimited,
			wantRetryAfter: 15 * time.Second, wantReset: reset, wantLimit: 700},
		{name: "429 with Retry-After zero", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: []string{"Retry-After", "0"}, wantSentinel: chat.ErrRateLimited},
		{name: "429 with Retry-After as a past HTTP date", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: []string{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"}, wantSentinel: chat.ErrRateLimited},
		{name: "429 with a garbage Retry-After", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: []string{"Retry-After", "soon"}, wantSentinel: chat.ErrRateLimited, wantRetryAfter: math.MaxInt64},
		{name: "429 with a Retry-After beyond int64", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: []string{"Retry-After", "99999999999999999999999"}, wantSentinel: chat.ErrRateLimited, wantRetryAfter: math.MaxInt64},
		{name: "429 with only a reset", status: http.StatusTooManyRequests, code: "ERR_TOO_MANY_REQUESTS",
			header: []string{"X-Rate-Limit-Reset", "99999999999"}, wantSentinel: chat.ErrRateLimited, wantRetryAfter: math.MaxInt64,
			wantReset: time.Unix(99999999999, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce, err := getUserError(t, tt.status, `{"error":{"code":"`+tt.code+`","message":"nope"}}`, tt.header...)
			assert.Equal(t, tt.status, ce.StatusCode)
			assert.Equal(t, tt.code, ce.Code)
			assert.Equal(t, "nope", ce.Message)
			assert.Equal(t, tt.wantRetryAfter, ce.RetryAfter)
			assert.Equal(t, tt.wantLimit, ce.RateLimit)
			assert.Equal(t, tt.wantRemaining, ce.RateLimitRemaining)
			assert.True(t, tt.wantReset.Equal(ce.RateLimitReset), "RateLimitReset %v, want %v", ce.RateLimitReset, tt.wantReset)
			assert.ErrorIs(t, err, tt.wantSentinel)
			assert.Contains(t, err.Error(), fmt.Sprintf("GET /v3/users/nobody: %d %s", tt.status, tt.code))
		})
	}

	t.Run("429 with Retry-After as a future HTTP date", func(t *testing.T) {
		when := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
		ce, _ := getUserError(t, http.StatusTooManyRequests, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", when)
		assert.Greater(t, ce.RetryAfter, 27*time.Second)
		assert.LessOrEqual(t, ce.RetryAfter, 30*time.Second)
	})
}

// TestErrorForbiddenWhateverItsCode serves the service's 403 for an
// authOnly key calling an operation it may not: it matches ErrForbidden, as
// every 403 does, and ErrUnauthorized, as every AUTH_ERR_* code does.
func TestErrorForbiddenWhateverItsCode(t *testing.T) {
	ce, err := getUserError(t, http.StatusForbidden, serviceBody(t, "error-auth-no-access"))
	assert.Equal(t, http.StatusForbidden, ce.StatusCode)
	assert.Equal(t, "AUTH_ERR_NO_ACCESS", ce.Code)
	assert.Equal(t, "The API key provided is not authorized to access this API.", ce.Message)
	assert.ErrorIs(t, err, chat.ErrForbidden)
	assert.ErrorIs(t, err, chat.ErrUnauthorized)
	for _, s := range []error{chat.ErrNotFound, chat.ErrBadRequest, chat.ErrConflict, chat.ErrServer, chat.ErrRateLimited, chat.ErrLimitExceeded} {
		assert.NotErrorIs(t, err, s)
	}
	assert.Equal(t, chat.ErrForbidden, chat.ClassOf(ce.Code, ce.StatusCode))
}

func TestErrorWithoutTheAPIBody(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantMessage string
	}{
		{"HTML 502 from a proxy", http.StatusBadGateway, "text/html; charset=utf-8",
			"<html><body><h1>502 Bad Gateway</h1></body></html>", "non-JSON error response (text/html)"},
		{"plain text 503", http.StatusServiceUnavailable, "text/plain", "upstream connect error", "non-JSON error response (text/plain)"},
		{"no content type", http.StatusInternalServerError, "", "oops", "non-JSON error response (unknown content type)"},
		{"empty 500", http.StatusInternalServerError, "application/json", "", "Internal Server Error"},
		{"truncated JSON 500", http.StatusInternalServerError, "application/json", `{"error":{"code":"ERR_`, "non-JSON error response (application/json)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce, err := getUserError(t, tt.status, tt.body, "Content-Type", tt.contentType)
			assert.Equal(t, tt.status, ce.StatusCode)
			assert.Empty(t, ce.Code)
			assert.Equal(t, tt.wantMessage, ce.Message)
			assert.NotContains(t, err.Error(), "<html>", "the page is not dumped into the error")
			for _, s := range []error{chat.ErrNotFound, chat.ErrBadRequest, chat.ErrRateLimited} {
				assert.NotErrorIs(t, err, s)
			}
		})
	}
}

func TestErrorFromUndecodableSuccess(t *testing.T) {
	t.Run("invalid JSON", func(t *testing.T) {
		ce, err := getUserError(t, http.StatusOK, `{"data":{"uid":"u1",`)
		assert.Equal(t, http.StatusOK, ce.StatusCode)
		assert.Empty(t, ce.Code)
		var syntaxErr *json.SyntaxError
		require.ErrorAs(t, ce.Unwrap(), &syntaxErr)
		assert.ErrorAs(t, err, &syntaxErr, "errors.As reaches the JSON error through *chat.Error")
		assert.Contains(t, ce.Message, "decoding response")
	})
	t.Run("wrong type", func(t *testing.T) {
		ce, _ := getUserError(t, http.StatusOK, `{"data":{"uid":{"nested":true}}}`)
		var typeErr *json.UnmarshalTypeError
		assert.ErrorAs(t, ce.Unwrap(), &typeErr)
	})
	t.Run("HTML with status 200", func(t *testing.T) {
		ce, _ := getUserError(t, http.StatusOK, `<html>login</html>`, "Content-Type", "text/html")
		assert.Equal(t, http.StatusOK, ce.StatusCode)
		var syntaxErr *json.SyntaxError
		assert.ErrorAs(t, ce.Unwrap(), &syntaxErr)
	})
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *chat.Error
		want string
	}{
		{"everything", &chat.Error{StatusCode: 404, Code: "ERR_UID_NOT_FOUND", Message: "gone", Method: "GET", Path: "/v3/users/x"},
			"chat: GET /v3/users/x: 404 ERR_UID_NOT_FOUND: gone"},
		{"no code", &chat.Error{StatusCode: 502, Message: "non-JSON error response (text/html)", Method: "PUT", Path: "/v3/users/x"},
			"chat: PUT /v3/users/x: 502: non-JSON error response (text/html)"},
		{"no request", &chat.Error{StatusCode: 500}, "chat: 500"},
		{"details sorted", &chat.Error{StatusCode: 400, Code: "ERR_BAD_REQUEST", Details: map[string][]string{"b": {"2"}, "a": {"1", "x"}}},
			"chat: 400 ERR_BAD_REQUEST; a: 1, x; b: 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestErrorSentinels(t *testing.T) {
	all := append(slices.Clone(allSentinels), chat.ErrInvalidArgument, chat.ErrPaginationStalled, chat.ErrEmptyResponse)
	tests := []struct {
		name string
		err  error
		want []error // every other sentinel must not match
	}{
		{"404", &chat.Error{StatusCode: 404}, []error{chat.ErrNotFound}},
		{"a _NOT_FOUND code on a 400", &chat.Error{StatusCode: 400, Code: "ERR_GUID_NOT_FOUND"}, []error{chat.ErrNotFound}},
		{"401", &chat.Error{StatusCode: 401}, []error{chat.ErrUnauthorized}},
		{"empty API key code", &chat.Error{StatusCode: 400, Code: "AUTH_ERR_EMPTY_APIKEY"}, []error{chat.ErrUnauthorized}},
		{"unknown API key code", &chat.Error{StatusCode: 401, Code: "AUTH_ERR_APIKEY_NOT_FOUND"}, []error{chat.ErrUnauthorized}},
		{"403", &chat.Error{StatusCode: 403}, []error{chat.ErrForbidden}},
		{"no access code on a 403", &chat.Error{StatusCode: 403, Code: "AUTH_ERR_NO_ACCESS"}, []error{chat.ErrForbidden, chat.ErrUnauthorized}},
		{"no access code on a 401", &chat.Error{StatusCode: 401, Code: "AUTH_ERR_NO_ACCESS"}, []error{chat.ErrUnauthorized}},
		{"an unknown key on a 403", &chat.Error{StatusCode: 403, Code: "AUTH_ERR_APIKEY_NOT_FOUND"}, []error{chat.ErrForbidden, chat.ErrUnauthorized}},
		{"a not-found code on a 403", &chat.Error{StatusCode: 403, Code: "ERR_UID_NOT_FOUND"}, []error{chat.ErrForbidden, chat.ErrNotFound}},
		{"a forbidden code on a 403", &chat.Error{StatusCode: 403, Code: "ERR_GROUP_NOT_JOINED"}, []error{chat.ErrForbidden}},
		{"an unknown code on a 403", &chat.Error{StatusCode: 403, Code: "ERR_SOMETHING_NEW"}, []error{chat.ErrForbidden}},
		{"permission denied code", &chat.Error{StatusCode: 400, Code: "ERR_PERMISSION_DENIED"}, []error{chat.ErrForbidden}},
		{"429", &chat.Error{StatusCode: 429}, []error{chat.ErrRateLimited}},
		{"too many requests code", &chat.Error{StatusCode: 400, Code: "ERR_TOO_MANY_REQUESTS"}, []error{chat.ErrRateLimited}},
		{"400", &chat.Error{StatusCode: 400}, []error{chat.ErrBadRequest}},
		{"409", &chat.Error{StatusCode: 409}, []error{chat.ErrConflict}},
		{"ERR_ALREADY_ code", &chat.Error{StatusCode: 400, Code: "ERR_ALREADY_FRIEND"}, []error{chat.ErrConflict}},
		{"_ALREADY_EXISTS code", &chat.Error{StatusCode: 400, Code: "ERR_BOT_ALREADY_EXISTS"}, []error{chat.ErrConflict}},
		{"500", &chat.Error{StatusCode: 500, Code: "ERR_MISSION_FAILED"}, []error{chat.ErrServer}},
		{"502 without a code", &chat.Error{StatusCode: 502}, []error{chat.ErrServer}},
		{"a limit code on a 400", &chat.Error{StatusCode: 400, Code: "ERR_PLAN_QUOTA_RESTRICTION"}, []error{chat.ErrLimitExceeded}},
		{"a 200 that held no data", &chat.Error{StatusCode: 200, Err: chat.ErrEmptyResponse}, []error{chat.ErrEmptyResponse}},
		{"argument error", &chat.ArgumentError{Name: "uid", Problem: "must not be empty"}, []error{chat.ErrInvalidArgument}},
		{"wrapped 404", fmt.Errorf("syncing user u1: %w", &chat.Error{StatusCode: 404}), []error{chat.ErrNotFound}},
		{"twice wrapped 429", fmt.Errorf("job: %w", fmt.Errorf("send: %w", &chat.Error{StatusCode: 429})), []error{chat.ErrRateLimited}},
		{"joined", errors.Join(errors.New("other"), &chat.Error{StatusCode: 409}), []error{chat.ErrConflict}},
		{"wrapped argument error", fmt.Errorf("bad input: %w", &chat.ArgumentError{Name: "uid"}), []error{chat.ErrInvalidArgument}},
		{"pagination stalled", fmt.Errorf("listing: %w", chat.ErrPaginationStalled), []error{chat.ErrPaginationStalled}},
		{"unrelated", errors.New("chat: not found"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range all {
				want := false
				for _, w := range tt.want {
					want = want || w == s
				}
				assert.Equal(t, want, errors.Is(tt.err, s), "errors.Is(%v, %v)", tt.err, s)
			}
		})
	}
}

func TestErrorAsThroughWrapping(t *testing.T) {
	_, err := getUserError(t, http.StatusNotFound, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"gone"}}`)
	wrapped := fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", err))

	var ce *chat.Error
	require.ErrorAs(t, wrapped, &ce)
	assert.Equal(t, "ERR_UID_NOT_FOUND", ce.Code)
	assert.Equal(t, 404, ce.StatusCode)
	assert.ErrorIs(t, wrapped, chat.ErrNotFound)

	var ae *chat.ArgumentError
	assert.False(t, errors.As(wrapped, &ae))

	client, _ := wiretest.Chat(t)
	_, argErr := client.Users.Get(context.Background(), "")
	wrappedArg := fmt.Errorf("handler: %w", argErr)
	require.ErrorAs(t, wrappedArg, &ae)
	assert.Equal(t, "uid", ae.Name)
	assert.Equal(t, "chat: invalid argument uid: must not be empty", ae.Error())
	assert.False(t, errors.As(wrappedArg, &ce))
}

// errorClasses lists, for each sentinel, the error codes a user would
// expect to match it: every code of the API reference appears once.
var errorClasses = map[error][]string{
	chat.ErrUnauthorized: {
		"AUTH_ERR_EMPTY_APPID", "AUTH_ERR_INVALID_APPID", "AUTH_ERR_EMPTY_APIKEY", "AUTH_ERR_APIKEY_NOT_FOUND",
		"AUTH_ERR_NO_ACCESS", "AUTH_ERR_EMPTY_AUTH_HEADER", "AUTH_ERR_EMPTY_AUTH_TOKEN",
		"AUTH_ERR_AUTH_TOKEN_NOT_FOUND", "ERR_UNAUTHORIZED",
	},
	chat.ErrNotFound: {
		"ERR_NOT_FOUND", "ERR_APIKEY_NOT_FOUND", "ERR_AUTH_TOKEN_NOT_FOUND", "ERR_ROLE_NOT_FOUND",
		"ERR_UID_NOT_FOUND", "ERR_BOT_NOT_FOUND", "ERR_GUID_NOT_FOUND", "ERR_NOT_A_MEMBER",
		"ERR_NOT_A_BANNED_USER", "ERR_CONVERSATION_NOT_FOUND", "ERR_MSG_NOT_FOUND", "ERR_MESSAGE_ID_NOT_FOUND",
		"ERR_CALL_SESSION_NOT_FOUND", "ERR_NOT_A_FRIEND", "ERR_EXTENSION_NOT_FOUND", "ERR_WEBHOOK_NOT_FOUND",
		"ERR_TRIGGER_NOT_FOUND", "ERR_API_NOT_FOUND", "ERR_APP_NOT_FOUND", "ERR_NOT_A_COLLABORATOR",
		"ERR_PROVIDER_NOT_FOUND", "ERR_TOKEN_NOT_FOUND", "ERR_RULE_NOT_FOUND", "ERR_KEYWORD_NOT_FOUND",
		"ERR_REASON_NOT_FOUND", "ERR_AGENT_NOT_FOUND", "ERR_TOOL_NOT_FOUND", "ERR_KB_NOT_FOUND",
	},
	chat.ErrForbidden: {
		"ERR_PERMISSION_DENIED", "ERR_ROLE_DELETE_DENIED", "ERR_WRONG_GROUP_PASS", "ERR_GROUP_NOT_JOINED",
		"ERR_GROUP_JOIN_NOT_ALLOWED", "ERR_BANNED_GROUPMEMBER", "ERR_GROUP_NO_CLEARANCE",
		"ERR_GROUP_NO_ADMIN_SCOPE", "ERR_GROUP_NO_MODERATOR_SCOPE", "ERR_GROUP_NO_SCOPE_CLEARANCE",
		"ERR_GROUP_NO_SELF_ACTION", "ERR_CONVERSATION_NOT_ACCESSIBLE", "ERR_MESSAGE_NOT_A_SENDER",
		"ERR_MESSAGE_NO_ACCESS", "ERR_MESSAGE_ACTION_NOT_ALLOWED", "ERR_SYSTEM_PINNED_CONVERSATION",
		"ERR_CALL_NOT_A_PART", "ERR_BLOCKED_RECEIVER", "ERR_BLOCKED_SENDER", "ERR_BLOCKED_BY_EXTENSION",
		"ERR_BLOCKED_BY_WEBHOOK", "ERR_SELF_ACTION_DENIED", "ERR_APP_ARCHIVED", "ERR_EXTENSION_INACTIVE",
		"ERR_APIKEY_NO_SELF_ACTION", "ERR_AUTHTOKEN_UNAVAILABLE", "ERR_AUTHTOKEN_NOT_ACCESSIBLE",
		"ERR_APP_DELETION",
	},
	chat.ErrConflict: {
		"ERR_BOT_ALREADY_EXISTS", "ERR_UID_ALREADY_EXISTS", "ERR_ALREADY_JOINED", "ERR_ALREADY_BANNED",
		"ERR_ALREADY_FRIEND", "ERR_ALREADY_AN_OWNER", "ERR_PROVIDER_ALREADY_EXISTS", "ERR_TOKEN_ALREADY_EXISTS",
		"ERR_IMPORT_MUID_ALREADY_EXISTS", "ERR_TOOL_ALREADY_ADDED", "ERR_CALL_BUSY_SELF", "ERR_CALL_BUSY_GROUP",
		"ERR_CALL_BUSY_USER", "ERR_CALL_TERMINATED", "ERR_CALL_GROUP_ALREADY_JOINED",
		"ERR_CALL_GROUP_ALREADY_LEFT", "ERR_CALL_USER_ALREADY_JOINED", "ERR_CALL_NOT_STARTED",
	},
	chat.ErrBadRequest: {
		"ERR_BAD_REQUEST", "ERR_INVALID_API_VERSION", "ERR_EMPTY_GROUP_PASS", "ERR_SAME_SCOPE",
		"ERR_EMPTY_RECEIVER", "ERR_INVALID_RECEIVER_TYPE", "ERR_INVALID_MESSAGE_DATA", "ERR_EMPTY_MESSAGE_TEXT",
		"ERR_INVALID_MESSAGE_TEXT", "ERR_EMPTY_MESSAGE_CATEGORY", "ERR_INVALID_MESSAGE_CATEGORY",
		"ERR_EMPTY_MESSAGE_TYPE", "ERR_INVALID_MESSAGE_TYPE", "ERR_EMPTY_MESSAGE_FILE", "ERR_EMPTY_CUSTOM_DATA",
		"ERR_INVALID_MEDIA_MESSAGE", "ERR_INVALID_CUSTOM_DATA", "ERR_INVALID_METADATA",
		"ERR_WRONG_MESSAGE_THREAD", "ERR_MESSAGE_THREAD_NESTING", "ERR_WRONG_MESSAGE_THREAD_CATEGORY",
		"ERR_CALLING_SELF", "ERR_EMPTY_CALL_SESSION_ID", "ERR_CALL_INVALID_INIT", "ERR_CALL_GROUP_INVALID_STATUS",
		"ERR_CALL_ONGOING_TO_INVALID", "ERR_CALL_EMPTY_JOINED_AT", "ERR_CANNOT_FORM_SELF_RELATION",
		"ERR_CANNOT_BLOCK_SELF", "ERR_IMPORT_INVALID_MESSAGE_FORMAT", "ERR_IMPORT_INVALID_USER_FORMAT",
		"ERR_IMPORT_INVALID_MEMBER_FORMAT", "ERR_IMPORT_INVALID_JOINEDAT", "ERR_IMPORT_INVALID_GROUP_FORMAT",
	},
	chat.ErrLimitExceeded: {
		"ERR_PLAN_RESTRICTION", "ERR_SUBSCRIPTION_EXPIRED", "ERR_PLAN_QUOTA_RESTRICTION", "ERR_NO_VACANCY",
		"ERR_PINNED_MESSAGES_LIMIT_EXCEEDED", "ERR_SAVED_MESSAGES_LIMIT_EXCEEDED",
		"ERR_PINNED_CONVERSATIONS_LIMIT_EXCEEDED", "ERR_SYSTEM_PINNED_CONVERSATIONS_LIMIT_EXCEEDED",
		"ERR_APP_CREATION_FAILED_MAX_LIMIT",
	},
	chat.ErrRateLimited: {
		"ERR_TOO_MANY_REQUESTS",
	},
	chat.ErrServer: {
		"ERR_MISSION_FAILED", "ERR_OPERATION_FAILED", "ERR_EXCEPTION", "ERR_BAD_ERROR_RESPONSE",
		"ERR_AUTH_TOKEN_DELETE_FAILED", "ERR_AUTH_TOKENS_DELETE_FAILED", "ERR_ROLE_DELETE_FAILED",
		"ERR_UID_DELETE_FAILED", "ERR_GROUP_DELETE_FAILED", "ERR_MEMBER_DELETE_FAILED",
		"ERR_MEMBER_SCOPE_CHANGE_FAILED", "ERR_MEMBER_BAN_FAILED", "ERR_MEMBER_UNBAN_FAILED",
		"ERR_USER_MESSAGE_DELETE_FAILED", "ERR_FAILED_TO_ADD_FRIEND", "ERR_AGENT_CREATION_FAILED",
		"ERR_KB_INDEXING_FAILED", "ERR_WS_INIT_FAILED", "ERR_WS_APP_INIT_FAILED", "ERR_WS_APP_DESTROY_FAILED",
		"ERR_WS_ROLE_CREATION_FAILED", "ERR_WS_ROLE_DELETION_FAILED", "ERR_WS_USER_CREATION_FAILED",
		"ERR_WS_USER_UPDATION_FAILED", "ERR_WS_GROUP_CREATION_FAILED", "ERR_WS_GROUP_DELETION_FAILED",
		"ERR_WS_GROUP_JOIN_FAILED",
	},
}

// allSentinels are the classes an *Error can fall under.
var allSentinels = []error{chat.ErrUnauthorized, chat.ErrForbidden, chat.ErrNotFound, chat.ErrConflict,
	chat.ErrBadRequest, chat.ErrLimitExceeded, chat.ErrRateLimited, chat.ErrServer}

// TestEveryErrorCodeHasOneClass checks that each error code of the
// reference matches exactly its one sentinel, whatever status carries it
// (a 401 AUTH_ERR_APIKEY_NOT_FOUND is an authentication failure, never a
// missing group), and that a 403 matches ErrForbidden besides, which
// ClassOf reports.
func TestEveryErrorCodeHasOneClass(t *testing.T) {
	codes := readLines(t, "testdata/error-codes.txt")
	ref, okCore := readReference(t, "chat-core.md")
	plat, okPlatform := readReference(t, "platform.md")
	if okCore && okPlatform {
		fromRef := map[string]bool{}
		for _, m := range regexp.MustCompile("`((?:AUTH_)?ERR_[A-Z0-9_]+)`").FindAllStringSubmatch(ref+plat, -1) {
			fromRef[m[1]] = true
		}
		assert.ElementsMatch(t, slices.Sorted(maps.Keys(fromRef)), codes, "testdata/error-codes.txt differs from the reference's codes")
	}
	classOf := map[string]error{}
	for sentinel, list := range errorClasses {
		for _, code := range list {
			require.NotContains(t, classOf, code, "%s is listed twice", code)
			classOf[code] = sentinel
		}
	}
	for _, code := range codes {
		assert.Contains(t, classOf, code, "the reference's code %s has no class", code)
	}
	for code, want := range classOf {
		for _, status := range []int{400, 401, 403, 404, 409, 429, 500} {
			err := error(&chat.Error{StatusCode: status, Code: code})
			for _, s := range allSentinels {
				match := s == want || status == http.StatusForbidden && s == chat.ErrForbidden
				assert.Equal(t, match, errors.Is(err, s), "%d %s: errors.Is(err, %v)", status, code, s)
			}
			if status == http.StatusForbidden {
				assert.Equal(t, chat.ErrForbidden, chat.ClassOf(code, status), code)
			} else {
				assert.Equal(t, want, chat.ClassOf(code, status), code)
			}
		}
	}
}

// TestErrorClassByStatus checks the class of a failure whose code the SDK
// does not know (or that has none): its status decides.
func TestErrorClassByStatus(t *testing.T) {
	for status, want := range map[int]error{
		400: chat.ErrBadRequest, 401: chat.ErrUnauthorized, 403: chat.ErrForbidden, 404: chat.ErrNotFound,
		405: chat.ErrBadRequest, 409: chat.ErrConflict, 410: chat.ErrNotFound, 413: chat.ErrLimitExceeded,
		422: chat.ErrBadRequest, 429: chat.ErrRateLimited, 500: chat.ErrServer, 502: chat.ErrServer, 503: chat.ErrServer,
		200: nil, 204: nil, 302: nil,
	} {
		for _, code := range []string{"", "ERR_SOMETHING_NEW"} {
			err := error(&chat.Error{StatusCode: status, Code: code})
			for _, s := range allSentinels {
				assert.Equal(t, s == want, errors.Is(err, s), "%d %q: errors.Is(err, %v)", status, code, s)
			}
		}
	}
	// Codes the reference does not list fall under the class their name
	// says, whatever the status.
	for code, want := range map[string]error{
		"AUTH_ERR_SOMETHING": chat.ErrUnauthorized, "ERR_WIDGET_NOT_FOUND": chat.ErrNotFound,
		"ERR_WIDGET_ALREADY_EXISTS": chat.ErrConflict, "ERR_ALREADY_WIDGET": chat.ErrConflict,
		"ERR_WIDGETS_LIMIT_EXCEEDED": chat.ErrLimitExceeded, "ERR_INVALID_WIDGET": chat.ErrBadRequest,
		"ERR_EMPTY_WIDGET": chat.ErrBadRequest, "ERR_WIDGET_DELETE_FAILED": chat.ErrServer,
	} {
		assert.Equal(t, want, chat.ClassOf(code, 404), code)
		assert.ErrorIs(t, &chat.Error{StatusCode: 500, Code: code}, want, code)
		forbidden := &chat.Error{StatusCode: 403, Code: code}
		assert.Equal(t, chat.ErrForbidden, chat.ClassOf(code, 403), code)
		assert.ErrorIs(t, forbidden, chat.ErrForbidden, code)
		assert.ErrorIs(t, forbidden, want, code)
	}
}

// TestNoDataIsNotSuccess answers operations that return something with a
// 200 or 204 whose body holds no data: each is a *chat.Error with the
// status, matching ErrEmptyResponse, saying for a write that it may have
// been applied, and never a zero value passed off as success.
func TestNoDataIsNotSuccess(t *testing.T) {
	ctx := context.Background()
	send := &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}}
	calls := []struct {
		name  string
		write bool
		call  func(c *chat.Client) (any, error)
	}{
		{"Users.Get", false, func(c *chat.Client) (any, error) { return c.Users.Get(ctx, "u1") }},
		{"Users.List", false, func(c *chat.Client) (any, error) { return c.Users.List(ctx, nil) }},
		{"Messages.Send", true, func(c *chat.Client) (any, error) { return c.Messages.Send(ctx, send) }},
		{"Messages.SendThread", true, func(c *chat.Client) (any, error) { return c.Messages.SendThread(ctx, "42", "alice", send) }},
		{"AuthTokens.Create", true, func(c *chat.Client) (any, error) { return c.AuthTokens.Create(ctx, "u1", nil) }},
		{"Users.Delete", true, func(c *chat.Client) (any, error) { return c.Users.Delete(ctx, "u1", nil) }},
		{"Conversations.ListAppPinned", false, func(c *chat.Client) (any, error) { return c.Conversations.ListAppPinned(ctx) }},
	}
	for _, status := range []int{http.StatusOK, http.StatusNoContent} {
		for _, body := range []string{``, `null`, `{}`, `{"data":null}`, ` `, `{"meta":{}}`} {
			if status == http.StatusNoContent && body != `` {
				continue
			}
			for _, tt := range calls {
				t.Run(fmt.Sprintf("%s %d %q", tt.name, status, body), func(t *testing.T) {
					client, m := wiretest.Chat(t)
					m.Reply(status, body)
					v, err := tt.call(client)
					assert.True(t, reflect.ValueOf(v).IsNil(), "a value was returned: %#v", v)
					require.ErrorIs(t, err, chat.ErrEmptyResponse)
					ce := wiretest.RequireAPIError(t, err)
					assert.Equal(t, status, ce.StatusCode)
					want := "the response held no data"
					if tt.write {
						want += "; the request may have been applied"
					}
					assert.Equal(t, want, ce.Message)
					assert.Equal(t, 1, m.Calls(), "not retried")
					for _, s := range allSentinels {
						assert.NotErrorIs(t, err, s)
					}
				})
			}
		}
	}
	t.Run("an empty object is no data, an empty list is an answer", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{}}`)
		u, err := client.Users.Get(ctx, "u1")
		assert.Nil(t, u)
		assert.ErrorIs(t, err, chat.ErrEmptyResponse)
		m.Reply(http.StatusOK, `{"data":[]}`)
		p, err := client.Users.List(ctx, nil)
		require.NoError(t, err)
		assert.NotNil(t, p.Data)
		assert.Empty(t, p.Data)
		m.Reply(http.StatusOK, `{"meta":{"pagination":{"per_page":2}}}`)
		_, err = client.Users.List(ctx, nil)
		assert.ErrorIs(t, err, chat.ErrEmptyResponse, "a page's meta without its items")
	})
	t.Run("an object whose fields the SDK does not know is an answer", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{"pushProviders":[]}}`)
		r, err := client.Notifications.AddAPNsProvider(ctx, &chat.APNsProvider{ProviderID: "p"})
		require.NoError(t, err)
		assert.Equal(t, &chat.Result{}, r)
	})
	t.Run("contact details may be empty", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"data":{}}`)
		cd, err := client.Notifications.GetContactDetails(ctx, "alice")
		require.NoError(t, err)
		assert.Equal(t, &chat.ContactDetails{}, cd)
	})
	t.Run("an error object in a 2xx is no data, with its code", func(t *testing.T) {
		client, m := wiretest.Chat(t)
		m.Reply(http.StatusOK, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"no such user"}}`)
		_, err := client.Users.Get(ctx, "u1")
		assert.ErrorIs(t, err, chat.ErrEmptyResponse)
		assert.ErrorIs(t, err, chat.ErrNotFound)
		ce := wiretest.RequireAPIError(t, err)
		assert.Equal(t, "no such user", ce.Message)
	})
}

func TestErrorScrubsTheAPIKey(t *testing.T) {
	ce, err := getUserError(t, http.StatusUnauthorized, `{"error":{"code":"AUTH_ERR_APIKEY_NOT_FOUND",
		"message":"The apikey `+wiretest.APIKey+` is not valid.","devMessage":"apikey=`+wiretest.APIKey+`",
		"details":{"apikey":["`+wiretest.APIKey+` unknown"]}}}`)
	assert.Equal(t, "The apikey REDACTED is not valid.", ce.Message)
	assert.Equal(t, "apikey=REDACTED", ce.DevMessage)
	assert.Equal(t, map[string][]string{"apikey": {"REDACTED unknown"}}, ce.Details)
	for verb, out := range formatted(err) {
		assert.NotContains(t, out, wiretest.APIKey, verb)
	}
	assert.ErrorIs(t, err, chat.ErrUnauthorized)
}
