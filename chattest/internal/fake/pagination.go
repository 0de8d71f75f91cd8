package fake

import (
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// params reads a query string, collecting every problem in v so that one
// request reports all of them at once.
type params struct {
	q url.Values
	v validator
}

func (p *params) str(name string) string { return p.q.Get(name) }

// searchIn reads the searchIn parameter, whose items must be "name" or
// idName, and reports which of the two to search (both when absent).
func (p *params) searchIn(idName string) (inName, inID bool) {
	in := p.list("searchIn")
	if len(in) == 0 {
		return true, true
	}
	for _, f := range in {
		if f != "name" && f != idName {
			p.v.add("searchIn", `The searchIn items must be "name" or %q.`, idName)
		}
	}
	return slices.Contains(in, "name"), slices.Contains(in, idName)
}

// list reads a comma-separated parameter (repeated keys are joined too),
// trimming the items and dropping empty ones.
func (p *params) list(name string) []string {
	var out []string
	for _, raw := range p.q[name] {
		for _, item := range strings.Split(raw, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// boolean reads "true"/"false" (and "1"/"0"); absent is false.
func (p *params) boolean(name string) bool {
	switch v := p.q.Get(name); v {
	case "", "false", "0":
		return false
	case "true", "1":
		return true
	}
	p.v.add(name, "The %s field must be true or false.", name)
	return false
}

// intRange reads an integer in [lo, hi], or def when absent.
func (p *params) intRange(name string, def, lo, hi int) int {
	raw := p.q.Get(name)
	if raw == "" {
		return def
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		p.v.add(name, "The %s field must be an integer between %d and %d.", name, lo, hi)
		return def
	}
	return n
}

// timestamp reads a non-negative integer (Unix seconds or an id); ok is
// false when the parameter is absent or invalid.
func (p *params) timestamp(name string) (n int64, ok bool) {
	raw := p.q.Get(name)
	if raw == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 0 {
		p.v.add(name, "The %s field must be a non-negative integer.", name)
		return 0, false
	}
	return n, true
}

func (p *params) err() error { return p.v.err() }

// pageQuery selects a page of a page-based list.
type pageQuery struct {
	perPage, page int
}

// pageParams reads perPage (default 100, 1..1000) and page (default 1).
func pageParams(p *params) pageQuery {
	return pageQuery{
		perPage: p.intRange("perPage", 100, 1, 1000),
		page:    p.intRange("page", 1, 1, math.MaxInt32),
	}
}

// pageOnly reads perPage and page for a list that takes no other query
// parameter; a bad one is a 400 ERR_BAD_REQUEST naming it.
func (c *call) pageOnly() (pageQuery, error) {
	p := c.params()
	q := pageParams(p)
	return q, p.err()
}

// paginate returns the page q selects from items and its meta.pagination.
// A page past the end is empty.
func paginate[T any](items []T, q pageQuery) ([]T, chat.PageMeta) {
	total := len(items)
	start := min((q.page-1)*q.perPage, total)
	end := min(start+q.perPage, total)
	out := make([]T, end-start)
	copy(out, items[start:end])
	return out, pageMeta(total, len(out), q)
}

// cursorQuery positions a cursor-based list of messages.
type cursorQuery struct {
	limit     int
	affix     chat.Direction // "", append or prepend
	id        int64          // message id cursor, when hasID
	hasID     bool
	sentAt    int64 // timestamp cursor, when hasSentAt
	hasSentAt bool
}

// cursorParams reads limit (default 10, 1..1000), affix, id and sentAt.
func cursorParams(p *params) cursorQuery {
	q := cursorQuery{limit: p.intRange("limit", 10, 1, 1000)}
	switch a := chat.Direction(p.str("affix")); a {
	case "", chat.DirectionAfter, chat.DirectionBefore:
		q.affix = a
	default:
		p.v.add("affix", `The affix field must be "append" or "prepend".`)
	}
	q.id, q.hasID = p.timestamp("id")
	q.sentAt, q.hasSentAt = p.timestamp("sentAt")
	return q
}

// cursorOnly reads limit, affix, id and sentAt for a list that takes no
// other query parameter; a bad one is a 400 ERR_BAD_REQUEST naming it.
func (c *call) cursorOnly() (cursorQuery, error) {
	p := c.params()
	q := cursorParams(p)
	return q, p.err()
}

// cursorPage returns the page q selects from the items keep accepts (nil
// accepts all) of items, which are in ascending id order, and the cursor
// that continues after it (meta.next). It finds the cursor in items by
// binary search and walks from there, applying keep as it goes, until the
// page is full: a page costs what it skips and shows, whatever the length
// of items.
//
// Append (the default) walks forward: items after the cursor, oldest first.
// Prepend walks backward: items before the cursor, newest first. With no
// cursor the walk starts at the oldest item (append) or the newest
// (prepend). An id cursor is exclusive and wins over sentAt; a sentAt cursor
// alone is inclusive (items sent at or after it, or at or before it).
//
// The next cursor names the last item returned, so that following it never
// repeats or skips an item, even while items are being added: ids only grow.
// When the page is empty, next repeats the request's cursor (nil if none).
func cursorPage[T any](items []T, key func(T) (id, sentAt int64), keep func(T) bool, q cursorQuery) ([]T, *chat.Cursor) {
	prepend := q.affix == chat.DirectionBefore
	affix := chat.DirectionAfter
	if prepend {
		affix = chat.DirectionBefore
	}
	out := make([]T, 0, min(q.limit, len(items)))
	add := func(it T) bool {
		_, sentAt := key(it)
		if q.hasSentAt && !q.hasID && (prepend && sentAt > q.sentAt || !prepend && sentAt < q.sentAt) ||
			keep != nil && !keep(it) {
			return true
		}
		out = append(out, it)
		return len(out) < q.limit
	}
	if prepend {
		end := len(items)
		if q.hasID {
			end = sort.Search(len(items), func(i int) bool { id, _ := key(items[i]); return id >= q.id })
		}
		for i := end - 1; i >= 0 && add(items[i]); i-- {
		}
	} else {
		start := 0
		if q.hasID {
			start = sort.Search(len(items), func(i int) bool { id, _ := key(items[i]); return id > q.id })
		}
		for i := start; i < len(items) && add(items[i]); i++ {
		}
	}
	switch {
	case len(out) > 0:
		id, sentAt := key(out[len(out)-1])
		return out, &chat.Cursor{Direction: affix, ID: strconv.FormatInt(id, 10), SentAt: chat.Timestamp(sentAt)}
	case q.hasID || q.hasSentAt:
		next := &chat.Cursor{Direction: affix, SentAt: chat.Timestamp(q.sentAt)}
		if q.hasID {
			next.ID = strconv.FormatInt(q.id, 10)
		}
		return out, next
	}
	return out, nil
}
