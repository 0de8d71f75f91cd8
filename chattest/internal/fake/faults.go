package fake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault is a failure injected into the requests it matches: a
// chattest.Fault, which documents its fields, as the core applies it.
type Fault struct {
	Route      string // a registered pattern, or "*"
	Times      int    // 0: until cleared
	Delay      time.Duration
	Kind       FaultKind
	Status     int
	Code       string
	RetryAfter time.Duration
}

// FaultKind says what a [Fault] does to a request: a chattest.FaultKind.
type FaultKind int

// The kinds of faults, as chattest.FaultKind documents them.
const (
	FaultNone FaultKind = iota
	FaultStatus
	FaultHTML
	FaultInvalidJSON
	FaultDropBefore
	FaultDropAfter
	FaultTruncate
)

var faultKindNames = [...]string{
	FaultNone:        "none",
	FaultStatus:      "status",
	FaultHTML:        "html",
	FaultInvalidJSON: "invalid-json",
	FaultDropBefore:  "drop-before",
	FaultDropAfter:   "drop-after",
	FaultTruncate:    "truncate",
}

// String names the kind, e.g. "drop-after".
func (k FaultKind) String() string {
	if k < 0 || int(k) >= len(faultKindNames) {
		return "FaultKind(" + strconv.Itoa(int(k)) + ")"
	}
	return faultKindNames[k]
}

// MarshalText encodes the kind as its name, so that the request log reads
// well as JSON.
func (k FaultKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Fail does the work of chattest.Server.Fail, which documents it.
func (s *Core) Fail(f Fault) error {
	f, err := s.checkFault(f)
	if err != nil {
		return fmt.Errorf("chattest: Fail: %w", err)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	s.faults = append(s.faults, &activeFault{f: f, left: f.Times})
	return nil
}

// ClearFaults does the work of chattest.Server.ClearFaults, which documents it.
func (s *Core) ClearFaults() {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	s.faults = nil
}

// activeFault is a fault with its uses left; left is 0 for a fault without
// a limit.
type activeFault struct {
	f    Fault
	left int
}

// route normalizes a route argument: "" is "*", and runs of spaces are one
// space. It reports whether the route is "*" or a registered pattern.
func (h *Core) route(route string) (string, error) {
	route = strings.Join(strings.Fields(route), " ")
	if route == "" || route == "*" {
		return "*", nil
	}
	if !h.routes[route] {
		return route, fmt.Errorf(`route %q is not a pattern the server registers (e.g. "POST /v3/messages/{id}/thread"), nor "*"`, route)
	}
	return route, nil
}

// checkFault validates f and fills in its defaults.
func (h *Core) checkFault(f Fault) (Fault, error) {
	var err error
	if f.Route, err = h.route(f.Route); err != nil {
		return f, err
	}
	switch {
	case f.Times < 0:
		return f, errors.New("negative Times")
	case f.Delay < 0:
		return f, errors.New("negative Delay")
	case f.RetryAfter < 0:
		return f, errors.New("negative RetryAfter")
	case f.Kind < FaultNone || f.Kind > FaultTruncate:
		return f, fmt.Errorf("unknown Kind %d", int(f.Kind))
	case f.Kind == FaultNone && f.Delay == 0:
		return f, errors.New("a fault without Kind or Delay does nothing")
	case f.Code != "" && f.Kind != FaultStatus:
		return f, fmt.Errorf("a Code is sent by FaultStatus only, not %v", f.Kind)
	case f.RetryAfter != 0 && f.Kind != FaultStatus && f.Kind != FaultHTML:
		return f, fmt.Errorf("a RetryAfter is sent by FaultStatus and FaultHTML only, not %v", f.Kind)
	case f.Status != 0 && f.Kind != FaultStatus && f.Kind != FaultHTML:
		return f, fmt.Errorf("a Status is sent by FaultStatus and FaultHTML only, not %v", f.Kind)
	}
	switch f.Kind {
	case FaultStatus:
		if f.Status < 400 || f.Status > 599 {
			return f, fmt.Errorf("FaultStatus needs a Status from 400 to 599, not %d", f.Status)
		}
	case FaultHTML:
		if f.Status == 0 {
			f.Status = http.StatusBadGateway
		}
		if f.Status < 200 || f.Status > 599 {
			return f, fmt.Errorf("FaultHTML needs a Status from 200 to 599, not %d", f.Status)
		}
	}
	return f, nil
}

// takeFault returns the fault for a request of the route pattern (the zero
// Fault when none applies) and uses it up once. It runs with st.mu held.
func (h *Core) takeFault(pattern string) Fault {
	for i, af := range h.faults {
		if af.f.Route != "*" && af.f.Route != pattern {
			continue
		}
		if af.left > 0 {
			if af.left--; af.left == 0 {
				h.faults = append(h.faults[:i:i], h.faults[i+1:]...)
			}
		}
		return af.f
	}
	return Fault{}
}

// wait waits for d, and reports false when the request's context ended or
// the server started closing first.
func (h *Core) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-h.closing:
		return false
	}
}

