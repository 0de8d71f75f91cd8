package fake

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/chatrest/chat"
)

// The Calls API has its own address (https://{appId}.call-{region}...),
// but a client built with chat.WithBaseURL sends calls requests to the
// chat address, so the fake serves them beside the chat API, with the same
// apikey. Calls are not made through the API (it has no operation to make
// one): tests seed them with Server.AddCall and Server.AddTranscription
// (seed_calls.go).

// codeCallSessionNotFound is the calling error code the fake answers
// with: a call that does not exist, or that the acting user did not take
// part in (access.go).
const codeCallSessionNotFound = "ERR_CALL_SESSION_NOT_FOUND"

// recentTranscripts is how many transcriptions a call object carries.
const recentTranscripts = 5

// callsState holds the app's calls and their transcriptions (calls.go).
type callsState struct {
	calls   map[string]*callRec // by session id
	callSeq int64               // calls stored so far: orders them
}

func (c *callsState) init() { c.calls = map[string]*callRec{} }

// callRec is a stored call. c.Transcriptions is always empty: the call
// object's recent transcriptions are computed from transcripts.
type callRec struct {
	c           chat.Call
	seq         int64
	transcripts []transcriptRec
	transSeq    int64
}

// transcriptRec is a stored transcription; seq orders ties.
type transcriptRec struct {
	t   chat.CallTranscription
	seq int64
}

// newestTranscripts returns the call's transcriptions newest first: the
// latest end time first, then the latest added.
func (r *callRec) newestTranscripts() []chat.CallTranscription {
	recs := append([]transcriptRec(nil), r.transcripts...)
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].t.EndTime != recs[j].t.EndTime {
			return recs[i].t.EndTime > recs[j].t.EndTime
		}
		return recs[i].seq > recs[j].seq
	})
	out := make([]chat.CallTranscription, len(recs))
	for i, t := range recs {
		out[i] = t.t
	}
	return out
}

// wire is the call as list and get answer it: with at most the 5 most
// recent transcriptions, when it has any.
func (r *callRec) wire() chat.Call {
	c := r.c
	if c.HasTranscription {
		ts := r.newestTranscripts()
		c.Transcriptions = ts[:min(len(ts), recentTranscripts)]
	}
	return c
}

// tookPart reports whether uid made the call, was called (a one-on-one
// call), or is one of its participants, answered or not.
func (r *callRec) tookPart(uid string) bool {
	c := &r.c
	if c.Initiator == uid || c.ReceiverType == chat.ReceiverUser && c.Receiver == uid {
		return true
	}
	for _, p := range c.Participants {
		if p.UID == uid {
			return true
		}
	}
	return false
}

func callRoutes() []route {
	return []route{
		{pattern: "GET /v3/calls", obo: oboOptional, reach: listed, handle: (*state).listCalls},
		{pattern: "GET /v3/calls/{sessionId}", obo: oboOptional, reach: onCall(), handle: (*state).getCall},
		{pattern: "GET /v3/calls/{sessionId}/transcriptions", obo: oboOptional, reach: onCall(), handle: (*state).listTranscriptions},
	}
}

func errCallSessionNotFound(sessionID string) *apiError {
	return newAPIError(http.StatusNotFound, codeCallSessionNotFound,
		"The call session "+sessionID+" does not exist.", "")
}

// pathCall returns the call named by the path's {sessionId}, which the
// onBehalfOf user, when there is one, must have taken part in: a call
// they had no part in answers as one that does not exist (access.go).
func (st *state) pathCall(c *call) (*callRec, error) {
	return st.callFor(c.onBehalfOf, c.r.PathValue("sessionId"))
}

// optBool reads an optional boolean parameter: set is false when absent.
func optBool(p *params, name string) (v, set bool) {
	if p.q.Get(name) == "" {
		return false, false
	}
	return p.boolean(name), true
}

// oneOf checks that the parameter name, when present, is one of allowed.
func oneOf[T ~string](p *params, name string, allowed ...T) T {
	v := T(p.str(name))
	if v == "" {
		return v
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = `"` + string(a) + `"`
	}
	p.v.add(name, "The %s field must be one of %s.", name, strings.Join(quoted, ", "))
	return ""
}

var (
	callTypes         = []chat.CallType{chat.CallTypeAudio, chat.CallTypeVideo}
	callModes         = []chat.CallMode{chat.CallModeCall, chat.CallModeMeet, chat.CallModePresenter}
	callStatuses      = []chat.CallStatus{chat.CallStatusInitiated, chat.CallStatusOngoing, chat.CallStatusEnded, chat.CallStatusUnanswered, chat.CallStatusRejected, chat.CallStatusCanceled}
	callReceiverTypes = []chat.ReceiverType{chat.ReceiverUser, chat.ReceiverGroup}
	participantStates = []chat.ParticipantState{chat.ParticipantOngoing, chat.ParticipantEnded, chat.ParticipantUnanswered, chat.ParticipantRejected}
)

