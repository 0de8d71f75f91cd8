package fake

import (
	"net/http"
	"net/url"
	"time"
)

// Request is one request as the server received it, as the log keeps it:
// a chattest.Request, which documents its fields and how credentials are
// redacted.
type Request struct {
	// Time is the server's clock ([WithClock]) when the request arrived.
	Time time.Time
	// Method is the request method, e.g. "POST".
	Method string
	// Path is the path as received, escaped, e.g. "/v3/users/a%2Fb".
	Path string
	// Route is the pattern of the route that served the request, e.g.
	// "POST /v3/messages/{id}/thread"; empty when no route matched (the
	// answer was 404 ERR_API_NOT_FOUND).
	Route string
	// Query is the decoded query string.
	Query url.Values
	// Header holds the request's headers.
	Header http.Header
	// Body is the request body, redacted (see above).
	Body string
	// Status is the status answered; 0 when nothing was answered: the
	// connection was dropped ([FaultDropBefore], [FaultDropAfter]), or the
	// client left or the server closed during a [Fault.Delay] (or, for a
	// moment, while the request is in progress).
	Status int
	// Fault is the fault applied to the request; the zero Fault when none
	// was.
	Fault Fault
}

// RequestLog records the requests the core serves, with their
// credentials redacted (chattest.Request says how); package chattest
// gives the core one. It is safe for concurrent use: the core calls it
// with the state's lock held, except Arrive.
type RequestLog interface {
	// Arrive prepares the log entry of a request of the route pattern,
	// with the credentials the log knows by then redacted, before the
	// request takes the state's lock; Record then records it.
	Arrive(pattern string, r *http.Request, body []byte) Arrival
	// Record records the request of a as arrived at the time at, with
	// the fault f applied to it.
	Record(a Arrival, at time.Time, f Fault)
	// Answered sets the status answered to the request of a.
	Answered(a Arrival, status int)
	// Learn adds secret to the credentials never logged, for good, and
	// reports whether it is new.
	Learn(secret string) bool
	// LearnFrom learns the credentials an answer body issues or shows.
	LearnFrom(out []byte)
	// Shown returns a text of the state (a message, a webhook's URL, a
	// delivery's error) as the dashboard shows it, its credentials
	// redacted as in the log.
	Shown(text string) string
}

// Arrival is a request in progress, as the RequestLog that prepared its
// entry knows it.
type Arrival any

// noRequestLog is the RequestLog of a core that logs nothing.
type noRequestLog struct{}

func (noRequestLog) Arrive(string, *http.Request, []byte) Arrival { return nil }
func (noRequestLog) Record(Arrival, time.Time, Fault)             {}
func (noRequestLog) Answered(Arrival, int)                        {}
func (noRequestLog) Learn(string) bool                            { return false }
func (noRequestLog) LearnFrom([]byte)                             {}
func (noRequestLog) Shown(text string) string                     { return text }

// exchange is a request in progress: its arrival in the request log, and
// the fault that applies to it.
type exchange struct {
	pattern string
	a       Arrival
	fault   Fault
}

// arrive prepares the log entry of a request of the route pattern, before
// the request takes the state's lock.
func (h *Core) arrive(pattern string, r *http.Request, body []byte) *exchange {
	return &exchange{pattern: pattern, a: h.log.Arrive(pattern, r, body)}
}

// record records x's request in the log, which learns the API keys seeded
// since the last request first, and takes the fault that applies to it.
// It runs with st.mu held.
func (h *Core) record(x *exchange) {
	st := h.st
	if st.apiKeySeq != h.keysLearned {
		for key := range st.apiKeys {
			h.log.Learn(key)
		}
		h.keysLearned = st.apiKeySeq
	}
	now := st.clock()
	x.fault = h.takeFault(x.pattern)
	h.log.Record(x.a, now, x.fault)
}

// Pattern normalizes a route argument of the inspection methods: "" is
// "*", and runs of spaces are one space. It reports whether the route is
// "*" or a registered pattern.
func (h *Core) Pattern(route string) (string, error) { return h.route(route) }

// Closing returns a channel closed when the core starts closing.
func (h *Core) Closing() <-chan struct{} { return h.closing }
