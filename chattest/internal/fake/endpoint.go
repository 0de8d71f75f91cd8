package fake

import (
	"net/http"
	"time"
)

// endpoint serves one route. It reads the body and prepares the request's
// log entry, then, under the state lock, records it, picking the fault
// that applies to it, if any (faults.go). Unless the fault answers in
// place of the service (outside the lock), it then, under the lock,
// counts the request against its rate-limit class, authenticates the key,
// checks its scope and the onBehalfOf header, runs the handler and encodes
// the answer, which it writes after unlocking, or breaks as the fault says.
// Without a fault, the request takes the lock once.
func (h *Core) endpoint(rt route) http.Handler {
	class := classify(rt.pattern)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.serving.RLock() // Close closes the store after the requests in flight
		defer h.serving.RUnlock()
		if err := h.unusable(r); err != nil {
			status, out := answerError(err)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(out)
			return
		}
		body, bodyErr := readBody(w, r)
		x := h.arrive(rt.pattern, r, body)
		st := h.st
		st.mu.Lock()
		h.record(x)
		if f := x.fault; f.Delay > 0 || f.Kind == FaultDropBefore || f.Kind == FaultStatus || f.Kind == FaultHTML || f.Kind == FaultInvalidJSON {
			st.mu.Unlock()
			if x.fault.Delay > 0 && !h.wait(r.Context(), x.fault.Delay) {
				drop() // the client left, or the server is closing
			}
			switch x.fault.Kind {
			case FaultDropBefore:
				drop()
			case FaultStatus, FaultHTML, FaultInvalidJSON:
				h.answerFault(w, x, class)
				return
			}
			st.mu.Lock()
		}
		e := st.out.begin() // outbox.go: what the request does
		res := st.serve(rt, class, r, body, bodyErr)
		h.log.LearnFrom(res.out)
		saved := h.keep(rt, r, res) // journal.go
		st.out.publish(e)
		status, out, rate := res.status, res.out, res.rate
		if x.fault.Kind != FaultDropAfter {
			h.log.Answered(x.a, status)
		}
		st.mu.Unlock()
		if err := saved(); err != nil {
			status, out = answerError(errNotSaved(err))
			st.mu.Lock()
			if x.fault.Kind != FaultDropAfter {
				h.log.Answered(x.a, status)
			}
			st.mu.Unlock()
		}

		hdr := w.Header()
		hdr.Set("Content-Type", "application/json")
		if rt.auth == authAPIKey {
			rate.setHeaders(hdr)
		}
		switch x.fault.Kind {
		case FaultDropAfter:
			drop() // acted and recorded: now leave without answering
		case FaultTruncate:
			truncate(w, status, out)
		}
		w.WriteHeader(status)
		w.Write(out)
	})
}

// served is what serve did with a request.
type served struct {
	status int
	out    []byte
	rate   rateInfo
	ran    bool      // the route's handler ran: the request may have changed the state
	apiKey string    // the calling API key, once authorized
	client string    // the acting user of a client API request, once authorized
	now    time.Time // the server's time of the request
}

// serve answers one request that the faults let through: it counts it
// against the budget of its class, and unless that refuses it, authorizes
// and handles it. It runs with st.mu held. While the state is replayed
// (journal.go), nothing is counted.
func (st *state) serve(rt route, class rateClass, r *http.Request, body []byte, bodyErr error) served {
	now := st.clock()
	st.lazy = 0
	res := served{now: now}
	var err error
	if rt.auth == authAPIKey && !st.replaying {
		res.rate = st.rate.admit(class, now)
		if res.rate.refused {
			err = errTooManyRequests(res.rate)
		}
	}
	c := &call{r: r, body: body, now: now}
	if err == nil {
		err = st.authorize(rt, c)
	}
	if err == nil {
		err = bodyErr
	}
	if err == nil && !isApp(c.onBehalfOf) {
		err = st.permit(c.onBehalfOf, rt.reach, targetOf(c, rt.reach)) // policy.go
	}
	var v any
	if err == nil {
		res.ran, res.apiKey = true, c.apiKey
		if rt.auth == authClient {
			res.client = c.onBehalfOf
		}
		v, err = rt.handle(st, c)
	}
	if c.rate != nil {
		res.rate = *c.rate // the handler's own budget (data import)
	}
	res.status, res.out = answer(v, err, c.onBehalfOf)
	return res
}
