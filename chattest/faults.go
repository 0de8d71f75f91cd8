package chattest

import (
	"fmt"
	"strings"
	"time"

	"github.com/chatrest/chat/chattest/internal/fake"
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

// String names the kind, e.g. "drop-after".
func (k FaultKind) String() string { return fake.FaultKind(k).String() }

// MarshalText encodes the kind as its name, so that the request log reads
// well as JSON.
func (k FaultKind) MarshalText() ([]byte, error) { return fake.FaultKind(k).MarshalText() }

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
func (s *Server) Fail(f Fault) error { return s.h.core.Fail(f.core()) }

// ClearFaults removes every fault, used up or not.
func (s *Server) ClearFaults() { s.h.core.ClearFaults() }

// core is f as the core applies it.
func (f Fault) core() fake.Fault {
	return fake.Fault{Route: f.Route, Times: f.Times, Delay: f.Delay, Kind: fake.FaultKind(f.Kind),
		Status: f.Status, Code: f.Code, RetryAfter: f.RetryAfter}
}

// faultOf is the Fault of f, as the core applied it.
func faultOf(f fake.Fault) Fault {
	return Fault{Route: f.Route, Times: f.Times, Delay: f.Delay, Kind: FaultKind(f.Kind),
		Status: f.Status, Code: f.Code, RetryAfter: f.RetryAfter}
}
