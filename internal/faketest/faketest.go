// Package faketest is what the end-to-end tests share, in package chat
// in chattest's tests and in the local platform's: they drive a chat.Client over real HTTP
// against chattest's fake of the API. (Package wiretest is the harness of
// the tests against a mock transport.) Package chattest's own internal
// tests cannot import it: it imports chattest.
package faketest

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// T0 is the time of the fake's clock in the end-to-end tests.
var T0 = time.Unix(1_700_000_000, 0)

// Start returns a fake at T0 (unless opts set another clock) and a client
// of its fullAccess key without retries; the fake closes when the test
// ends.
func Start(t testing.TB, opts ...chattest.Option) (*chattest.Server, *chat.Client) {
	t.Helper()
	opts = append([]chattest.Option{chattest.WithClock(func() time.Time { return T0 })}, opts...)
	srv := chattest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv, srv.Client(chat.WithoutRetries())
}

// Seed adds active users to the fake without going through the API, each
// named after its uid.
func Seed(srv *chattest.Server, uids ...string) {
	for _, uid := range uids {
		srv.AddUser(chat.User{UID: uid, Name: strings.ToUpper(uid[:1]) + uid[1:]})
	}
}

// MessageIDs lists the ids of ms.
func MessageIDs(ms []chat.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// MemberScopes lists the members of guid as "uid:scope", in the order the
// fake lists them.
func MemberScopes(t testing.TB, client *chat.Client, guid string) []string {
	t.Helper()
	var out []string
	for m, err := range client.Members.All(t.Context(), guid, nil) {
		require.NoError(t, err)
		out = append(out, m.UID+":"+string(m.Scope))
	}
	return out
}

// Clock is a settable clock, for a fake whose time a test moves
// (chattest.WithClock(c.Now)).
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// RequireServiceError asserts that err is the API error code with status,
// as the service sends it (its source, a message), that errors.Is matches
// sentinel, and returns it.
func RequireServiceError(t testing.TB, err error, status int, code string, sentinel error) *chat.Error {
	t.Helper()
	var ce *chat.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, status, ce.StatusCode, "status")
	assert.Equal(t, code, ce.Code, "code")
	assert.Equal(t, "chat-api", ce.Source, "source")
	assert.NotEmpty(t, ce.Message, "message")
	assert.ErrorIs(t, err, sentinel)
	return ce
}

// ToUser is a text message to the user uid.
func ToUser(uid, text string) *chat.SendMessageRequest {
	return &chat.SendMessageRequest{Receiver: uid, ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: text}}
}

// Send sends a message on behalf of from (the app when from is empty),
// failing t if it fails, and returns it.
func Send(t testing.TB, client *chat.Client, from string, req *chat.SendMessageRequest) *chat.Message {
	t.Helper()
	var opts []chat.RequestOption
	if from != "" {
		opts = append(opts, chat.OnBehalfOf(from))
	}
	m, err := client.Messages.Send(t.Context(), req, opts...)
	require.NoError(t, err)
	return m
}

// RequireImportError asserts that err is the service's refusal of one
// entity of an import with code, and returns it.
func RequireImportError(t testing.TB, err error, code string) *chat.ImportError {
	t.Helper()
	var ie *chat.ImportError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, code, ie.Code)
	assert.NotEmpty(t, ie.Message)
	return ie
}

