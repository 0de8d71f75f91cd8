package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/chatrest/chat"
)

// rank orders who may act on whom in a group: a member may act on members
// of a scope no higher than their own; the app (no onBehalfOf) on anyone
// but the owner.
type rank int

const (
	rankNone rank = iota
	rankParticipant
	rankModerator
	rankAdmin
	rankApp
)

func scopeRank(s chat.MemberScope) rank {
	switch s {
	case chat.MemberParticipant:
		return rankParticipant
	case chat.MemberModerator:
		return rankModerator
	case chat.MemberAdmin:
		return rankAdmin
	}
	return rankNone
}

// memberListNames are the lists of an add-members body (and of a
// create-group body's members), highest scope first; usersToBan is last.
var memberListNames = [4]string{"admins", "moderators", "participants", "usersToBan"}

// memberListScopes are the scopes of the first three lists.
var memberListScopes = [3]chat.MemberScope{chat.MemberAdmin, chat.MemberModerator, chat.MemberParticipant}

// memberLists are the parsed lists, uids lower-cased, in memberListNames
// order; present says which the body had.
type memberLists struct {
	uids    [4][]string
	present [4]bool
}

// actorRank is the acting user's rank in g: rankApp without onBehalfOf,
// else their scope's. An acting user who is not a member gets
// ERR_GROUP_NOT_JOINED.
func (st *state) actorRank(c *call, g *GroupRec) (rank, error) {
	if c.onBehalfOf == "" {
		return rankApp, nil
	}
	m := st.member(g, c.onBehalfOf)
	if m == nil {
		return rankNone, errGroupNotJoined(g.g.GUID, c.onBehalfOf)
	}
	return scopeRank(m.scope), nil
}

// requireScope checks that the acting user has at least the scope need in
// g: ERR_GROUP_NO_ADMIN_SCOPE or ERR_GROUP_NO_MODERATOR_SCOPE otherwise.
func (st *state) requireScope(c *call, g *GroupRec, need chat.MemberScope) error {
	_, err := st.requireRank(c, g, need)
	return err
}

// requireRank is requireScope returning the acting user's rank.
func (st *state) requireRank(c *call, g *GroupRec, need chat.MemberScope) (rank, error) {
	r, err := st.actorRank(c, g)
	if err != nil {
		return r, err
	}
	if r < scopeRank(need) {
		if need == chat.MemberAdmin {
			return r, errNoAdminScope(g.g.GUID, c.onBehalfOf)
		}
		return r, errNoModeratorScope(g.g.GUID, c.onBehalfOf)
	}
	return r, nil
}

// canActOn checks that an actor of rank r may kick, ban or re-scope uid in
// g: not themselves, not the owner, and no member of a higher scope.
func (st *state) canActOn(c *call, g *GroupRec, r rank, uid string) *apiError {
	if uid == c.onBehalfOf {
		return errNoSelfAction(uid)
	}
	if uid == g.g.Owner {
		return errNoScopeClearance(actor(c), uid)
	}
	if m := st.member(g, uid); m != nil && r < scopeRank(m.scope) {
		return errNoScopeClearance(actor(c), uid)
	}
	return nil
}

// parseMemberLists reads the lists of an add-members body, or of the
// members object of a create-group body (prefix "members."), collecting
// problems in v: only the four lists are allowed, each an array of at
// least one uid, and at most maxMembersPerCall distinct users in all. An
// absent or null raw gives no lists.
func parseMemberLists(v *validator, raw json.RawMessage, prefix string) memberLists {
	var l memberLists
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return l
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		field := strings.TrimSuffix(prefix, ".")
		if field == "" {
			field = "body"
		}
		v.add(field, "The %s must be a JSON object.", field)
		return l
	}
	for key := range obj {
		if !slices.Contains(memberListNames[:], key) {
			v.add(prefix+key, "The %s field is not allowed.", prefix+key)
		}
	}
	seen := map[string]bool{}
	over := false
	for i, name := range memberListNames {
		field := prefix + name
		item, ok := obj[name]
		if !ok {
			continue
		}
		var uids []string
		if err := json.Unmarshal(item, &uids); err != nil {
			v.add(field, "The %s field must be an array of strings.", field)
			continue
		}
		if len(uids) == 0 {
			v.add(field, "The %s field must have at least 1 item.", field)
			continue
		}
		l.present[i] = true
		for j, uid := range uids {
			uid = strings.ToLower(uid)
			if uid == "" {
				v.add(fmt.Sprintf("%s.%d", field, j), "The %s.%d field is required.", field, j)
				continue
			}
			l.uids[i] = append(l.uids[i], uid)
			seen[uid] = true
			if len(seen) > maxMembersPerCall && !over {
				over = true
				v.add(field, "At most %d users may be added or banned in one call.", maxMembersPerCall)
			}
		}
	}
	return l
}

