package chattest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/chatrest/chat"
)

const (
	defaultAppID = "test-app"
	// maxBodyBytes bounds a request body; a larger one is a 400.
	maxBodyBytes = 1 << 20
)

// Option configures a [Server] in [NewServer].
type Option func(*config)

type config struct {
	appID        string
	apiKey       string
	clock        func() time.Time
	mgmtKey      string // management credentials (management.go)
	mgmtSecret   string
	rateCore     int // budgets per minute; below 1: not enforced (ratelimit.go)
	rateStandard int
	importLimit  int         // data import requests per minute and endpoint; 0: default, -1: not enforced (dataimport.go)
	paced        *pacedClock // the clock a client's limiter paces by: the real clock, or WithFastClock's; nil for WithClock's (clock.go)
	localNetwork bool        // WithLocalNetwork: localnetwork.go

	rtAuthTimeout time.Duration // WithRealtimeAuthTimeout: access.go

	dataDir    string // persist.go
	durability durability
	seedFile   string
	export     bool
}

// WithAppID sets the app id (default "test-app"). It must be one DNS label
// (letters, digits and hyphens, at most 63, no hyphen at either end), as
// [chat.NewClient] requires; NewServer keeps the default otherwise, and
// [Server.AppID] reports the id in use.
func WithAppID(id string) Option { return func(c *config) { c.appID = id } }

// WithAPIKey sets the fullAccess API key the server is seeded with
// (default: 40 random hex characters, kept in the data directory with
// [WithDataDir]). It must be printable ASCII without spaces; NewServer
// keeps the default otherwise, and [Server.APIKey] reports the key in use.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithClock makes the server read the time from now instead of [time.Now],
// for createdAt, sentAt and the other timestamps. The server calls now with
// its lock held, so never concurrently; now must not call the server back.
// A nil now keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock, c.paced = now, nil }
}

// WithFastClock makes the server's clock run speed times as fast as the
// real one, from the real time at which the option is called, so that a
// test of the budgets per minute ([WithRateLimit]) lasts seconds: with
// speed 60, a minute of the server's lasts a real second. A client's
// limiter paces by the server's clock when it comes from
// [Server.RateLimiter]. The server's minutes start when the real clock is
// at a multiple of a minute / speed. A speed below 2 keeps the real clock.
// Like [WithClock], which it replaces.
func WithFastClock(speed int) Option {
	if speed < 2 {
		return WithClock(nil)
	}
	start := time.Now()
	window := time.Minute / time.Duration(speed)
	into := start.Sub(start.Truncate(window)) // how far start is into its real window
	pc := &pacedClock{start: start, base: start.Truncate(time.Minute).Add(into * time.Duration(speed)), speed: time.Duration(speed)}
	return func(c *config) { c.clock, c.paced = pc.now, pc }
}

// Server is an in-memory fake of the chat REST API v3 for one app, served
// over HTTPS (HTTP/2) on a loopback address. Create it with [NewServer] and
// stop it with [Server.Close]. It is safe for concurrent use: requests and
// the seeding and inspection methods are serialized by one lock.
//
// Printing a Server (with any fmt verb) shows its app id and address, never
// its API key.
type Server struct {
	ts  *httptest.Server
	mts *httptest.Server // the management API: management.go
	st  *state
	h   *Handler

	mu         sync.Mutex // guards transports
	transports []*http.Transport
}

// NewServer starts a fake serving one app, seeded with a fullAccess API key
// and nothing else: no users, no messages. Options it cannot use are
// ignored (see [WithAppID] and [WithAPIKey]). With [WithDataDir] or
// [WithSeedFile], use [OpenServer], which reports what stops them: the
// server NewServer returns then answers every request with that error.
func NewServer(opts ...Option) *Server { return serve(NewHandler(opts...)) }

