package chat_test

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// connServer is a TLS server that counts the connections clients open to
// it. It answers GET /v3/users/{uid} with a user, anything under
// /v3/limited/ with a 429 that asks for no wait, and anything under
// /v3/warm/ with a user once warm requests are in flight at once.
type connServer struct {
	srv   *httptest.Server
	conns atomic.Int64

	warm     int           // how many warm requests answer together
	arrived  atomic.Int64  // warm requests received
	allThere chan struct{} // closed when the warm-th arrives
}

func newConnServer(t *testing.T, warm int) *connServer {
	t.Helper()
	s := &connServer{warm: warm, allThere: make(chan struct{})}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasPrefix(r.URL.Path, "/v3/warm/"):
			if s.arrived.Add(1) == int64(s.warm) {
				close(s.allThere)
			}
			select {
			case <-s.allThere:
			case <-r.Context().Done():
				return
			}
		case strings.HasPrefix(r.URL.Path, "/v3/limited/"):
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"Too many requests."}}`))
			return
		}
		_, _ = w.Write([]byte(`{"data":{"uid":"alice","name":"Alice"}}`))
	}))
	s.srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshakes cut short by a closed pool
	s.srv.StartTLS()
	t.Cleanup(s.srv.Close)
	return s
}

// client returns a client over the SDK's default transport, trusting the
// server's certificate, with opts. maxConns, when not 0, caps the
// connections the transport keeps open at once.
func (s *connServer) client(t *testing.T, maxConns int, opts ...chat.Option) *chat.Client {
	t.Helper()
	tr := chat.NewTransport()
	tr.MaxConnsPerHost = maxConns
	tr.TLSClientConfig = &tls.Config{RootCAs: s.srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs, MinVersion: tls.VersionTLS12}
	c, err := chat.NewClient("app1", "key-connections-test",
		append([]chat.Option{chat.WithHTTPClient(&http.Client{Transport: tr}), chat.WithBaseURL(s.srv.URL)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// busyReads runs 16 goroutines reading a user, 50 times each, and beside
// them one goroutine that makes 50 calls to besidePath: the same load
// whatever besidePath answers. First the 17 goroutines each hold a
// request open at the same time, so that the pool holds a connection for
// each. It returns how many connections the server saw opened after that,
// and how many of the calls beside the readers failed.
func busyReads(t *testing.T, besidePath string, opts ...chat.Option) (conns int64, besideErrs int) {
	t.Helper()
	const goroutines = 17
	s := newConnServer(t, goroutines)
	// A connection goes back to the pool a moment after its answer is
	// read: a goroutine quick to send again may find none idle and open
	// one more. Capped at one per goroutine, the transport waits for one
	// instead, so that only closing connections makes it open new ones.
	c := s.client(t, goroutines, opts...)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			assert.NoError(t, c.Do(ctx, &chat.Request{Method: http.MethodGet, Path: []string{"warm", "x"}}, nil))
		})
	}
	wg.Wait()
	require.GreaterOrEqual(t, s.conns.Load(), int64(goroutines))
	s.conns.Store(0)

	var failedReads atomic.Int64
	for range 16 {
		wg.Go(func() {
			for range 50 {
				if _, err := c.Users.Get(ctx, "alice"); err != nil {
					failedReads.Add(1)
				}
			}
		})
	}
	var errs atomic.Int64
	wg.Go(func() {
		for range 50 {
			if err := c.Do(ctx, &chat.Request{Method: http.MethodGet, Path: []string{besidePath, "x"}}, nil); err != nil {
				errs.Add(1)
			}
		}
	})
	wg.Wait()
	require.Zero(t, failedReads.Load(), "reads that failed")
	return s.conns.Load(), int(errs.Load())
}

// A call that gives up (here on a 429 with no retry left) leaves alone the
// connections the client's other calls share: the busy readers beside a
// stream of such calls open no more connections than beside a stream of
// calls that succeed.
func TestGivingUpKeepsSharedConnections(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy chat.RetryPolicy
	}{
		{"without retries", chat.RetryPolicy{}},
		{"retries exhausted", chat.RetryPolicy{MaxRetries: 1, MinWait: 1, MaxWait: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			baseline, errs := busyReads(t, "users", chat.WithRetryPolicy(tc.policy))
			require.Zero(t, errs)
			withGiveUps, errs := busyReads(t, "limited", chat.WithRetryPolicy(tc.policy))
			require.Equal(t, 50, errs, "every call beside the reads gives up")

			// The pool holds a connection for each goroutine: none is
			// opened. A give-up that emptied the pool made the readers
			// open hundreds.
			assert.Zero(t, baseline, "connections opened beside calls that succeed")
			assert.Equal(t, baseline, withGiveUps, "connections opened beside calls that give up")
		})
	}
}

// Client.CloseIdleConnections still closes the pool: the next call opens a
// new connection.
func TestClientCloseIdleConnections(t *testing.T) {
	s := newConnServer(t, 1)
	c := s.client(t, 0)
	ctx := context.Background()
	for range 3 {
		_, err := c.Users.Get(ctx, "alice")
		require.NoError(t, err)
	}
	require.Equal(t, int64(1), s.conns.Load(), "serial calls share one connection")
	c.CloseIdleConnections()
	_, err := c.Users.Get(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, int64(2), s.conns.Load(), "a call after CloseIdleConnections opens a new connection")
}
