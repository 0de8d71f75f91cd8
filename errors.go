package chat

import (
	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/rest"
)

// Error is a failed call: the service answered with a non-2xx status, or a
// 2xx response could not be read. Use [errors.As] to inspect it and
// [errors.Is] with the sentinels ([ErrNotFound], ...) for common cases.
// It holds the status, the API's code, message, developer message, source
// and field details, the request's method and path, the number of
// attempts, the rate-limit headers and the wait the server asked for.
//
// An Error never holds the API key or an auth token: secret path segments are
// shown as REDACTED, and credentials echoed by the server are scrubbed.
type Error = engine.Error

// ArgumentError reports a bad argument, found before any request was sent.
// It names the argument but never shows its value.
type ArgumentError = engine.ArgumentError

// ClassOf returns the sentinel error that a failure with this API code and
// HTTP status matches with [errors.Is]: [ErrUnauthorized], [ErrForbidden],
// [ErrNotFound], [ErrConflict], [ErrBadRequest], [ErrLimitExceeded],
// [ErrRateLimited] or [ErrServer]; nil when neither the code nor the status
// names a class (a 2xx status with no code, say). A 403 is ErrForbidden
// whatever its code; errors.Is also matches the class its code names.
func ClassOf(code string, status int) error { return engine.ClassOf(code, status) }

// classOf is [ClassOf].
func classOf(code string, status int) error { return engine.ClassOf(code, status) }

// Sentinel errors for the classes of failure; match them with [errors.Is].
// Every [*Error] matches one of the first eight (see [ClassOf]); a 403
// whose code names another class matches that one too.
var (
	// ErrUnauthorized: the API key, app id or auth token is missing or
	// unknown, or the key's scope does not allow the operation (an
	// authOnly key listing users, a 403 that matches [ErrForbidden] too):
	// every AUTH_ERR_* code, and any status 401.
	ErrUnauthorized = engine.ErrUnauthorized
	// ErrForbidden: the acting user, the key or the app may not do this
	// (ERR_PERMISSION_DENIED, ERR_GROUP_NO_ADMIN_SCOPE, a blocked
	// receiver, ...); every status 403, whatever its code.
	ErrForbidden = engine.ErrForbidden
	// ErrNotFound: the user, group, message or other resource does not
	// exist (ERR_UID_NOT_FOUND, ...); status 404.
	ErrNotFound = engine.ErrNotFound
	// ErrConflict: the state already is what the call would make it, or
	// the resource is busy (ERR_ALREADY_JOINED, ERR_UID_ALREADY_EXISTS,
	// ...); status 409.
	ErrConflict = engine.ErrConflict
	// ErrBadRequest: the request is invalid (ERR_BAD_REQUEST with
	// [Error.Details], ERR_INVALID_*, ERR_EMPTY_*, ...); any other 4xx
	// status for codes the SDK does not know.
	ErrBadRequest = engine.ErrBadRequest
	// ErrLimitExceeded: the app's plan or one of the service's count limits
	// does not allow more (ERR_PLAN_QUOTA_RESTRICTION,
	// ERR_PINNED_MESSAGES_LIMIT_EXCEEDED, ...); status 413.
	ErrLimitExceeded = engine.ErrLimitExceeded
	// ErrRateLimited: status 429 (ERR_TOO_MANY_REQUESTS), after retries.
	ErrRateLimited = engine.ErrRateLimited
	// ErrServer: the service failed to carry the request out
	// (ERR_MISSION_FAILED, ERR_*_FAILED, ...), or any 5xx status. For a
	// write, the change may or may not have been applied.
	ErrServer = engine.ErrServer
	// ErrEmptyResponse is the [Error.Err] of a 2xx answer that held no data
	// where the operation returns some (an empty body, null, {} or
	// {"data": null}). For a write, the change may have been applied.
	ErrEmptyResponse = engine.ErrEmptyResponse
	// ErrInvalidArgument matches every [*ArgumentError].
	ErrInvalidArgument = engine.ErrInvalidArgument
	// ErrPaginationStalled is yielded by an iterator whose next page would
	// repeat one already fetched; it stops instead of looping.
	ErrPaginationStalled = rest.ErrPaginationStalled
)

func newArgError(name, problem string) error { return engine.NewArgError(name, problem) }
