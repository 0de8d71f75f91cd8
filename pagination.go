package chat

import (
	"context"
	"iter"
	"slices"

	"github.com/chatrest/chat/internal/rest"
)

// Page is one page of a list: its items and the list's meta. Page-based
// lists fill Meta.Pagination; cursor-based lists fill Meta.Current and
// Meta.Next.
type Page[T any] struct {
	// Data holds the page's items.
	Data []T `json:"data"`
	// Meta describes where the page sits in the list.
	Meta PageMeta `json:"meta"`
	// Cursor is the cursor some page-based lists (users, group members)
	// return beside meta rather than inside it.
	Cursor *Cursor `json:"cursor,omitempty"`
}

// PageMeta is the "meta" object of a list response.
type PageMeta struct {
	// Pagination is set by page-based lists (perPage/page).
	Pagination *Pagination `json:"pagination,omitempty"`
	// Current is set by cursor-based lists: the limit applied and the count
	// returned.
	Current *PageCount `json:"current,omitempty"`
	// Next is the cursor for the following page of a cursor-based list.
	Next *Cursor `json:"next,omitempty"`
	// Previous is the cursor for the preceding page, when the API sends one.
	Previous *Cursor `json:"previous,omitempty"`
	// Cursor is the cursor some page-based lists add (groups, friends,
	// blocked users; user message lists).
	Cursor *Cursor `json:"cursor,omitempty"`
}

// Pagination is the meta of a page-based list. The API does not always fill
// Total reliably; the iterators rely on Count, PerPage and TotalPages.
type Pagination struct {
	// Total is the number of items in the list (not always reliable).
	Total int `json:"total"`
	// Count is the number of items on this page.
	Count int `json:"count"`
	// PerPage is the page size applied.
	PerPage int `json:"per_page"`
	// CurrentPage is this page's number, from 1.
	CurrentPage int `json:"current_page"`
	// TotalPages is the number of pages.
	TotalPages int `json:"total_pages"`
	// Links are the addresses of neighbouring pages, when the list sends
	// them (the management API's extensions).
	Links *PageLinks `json:"links,omitempty"`
}

// PageLinks are the links of a page of a page-based list.
type PageLinks struct {
	// Next is the address of the next page; empty on the last.
	Next string `json:"next,omitempty"`
}

// PageCount is the meta.current object of a cursor-based list.
type PageCount struct {
	// Limit is the page size applied.
	Limit int `json:"limit"`
	// Count is the number of items on this page.
	Count int `json:"count"`
}

// Direction is the direction of a cursor: after it or before it.
type Direction string

// Cursor directions.
const (
	DirectionAfter  Direction = "append"  // items after the cursor
	DirectionBefore Direction = "prepend" // items before the cursor
)

// Cursor is a position in a cursor-based list. Which fields are set depends
// on the list: messages use ID and SentAt, threads use UpdatedAt.
type Cursor struct {
	// Direction is the direction from the cursor.
	Direction Direction `json:"affix,omitempty"`
	// ID is a message (or item) id cursor.
	ID string `json:"id,omitempty"`
	// SentAt is a sent-time cursor (Unix seconds).
	SentAt Timestamp `json:"sentAt,omitempty"`
	// UpdatedAt is an update-time cursor (Unix seconds).
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// CreatedAt is a creation-time cursor in Unix milliseconds (the list
	// of Agent Builder agents).
	CreatedAt int64 `json:"createdAt,omitempty"`
}

// PageOptions selects a page of a page-based list.
type PageOptions struct {
	// PerPage is the page size: default 100, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1 (the default).
	Page int `url:"page,omitempty"`
}

// CursorOptions positions a cursor-based list of messages or reactions.
type CursorOptions struct {
	// Direction is the direction from the cursor.
	Direction Direction `url:"affix,omitempty"`
	// ID is a message id cursor.
	ID string `url:"id,omitempty"`
	// SentAt is a timestamp cursor (Unix seconds).
	SentAt Timestamp `url:"sentAt,omitempty"`
	// Limit is the page size: default 10, at most 1000.
	Limit int `url:"limit,omitempty"`
}

// UpdateCursorOptions positions a cursor-based list ordered by update time,
// such as the list of threads.
type UpdateCursorOptions struct {
	// Direction is the direction from the cursor.
	Direction Direction `url:"affix,omitempty"`
	// UpdatedAt is the update-time cursor (Unix seconds).
	UpdatedAt Timestamp `url:"updatedAt,omitempty"`
	// Limit is the page size: default 100, at most 1000.
	Limit int `url:"limit,omitempty"`
}

func (o *PageOptions) pageOptions() *PageOptions       { return o }
func (o *CursorOptions) cursorOptions() *CursorOptions { return o }
func (o *UpdateCursorOptions) updateCursorOptions() *UpdateCursorOptions {
	return o
}

// follow moves the options to next, an id or sentAt cursor, and says
// whether next names a position at all.
func (o *CursorOptions) follow(next *Cursor) bool {
	if next.ID == "" && next.SentAt == 0 {
		return false
	}
	if next.Direction != "" {
		o.Direction = next.Direction
	}
	o.ID, o.SentAt = next.ID, next.SentAt
	return true
}

