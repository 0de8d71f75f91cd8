package fake

import (
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
)

// msgFilter is the filters of the message lists.
// Every filter set must hold for a message to be listed.
type msgFilter struct {
	viewer         string // the acting user; "" for the app
	searchKey      string // lower-cased
	hideBlocked    bool
	hasAttachments bool
	attachmentType string
	hasMentions    bool
	hasLinks       bool
	mentioned      []string
	myMentionsOnly bool
	hasReactions   bool
	receiverType   chat.ReceiverType
	categories     []string
	types          []string
	senders        []string
	conversationID string
	hideDeleted    bool
	onlyDeleted    bool
	hideReplies    bool
	tags           []string
	withTags       bool
	hideQuoted     bool
	fromTS, toTS   int64
	hasFrom, hasTo bool
	ranges         []tsRange
}

// tsRange bounds a timestamp field, inclusively; a zero field never
// matches a range.
type tsRange struct {
	field          func(*chat.Message) chat.Timestamp
	from, to       int64
	hasFrom, hasTo bool
}

// oneOrMany reads a single-value parameter and its plural, comma-separated
// form, as one list.
func oneOrMany(p *params, one, many string) []string {
	out := p.list(many)
	if v := p.str(one); v != "" {
		out = append(out, v)
	}
	return out
}

// filterParams reads the filters every message list shares, and the
// extra ones of GET /messages when all is true.
func filterParams(p *params, viewer string, all bool) msgFilter {
	f := msgFilter{
		viewer:         viewer,
		searchKey:      strings.ToLower(p.str("searchKey")),
		hideBlocked:    p.boolean("hideMessagesFromBlockedUsers"),
		hasAttachments: p.boolean("hasAttachments"),
		attachmentType: p.str("attachmentTypes"),
		hasMentions:    p.boolean("hasMentions"),
		hasLinks:       p.boolean("hasLinks"),
		mentioned:      p.list("mentionedUids"),
		myMentionsOnly: p.boolean("myMentionsOnly"),
		hasReactions:   p.boolean("hasReactions"),
		categories:     oneOrMany(p, "category", "categories"),
		types:          oneOrMany(p, "type", "types"),
		senders:        oneOrMany(p, "sender", "senders"),
		hideReplies:    p.boolean("hideReplies"),
		tags:           p.list("tags"),
		withTags:       p.boolean("withTags"),
		hideQuoted:     p.boolean("hideQuotedMessages"),
	}
	for i, s := range f.senders {
		f.senders[i] = strings.ToLower(s)
	}
	for i, u := range f.mentioned {
		f.mentioned[i] = strings.ToLower(u)
	}
	switch t := f.attachmentType; t {
	case "", "image", "video", "audio", "file":
	default:
		p.v.add("attachmentTypes", `The attachmentTypes must be "image", "video", "audio" or "file".`)
	}
	// Accepted, not applied: the read and delivery state of messages lives
	// with conversations, and the fake adds no count or mention fields to
	// its answers (see CHOICES.md).
	for _, name := range []string{"unread", "undelivered", "count", "mentionsWithBlockedInfo", "mentionsWithTagInfo"} {
		p.boolean(name)
	}
	f.fromTS, f.hasFrom = p.timestamp("fromTimestamp")
	f.toTS, f.hasTo = p.timestamp("toTimestamp")
	if !all {
		return f
	}
	switch rt := chat.ReceiverType(p.str("receiverType")); rt {
	case "", chat.ReceiverUser, chat.ReceiverGroup:
		f.receiverType = rt
	default:
		p.v.add("receiverType", `The receiverType must be "user" or "group".`)
	}
	f.conversationID = p.str("conversationId")
	f.hideDeleted = p.boolean("hideDeleted")
	f.onlyDeleted = p.boolean("onlyDeleted")
	for _, r := range []struct {
		name  string
		field func(*chat.Message) chat.Timestamp
	}{
		{"sentAt", func(m *chat.Message) chat.Timestamp { return m.SentAt }},
		{"updatedAt", func(m *chat.Message) chat.Timestamp {
			// Only messages actually updated (edited or deleted) count.
			if m.EditedAt == 0 && m.DeletedAt == 0 {
				return 0
			}
			return m.UpdatedAt
		}},
		{"editedAt", func(m *chat.Message) chat.Timestamp { return m.EditedAt }},
	} {
		rg := tsRange{field: r.field}
		rg.from, rg.hasFrom = p.timestamp(r.name + "[from]")
		rg.to, rg.hasTo = p.timestamp(r.name + "[to]")
		if rg.hasFrom || rg.hasTo {
			f.ranges = append(f.ranges, rg)
		}
	}
	return f
}

