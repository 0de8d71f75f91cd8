package fake

import (
	"fmt"
	"net/http"

	"github.com/chatrest/chat"
)

// Error codes of groups, members and bans. The fake chooses the HTTP
// status per code (see CHOICES.md): 404 when the
// group, the member or the ban addressed does not exist, 409 when what is
// asked for is already so, 403 when the acting user's scope forbids it and
// 400 otherwise.
const (
	codeGUIDNotFound          = "ERR_GUID_NOT_FOUND"
	codeGUIDExists            = "ERR_GUID_ALREADY_EXISTS" // chosen by the fake (see CHOICES.md)
	codeEmptyGroupPass        = "ERR_EMPTY_GROUP_PASS"
	codeNotAMember            = "ERR_NOT_A_MEMBER"
	codeAlreadyJoined         = "ERR_ALREADY_JOINED"
	codeGroupNotJoined        = "ERR_GROUP_NOT_JOINED"
	codeSameScope             = "ERR_SAME_SCOPE"
	codeNotABannedUser        = "ERR_NOT_A_BANNED_USER"
	codeBannedGroupMember     = "ERR_BANNED_GROUPMEMBER"
	codeAlreadyBanned         = "ERR_ALREADY_BANNED"
	codeGroupNoAdminScope     = "ERR_GROUP_NO_ADMIN_SCOPE"
	codeGroupNoModeratorScope = "ERR_GROUP_NO_MODERATOR_SCOPE"
	codeGroupNoScopeClearance = "ERR_GROUP_NO_SCOPE_CLEARANCE"
	codeGroupNoSelfAction     = "ERR_GROUP_NO_SELF_ACTION"
)

func errGUIDNotFound(guid string) *apiError {
	return newAPIError(http.StatusNotFound, codeGUIDNotFound,
		"The group with guid "+guid+" does not exist.", "")
}

func errGUIDExists(guid string) *apiError {
	return newAPIError(http.StatusConflict, codeGUIDExists,
		"The group with guid "+guid+" already exists.", "")
}

func errEmptyGroupPass() *apiError {
	const msg = "A password is required for a password-protected group."
	return newAPIError(http.StatusBadRequest, codeEmptyGroupPass, msg, "").withDetail("password", msg)
}

func errNotAMember(guid, uid string) *apiError {
	return newAPIError(http.StatusNotFound, codeNotAMember,
		"The user "+uid+" is not a member of the group "+guid+".", "")
}

func errAlreadyJoined(guid, uid string) *apiError {
	return newAPIError(http.StatusConflict, codeAlreadyJoined,
		"The user "+uid+" is already a member of the group "+guid+".", "")
}

func errGroupNotJoined(guid, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeGroupNotJoined,
		"The user "+uid+" has not joined the group "+guid+".",
		"The onBehalfOf user must be a member of the group.")
}

func errSameScope(uid string, scope chat.MemberScope) *apiError {
	return newAPIError(http.StatusBadRequest, codeSameScope,
		fmt.Sprintf("The user %s already has the scope %s.", uid, scope), "")
}

func errNotABannedUser(guid, uid string) *apiError {
	return newAPIError(http.StatusNotFound, codeNotABannedUser,
		"The user "+uid+" is not banned from the group "+guid+".", "")
}

func errBannedGroupMember(guid, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeBannedGroupMember,
		"The user "+uid+" is banned from the group "+guid+".",
		"Unban the user before adding them again.")
}

func errAlreadyBanned(guid, uid string) *apiError {
	return newAPIError(http.StatusConflict, codeAlreadyBanned,
		"The user "+uid+" is already banned from the group "+guid+".", "")
}

func errNoAdminScope(guid, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeGroupNoAdminScope,
		"The user "+uid+" is not an admin of the group "+guid+".", "")
}

func errNoModeratorScope(guid, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeGroupNoModeratorScope,
		"The user "+uid+" is neither an admin nor a moderator of the group "+guid+".", "")
}

func errNoScopeClearance(actor, target string) *apiError {
	return newAPIError(http.StatusForbidden, codeGroupNoScopeClearance,
		"The user "+actor+" does not have the scope to act on the user "+target+".",
		"A member can act only on members of a scope no higher than their own, and on no one's behalf above it; nobody can kick, ban or re-scope the group's owner.")
}

func errNoSelfAction(uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeGroupNoSelfAction,
		"The user "+uid+" cannot do this to themselves.", "")
}
