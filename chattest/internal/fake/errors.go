package fake

import (
	"fmt"
	"net/http"
	"sort"
)

// Error codes the fake answers with, as the service names them.
const (
	codeEmptyAPIKey           = "AUTH_ERR_EMPTY_APIKEY"
	codeAPIKeyUnknown         = "AUTH_ERR_APIKEY_NOT_FOUND"
	codeNoAccess              = "AUTH_ERR_NO_ACCESS"
	codeAPINotFound           = "ERR_API_NOT_FOUND"
	codeBadRequest            = "ERR_BAD_REQUEST"
	codeUIDNotFound           = "ERR_UID_NOT_FOUND"
	codeUIDExists             = "ERR_UID_ALREADY_EXISTS"
	codeAuthTokenNotFound     = "ERR_AUTH_TOKEN_NOT_FOUND"
	codeAPIKeyNotFound        = "ERR_APIKEY_NOT_FOUND"
	codeAPIKeyNoSelfAction    = "ERR_APIKEY_NO_SELF_ACTION"
	codePlanQuota             = "ERR_PLAN_QUOTA_RESTRICTION"
	codeMsgNotFound           = "ERR_MSG_NOT_FOUND"
	codeEmptyReceiver         = "ERR_EMPTY_RECEIVER"
	codeInvalidReceiverType   = "ERR_INVALID_RECEIVER_TYPE"
	codeInvalidMessageCateg   = "ERR_INVALID_MESSAGE_CATEGORY"
	codeInvalidMessageType    = "ERR_INVALID_MESSAGE_TYPE"
	codeMessageThreadNesting  = "ERR_MESSAGE_THREAD_NESTING"
	codeException             = "ERR_EXCEPTION"
	errorSource               = "chat-api"
	validationFailedMessage   = "Failed to validate the data sent with the request."
	onBehalfOfRequiredMessage = "The onBehalfOf header is required."
)

