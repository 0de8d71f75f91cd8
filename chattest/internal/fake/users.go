package fake

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/google/btree"

	"github.com/chatrest/chat"
)

// UserRec is a stored user. u holds every field, tags included; the answers
// show tags only where the service does.
type UserRec struct {
	u           chat.User // AuthToken is always empty
	deactivated bool      // deactivated or soft-deleted: hidden, but the uid stays taken
	updated     bool      // changed since it was created: only then do answers show updatedAt
	tokens      []chat.AuthToken
}

// User is the user as answers show it, without its tags: what an
// adapter renders of the user an event names.
func (u *UserRec) User() chat.User { return u.view(false) }

// view is the user as answers show it, with or without tags: updatedAt
// only once the user was updated, as the service shows it.
func (u *UserRec) view(withTags bool) chat.User {
	v := u.u
	if !withTags {
		v.Tags = nil
	}
	if !u.updated {
		v.UpdatedAt = 0
	}
	return v
}

// viewFor is the user as viewer's friends and blocked users show it (when
// viewer is not empty and not the user): with the id of their one-on-one
// conversation, and whether viewer blocked the user.
func (st *state) viewFor(u *UserRec, viewer string, withTags bool) chat.User {
	v := u.view(withTags)
	if viewer == "" || viewer == v.UID {
		return v
	}
	v.ConversationID = UserConversationID(viewer, v.UID)
	if b := st.blocks[viewer][v.UID]; b != nil {
		v.BlockedByMe, v.BlockedByMeAt, v.BlockedAt = true, b.since, b.since
	}
	return v
}

// listCursor is the cursor the page-based lists of users add (beside meta
// for users and members, inside it for friends and blocked users): the
// updatedAt of the page's last user, before which the list goes on.
func listCursor(rec *UserRec) *chat.Cursor {
	if rec == nil {
		return nil
	}
	return &chat.Cursor{Direction: chat.DirectionBefore, UpdatedAt: rec.u.UpdatedAt}
}

func userRoutes() []route {
	return []route{
		{pattern: "POST /v3/users", authOnly: true, reach: appOnly, handle: (*state).createUser},
		{pattern: "GET /v3/users", reach: directory, handle: (*state).listUsers},
		{pattern: "PUT /v3/users", reach: appOnly, handle: (*state).reactivateUsers},
		{pattern: "DELETE /v3/users", reach: appOnly, handle: (*state).deactivateUsers},
		{pattern: "GET /v3/users/{uid}", obo: oboOptional, reach: directory, handle: (*state).getUser},
		{pattern: "PUT /v3/users/{uid}", reach: appOnly, handle: (*state).updateUser},
		{pattern: "DELETE /v3/users/{uid}", reach: appOnly, handle: (*state).deleteUser},
	}
}

// activeUser returns the user uid unless it is unknown or deactivated.
func (st *state) activeUser(uid string) *UserRec {
	u := st.users[strings.ToLower(uid)]
	if u == nil || u.deactivated {
		return nil
	}
	return u
}

