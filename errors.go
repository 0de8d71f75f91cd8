package chat

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// Error is a failed call: the service answered with a non-2xx status, or a
// 2xx response could not be read. Use [errors.As] to inspect it and
// [errors.Is] with the sentinels ([ErrNotFound], ...) for common cases.
//
// An Error never holds the API key or an auth token: secret path segments are
// shown as REDACTED, and credentials echoed by the server are scrubbed.
type Error struct {
	// StatusCode is the HTTP status, e.g. 404.
	StatusCode int
	// Code is the API's error code, e.g. "ERR_UID_NOT_FOUND"; empty when the
	// body was not the API's JSON (a proxy's HTML page, say).
	Code string
	// Message is the API's human-readable message.
	Message string
	// DevMessage is the API's message meant for developers.
	DevMessage string
	// Source names the service that failed, e.g. "chat-api".
	Source string
	// Details maps each invalid request field to its problems (status 400).
	Details map[string][]string
	// Method is the request method.
	Method string
	// Path is the request path, e.g. "/v3/messages/42/thread".
	Path string
	// Attempts is how many times the request was sent (retries included).
	Attempts int
	// RateLimit is the X-Rate-Limit header: the budget per minute.
	RateLimit int
	// RateLimitRemaining is the X-Rate-Limit-Remaining header.
	RateLimitRemaining int
	// RateLimitReset is the X-Rate-Limit-Reset header: when the budget
	// refills. Zero when absent.
	RateLimitReset time.Time
	// RetryAfter is the Retry-After header as a duration. Zero when absent.
	RetryAfter time.Duration
	// Err is the underlying cause when the response could not be read or
	// decoded; nil otherwise.
	Err error
}

// Error names the request, the status and the API's code and message.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("chat: ")
	if e.Method != "" {
		b.WriteString(e.Method + " " + e.Path + ": ")
	}
	b.WriteString(strconv.Itoa(e.StatusCode))
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, k := range rest.SortedKeys(e.Details) {
		b.WriteString("; " + k + ": " + strings.Join(e.Details[k], ", "))
	}
	return b.String()
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether e falls under one of the package's sentinel errors.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == 404 || strings.HasSuffix(e.Code, "_NOT_FOUND")
	case ErrUnauthorized:
		return e.StatusCode == 401 || e.Code == "AUTH_ERR_EMPTY_APIKEY" || e.Code == "AUTH_ERR_APIKEY_NOT_FOUND" ||
			e.Code == "AUTH_ERR_EMPTY_AUTH_HEADER" || e.Code == "AUTH_ERR_EMPTY_APPID" || e.Code == "AUTH_ERR_INVALID_APPID"
	case ErrForbidden:
		return e.StatusCode == 403 || e.Code == "AUTH_ERR_NO_ACCESS" || e.Code == "ERR_PERMISSION_DENIED"
	case ErrRateLimited:
		return e.StatusCode == 429 || e.Code == "ERR_TOO_MANY_REQUESTS"
	case ErrBadRequest:
		return e.StatusCode == 400 || e.Code == "ERR_BAD_REQUEST"
	case ErrConflict:
		return e.StatusCode == 409 || strings.HasPrefix(e.Code, "ERR_ALREADY_") || strings.HasSuffix(e.Code, "_ALREADY_EXISTS")
	}
	return false
}

// Sentinel errors for the common failures; match them with [errors.Is].
var (
	// ErrNotFound: status 404 or a *_NOT_FOUND code.
	ErrNotFound = errors.New("chat: not found")
	// ErrUnauthorized: status 401, or a missing or unknown API key.
	ErrUnauthorized = errors.New("chat: unauthorized")
	// ErrForbidden: status 403; the key's scope or the acting user's
	// permissions do not allow the operation (AUTH_ERR_NO_ACCESS,
	// ERR_PERMISSION_DENIED).
	ErrForbidden = errors.New("chat: forbidden")
	// ErrRateLimited: status 429 (ERR_TOO_MANY_REQUESTS), after retries.
	ErrRateLimited = errors.New("chat: rate limited")
	// ErrBadRequest: status 400; see [Error.Details].
	ErrBadRequest = errors.New("chat: bad request")
	// ErrConflict: status 409, or an ERR_ALREADY_* / *_ALREADY_EXISTS code.
	ErrConflict = errors.New("chat: conflict")
	// ErrInvalidArgument matches every [*ArgumentError].
	ErrInvalidArgument = errors.New("chat: invalid argument")
	// ErrPaginationStalled is yielded by an iterator whose next page would
	// repeat one already fetched; it stops instead of looping.
	ErrPaginationStalled = rest.ErrPaginationStalled
)

// ArgumentError reports a bad argument, found before any request was sent.
// It names the argument but never shows its value.
type ArgumentError struct {
	// Name is the argument, e.g. "parentID" or "onBehalfOf".
	Name string
	// Problem says what is wrong, e.g. "must not be empty".
	Problem string
}

// Error names the argument and the problem.
func (e *ArgumentError) Error() string {
	return "chat: invalid argument " + e.Name + ": " + e.Problem
}

// Is makes errors.Is(err, ErrInvalidArgument) true.
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArgument }

func newArgError(name, problem string) error { return &ArgumentError{Name: name, Problem: problem} }

func newError(f *rest.Failure) error { return (*Error)(f) }
