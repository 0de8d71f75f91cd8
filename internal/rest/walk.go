package rest

import (
	"context"
	"errors"
	"iter"
	"reflect"
)

// ErrPaginationStalled is yielded by an iterator whose next page would
// repeat one already fetched; it stops instead of looping. chat and calls
// export it under their own names.
var ErrPaginationStalled = errors.New("chat: pagination did not advance")

// Walk yields the items of page after page: fetch gets the current page,
// items lists its items, and advance moves to the next page, saying whether
// there is one. It stops at the first error, which it yields, and when ctx
// is done. A page whose items repeat the previous page's, item for item,
// stops it with ErrPaginationStalled before they are yielded again: a
// server (or a caching proxy) that answers every page alike would
// otherwise keep it going for ever. Every iterator of the SDK runs on
// Walk.
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

// WalkPages walks a page-numbered list from page first (at least 1), asking
// for perPage items a page (0: the server's default). fetch gets one page:
// its items and its meta (nil when the response had none). It stops after
// an empty or short page, or the last page the meta names; a server that
// answers with another page than the one asked for stops it with
// ErrPaginationStalled, before that page's items are yielded (they would
// repeat or skip items already seen). Each range over the iterator starts
// afresh from first.
func WalkPages[T any](ctx context.Context, first, perPage int, fetch func(ctx context.Context, page int) ([]T, *PageInfo, error)) iter.Seq2[*T, error] {
	type page struct {
		items []T
		info  *PageInfo
	}
	return func(yield func(*T, error) bool) {
		n := max(first, 1)
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
		Walk(ctx, get, func(p page) []T { return p.items }, advance)(yield)
	}
}
