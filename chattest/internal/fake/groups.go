package fake

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/chatrest/chat"
)

const (
	// maxMembersPerCall is how many users one add-members call (or the
	// members of a create-group call) may name.
	maxMembersPerCall = chat.MaxMembersPerCall
	// maxGroupMembers is how many members a group may have.
	maxGroupMembers = 100000
	// maxMetadataBytes bounds a group's metadata, JSON-encoded: the larger
	// of the service's two limits, as chat checks it (see CHOICES.md).
	maxMetadataBytes = 5 * 1024
)

// groupsState holds groups, their members and bans.
type groupsState struct {
	groups      map[string]*GroupRec // by (lower-case) guid; deleted groups are removed
	groupSeq    int64                // orders members and bans by when they were added
	groupsIndex                      // the groups in list orders, the groups of each user: groups_index.go
}

func (g *groupsState) init() {
	g.groups = map[string]*GroupRec{}
	g.groupsIndex.init()
}

// GroupRec is a stored group. g holds the group's own fields; the counts
// and the fields relative to the acting user are computed by view.
type GroupRec struct {
	g        chat.Group
	updated  bool // changed since it was created: only then do answers show updatedAt
	password string
	members  map[string]*memberRec // by uid
	order    []*memberRec          // members in the order they joined (by seq): groups_index.go
	banned   map[string]*banRec    // by uid

	// count is how many members are active users, when counted and no
	// user changed since (countEpoch): see membersCount.
	count      int
	countEpoch int64
	counted    bool
}

// memberRec is a membership.
type memberRec struct {
	uid      string
	scope    chat.MemberScope
	joinedAt chat.Timestamp
	seq      int64
}

// banRec is a ban.
type banRec struct {
	bannedAt chat.Timestamp
	seq      int64
}

