package chattest

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

// Fault is a failure the server injects into the requests it matches, to
// test how code copes with a failing service, proxy or network: add it with
// [Server.Fail]. Faults are deterministic: they apply to the next matching
// requests, in arrival order, and need no sleeping by the test.
//
//	// The next send is stored, but its answer is lost.
//	srv.Fail(chattest.Fault{Route: "POST /v3/messages", Kind: chattest.FaultDropAfter, Times: 1})
//
// The fault applied to a request shows in its [Request] in the log.
type Fault struct {
	// Route selects the requests: a route pattern exactly as the server
	// registers it, method included, e.g. "POST /v3/messages/{id}/thread",
	// or "*" (or "") for every request, including those that match no
	// route.
	Route string
	// Times is how many matching requests the fault applies to; 0 means
	// every one until [Server.ClearFaults].
	Times int
	// Delay holds each matching request this long before anything else
	// happens to it (before Kind applies and before the service sees it).
	// The wait ends early, and the request is dropped without being
	// processed, when the client gives up (its context ends) or the server
	// closes. A Fault with a Delay and no Kind only slows requests down.
	Delay time.Duration
	// Kind is what happens to the request; see the FaultKind constants.
	Kind FaultKind
	// Status is the status of FaultStatus (400 to 599, required) and of
	// FaultHTML (200 to 599; default 502).
	Status int
	// Code is the error code of FaultStatus. The default fits the status:
	// 429 ERR_TOO_MANY_REQUESTS, 5xx ERR_MISSION_FAILED, 400
	// ERR_BAD_REQUEST, 401 AUTH_ERR_APIKEY_NOT_FOUND, 403 AUTH_ERR_NO_ACCESS,
	// 404 ERR_API_NOT_FOUND, other 4xx ERR_OPERATION_FAILED.
	Code string
	// RetryAfter, when positive, is sent as the Retry-After header of
	// FaultStatus and FaultHTML, in whole seconds rounded up.
	RetryAfter time.Duration
}

// FaultKind says what a [Fault] does to a request.
type FaultKind int

const (
	// FaultNone serves the request normally, after the fault's Delay.
	FaultNone FaultKind = iota
	// FaultStatus answers Status with the API's error body
	// ({"error": {"code": Code, ...}}), in place of the service: nothing
	// is processed. A 502 or 504 without a Code comes from the gateway in
	// front of the service, as an HTML page (see FaultHTML).
	FaultStatus
	// FaultHTML answers Status (default 502) with an HTML page
	// (text/html), as a proxy or load balancer would; nothing is processed.
	FaultHTML
	// FaultInvalidJSON answers 200 with a body that is not JSON, in place
	// of the service: nothing is processed.
	FaultInvalidJSON
	// FaultDropBefore drops the connection before the service sees the
	// request: nothing is processed, and nothing is answered.
	FaultDropBefore
	// FaultDropAfter lets the service process the request fully and
	// commit its changes, then drops the connection without answering, so
	// that a test can prove a retry did not repeat a write.
	FaultDropAfter
	// FaultTruncate lets the service process the request, then sends the
	// status and headers (with the full Content-Length) and half the body,
	// and drops the connection.
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

// String shows the fields that are set, e.g.
// `chattest.Fault{Route: "GET /v3/users/{uid}", Times: 1, Kind: status, Status: 503}`.
func (f Fault) String() string {
	var parts []string
	add := func(format string, v any) { parts = append(parts, fmt.Sprintf(format, v)) }
	if f.Route != "" {
		add("Route: %q", f.Route)
	}
	if f.Times != 0 {
		add("Times: %d", f.Times)
	}
	if f.Delay != 0 {
		add("Delay: %v", f.Delay)
	}
	if f.Kind != FaultNone {
		add("Kind: %v", f.Kind)
	}
	if f.Status != 0 {
		add("Status: %d", f.Status)
	}
	if f.Code != "" {
		add("Code: %q", f.Code)
	}
	if f.RetryAfter != 0 {
		add("RetryAfter: %v", f.RetryAfter)
	}
	return "chattest.Fault{" + strings.Join(parts, ", ") + "}"
}

// Fail adds f to the server's faults. A request gets the first fault added
// that matches its route and has uses left; the faults do not combine.
//
// Fail returns an error, and adds nothing, when f is not valid: a Route the
// server does not register, a negative Times, Delay or RetryAfter, a Status
// out of its Kind's range, a Code or RetryAfter the Kind does not send, or a
// fault that does nothing.
//
// A dropped connection is an aborted handler ([http.ErrAbortHandler]): over
// HTTP/2 the client sees its stream reset, over HTTP/1.1 the connection
// closed. Neither is logged by the server as a crash.
func (s *Server) Fail(f Fault) error {
	f, err := s.h.checkFault(f)
	if err != nil {
		return fmt.Errorf("chattest: Fail: %w", err)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	s.h.faults = append(s.h.faults, &activeFault{f: f, left: f.Times})
	return nil
}

// ClearFaults removes every fault, used up or not.
func (s *Server) ClearFaults() {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	s.h.faults = nil
}

// activeFault is a fault with its uses left; left is 0 for a fault without
// a limit.
type activeFault struct {
	f    Fault
	left int
}

// route normalizes a route argument: "" is "*", and runs of spaces are one
// space. It reports whether the route is "*" or a registered pattern.
func (h *Handler) route(route string) (string, error) {
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
func (h *Handler) checkFault(f Fault) (Fault, error) {
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
func (h *Handler) takeFault(pattern string) Fault {
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
func (h *Handler) wait(ctx context.Context, d time.Duration) bool {
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
func (h *Handler) answerFault(w http.ResponseWriter, x *exchange, class rateClass) {
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
	x.entry.Status = status
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