// POST /v3/users
func (st *state) createUser(c *call) (any, error) {
	var b struct {
		UID           string         `json:"uid"`
		Name          string         `json:"name"`
		Avatar        string         `json:"avatar"`
		Link          string         `json:"link"`
		Role          string         `json:"role"`
		StatusMessage string         `json:"statusMessage"`
		Metadata      map[string]any `json:"metadata"`
		Tags          []string       `json:"tags"`
		WithAuthToken bool           `json:"withAuthToken"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	uid, role := strings.ToLower(b.UID), strings.ToLower(b.Role)
	var v validator
	checkID(&v, "uid", uid)
	checkText(&v, "name", b.Name, true, 100)
	checkText(&v, "avatar", b.Avatar, false, 3000)
	checkText(&v, "link", b.Link, false, 3000)
	if role == "" {
		role = "default"
	}
	checkID(&v, "role", role)
	checkTags(&v, "tags", b.Tags)
	if err := v.err(); err != nil {
		return nil, err
	}
	if st.users[uid] != nil {
		return nil, errUIDExists(uid)
	}
	now := c.timestamp()
	u := &UserRec{u: chat.User{
		UID: uid, Name: b.Name, Avatar: b.Avatar, Link: b.Link, Metadata: b.Metadata,
		Status: chat.UserOffline, StatusMessage: b.StatusMessage, Role: role, Tags: b.Tags,
		CreatedAt: now, UpdatedAt: now,
	}}
	st.putUser(u)
	out := u.view(true)
	if b.WithAuthToken {
		out.AuthToken = st.mintToken(u, c).AuthToken
	}
	return data(out), nil
}

// GET /v3/users/{uid}
func (st *state) getUser(c *call) (any, error) {
	uid := c.uid("uid")
	u := st.activeUser(uid)
	if u == nil {
		return nil, errUIDNotFound(uid)
	}
	return data(u.view(false)), nil
}

// GET /v3/users
func (st *state) listUsers(c *call) (any, error) {
	p := c.params()
	pq := pageParams(p)
	search := strings.ToLower(p.str("searchKey"))
	inName, inUID := p.searchIn("uid")
	statuses := p.list("status")
	roles := p.list("roles")
	if r := p.str("role"); r != "" {
		roles = append(roles, r)
	}
	tags := p.list("tags")
	withTags := p.boolean("withTags")
	onlyDeactivated := p.boolean("onlyDeactivated")
	withDeactivated := p.boolean("withDeactivated")
	p.boolean("count") // accepted, not applied (see CHOICES.md)
	createdFrom, hasCreatedFrom := p.timestamp("createdAt[from]")
	createdTo, hasCreatedTo := p.timestamp("createdAt[to]")
	updatedFrom, hasUpdatedFrom := p.timestamp("updatedAt[from]")
	updatedTo, hasUpdatedTo := p.timestamp("updatedAt[to]")
	if err := p.err(); err != nil {
		return nil, err
	}

	created := func(t *btree.BTreeG[*UserRec]) iter.Seq[*UserRec] {
		return usersCreated(t, createdFrom, createdTo, hasCreatedFrom, hasCreatedTo)
	}
	var seq iter.Seq[*UserRec]
	var total int
	switch {
	case onlyDeactivated:
		seq, total = created(st.deactivatedUsers), st.deactivatedUsers.Len()
	case withDeactivated:
		seq = mergeSeq(created(st.activeUsers), created(st.deactivatedUsers), userBefore)
		total = st.activeUsers.Len() + st.deactivatedUsers.Len()
	default:
		seq, total = created(st.activeUsers), st.activeUsers.Len()
	}
	var keep func(*UserRec) bool
	if search != "" || len(statuses) > 0 || len(roles) > 0 || len(tags) > 0 ||
		hasCreatedFrom || hasCreatedTo || hasUpdatedFrom || hasUpdatedTo {
		total = -1 // counted by the walk
		keep = func(u *UserRec) bool {
			switch {
			case search != "" && !(inUID && strings.HasPrefix(u.u.UID, search) ||
				inName && strings.HasPrefix(strings.ToLower(u.u.Name), search)),
				len(statuses) > 0 && !slices.Contains(statuses, string(u.u.Status)),
				len(roles) > 0 && !slices.Contains(roles, u.u.Role),
				len(tags) > 0 && !slices.ContainsFunc(u.u.Tags, func(t string) bool { return slices.Contains(tags, t) }),
				hasUpdatedFrom && int64(u.u.UpdatedAt) < updatedFrom,
				hasUpdatedTo && int64(u.u.UpdatedAt) > updatedTo:
				return false
			}
			return true
		}
	}
	page, meta := walkPage(seq, keep, total, pq)
	out := make([]chat.User, len(page))
	var last *UserRec
	for i, u := range page {
		out[i], last = u.view(withTags), u
	}
	return chat.Page[chat.User]{Data: out, Meta: meta, Cursor: listCursor(last)}, nil
}

// PUT /v3/users/{uid}
func (st *state) updateUser(c *call) (any, error) {
	uid := c.uid("uid")
	u := st.activeUser(uid)
	if u == nil {
		return nil, errUIDNotFound(uid)
	}
	var b struct {
		Name          *string        `json:"name"`
		Avatar        *string        `json:"avatar"`
		Link          *string        `json:"link"`
		Role          *string        `json:"role"`
		StatusMessage *string        `json:"statusMessage"`
		Metadata      map[string]any `json:"metadata"`
		Tags          []string       `json:"tags"` // nil: unchanged; []: cleared
		Unset         []string       `json:"unset"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	if b.Name != nil {
		checkText(&v, "name", *b.Name, true, 100)
	}
	if b.Avatar != nil {
		checkText(&v, "avatar", *b.Avatar, false, 3000)
	}
	if b.Link != nil {
		checkText(&v, "link", *b.Link, false, 3000)
	}
	if b.Role != nil {
		*b.Role = strings.ToLower(*b.Role)
		checkID(&v, "role", *b.Role)
	}
	checkTags(&v, "tags", b.Tags)
	for _, f := range b.Unset {
		if f != "avatar" && f != "link" && f != "metadata" {
			v.add("unset", `The unset items must be "avatar", "link" or "metadata".`)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&u.u.Name, b.Name)
	set(&u.u.Avatar, b.Avatar)
	set(&u.u.Link, b.Link)
	set(&u.u.Role, b.Role)
	set(&u.u.StatusMessage, b.StatusMessage)
	if b.Metadata != nil {
		u.u.Metadata = b.Metadata
	}
	if b.Tags != nil {
		u.u.Tags = b.Tags
	}
	for _, f := range b.Unset {
		switch f {
		case "avatar":
			u.u.Avatar = ""
		case "link":
			u.u.Link = ""
		case "metadata":
			u.u.Metadata = nil
		}
	}
	u.u.UpdatedAt, u.updated = c.timestamp(), true
	st.touchUser(u)
	return data(u.view(true)), nil
}

// DELETE /v3/users/{uid}
//
// A permanent delete removes the user, their messages and auth tokens, and
// frees the uid; it answers {success, message}. A soft delete (the
// default) deactivates the user, as DELETE /v3/users does, and answers as
// it does: the user is in deactivatedUids, or in alreadyDeactivatedUids
// when they were deactivated already.
func (st *state) deleteUser(c *call) (any, error) {
	uid := c.uid("uid")
	var b struct {
		Permanent bool `json:"permanent"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	u := st.users[uid]
	if u == nil {
		return nil, errUIDNotFound(uid)
	}
	if b.Permanent {
		st.removeUser(u)     // lifecycle.go
		st.closeRevoked(uid) // access.go
		return data(chat.Result{Success: true, Message: fmt.Sprintf("User %s has been deleted successfully.", uid)}), nil
	}
	var out userStates
	if u.deactivated {
		out.AlreadyDeactivated = []string{uid}
	} else {
		st.setUserState(u, true)
		out.Deactivated = []string{uid}
	}
	st.closeRevoked(uid) // access.go
	return data(out), nil
}

// userStates is the answer of DELETE /v3/users, PUT /v3/users and a soft
// DELETE /v3/users/{uid}: what became of each uid named. The service
// leaves out the lists that are empty.
type userStates struct {
	Deactivated        []string `json:"deactivatedUids,omitempty"`
	AlreadyDeactivated []string `json:"alreadyDeactivatedUids,omitempty"`
	Reactivated        []string `json:"reactivatedUids,omitempty"`
	NonDeactivated     []string `json:"nonDeactivatedUids,omitempty"`
	NotFound           []string `json:"notFound,omitempty"`
}

// namedUsers reads a body {field: [uids]} that must name at least one uid,
// and returns the users named, without repeats (uids match
// case-insensitively), in the order given, and the uids that name no user,
// as they were sent.
func (st *state) namedUsers(c *call, field string) (found []*UserRec, notFound []string, err error) {
	var b map[string]json.RawMessage
	if err := c.decode(&b); err != nil {
		return nil, nil, err
	}
	var named []string
	if raw, ok := b[field]; ok && json.Unmarshal(raw, &named) != nil {
		return nil, nil, validationError(map[string][]string{field: {"The " + field + " field must be an array of strings."}})
	}
	if len(named) == 0 {
		return nil, nil, validationError(map[string][]string{field: {"The " + field + " field is required."}})
	}
	seen := map[string]bool{}
	for _, sent := range named {
		uid := strings.ToLower(sent)
		if seen[uid] {
			continue
		}
		seen[uid] = true
		if u := st.users[uid]; u != nil {
			found = append(found, u)
		} else {
			notFound = append(notFound, sent)
		}
	}
	return found, notFound, nil
}

// DELETE /v3/users
//
// deactivatedUids lists the named users this call deactivated,
// alreadyDeactivatedUids those that were deactivated already, notFound the
// uids that name no user, as sent.
func (st *state) deactivateUsers(c *call) (any, error) {
	users, notFound, err := st.namedUsers(c, "uidsToDeactivate")
	if err != nil {
		return nil, err
	}
	out := userStates{NotFound: notFound}
	for _, u := range users {
		if u.deactivated {
			out.AlreadyDeactivated = append(out.AlreadyDeactivated, u.u.UID)
			continue
		}
		st.setUserState(u, true)
		out.Deactivated = append(out.Deactivated, u.u.UID)
	}
	st.closeRevoked(out.Deactivated...) // access.go
	return data(out), nil
}

// PUT /v3/users
//
// reactivatedUids lists the named users this call reactivated,
// nonDeactivatedUids those that were not deactivated (the reference's key;
// see CHOICES.md), notFound the uids that name no user, as sent.
func (st *state) reactivateUsers(c *call) (any, error) {
	users, notFound, err := st.namedUsers(c, "uidsToActivate")
	if err != nil {
		return nil, err
	}
	out := userStates{NotFound: notFound}
	for _, u := range users {
		if !u.deactivated {
			out.NonDeactivated = append(out.NonDeactivated, u.u.UID)
			continue
		}
		st.setUserState(u, false)
		out.Reactivated = append(out.Reactivated, u.u.UID)
	}
	return data(out), nil
}

// AddUser does the work of chattest.Server.AddUser, which documents it.
func (s *Core) AddUser(u chat.User) chat.User { return seeded(s, "AddUser", u, (*state).seedUser) }

// seedUser is [Server.AddUser] with st.mu held.
func (st *state) seedUser(u chat.User) chat.User {
	u = clone(u)
	u.UID = strings.ToLower(u.UID)
	u.AuthToken = ""
	if u.Role == "" {
		u.Role = "default"
	}
	if u.Status == "" {
		u.Status = chat.UserOffline
	}
	if u.CreatedAt == 0 {
		u.CreatedAt = chat.TimestampOf(st.clock())
	}
	updated := u.UpdatedAt != 0 && u.UpdatedAt != u.CreatedAt
	if u.UpdatedAt == 0 {
		u.UpdatedAt = u.CreatedAt
	}
	st.putUser(&UserRec{u: u, updated: updated})
	st.closeRevoked(u.UID) // access.go: a replaced user's tokens are gone
	return clone(u)
}

// User does the work of chattest.Server.User, which documents it.
func (s *Core) User(uid string) (u chat.User, ok bool) {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	rec := st.users[strings.ToLower(uid)]
	if rec == nil {
		return chat.User{}, false
	}
	return clone(rec.u), true
}
