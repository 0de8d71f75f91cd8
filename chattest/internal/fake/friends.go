package fake

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

const (
	// maxFriendsPerCall is how many users one add-friends call may name.
	maxFriendsPerCall = 25
	// maxFriends is how many friends a user may have (the constraints page
	// also says 500 elsewhere; 1000 is the current figure).
	maxFriends = 1000
)

func friendRoutes() []route {
	return []route{
		{pattern: "POST /v3/users/{uid}/friends", reach: appOnly, handle: (*state).addFriends},
		{pattern: "GET /v3/users/{uid}/friends", reach: appOnly, handle: (*state).listFriends},
		{pattern: "DELETE /v3/users/{uid}/friends", reach: appOnly, handle: (*state).removeFriends},
	}
}

// socialUID returns the active user named by the path's {uid}.
func (st *state) socialUID(c *call) (string, error) {
	uid := c.uid("uid")
	if st.activeUser(uid) == nil {
		return "", errUIDNotFound(uid)
	}
	return uid, nil
}

// socialUIDs returns the active user the path's {uid} names and the uids
// the body's array field lists (see uidsField).
func (st *state) socialUIDs(c *call, field string, limit int) (uid string, uids []string, err error) {
	if uid, err = st.socialUID(c); err != nil {
		return "", nil, err
	}
	if uids, err = uidsField(c, field, limit); err != nil {
		return "", nil, err
	}
	return uid, uids, nil
}

// uidsField reads the body's array of uids named field: required, at most
// limit items (0: no limit), lower-cased, without repeats, in order.
func uidsField(c *call, field string, limit int) ([]string, error) {
	var b map[string]json.RawMessage
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var named []string
	if raw, ok := b[field]; ok && json.Unmarshal(raw, &named) != nil {
		return nil, validationError(map[string][]string{field: {"The " + field + " field must be an array of strings."}})
	}
	if len(named) == 0 {
		return nil, validationError(map[string][]string{field: {"The " + field + " field is required."}})
	}
	if limit > 0 && len(named) > limit {
		return nil, validationError(map[string][]string{field: {fmt.Sprintf("The %s may not have more than %d items.", field, limit)}})
	}
	var out []string
	for _, uid := range named {
		uid = strings.ToLower(uid)
		if !slices.Contains(out, uid) {
			out = append(out, uid)
		}
	}
	return out, nil
}

// befriend makes a and b friends at now; false when either already has
// maxFriends friends.
func (st *state) befriend(a, b string, now chat.Timestamp) bool {
	if st.friends[a][b] != nil {
		return true
	}
	if len(st.friends[a]) >= maxFriends || len(st.friends[b]) >= maxFriends {
		return false
	}
	st.socialSeq++
	for _, p := range [][2]string{{a, b}, {b, a}} {
		if st.friends[p[0]] == nil {
			st.friends[p[0]] = map[string]*socialRel{}
		}
		st.friends[p[0]][p[1]] = &socialRel{since: now, seq: st.socialSeq}
		touch(st, &st.friends, p[0])
	}
	return true
}

// POST /v3/users/{uid}/friends
//
// Friendship goes both ways. Naming the user itself fails the call
// (ERR_CANNOT_FORM_SELF_RELATION); other problems fail only their entry:
// an unknown user, an existing friend, or the limit of 1000 friends.
// addToConversations opens a conversation with each new friend, listed
// without a last message until one is sent.
func (st *state) addFriends(c *call) (any, error) {
	uid, uids, err := st.socialUIDs(c, "accepted", maxFriendsPerCall)
	if err != nil {
		return nil, err
	}
	var b struct {
		AddToConversations bool `json:"addToConversations"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	if slices.Contains(uids, uid) {
		return nil, errCannotFormSelfRelation(uid)
	}
	results := map[string]chat.Result{}
	for _, f := range uids {
		switch {
		case st.activeUser(f) == nil:
			results[f] = chat.Result{Message: "The user with uid " + f + " does not exist or has been deactivated."}
		case st.friends[uid][f] != nil:
			results[f] = chat.Result{Message: "The user " + f + " is already a friend of " + uid + "."}
		case !st.befriend(uid, f, c.timestamp()):
			results[f] = chat.Result{Message: fmt.Sprintf("A user can have at most %d friends.", maxFriends)}
		default:
			results[f] = chat.Result{Success: true, Message: "The user " + f + " has been added as a friend of " + uid + "."}
			if b.AddToConversations {
				st.openConversation(uid, f, c.timestamp())
			}
		}
	}
	return data(chat.AddFriendsResponse{Accepted: results}), nil
}

// openConversation starts the conversation of a and b if it has none.
func (st *state) openConversation(a, b string, now chat.Timestamp) {
	st.openConv(UserConversationID(a, b), a, b, now)
}

// relatedUsers returns the active users in rel, in the order the relations
// began, as answers show them to owner.
func (st *state) relatedUsers(owner string, rel map[string]*socialRel, search string) []chat.User {
	uids := make([]string, 0, len(rel))
	for uid := range rel {
		u := st.activeUser(uid)
		if u == nil || search != "" && !strings.Contains(uid, search) && !strings.Contains(strings.ToLower(u.u.Name), search) {
			continue
		}
		uids = append(uids, uid)
	}
	sort.Slice(uids, func(i, j int) bool { return rel[uids[i]].seq < rel[uids[j]].seq })
	out := make([]chat.User, len(uids))
	for i, uid := range uids {
		out[i] = st.viewFor(st.users[uid], owner, false)
	}
	return out
}

// relatedPage is a page of owner's related users (relatedUsers) with the
// list's cursor in meta.
func (st *state) relatedPage(users []chat.User, pq pageQuery) chat.Page[chat.User] {
	page, meta := paginate(users, pq)
	if n := len(page); n > 0 {
		meta.Cursor = listCursor(st.users[strings.ToLower(page[n-1].UID)])
	}
	return chat.Page[chat.User]{Data: page, Meta: meta}
}

// GET /v3/users/{uid}/friends
//
// Friends come in the order they were added; searchKey matches their uid
// or name (containing it, ignoring case).
func (st *state) listFriends(c *call) (any, error) {
	uid, err := st.socialUID(c)
	if err != nil {
		return nil, err
	}
	p := c.params()
	pq := pageParams(p)
	search := strings.ToLower(p.str("searchKey"))
	if err := p.err(); err != nil {
		return nil, err
	}
	return st.relatedPage(st.relatedUsers(uid, st.friends[uid], search), pq), nil
}

// DELETE /v3/users/{uid}/friends
//
// Users named who are not friends are skipped, so that a retried call
// succeeds.
func (st *state) removeFriends(c *call) (any, error) {
	uid, uids, err := st.socialUIDs(c, "friends", 0)
	if err != nil {
		return nil, err
	}
	for _, f := range uids {
		delete(st.friends[uid], f)
		touch(st, &st.friends, uid)
		delete(st.friends[f], uid)
		touch(st, &st.friends, f)
	}
	return data(chat.Result{Success: true, Message: "The friends of " + uid + " have been removed."}), nil
}
