package fake

import (
	"iter"

	"github.com/google/btree"

	"github.com/chatrest/chat"
)

// usersIndex keeps the users in the order the user list answers, by createdAt and then uid: the active and the deactivated
// apart, so that a list of either kind walks only its own. Every change to
// st.users goes through putUser, dropUser and setUserState, which keep it.
type usersIndex struct {
	activeUsers      *btree.BTreeG[*UserRec]
	deactivatedUsers *btree.BTreeG[*UserRec]
	// userEpoch changes whenever a user is stored, removed, deactivated
	// or reactivated: what is counted from who is active
	// (groupsIndex's member counts) is counted again when it changed.
	userEpoch int64
}

func (x *usersIndex) init() {
	x.activeUsers = newTree(userBefore)
	x.deactivatedUsers = newTree(userBefore)
}

// userBefore is the order of the user list: by createdAt, then uid.
func userBefore(a, b *UserRec) bool {
	if a.u.CreatedAt != b.u.CreatedAt {
		return a.u.CreatedAt < b.u.CreatedAt
	}
	return a.u.UID < b.u.UID
}

// userTree is the index u belongs in.
func (x *usersIndex) userTree(u *UserRec) *btree.BTreeG[*UserRec] {
	if u.deactivated {
		return x.deactivatedUsers
	}
	return x.activeUsers
}

func (st *state) indexUser(u *UserRec) {
	st.userTree(u).ReplaceOrInsert(u)
	st.userEpoch++
}

func (st *state) unindexUser(u *UserRec) {
	st.userTree(u).Delete(u)
	st.userEpoch++
}

// putUser stores u under its uid, replacing the user stored there, if any.
func (st *state) putUser(u *UserRec) {
	if old := st.users[u.u.UID]; old != nil {
		st.unindexUser(old)
	}
	st.users[u.u.UID] = u
	st.touchUser(u)
	st.indexUser(u)
}

// dropUser removes u, freeing its uid.
func (st *state) dropUser(u *UserRec) {
	st.unindexUser(u)
	delete(st.users, u.u.UID)
	st.touchUser(u)
}

// setUserState sets whether u is deactivated.
func (st *state) setUserState(u *UserRec, deactivated bool) {
	st.unindexUser(u)
	u.deactivated = deactivated
	st.touchUser(u)
	st.indexUser(u)
}

// usersCreated yields the users of t created in [from, to] (each bound
// applies when has is set), in the list's order.
func usersCreated(t *btree.BTreeG[*UserRec], from, to int64, hasFrom, hasTo bool) iter.Seq[*UserRec] {
	seq := ascend(t)
	if hasFrom {
		seq = ascendFrom(t, &UserRec{u: chat.User{CreatedAt: chat.Timestamp(from)}})
	}
	if !hasTo {
		return seq
	}
	return func(yield func(*UserRec) bool) {
		for u := range seq {
			if int64(u.u.CreatedAt) > to || !yield(u) {
				return
			}
		}
	}
}