// callFilter is the query of the list of calls.
type callFilter struct {
	typ                    chat.CallType
	mode                   chat.CallMode
	status                 chat.CallStatus
	receiverType           chat.ReceiverType
	participants           int64
	hasParticipants        bool
	startedAt, endedAt     int64
	hasStarted, hasEnded   bool
	recording, hasRecFlag  bool
	transcribed, hasTrFlag bool
	uid                    string
}

func (f *callFilter) keep(r *callRec) bool {
	c := &r.c
	switch {
	case f.typ != "" && c.Type != f.typ,
		f.mode != "" && c.Mode != f.mode,
		f.status != "" && c.Status != f.status,
		f.receiverType != "" && c.ReceiverType != f.receiverType,
		f.hasParticipants && int64(c.TotalParticipants) != f.participants,
		f.hasStarted && (c.StartedAt == 0 || int64(c.StartedAt) < f.startedAt),
		f.hasEnded && (c.EndedAt == 0 || int64(c.EndedAt) > f.endedAt),
		f.hasRecFlag && c.HasRecording != f.recording,
		f.hasTrFlag && c.HasTranscription != f.transcribed,
		f.uid != "" && !r.tookPart(f.uid):
		return false
	}
	return true
}

// GET /v3/calls
//
// Calls come newest first (by initiatedAt, then the latest stored), page
// by page with the API's usual parameters (perPage default 100, at most
// 1000; page from 1), answering meta.pagination. The filters (see
// CHOICES.md): participantsCount matches totalParticipants exactly,
// startedAt keeps calls started at or after it, endedAt calls ended at or
// before it, uid (like onBehalfOf) the calls the user made, was called in
// (one-on-one) or is a participant of. status accepts the six call
// statuses.
func (st *state) listCalls(c *call) (any, error) {
	p := c.params()
	pq := pageParams(p)
	f := callFilter{
		typ:          oneOf(p, "type", callTypes...),
		mode:         oneOf(p, "mode", callModes...),
		status:       oneOf(p, "status", callStatuses...),
		receiverType: oneOf(p, "receiverType", callReceiverTypes...),
		uid:          strings.ToLower(p.str("uid")),
	}
	f.participants, f.hasParticipants = p.timestamp("participantsCount")
	f.startedAt, f.hasStarted = p.timestamp("startedAt")
	f.endedAt, f.hasEnded = p.timestamp("endedAt")
	f.recording, f.hasRecFlag = optBool(p, "hasRecording")
	f.transcribed, f.hasTrFlag = optBool(p, "hasTranscription")
	if err := p.err(); err != nil {
		return nil, err
	}
	recs := make([]*callRec, 0, len(st.calls))
	for _, r := range st.calls {
		if canSeeCall(c.onBehalfOf, r) && f.keep(r) {
			recs = append(recs, r)
		}
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].c.InitiatedAt != recs[j].c.InitiatedAt {
			return recs[i].c.InitiatedAt > recs[j].c.InitiatedAt
		}
		return recs[i].seq > recs[j].seq
	})
	out := make([]chat.Call, len(recs))
	for i, r := range recs {
		out[i] = r.wire()
	}
	page, meta := paginate(out, pq)
	return chat.Page[chat.Call]{Data: page, Meta: meta}, nil
}

// getCallWire is a call as get answers it, with metaData and tags, empty
// arrays when there are none.
type getCallWire struct {
	chat.Call
	MetaData json.RawMessage `json:"metaData"`
	Tags     []string        `json:"tags"`
}

// GET /v3/calls/{sessionId}
func (st *state) getCall(c *call) (any, error) {
	r, err := st.pathCall(c)
	if err != nil {
		return nil, err
	}
	w := getCallWire{Call: r.wire(), MetaData: r.c.MetaData, Tags: r.c.Tags}
	if len(w.MetaData) == 0 {
		w.MetaData = json.RawMessage(`[]`)
	}
	if w.Tags == nil {
		w.Tags = []string{}
	}
	return data(w), nil
}

// GET /v3/calls/{sessionId}/transcriptions
//
// Newest first (the latest end time, then the latest added), perPage
// (default 100, at most 1000) and page; empty until transcriptions are
// added with Server.AddTranscription.
func (st *state) listTranscriptions(c *call) (any, error) {
	r, err := st.pathCall(c)
	if err != nil {
		return nil, err
	}
	pq, err := c.pageOnly()
	if err != nil {
		return nil, err
	}
	page, meta := paginate(r.newestTranscripts(), pq)
	return chat.Page[chat.CallTranscription]{Data: page, Meta: meta}, nil
}
