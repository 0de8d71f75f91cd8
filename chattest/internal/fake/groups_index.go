package fake

import (
	"cmp"
	"iter"
	"slices"

	"github.com/google/btree"

	"github.com/chatrest/chat"
)

// groupsIndex keeps the stored groups in each order the group list
// answers in, and the groups of each user. Every change to st.groups goes
// through putGroup and dropGroup, a change to the name, type or updatedAt
// of a stored group between unindexGroup and indexGroup, and every change
// to a group's members through join and leave, which keep it.
type groupsIndex struct {
	groupsByUpdated *btree.BTreeG[*GroupRec] // by updatedAt, then guid
	groupsByName    *btree.BTreeG[*GroupRec] // by name, then guid
	groupsByCreated *btree.BTreeG[*GroupRec] // by createdAt, then guid
	groupsByGUID    *btree.BTreeG[*GroupRec]
	privateGroups   int                             // how many stored groups are private
	memberOf        map[string]map[string]*GroupRec // by uid, then guid: the stored groups uid is a member of, active or not
	privateOf       map[string]int                  // by uid: how many of those are private
}

func (x *groupsIndex) init() {
	x.groupsByUpdated = newTree(func(a, b *GroupRec) bool { return byKeyThenGUID(a, b, a.g.UpdatedAt, b.g.UpdatedAt) })
	x.groupsByName = newTree(func(a, b *GroupRec) bool { return byKeyThenGUID(a, b, a.g.Name, b.g.Name) })
	x.groupsByCreated = newTree(func(a, b *GroupRec) bool { return byKeyThenGUID(a, b, a.g.CreatedAt, b.g.CreatedAt) })
	x.groupsByGUID = newTree(func(a, b *GroupRec) bool { return a.g.GUID < b.g.GUID })
	x.memberOf = map[string]map[string]*GroupRec{}
	x.privateOf = map[string]int{}
}

// byKeyThenGUID orders two groups by their keys ka and kb, then by guid.
func byKeyThenGUID[K chat.Timestamp | string](a, b *GroupRec, ka, kb K) bool {
	if ka != kb {
		return ka < kb
	}
	return a.g.GUID < b.g.GUID
}

func (st *state) groupTrees() [4]*btree.BTreeG[*GroupRec] {
	return [4]*btree.BTreeG[*GroupRec]{st.groupsByUpdated, st.groupsByName, st.groupsByCreated, st.groupsByGUID}
}

func (st *state) indexGroup(g *GroupRec) {
	st.touchGroup(g)
	for _, t := range st.groupTrees() {
		t.ReplaceOrInsert(g)
	}
	if g.g.Type == chat.GroupPrivate {
		st.privateGroups++
	}
}

func (st *state) unindexGroup(g *GroupRec) {
	for _, t := range st.groupTrees() {
		t.Delete(g)
	}
	if g.g.Type == chat.GroupPrivate {
		st.privateGroups--
	}
}

// putGroup stores g under its guid, replacing the group stored there, if
// any, with its members and bans.
func (st *state) putGroup(g *GroupRec) {
	if old := st.groups[g.g.GUID]; old != nil {
		st.dropGroup(old)
	}
	st.groups[g.g.GUID] = g
	st.indexGroup(g)
	for _, m := range g.order {
		st.addMemberOf(m.uid, g)
	}
	st.countPrivate(g, 1)
}

// dropGroup removes g, with its members and bans.
func (st *state) dropGroup(g *GroupRec) {
	st.countPrivate(g, -1)
	st.unindexGroup(g)
	delete(st.groups, g.g.GUID)
	st.touchGroup(g)
	for _, m := range g.order {
		st.removeMemberOf(m.uid, g)
	}
}

// countPrivate adds delta to the private groups of each member of g, if
// g is private.
func (st *state) countPrivate(g *GroupRec, delta int) {
	if g.g.Type == chat.GroupPrivate {
		st.membersPrivate(g, delta > 0)
	}
}