// serve starts a Server around h.
func serve(h *Handler) *Server {
	s := &Server{st: h.st, h: h}
	s.ts = httptest.NewUnstartedServer(h)
	s.ts.EnableHTTP2 = true
	s.ts.Config.ErrorLog = log.New(quietHandshakes{os.Stderr}, "", log.LstdFlags)
	s.ts.StartTLS()
	s.st.trustReceivers(s.ts.Certificate()) // deliveries.go: https webhook receivers
	s.startMgmt()
	return s
}

// quietHandshakes drops the server's "TLS handshake error" lines: a client
// that dials several connections for concurrent requests closes the ones it
// does not need, which is no error of the fake's.
type quietHandshakes struct{ w io.Writer }

func (q quietHandshakes) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("http: TLS handshake error")) {
		return len(p), nil
	}
	return q.w.Write(p)
}

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
	serving    sync.RWMutex // held shared by each request: Close takes it to close the data directory after them

	paced        *pacedClock // the clock a client's limiter paces by; nil for WithClock's: clock.go
	rateCore     int         // WithRateLimit's budgets
	rateStandard int

	broken error // why the options that read or write files failed: every request answers it (persist.go)

	// Guarded by st.mu:
	faults []*activeFault // faults.go
	log    requestLog     // requestlog.go
}

// NewHandler returns the fake API for one app, seeded with a fullAccess API
// key and nothing else, configured as [NewServer] is. It serves the server
// API under /v3, the client API under /v3.0 with its websocket at / (see the
// package doc: the client SDKs need it served over TLS), and its dashboard
// under /_chattest/; any other path answers 404 ERR_API_NOT_FOUND. With
// [WithDataDir] or [WithSeedFile], use [OpenHandler], which reports what
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

// configure applies opts to the defaults.
func configure(opts []Option) config {
	cfg := config{appID: defaultAppID, clock: time.Now, paced: &pacedClock{}}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if !validAppID(cfg.appID) {
		cfg.appID = defaultAppID
	}
	if !validAPIKey(cfg.apiKey) {
		cfg.apiKey = "" // the default: newHandler
	}
	if cfg.clock == nil {
		cfg.clock, cfg.paced = time.Now, &pacedClock{}
	}
	if !validAPIKey(cfg.mgmtKey) || !validAPIKey(cfg.mgmtSecret) {
		cfg.mgmtKey, cfg.mgmtSecret = "", "" // the defaults: newHandler
	}
	return cfg
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
		routes: map[string]bool{}, closing: make(chan struct{})}
	h.log.init()
	h.log.learn(cfg.apiKey)
	h.log.learn(cfg.mgmtKey)
	h.log.learn(cfg.mgmtSecret)
	h.mgmt = h.newMgmtMux()
	h.dash = h.newDashboard(cfg.localNetwork)
	mux := http.NewServeMux()
	for _, rt := range allRoutes() {
		mux.Handle(rt.pattern, h.endpoint(rt))
		h.routes[rt.pattern] = true
	}
	h.notFound = h.endpoint(route{authOnly: true, handle: (*state).notFound})
	mux.Handle("/", h.notFound)
	h.mux = mux
	return h
}

// allRoutes lists every collection's routes.
func allRoutes() []route {
	var routes []route
	routes = append(routes, userRoutes()...)
	routes = append(routes, authTokenRoutes()...)
	routes = append(routes, apiKeyRoutes()...)
	routes = append(routes, messageRoutes()...)
	routes = append(routes, groupRoutes()...)
	routes = append(routes, extraMessageRoutes()...)
	routes = append(routes, socialRoutes()...)
	routes = append(routes, callRoutes()...)
	routes = append(routes, notificationRoutes()...)
	routes = append(routes, moderationRuleRoutes()...)
	routes = append(routes, moderationMessageRoutes()...)
	routes = append(routes, dataImportRoutes()...)
	routes = append(routes, metricsRoutes()...)
	routes = append(routes, aiAgentRoutes()...)
	return append(routes, clientRoutes(routes)...)
}

