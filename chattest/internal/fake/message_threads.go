package fake

import (
	"slices"
	"sort"

	"github.com/chatrest/chat"
)

// threadsQuery positions the list of threads: limit (default 100), affix
// and an updatedAt cursor.
type threadsQuery struct {
	limit     int
	prepend   bool
	updatedAt int64
	hasCursor bool
}

// GET /v3/threads
//
// The thread parents (messages with at least one reply), each with
// replyCount and lastReply; with onBehalfOf, those of the conversations
// the user takes part in, and with participatedByMe those where the user
// sent the parent or a reply. A parent's updatedAt moves when a reply
// arrives.
//
// Threads are ordered by updatedAt, then id. Append (the default) lists
// the threads updated after the cursor, oldest first; prepend those
// updated before it, newest first; without a cursor from the oldest
// (append) or the newest (prepend). The cursor is exclusive, and a page
// never ends inside a run of threads sharing one updatedAt: it ends before
// the run (a short page), or, when the run alone exceeds limit, takes all
// of it. So following meta.next {affix, updatedAt} neither skips nor
// repeats a thread of a list that does not change; a thread updated in the
// cursor's second after the page was served is not seen, as the cursor
// cannot tell it apart. withUnreadReplyCount and withMentionCount are
// accepted but not applied (see CHOICES.md).
func (st *state) listThreads(c *call) (any, error) {
	p := c.params()
	q := threadsQuery{limit: p.intRange("limit", 100, 1, 1000)}
	switch a := chat.Direction(p.str("affix")); a {
	case "", chat.DirectionAfter:
	case chat.DirectionBefore:
		q.prepend = true
	default:
		p.v.add("affix", `The affix field must be "append" or "prepend".`)
	}
	q.updatedAt, q.hasCursor = p.timestamp("updatedAt")
	participated := p.boolean("participatedByMe")
	p.boolean("withUnreadReplyCount")
	p.boolean("withMentionCount")
	if err := p.err(); err != nil {
		return nil, err
	}
	viewer := c.onBehalfOf
	var threads []*MsgRec
	for _, m := range st.messages {
		switch {
		case len(m.replies) == 0:
		case viewer != "" && !st.canSee(viewer, m):
		case participated && viewer != "" && m.m.Sender != viewer &&
			!slices.ContainsFunc(m.replies, func(r *MsgRec) bool { return r.m.Sender == viewer }):
		default:
			threads = append(threads, m)
		}
	}
	sort.SliceStable(threads, func(i, j int) bool { return threads[i].m.UpdatedAt < threads[j].m.UpdatedAt })
	if q.prepend {
		slices.Reverse(threads)
	}
	after := func(m *MsgRec) bool {
		ts := int64(m.m.UpdatedAt)
		return !q.hasCursor || q.prepend && ts < q.updatedAt || !q.prepend && ts > q.updatedAt
	}
	start := slices.IndexFunc(threads, after)
	if start < 0 {
		start = len(threads)
	}
	rest := threads[start:]
	end := min(q.limit, len(rest))
	if end < len(rest) && rest[end].m.UpdatedAt == rest[end-1].m.UpdatedAt {
		// Do not cut a run of equal updatedAt: end before it, or take all
		// of it when it fills the page.
		runStart := end - 1
		for runStart > 0 && rest[runStart-1].m.UpdatedAt == rest[end].m.UpdatedAt {
			runStart--
		}
		if runStart > 0 {
			end = runStart
		} else {
			for end < len(rest) && rest[end].m.UpdatedAt == rest[0].m.UpdatedAt {
				end++
			}
		}
	}
	page := rest[:end]
	affix := chat.DirectionAfter
	if q.prepend {
		affix = chat.DirectionBefore
	}
	var next *chat.Cursor
	switch {
	case len(page) > 0:
		next = &chat.Cursor{Direction: affix, UpdatedAt: page[len(page)-1].m.UpdatedAt}
	case q.hasCursor:
		next = &chat.Cursor{Direction: affix, UpdatedAt: chat.Timestamp(q.updatedAt)}
	}
	out := make([]chat.Message, len(page))
	for i, m := range page {
		out[i] = m.view(viewer, true)
	}
	return chat.Page[chat.Message]{Data: out, Meta: chat.PageMeta{Current: &chat.PageCount{Limit: q.limit, Count: len(out)}, Next: next}}, nil
}

// subscriptionTarget returns the message of the path for a subscription
// change: it must exist, be visible to the user and not be a reply.
func (st *state) subscriptionTarget(c *call) (*MsgRec, error) {
	id := c.r.PathValue("id")
	m, err := st.visibleMessage(c, id)
	if err != nil {
		return nil, err
	}
	if m.parent != nil {
		return nil, errThreadNesting(id)
	}
	return m, nil
}

// POST /v3/messages/{id}/thread/subscription (onBehalfOf required)
//
// Idempotent; the answer is {"success": true}.
func (st *state) subscribeThread(c *call) (any, error) {
	m, err := st.subscriptionTarget(c)
	if err != nil {
		return nil, err
	}
	if m.subscribers == nil {
		m.subscribers = map[string]bool{}
	}
	m.subscribers[c.onBehalfOf] = true
	st.touchMsg(m)
	return data(chat.Result{Success: true}), nil
}

// DELETE /v3/messages/{id}/thread/subscription (onBehalfOf required)
//
// Idempotent; the answer is {"success": true}.
func (st *state) unsubscribeThread(c *call) (any, error) {
	m, err := st.subscriptionTarget(c)
	if err != nil {
		return nil, err
	}
	delete(m.subscribers, c.onBehalfOf)
	st.touchMsg(m)
	return data(chat.Result{Success: true}), nil
}
