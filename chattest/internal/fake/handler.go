package fake

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Core is the fake API as an [http.Handler]: the service of one app, its
// routes and what serves them (the management API and the dashboard
// beside), the faults and the request log. Package chattest wraps it: its
// Handler serves a Core, and its Server serves a Handler over HTTPS, with
// the seeding and inspection methods, which are the Core's. Make one with
// [Open] (or [NewBroken]) and call [Core.Close] when it is no longer
// served.
type Core struct {
	st       *state
	mux      http.Handler
	notFound http.Handler
	appID    string
	apiKey   string
	routes   map[string]bool // the registered patterns, for Fault.Route

	mgmt       http.Handler // the management API: management.go
	dash       http.Handler // the dashboard under DashboardPrefix (cfg.Dashboard)
	mgmtKey    string
	mgmtSecret string
	closing    chan struct{} // closed by stop: delays end
	stopped    sync.Once
	closed     sync.Once    // Close
	serving    sync.RWMutex // held shared by each request: Close takes it to close the store after them

	paced        *PacedClock // the clock a client's limiter paces by; nil for WithClock's: clock.go
	rateCore     int         // WithRateLimit's budgets
	rateStandard int

	realtime Transport // carries the client API's websocket: realtime.go

	broken  error     // why the options that read or write files failed: every request answers it (persist.go)
	created time.Time // when the state began: the time of its first server (persist.go)

	// Guarded by st.mu:
	faults      []*activeFault // faults.go
	keysLearned int64          // the state's apiKeySeq when the log last learned its keys
	log         RequestLog     // the request log: requests.go
}

// newHandler returns the handler of cfg, its state begun at the time of
// created when it is not nil.
func newHandler(cfg Config, created *time.Time) *Core {
	cfg.defaultCredentials(OwnCredentials{APIKey: RandomHex(), MgmtKey: RandomHex(), MgmtSecret: RandomHex()})
	clock := cfg.Clock
	if created != nil {
		cfg.Clock = func() time.Time { return *created }
	}
	st := newState(cfg)
	st.clock = clock
	h := &Core{st: st, paced: cfg.Paced, rateCore: cfg.RateCore, rateStandard: cfg.RateStandard,
		appID: cfg.AppID, apiKey: cfg.APIKey, mgmtKey: cfg.MgmtKey, mgmtSecret: cfg.MgmtSecret,
		routes: map[string]bool{}, closing: make(chan struct{}), realtime: cfg.Realtime}
	h.log = cfg.RequestLog
	if h.log == nil {
		h.log = noRequestLog{}
	}
	h.log.Learn(cfg.APIKey)
	h.log.Learn(cfg.MgmtKey)
	h.log.Learn(cfg.MgmtSecret)
	h.mgmt = h.newMgmtMux()
	for _, consumer := range cfg.Consumers {
		st.out.subscribe(consumer(st))
	}
	h.dash = http.NotFoundHandler()
	if cfg.Dashboard != nil {
		dash := cfg.Dashboard(h)
		h.dash = dash
		st.out.subscribe(dash) // last: its live pages show what the others made of a change
	}
	mux := http.NewServeMux()
	for _, rt := range allRoutes() {
		mux.Handle(rt.pattern, h.endpoint(rt))
		h.routes[rt.pattern] = true
	}
	h.notFound = h.endpoint(route{authOnly: true, reach: noData, handle: (*state).notFound})
	mux.Handle("/", h.notFound)
	h.mux = mux
	return h
}

// ServeHTTP serves one request of the API.
func (h *Core) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	growStack(r)
	// ServeMux would redirect a path that is not clean with an HTML body;
	// the API has no such paths.
	if p := r.URL.Path; !strings.HasPrefix(p, "/") || cleanPath(p) != p {
		h.notFound.ServeHTTP(w, r)
		return
	}
	if isDashboardPath(r.URL.Path) {
		h.dash.ServeHTTP(w, r)
		return
	}
	if r.URL.Path == "/" && isWebSocket(r) {
		h.serveRealtime(w, r) // realtime.go: the client API's websocket
		return
	}
	if h.clientCORS(w, r) { // client_api.go: browsers' preflight requests
		return
	}
	h.mux.ServeHTTP(w, r)
}

// growStack grows the stack of the goroutine serving r, at once, to what
// serving r needs. net/http serves each request on a new goroutine, whose
// stack starts at a few KiB and doubles, by copying itself, when a call
// needs more. Serving a request needs more (redacting its log entry,
// decoding its body, encoding the answer): growing the stack here, where
// it holds few frames, costs less than where the deep calls meet its end.
// A request with a body needs about twice as much as one without. It
// inlines into ServeHTTP, a frame fewer to copy.
func growStack(r *http.Request) {
	reserve := reserve4K
	if r.ContentLength != 0 {
		reserve = reserve12K
	}
	reserve()
}

// reserve4K and reserve12K have frames of 4 and 12 KiB, which they leave
// untouched: useReserve is never true.

//go:noinline
func reserve4K() {
	if useReserve {
		var b [4 << 10]byte
		reserved(b[:])
	}
}

//go:noinline
func reserve12K() {
	if useReserve {
		var b [12 << 10]byte
		reserved(b[:])
	}
}

// useReserve is false, which the compiler cannot tell: it keeps the
// frames of reserve4K and reserve12K.
var useReserve = false

//go:noinline
func reserved([]byte) {}

// AppID is the app the handler fakes.
func (h *Core) AppID() string { return h.appID }

// APIKey is the fullAccess API key the handler was seeded with.
func (h *Core) APIKey() string { return h.apiKey }

// stop ends the waits of delayed requests (see [Fault.Delay]) and the
// dashboard's live streams, so that closing a server does not wait for
// them. Calling it again does nothing.
func (h *Core) stop() { h.stopped.Do(func() { close(h.closing) }) }

// Halt ends what the handler runs beside the requests it answers (see
// [Core.Close]), leaving its store open. Calling it again
// does nothing more.
func (h *Core) Halt() {
	h.stop()
	h.st.stopRealtime() // realtime.go
}

// NewBroken returns the core of cfg that answers every request with err,
// why its store or seed file could not be used.
func NewBroken(cfg Config, err error) *Core {
	h := newHandler(cfg, nil)
	h.broken = err
	return h
}
