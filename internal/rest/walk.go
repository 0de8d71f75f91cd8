package rest

import (
	"context"
	"errors"
	"iter"
	"reflect"
	"slices"
)

// ErrPaginationStalled is yielded by an iterator whose next page would
// repeat one already fetched; it stops instead of looping. Package chat
// exports it.
var ErrPaginationStalled = errors.New("chat: pagination did not advance")

// The one pager of the SDK: Walk, and its two strategies, Pages for lists
// numbered in pages and Cursors for lists positioned by a cursor. Every
// iterator of the chat and management clients is one of the two.

// Walk yields the items of page after page: fetch gets the current page,
// items lists its items, and advance moves to the next page, saying whether
// there is one. It stops at the first error, which it yields, and when ctx
// is done. A page whose items repeat the previous page's, item for item,
// stops it with ErrPaginationStalled before they are yielded again: a
// server (or a caching proxy) that answers every page alike would
// otherwise keep it going for ever.
func Walk[T, P any](ctx context.Context, fetch func(context.Context) (P, error), items func(P) []T, advance func(P) (bool, error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		var prev []T
		for {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			page, err := fetch(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			list := items(page)
			if len(list) > 0 && repeats(list, prev) {
				yield(nil, ErrPaginationStalled)
				return
			}
			for i := range list {
				if !yield(&list[i], nil) {
					return
				}
			}
			more, err := advance(page)
			if err != nil {
				yield(nil, err)
			}
			if !more || err != nil {
				return
			}
			prev = list
		}
	}
}

// repeats reports whether list holds the same items as prev, in order.
// Items of different pages usually differ in their first field (an id),
// so the comparison is cheap.
func repeats[T any](list, prev []T) bool {
	if len(list) != len(prev) {
		return false
	}
	for i := range list {
		if !reflect.DeepEqual(&list[i], &prev[i]) { // pointers: no copy of the item
			return false
		}
	}
	return true
}

// PageInfo is what a page-numbered list's meta.pagination says about one
// page; zero fields are unknown.
type PageInfo struct {
	CurrentPage int
	PerPage     int
	TotalPages  int
}

// Pages walks a page-numbered list from page first (at least 1), asking
// for perPage items a page (0: the server's default), and skips the first
// skip items of the first page (a walk resumed after items already seen).
// fetch gets one page: its items and its meta (nil when the answer had
// none). It stops after an empty page, a page shorter than its size, or the
// last page the meta names, making no further request; a server that
// answers with another page than the one asked for stops it with
// ErrPaginationStalled, before that page's items are yielded (they would
// repeat or skip items already seen). Each range over the iterator starts
// afresh from first.
func Pages[T any](ctx context.Context, first, perPage, skip int, fetch func(ctx context.Context, page int) ([]T, *PageInfo, error)) iter.Seq2[*T, error] {
	type page struct {
		items []T
		info  *PageInfo
	}
	return func(yield func(*T, error) bool) {
		n, skip := max(first, 1), max(skip, 0)
		get := func(ctx context.Context) (page, error) {
			items, info, err := fetch(ctx, n)
			if err == nil && len(items) > 0 && info != nil && info.CurrentPage != 0 && info.CurrentPage != n {
				return page{}, ErrPaginationStalled
			}
			return page{items, info}, err
		}
		advance := func(p page) (bool, error) {
			if len(p.items) == 0 || p.info == nil {
				return false, nil
			}
			size := p.info.PerPage
			if size == 0 {
				size = perPage
			}
			if p.info.TotalPages > 0 && n >= p.info.TotalPages || size > 0 && len(p.items) < size {
				return false, nil
			}
			n++
			return true, nil
		}
		items := func(p page) []T {
			if skip > 0 {
				k := min(skip, len(p.items))
				skip -= k
				return p.items[k:]
			}
			return p.items
		}
		Walk(ctx, get, items, advance)(yield)
	}
}

// Cursors walks a list positioned by a cursor of type P, from start. fetch
// gets the page at a position: its items, the position after it (ok false
// when the answer names none) and the page size the list applied (0 when
// unknown). It stops after an empty page, a page shorter than its size, or
// one without a next position, making no further request; a position that
// repeats an earlier one stops it with ErrPaginationStalled, before its page
// is fetched again, in memory that does not grow with the number of pages.
// Each range over the iterator starts afresh from start.
func Cursors[T any, P comparable](ctx context.Context, start P, fetch func(ctx context.Context, at P) (items []T, next P, ok bool, size int, err error)) iter.Seq2[*T, error] {
	type page struct {
		items []T
		next  P
		ok    bool
		size  int
	}
	return func(yield func(*T, error) bool) {
		at := start
		var guard stallGuard[P]
		guard.start(at)
		get := func(ctx context.Context) (page, error) {
			items, next, ok, size, err := fetch(ctx, at)
			return page{items, next, ok, size}, err
		}
		advance := func(p page) (bool, error) {
			if len(p.items) == 0 || !p.ok || p.size > 0 && len(p.items) < p.size {
				return false, nil
			}
			if guard.repeated(p.next) {
				return false, ErrPaginationStalled
			}
			at = p.next
			return true, nil
		}
		Walk(ctx, get, func(p page) []T { return p.items }, advance)(yield)
	}
}

// stallGuard tells when a sequence of cursor positions repeats, in constant
// memory. A position equal to one of the last len(recent) positions is
// caught at once, before its page is fetched again: a server that repeats
// its cursor or alternates between a few. A longer cycle is caught by
// Brent's method: a checkpoint, moved to the current position after 1, 2,
// 4, 8, ... positions, is met again within at most two turns of the cycle
// once the checkpoint is on it, so a range over a list that cycles always
// ends.
type stallGuard[C comparable] struct {
	recent     [16]C
	n          int // positions recorded; recent[n%len(recent)] is the next slot
	checkpoint C
	power      int // positions between checkpoint moves
	since      int // positions since the checkpoint moved
}

func (g *stallGuard[C]) start(c C) {
	g.checkpoint, g.power = c, 1
	g.record(c)
}

func (g *stallGuard[C]) record(c C) {
	g.recent[g.n%len(g.recent)] = c
	g.n++
}

// repeated records c and reports whether it repeats an earlier position.
func (g *stallGuard[C]) repeated(c C) bool {
	if c == g.checkpoint || slices.Contains(g.recent[:min(g.n, len(g.recent))], c) {
		return true
	}
	g.record(c)
	if g.since++; g.since == g.power {
		g.checkpoint, g.power, g.since = c, g.power*2, 0
	}
	return false
}