// mentions reports whether text mentions uid (<@uid:UID>).
func mentions(text, uid string) bool {
	return strings.Contains(strings.ToLower(text), "<@uid:"+uid+">")
}

// mentionedUsers is a message's data.mentions: the users text mentions
// (<@uid:UID>) that exist, by uid, as entities show them, as the service
// sends them; nil when it mentions none.
func (st *state) mentionedUsers(text string) map[string]*chat.User {
	var out map[string]*chat.User
	for rest := text; ; {
		_, after, ok := strings.Cut(rest, "<@uid:")
		if !ok {
			return out
		}
		uid, tail, ok := strings.Cut(after, ">")
		if !ok {
			return out
		}
		rest = tail
		uid = strings.ToLower(uid)
		if st.activeUser(uid) == nil {
			continue
		}
		if out == nil {
			out = map[string]*chat.User{}
		}
		u := st.UserEntity(uid)
		out[uid] = &u
	}
}

// match reports whether m passes every filter f sets.
func (st *state) match(f *msgFilter, m *MsgRec) bool {
	v := &m.m
	text := v.Data.Text
	switch {
	case f.searchKey != "" && !strings.Contains(strings.ToLower(text), f.searchKey):
		return false
	case f.hideBlocked && f.viewer != "" && st.isBlocked(f.viewer, v.Sender):
		return false
	case f.hasAttachments && len(v.Data.Attachments) == 0:
		return false
	case f.attachmentType != "" && (v.Category != chat.CategoryMessage || string(v.Type) != f.attachmentType):
		return false
	case f.hasMentions && !strings.Contains(text, "<@uid:"):
		return false
	case len(f.mentioned) > 0 && !slices.ContainsFunc(f.mentioned, func(uid string) bool { return mentions(text, uid) }):
		return false
	case f.myMentionsOnly && f.viewer != "" && !mentions(text, f.viewer):
		return false
	case f.hasLinks && !strings.Contains(text, "http://") && !strings.Contains(text, "https://"):
		return false
	case f.hasReactions && len(m.reactions) == 0:
		return false
	case f.receiverType != "" && v.ReceiverType != f.receiverType:
		return false
	case len(f.categories) > 0 && !slices.Contains(f.categories, string(v.Category)):
		return false
	case len(f.types) > 0 && !slices.Contains(f.types, string(v.Type)):
		return false
	case len(f.senders) > 0 && !slices.Contains(f.senders, v.Sender):
		return false
	case f.conversationID != "" && v.ConversationID != f.conversationID:
		return false
	case f.hideDeleted && v.DeletedAt != 0, f.onlyDeleted && v.DeletedAt == 0:
		return false
	case f.hideReplies && m.parent != nil:
		return false
	case len(f.tags) > 0 && !slices.ContainsFunc(f.tags, func(t string) bool { return slices.Contains(v.Tags, t) }):
		return false
	case f.hasFrom && int64(v.SentAt) < f.fromTS, f.hasFrom && f.hasTo && int64(v.SentAt) > f.toTS:
		return false
	}
	for _, r := range f.ranges {
		ts := int64(r.field(v))
		if ts == 0 || r.hasFrom && ts < r.from || r.hasTo && ts > r.to {
			return false
		}
	}
	return true
}

// render returns the page's messages as f's viewer sees them.
func (f *msgFilter) render(page []*MsgRec) []chat.Message {
	out := make([]chat.Message, len(page))
	for i, m := range page {
		out[i] = m.view(f.viewer, f.withTags)
		if f.hideQuoted {
			out[i].QuotedMessage = nil
		}
	}
	return out
}

// cursorList answers a cursor-based message list over the messages of
// items that keep and every filter of f accept.
func (st *state) cursorList(f *msgFilter, items []*MsgRec, keep func(*MsgRec) bool, q cursorQuery) chat.Page[chat.Message] {
	page, next := cursorPage(items, msgKey, st.listed(f, keep), q)
	return chat.Page[chat.Message]{Data: f.render(page), Meta: chat.PageMeta{
		Current: &chat.PageCount{Limit: q.limit, Count: len(page)},
		Next:    next,
	}}
}

// listed returns what accepts a message of a list: keep (nil accepts
// all) and every filter of f; nil when both accept every message.
func (st *state) listed(f *msgFilter, keep func(*MsgRec) bool) func(*MsgRec) bool {
	switch {
	case f.none():
		return keep
	case keep == nil:
		return func(m *MsgRec) bool { return st.match(f, m) }
	}
	return func(m *MsgRec) bool { return keep(m) && st.match(f, m) }
}

