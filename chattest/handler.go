package chattest

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Handler is the fake API as an [http.Handler], without a server around it:
// serve it yourself, e.g. on a fixed address over your own TLS
// configuration, as cmd/chattest does. Create it with [NewHandler]. It
// enforces [WithRateLimit] as a [Server] does; seeding, inspection, fault
// injection and the request log's accessors are methods of [Server], which
// serves a Handler over HTTPS. Call [Handler.Close] when you stop serving
// it.
//
// Printing a Handler (with any fmt verb) shows its app id, never its API
// key.
type Handler struct {
	st       *state
	mux      http.Handler
	notFound http.Handler
	appID    string
	apiKey   string
	routes   map[string]bool // the registered patterns, for Fault.Route

	mgmt       http.Handler // the management API: management.go
	dash       http.Handler // the dashboard under /_chattest/: dashboard.go
	mgmtKey    string
	mgmtSecret string
	closing    chan struct{} // closed by stop: delays end
	stopped    sync.Once
	closed     sync.Once    // Close
	serving    sync.RWMutex // held shared by each request: Close takes it to close the store after them

	paced        *pacedClock // the clock a client's limiter paces by; nil for WithClock's: clock.go
	rateCore     int         // WithRateLimit's budgets
	rateStandard int

	realtime RealtimeTransport // carries the client API's websocket: realtime.go

	broken  error     // why the options that read or write files failed: every request answers it (persist.go)
	created time.Time // when the state began: the time of its first server (persist.go)

	// The consumers of the outbox (outbox.go), each with its own lock:
	webhooks *webhookEvents  // the webhook deliveries: webhook_events.go
	pushes   *realtimeEvents // the websocket's pushes: realtime_events.go
	dashLive *dashEvents     // the dashboard's live pages: dashboard_state.go

	// Guarded by st.mu:
	faults []*activeFault // faults.go
	log    requestLog     // requestlog.go
}

// NewHandler returns the fake API for one app, seeded with a fullAccess API
// key and nothing else, configured as [NewServer] is. It serves the server
// API under /v3, the client API under /v3.0 with its websocket at / (see
// [WithRealtime]; the client SDKs need them served over TLS), and its dashboard
// under /_chattest/; any other path answers 404 ERR_API_NOT_FOUND. With
// [WithStore] or [WithSeedFile], use [OpenHandler], which reports what
// stops them: NewHandler returns a handler that answers every request with
// that error.
func NewHandler(opts ...Option) *Handler {
	h, err := OpenHandler(opts...)
	if err != nil {
		h = newHandler(configure(opts), nil)
		h.broken = err
	}
	return h
}

// newHandler returns the handler of cfg, its state begun at the time of
// created when it is not nil.
func newHandler(cfg config, created *time.Time) *Handler {
	cfg.defaultCredentials(ownCredentials{APIKey: randomHex(), MgmtKey: randomHex(), MgmtSecret: randomHex()})
	clock := cfg.clock
	if created != nil {
		cfg.clock = func() time.Time { return *created }
	}
	st := newState(cfg)
	st.clock = clock
	h := &Handler{st: st, paced: cfg.paced, rateCore: cfg.rateCore, rateStandard: cfg.rateStandard,
		appID: cfg.appID, apiKey: cfg.apiKey, mgmtKey: cfg.mgmtKey, mgmtSecret: cfg.mgmtSecret,
		routes: map[string]bool{}, closing: make(chan struct{}), realtime: cfg.realtime}
	h.log.init()
	h.log.learn(cfg.apiKey)
	h.log.learn(cfg.mgmtKey)
	h.log.learn(cfg.mgmtSecret)
	h.mgmt = h.newMgmtMux()
	h.dash = h.newDashboard(cfg.localNetwork)
	h.webhooks = newWebhookEvents(st, cfg.localNetwork)
	h.pushes = &realtimeEvents{core: st}
	h.dashLive = &dashEvents{}
	st.out.subscribe(h.webhooks)
	st.out.subscribe(h.pushes)
	st.out.subscribe(h.dashLive)
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
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
func (h *Handler) AppID() string { return h.appID }

// APIKey is the fullAccess API key the handler was seeded with.
func (h *Handler) APIKey() string { return h.apiKey }

// String describes the handler without its API key.
func (h *Handler) String() string {
	if h == nil {
		return "chattest.Handler(nil)"
	}
	return fmt.Sprintf("chattest.Handler{AppID: %q}", h.appID)
}

// GoString is String, so that %#v does not show the API key either.
func (h *Handler) GoString() string { return h.String() }

// Format prints [Handler.String] for every verb.
func (h *Handler) Format(f fmt.State, verb rune) { io.WriteString(f, h.String()) }

// stop ends the waits of delayed requests (see [Fault.Delay]) and the
// dashboard's live streams, so that closing a server does not wait for
// them. Calling it again does nothing.
func (h *Handler) stop() { h.stopped.Do(func() { close(h.closing) }) }

// halt ends what the handler runs beside the requests it answers (see
// [Handler.Close]), leaving its store open. Calling it again
// does nothing more.
func (h *Handler) halt() {
	h.stop()
	h.webhooks.deliv.Stop() // internal/webhooks
	h.st.stopRealtime()     // realtime.go
}
