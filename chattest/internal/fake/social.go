package fake

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/chatrest/chat"
)

// socialState holds conversations' per-user state (read/delivered marks,
// tags, pins, app pins), friends, blocked users, roles, permissions and
// moderation reasons.
type socialState struct {
	convMarks map[convKey]*convUser  // per owner and conversation: conversations.go
	opened    map[string]*openedConv // conversations started without a message
	appPins   []appPin

	friends   map[string]map[string]*socialRel // uid -> friend uid (both ways): friends.go
	blocks    map[string]map[string]*socialRel // blocker -> blocked: blocked.go
	socialSeq int64                            // orders friends and blocks

	roles      map[string]*roleRec // by role id: roles.go
	roleSeq    int64
	restricted map[string]map[string]chat.RestrictedFeature // role -> feature key -> feature

	rolePerms  map[string]map[string]any   // role -> permission id -> value: permissions.go
	scopePerms map[scopeKey]map[string]any // (guid, scope) -> permission id -> value

	reasons   map[string]*reasonRec // by id: moderation.go
	reasonSeq int64
}

func (s *socialState) init() {
	s.convMarks = map[convKey]*convUser{}
	s.opened = map[string]*openedConv{}
	s.friends = map[string]map[string]*socialRel{}
	s.blocks = map[string]map[string]*socialRel{}
	s.roles = map[string]*roleRec{chat.DefaultRole: {r: chat.Role{Role: chat.DefaultRole, Name: chat.DefaultRole,
		Description: "The role of users created without one."}}}
	s.restricted = map[string]map[string]chat.RestrictedFeature{}
	s.rolePerms = map[string]map[string]any{}
	s.scopePerms = map[scopeKey]map[string]any{}
	s.reasons = map[string]*reasonRec{}
}

// stampDefaults dates what exists from the start (the "default" role) at
// the first moment the server is asked about it, as init has no clock.
func (st *state) stampDefaults(now chat.Timestamp) {
	if r := st.roles[chat.DefaultRole]; r != nil && r.r.CreatedAt == 0 {
		r.r.CreatedAt, r.r.UpdatedAt = now, now
		st.lazy |= lazyRoles
		touchField(st, &st.roles)
	}
}

// socialRoutes are the routes of conversations, friends, blocked users,
// roles, restricted features, permissions and moderation reasons.
func socialRoutes() []route {
	var routes []route
	for _, group := range [][]route{conversationRoutes(), friendRoutes(), blockedRoutes(), roleRoutes(), permissionRoutes(), reasonRoutes()} {
		for _, rt := range group {
			h := rt.handle
			rt.handle = func(st *state, c *call) (any, error) {
				st.stampDefaults(c.timestamp())
				return h(st, c)
			}
			routes = append(routes, rt)
		}
	}
	return routes
}

// isBlocked reports whether blocker has blocked blocked. Messages call it
// (a blocked sender cannot message); it is called with st.mu held.
func (st *state) isBlocked(blocker, blocked string) bool {
	return st.blocks[strings.ToLower(blocker)][strings.ToLower(blocked)] != nil
}

// socialRel is a friendship or a block: when it began and its order.
type socialRel struct {
	since chat.Timestamp
	seq   int64
}

// Error codes of this area, as the service names them.
const (
	codeConversationNotAccessible = "ERR_CONVERSATION_NOT_ACCESSIBLE"
	codeConversationNotFound      = "ERR_CONVERSATION_NOT_FOUND"
	codePinnedConversationsLimit  = "ERR_PINNED_CONVERSATIONS_LIMIT_EXCEEDED"
	codeSystemPinnedLimit         = "ERR_SYSTEM_PINNED_CONVERSATIONS_LIMIT_EXCEEDED"
	codeSystemPinnedConversation  = "ERR_SYSTEM_PINNED_CONVERSATION"
	codeCannotFormSelfRelation    = "ERR_CANNOT_FORM_SELF_RELATION"
	codeCannotBlockSelf           = "ERR_CANNOT_BLOCK_SELF"
	codeRoleNotFound              = "ERR_ROLE_NOT_FOUND"
	codeRoleDeleteDenied          = "ERR_ROLE_DELETE_DENIED"
	codeReasonNotFound            = "ERR_REASON_NOT_FOUND"
)

// errConversationNotAccessible: the conversation is not the acting user's,
// they are not a member of the group, or it has no messages yet. The
// fake answers 403 (see CHOICES.md).
func errConversationNotAccessible(conversationID, uid string) *apiError {
	return newAPIError(http.StatusForbidden, codeConversationNotAccessible,
		"The conversation "+conversationID+" is not accessible to the user "+uid+".",
		"A conversation is accessible to its participants (for a group, its members) once it has a message.")
}

func errConversationNotFound(conversationID string) *apiError {
	return newAPIError(http.StatusNotFound, codeConversationNotFound,
		"The conversation "+conversationID+" does not exist.", "")
}

func errPinnedConversationsLimit(uid string) *apiError {
	return newAPIError(http.StatusBadRequest, codePinnedConversationsLimit,
		fmt.Sprintf("The user %s has already pinned %d conversations.", uid, maxUserPins), "Unpin a conversation first.")
}

func errSystemPinnedLimit() *apiError {
	return newAPIError(http.StatusBadRequest, codeSystemPinnedLimit,
		fmt.Sprintf("An app can pin at most %d conversations.", maxAppPins), "")
}

func errSystemPinnedConversation(conversationID string) *apiError {
	return newAPIError(http.StatusForbidden, codeSystemPinnedConversation,
		"The conversation "+conversationID+" is pinned by the app; users cannot pin or unpin it.", "")
}

func errCannotFormSelfRelation(uid string) *apiError {
	return newAPIError(http.StatusBadRequest, codeCannotFormSelfRelation,
		"The user "+uid+" cannot be their own friend.", "").
		withDetail("accepted", "The accepted field may not contain the user "+uid+".")
}

func errCannotBlockSelf(uid string) *apiError {
	return newAPIError(http.StatusBadRequest, codeCannotBlockSelf,
		"The user "+uid+" cannot block themselves.", "").
		withDetail("blockedUids", "The blockedUids field may not contain the user "+uid+".")
}

func errRoleNotFound(role string) *apiError {
	return newAPIError(http.StatusNotFound, codeRoleNotFound, "The role "+role+" does not exist.", "")
}

func errRoleDeleteDenied(role string) *apiError {
	return newAPIError(http.StatusForbidden, codeRoleDeleteDenied,
		"The role "+role+" cannot be deleted.", "The default role always exists.")
}

func errRoleQuota() *apiError {
	return newAPIError(http.StatusBadRequest, codePlanQuota,
		fmt.Sprintf("An app can have at most %d roles.", maxRoles), "")
}

func errReasonNotFound(id string) *apiError {
	return newAPIError(http.StatusNotFound, codeReasonNotFound,
		"The moderation reason "+id+" does not exist.", "")
}

// errTaken is the validation error of an id that is already used.
func errTaken(field string) *apiError {
	return validationError(map[string][]string{field: {"The " + field + " has already been taken."}})
}
