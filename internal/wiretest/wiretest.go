// Package wiretest is the one harness of the SDK's wire tests, in package
// chat and in package management: a mock transport (httpmock) that records
// every request a client sends and answers as a test says, the checks of
// what went on the wire, and the runners of a package's cases.
//
// [Chat] and [Management] each return a client over a fresh [Mock], the
// way go-github's setup(t) returns a client and its mux:
//
//	client, m := wiretest.Chat(t)
//	m.Reply(http.StatusOK, `{"data":{"uid":"alice"}}`)
//
// [ChatWire] and [ManagementWire] describe those clients as a [Harness].
// Then:
//
//   - [Harness.Run] runs a table of [Case]: one call each, the request it
//     must send and what it must return;
//   - [RunArgs] runs a table of [ArgCase]: calls that must fail on an
//     argument without sending anything;
//   - [Harness.Sent] checks one request's line, host and credentials, and
//     [JSONBody], [NoBody] and [NoOnBehalfOf] the rest, for tests that
//     drive the mock by hand.
//
// Where a test needs real connections, [NewEndlessServer] answers with a
// body that never ends, [NewEchoServer] echoes every request in its error,
// [NewRedirectHosts] are two hosts that redirect as a test says and record
// what arrived, and [NewHostileServers] are the https and plain-http
// servers of the hostile-server tests, one handler per scenario.
package wiretest

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// Request is what the mock transport saw of one request.
type Request struct {
	Method        string
	Scheme        string
	Host          string
	Path          string // escaped, exactly as sent
	RawQuery      string
	Query         url.Values
	Fragment      string
	Header        http.Header
	ContentLength int64
	Body          []byte
}

// Mock is a transport that records every request and answers through its
// handler: 200 {"data":{"ok":true}} until told otherwise.
type Mock struct {
	t  testing.TB
	mt *httpmock.MockTransport

	mu     sync.Mutex
	reqs   []Request
	handle func(attempt int, req *http.Request) (*http.Response, error)
}

// New returns a Mock for the test t.
func New(t testing.TB) *Mock {
	m := &Mock{t: t, mt: httpmock.NewMockTransport()}
	m.handle = func(int, *http.Request) (*http.Response, error) {
		return JSONResponse(http.StatusOK, `{"data":{"ok":true}}`), nil
	}
	m.mt.RegisterNoResponder(m.respond)
	return m
}

// HTTPClient is an http.Client whose requests go to m.
func (m *Mock) HTTPClient() *http.Client { return &http.Client{Transport: m.mt} }