// apiError is an error answer: its HTTP status and the body's "error" object
// ({"code", "message", "devMessage", "source", "details"}).
type apiError struct {
	Status     int                 `json:"-"`
	Code       string              `json:"code"`
	Message    string              `json:"message"`
	DevMessage string              `json:"devMessage"`
	Source     string              `json:"source"`
	Details    map[string][]string `json:"details,omitempty"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func newAPIError(status int, code, message, devMessage string) *apiError {
	if devMessage == "" {
		devMessage = message
	}
	return &apiError{Status: status, Code: code, Message: message, DevMessage: devMessage, Source: errorSource}
}

// withDetail adds one validation message for field.
func (e *apiError) withDetail(field, message string) *apiError {
	if e.Details == nil {
		e.Details = map[string][]string{}
	}
	e.Details[field] = append(e.Details[field], message)
	return e
}

// validator collects validation problems per field; err reports them as one
// 400 ERR_BAD_REQUEST.
type validator struct {
	details map[string][]string
}

func (v *validator) add(field, format string, args ...any) {
	if v.details == nil {
		v.details = map[string][]string{}
	}
	v.details[field] = append(v.details[field], fmt.Sprintf(format, args...))
}

// err returns the collected problems as an error, or nil when there are none.
func (v *validator) err() error {
	if len(v.details) == 0 {
		return nil
	}
	return validationError(v.details)
}

// validationError is a 400 ERR_BAD_REQUEST with details; its devMessage
// repeats the first problem so that it shows in one line.
func validationError(details map[string][]string) *apiError {
	fields := make([]string, 0, len(details))
	for f := range details {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	e := newAPIError(http.StatusBadRequest, codeBadRequest, validationFailedMessage, details[fields[0]][0])
	e.Details = details
	return e
}

func errEmptyAPIKey() *apiError {
	return newAPIError(http.StatusUnauthorized, codeEmptyAPIKey,
		"The apikey header is missing or empty.",
		"Send the app's API key in the apikey header.")
}

func errAPIKeyUnknown(appID string) *apiError {
	return newAPIError(http.StatusUnauthorized, codeAPIKeyUnknown,
		"The API key sent in the apikey header does not exist for the app "+appID+".", "")
}

func errNoAccess() *apiError {
	return newAPIError(http.StatusForbidden, codeNoAccess,
		"The API key does not have access to this operation.",
		"An authOnly key can only create users and auth tokens; use a fullAccess key.")
}

func errAPINotFound(method, path string) *apiError {
	return newAPIError(http.StatusNotFound, codeAPINotFound,
		"The endpoint "+method+" "+path+" does not exist.", "")
}

func errOnBehalfOfRequired() *apiError {
	return newAPIError(http.StatusBadRequest, codeBadRequest, validationFailedMessage, onBehalfOfRequiredMessage).
		withDetail("onBehalfOf", onBehalfOfRequiredMessage)
}

func errUIDNotFound(uid string) *apiError {
	return newAPIError(http.StatusNotFound, codeUIDNotFound,
		"The user with uid "+uid+" does not exist or has been deactivated.", "")
}

func errUIDExists(uid string) *apiError {
	return newAPIError(http.StatusBadRequest, codeUIDExists,
		"The user with uid "+uid+" already exists.",
		"UIDs of deactivated and soft-deleted users stay taken unless the user was deleted permanently.")
}

func errAuthTokenNotFound(uid string) *apiError {
	return newAPIError(http.StatusNotFound, codeAuthTokenNotFound,
		"The auth token does not exist for the user "+uid+".", "")
}

func errAPIKeyNotFound() *apiError {
	return newAPIError(http.StatusNotFound, codeAPIKeyNotFound, "The API key does not exist.", "")
}

func errAPIKeyNoSelfAction() *apiError {
	return newAPIError(http.StatusBadRequest, codeAPIKeyNoSelfAction,
		"An API key cannot update or delete itself.",
		"Send the request with another fullAccess key.")
}

func errAPIKeyQuota() *apiError {
	return newAPIError(http.StatusBadRequest, codePlanQuota,
		fmt.Sprintf("An app can have at most %d API keys.", maxAPIKeys), "")
}

func errMsgNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeMsgNotFound,
		"The message with id "+id+" does not exist.", "")
}

func errEmptyReceiver() *apiError {
	return newAPIError(http.StatusBadRequest, codeEmptyReceiver, "The receiver is required.", "").
		withDetail("receiver", "The receiver field is required.")
}

func errInvalidReceiverType() *apiError {
	return newAPIError(http.StatusBadRequest, codeInvalidReceiverType,
		`The receiverType must be "user" or "group".`, "").
		withDetail("receiverType", `The receiverType must be "user" or "group".`)
}

func errInvalidCategory() *apiError {
	return newAPIError(http.StatusBadRequest, codeInvalidMessageCateg,
		`The category must be "message", "custom" or "interactive".`, "").
		withDetail("category", `The category must be "message", "custom" or "interactive".`)
}

func errInvalidType(category string) *apiError {
	msg := "The type is not valid for the category " + category + "."
	return newAPIError(http.StatusBadRequest, codeInvalidMessageType, msg, "").withDetail("type", msg)
}

func errThreadNesting(id string) *apiError {
	return newAPIError(http.StatusBadRequest, codeMessageThreadNesting,
		"The message "+id+" is a thread reply; replies cannot have threads of their own.", "")
}

func errInternal(err error) *apiError {
	return newAPIError(http.StatusInternalServerError, codeException,
		"The fake could not encode its answer.", err.Error())
}

// charLen counts characters as the API does (UTF8mb4, where an emoji counts
// as two): in UTF-16 code units.
func charLen(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// checkID validates a uid-like id (uid, guid, role), already lower-cased:
// required, at most 100 characters of a-z, 0-9, - and _.
func checkID(v *validator, field, id string) {
	if id == "" {
		v.add(field, "The %s field is required.", field)
		return
	}
	if len(id) > 100 {
		v.add(field, "The %s may not be greater than 100 characters.", field)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			v.add(field, "The %s may only contain letters, numbers, dashes and underscores.", field)
			return
		}
	}
}

// checkText validates a free-text field of at most maxLen characters.
func checkText(v *validator, field, s string, required bool, maxLen int) {
	if s == "" && required {
		v.add(field, "The %s field is required.", field)
		return
	}
	if charLen(s) > maxLen {
		v.add(field, "The %s may not be greater than %d characters.", field, maxLen)
	}
}

// checkTags validates tags: at most 25, each 1 to 100 characters.
func checkTags(v *validator, field string, tags []string) {
	if len(tags) > 25 {
		v.add(field, "The %s may not have more than 25 items.", field)
	}
	for i, t := range tags {
		if t == "" || charLen(t) > 100 {
			v.add(field, "The %s.%d must be between 1 and 100 characters.", field, i)
		}
	}
}
