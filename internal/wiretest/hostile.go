package wiretest

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// HostileServers are the servers of the hostile-server tests, shared by
// every scenario: the API's https address (Main), another https host
// (Other; httptest's servers share one certificate) and a plain-http
// listener (Plain) that no request may reach. Client trusts their
// certificate, so that a test's clients need not skip its verification.
//
// Each run of a scenario has an id (NewRun), its handler (Handle) and its
// own base address, https://<main>/h/<id>, so that every server knows from
// the path which run a request belongs to; a request of no run in
// progress gets a 410.
type HostileServers struct {
	Main, Other, Plain *httptest.Server
	Client             *http.Client

	ids  atomic.Int64
	mu   sync.Mutex
	runs map[string]HostileHandler
}

// HostileHandler serves a request of one run on the server named server:
// "main", "other" or "plain".
type HostileHandler func(server string, w http.ResponseWriter, r *http.Request)

// NewHostileServers starts the servers; they close when the test ends.
// They log nothing: aborted handshakes and cut bodies are the point.
func NewHostileServers(t testing.TB) *HostileServers {
	s := &HostileServers{runs: map[string]HostileHandler{}}
	quiet := log.New(io.Discard, "", 0)
	start := func(name string, tls bool) *httptest.Server {
		srv := httptest.NewUnstartedServer(s.dispatch(name))
		srv.Config.ErrorLog = quiet
		if tls {
			srv.StartTLS()
		} else {
			srv.Start()
		}
		t.Cleanup(srv.Close)
		return srv
	}
	s.Main = start("main", true)
	s.Other = start("other", true)
	s.Plain = start("plain", false)
	s.Client = s.Main.Client()
	return s
}

// NewRun returns the id of a new run, whose requests the servers answer
// once Handle gives them its handler.
func (s *HostileServers) NewRun() string { return "s" + strconv.FormatInt(s.ids.Add(1), 10) }

// Handle makes h serve the requests of the run id.
func (s *HostileServers) Handle(id string, h HostileHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[id] = h
}

// Finish forgets the run id: the servers answer its requests no more.
func (s *HostileServers) Finish(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.runs, id)
}

// Base is the base address of the run id.
func (s *HostileServers) Base(id string) string { return s.Main.URL + s.Prefix(id) }

// Prefix is the path below which the requests of the run id go, on every
// server.
func (s *HostileServers) Prefix(id string) string { return "/h/" + id }

// dispatch hands every request on the server named server to the handler
// of its run.
func (s *HostileServers) dispatch(server string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, _ := strings.CutPrefix(r.URL.Path, "/h/")
		id, _, _ := strings.Cut(rest, "/")
		s.mu.Lock()
		h := s.runs[id]
		s.mu.Unlock()
		if h == nil {
			http.Error(w, "no such scenario", http.StatusGone)
			return
		}
		h(server, w, r)
	})
}
