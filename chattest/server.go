package chattest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/fake"
)

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
	h   *Handler

	mu         sync.Mutex // guards transports
	transports []*http.Transport
}

// NewServer starts a fake serving one app, seeded with a fullAccess API key
// and nothing else: no users, no messages. Options it cannot use are
// ignored (see [WithAppID] and [WithAPIKey]). With [WithStore] or
// [WithSeedFile], use [OpenServer], which reports what stops them: the
// server NewServer returns then answers every request with that error.
func NewServer(opts ...Option) *Server { return serve(NewHandler(opts...)) }

// serve starts a Server around h.
func serve(h *Handler) *Server {
	s := &Server{h: h}
	s.ts = httptest.NewUnstartedServer(h)
	s.ts.EnableHTTP2 = true
	s.ts.Config.ErrorLog = log.New(quietHandshakes{os.Stderr}, "", log.LstdFlags)
	s.ts.StartTLS()
	h.hooks.Trust(s.ts.Certificate()) // https webhook receivers
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

// URL is the server's base address, e.g. "https://127.0.0.1:41234", without
// the /v3 prefix: pass it to [chat.WithBaseURL].
func (s *Server) URL() string { return s.ts.URL }

// AppID is the app the server fakes.
func (s *Server) AppID() string { return s.h.AppID() }

// APIKey is the fullAccess API key the server was seeded with.
func (s *Server) APIKey() string { return s.h.APIKey() }

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
	return s.ClientWithAPIKey(s.h.APIKey(), opts...)
}

// ClientWithAPIKey is [Server.Client] authenticated with another API key,
// e.g. an authOnly key made with [Server.AddAPIKey], or an unknown one. An
// empty or otherwise invalid key makes every call fail, like invalid opts.
func (s *Server) ClientWithAPIKey(apiKey string, opts ...chat.Option) *chat.Client {
	base := []chat.Option{chat.WithBaseURL(s.URL()), chat.WithHTTPClient(&http.Client{Transport: s.transport()})}
	c, err := chat.NewClient(s.h.AppID(), apiKey, append(base, opts...)...)
	if err == nil {
		return c
	}
	// The options or the key are the caller's; report the problem on use.
	broken := &http.Client{Transport: failingTransport{wrapClientErr("chat.NewClient", err)}}
	c, err = chat.NewClient(s.h.AppID(), s.h.APIKey(), chat.WithBaseURL(s.URL()), chat.WithHTTPClient(broken), chat.WithoutRetries())
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
	return fmt.Sprintf("chattest.Server{AppID: %q, URL: %q}", s.h.AppID(), s.URL())
}

// GoString is String, so that %#v does not show the API key either.
func (s *Server) GoString() string { return s.String() }

// Format prints [Server.String] for every verb.
func (s *Server) Format(f fmt.State, verb rune) { io.WriteString(f, s.String()) }

// OpenServer is [NewServer] that reports what stops [WithStore] or
// [WithSeedFile], as [OpenHandler] does.
func OpenServer(opts ...Option) (*Server, error) {
	h, err := OpenHandler(opts...)
	if err != nil {
		return nil, err
	}
	return serve(h), nil
}

// Export writes the server's state to w, as [Handler.Export] does.
func (s *Server) Export(w io.Writer) error { return s.h.Export(w) }

// DashboardURL is the address of the server's dashboard, [Server.URL] +
// "/_chattest/": open it in a browser on the same machine to see the app
// as it stands: its users, groups, conversations, messages, webhooks with
// their deliveries, and the request log, none showing a credential.
func (s *Server) DashboardURL() string { return s.URL() + fake.DashboardPrefix }

// RateLimiter returns a [chat.RateLimiter] that paces by the server's
// clock, for a client of the server to stay within its budgets
// ([WithRateLimit]) in the server's time: with [WithFastClock](60), a
// minute of budget lasts a real second. A server made with [WithClock],
// whose pace it cannot know, gives a limiter that paces by the real clock.
//
//	client := srv.Client(chat.WithLimiter(srv.RateLimiter(chat.RateLimits{})))
//
// Zero budgets in limits take the server's ([WithRateLimit]), else the
// service's; limits.Per, when set, is in the server's time (zero: its
// minute, as the server counts).
func (s *Server) RateLimiter(limits chat.RateLimits) *chat.RateLimiter {
	return s.h.core.RateLimiter(limits)
}