// memberFailure is the entry of a user that could not be added or banned.
func memberFailure(e *apiError) chat.MemberResult {
	return chat.MemberResult{Success: false, Error: &chat.MemberError{Code: e.Code, Message: e.Message}}
}

// applyMembers adds and bans the users of l in g, acting with rank r, and
// reports each user's outcome. A uid in several lists is added once, with
// the highest scope; bans come after the additions.
func (st *state) applyMembers(c *call, g *GroupRec, l memberLists, r rank) chat.AddMembersResponse {
	var resp chat.AddMembersResponse
	fields := [4]*map[string]chat.MemberResult{&resp.Admins, &resp.Moderators, &resp.Participants, &resp.UsersToBan}
	done := map[string]bool{}
	for i, scope := range memberListScopes {
		if !l.present[i] {
			continue
		}
		results := map[string]chat.MemberResult{}
		for _, uid := range l.uids[i] {
			if !done[uid] {
				done[uid] = true
				results[uid] = st.addMember(c, g, uid, scope, r)
			}
		}
		*fields[i] = results
	}
	if l.present[3] {
		results := map[string]chat.MemberResult{}
		for _, uid := range l.uids[3] {
			if _, twice := results[uid]; twice {
				continue
			}
			if err := st.ban(c, g, r, uid); err != nil {
				results[uid] = memberFailure(err)
			} else {
				results[uid] = chat.MemberResult{Success: true}
			}
		}
		*fields[3] = results
	}
	return resp
}

// addMember adds uid to g with scope, and returns the action message the
// service emitted as the entry's data.
func (st *state) addMember(c *call, g *GroupRec, uid string, scope chat.MemberScope, r rank) chat.MemberResult {
	switch {
	case st.activeUser(uid) == nil:
		return memberFailure(errUIDNotFound(uid))
	case g.banned[uid] != nil:
		return memberFailure(errBannedGroupMember(g.g.GUID, uid))
	case st.member(g, uid) != nil:
		return memberFailure(errAlreadyJoined(g.g.GUID, uid))
	case r < scopeRank(scope):
		return memberFailure(errNoScopeClearance(actor(c), uid))
	case st.membersCount(g) >= maxGroupMembers:
		return memberFailure(errGroupFull(g.g.GUID))
	}
	st.join(g, uid, scope, c.timestamp())
	before := len(st.messages)
	st.memberAction(c, g, "added", uid)
	st.touch(g, c.timestamp()) // after the action, whose group entity shows the group before
	res := chat.MemberResult{Success: true}
	if n := len(st.messages); n > before {
		m := st.messages[n-1].m
		res.Data = &m
	}
	return res
}

func errGroupFull(guid string) *apiError {
	return newAPIError(http.StatusBadRequest, codePlanQuota,
		fmt.Sprintf("The group %s has reached its limit of %d members.", guid, maxGroupMembers), "")
}

// ban bans uid from g, acting with rank r: a member is removed.
func (st *state) ban(c *call, g *GroupRec, r rank, uid string) *apiError {
	if st.activeUser(uid) == nil {
		return errUIDNotFound(uid)
	}
	if g.banned[uid] != nil {
		return errAlreadyBanned(g.g.GUID, uid)
	}
	if err := st.canActOn(c, g, r, uid); err != nil {
		return err
	}
	st.leave(g, uid)
	st.groupSeq++
	g.banned[uid] = &banRec{bannedAt: c.timestamp(), seq: st.groupSeq}
	st.touchGroup(g)
	st.memberAction(c, g, "banned", uid)
	st.touch(g, c.timestamp())
	return nil
}