// InParallel calls do with 0 to n-1, from goroutines at a time, and
// returns the first error; a goroutine stops at its first error.
func InParallel(n, goroutines int, do func(i int) error) error {
	var next atomic.Int64
	errs := make(chan error, goroutines)
	for range goroutines {
		go func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if err := do(int(i)); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	var err error
	for range goroutines {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return err
}

// SendMany sends n messages from alice to bob through c, from goroutines
// at a time.
func SendMany(c *chat.Client, n, goroutines int) error {
	return InParallel(n, goroutines, func(i int) error {
		_, err := c.Messages.Send(context.Background(), &chat.SendMessageRequest{
			Receiver: "bob", ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: "Hello, Bob! This is message " + strconv.Itoa(i)},
		}, chat.OnBehalfOf("alice"))
		return err
	})
}

// SeedThroughAPI creates alice, bob and carol through c, and the group
// team of the three.
func SeedThroughAPI(t testing.TB, c *chat.Client) {
	t.Helper()
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob", "carol"} {
		_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: strings.ToUpper(uid[:1]) + uid[1:]})
		require.NoError(t, err)
	}
	_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "Team", Owner: "alice"})
	require.NoError(t, err)
	_, err = c.Members.Add(ctx, "team", &chat.AddMembersRequest{Participants: []string{"bob", "carol"}})
	require.NoError(t, err)
}

// SendRaw sends a request to srv as it is, with the headers header, and
// returns the answer, its body unread.
func SendRaw(t testing.TB, srv *chattest.Server, method, path, body string, header map[string]string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL()+path, rd)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	return resp
}

// Attempts is a transport that counts the requests that reach it and
// signals the end of each one, so that a test knows when a client has
// begun to wait before its next attempt.
type Attempts struct {
	base  http.RoundTripper
	n     atomic.Int32
	ended chan struct{} // one value per attempt ended, if there is room
}

// CountAttempts returns an Attempts over base.
func CountAttempts(base http.RoundTripper) *Attempts {
	return &Attempts{base: base, ended: make(chan struct{}, 16)}
}

// RoundTrip sends r through the base transport, then counts it and
// signals its end.
func (a *Attempts) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := a.base.RoundTrip(r)
	a.n.Add(1)
	select {
	case a.ended <- struct{}{}:
	default:
	}
	return resp, err
}

// Count is how many attempts reached the transport.
func (a *Attempts) Count() int { return int(a.n.Load()) }

// Ended receives once for every attempt that ended.
func (a *Attempts) Ended() <-chan struct{} { return a.ended }

// Reset forgets the attempts so far.
func (a *Attempts) Reset() {
	a.n.Store(0)
	for len(a.ended) > 0 {
		<-a.ended
	}
}

// CountedClient returns a client of srv's fullAccess key whose requests
// go through an Attempts over srv's connections, with opts.
func CountedClient(srv *chattest.Server, opts ...chat.Option) (*chat.Client, *Attempts) {
	a := CountAttempts(srv.HTTPClient().Transport)
	return srv.Client(append([]chat.Option{chat.WithHTTPClient(&http.Client{Transport: a})}, opts...)...), a
}

// RefusedClient returns a client of srv's app and key whose base address
// is a loopback port that refuses connections (RefusingAddr), counting its
// attempts, with opts.
func RefusedClient(t testing.TB, srv *chattest.Server, opts ...chat.Option) (*chat.Client, *Attempts) {
	t.Helper()
	base := chat.NewTransport()
	base.Proxy = nil
	a := CountAttempts(base)
	opts = append([]chat.Option{chat.WithBaseURL("http://" + RefusingAddr(t)), chat.WithInsecureLoopback(),
		chat.WithHTTPClient(&http.Client{Transport: a})}, opts...)
	c, err := chat.NewClient(srv.AppID(), srv.APIKey(), opts...)
	require.NoError(t, err)
	return c, a
}

// RefusingAddr returns a loopback address that refuses connections for the
// rest of the test: a TCP socket bound to a port the system picks, which
// never listens. Holding the port bound keeps another test's server from
// taking it, as it could take a port that was only listened on and closed.
func RefusingAddr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, syscall.IPPROTO_TCP)
	require.NoError(t, err)
	t.Cleanup(func() { syscall.Close(fd) })
	require.NoError(t, syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	sa, err := syscall.Getsockname(fd)
	require.NoError(t, err)
	in4, ok := sa.(*syscall.SockaddrInet4)
	require.True(t, ok, "bound to %T", sa)
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(in4.Port))
}
