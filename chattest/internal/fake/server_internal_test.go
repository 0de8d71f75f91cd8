package fake

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/memws"
	"github.com/chatrest/chat/management"
)

// The package's tests serve a Core as package chattest does, with the
// options they need, and read its state.

// Option configures the Core of a test's Server.
type Option func(*Config)

// WithStore keeps the state in s.
func WithStore(s Store) Option { return func(c *Config) { c.Store = s } }

// WithSeedFile starts from the state file path.
func WithSeedFile(path string) Option { return func(c *Config) { c.SeedFile = path } }

// WithAPIKey sets the server's own API key.
func WithAPIKey(key string) Option { return func(c *Config) { c.APIKey = key } }

// WithManagementCredentials sets the management key and secret.
func WithManagementCredentials(key, secret string) Option {
	return func(c *Config) { c.MgmtKey, c.MgmtSecret = key, secret }
}

// WithClock makes the server read the time from now.
func WithClock(now func() time.Time) Option { return func(c *Config) { c.Clock, c.Paced = now, nil } }

// WithRealtime serves the websocket through t.
func WithRealtime(t Transport) Option { return func(c *Config) { c.Realtime = t } }

// The realtime transport in memory (internal/memws) for a Core.
type (
	memTransport = memws.Transport[Socket, *Conn]
	memSocket    = memws.Socket
)

var newMemTransport = memws.New[Socket, *Conn]

// Server is a Core served over HTTPS on loopback addresses, with its
// management API beside it.
type Server struct {
	*Core
	ts, mts *httptest.Server
}

// NewServer serves a Core configured by opts, which must open.
func NewServer(opts ...Option) *Server {
	srv, err := OpenServer(opts...)
	if err != nil {
		panic(err)
	}
	return srv
}

// TestAdapters add the adapters around the core of a test's Server, as
// package chattest adds them: the tests of package fake_test, which may
// import them, set it (adapters_test.go).
var TestAdapters []Option

// OpenServer serves a Core configured by opts.
func OpenServer(opts ...Option) (*Server, error) {
	cfg := DefaultConfig()
	for _, o := range slices.Concat(TestAdapters, opts) {
		o(&cfg)
	}
	cfg.Check()
	core, err := Open(cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{Core: core, ts: httptest.NewUnstartedServer(core)}
	s.ts.EnableHTTP2 = true
	s.ts.StartTLS()
	s.mts = httptest.NewUnstartedServer(core.Management())
	s.mts.EnableHTTP2 = true
	s.mts.TLS = s.ts.TLS
	s.mts.StartTLS()
	return s, nil
}

// Close stops the servers and closes the Core.
func (s *Server) Close() {
	s.Halt()
	s.mts.Close()
	s.ts.Close()
	_ = s.Core.Close()
}

// URL is the address of the API.
func (s *Server) URL() string { return s.ts.URL }

// ManagementURL is the address of the management API.
func (s *Server) ManagementURL() string { return s.mts.URL }

// DashboardURL is the address of the dashboard.
func (s *Server) DashboardURL() string { return s.URL() + DashboardPrefix }

// Handler is the Core.
func (s *Server) Handler() http.Handler { return s.Core }

// HTTPClient returns a client that trusts the servers.
func (s *Server) HTTPClient() *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(s.ts.Certificate())
	t := chat.NewTransport()
	t.Proxy = nil
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}
}

// Client returns a client of the app with the server's own API key.
func (s *Server) Client(opts ...chat.Option) *chat.Client {
	c, err := chat.NewClient(s.AppID(), s.APIKey(), append([]chat.Option{chat.WithBaseURL(s.URL()), chat.WithHTTPClient(s.HTTPClient())}, opts...)...)
	if err != nil {
		panic(err)
	}
	return c
}

// ManagementClient returns a client of the management API.
func (s *Server) ManagementClient(opts ...chat.Option) *management.Client {
	c, err := management.NewClient(s.ManagementKey(), s.ManagementSecret(),
		append([]chat.Option{chat.WithBaseURL(s.ManagementURL()), chat.WithHTTPClient(s.HTTPClient())}, opts...)...)
	if err != nil {
		panic(err)
	}
	return c
}