// memberAction records action ("added", "kicked", "banned", "unbanned",
// "joined" or "left") on uid in g by the caller of c: the group action
// message, which it returns, and the event (events.go).
func (st *state) memberAction(c *call, g *GroupRec, action, uid string) *MsgRec {
	m := st.addGroupAction(c.now, action, actor(c), uid, g.g.GUID)
	st.record(MemberChanged{Action: action, G: g, UID: uid, By: actor(c)})
	return m
}

// POST /v3/groups/{guid}/members
//
// With onBehalfOf the user must be an admin or moderator, and may add
// users with a scope no higher than their own. Each user's failure is an
// entry {"success": false, "error": {"code", "message"}}:
// ERR_UID_NOT_FOUND, ERR_ALREADY_JOINED,
// ERR_BANNED_GROUPMEMBER, ERR_GROUP_NO_SCOPE_CLEARANCE, or for usersToBan
// ERR_ALREADY_BANNED and the checks of a ban.
func (st *state) addMembers(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	var v validator
	l := parseMemberLists(&v, c.body, "")
	if err := v.err(); err != nil {
		return nil, err
	}
	if l.present == [4]bool{} {
		return nil, validationError(map[string][]string{"members": {"At least one of admins, moderators, participants or usersToBan is required."}})
	}
	r, err := st.requireRank(c, g, chat.MemberModerator)
	if err != nil {
		return nil, err
	}
	return data(st.applyMembers(c, g, l, r)), nil
}

