package fake

import (
	"fmt"
	"net/http"
)

// The management API's error codes. The fake chooses their statuses (see
// CHOICES.md): 404 for what does not exist,
// 409 for ERR_ALREADY_AN_OWNER, and 403 for an operation the state of the
// app, the account or the extension refuses.
const (
	codeAppNotFound       = "ERR_APP_NOT_FOUND"
	codeAppArchived       = "ERR_APP_ARCHIVED"
	codeAppDeletion       = "ERR_APP_DELETION"
	codeAppLimit          = "ERR_APP_CREATION_FAILED_MAX_LIMIT"
	codeExtensionNotFound = "ERR_EXTENSION_NOT_FOUND"
	codeExtensionInactive = "ERR_EXTENSION_INACTIVE"
	codeAlreadyAnOwner    = "ERR_ALREADY_AN_OWNER"
	codeSelfActionDenied  = "ERR_SELF_ACTION_DENIED"
	codeNotACollaborator  = "ERR_NOT_A_COLLABORATOR"
)

func errAppNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeAppNotFound, "The app "+id+" does not exist.", "")
}

func errAppArchived(id string) *apiError {
	return newAPIError(http.StatusForbidden, codeAppArchived,
		"The app "+id+" is archived; it will be deleted permanently after 30 days.", "")
}

func errAppDeletion(id string) *apiError {
	return newAPIError(http.StatusForbidden, codeAppDeletion,
		"The app "+id+" is tied to a paid subscription and cannot be deleted.",
		"The fake's own app, the one its chat API serves, cannot be deleted.")
}

func errAppLimit() *apiError {
	return newAPIError(http.StatusForbidden, codeAppLimit,
		fmt.Sprintf("The account has reached its limit of %d apps.", maxManagementApps), "")
}

func errExtensionNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeExtensionNotFound, "The extension "+id+" does not exist.", "")
}

func errExtensionInactive(id string) *apiError {
	return newAPIError(http.StatusForbidden, codeExtensionInactive,
		"The extension "+id+" is not enabled for the app.", "Enable it first with POST /apps/{appId}/extensions.")
}

func errSelfActionDenied() *apiError {
	return newAPIError(http.StatusForbidden, codeSelfActionDenied,
		"The account cannot add itself as a collaborator.", "")
}

func errAlreadyAnOwner(email string) *apiError {
	return newAPIError(http.StatusConflict, codeAlreadyAnOwner, email+" already owns the app.", "")
}

func errNotACollaborator(email string) *apiError {
	return newAPIError(http.StatusNotFound, codeNotACollaborator, email+" is not a collaborator of the app.", "")
}