// GET /v3/messages
//
// Every message of the app, thread replies and action messages included;
// with onBehalfOf, those of the conversations the user takes part in.
// Cursor-paginated (see cursorPage): filters apply before the page is cut,
// so that following meta.next neither skips nor repeats a message. unread,
// count and the mention enrichments are accepted but not applied.
func (st *state) listMessages(c *call) (any, error) {
	p := c.params()
	q := cursorParams(p)
	f := filterParams(p, c.onBehalfOf, true)
	if err := p.err(); err != nil {
		return nil, err
	}
	return st.cursorList(&f, st.messages, st.visibleTo(f.viewer), q), nil
}

// visibleTo returns what keeps the messages of GET /v3/messages that
// viewer sees: nil, every message, without a viewer.
func (st *state) visibleTo(viewer string) func(*MsgRec) bool {
	if viewer == "" {
		return nil
	}
	return func(m *MsgRec) bool { return st.canSee(viewer, m) }
}

// countListed counts the messages of items that keep and every filter of
// f accept: the total of a list, wherever its cursor is.
func (st *state) countListed(f *msgFilter, items []*MsgRec, keep func(*MsgRec) bool) int {
	keep = st.listed(f, keep)
	if keep == nil {
		return len(items)
	}
	n := 0
	for _, m := range items {
		if keep(m) {
			n++
		}
	}
	return n
}

// GET /v3/groups/{guid}/messages
//
// The group must exist, and be one the onBehalfOf user sees
// (ERR_GUID_NOT_FOUND) and is a member of (ERR_GROUP_NOT_JOINED).
func (st *state) listGroupMessages(c *call) (any, error) {
	guid := strings.ToLower(c.r.PathValue("guid"))
	if _, err := st.groupFor(appSystem, guid); err != nil { // the access policy decided who reaches it: policy.go
		return nil, err
	}
	p := c.params()
	q := cursorParams(p)
	f := filterParams(p, c.onBehalfOf, false)
	if err := p.err(); err != nil {
		return nil, err
	}
	return st.cursorList(&f, st.groupMsgs[guid], nil, q), nil
}

// userMessagesMeta is the meta of GET /users/{uid}/messages as the
// service answers it: meta.pagination and a meta.cursor whose id is a
// number.
type userMessagesMeta struct {
	Pagination chat.Pagination  `json:"pagination"`
	Cursor     *numericIDCursor `json:"cursor,omitempty"`
}

type numericIDCursor struct {
	ID    int64          `json:"id"`
	Affix chat.Direction `json:"affix"`
}

// GET /v3/users/{uid}/messages
//
// The one-on-one messages between the onBehalfOf user and uid; without
// onBehalfOf, every one-on-one message uid sent or received (see
// CHOICES.md). The page size is limit, else perPage, else 100.
// The answer carries meta.pagination and meta.cursor {id (a number),
// affix}, and no meta.next: following
// the cursor (an exclusive id cursor, as for the other lists) walks the
// list without skipping or repeating. meta.pagination counts every
// matching message; its current_page is always 1.
func (st *state) listUserMessages(c *call) (any, error) {
	uid := c.uid("uid")
	if st.activeUser(uid) == nil {
		return nil, errUIDNotFound(uid)
	}
	p := c.params()
	q := cursorParams(p)
	if p.str("limit") == "" {
		q.limit = p.intRange("perPage", 100, 1, 1000)
	}
	f := filterParams(p, c.onBehalfOf, false)
	if err := p.err(); err != nil {
		return nil, err
	}
	items := st.userMsgs[uid]
	if f.viewer != "" {
		items = st.pairMsgs[pairKey(uid, f.viewer)]
	}
	page, next := cursorPage(items, msgKey, st.listed(&f, nil), q)
	total := st.countListed(&f, items, nil)
	meta := userMessagesMeta{Pagination: chat.Pagination{
		Total: total, Count: len(page), PerPage: q.limit, CurrentPage: 1,
		TotalPages: (total + q.limit - 1) / q.limit,
	}}
	if next != nil && next.ID != "" {
		id, _ := strconv.ParseInt(next.ID, 10, 64)
		meta.Cursor = &numericIDCursor{ID: id, Affix: next.Direction}
	}
	return userMessagesPage{f.render(page), meta}, nil
}

// userMessagesPage is the answer of GET /v3/users/{uid}/messages.
type userMessagesPage struct {
	Data []chat.Message   `json:"data"`
	Meta userMessagesMeta `json:"meta"`
}
