package fake

import (
	"iter"

	"github.com/google/btree"

	"github.com/chatrest/chat"
)

// The lists walk the indexes the store keeps (users_index.go,
// groups_index.go, messages_index.go, conversations_index.go) in the order
// they answer, so that a page costs what it skips and shows, not what is
// stored: filters apply as the walk goes, and only a filtered page-based
// list walks to the end, to count its total.

// btreeDegree is the degree of the store's B-trees.
const btreeDegree = 32

// newTree returns an empty B-tree ordered by less.
func newTree[T any](less btree.LessFunc[T]) *btree.BTreeG[T] { return btree.NewG(btreeDegree, less) }

// ascend yields the items of t in order.
func ascend[T any](t *btree.BTreeG[T]) iter.Seq[T] {
	return func(yield func(T) bool) { t.Ascend(yield) }
}

// ascendFrom yields the items of t from the first not less than pivot, in
// order.
func ascendFrom[T any](t *btree.BTreeG[T], pivot T) iter.Seq[T] {
	return func(yield func(T) bool) { t.AscendGreaterOrEqual(pivot, yield) }
}

// descend yields the items of t in reverse order.
func descend[T any](t *btree.BTreeG[T]) iter.Seq[T] {
	return func(yield func(T) bool) { t.Descend(yield) }
}

// mergeSeq yields the items of a and b, each in order by less, in order by
// less; of two equal items, a's comes first.
func mergeSeq[T any](a, b iter.Seq[T], less func(x, y T) bool) iter.Seq[T] {
	return func(yield func(T) bool) {
		next, stop := iter.Pull(b)
		defer stop()
		y, ok := next()
		for x := range a {
			for ok && less(y, x) {
				if !yield(y) {
					return
				}
				y, ok = next()
			}
			if !yield(x) {
				return
			}
		}
		for ; ok; y, ok = next() {
			if !yield(y) {
				return
			}
		}
	}
}

// walkPage returns the page q selects from the items of seq that keep
// accepts (a nil keep accepts every item), and its meta.pagination. total
// is how many items keep accepts when the caller knows it, else -1: then
// the walk goes to the end of seq to count them; otherwise it stops after
// the page.
func walkPage[T any](seq iter.Seq[T], keep func(T) bool, total int, q pageQuery) ([]T, chat.PageMeta) {
	start := (q.page - 1) * q.perPage
	end := start + q.perPage
	out := []T{}
	if total < 0 || start < total {
		n := 0
		for it := range seq {
			if keep != nil && !keep(it) {
				continue
			}
			if n >= start && n < end {
				out = append(out, it)
			}
			n++
			if total >= 0 && n >= end {
				break
			}
		}
		if total < 0 {
			total = n
		}
	}
	return out, pageMeta(total, len(out), q)
}

// pageMeta is the meta.pagination of a page of count items of total.
func pageMeta(total, count int, q pageQuery) chat.PageMeta {
	return chat.PageMeta{Pagination: &chat.Pagination{
		Total:       total,
		Count:       count,
		PerPage:     q.perPage,
		CurrentPage: q.page,
		TotalPages:  (total + q.perPage - 1) / q.perPage,
	}}
}