// GET /v3/groups/{guid}/members
//
// Members come in the order they joined; status and scopes filter them.
// A client lists a private or password group's members only as a member.
func (st *state) listMembers(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	p := c.params()
	pq := pageParams(p)
	statuses := p.list("status")
	for _, s := range statuses {
		if s != string(chat.UserAvailable) && s != string(chat.UserOffline) {
			p.v.add("status", `The status field must be "available" or "offline".`)
		}
	}
	scopes := p.list("scopes")
	for _, s := range scopes {
		if scopeRank(chat.MemberScope(s)) == rankNone {
			p.v.add("scopes", `The scopes items must be "admin", "moderator" or "participant".`)
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	total := st.membersCount(g)
	var keep func(*memberRec) bool
	if len(statuses) > 0 || len(scopes) > 0 {
		total = -1 // counted by the walk
		keep = func(m *memberRec) bool {
			return (len(statuses) == 0 || slices.Contains(statuses, string(st.users[m.uid].u.Status))) &&
				(len(scopes) == 0 || slices.Contains(scopes, string(m.scope)))
		}
	}
	members, meta := walkPage(st.activeMembers(g), keep, total, pq)
	page := make([]chat.GroupMember, len(members))
	var last *UserRec
	for i, m := range members {
		last = st.users[m.uid]
		u := last.view(false)
		page[i] = chat.GroupMember{
			UID: u.UID, Name: u.Name, Avatar: u.Avatar, Link: u.Link, Metadata: u.Metadata,
			Status: u.Status, Role: u.Role, Scope: m.scope, JoinedAt: m.joinedAt,
			CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, LastActiveAt: u.LastActiveAt, ConversationID: u.ConversationID,
		}
	}
	return chat.Page[chat.GroupMember]{Data: page, Meta: meta, Cursor: listCursor(last)}, nil
}

// PUT /v3/groups/{guid}/members/{uid}
//
// A missing scope is participant, the default. With
// onBehalfOf the user must be an admin or moderator with a scope at least
// as high as both the member's and the new one. Nobody changes their own
// scope or the owner's.
func (st *state) changeScope(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Scope chat.MemberScope `json:"scope"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if b.Scope == "" {
		b.Scope = chat.MemberParticipant
	}
	if scopeRank(b.Scope) == rankNone {
		return nil, validationError(map[string][]string{"scope": {`The scope must be "admin", "moderator" or "participant".`}})
	}
	r, err := st.requireRank(c, g, chat.MemberModerator)
	if err != nil {
		return nil, err
	}
	uid := c.uid("uid")
	m := st.member(g, uid)
	if m == nil {
		return nil, errNotAMember(g.g.GUID, uid)
	}
	if err := st.canActOn(c, g, r, uid); err != nil {
		return nil, err
	}
	if r < scopeRank(b.Scope) {
		return nil, errNoScopeClearance(actor(c), uid)
	}
	if m.scope == b.Scope {
		return nil, errSameScope(uid, b.Scope)
	}
	st.record(MemberScopeChanged{G: g, UID: uid, By: actor(c), Old: m.scope, Scope: b.Scope})
	m.scope = b.Scope
	st.touchGroup(g)
	st.addGroupAction(c.now, "scopeChanged", actor(c), uid, g.g.GUID)
	return data(chat.ScopeChange{GUID: g.g.GUID, UID: uid, Scope: m.scope, JoinedAt: m.joinedAt}), nil
}

// DELETE /v3/groups/{guid}/members/{uid}
//
// With onBehalfOf the user must be an admin or moderator, and the member's
// scope no higher than theirs. Nobody kicks themselves or the owner.
func (st *state) kickMember(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	r, err := st.requireRank(c, g, chat.MemberModerator)
	if err != nil {
		return nil, err
	}
	uid := c.uid("uid")
	if st.member(g, uid) == nil {
		return nil, errNotAMember(g.g.GUID, uid)
	}
	if err := st.canActOn(c, g, r, uid); err != nil {
		return nil, err
	}
	st.leave(g, uid)
	st.memberAction(c, g, "kicked", uid)
	st.touch(g, c.timestamp())
	return data(chat.Result{Success: true, Message: fmt.Sprintf("User %s has been kicked from the group %s successfully.", uid, g.g.GUID)}), nil
}

// POST /v3/groups/{guid}/bannedusers/{uid}
//
// Any active user may be banned, member or not; a member is removed. The
// rules of kick apply.
func (st *state) banUser(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	r, err := st.requireRank(c, g, chat.MemberModerator)
	if err != nil {
		return nil, err
	}
	uid := c.uid("uid")
	if err := st.ban(c, g, r, uid); err != nil {
		return nil, err
	}
	return data(chat.Result{Success: true, Message: fmt.Sprintf("User %s has been banned from the group %s successfully.", uid, g.g.GUID)}), nil
}

// DELETE /v3/groups/{guid}/bannedusers/{uid}
//
// With onBehalfOf the user must be an admin or moderator. The user is not
// added back.
func (st *state) unbanUser(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	if err := st.requireScope(c, g, chat.MemberModerator); err != nil {
		return nil, err
	}
	uid := c.uid("uid")
	if g.banned[uid] == nil {
		return nil, errNotABannedUser(g.g.GUID, uid)
	}
	delete(g.banned, uid)
	st.touchGroup(g)
	st.memberAction(c, g, "unbanned", uid)
	return data(chat.Result{Success: true, Message: fmt.Sprintf("User %s has been unbanned from the group %s successfully.", uid, g.g.GUID)}), nil
}

// GET /v3/groups/{guid}/bannedusers
//
// Banned users come as users, in the order they were banned; users since
// deleted or deactivated are left out. A client lists a private or
// password group's banned users only as a member.
func (st *state) listBanned(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	var uids []string
	for uid := range g.banned {
		if st.activeUser(uid) != nil {
			uids = append(uids, uid)
		}
	}
	slices.SortFunc(uids, func(a, b string) int { return int(g.banned[a].seq - g.banned[b].seq) })
	page, meta := paginate(uids, pq)
	out := make([]chat.User, len(page))
	for i, uid := range page {
		out[i] = st.users[uid].view(false)
	}
	return chat.Page[chat.User]{Data: out, Meta: meta}, nil
}
