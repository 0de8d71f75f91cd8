package chat_test

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hostileEnv is the hostile-server test's servers, shared by every
// scenario: the API's https address (main), another https host (other),
// and a plain-http listener (plain) that no request may reach. Each
// scenario's client has the base address https://<main>/h/<id>, so that
// every server knows from the path which scenario a request belongs to.
// The clients trust the servers' certificate through WithHTTPClient, not
// WithInsecureLoopback.
type hostileEnv struct {
	main, other, plain *httptest.Server
	hc                 *http.Client
	// share divides the slack of every bound (see hostileScenario.bound).
	share int

	ids  atomic.Int64
	mu   sync.Mutex
	runs map[string]*hostileRun
}

// newHostileEnv starts the servers; tb's cleanup closes them.
func newHostileEnv(tb testing.TB, share int) *hostileEnv {
	e := &hostileEnv{runs: map[string]*hostileRun{}, share: share}
	quiet := log.New(io.Discard, "", 0) // aborted handshakes and cut bodies are the point
	start := func(name string, tls bool) *httptest.Server {
		s := httptest.NewUnstartedServer(e.handler(name))
		s.Config.ErrorLog = quiet
		if tls {
			s.StartTLS()
		} else {
			s.Start()
		}
		tb.Cleanup(s.Close)
		return s
	}
	e.main = start("main", true)
	e.other = start("other", true) // httptest's servers share one certificate
	e.plain = start("plain", false)
	e.hc = e.main.Client()
	return e
}

// hostileRun is one scenario in progress.
type hostileRun struct {
	id   string
	sc   hostileScenario
	call *hostileCall

	mu    sync.Mutex
	reqs  []hostileRequest // to the https servers
	plain []hostileRequest // to the plain-http listener
}

// hostileRequest is a request as a server received it.
type hostileRequest struct {
	server, method, path string
	at                   time.Time
	carried              []string // the credentials it carried
}

// start registers a run of sc under a fresh id.
func (e *hostileEnv) start(sc hostileScenario, call *hostileCall) *hostileRun {
	run := &hostileRun{id: "s" + strconv.FormatInt(e.ids.Add(1), 10), sc: sc, call: call}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.runs[run.id] = run
	return run
}

// finish forgets run: its servers answer its requests no more.
func (e *hostileEnv) finish(run *hostileRun) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.runs, run.id)
}

// base is the scenario's base address.
func (e *hostileEnv) base(run *hostileRun) string { return e.main.URL + "/h/" + run.id }

// snapshot returns the requests received so far.
func (run *hostileRun) snapshot() (reqs, plain []hostileRequest) {
	run.mu.Lock()
	defer run.mu.Unlock()
	return append([]hostileRequest(nil), run.reqs...), append([]hostileRequest(nil), run.plain...)
}

// record keeps r and returns how many requests the scenario's servers
// received, r included.
func (run *hostileRun) record(r hostileRequest) int {
	run.mu.Lock()
	defer run.mu.Unlock()
	if r.server == "plain" {
		run.plain = append(run.plain, r)
	} else {
		run.reqs = append(run.reqs, r)
	}
	return len(run.reqs) + len(run.plain)
}

// handler serves the requests of every run on the server named server:
// it records each one and answers it, or a 400 beyond hostileRequestCap.
func (e *hostileEnv) handler(server string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		rest, _ := strings.CutPrefix(r.URL.Path, "/h/")
		id, _, _ := strings.Cut(rest, "/")
		e.mu.Lock()
		run := e.runs[id]
		e.mu.Unlock()
		if run == nil {
			http.Error(w, "no such scenario", http.StatusGone)
			return
		}
		req := hostileRequest{server: server, method: r.Method, path: r.URL.EscapedPath(), at: time.Now(),
			carried: hostileCarried(r, body)}
		if n := run.record(req); n > hostileRequestCap {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":{"code":"ERR_HOSTILE_REQUEST_CAP","message":"the test's servers answer no more requests of this call"}}`)
			return
		}
		e.answer(w, r, run, req)
	})
}

// answer writes the scenario's answer to req. A redirect's target (a path
// ending in /moved) gets the body with status 200.
func (e *hostileEnv) answer(w http.ResponseWriter, r *http.Request, run *hostileRun, req hostileRequest) {
	sc, call, h := run.sc, run.call, w.Header()
	if call.iterates() && sc.Repeat {
		run.mu.Lock()
		n := len(run.reqs)
		run.mu.Unlock()
		h.Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, sc.repeatPage(call, n))
		return
	}
	status, moved := sc.Status, strings.HasSuffix(r.URL.Path, "/moved")
	if moved {
		status = http.StatusOK
	}
	body, contentType := sc.text(call, status, req.carried)
	h.Set("Content-Type", contentType)
	if !moved {
		now := time.Now()
		if sc.RetryAfter != 0 {
			h.Set("Retry-After", hostileRetryAfters[sc.RetryAfter].value(now))
		}
		if sc.Reset != 0 {
			h.Set("X-Rate-Limit-Reset", hostileResets[sc.Reset].value(now))
			h.Set("X-Rate-Limit", hostileRateLimits[sc.Reset%len(hostileRateLimits)])
			h.Set("X-Rate-Limit-Remaining", hostileRateLimits[(sc.Reset+1)%len(hostileRateLimits)])
		}
		if loc := e.location(run, r, req.carried); loc != "" {
			h.Set("Location", loc)
		}
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		w.WriteHeader(status)
		return
	}
	written := len(body)
	switch {
	case moved:
	case sc.Length == lenShort && len(body) > 1:
		written = len(body) / 2
		h.Set("Content-Length", strconv.Itoa(written))
	case sc.Length == lenLong:
		h.Set("Content-Length", strconv.Itoa(len(body)+16))
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body[:written])
}

// location is the Location header of the scenario's answer, if any.
func (e *hostileEnv) location(run *hostileRun, r *http.Request, carried []string) string {
	moved := "/h/" + run.id + "/v3/moved"
	echo := url.QueryEscape(hostileEcho(carried, run.sc.Variant))
	switch run.sc.Location {
	case locPlainHTTP:
		return e.plain.URL + moved
	case locPlainHTTPEcho:
		return e.plain.URL + moved + "?echo=" + echo
	case locPlainUpper:
		_, port, _ := net.SplitHostPort(e.plain.Listener.Addr().String())
		return "HTTP://localhost:" + port + moved
	case locOtherHTTPS:
		return e.other.URL + moved
	case locSameHost:
		return moved
	case locLoop:
		return r.URL.RequestURI()
	case locGarbage:
		return "http://[::1%zz" + hostileEcho(carried, run.sc.Variant) + "/" + moved
	}
	return ""
}

// hostileCarried returns the credentials a request carried, in any form,
// in its headers (Basic auth decoded), path, query or body.
func hostileCarried(r *http.Request, body []byte) []string {
	var b strings.Builder
	for k, vs := range r.Header {
		b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
	}
	if user, pass, ok := r.BasicAuth(); ok {
		b.WriteString(user + "\n" + pass + "\n")
	}
	b.WriteString(r.URL.EscapedPath() + "\n" + r.URL.Path + "\n" + r.URL.RawQuery + "\n")
	b.Write(body)
	text := b.String()
	var out []string
	for _, sec := range hostileSecrets {
		for _, f := range hostileForms(sec.value) {
			if strings.Contains(text, f) {
				out = append(out, sec.value)
				break
			}
		}
	}
	return out
}
