package fake

import (
	"sort"
	"strconv"

	"github.com/chatrest/chat"
)

// reasonRec is a stored moderation reason; seq orders the list.
type reasonRec struct {
	r   chat.ModerationReason
	seq int64
}

// reasonWire is a reason as list and get answer it: its timestamps are
// strings there (integers on create).
type reasonWire struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
	Default     bool   `json:"default"`
}

func (r *reasonRec) wire() reasonWire {
	return reasonWire{ID: r.r.ID, Name: r.r.Name, Description: r.r.Description, Default: r.r.Default,
		CreatedAt: strconv.FormatInt(int64(r.r.CreatedAt), 10), UpdatedAt: strconv.FormatInt(int64(r.r.UpdatedAt), 10)}
}

func reasonRoutes() []route {
	return []route{
		{pattern: "POST /v3/moderation/reasons", reach: appOnly, handle: (*state).createReason},
		{pattern: "GET /v3/moderation/reasons", reach: appOnly, handle: (*state).listReasons},
		{pattern: "GET /v3/moderation/reasons/{id}", reach: appOnly, handle: (*state).getReason},
		{pattern: "PUT /v3/moderation/reasons/{id}", reach: appOnly, handle: (*state).updateReason},
		{pattern: "DELETE /v3/moderation/reasons/{id}", reach: appOnly, handle: (*state).deleteReason},
	}
}

// putReason stores r, replacing a reason with its id but keeping its place.
func (st *state) putReason(r chat.ModerationReason) *reasonRec {
	rec := st.reasons[r.ID]
	if rec == nil {
		st.reasonSeq++
		rec = &reasonRec{seq: st.reasonSeq}
		st.reasons[r.ID] = rec
		touchField(st, &st.reasons)
	}
	rec.r = r
	return rec
}

// pathReason returns the reason named by the path's {id}.
func (st *state) pathReason(c *call) (*reasonRec, error) {
	id := c.r.PathValue("id")
	if r := st.reasons[id]; r != nil {
		return r, nil
	}
	return nil, errReasonNotFound(id)
}

// POST /v3/moderation/reasons
//
// An id already in use is a 400 with details (see CHOICES.md).
func (st *state) createReason(c *call) (any, error) {
	var b struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "id", b.ID, true, 100)
	checkText(&v, "name", b.Name, true, 100)
	checkText(&v, "description", b.Description, false, 255)
	if err := v.err(); err != nil {
		return nil, err
	}
	if st.reasons[b.ID] != nil {
		return nil, errTaken("id")
	}
	now := c.timestamp()
	r := st.putReason(chat.ModerationReason{ID: b.ID, Name: b.Name, Description: b.Description, CreatedAt: now, UpdatedAt: now})
	return data(r.r), nil
}

// GET /v3/moderation/reasons
//
// Reasons come in creation order, cursor-paginated as other moderation
// lists: limit (default 100, at most 1000) and id (continue after that
// reason); meta.next names the last reason returned while more follow.
func (st *state) listReasons(c *call) (any, error) {
	p := c.params()
	limit := p.intRange("limit", 100, 1, 1000)
	after := p.str("id")
	if err := p.err(); err != nil {
		return nil, err
	}
	recs := make([]*reasonRec, 0, len(st.reasons))
	for _, r := range st.reasons {
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
	if a := st.reasons[after]; a != nil {
		recs = recs[sort.Search(len(recs), func(i int) bool { return recs[i].seq > a.seq }):]
	}
	out := []reasonWire{}
	for _, r := range recs[:min(limit, len(recs))] {
		out = append(out, r.wire())
	}
	meta := chat.PageMeta{Current: &chat.PageCount{Limit: limit, Count: len(out)}}
	if len(recs) > limit {
		meta.Next = &chat.Cursor{Direction: chat.DirectionAfter, ID: out[len(out)-1].ID}
	}
	return chat.Page[reasonWire]{Data: out, Meta: meta}, nil
}

// GET /v3/moderation/reasons/{id}
func (st *state) getReason(c *call) (any, error) {
	r, err := st.pathReason(c)
	if err != nil {
		return nil, err
	}
	return data(r.wire()), nil
}

// PUT /v3/moderation/reasons/{id}
func (st *state) updateReason(c *call) (any, error) {
	r, err := st.pathReason(c)
	if err != nil {
		return nil, err
	}
	var b struct {
		Name string `json:"name"`
	}
	if err := c.decode(&b); err != nil {
		return nil, err
	}
	var v validator
	checkText(&v, "name", b.Name, true, 100)
	if err := v.err(); err != nil {
		return nil, err
	}
	r.r.Name, r.r.UpdatedAt = b.Name, c.timestamp()
	return data(r.wire()), nil
}

// DELETE /v3/moderation/reasons/{id}
//
// success and message are at the top level, not under "data".
func (st *state) deleteReason(c *call) (any, error) {
	r, err := st.pathReason(c)
	if err != nil {
		return nil, err
	}
	delete(st.reasons, r.r.ID)
	touchField(st, &st.reasons)
	return chat.Result{Success: true, Message: "The reason " + r.r.ID + " has been deleted successfully."}, nil
}
