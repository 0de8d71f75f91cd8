package fake

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// permissionsDefinedAt dates the permission definitions, which the service
// has before any app exists.
const permissionsDefinedAt chat.Timestamp = 1704067200

// scopeKey names the members of one group with one scope.
type scopeKey struct {
	guid  string
	scope chat.MemberScope
}

// permissionDef builds a definition; values empty accepts any strings.
func permissionDef(typ chat.PermissionType, id, title string, dataType chat.PermissionDataType, values []string, def any) chat.Permission {
	return chat.Permission{ID: id, Type: typ, Title: title, Description: title + ".", DataType: dataType,
		AvailableValues: values, DefaultValue: def, CreatedAt: permissionsDefinedAt, UpdatedAt: permissionsDefinedAt}
}

var (
	allowDeny    = []string{"allow", "deny"}
	allFriends   = []string{"all", "friends"}
	scopeValues  = []string{string(chat.MemberAdmin), string(chat.MemberModerator), string(chat.MemberParticipant)}
	groupTypes   = []string{string(chat.GroupPublic), string(chat.GroupPassword), string(chat.GroupPrivate)}
	mediaTypes   = []string{"text", "image", "audio", "video", "file"}
	noDefault    = []string{}
	anyString    []string
	rolePermDefs = rolePermissionDefs()
	// scopePermDefs are the 11 group-scope permissions.
	scopePermDefs = []chat.Permission{
		scopePerm("sendMessage", "Send messages in the group", chat.PermissionString, allowDeny, "allow"),
		scopePerm("sendThreadedMessage", "Reply in threads", chat.PermissionString, allowDeny, "allow"),
		scopePerm("editMessage", "Edit own messages", chat.PermissionString, allowDeny, "allow"),
		scopePerm("addReaction", "React to messages", chat.PermissionString, allowDeny, "allow"),
		scopePerm("listReactions", "List reactions", chat.PermissionString, allowDeny, "allow"),
		scopePerm("listReactions.allowedScopes", "Scopes whose reactions are listed", chat.PermissionStringArray, scopeValues, noDefault),
		scopePerm("listMembers", "List the group's members", chat.PermissionString, allowDeny, "allow"),
		scopePerm("listMembers.allowedScopes", "Scopes of the members listed", chat.PermissionStringArray, scopeValues, noDefault),
		// initiateCall also takes "friends".
		scopePerm("initiateCall", "Start calls in the group", chat.PermissionString, []string{"allow", "deny", "friends"}, "allow"),
		scopePerm("initiateCall.allowedScopes", "Scopes that may be called", chat.PermissionStringArray, scopeValues, noDefault),
		scopePerm("initiateCall.allowedType", "Call types allowed", chat.PermissionStringArray, []string{"audio", "video"}, noDefault),
	}
)

func scopePerm(id, title string, dt chat.PermissionDataType, values []string, def any) chat.Permission {
	return permissionDef(chat.PermissionScope, id, title, dt, values, def)
}