// allMgmtRoutes lists the management API's routes, served by
// [Handler.Management].
func allMgmtRoutes() []route {
	var routes []route
	routes = append(routes, mgmtAppRoutes()...)
	routes = append(routes, mgmtWebhookRoutes()...)
	routes = append(routes, mgmtModerationRoutes()...)
	for i := range routes {
		if routes[i].auth == authAPIKey {
			routes[i].auth = authMgmt
		}
	}
	return routes
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
// [Handler.Close]), leaving its data directory open. Calling it again
// does nothing more.
func (h *Handler) halt() {
	h.stop()
	h.st.stopDeliveries() // deliveries.go
	h.st.stopRealtime()   // realtime.go
}

// validAppID reports whether id is one DNS label, the rule chat.NewClient
// applies.
func validAppID(id string) bool {
	if id == "" || len(id) > 63 || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// validAPIKey reports whether key is printable ASCII without spaces, so that
// it travels unchanged in a header.
func validAPIKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// URL is the server's base address, e.g. "https://127.0.0.1:41234", without
// the /v3 prefix: pass it to [chat.WithBaseURL].
func (s *Server) URL() string { return s.ts.URL }

// AppID is the app the server fakes.
func (s *Server) AppID() string { return s.h.appID }

// APIKey is the fullAccess API key the server was seeded with.
func (s *Server) APIKey() string { return s.h.apiKey }

// Certificate is the server's self-signed TLS certificate; trust it to
// connect with your own HTTP client, or use [Server.HTTPClient].
func (s *Server) Certificate() *x509.Certificate { return s.ts.Certificate() }

// Handler serves the fake API (paths under /v3, the client API under /v3.0
// and its websocket at /) and its dashboard (under /_chattest/) without the
// TLS server around it, e.g. to mount it in another server. It shares the
// state, the faults and the request log of s.
func (s *Server) Handler() http.Handler { return s.h }

// Close shuts the server down, waiting for requests in flight (a request
// held by a [Fault.Delay] is dropped at once), and closes the idle
// connections of the clients it made. Calling it again does nothing.
func (s *Server) Close() {
	s.h.halt() // no delivery goroutine, dashboard stream or websocket outlives Close
	s.closeIdle()
	s.mts.Close()
	s.ts.Close()
	s.closeIdle()
	_ = s.h.Close() // every change was logged when made: a failure to close loses nothing a restart would read
}

func (s *Server) closeIdle() {
	s.mu.Lock()
	ts := s.transports
	s.mu.Unlock()
	for _, t := range ts {
		t.CloseIdleConnections()
	}
}

// transport returns a fresh [chat.NewTransport] that trusts the server's
// certificate and uses no proxy; Close closes its idle connections.
func (s *Server) transport() *http.Transport {
	pool := x509.NewCertPool()
	pool.AddCert(s.ts.Certificate())
	t := chat.NewTransport()
	t.Proxy = nil
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	s.mu.Lock()
	s.transports = append(s.transports, t)
	s.mu.Unlock()
	return t
}

// HTTPClient returns an [http.Client] that trusts the server's certificate,
// for raw requests the SDK cannot make. Each call returns a new client over
// its own [chat.NewTransport].
func (s *Server) HTTPClient() *http.Client { return &http.Client{Transport: s.transport()} }

// Client returns a [chat.Client] for the server's app and API key, sending to
// [Server.URL] over a [chat.NewTransport] that trusts the server's
// certificate. opts are applied after those settings, so they can override
// them (a [chat.WithHTTPClient] of your own must then trust
// [Server.Certificate]).
//
// Client never returns nil. If opts are invalid, so that [chat.NewClient]
// rejects them, every call of the returned client fails with an error that
// wraps NewClient's [*chat.ArgumentError].
func (s *Server) Client(opts ...chat.Option) *chat.Client {
	return s.ClientWithAPIKey(s.h.apiKey, opts...)
}

// ClientWithAPIKey is [Server.Client] authenticated with another API key,
// e.g. an authOnly key made with [Server.AddAPIKey], or an unknown one. An
// empty or otherwise invalid key makes every call fail, like invalid opts.
func (s *Server) ClientWithAPIKey(apiKey string, opts ...chat.Option) *chat.Client {
	base := []chat.Option{chat.WithBaseURL(s.URL()), chat.WithHTTPClient(&http.Client{Transport: s.transport()})}
	c, err := chat.NewClient(s.h.appID, apiKey, append(base, opts...)...)
	if err == nil {
		return c
	}
	// The options or the key are the caller's; report the problem on use.
	broken := &http.Client{Transport: failingTransport{wrapClientErr("chat.NewClient", err)}}
	c, err = chat.NewClient(s.h.appID, s.h.apiKey, chat.WithBaseURL(s.URL()), chat.WithHTTPClient(broken), chat.WithoutRetries())
	if err != nil {
		// Unreachable: NewServer validated the app id and the key, the URL
		// is httptest's https address, and no other option is set.
		panic("chattest: unreachable: " + err.Error())
	}
	return c
}

// wrapClientErr is the error of a client whose settings its constructor
// rejected.
func wrapClientErr(constructor string, err error) error {
	return fmt.Errorf("chattest: %s rejected the client's settings: %w", constructor, err)
}

// failingTransport fails every request with err.
type failingTransport struct{ err error }

func (t failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return nil, t.err
}

// String describes the server without its API key.
func (s *Server) String() string {
	if s == nil {
		return "chattest.Server(nil)"
	}
	return fmt.Sprintf("chattest.Server{AppID: %q, URL: %q}", s.h.appID, s.URL())
}

// GoString is String, so that %#v does not show the API key either.
func (s *Server) GoString() string { return s.String() }

// Format prints [Server.String] for every verb.
func (s *Server) Format(f fmt.State, verb rune) { io.WriteString(f, s.String()) }

// oboRule says what an operation does with the onBehalfOf header.
type oboRule int

const (
	oboIgnored  oboRule = iota // the operation takes no onBehalfOf: the header is ignored
	oboOptional                // when present, it must name an active user
	oboRequired                // it must be present and name an active user
)

// route is one operation: its ServeMux pattern, who may call it and its
// handler. Each collection's file lists its routes.
type route struct {
	pattern  string
	authOnly bool // an authOnly key may call it too
	obo      oboRule
	auth     authKind // how the caller authenticates; zero: the apikey header
	handle   func(*state, *call) (any, error)
}

// authKind says how a route authenticates its caller.
type authKind int

const (
	authAPIKey authKind = iota // the app's apikey header (chat and calls APIs)
	authMgmt                   // the management key and secret headers
	authBasic                  // HTTP Basic auth with the management key and secret (add-tenant)
	authClient                 // the appId and authToken headers of the client API (client_api.go)
)

// cleanPath is path.Clean keeping a trailing slash, as ServeMux cleans.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

func (st *state) notFound(c *call) (any, error) {
	return nil, errAPINotFound(c.r.Method, c.r.URL.Path)
}

// endpoint serves one route. It reads the body and prepares the request's
// log entry, then, under the state lock, records it, picking the fault
// that applies to it, if any (faults.go). Unless the fault answers in
// place of the service (outside the lock), it then, under the lock,
// counts the request against its rate-limit class, authenticates the key,
// checks its scope and the onBehalfOf header, runs the handler and encodes
// the answer, which it writes after unlocking, or breaks as the fault says.
// Without a fault, the request takes the lock once.
func (h *Handler) endpoint(rt route) http.Handler {
	class := classify(rt.pattern)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.serving.RLock() // Close closes the data directory after the requests in flight
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
		res := st.serve(rt, class, r, body, bodyErr)
		h.log.learnFrom(res.out)
		h.log.touch()
		saved := h.keep(rt, r, body, res) // journal.go
		status, out, rate := res.status, res.out, res.rate
		if x.fault.Kind != FaultDropAfter {
			x.entry.Status = status
		}
		st.mu.Unlock()
		if err := saved(); err != nil {
			status, out = answerError(errNotSaved(err))
			st.mu.Lock()
			if x.fault.Kind != FaultDropAfter {
				x.entry.Status = status
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
	if err == nil {
		if res.out, err = json.Marshal(v); err == nil {
			res.out = hidePrivate(c.onBehalfOf, res.out) // access.go
			res.status = http.StatusOK
			return res
		}
		err = errInternal(err)
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errInternal(err)
	}
	res.status = ae.Status
	res.out, _ = json.Marshal(errorEnvelope{ae}) // an apiError always encodes
	return res
}

// The apikey and onBehalfOf headers, canonical, as http.Header keys them:
// Header.Get allocates to canonicalize any other spelling.
const (
	headerAPIKey     = "Apikey"
	headerOnBehalfOf = "Onbehalfof"
)

// authorize checks the apikey header, the key's scope, and the onBehalfOf
// header as rt requires, and records the caller in c.
func (st *state) authorize(rt route, c *call) error {
	switch rt.auth {
	case authClient:
		return st.authorizeClient(c)
	case authMgmt, authBasic:
		return st.authorizeMgmt(rt, c)
	}
	key := c.r.Header.Get(headerAPIKey)
	if key == "" {
		return errEmptyAPIKey()
	}
	k := st.apiKeys[key]
	if k == nil {
		return errAPIKeyUnknown(st.appID)
	}
	if k.k.Scope != scopeFullAccess && !rt.authOnly {
		return errNoAccess()
	}
	c.apiKey = key
	if rt.obo == oboIgnored {
		return nil
	}
	uid := c.r.Header.Get(headerOnBehalfOf)
	if uid == "" {
		if rt.obo == oboRequired {
			return errOnBehalfOfRequired()
		}
		return nil
	}
	u := st.activeUser(uid)
	if u == nil {
		return errUIDNotFound(uid)
	}
	c.onBehalfOf = u.u.UID
	return nil
}

// readBody reads at most maxBodyBytes of the request body.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body := r.Body
	if r.ContentLength == 0 {
		// Most likely no body: an HTTP/2 request without one has an empty
		// Body, not NoBody. One byte tells, without ReadAll's buffer.
		var first [1]byte
		n, err := body.Read(first[:])
		if n == 0 && err == io.EOF {
			return nil, nil
		}
		body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(first[:n]), body), body}
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, validationError(map[string][]string{"body": {fmt.Sprintf("The request body may not be greater than %d bytes.", maxBodyBytes)}})
		}
		return nil, validationError(map[string][]string{"body": {"The request body could not be read."}})
	}
	return b, nil
}