// membersPrivate counts the stored group g as private (or no longer) for
// each of its members.
func (st *state) membersPrivate(g *GroupRec, private bool) {
	delta := -1
	if private {
		delta = 1
	}
	for _, m := range g.order {
		st.addPrivateOf(m.uid, delta)
	}
}

func (st *state) addPrivateOf(uid string, delta int) {
	if n := st.privateOf[uid] + delta; n != 0 {
		st.privateOf[uid] = n
	} else {
		delete(st.privateOf, uid)
	}
}

func (st *state) stored(g *GroupRec) bool { return st.groups[g.g.GUID] == g }

func (st *state) addMemberOf(uid string, g *GroupRec) {
	st.touchGroup(g)
	gs := st.memberOf[uid]
	if gs == nil {
		gs = map[string]*GroupRec{}
		st.memberOf[uid] = gs
	}
	gs[g.g.GUID] = g
}

func (st *state) removeMemberOf(uid string, g *GroupRec) {
	st.touchGroup(g)
	if gs := st.memberOf[uid]; gs[g.g.GUID] == g {
		delete(gs, g.g.GUID)
		if len(gs) == 0 {
			delete(st.memberOf, uid)
		}
	}
}

// join makes uid a member of g with scope, as the latest to join.
func (st *state) join(g *GroupRec, uid string, scope chat.MemberScope, now chat.Timestamp) *memberRec {
	st.groupSeq++
	m := &memberRec{uid: uid, scope: scope, joinedAt: now, seq: st.groupSeq}
	if old := g.members[uid]; old != nil {
		g.removeFromOrder(old)
	} else {
		if st.stored(g) {
			st.addMemberOf(uid, g)
			if g.g.Type == chat.GroupPrivate {
				st.addPrivateOf(uid, 1)
			}
		}
		if st.countValid(g) && st.activeUser(uid) != nil {
			g.count++
		}
	}
	g.members[uid] = m
	g.order = append(g.order, m)
	return m
}

// leave removes uid from the members of g.
func (st *state) leave(g *GroupRec, uid string) {
	m := g.members[uid]
	if m == nil {
		return
	}
	delete(g.members, uid)
	g.removeFromOrder(m)
	if st.stored(g) {
		st.removeMemberOf(uid, g)
		if g.g.Type == chat.GroupPrivate {
			st.addPrivateOf(uid, -1)
		}
	}
	if st.countValid(g) && st.activeUser(uid) != nil {
		g.count--
	}
}

// removeFromOrder removes m from the join order of g.
func (g *GroupRec) removeFromOrder(m *memberRec) {
	if i, ok := slices.BinarySearchFunc(g.order, m.seq, func(x *memberRec, seq int64) int { return cmp.Compare(x.seq, seq) }); ok {
		g.order = slices.Delete(g.order, i, i+1)
	}
}

// countValid reports whether the count of active members of g is up to
// date: no user changed since it was counted.
func (st *state) countValid(g *GroupRec) bool {
	return g.counted && g.countEpoch == st.userEpoch
}

// membersCount is how many members of g are active users.
func (st *state) membersCount(g *GroupRec) int {
	if !st.countValid(g) {
		n := 0
		for _, m := range g.order {
			if st.activeUser(m.uid) != nil {
				n++
			}
		}
		g.count, g.countEpoch, g.counted = n, st.userEpoch, true
	}
	return g.count
}

// activeMembers yields the members of g who are active users, in the order
// they joined.
func (st *state) activeMembers(g *GroupRec) iter.Seq[*memberRec] {
	return func(yield func(*memberRec) bool) {
		for _, m := range g.order {
			if st.activeUser(m.uid) != nil && !yield(m) {
				return
			}
		}
	}
}

// joinedPrivate counts the private groups the active user uid is a member
// of.
func (st *state) joinedPrivate(uid string) int { return st.privateOf[uid] }

// groupOrder is the order of the group list: by sortBy (name, guid or
// createdAt; ties by guid), descending when desc; without sortBy, by
// updatedAt, most recent first unless affix is append, ties by guid.
type groupOrder struct {
	sortBy string
	desc   bool
	affix  chat.Direction
}

