package wiretest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// EndlessServer is a hostile loopback server: every answer has one status
// and a body that never ends (a JSON string that never closes). It counts
// the bytes it managed to write, and reports each handler that gave up
// because the client went away.
type EndlessServer struct {
	*httptest.Server
	served atomic.Int64
	done   chan struct{}
}

// NewEndlessServer starts an EndlessServer answering status with the given
// header name/value pairs; it closes when the test ends.
func NewEndlessServer(t testing.TB, status int, header ...string) *EndlessServer {
	s := &EndlessServer{done: make(chan struct{}, 16)}
	chunk := []byte(strings.Repeat("x", 32<<10))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { s.done <- struct{}{} }()
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		n, _ := io.WriteString(w, `{"data":{"uid":"u1","name":"`)
		s.served.Add(int64(n))
		for r.Context().Err() == nil {
			n, err := w.Write(chunk)
			s.served.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// Served is how many bytes of answers the server wrote.
func (s *EndlessServer) Served() int64 { return s.served.Load() }

// Done receives once for every handler that returned: the client closed
// the connection rather than drain it.
func (s *EndlessServer) Done() <-chan struct{} { return s.done }

// Arrival is a request as one of the RedirectHosts received it.
type Arrival struct {
	Host   string // "origin" or "other"
	Method string
	Path   string
	Header http.Header // only the headers the hosts follow
}

// RedirectHosts are two loopback servers, two hosts for a client (their
// ports differ): Origin is the client's base address, and Other is
// another host. Each answers a path by the rule a test sets with
// Redirect, else 200 with {"data":{"ok":true}}, and records what arrived.
type RedirectHosts struct {
	Origin, Other *httptest.Server

	follow   []string
	mu       sync.Mutex
	arrivals []Arrival
	rules    map[string]string // "origin GET /v3/users/x" -> Location
}

// NewRedirectHosts starts the two hosts, recording of each request the
// headers named follow; they close when the test ends.
func NewRedirectHosts(t testing.TB, follow ...string) *RedirectHosts {
	h := &RedirectHosts{follow: follow, rules: map[string]string{}}
	h.Origin = httptest.NewServer(h.serve("origin"))
	t.Cleanup(h.Origin.Close)
	h.Other = httptest.NewServer(h.serve("other"))
	t.Cleanup(h.Other.Close)
	return h
}

func (h *RedirectHosts) serve(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		a := Arrival{Host: name, Method: r.Method, Path: r.URL.Path, Header: http.Header{}}
		for _, k := range h.follow {
			if v, ok := r.Header[http.CanonicalHeaderKey(k)]; ok {
				a.Header[k] = v
			}
		}
		h.arrivals = append(h.arrivals, a)
		location, redirect := h.rules[name+" "+r.Method+" "+r.URL.Path]
		h.mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		if redirect {
			w.Header().Set("Location", location)
			w.WriteHeader(http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":{"ok":true}}`)
	})
}

// Redirect makes host ("origin" or "other") answer method and path with a
// 307 to location.
func (h *RedirectHosts) Redirect(host, method, path, location string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rules[host+" "+method+" "+path] = location
}

// Take returns the arrivals since the last Take.
func (h *RedirectHosts) Take() []Arrival {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.arrivals
	h.arrivals = nil
	return out
}

// NewEchoServer starts an https server that answers every request with a
// 400 whose every field echoes what the request carried: its path and
// query, every header value and its body, each also URL-escaped, in code,
// message, devMessage, source and the keys and values of details, as a
// careless service might. It closes when the test ends; its Client trusts
// it.
func NewEchoServer(t testing.TB) *httptest.Server {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var headers []string
		for _, vs := range r.Header {
			headers = append(headers, vs...)
		}
		sort.Strings(headers)
		all := r.URL.RequestURI() + " " + strings.Join(headers, " ") + " " + string(body)
		escaped := url.QueryEscape(all)
		resp := map[string]any{"error": map[string]any{
			"code": all, "message": all, "devMessage": escaped, "source": r.Header.Get("apikey") + r.Header.Get("secret"),
			"details": map[string]any{all: []string{all, escaped}, escaped: all},
		}}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}
