package fake

import (
	"github.com/chatrest/chat"
)

func blockedRoutes() []route {
	return []route{
		{pattern: "POST /v3/users/{uid}/blockedusers", reach: appOnly, handle: (*state).blockUsers},
		{pattern: "DELETE /v3/users/{uid}/blockedusers", reach: appOnly, handle: (*state).unblockUsers},
		{pattern: "GET /v3/users/{uid}/blockedusers", reach: appOnly, handle: (*state).listBlocked},
	}
}

// addBlock makes blocker block blocked at now; blocking again keeps the first
// time.
func (st *state) addBlock(blocker, blocked string, now chat.Timestamp) {
	if st.blocks[blocker] == nil {
		st.blocks[blocker] = map[string]*socialRel{}
	}
	if st.blocks[blocker][blocked] == nil {
		st.socialSeq++
		st.blocks[blocker][blocked] = &socialRel{since: now, seq: st.socialSeq}
		touch(st, &st.blocks, blocker)
	}
}

// POST /v3/users/{uid}/blockedusers
//
// The answer maps each named (blocked) uid to its outcome. Naming the
// user itself fails the call (ERR_CANNOT_BLOCK_SELF); an unknown user fails
// its entry only. Blocking a blocked user again succeeds.
func (st *state) blockUsers(c *call) (any, error) {
	uid, uids, err := st.socialUIDs(c, "blockedUids", 0)
	if err != nil {
		return nil, err
	}
	for _, b := range uids {
		if b == uid {
			return nil, errCannotBlockSelf(uid)
		}
	}
	out := map[string]chat.Result{}
	for _, b := range uids {
		if st.activeUser(b) == nil {
			out[b] = chat.Result{Message: "The user with uid " + b + " does not exist or has been deactivated."}
			continue
		}
		st.addBlock(uid, b, c.timestamp())
		out[b] = chat.Result{Success: true, Message: "The user " + b + " has been blocked by " + uid + "."}
	}
	st.record(UsersBlocked{By: uid, UIDs: succeeded(out)})
	return data(out), nil
}

// DELETE /v3/users/{uid}/blockedusers
//
// Unblocking a user who is not blocked succeeds, so that a retried call
// does too.
func (st *state) unblockUsers(c *call) (any, error) {
	uid, uids, err := st.socialUIDs(c, "blockedUids", 0)
	if err != nil {
		return nil, err
	}
	out := map[string]chat.Result{}
	for _, b := range uids {
		delete(st.blocks[uid], b)
		touch(st, &st.blocks, uid)
		out[b] = chat.Result{Success: true, Message: "The user " + b + " has been unblocked by " + uid + "."}
	}
	st.record(UsersBlocked{By: uid, UIDs: succeeded(out), Unblocked: true})
	return data(out), nil
}

// GET /v3/users/{uid}/blockedusers
//
// The users uid blocked, in the order blocked, with blockedByMe true and
// blockedByMeAt and blockedAt the time of the block.
func (st *state) listBlocked(c *call) (any, error) {
	uid, err := st.socialUID(c)
	if err != nil {
		return nil, err
	}
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	return st.relatedPage(st.relatedUsers(uid, st.blocks[uid], ""), pq), nil
}
