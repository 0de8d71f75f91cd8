package engine

import (
	"encoding/json"
	"errors"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatrest/chat/internal/redact"
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
	// RetryAfter is the wait the server asked for: the Retry-After header
	// (seconds or an HTTP date), else for a 429 the time until
	// X-Rate-Limit-Reset. Zero when it asked for none. A value the SDK
	// cannot read (text, a negative number, one too large to represent)
	// is the longest Duration: too long to wait for.
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
	for _, k := range slices.Sorted(maps.Keys(e.Details)) {
		// A detail that repeats the message (a 400 naming one field) is
		// said once.
		var vs []string
		for _, v := range e.Details[k] {
			if v != e.Message {
				vs = append(vs, v)
			}
		}
		if len(vs) > 0 {
			b.WriteString("; " + k + ": " + strings.Join(vs, ", "))
		}
	}
	return b.String()
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether e falls under target, one of the package's sentinel
// errors: the one its API code names, or for a code the SDK does not know,
// the one its HTTP status names (see [ClassOf]). A 403 falls under
// [ErrForbidden] whatever its code, and under the class its code names as
// well: a 403 AUTH_ERR_NO_ACCESS (a key whose scope does not allow the
// operation) matches both ErrForbidden and [ErrUnauthorized]. A 2xx answer
// that held no data matches [ErrEmptyResponse] (through [Error.Unwrap]).
func (e *Error) Is(target error) bool {
	return target != nil && (target == classOf(e.Code, e.StatusCode) || target == codeClass(e.Code))
}

// ClassOf returns the sentinel error that a failure with this API code and
// HTTP status matches with [errors.Is]: [ErrUnauthorized], [ErrForbidden],
// [ErrNotFound], [ErrConflict], [ErrBadRequest], [ErrLimitExceeded],
// [ErrRateLimited] or [ErrServer]; nil when neither the code nor the status
// names a class (a 2xx status with no code, say). A 403 is ErrForbidden
// whatever its code; errors.Is also matches the class its code names.
func ClassOf(code string, status int) error { return classOf(code, status) }

// classOf is [ClassOf]: a 403 is forbidden, else the code's class, else
// the status's.
func classOf(code string, status int) error {
	if status == http.StatusForbidden {
		return ErrForbidden
	}
	if c := codeClass(code); c != nil {
		return c
	}
	switch {
	case status == http.StatusUnauthorized:
		return ErrUnauthorized
	case status == http.StatusNotFound, status == http.StatusGone:
		return ErrNotFound
	case status == http.StatusConflict:
		return ErrConflict
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status == http.StatusRequestEntityTooLarge:
		return ErrLimitExceeded
	case status >= 400 && status < 500:
		return ErrBadRequest
	case status >= 500 && status < 600:
		return ErrServer
	}
	return nil
}

// codeClass returns the class an API code names: its entry in codeClasses,
// else the class its name says; nil for an empty code or one whose name
// says nothing.
func codeClass(code string) error {
	if code == "" {
		return nil
	}
	if s, ok := codeClasses[code]; ok {
		return s
	}
	switch {
	case strings.HasPrefix(code, "AUTH_ERR_"):
		return ErrUnauthorized
	case strings.HasSuffix(code, "_NOT_FOUND"):
		return ErrNotFound
	case strings.HasPrefix(code, "ERR_ALREADY_"), strings.HasSuffix(code, "_ALREADY_EXISTS"):
		return ErrConflict
	case strings.HasSuffix(code, "_LIMIT_EXCEEDED"):
		return ErrLimitExceeded
	case strings.HasPrefix(code, "ERR_EMPTY_"), strings.HasPrefix(code, "ERR_INVALID_"):
		return ErrBadRequest
	case strings.HasSuffix(code, "_FAILED"):
		return ErrServer
	}
	return nil
}

// codeClasses gives every documented error code of the API its class; the
// rules in classOf cover the others.
var codeClasses = map[string]error{
	// Authentication: the key, app id or auth token is missing, unknown or
	// not allowed.
	"AUTH_ERR_EMPTY_APPID":          ErrUnauthorized,
	"AUTH_ERR_INVALID_APPID":        ErrUnauthorized,
	"AUTH_ERR_EMPTY_APIKEY":         ErrUnauthorized,
	"AUTH_ERR_APIKEY_NOT_FOUND":     ErrUnauthorized,
	"AUTH_ERR_NO_ACCESS":            ErrUnauthorized,
	"AUTH_ERR_EMPTY_AUTH_HEADER":    ErrUnauthorized,
	"AUTH_ERR_EMPTY_AUTH_TOKEN":     ErrUnauthorized,
	"AUTH_ERR_AUTH_TOKEN_NOT_FOUND": ErrUnauthorized,
	"ERR_UNAUTHORIZED":              ErrUnauthorized,

	// Not found.
	"ERR_NOT_FOUND":              ErrNotFound,
	"ERR_APIKEY_NOT_FOUND":       ErrNotFound,
	"ERR_AUTH_TOKEN_NOT_FOUND":   ErrNotFound,
	"ERR_ROLE_NOT_FOUND":         ErrNotFound,
	"ERR_UID_NOT_FOUND":          ErrNotFound,
	"ERR_BOT_NOT_FOUND":          ErrNotFound,
	"ERR_GUID_NOT_FOUND":         ErrNotFound,
	"ERR_NOT_A_MEMBER":           ErrNotFound,
	"ERR_NOT_A_BANNED_USER":      ErrNotFound,
	"ERR_CONVERSATION_NOT_FOUND": ErrNotFound,
	"ERR_MSG_NOT_FOUND":          ErrNotFound,
	"ERR_MESSAGE_ID_NOT_FOUND":   ErrNotFound,
	"ERR_CALL_SESSION_NOT_FOUND": ErrNotFound,
	"ERR_NOT_A_FRIEND":           ErrNotFound,
	"ERR_EXTENSION_NOT_FOUND":    ErrNotFound,
	"ERR_WEBHOOK_NOT_FOUND":      ErrNotFound,
	"ERR_TRIGGER_NOT_FOUND":      ErrNotFound,
	"ERR_API_NOT_FOUND":          ErrNotFound,
	"ERR_APP_NOT_FOUND":          ErrNotFound,
	"ERR_NOT_A_COLLABORATOR":     ErrNotFound,
	"ERR_PROVIDER_NOT_FOUND":     ErrNotFound,
	"ERR_TOKEN_NOT_FOUND":        ErrNotFound,
	"ERR_RULE_NOT_FOUND":         ErrNotFound,
	"ERR_KEYWORD_NOT_FOUND":      ErrNotFound,
	"ERR_REASON_NOT_FOUND":       ErrNotFound,
	"ERR_AGENT_NOT_FOUND":        ErrNotFound,
	"ERR_TOOL_NOT_FOUND":         ErrNotFound,
	"ERR_KB_NOT_FOUND":           ErrNotFound,

	// Forbidden: the acting user, the key or the app may not do this.
	"ERR_PERMISSION_DENIED":           ErrForbidden,
	"ERR_ROLE_DELETE_DENIED":          ErrForbidden,
	"ERR_WRONG_GROUP_PASS":            ErrForbidden,
	"ERR_GROUP_NOT_JOINED":            ErrForbidden,
	"ERR_GROUP_JOIN_NOT_ALLOWED":      ErrForbidden,
	"ERR_BANNED_GROUPMEMBER":          ErrForbidden,
	"ERR_GROUP_NO_CLEARANCE":          ErrForbidden,
	"ERR_GROUP_NO_ADMIN_SCOPE":        ErrForbidden,
	"ERR_GROUP_NO_MODERATOR_SCOPE":    ErrForbidden,
	"ERR_GROUP_NO_SCOPE_CLEARANCE":    ErrForbidden,
	"ERR_GROUP_NO_SELF_ACTION":        ErrForbidden,
	"ERR_CONVERSATION_NOT_ACCESSIBLE": ErrForbidden,
	"ERR_MESSAGE_NOT_A_SENDER":        ErrForbidden,
	"ERR_MESSAGE_NO_ACCESS":           ErrForbidden,
	"ERR_MESSAGE_ACTION_NOT_ALLOWED":  ErrForbidden,
	"ERR_SYSTEM_PINNED_CONVERSATION":  ErrForbidden,
	"ERR_CALL_NOT_A_PART":             ErrForbidden,
	"ERR_BLOCKED_RECEIVER":            ErrForbidden,
	"ERR_BLOCKED_SENDER":              ErrForbidden,
	"ERR_BLOCKED_BY_EXTENSION":        ErrForbidden,
	"ERR_BLOCKED_BY_WEBHOOK":          ErrForbidden,
	"ERR_SELF_ACTION_DENIED":          ErrForbidden,
	"ERR_APP_ARCHIVED":                ErrForbidden,
	"ERR_EXTENSION_INACTIVE":          ErrForbidden,
	"ERR_APIKEY_NO_SELF_ACTION":       ErrForbidden,
	"ERR_AUTHTOKEN_UNAVAILABLE":       ErrForbidden,
	"ERR_AUTHTOKEN_NOT_ACCESSIBLE":    ErrForbidden,
	"ERR_APP_DELETION":                ErrForbidden,

	// Conflict: the state already is what the call would make it, or
	// another call holds it.
	"ERR_BOT_ALREADY_EXISTS":         ErrConflict,
	"ERR_UID_ALREADY_EXISTS":         ErrConflict,
	"ERR_ALREADY_JOINED":             ErrConflict,
	"ERR_ALREADY_BANNED":             ErrConflict,
	"ERR_ALREADY_FRIEND":             ErrConflict,
	"ERR_ALREADY_AN_OWNER":           ErrConflict,
	"ERR_PROVIDER_ALREADY_EXISTS":    ErrConflict,
	"ERR_TOKEN_ALREADY_EXISTS":       ErrConflict,
	"ERR_IMPORT_MUID_ALREADY_EXISTS": ErrConflict,
	"ERR_TOOL_ALREADY_ADDED":         ErrConflict,
	"ERR_CALL_BUSY_SELF":             ErrConflict,
	"ERR_CALL_BUSY_GROUP":            ErrConflict,
	"ERR_CALL_BUSY_USER":             ErrConflict,
	"ERR_CALL_TERMINATED":            ErrConflict,
	"ERR_CALL_GROUP_ALREADY_JOINED":  ErrConflict,
	"ERR_CALL_GROUP_ALREADY_LEFT":    ErrConflict,
	"ERR_CALL_USER_ALREADY_JOINED":   ErrConflict,
	"ERR_CALL_NOT_STARTED":           ErrConflict,

	// Bad request: the request itself is wrong.
	"ERR_BAD_REQUEST":                   ErrBadRequest,
	"ERR_INVALID_API_VERSION":           ErrBadRequest,
	"ERR_EMPTY_GROUP_PASS":              ErrBadRequest,
	"ERR_SAME_SCOPE":                    ErrBadRequest,
	"ERR_EMPTY_RECEIVER":                ErrBadRequest,
	"ERR_INVALID_RECEIVER_TYPE":         ErrBadRequest,
	"ERR_INVALID_MESSAGE_DATA":          ErrBadRequest,
	"ERR_EMPTY_MESSAGE_TEXT":            ErrBadRequest,
	"ERR_INVALID_MESSAGE_TEXT":          ErrBadRequest,
	"ERR_EMPTY_MESSAGE_CATEGORY":        ErrBadRequest,
	"ERR_INVALID_MESSAGE_CATEGORY":      ErrBadRequest,
	"ERR_EMPTY_MESSAGE_TYPE":            ErrBadRequest,
	"ERR_INVALID_MESSAGE_TYPE":          ErrBadRequest,
	"ERR_EMPTY_MESSAGE_FILE":            ErrBadRequest,
	"ERR_EMPTY_CUSTOM_DATA":             ErrBadRequest,
	"ERR_INVALID_MEDIA_MESSAGE":         ErrBadRequest,
	"ERR_INVALID_CUSTOM_DATA":           ErrBadRequest,
	"ERR_INVALID_METADATA":              ErrBadRequest,
	"ERR_WRONG_MESSAGE_THREAD":          ErrBadRequest,
	"ERR_MESSAGE_THREAD_NESTING":        ErrBadRequest,
	"ERR_WRONG_MESSAGE_THREAD_CATEGORY": ErrBadRequest,
	"ERR_CALLING_SELF":                  ErrBadRequest,
	"ERR_EMPTY_CALL_SESSION_ID":         ErrBadRequest,
	"ERR_CALL_INVALID_INIT":             ErrBadRequest,
	"ERR_CALL_GROUP_INVALID_STATUS":     ErrBadRequest,
	"ERR_CALL_ONGOING_TO_INVALID":       ErrBadRequest,
	"ERR_CALL_EMPTY_JOINED_AT":          ErrBadRequest,
	"ERR_CANNOT_FORM_SELF_RELATION":     ErrBadRequest,
	"ERR_CANNOT_BLOCK_SELF":             ErrBadRequest,
	"ERR_IMPORT_INVALID_MESSAGE_FORMAT": ErrBadRequest,
	"ERR_IMPORT_INVALID_USER_FORMAT":    ErrBadRequest,
	"ERR_IMPORT_INVALID_MEMBER_FORMAT":  ErrBadRequest,
	"ERR_IMPORT_INVALID_JOINEDAT":       ErrBadRequest,
	"ERR_IMPORT_INVALID_GROUP_FORMAT":   ErrBadRequest,

	// Limits: a plan's quota, or a count the service caps.
	"ERR_PLAN_RESTRICTION":                           ErrLimitExceeded,
	"ERR_SUBSCRIPTION_EXPIRED":                       ErrLimitExceeded,
	"ERR_PLAN_QUOTA_RESTRICTION":                     ErrLimitExceeded,
	"ERR_NO_VACANCY":                                 ErrLimitExceeded,
	"ERR_PINNED_MESSAGES_LIMIT_EXCEEDED":             ErrLimitExceeded,
	"ERR_SAVED_MESSAGES_LIMIT_EXCEEDED":              ErrLimitExceeded,
	"ERR_PINNED_CONVERSATIONS_LIMIT_EXCEEDED":        ErrLimitExceeded,
	"ERR_SYSTEM_PINNED_CONVERSATIONS_LIMIT_EXCEEDED": ErrLimitExceeded,
	"ERR_APP_CREATION_FAILED_MAX_LIMIT":              ErrLimitExceeded,

	// Rate limited.
	"ERR_TOO_MANY_REQUESTS": ErrRateLimited,

	// The service failed to carry the request out.
	"ERR_MISSION_FAILED":             ErrServer,
	"ERR_OPERATION_FAILED":           ErrServer,
	"ERR_EXCEPTION":                  ErrServer,
	"ERR_BAD_ERROR_RESPONSE":         ErrServer,
	"ERR_AUTH_TOKEN_DELETE_FAILED":   ErrServer,
	"ERR_AUTH_TOKENS_DELETE_FAILED":  ErrServer,
	"ERR_ROLE_DELETE_FAILED":         ErrServer,
	"ERR_UID_DELETE_FAILED":          ErrServer,
	"ERR_GROUP_DELETE_FAILED":        ErrServer,
	"ERR_MEMBER_DELETE_FAILED":       ErrServer,
	"ERR_MEMBER_SCOPE_CHANGE_FAILED": ErrServer,
	"ERR_MEMBER_BAN_FAILED":          ErrServer,
	"ERR_MEMBER_UNBAN_FAILED":        ErrServer,
	"ERR_USER_MESSAGE_DELETE_FAILED": ErrServer,
	"ERR_FAILED_TO_ADD_FRIEND":       ErrServer,
	"ERR_AGENT_CREATION_FAILED":      ErrServer,
	"ERR_KB_INDEXING_FAILED":         ErrServer,
	"ERR_WS_INIT_FAILED":             ErrServer,
	"ERR_WS_APP_INIT_FAILED":         ErrServer,
	"ERR_WS_APP_DESTROY_FAILED":      ErrServer,
	"ERR_WS_ROLE_CREATION_FAILED":    ErrServer,
	"ERR_WS_ROLE_DELETION_FAILED":    ErrServer,
	"ERR_WS_USER_CREATION_FAILED":    ErrServer,
	"ERR_WS_USER_UPDATION_FAILED":    ErrServer,
	"ERR_WS_GROUP_CREATION_FAILED":   ErrServer,
	"ERR_WS_GROUP_DELETION_FAILED":   ErrServer,
	"ERR_WS_GROUP_JOIN_FAILED":       ErrServer,
}

// Sentinel errors for the classes of failure; match them with [errors.Is].
// Every [*Error] matches one of the first eight (see [ClassOf]); a 403
// whose code names another class matches that one too.
var (
	// ErrUnauthorized: the API key, app id or auth token is missing or
	// unknown, or the key's scope does not allow the operation (an
	// authOnly key listing users, a 403 that matches [ErrForbidden] too):
	// every AUTH_ERR_* code, and any status 401.
	ErrUnauthorized = errors.New("chat: unauthorized")
	// ErrForbidden: the acting user, the key or the app may not do this
	// (ERR_PERMISSION_DENIED, ERR_GROUP_NO_ADMIN_SCOPE, a blocked
	// receiver, ...); every status 403, whatever its code.
	ErrForbidden = errors.New("chat: forbidden")
	// ErrNotFound: the user, group, message or other resource does not
	// exist (ERR_UID_NOT_FOUND, ...); status 404.
	ErrNotFound = errors.New("chat: not found")
	// ErrConflict: the state already is what the call would make it, or
	// the resource is busy (ERR_ALREADY_JOINED, ERR_UID_ALREADY_EXISTS,
	// ...); status 409.
	ErrConflict = errors.New("chat: conflict")
	// ErrBadRequest: the request is invalid (ERR_BAD_REQUEST with
	// [Error.Details], ERR_INVALID_*, ERR_EMPTY_*, ...); any other 4xx
	// status for codes the SDK does not know.
	ErrBadRequest = errors.New("chat: bad request")
	// ErrLimitExceeded: the app's plan or one of the service's count limits
	// does not allow more (ERR_PLAN_QUOTA_RESTRICTION,
	// ERR_PINNED_MESSAGES_LIMIT_EXCEEDED, ...); status 413.
	ErrLimitExceeded = errors.New("chat: limit exceeded")
	// ErrRateLimited: status 429 (ERR_TOO_MANY_REQUESTS), after retries.
	ErrRateLimited = errors.New("chat: rate limited")
	// ErrServer: the service failed to carry the request out
	// (ERR_MISSION_FAILED, ERR_*_FAILED, ...), or any 5xx status. For a
	// write, the change may or may not have been applied.
	ErrServer = errors.New("chat: server error")
	// ErrEmptyResponse is the [Error.Err] of a 2xx answer that held no data
	// where the operation returns some (an empty body, null, {} or
	// {"data": null}). For a write, the change may have been applied.
	ErrEmptyResponse = errors.New("chat: the response held no data")
	// ErrInvalidArgument matches every [*ArgumentError].
	ErrInvalidArgument = errors.New("chat: invalid argument")
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

// NewArgError returns an [*ArgumentError] naming the argument name and its
// problem.
func NewArgError(name, problem string) error { return &ArgumentError{Name: name, Problem: problem} }

// newError builds the call's *Error from an answer: its status and
// rate-limit headers, and from body the API's error object (or a
// description of a body that is not one). cause is the underlying error,
// if any, and message, when not empty, replaces the API's message. Every
// credential the call carries is scrubbed from every text a server fills.
func (cl *call) newError(resp *http.Response, body []byte, cause error, message string) *Error {
	e := &Error{
		StatusCode: resp.StatusCode,
		Method:     cl.method,
		Path:       cl.c.basePath + cl.shownPath,
		Attempts:   cl.attempts,
		Err:        cause,
	}
	h := resp.Header
	e.RateLimit, _ = strconv.Atoi(h.Get("X-Rate-Limit"))
	e.RateLimitRemaining, _ = strconv.Atoi(h.Get("X-Rate-Limit-Remaining"))
	if s, err := strconv.ParseInt(h.Get("X-Rate-Limit-Reset"), 10, 64); err == nil && s > 0 && s <= rest.MaxUnix {
		e.RateLimitReset = time.Unix(s, 0)
	}
	e.RetryAfter, _ = serverWait(resp.StatusCode, h, time.Now())
	if len(body) > 0 {
		var w wireError
		if json.Unmarshal(body, &w) == nil && w.Error != nil {
			e.Code = jsonString(w.Error.Code)
			e.Message = w.Error.Message
			e.DevMessage = w.Error.DevMessage
			e.Source = w.Error.Source
			e.Details = details(w.Error.Details)
		} else if cause == nil {
			e.Message = unrecognisedMessage(resp, body)
		}
	}
	if message != "" {
		e.Message = message
	}
	if e.Message == "" && e.Code == "" && e.StatusCode >= 300 {
		e.Message = http.StatusText(e.StatusCode)
	}
	// A server may echo what it was sent in any of these.
	e.Code, e.Message, e.DevMessage, e.Source = cl.scrub(e.Code), cl.scrub(e.Message), cl.scrub(e.DevMessage), cl.scrub(e.Source)
	e.Details = redact.ScrubDetails(e.Details, cl.scrub)
	e.Err = scrubErr(e.Err, cl.credentials())
	return e
}

// wireError is the service's error body: {"error": {...}}.
type wireError struct {
	Error *struct {
		Code       json.RawMessage            `json:"code"`
		Message    string                     `json:"message"`
		DevMessage string                     `json:"devMessage"`
		Source     string                     `json:"source"`
		Details    map[string]json.RawMessage `json:"details"`
	} `json:"error"`
}

// jsonString reads a JSON string, or a number as its text.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// details normalises {"field": ["msg", ...]} and {"field": "msg"}.
func details(in map[string]json.RawMessage) map[string][]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string][]string, len(in))
	for k, raw := range in {
		var list []string
		if json.Unmarshal(raw, &list) == nil {
			out[k] = list
			continue
		}
		if s := jsonString(raw); s != "" {
			out[k] = []string{s}
			continue
		}
		out[k] = []string{string(raw)}
	}
	return out
}

