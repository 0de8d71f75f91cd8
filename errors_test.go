package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// getUserError makes Users.Get("nobody") fail with the given response and
// returns the *chat.Error. Retries are off.
func getUserError(t *testing.T, status int, body string, header ...string) (*chat.Error, error) {
	t.Helper()
	m := newMockAPI(t)
	m.serve(func(int, *http.Request) (*http.Response, error) {
		resp := jsonResponse(status, body, header...)
		return resp, nil
	})
	user, err := m.client.Users.Get(context.Background(), "nobody")
	assert.Nil(t, user)
	return requireAPIError(t, err), err
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
		{name: "403", status: http.StatusForbidden, code: "AUTH_ERR_NO_ACCESS", wantSentinel: chat.ErrForbidden},
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
			header: []string{"Retry-After", "soon"}, wantSentinel: chat.ErrRateLimited},
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
		assert.Error(t, ce.Unwrap())
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
	all := []error{chat.ErrNotFound, chat.ErrUnauthorized, chat.ErrForbidden, chat.ErrRateLimited,
		chat.ErrBadRequest, chat.ErrConflict, chat.ErrInvalidArgument, chat.ErrPaginationStalled}
	tests := []struct {
		name string
		err  error
		want []error // every other sentinel must not match
	}{
		{"404", &chat.Error{StatusCode: 404}, []error{chat.ErrNotFound}},
		{"a _NOT_FOUND code on a 400", &chat.Error{StatusCode: 400, Code: "ERR_GUID_NOT_FOUND"}, []error{chat.ErrNotFound, chat.ErrBadRequest}},
		{"401", &chat.Error{StatusCode: 401}, []error{chat.ErrUnauthorized}},
		{"empty API key code", &chat.Error{StatusCode: 400, Code: "AUTH_ERR_EMPTY_APIKEY"}, []error{chat.ErrUnauthorized, chat.ErrBadRequest}},
		{"unknown API key code", &chat.Error{StatusCode: 200, Code: "AUTH_ERR_APIKEY_NOT_FOUND"}, []error{chat.ErrUnauthorized, chat.ErrNotFound}},
		{"403", &chat.Error{StatusCode: 403}, []error{chat.ErrForbidden}},
		{"no access code", &chat.Error{StatusCode: 401, Code: "AUTH_ERR_NO_ACCESS"}, []error{chat.ErrForbidden, chat.ErrUnauthorized}},
		{"permission denied code", &chat.Error{StatusCode: 400, Code: "ERR_PERMISSION_DENIED"}, []error{chat.ErrForbidden, chat.ErrBadRequest}},
		{"429", &chat.Error{StatusCode: 429}, []error{chat.ErrRateLimited}},
		{"too many requests code", &chat.Error{StatusCode: 400, Code: "ERR_TOO_MANY_REQUESTS"}, []error{chat.ErrRateLimited, chat.ErrBadRequest}},
		{"400", &chat.Error{StatusCode: 400}, []error{chat.ErrBadRequest}},
		{"409", &chat.Error{StatusCode: 409}, []error{chat.ErrConflict}},
		{"ERR_ALREADY_ code", &chat.Error{StatusCode: 400, Code: "ERR_ALREADY_FRIEND"}, []error{chat.ErrConflict, chat.ErrBadRequest}},
		{"_ALREADY_EXISTS code", &chat.Error{StatusCode: 400, Code: "ERR_BOT_ALREADY_EXISTS"}, []error{chat.ErrConflict, chat.ErrBadRequest}},
		{"500", &chat.Error{StatusCode: 500, Code: "ERR_MISSION_FAILED"}, nil},
		{"502 without a code", &chat.Error{StatusCode: 502}, nil},
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

	m := newMockAPI(t)
	_, argErr := m.client.Users.Get(context.Background(), "")
	wrappedArg := fmt.Errorf("handler: %w", argErr)
	require.ErrorAs(t, wrappedArg, &ae)
	assert.Equal(t, "uid", ae.Name)
	assert.Equal(t, "chat: invalid argument uid: must not be empty", ae.Error())
	assert.False(t, errors.As(wrappedArg, &ce))
}

func TestErrorScrubsTheAPIKey(t *testing.T) {
	ce, err := getUserError(t, http.StatusUnauthorized, `{"error":{"code":"AUTH_ERR_APIKEY_NOT_FOUND",
		"message":"The apikey `+testAPIKey+` is not valid.","devMessage":"apikey=`+testAPIKey+`",
		"details":{"apikey":["`+testAPIKey+` unknown"]}}}`)
	assert.Equal(t, "The apikey REDACTED is not valid.", ce.Message)
	assert.Equal(t, "apikey=REDACTED", ce.DevMessage)
	assert.Equal(t, map[string][]string{"apikey": {"REDACTED unknown"}}, ce.Details)
	for verb, out := range formatted(err) {
		assert.NotContains(t, out, testAPIKey, verb)
	}
	assert.ErrorIs(t, err, chat.ErrUnauthorized)
}
