package chat_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// The app and key every mock client uses. The key has the shape of a real
// one (40 hex characters) so that a leak would be recognisable.
const (
	testAppID  = "myapp"
	testAPIKey = "f1915e328e249ffaaafd97fb46a57ba55d233fbf"
	testHost   = "myapp.api-us.cometchat.io"
)

// wireRequest is what the mock server saw of one request.
type wireRequest struct {
	Method        string
	Host          string
	Path          string // escaped, exactly as sent
	RawQuery      string
	Query         url.Values
	Fragment      string
	Header        http.Header
	ContentLength int64
	Body          []byte
}

// mockAPI is a client whose requests all go to an httpmock transport that
// records them and answers through handle.
type mockAPI struct {
	t      testing.TB
	mt     *httpmock.MockTransport
	client *chat.Client

	mu     sync.Mutex
	reqs   []wireRequest
	handle func(attempt int, req *http.Request) (*http.Response, error)
}

// newMockAPI returns a client for testAppID/testAPIKey over a mock
// transport. Retries are off unless opts turn them on; it answers 200 with
// an empty data object until told otherwise.
func newMockAPI(t testing.TB, opts ...chat.Option) *mockAPI {
	t.Helper()
	m := &mockAPI{t: t, mt: httpmock.NewMockTransport()}
	m.handle = func(int, *http.Request) (*http.Response, error) {
		return jsonResponse(http.StatusOK, `{"data":{}}`), nil
	}
	m.mt.RegisterNoResponder(m.respond)
	all := append([]chat.Option{chat.WithoutRetries()}, opts...)
	all = append(all, chat.WithHTTPClient(&http.Client{Transport: m.mt}))
	c, err := chat.NewClient(testAppID, testAPIKey, all...)
	require.NoError(t, err)
	m.client = c
	return m
}

func (m *mockAPI) respond(req *http.Request) (*http.Response, error) {
	w := wireRequest{
		Method:        req.Method,
		Host:          req.URL.Host,
		Path:          req.URL.EscapedPath(),
		RawQuery:      req.URL.RawQuery,
		Query:         req.URL.Query(),
		Fragment:      req.URL.Fragment,
		Header:        req.Header.Clone(),
		ContentLength: req.ContentLength,
	}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		w.Body = b
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, w)
	n, handle := len(m.reqs), m.handle
	m.mu.Unlock()
	return handle(n, req)
}

// reply makes every request answer status with body and the given header
// name/value pairs.
func (m *mockAPI) reply(status int, body string, header ...string) {
	m.serve(func(int, *http.Request) (*http.Response, error) {
		return jsonResponse(status, body, header...), nil
	})
}

// serve makes every request answer through h; attempt counts from 1.
func (m *mockAPI) serve(h func(attempt int, req *http.Request) (*http.Response, error)) {
	m.mu.Lock()
	m.handle = h
	m.mu.Unlock()
}

// requests returns the requests seen so far.
func (m *mockAPI) requests() []wireRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]wireRequest(nil), m.reqs...)
}

// only returns the one request seen, failing the test if there were more
// or none.
func (m *mockAPI) only() wireRequest {
	m.t.Helper()
	reqs := m.requests()
	require.Len(m.t, reqs, 1, "requests sent")
	return reqs[0]
}

// calls is the number of requests the transport received.
func (m *mockAPI) calls() int { return m.mt.GetTotalCallCount() }

func jsonResponse(status int, body string, header ...string) *http.Response {
	resp := httpmock.NewStringResponse(status, body)
	resp.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		resp.Header.Set(header[i], header[i+1])
	}
	return resp
}

// assertWire checks the request line and the headers every call carries.
func assertWire(t *testing.T, r wireRequest, method, escapedPath string) {
	t.Helper()
	assert.Equal(t, method, r.Method, "method")
	assert.Equal(t, escapedPath, r.Path, "escaped path")
	assert.Equal(t, testHost, r.Host, "host")
	assert.Equal(t, testAPIKey, r.Header.Get("apikey"), "apikey header")
	assert.Equal(t, "application/json", r.Header.Get("Accept"), "Accept header")
}

// assertJSONBody checks that the request carried want as its JSON body.
func assertJSONBody(t *testing.T, r wireRequest, want string) {
	t.Helper()
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"), "Content-Type")
	assert.JSONEq(t, want, string(r.Body), "body")
}

// assertNoBody checks that the request carried no body at all.
func assertNoBody(t *testing.T, r wireRequest) {
	t.Helper()
	assert.Empty(t, r.Body, "body")
	assert.Zero(t, r.ContentLength, "Content-Length")
	assert.Empty(t, r.Header.Get("Content-Type"), "Content-Type")
}

// assertNoOnBehalfOf checks that the onBehalfOf header was not sent.
func assertNoOnBehalfOf(t *testing.T, r wireRequest) {
	t.Helper()
	_, sent := r.Header[http.CanonicalHeaderKey("onBehalfOf")]
	assert.False(t, sent, "onBehalfOf header sent: %q", r.Header.Get("onBehalfOf"))
}

// requireArgError checks that err is an *ArgumentError naming name.
func requireArgError(t *testing.T, err error, name string) *chat.ArgumentError {
	t.Helper()
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, name, ae.Name, "argument named")
	assert.ErrorIs(t, err, chat.ErrInvalidArgument)
	return ae
}

// requireAPIError checks that err is a *chat.Error and returns it.
func requireAPIError(t *testing.T, err error) *chat.Error {
	t.Helper()
	var ce *chat.Error
	require.Error(t, err)
	require.True(t, errors.As(err, &ce), "want *chat.Error, got %T: %v", err, err)
	return ce
}

// decodeBody decodes a request body into a generic map.
func decodeBody(t *testing.T, r wireRequest) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), "body %q", r.Body)
	return m
}