// call is one authorized request as a handler sees it.
type call struct {
	r          *http.Request
	body       []byte
	now        time.Time // the server clock at the request
	apiKey     string    // the calling key
	onBehalfOf string    // the acting user's uid, when the route reads the header and it was sent
	rate       *rateInfo // set by a handler that counts the request against a budget of its own (data import)
}

// timestamp is the request time as the API sends it.
func (c *call) timestamp() chat.Timestamp { return chat.TimestampOf(c.now) }

// uid returns the path value name as a uid: UIDs are lower-cased.
func (c *call) uid(name string) string { return strings.ToLower(c.r.PathValue(name)) }

// params returns the query string reader.
func (c *call) params() *params { return &params{q: c.r.URL.Query()} }

// decode reads the JSON body into v; an empty body leaves v as it is. A body
// that is not JSON, or a field of the wrong type, is a 400 ERR_BAD_REQUEST
// naming the field.
func (c *call) decode(v any) error {
	b := bytes.TrimSpace(c.body)
	if len(b) == 0 {
		return nil
	}
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return validationError(map[string][]string{te.Field: {fmt.Sprintf("The %s field must be %s.", te.Field, jsonKind(te.Type))}})
	}
	return validationError(map[string][]string{"body": {"The request body must be a JSON object."}})
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "of another type"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}

// envelope is the success body of a single resource: {"data": ...}.
type envelope struct {
	Data any `json:"data"`
}

func data(v any) envelope { return envelope{v} }