// groupRoutes are the routes of groups, group members and banned users.
func groupRoutes() []route {
	return []route{
		{pattern: "POST /v3/groups", obo: oboOptional, reach: noData, handle: (*state).createGroup},
		{pattern: "GET /v3/groups", obo: oboOptional, reach: listed, handle: (*state).listGroups},
		{pattern: "GET /v3/groups/{guid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).getGroup},
		{pattern: "PUT /v3/groups/{guid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).updateGroup},
		{pattern: "DELETE /v3/groups/{guid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).deleteGroup},
		{pattern: "POST /v3/groups/{guid}/members", obo: oboOptional, reach: onGroup(needSee), handle: (*state).addMembers},
		{pattern: "GET /v3/groups/{guid}/members", reach: onGroup(needMembers), handle: (*state).listMembers},
		{pattern: "PUT /v3/groups/{guid}/members/{uid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).changeScope},
		{pattern: "DELETE /v3/groups/{guid}/members/{uid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).kickMember},
		{pattern: "POST /v3/groups/{guid}/bannedusers/{uid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).banUser},
		{pattern: "DELETE /v3/groups/{guid}/bannedusers/{uid}", obo: oboOptional, reach: onGroup(needSee), handle: (*state).unbanUser},
		{pattern: "GET /v3/groups/{guid}/bannedusers", reach: onGroup(needMembers), handle: (*state).listBanned},
	}
}

// groupExists reports whether the group guid exists (and is not deleted).
// Other collections call it; it is called with st.mu held.
func (st *state) groupExists(guid string) bool { return st.groups[strings.ToLower(guid)] != nil }

// memberScope returns the scope of uid in the group guid, and whether uid
// is a member. Other collections call it; it is called with st.mu held.
func (st *state) memberScope(guid, uid string) (chat.MemberScope, bool) {
	g := st.groups[strings.ToLower(guid)]
	if g == nil {
		return "", false
	}
	m := st.member(g, strings.ToLower(uid))
	if m == nil {
		return "", false
	}
	return m.scope, true
}

// groupInfo returns the group guid as answers show it to the user viewer
// ("" for the app): membersCount counted, and viewer's scope, hasJoined and
// joinedAt when viewer is a member; tags included. Other collections call
// it, e.g. for the "for" entity of action messages and the receiver entity
// of group messages; it is called with st.mu held.
func (st *state) groupInfo(guid, viewer string) (chat.Group, bool) {
	g := st.groups[strings.ToLower(guid)]
	if g == nil {
		return chat.Group{}, false
	}
	return st.view(g, strings.ToLower(viewer)), true
}

// touch records a change of g's members at now, as the service does: its
// updatedAt moves (and answers show it from then on), which reorders the
// lists by update.
func (st *state) touch(g *GroupRec, now chat.Timestamp) {
	st.unindexGroup(g)
	g.g.UpdatedAt, g.updated = now, true
	st.indexGroup(g)
}

// group returns the group named by the path's guid, or ERR_GUID_NOT_FOUND
// when there is none or the acting user may not see it (access.go).
func (st *state) group(c *call) (*GroupRec, error) {
	return st.groupFor(appSystem, c.r.PathValue("guid")) // the access policy decided who reaches it: policy.go
}

// member returns the membership of uid in g, unless uid is not a member or
// is no longer an active user (members who were deleted or deactivated are
// neither listed nor counted).
func (st *state) member(g *GroupRec, uid string) *memberRec {
	m := g.members[uid]
	if m == nil || st.activeUser(uid) == nil {
		return nil
	}
	return m
}

// MemberUIDs returns the active members of g in the order they joined.
func (st *state) MemberUIDs(g *GroupRec) []string {
	var uids []string
	for m := range st.activeMembers(g) {
		uids = append(uids, m.uid)
	}
	return uids
}

// view is the group as answers show it to the user viewer ("" for the
// app): its members count, and viewer's scope, hasJoined and joinedAt when
// viewer is a member.
func (st *state) view(g *GroupRec, viewer string) chat.Group {
	v := g.g
	v.MembersCount = st.membersCount(g)
	if !g.updated {
		v.UpdatedAt = 0
	}
	if scope, ok := st.memberScope(g.g.GUID, viewer); viewer != "" && ok {
		v.Scope, v.JoinedAt, v.HasJoined = scope, g.members[viewer].joinedAt, true
	}
	return v
}

// actor returns the acting user's UID for action messages: the onBehalfOf
// user, or app_system.
func actor(c *call) string {
	if c.onBehalfOf != "" {
		return c.onBehalfOf
	}
	return appSystem
}

// checkGroupFields validates what create and update share.
func checkGroupFields(v *validator, password, icon, description string, metadata map[string]any, tags []string) {
	checkText(v, "password", password, false, 100)
	checkText(v, "icon", icon, false, 3000)
	checkText(v, "description", description, false, 255)
	checkTags(v, "tags", tags)
	if metadata != nil {
		if b, err := json.Marshal(metadata); err == nil && len(b) > maxMetadataBytes {
			v.add("metadata", "The metadata may not be greater than %d bytes.", maxMetadataBytes)
		}
	}
}

// checkGroupType validates a group type; empty is allowed (the caller
// defaults it or leaves it unchanged).
func checkGroupType(v *validator, t chat.GroupType) {
	switch t {
	case "", chat.GroupPublic, chat.GroupPassword, chat.GroupPrivate:
	default:
		v.add("type", `The type must be "public", "password" or "private".`)
	}
}

// POST /v3/groups
//
// The owner is the onBehalfOf user (the body's owner is then ignored, as
// update-group ignores it), else the body's owner, else app_system (the
// "system user", who is not a member). A user owner joins
// as an admin. The type defaults to public. Users in members join as for
// add-members, acting as the app; those that cannot join are left out
// silently (see CHOICES.md). The answer is relative to the onBehalfOf
// user, or to the owner without the header, showing the owner's scope.
func (st *state) createGroup(c *call) (any, error) {
	var b struct {
		GUID        string          `json:"guid"`
		Name        string          `json:"name"`
		Type        chat.GroupType  `json:"type"`
		Password    string          `json:"password"`
		Icon        string          `json:"icon"`
		Description string          `json:"description"`
		Metadata    map[string]any  `json:"metadata"`
		Owner       string          `json:"owner"`
		Tags        []string        `json:"tags"`
		Members     json.RawMessage `json:"members"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	guid, owner := strings.ToLower(b.GUID), groupOwner(c, strings.ToLower(b.Owner)) // access.go
	if b.Type == "" {
		b.Type = chat.GroupPublic
	}
	var v validator
	checkID(&v, "guid", guid)
	checkText(&v, "name", b.Name, true, 100)
	checkGroupType(&v, b.Type)
	checkGroupFields(&v, b.Password, b.Icon, b.Description, b.Metadata, b.Tags)
	if owner != "" {
		checkID(&v, "owner", owner)
	}
	lists := parseMemberLists(&v, b.Members, "members.")
	if err := v.err(); err != nil {
		return nil, err
	}
	if b.Type == chat.GroupPassword && b.Password == "" {
		return nil, errEmptyGroupPass()
	}
	if st.groupExists(guid) {
		return nil, errGUIDExists(guid)
	}
	if owner != "" && st.activeUser(owner) == nil {
		return nil, errUIDNotFound(owner)
	}
	now := c.timestamp()
	g := &GroupRec{
		g: chat.Group{
			GUID: guid, Name: b.Name, Description: b.Description, Icon: b.Icon, Type: b.Type,
			ConversationID: "group_" + guid, Owner: owner, Tags: b.Tags, Metadata: b.Metadata,
			CreatedAt: now, UpdatedAt: now,
		},
		members: map[string]*memberRec{},
		banned:  map[string]*banRec{},
	}
	if b.Type == chat.GroupPassword {
		g.password = b.Password
	}
	if owner == "" {
		g.g.Owner = appSystem
	} else {
		st.join(g, owner, chat.MemberAdmin, now)
	}
	st.putGroup(g)
	st.record(GroupChanged{Change: GroupCreated, G: g})
	st.applyMembers(c, g, lists, rankApp)
	viewer := c.onBehalfOf
	if viewer == "" {
		viewer = owner
	}
	return data(st.view(g, viewer)), nil
}

// GET /v3/groups/{guid}
func (st *state) getGroup(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	return data(st.view(g, c.onBehalfOf)), nil
}

// GET /v3/groups
//
// Without sortBy, groups come most recently updated first (then by guid),
// the order the affix/updatedAt cursor follows: meta.cursor names the
// updatedAt of the page's last group, and a request with affix=prepend and
// that updatedAt continues after it (groups updated in that same second
// are skipped, the cursor being a bare timestamp). With affix=append the
// order is least recently updated first. With onBehalfOf, private groups
// the user has not joined are not listed, and hasJoined=true keeps the
// groups the user has joined; without it, hasJoined is ignored, as it
// only works with the header. The type filter takes "protected" as
// "password" (see CHOICES.md). Groups show their tags, as the reference's
// examples do; withTags is accepted.
func (st *state) listGroups(c *call) (any, error) {
	p := c.params()
	pq := pageParams(p)
	search := strings.ToLower(p.str("searchKey"))
	inName, inGUID := p.searchIn("guid")
	sortBy := p.str("sortBy")
	if sortBy != "" && sortBy != "name" && sortBy != "guid" && sortBy != "createdAt" {
		p.v.add("sortBy", `The sortBy field must be "name", "guid" or "createdAt".`)
	}
	desc := false
	switch p.str("sortOrder") {
	case "", "asc":
	case "desc":
		desc = true
	default:
		p.v.add("sortOrder", `The sortOrder field must be "asc" or "desc".`)
	}
	affix := chat.Direction(p.str("affix"))
	if affix != "" && affix != chat.DirectionAfter && affix != chat.DirectionBefore {
		p.v.add("affix", `The affix field must be "append" or "prepend".`)
	}
	cursor, hasCursor := p.timestamp("updatedAt")
	p.boolean("withTags") // groups always show their tags
	tags := p.list("tags")
	var types []chat.GroupType
	for _, name := range []string{"type", "types"} {
		for _, t := range p.list(name) {
			gt := chat.GroupType(t)
			if t == "protected" {
				gt = chat.GroupPassword
			}
			if gt != chat.GroupPublic && gt != chat.GroupPassword && gt != chat.GroupPrivate {
				p.v.add(name, `The %s must be "public", "password" ("protected") or "private".`, name)
				continue
			}
			types = append(types, gt)
		}
	}
	hasJoined := p.boolean("hasJoined") && c.onBehalfOf != ""
	guids := p.list("guids")
	if guid := p.str("guid"); guid != "" {
		guids = append(guids, guid)
	}
	for i := range guids {
		guids[i] = strings.ToLower(guids[i])
	}
	createdFrom, hasCreatedFrom := p.timestamp("createdAt[from]")
	createdTo, hasCreatedTo := p.timestamp("createdAt[to]")
	updatedFrom, hasUpdatedFrom := p.timestamp("updatedAt[from]")
	updatedTo, hasUpdatedTo := p.timestamp("updatedAt[to]")
	countGTE, hasGTE := p.timestamp("membersCount[gte]")
	countLTE, hasLTE := p.timestamp("membersCount[lte]")
	countEQ, hasEQ := p.timestamp("membersCount[eq]")
	if err := p.err(); err != nil {
		return nil, err
	}
	if hasCursor && affix == "" {
		affix = chat.DirectionBefore
	}

	viewer := c.onBehalfOf
	order := groupOrder{sortBy: sortBy, desc: desc, affix: affix}
	seq := st.groupsIn(order, cursor, hasCursor && sortBy == "")
	var candidates []*GroupRec // when the filters name few groups
	switch {
	case hasJoined:
		for _, g := range st.memberOf[viewer] {
			candidates = append(candidates, g)
		}
	case len(guids) > 0:
		for _, guid := range guids {
			if g := st.groups[guid]; g != nil && !slices.Contains(candidates, g) {
				candidates = append(candidates, g)
			}
		}
	}
	if hasJoined || len(guids) > 0 {
		slices.SortFunc(candidates, func(a, b *GroupRec) int {
			if order.less(a, b) {
				return -1
			}
			return 1
		})
		seq = slices.Values(candidates)
	}
	total := -1 // counted by the walk, unless only the private groups are left out
	if search == "" && len(tags) == 0 && len(types) == 0 && len(guids) == 0 && !hasJoined && !hasCursor &&
		!hasCreatedFrom && !hasCreatedTo && !hasUpdatedFrom && !hasUpdatedTo && !hasGTE && !hasLTE && !hasEQ {
		total = st.groupsByGUID.Len()
		if viewer != "" {
			total -= st.privateGroups - st.joinedPrivate(viewer)
		}
	}
	keep := func(g *GroupRec) bool {
		joined := viewer != "" && st.member(g, viewer) != nil
		gg := g.g
		switch {
		case viewer != "" && gg.Type == chat.GroupPrivate && !joined,
			hasJoined && !joined,
			search != "" && !(inGUID && strings.Contains(gg.GUID, search) ||
				inName && strings.Contains(strings.ToLower(gg.Name), search)),
			len(tags) > 0 && !slices.ContainsFunc(gg.Tags, func(t string) bool { return slices.Contains(tags, t) }),
			len(types) > 0 && !slices.Contains(types, gg.Type),
			len(guids) > 0 && !slices.Contains(guids, gg.GUID),
			hasCreatedFrom && int64(gg.CreatedAt) < createdFrom,
			hasCreatedTo && int64(gg.CreatedAt) > createdTo,
			(hasUpdatedFrom || hasUpdatedTo) && gg.UpdatedAt == gg.CreatedAt,
			hasUpdatedFrom && int64(gg.UpdatedAt) < updatedFrom,
			hasUpdatedTo && int64(gg.UpdatedAt) > updatedTo,
			hasCursor && affix == chat.DirectionBefore && int64(gg.UpdatedAt) >= cursor,
			hasCursor && affix == chat.DirectionAfter && int64(gg.UpdatedAt) <= cursor:
			return false
		}
		if hasGTE || hasLTE || hasEQ {
			count := int64(st.membersCount(g))
			return !(hasGTE && count < countGTE || hasLTE && count > countLTE || hasEQ && count != countEQ)
		}
		return true
	}
	page, meta := walkPage(seq, keep, total, pq)
	out := make([]chat.Group, len(page))
	for i, g := range page {
		out[i] = st.view(g, viewer)
	}
	next := &chat.Cursor{Direction: chat.DirectionBefore, UpdatedAt: chat.Timestamp(cursor)}
	if affix != "" {
		next.Direction = affix
	}
	if n := len(page); n > 0 {
		next.UpdatedAt = page[n-1].g.UpdatedAt
	}
	meta.Cursor = next
	return chat.Page[chat.Group]{Data: out, Meta: meta}, nil
}

// PUT /v3/groups/{guid}
//
// With onBehalfOf the user must be an admin of the group, and the body's
// owner is ignored. Without it, a new owner must be
// a member; they become an admin if they were not (a scopeChanged action).
// Changing the type to password needs a password unless the group has one;
// changing it away from password drops the password. updatedBy is the
// onBehalfOf user, or app_system.
func (st *state) updateGroup(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Name        *string        `json:"name"`
		Type        chat.GroupType `json:"type"`
		Password    string         `json:"password"`
		Icon        *string        `json:"icon"`
		Description *string        `json:"description"`
		Metadata    map[string]any `json:"metadata"`
		Owner       string         `json:"owner"`
		Tags        []string       `json:"tags"` // nil: unchanged; []: cleared
		Unset       []string       `json:"unset"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if b.Name != nil {
		checkText(&v, "name", *b.Name, true, 100)
	}
	checkGroupType(&v, b.Type)
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	checkGroupFields(&v, b.Password, deref(b.Icon), deref(b.Description), b.Metadata, b.Tags)
	for _, f := range b.Unset {
		if f != "icon" && f != "description" && f != "metadata" {
			v.add("unset", `The unset items must be "icon", "description" or "metadata".`)
		}
	}
	owner := strings.ToLower(b.Owner)
	if c.onBehalfOf != "" {
		owner = ""
	}
	if owner != "" {
		checkID(&v, "owner", owner)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if err := st.requireScope(c, g, chat.MemberAdmin); err != nil {
		return nil, err
	}
	newType := g.g.Type
	if b.Type != "" {
		newType = b.Type
	}
	if newType == chat.GroupPassword && b.Password == "" && g.password == "" {
		return nil, errEmptyGroupPass()
	}
	var newOwner *memberRec
	if owner != "" && owner != g.g.Owner {
		if st.activeUser(owner) == nil {
			return nil, errUIDNotFound(owner)
		}
		if newOwner = st.member(g, owner); newOwner == nil {
			return nil, errNotAMember(g.g.GUID, owner)
		}
	}

	now := c.timestamp()
	st.unindexGroup(g) // its name, type and updatedAt change
	wasPrivate := g.g.Type == chat.GroupPrivate
	if b.Name != nil {
		g.g.Name = *b.Name
	}
	if b.Icon != nil {
		g.g.Icon = *b.Icon
	}
	if b.Description != nil {
		g.g.Description = *b.Description
	}
	if b.Metadata != nil {
		g.g.Metadata = b.Metadata
	}
	if b.Tags != nil {
		g.g.Tags = b.Tags
	}
	for _, f := range b.Unset {
		switch f {
		case "icon":
			g.g.Icon = ""
		case "description":
			g.g.Description = ""
		case "metadata":
			g.g.Metadata = nil
		}
	}
	g.g.Type = newType
	switch {
	case newType != chat.GroupPassword:
		g.password = ""
	case b.Password != "":
		g.password = b.Password
	}
	if newOwner != nil {
		st.record(OwnerTransferred{G: g, Owner: owner})
		g.g.Owner = owner
		if newOwner.scope != chat.MemberAdmin {
			st.record(MemberScopeChanged{G: g, UID: owner, By: actor(c), Old: newOwner.scope, Scope: chat.MemberAdmin})
			newOwner.scope = chat.MemberAdmin
			st.addGroupAction(c.now, "scopeChanged", actor(c), owner, g.g.GUID)
		}
	}
	g.g.UpdatedAt, g.g.UpdatedBy, g.updated = now, actor(c), true
	st.indexGroup(g)
	if isPrivate := g.g.Type == chat.GroupPrivate; isPrivate != wasPrivate {
		st.membersPrivate(g, isPrivate)
	}
	st.record(GroupChanged{Change: GroupUpdated, G: g})
	return data(st.view(g, c.onBehalfOf)), nil
}

// DELETE /v3/groups/{guid}
//
// With onBehalfOf the user must be an admin of the group. The group, its
// members and bans are removed; its guid may be used again.
func (st *state) deleteGroup(c *call) (any, error) {
	g, err := st.group(c)
	if err != nil {
		return nil, err
	}
	if err := st.requireScope(c, g, chat.MemberAdmin); err != nil {
		return nil, err
	}
	st.record(GroupChanged{Change: GroupDeleted, G: g})
	st.removeGroup(g) // lifecycle.go
	return data(chat.Result{Success: true, Message: fmt.Sprintf("Group %s has been deleted successfully.", g.g.GUID)}), nil
}