// drop ends the request without answering (more), closing the connection
// over HTTP/1.1 and resetting the stream over HTTP/2. net/http recovers
// this panic without logging it.
func drop() { panic(http.ErrAbortHandler) }

// truncate sends the status and headers of out with its full length, half
// of out, and drops the connection.
func truncate(w http.ResponseWriter, status int, out []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(status)
	w.Write(out[:len(out)/2])
	http.NewResponseController(w).Flush()
	drop()
}

// answerFault answers in place of the service, as x's fault says.
func (h *Core) answerFault(w http.ResponseWriter, x *exchange, class rateClass) {
	f := x.fault
	status, contentType := f.Status, "application/json"
	var body []byte
	switch {
	case f.Kind == FaultInvalidJSON:
		status, body = http.StatusOK, []byte(`{"data": undefined}`)
	case f.Kind == FaultHTML || (f.Status == http.StatusBadGateway || f.Status == http.StatusGatewayTimeout) && f.Code == "":
		contentType, body = "text/html; charset=utf-8", proxyPage(status)
	default:
		code := f.Code
		if code == "" {
			code = faultCode(status)
		}
		body, _ = json.Marshal(errorEnvelope{newAPIError(status, code,
			http.StatusText(status)+" (a fault injected with chattest.Server.Fail).", "")})
	}

	st := h.st
	st.mu.Lock()
	h.log.Answered(x.a, status)
	st.out.publish(st.out.begin()) // answered, and nothing changed: the dashboard shows it
	rate := st.rate.peek(class, st.clock())
	st.mu.Unlock()

	hdr := w.Header()
	hdr.Set("Content-Type", contentType)
	if contentType == "application/json" {
		rate.setHeaders(hdr) // the service's answers carry them; a proxy's do not
	}
	if f.RetryAfter > 0 {
		hdr.Set("Retry-After", strconv.FormatInt(int64((f.RetryAfter+time.Second-1)/time.Second), 10))
	}
	w.WriteHeader(status)
	w.Write(body)
}

// faultCode is the default error code of a FaultStatus.
func faultCode(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return codeTooManyRequests
	case status >= 500:
		return "ERR_MISSION_FAILED"
	case status == http.StatusBadRequest:
		return codeBadRequest
	case status == http.StatusUnauthorized:
		return codeAPIKeyUnknown
	case status == http.StatusForbidden:
		return codeNoAccess
	case status == http.StatusNotFound:
		return codeAPINotFound
	}
	return "ERR_OPERATION_FAILED"
}

// proxyPage is the HTML error page of a gateway, as nginx writes it.
func proxyPage(status int) []byte {
	title := strconv.Itoa(status) + " " + http.StatusText(status)
	return []byte("<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title +
		"</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
}
