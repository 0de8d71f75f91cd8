package chat

import (
	"context"
	"iter"

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
	// MessageID is the message a cursor of the notification logs names,
	// when it names one instead of a log entry; it is not a position the
	// list accepts (see [NotificationsService.ListLogs]).
	MessageID int64 `json:"messageId,omitempty"`
}

// PageOptions selects a page of a page-based list.
type PageOptions struct {
	// PerPage is the page size: default 100, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1 (the default).
	Page int `url:"page,omitempty"`

	skip int // items of the first page already seen (ResumeAt)
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

// ResumeAt sets the options to continue a walk over a page-based list,
// begun with these options, after its first done items: the All iterator
// then yields item done+1 first. A program exporting a list can keep the
// count of items it wrote and, after a stop, resume from there without
// writing any item twice, as long as the list has not changed in between
// (an item added or removed before that point moves the others). The page
// size must be the same as in the first walk: when PerPage is 0 it is set
// to 100, the lists' default.
func (o *PageOptions) ResumeAt(done int) {
	if o.PerPage <= 0 {
		o.PerPage = 100
	}
	done += (max(o.Page, 1)-1)*o.PerPage + o.skip
	done = max(done, 0)
	o.Page, o.skip = done/o.PerPage+1, done%o.PerPage
}

// ResumeAfter sets the options to continue a walk over a cursor-based list
// (messages, thread messages, reactions) after the item with the given id,
// the last one a previous walk yielded, in the same direction: the All
// iterator then yields the item that came next. A program exporting
// messages keeps the id of the last message it wrote and resumes from it
// after a stop; messages sent in the meantime are included when the walk
// goes forward ([DirectionAfter], the default).
func (o *CursorOptions) ResumeAfter(id string) {
	o.ID, o.SentAt = id, 0
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

// The iterators below adapt the SDK's one pager (rest.Pages and
// rest.Cursors) to the lists' options and pages. Each range over an
// iterator starts afresh from the options it was made with, which it
// copies and never modifies.

// pageIter walks a page-based list from the page opts names (default 1),
// page after page. It stops after an empty page, a page shorter than its
// size, or the last page the meta names, and yields ErrPaginationStalled
// when the server answers with another page than the one asked for.
func pageIter[T, O any, PO interface {
	*O
	pageOptions() *PageOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error)) iter.Seq2[*T, error] {
	o := *nonNil((*O)(opts))
	po := PO(&o).pageOptions()
	return rest.Pages(ctx, po.Page, po.PerPage, po.skip, func(ctx context.Context, n int) ([]T, *rest.PageInfo, error) {
		q := o
		PO(&q).pageOptions().Page = n
		page, err := fetch(ctx, &q)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, pageInfo(page.Meta.Pagination), nil
	})
}

// pageInfo is what the pager needs of a page-based list's meta.
func pageInfo(pg *Pagination) *rest.PageInfo {
	if pg == nil {
		return nil
	}
	return &rest.PageInfo{CurrentPage: pg.CurrentPage, PerPage: pg.PerPage, TotalPages: pg.TotalPages}
}

// cursorIter walks a cursor-based list from the position opts gives,
// following meta.next.
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
	o := *nonNil((*O)(opts))
	start := *PO(&o).cursorOptions()
	return cursorWalk(ctx, start, start.Limit, func(ctx context.Context, at CursorOptions) (*Page[T], error) {
		q := o
		*PO(&q).cursorOptions() = at
		return fetch(ctx, &q)
	}, next, (*CursorOptions).follow)
}

// updateCursorIter walks a list ordered by update time from the position
// opts gives, following meta.next's updatedAt.
func updateCursorIter[T, O any, PO interface {
	*O
	updateCursorOptions() *UpdateCursorOptions
}](ctx context.Context, opts PO, fetch func(context.Context, PO) (*Page[T], error)) iter.Seq2[*T, error] {
	o := *nonNil((*O)(opts))
	start := *PO(&o).updateCursorOptions()
	// A page of threads may end early, before threads that share its last
	// update time: a short page does not end the walk.
	return cursorWalk(ctx, start, -1, func(ctx context.Context, at UpdateCursorOptions) (*Page[T], error) {
		q := o
		*PO(&q).updateCursorOptions() = at
		return fetch(ctx, &q)
	}, metaNext[T], (*UpdateCursorOptions).follow)
}

func metaNext[T any](page *Page[T]) *Cursor { return page.Meta.Next }

// cursorWalk walks a cursor-based list from the position start (the
// options that hold a position, compared to tell a list that goes round in
// circles). fetch gets the page at a position, next finds the cursor a page
// gives and follow moves a position to it. A page is full when it holds
// meta.current.limit items, or else limit (0: unknown); the walk stops
// after a page that is not, making no further request, as after an empty
// page or one without a cursor. A negative limit is for lists whose pages
// may be short before the end: only an empty page or one without a cursor
// ends the walk.
func cursorWalk[T any, P comparable](ctx context.Context, start P, limit int, fetch func(context.Context, P) (*Page[T], error), next func(*Page[T]) *Cursor, follow func(*P, *Cursor) bool) iter.Seq2[*T, error] {
	return rest.Cursors(ctx, start, func(ctx context.Context, at P) ([]T, P, bool, int, error) {
		page, err := fetch(ctx, at)
		if err != nil {
			return nil, at, false, 0, err
		}
		size := max(limit, 0)
		if cur := page.Meta.Current; cur != nil && cur.Limit > 0 && limit >= 0 {
			size = cur.Limit
		}
		n := next(page)
		ok := n != nil && follow(&at, n)
		return page.Data, at, ok, size, nil
	})
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