// rolePermissionDefs are the 28 role permissions.
func rolePermissionDefs() []chat.Permission {
	s, a := chat.PermissionString, chat.PermissionStringArray
	p := func(id, title string, dt chat.PermissionDataType, values []string, def any) chat.Permission {
		return permissionDef(chat.PermissionRole, id, title, dt, values, def)
	}
	return []chat.Permission{
		p("listUsers", "List users", s, allowDeny, "allow"),
		p("listUsers.mode", "Users listed", s, allFriends, "all"),
		p("listUsers.allowedRoles", "Roles of the users listed", a, anyString, noDefault),
		p("getUserDetails.mode", "Users whose details can be read", s, allFriends, "all"),
		p("getUserDetails.allowedRoles", "Roles of the users whose details can be read", a, anyString, noDefault),
		p("sendMessage", "Send messages", s, allowDeny, "allow"),
		p("sendMessage.mode", "Users that can be messaged", s, allFriends, "all"),
		p("sendMessage.allowedReceiverTypes", "Receiver types allowed", a, []string{"user", "group"}, noDefault),
		p("sendMessage.allowedReceiverRoles", "Roles of the receivers allowed", a, anyString, noDefault),
		p("sendMessage.allowedMessageTypes", "Message types allowed", a, mediaTypes, noDefault),
		p("sendMessage.allowedMessageCategories", "Message categories allowed", a, []string{"message", "custom"}, noDefault),
		p("sendMessage.allowedMimeTypes", "MIME types allowed", a, anyString, noDefault),
		p("sendMessage.allowedCustomTypes", "Custom message types allowed", a, anyString, noDefault),
		p("editMessage", "Edit messages", s, allowDeny, "allow"),
		p("editMessage.denyForScopes", "Group scopes that may not edit", a, scopeValues, noDefault),
		p("deleteMessage", "Delete messages", s, allowDeny, "allow"),
		p("deleteMessage.denyForScopes", "Group scopes that may not delete", a, scopeValues, noDefault),
		p("initiateCall", "Start calls", s, allowDeny, "allow"),
		p("initiateCall.mode", "Users that can be called", s, allFriends, "all"),
		p("initiateCall.allowedReceiverRoles", "Roles of the users that can be called", a, anyString, noDefault),
		p("createGroup", "Create groups", s, allowDeny, "allow"),
		p("createGroup.allowedGroupTypes", "Group types that can be created", a, groupTypes, noDefault),
		p("listGroups", "List groups", s, allowDeny, "allow"),
		p("listGroups.allowedGroupTypes", "Group types listed", a, groupTypes, noDefault),
		p("joinGroup", "Join groups", s, allowDeny, "allow"),
		p("joinGroup.allowedGroupTypes", "Group types that can be joined", a, groupTypes, noDefault),
		p("listMessages.allowedMessageCategories", "Message categories listed", a,
			[]string{"message", "custom", "action", "call", "interactive"}, noDefault),
		p("listMessages.allowedMessageTypes", "Message types listed", a, anyString, noDefault),
	}
}

func permissionRoutes() []route {
	return []route{
		{pattern: "GET /v3/roles/{role}/permissions", reach: appOnly, handle: (*state).listRolePermissions},
		{pattern: "PUT /v3/roles/{role}/permissions", reach: appOnly, handle: (*state).setRolePermissions},
		{pattern: "DELETE /v3/roles/{role}/permissions/{permission}", reach: appOnly, handle: (*state).unsetRolePermission},
		{pattern: "GET /v3/groups/{guid}/scopes/{scope}/permissions", reach: appOnly, handle: (*state).listScopePermissions},
		{pattern: "PUT /v3/groups/{guid}/scopes/{scope}/permissions", reach: appOnly, handle: (*state).setScopePermissions},
		{pattern: "DELETE /v3/groups/{guid}/scopes/{scope}/permissions/{permission}", reach: appOnly, handle: (*state).unsetScopePermission},
	}
}

// effectivePermissions are the values in force: the defaults with set
// overlaid, keyed by permission id.
func effectivePermissions(defs []chat.Permission, set map[string]any) map[string]any {
	out := make(map[string]any, len(defs))
	for _, d := range defs {
		out[d.ID] = d.DefaultValue
		if v, ok := set[d.ID]; ok {
			out[d.ID] = v
		}
	}
	return clone(out)
}

// permissionValue decodes raw as a value of d, or reports why it is not
// one.
func permissionValue(d chat.Permission, raw json.RawMessage) (any, bool) {
	allowed := func(v string) bool { return len(d.AvailableValues) == 0 || slices.Contains(d.AvailableValues, v) }
	if d.DataType == chat.PermissionStringArray {
		var vs []string
		if json.Unmarshal(raw, &vs) != nil || vs == nil {
			return nil, false
		}
		for _, v := range vs {
			if !allowed(v) {
				return nil, false
			}
		}
		return vs, true
	}
	var v string
	if json.Unmarshal(raw, &v) != nil || !allowed(v) {
		return nil, false
	}
	return v, true
}