func (m *Mock) respond(req *http.Request) (*http.Response, error) {
	w := Request{
		Method: req.Method, Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.EscapedPath(),
		RawQuery: req.URL.RawQuery, Query: req.URL.Query(), Fragment: req.URL.Fragment,
		Header: req.Header.Clone(), ContentLength: req.ContentLength,
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

// Reply makes every request answer status with body and the given header
// name/value pairs.
func (m *Mock) Reply(status int, body string, header ...string) {
	m.Serve(func(int, *http.Request) (*http.Response, error) {
		return JSONResponse(status, body, header...), nil
	})
}

// Serve makes every request answer through h; attempt counts from 1.
func (m *Mock) Serve(h func(attempt int, req *http.Request) (*http.Response, error)) {
	m.mu.Lock()
	m.handle = h
	m.mu.Unlock()
}

// Answer makes every request answer 200 with the JSON body answer makes
// of it: a list whose pages depend on the query, for one.
func (m *Mock) Answer(answer func(req *http.Request) string) {
	m.Serve(func(_ int, req *http.Request) (*http.Response, error) {
		return JSONResponse(http.StatusOK, answer(req)), nil
	})
}

// ServePages makes every request answer 200 with the page that pages
// holds for the value of its query parameter param ("" when it has none),
// and 400 when pages holds none: a paged list that follows its cursor.
func (m *Mock) ServePages(param string, pages map[string]string) {
	m.Serve(func(_ int, req *http.Request) (*http.Response, error) {
		body, ok := pages[req.URL.Query().Get(param)]
		if !ok {
			return JSONResponse(http.StatusBadRequest, `{"error":{"code":"ERR_BAD_REQUEST","message":"unexpected `+param+`"}}`), nil
		}
		return JSONResponse(http.StatusOK, body), nil
	})
}

// Requests returns the requests seen so far.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Queries returns the raw queries of the requests seen so far, in order.
func (m *Mock) Queries() []string {
	var out []string
	for _, r := range m.Requests() {
		out = append(out, r.RawQuery)
	}
	return out
}

// Only returns the one request seen, failing the test if there were more
// or none.
func (m *Mock) Only() Request {
	m.t.Helper()
	reqs := m.Requests()
	require.Len(m.t, reqs, 1, "requests sent")
	return reqs[0]
}

// Calls is the number of requests the transport received.
func (m *Mock) Calls() int { return m.mt.GetTotalCallCount() }

// JSONResponse is an answer with a JSON body and the given header
// name/value pairs.
func JSONResponse(status int, body string, header ...string) *http.Response {
	resp := httpmock.NewStringResponse(status, body)
	resp.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		resp.Header.Set(header[i], header[i+1])
	}
	return resp
}

// Expect is what one request must have been.
type Expect struct {
	Method string
	Host   string
	Path   string // escaped
	Query  string // raw; "" means none
	// OnBehalfOf is the onBehalfOf header; "" means not sent.
	OnBehalfOf string
	// Body is the JSON body; "" means none at all (no Content-Type).
	Body string
	// Header holds headers the request must carry, with their one value
	// (the credentials, and more); Absent names headers it must not.
	Header map[string]string
	Absent []string
}

// Check asserts that r is what e says.
func Check(t *testing.T, r Request, e Expect) {
	t.Helper()
	assert.Equal(t, e.Method, r.Method, "method")
	assert.Equal(t, e.Path, r.Path, "escaped path")
	assert.Equal(t, "https", r.Scheme, "scheme")
	assert.Equal(t, e.Host, r.Host, "host")
	assert.Equal(t, e.Query, r.RawQuery, "query")
	assert.Equal(t, "application/json", r.Header.Get("Accept"), "Accept header")
	for k, v := range e.Header {
		assert.Equal(t, []string{v}, r.Header.Values(k), k+" header")
	}
	for _, k := range e.Absent {
		assert.Empty(t, r.Header.Values(k), k+" header")
	}
	if e.OnBehalfOf == "" {
		NoOnBehalfOf(t, r)
	} else {
		assert.Equal(t, []string{e.OnBehalfOf}, r.Header.Values("onBehalfOf"), "onBehalfOf header")
	}
	if e.Body == "" {
		NoBody(t, r)
	} else {
		JSONBody(t, r, e.Body)
	}
}

// JSONBody asserts that the request carried want as its JSON body.
func JSONBody(t *testing.T, r Request, want string) {
	t.Helper()
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"), "Content-Type")
	assert.JSONEq(t, want, string(r.Body), "body")
}

// NoBody asserts that the request carried no body at all.
func NoBody(t *testing.T, r Request) {
	t.Helper()
	assert.Empty(t, r.Body, "body")
	assert.Zero(t, r.ContentLength, "Content-Length")
	assert.Empty(t, r.Header.Get("Content-Type"), "Content-Type")
}

// NoOnBehalfOf asserts that the onBehalfOf header was not sent.
func NoOnBehalfOf(t *testing.T, r Request) {
	t.Helper()
	_, sent := r.Header[http.CanonicalHeaderKey("onBehalfOf")]
	assert.False(t, sent, "onBehalfOf header sent: %q", r.Header.Get("onBehalfOf"))
}

// RequireArgError asserts that err is a *chat.ArgumentError naming name,
// and returns it.
func RequireArgError(t *testing.T, err error, name string) *chat.ArgumentError {
	t.Helper()
	var ae *chat.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, name, ae.Name, "argument named")
	assert.ErrorIs(t, err, chat.ErrInvalidArgument)
	return ae
}

// RequireAPIError asserts that err is a *chat.Error, and returns it.
func RequireAPIError(t *testing.T, err error) *chat.Error {
	t.Helper()
	var ce *chat.Error
	require.Error(t, err)
	require.True(t, errors.As(err, &ce), "want *chat.Error, got %T: %v", err, err)
	return ce
}

// Harness is what a package's wire tests know of its client: how to make
// one over a fresh Mock, where its requests go and the headers each carries.
type Harness[C any] struct {
	// New returns a Mock answering 200 until told otherwise, and a client
	// whose requests go to it, with retries off.
	New func(t testing.TB) (*Mock, C)
	// Host is the host a request to the escaped path goes to.
	Host func(escapedPath string) string
	// Credentials are the headers every request carries, each with its one
	// value; Absent names headers no request carries.
	Credentials map[string]string
	Absent      []string
}