// unrecognisedMessage describes an error body that is not the API's
// {"error": {...}} object: a proxy's HTML page, or other JSON.
func unrecognisedMessage(resp *http.Response, body []byte) string {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "" {
		mt = "unknown content type"
	}
	if json.Valid(body) {
		return "error response is JSON but not the API's error object (" + mt + ")"
	}
	return "non-JSON error response (" + mt + ")"
}

// redactErr rewrites the URL in a transport error so that secret path
// segments do not show, and removes secrets from the text of the error it
// wraps (a proxy or a custom transport may quote the URL).
func redactErr(err error, shown string, secrets []string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return &url.Error{Op: ue.Op, URL: shown, Err: scrubErr(ue.Err, secrets)}
	}
	return scrubErr(err, secrets)
}

// scrubErr returns err, or when its text shows a secret, an error with that
// text scrubbed.
func scrubErr(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if shown := redact.Scrub(msg, secrets); shown != msg {
		return &scrubbedError{msg: shown, err: err}
	}
	return err
}

// scrubbedError is an error whose text showed a secret, with that text
// scrubbed.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }

// Is matches what the scrubbed error matches (a context's error, a
// syscall error): errors.Is still works. There is no Unwrap, which would
// hand out the error whose text shows the secret.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.err, target) }

// Timeout keeps url.Error.Timeout working through the wrapper.
func (e *scrubbedError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.err, &t) && t.Timeout()
}