// setPermissions applies the body's permissions to set (created when nil)
// and answers with each key's outcome beside "permissions", the values now
// in force. An unknown key or a value the definition does not accept fails
// its entry only.
func setPermissions(c *call, defs []chat.Permission, set *map[string]any) (any, error) {
	var b struct {
		Permissions map[string]json.RawMessage `json:"permissions"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if len(b.Permissions) == 0 {
		return nil, validationError(map[string][]string{"permissions": {"The permissions field is required."}})
	}
	if *set == nil {
		*set = map[string]any{}
	}
	out := map[string]any{}
	keys := make([]string, 0, len(b.Permissions))
	for k := range b.Permissions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := slices.IndexFunc(defs, func(d chat.Permission) bool { return d.ID == k })
		if i < 0 {
			out[k] = chat.Result{Message: "The permission " + k + " does not exist."}
			continue
		}
		v, ok := permissionValue(defs[i], b.Permissions[k])
		if !ok {
			out[k] = chat.Result{Message: "The value of the permission " + k + " is not valid."}
			continue
		}
		(*set)[k] = v
		out[k] = chat.Result{Success: true, Message: "The permission " + k + " has been set."}
	}
	out["permissions"] = effectivePermissions(defs, *set)
	return data(out), nil
}

// unsetPermission returns the path's {permission} to its default in set.
func unsetPermission(c *call, defs []chat.Permission, set map[string]any) (any, error) {
	id := c.r.PathValue("permission")
	if !slices.ContainsFunc(defs, func(d chat.Permission) bool { return d.ID == id }) {
		return nil, validationError(map[string][]string{"permission": {"The permission " + id + " does not exist."}})
	}
	delete(set, id)
	return data(chat.UnsetPermissionResponse{Permissions: effectivePermissions(defs, set)}), nil
}

// listPermissions answers a page of definitions.
func listPermissions(c *call, defs []chat.Permission) (any, error) {
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	page, meta := paginate(defs, pq)
	return chat.Page[chat.Permission]{Data: clone(page), Meta: meta}, nil
}

// GET /v3/roles/{role}/permissions
//
// The definitions of the role permissions; the role's values show in the
// answers of set and unset.
func (st *state) listRolePermissions(c *call) (any, error) {
	if _, err := st.pathRole(c); err != nil {
		return nil, err
	}
	return listPermissions(c, rolePermDefs)
}

// PUT /v3/roles/{role}/permissions
func (st *state) setRolePermissions(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	set := st.rolePerms[r.r.Role]
	out, err := setPermissions(c, rolePermDefs, &set)
	if set != nil {
		st.rolePerms[r.r.Role] = set
		touchField(st, &st.rolePerms)
	}
	return out, err
}

// DELETE /v3/roles/{role}/permissions/{permission}
func (st *state) unsetRolePermission(c *call) (any, error) {
	r, err := st.pathRole(c)
	if err != nil {
		return nil, err
	}
	return unsetPermission(c, rolePermDefs, st.rolePerms[r.r.Role])
}

// pathScope returns the group and scope of the path's {guid} and {scope}.
func (st *state) pathScope(c *call) (scopeKey, error) {
	k := scopeKey{guid: strings.ToLower(c.r.PathValue("guid")), scope: chat.MemberScope(c.r.PathValue("scope"))}
	if !slices.Contains(scopeValues, string(k.scope)) {
		return k, validationError(map[string][]string{"scope": {`The scope must be "admin", "moderator" or "participant".`}})
	}
	if !st.groupExists(k.guid) {
		return k, errGUIDNotFound(k.guid)
	}
	return k, nil
}

// GET /v3/groups/{guid}/scopes/{scope}/permissions
func (st *state) listScopePermissions(c *call) (any, error) {
	if _, err := st.pathScope(c); err != nil {
		return nil, err
	}
	return listPermissions(c, scopePermDefs)
}

// PUT /v3/groups/{guid}/scopes/{scope}/permissions
func (st *state) setScopePermissions(c *call) (any, error) {
	k, err := st.pathScope(c)
	if err != nil {
		return nil, err
	}
	set := st.scopePerms[k]
	out, err := setPermissions(c, scopePermDefs, &set)
	if set != nil {
		st.scopePerms[k] = set
		touchField(st, &st.scopePerms)
	}
	return out, err
}

// DELETE /v3/groups/{guid}/scopes/{scope}/permissions/{permission}
func (st *state) unsetScopePermission(c *call) (any, error) {
	k, err := st.pathScope(c)
	if err != nil {
		return nil, err
	}
	touchField(st, &st.scopePerms)
	return unsetPermission(c, scopePermDefs, st.scopePerms[k])
}