// follow moves the options to next, an updatedAt cursor, and says whether
// next names a position at all.
func (o *UpdateCursorOptions) follow(next *Cursor) bool {
	if next.UpdatedAt == 0 {
		return false
	}
	if next.Direction != "" {
		o.Direction = next.Direction
	}
	o.UpdatedAt = next.UpdatedAt
	return true
}

// walk yields the items of page after page, as rest.Walk does: fetch gets
// a page, and advance moves the options to the next one, saying whether
// there is one.
func walk[T any](ctx context.Context, fetch func(context.Context) (*Page[T], error), advance func(*Page[T]) (bool, error)) iter.Seq2[*T, error] {
	return rest.Walk(ctx, fetch, func(p *Page[T]) []T { return p.Data }, advance)
}

// pageIter walks a page-based list from the page opts names (default 1). It
// stops after an empty or short page, or the last page the meta names; a
// server that answers with another page than the one asked for stops it
// with ErrPaginationStalled. Each range over the iterator starts afresh from
// opts, which it does not modify.
func pageIter[T, O any, PO interface {
	*O
	pageOptions() *PageOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		o := PO(nonNil((*O)(opts)))
		po := o.pageOptions()
		po.Page = max(po.Page, 1)
		advance := func(page *Page[T]) (bool, error) {
			pg := page.Meta.Pagination
			if len(page.Data) == 0 || pg == nil {
				return false, nil
			}
			perPage := pg.PerPage
			if perPage == 0 {
				perPage = po.PerPage
			}
			if pg.TotalPages > 0 && po.Page >= pg.TotalPages || perPage > 0 && len(page.Data) < perPage {
				return false, nil
			}
			po.Page++
			return true, nil
		}
		// A page other than the one asked for is refused before its items
		// are yielded: they would repeat (or skip) items already seen.
		fetchPage := func(ctx context.Context) (*Page[T], error) {
			page, err := fetch(ctx, o)
			if err == nil && len(page.Data) > 0 {
				if pg := page.Meta.Pagination; pg != nil && pg.CurrentPage != 0 && pg.CurrentPage != po.Page {
					return nil, ErrPaginationStalled
				}
			}
			return page, err
		}
		walk(ctx, fetchPage, advance)(yield)
	}
}

// cursorIter walks a cursor-based list from the position opts gives,
// following meta.next. It stops on an empty page or a missing next cursor,
// and yields ErrPaginationStalled if a cursor repeats (see stallGuard). Each
// range over the iterator starts afresh from opts, which it does not
// modify.
func cursorIter[T, O any, PO interface {
	*O
	cursorOptions() *CursorOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error)) iter.Seq2[*T, error] {
	return cursorIterVia(ctx, opts, fetch, metaNext[T])
}

// cursorIterVia is cursorIter taking the next cursor of a page from next,
// for lists that do not (always) send it as meta.next.
func cursorIterVia[T, O any, PO interface {
	*O
	cursorOptions() *CursorOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error), next func(*Page[T]) *Cursor) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		o := PO(nonNil((*O)(opts)))
		walkCursor(ctx, o.cursorOptions(), func(ctx context.Context) (*Page[T], error) { return fetch(ctx, o) }, next, (*CursorOptions).follow)(yield)
	}
}

// updateCursorIter walks a list ordered by update time from the position
// opts gives, following meta.next's updatedAt, as cursorIter does.
func updateCursorIter[T, O any, PO interface {
	*O
	updateCursorOptions() *UpdateCursorOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		o := PO(nonNil((*O)(opts)))
		walkCursor(ctx, o.updateCursorOptions(), func(ctx context.Context) (*Page[T], error) { return fetch(ctx, o) }, metaNext[T], (*UpdateCursorOptions).follow)(yield)
	}
}

func metaNext[T any](page *Page[T]) *Cursor { return page.Meta.Next }

// walkCursor walks pages, moving the cursor options co with follow to the
// cursor next finds in each page. It stops on an empty page or a page
// without a cursor, and yields ErrPaginationStalled when the list goes
// round in circles (see stallGuard), in memory that does not grow with the
// number of pages.
func walkCursor[T any, C comparable](ctx context.Context, co *C, fetch func(context.Context) (*Page[T], error), next func(*Page[T]) *Cursor, follow func(*C, *Cursor) bool) iter.Seq2[*T, error] {
	var guard stallGuard[C]
	guard.start(*co)
	advance := func(page *Page[T]) (bool, error) {
		n := next(page)
		if len(page.Data) == 0 || n == nil || !follow(co, n) {
			return false, nil
		}
		if guard.repeated(*co) {
			return false, ErrPaginationStalled
		}
		return true, nil
	}
	return walk(ctx, fetch, advance)
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

// nonNil returns *p, or the zero value when p is nil, as a fresh copy the
// iterators may change.
func nonNil[T any](p *T) *T {
	var v T
	if p != nil {
		v = *p
	}
	return &v
}