// less compares two groups in the order o.
func (o groupOrder) less(a, b *GroupRec) bool {
	x, y := a.g, b.g
	if o.sortBy == "" {
		if x.UpdatedAt != y.UpdatedAt {
			return (x.UpdatedAt < y.UpdatedAt) == (o.affix == chat.DirectionAfter)
		}
		return x.GUID < y.GUID
	}
	var less, greater bool
	switch o.sortBy {
	case "name":
		less, greater = x.Name < y.Name, x.Name > y.Name
	case "createdAt":
		less, greater = x.CreatedAt < y.CreatedAt, x.CreatedAt > y.CreatedAt
	}
	if less || greater {
		return less != o.desc
	}
	return (x.GUID < y.GUID) != (o.desc && o.sortBy == "guid")
}

// groups yields every stored group in the order o. Without sortBy and
// with a cursor (hasCursor), it starts after the cursor: with groups
// updated after it (affix append) or before it (otherwise).
func (st *state) groupsIn(o groupOrder, cursor int64, hasCursor bool) iter.Seq[*GroupRec] {
	byUpdated := func(at int64) *GroupRec { return &GroupRec{g: chat.Group{UpdatedAt: chat.Timestamp(at)}} }
	switch {
	case o.sortBy == "" && o.affix == chat.DirectionAfter && hasCursor:
		return ascendFrom(st.groupsByUpdated, byUpdated(cursor+1))
	case o.sortBy == "" && o.affix == chat.DirectionAfter:
		return ascend(st.groupsByUpdated)
	case o.sortBy == "":
		floor := func(at chat.Timestamp) *GroupRec { return byUpdated(int64(at)) }
		var below *chat.Timestamp
		if hasCursor {
			at := chat.Timestamp(cursor)
			below = &at
		}
		return descendRuns(st.groupsByUpdated, func(g *GroupRec) chat.Timestamp { return g.g.UpdatedAt }, floor, below)
	case o.sortBy == "guid" && o.desc:
		return descend(st.groupsByGUID)
	case o.sortBy == "guid":
		return ascend(st.groupsByGUID)
	case o.sortBy == "name" && o.desc:
		return descendRuns(st.groupsByName, func(g *GroupRec) string { return g.g.Name },
			func(name string) *GroupRec { return &GroupRec{g: chat.Group{Name: name}} }, nil)
	case o.sortBy == "name":
		return ascend(st.groupsByName)
	case o.desc:
		return descendRuns(st.groupsByCreated, func(g *GroupRec) chat.Timestamp { return g.g.CreatedAt },
			func(at chat.Timestamp) *GroupRec { return &GroupRec{g: chat.Group{CreatedAt: at}} }, nil)
	}
	return ascend(st.groupsByCreated)
}

// descendRuns yields the groups of t, a tree ordered by key and then by
// guid, by key descending and then guid ascending: each run of groups with
// the same key in order, from the run of the greatest key down. floor(k)
// is a group with key k and an empty guid, which comes before every other
// group of that key. With below set, it starts with the greatest key less
// than *below.
func descendRuns[K comparable](t *btree.BTreeG[*GroupRec], key func(*GroupRec) K, floor func(K) *GroupRec, below *K) iter.Seq[*GroupRec] {
	return func(yield func(*GroupRec) bool) {
		var cur *GroupRec
		before := func(k K) {
			cur = nil
			t.DescendLessOrEqual(floor(k), func(g *GroupRec) bool {
				if key(g) == k {
					return true
				}
				cur = g
				return false
			})
		}
		if below != nil {
			before(*below)
		} else {
			cur, _ = t.Max()
		}
		for cur != nil {
			k := key(cur)
			stopped := false
			t.AscendGreaterOrEqual(floor(k), func(g *GroupRec) bool {
				if key(g) != k {
					return false
				}
				if !yield(g) {
					stopped = true
					return false
				}
				return true
			})
			if stopped {
				return
			}
			before(k)
		}
	}
}
