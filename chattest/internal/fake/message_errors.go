package fake

import (
	"fmt"
	"net/http"
)

// Error codes of messages beyond send and threads. Pins and saves answer
// 400 for limits and 404 for an unknown message; for the other codes the
// fake answers 403 when the acting user may not act on the message, 404
// when the message does not exist (or the acting user may not see it:
// access.go) and 400 otherwise (see CHOICES.md).
const (
	codeMessageIDNotFound       = "ERR_MESSAGE_ID_NOT_FOUND"
	codeMessageNotASender       = "ERR_MESSAGE_NOT_A_SENDER"
	codeMessageActionNotAllowed = "ERR_MESSAGE_ACTION_NOT_ALLOWED"
	codeWrongMessageThread      = "ERR_WRONG_MESSAGE_THREAD"
	codeWrongThreadCategory     = "ERR_WRONG_MESSAGE_THREAD_CATEGORY"
	codePinnedMessagesLimit     = "ERR_PINNED_MESSAGES_LIMIT_EXCEEDED"
	codeSavedMessagesLimit      = "ERR_SAVED_MESSAGES_LIMIT_EXCEEDED"
	codeBlockedSender           = "ERR_BLOCKED_SENDER"
	codeBlockedReceiver         = "ERR_BLOCKED_RECEIVER"
)

// errMessageIDNotFound is the 404 of pins, saves, interactions and flags.
func errMessageIDNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeMessageIDNotFound,
		"The message with id "+id+" does not exist.", "")
}

func errMessageNotASender(id, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeMessageNotASender,
		"The user "+uid+" is not the sender of the message "+id+".",
		"Only the sender (or the app, without onBehalfOf) may do this; group admins and moderators may also delete.")
}

func errMessageActionNotAllowed(id, why string) *apiError {
	return newAPIError(http.StatusBadRequest, codeMessageActionNotAllowed,
		"The action is not allowed on the message "+id+": "+why, "")
}

func errWrongMessageThread(id string) *apiError {
	return newAPIError(http.StatusBadRequest, codeWrongMessageThread,
		"A reply must go to the conversation of its parent message "+id+".", "")
}

func errWrongThreadCategory(id string) *apiError {
	return newAPIError(http.StatusBadRequest, codeWrongThreadCategory,
		"The message "+id+" is an action or call message; it cannot have a thread.", "")
}

func errPinnedMessagesLimit(conversationID string) *apiError {
	return newAPIError(http.StatusBadRequest, codePinnedMessagesLimit,
		fmt.Sprintf("The conversation %s already has %d pinned messages.", conversationID, maxPinnedPerConversation),
		"Unpin a message before pinning another.")
}

func errSavedMessagesLimit(uid string) *apiError {
	return newAPIError(http.StatusBadRequest, codeSavedMessagesLimit,
		fmt.Sprintf("The user %s already has %d saved messages.", uid, maxSavedPerUser),
		"Unsave a message before saving another.")
}

func errBlockedSender(sender, receiver string) *apiError {
	return newAPIError(http.StatusForbidden, codeBlockedSender,
		"The user "+receiver+" has blocked the user "+sender+".", "")
}

func errBlockedReceiver(sender, receiver string) *apiError {
	return newAPIError(http.StatusForbidden, codeBlockedReceiver,
		"The user "+sender+" has blocked the user "+receiver+".", "")
}