// Sent asserts that r is a request of the client: method and escaped path
// as given, to its host, with its credentials (and none it must not send).
func (h Harness[C]) Sent(t *testing.T, r Request, method, escapedPath string) {
	t.Helper()
	assert.Equal(t, method, r.Method, "method")
	assert.Equal(t, escapedPath, r.Path, "escaped path")
	assert.Equal(t, h.Host(escapedPath), r.Host, "host")
	h.credentials(t, r)
}

func (h Harness[C]) credentials(t *testing.T, r Request) {
	t.Helper()
	for k, v := range h.Credentials {
		assert.Equal(t, []string{v}, r.Header.Values(k), k+" header")
	}
	for _, k := range h.Absent {
		assert.Empty(t, r.Header.Values(k), k+" header")
	}
}

// Case is one call of a wire test: what the client must send and what it
// must make of the answer.
type Case[C any] struct {
	Name string
	// Call makes the one call on a fresh client.
	Call func(c C) (any, error)
	// Reply is the body of the 200 answer.
	Reply string
	// Method and Path (escaped) are the request line; Query is the raw
	// query ("" means none).
	Method, Path, Query string
	// OnBehalfOf is the onBehalfOf header ("" means not sent).
	OnBehalfOf string
	// Header holds further headers the request must carry.
	Header map[string]string
	// Body is the JSON body ("" means none at all).
	Body string
	// Want, when set, is compared with the result; Check, when set, checks
	// the request and the result further. With neither, the result is not
	// looked at (a call that returns only an error).
	Want  any
	Check func(t *testing.T, r Request, got any)
}

// Run runs each case as a subtest on a fresh client whose Mock answers 200
// with the case's Reply: the call must succeed and send exactly one
// request, the one the case describes.
func (h Harness[C]) Run(t *testing.T, cases []Case[C]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			m, c := h.New(t)
			m.Reply(http.StatusOK, tc.Reply)
			got, err := tc.Call(c)
			require.NoError(t, err)
			r := m.Only()
			header := maps.Clone(h.Credentials)
			if header == nil {
				header = map[string]string{}
			}
			maps.Copy(header, tc.Header)
			Check(t, r, Expect{Method: tc.Method, Host: h.Host(tc.Path), Path: tc.Path, Query: tc.Query,
				OnBehalfOf: tc.OnBehalfOf, Body: tc.Body, Header: header, Absent: h.Absent})
			if tc.Want != nil {
				assert.Equal(t, tc.Want, got, "result")
			}
			if tc.Check != nil {
				tc.Check(t, r, got)
			}
		})
	}
}

// ArgCase is a call of S that must fail on its arguments: the error names
// Arg, and nothing is sent.
type ArgCase[S any] struct {
	Name string
	Call func(s S) error
	Arg  string
}

// RunArgs runs each case as a subtest on the part of a fresh client that
// service picks, and asserts that the call fails on the argument it names
// without sending a request.
func RunArgs[C, S any](t *testing.T, h Harness[C], service func(C) S, cases []ArgCase[S]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			m, c := h.New(t)
			RequireArgError(t, tc.Call(service(c)), tc.Arg)
			assert.Zero(t, m.Calls(), "requests sent")
		})
	}
}

// ValidateCase is a request value and the field its Validate names, or ""
// when the value is valid.
type ValidateCase struct {
	Name  string
	Value interface{ Validate() error }
	Field string
}

// RunValidate runs each case as a subtest: Validate refuses the value with
// an [*chat.ArgumentError] naming Field, or passes it when Field is empty.
func RunValidate(t *testing.T, cases []ValidateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			err := tc.Value.Validate()
			if tc.Field == "" {
				require.NoError(t, err)
				return
			}
			RequireArgError(t, err, tc.Field)
		})
	}
}

// FormPart is one part of a multipart/form-data body as a server reads it.
type FormPart struct {
	Name, Filename, ContentType, Value string
}

// Form parses the multipart/form-data body of r, in order, failing the
// test when r does not carry one.
func Form(t *testing.T, r Request) []FormPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mt)
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	var parts []FormPart
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return parts
		}
		require.NoError(t, err)
		b, err := io.ReadAll(p)
		require.NoError(t, err)
		parts = append(parts, FormPart{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(b)})
	}
}
