// Package rest is the one request path shared by the chat, calls and
// management clients: URL building, headers, JSON bodies, query strings,
// retries, response decoding and error mapping. Service methods are a few
// lines on top of [Client.Do].
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Client sends calls to one API base address. It is safe for concurrent use
// once configured; configure it before the first call.
type Client struct {
	// HTTP sends the requests and applies the retry policy.
	HTTP *retryablehttp.Client
	// Auth sets the credential headers on every request.
	Auth func(http.Header)
	// Secrets returns the values scrubbed from anything shown: the
	// credentials. It is a function so that printing the client (fmt
	// dereferences pointers for verbs such as %s) cannot reach them.
	Secrets func() []string
	// UserAgent is sent as the User-Agent header.
	UserAgent string
	// Logger receives debug lines; nil logs nothing.
	Logger *slog.Logger
	// Timeout bounds each call, retries included; 0 means no bound beyond
	// the context's.
	Timeout time.Duration
	// MaxResponseBytes caps the body read from a response.
	MaxResponseBytes int64
	// Retry is the retry policy; HTTP's wait and count fields follow it.
	Retry RetryPolicy
	// NewError builds the error returned for a failed call.
	NewError func(*Failure) error
	// NewArgError builds the error returned for a bad argument.
	NewArgError func(name, problem string) error
	// Limiter, when set, is consulted before every attempt, retries
	// included, and learns from every response (see [Classify]); nil means
	// no client-side limiting.
	Limiter Limiter

	uaHeader []string // []string{UserAgent}, shared by every request: see userAgentHeader
	base     string   // scheme, host and path prefix, without a trailing slash
	basePath string   // the path prefix of base, e.g. "/v3"
}

// Settings are the per-call settings that RequestOptions change.
type Settings struct {
	// OnBehalfOf is sent as the onBehalfOf header when not empty.
	OnBehalfOf string
	// Header holds further headers to send.
	Header http.Header
}

// RequestOption changes one call.
type RequestOption func(*Settings)

// Call describes one request.
type Call struct {
	Method string
	Path   Path
	// Query is a struct with url tags (encoded by QueryValues, as
	// go-querystring does), or url.Values.
	Query any
	// Body is encoded as JSON; nil sends no body. A *RawBody is sent as it
	// is, with its Content-Type.
	Body any
	// OnBehalfOf, when set, overrides any onBehalfOf request option: it is
	// the positional argument of operations that require it.
	OnBehalfOf string
	Options    []RequestOption
	// EmptyOK accepts an empty object as the answer's data: an operation
	// whose result may hold nothing (a user's contact details).
	EmptyOK bool
	// Secrets are further credentials the call carries where no Secret
	// field or secret path segment shows them (a query given as
	// url.Values); they are scrubbed from its errors and logs.
	Secrets []string
}

// New returns a Client for base (scheme, host and optional path prefix) that
// sends through hc with the given retry policy, whose zero waits mean the
// defaults (DefaultRetryPolicy).
func New(base *url.URL, hc *http.Client, policy RetryPolicy) *Client {
	policy = policy.withDefaults()
	c := &Client{Retry: policy, MaxResponseBytes: 32 << 20}
	c.base = strings.TrimSuffix(base.String(), "/")
	c.basePath = pathOf(c.base)
	c.HTTP = &retryablehttp.Client{
		HTTPClient:   hc,
		RetryWaitMin: policy.MinWait,
		RetryWaitMax: policy.MaxWait,
		RetryMax:     policy.MaxRetries,
		CheckRetry:   c.checkAttempt,
		Backoff:      c.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		// The limiter's permit before each retry (the first attempt's is
		// taken in Do).
		PrepareRetry: c.prepareRetry,
	}
	return c
}

// WithBase returns a copy of c that sends to another base address with the
// same transport, credentials and settings.
func (c *Client) WithBase(base *url.URL) *Client {
	cp := *c
	cp.base = strings.TrimSuffix(base.String(), "/")
	cp.basePath = pathOf(cp.base)
	return &cp
}

// callSecrets is every credential a call carries, in the forms a server may
// echo them in: its secret path segments, the client's credentials, and the
// Secret fields of its body and query, with call.Secrets. It is only built
// on the error and log paths.
func (c *Client) callSecrets(call *Call) []string {
	var all []string
	all = append(all, call.Path.secrets...)
	all = append(all, c.secrets()...)
	all = append(all, SecretsIn(call.Body)...)
	all = append(all, SecretsIn(call.Query)...)
	all = append(all, call.Secrets...)
	return WithEncodings(all)
}

// Scrubber returns a function that removes every credential call carries
// from a text, as the call's errors are scrubbed: for texts a caller builds
// from a successful answer (a bulk import's per-entity errors).
func (c *Client) Scrubber(call *Call) func(string) string {
	secrets := c.callSecrets(call)
	return func(text string) string { return Scrub(text, secrets) }
}

func (c *Client) secrets() []string {
	if c.Secrets == nil {
		return nil
	}
	return c.Secrets()
}

// Base is the base address, without a trailing slash.
func (c *Client) Base() string { return c.base }

// Required checks name/value pairs and returns an error naming the first
// argument that is empty or a dot segment (which would change a path's
// shape).
func (c *Client) Required(nameValues ...string) error {
	for i := 0; i+1 < len(nameValues); i += 2 {
		switch nameValues[i+1] {
		case "":
			return c.NewArgError(nameValues[i], "must not be empty")
		case ".", "..":
			return c.NewArgError(nameValues[i], `must not be "." or ".."`)
		}
	}
	return nil
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Do sends call and decodes a successful response's JSON body into out (a
// pointer; nil discards the body). Any other outcome is an error: a bad
// argument, a transport failure (with secrets removed from its text), the
// context's error, or the API error built by NewError, which for a 2xx
// answer that left out zero (no data) wraps ErrEmptyResponse.
func (c *Client) Do(ctx context.Context, call *Call, out any) error {
	req, st, cancel, err := c.newRequest(ctx, call)
	if err != nil {
		return err
	}
	defer cancel()
	for {
		again, err := c.attempt(ctx, req, st, call, out)
		if !again {
			return err
		}
		// A GET answered 2xx with a body cut short or not JSON: the same
		// request is sent again, within the retry budget.
		if err := c.pause(req.Context(), st.attempts); err != nil {
			return err
		}
	}
}

// attempt sends req once through the retry layer (which may itself make
// several attempts) and decodes the answer into out. again reports that the
// answer was a 2xx whose body could not be read or decoded, to a request
// that only reads, with retries left: err is then that failure.
func (c *Client) attempt(ctx context.Context, req *retryablehttp.Request, st *callState, call *Call, out any) (again bool, err error) {
	if c.Limiter != nil {
		if ls := limitFrom(req.Context()); ls != nil {
			if err := ls.wait(req.Context()); err != nil {
				if ctxErr := ctx.Err(); ctxErr != nil {
					return false, ctxErr
				}
				return false, err
			}
		}
	}
	start := time.Now()
	resp, err := c.HTTP.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return false, ctxErr
		}
		return false, redactErr(err, c.base+call.Path.Redacted(), c.callSecrets(call))
	}
	defer resp.Body.Close()

	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 {
			bufPool.Put(buf)
		}
	}()
	st.body = io.LimitedReader{R: resp.Body, N: c.MaxResponseBytes + 1}
	n, readErr := buf.ReadFrom(&st.body)
	c.logDone(ctx, st, resp.StatusCode, time.Since(start))
	tooLarge := readErr == nil && n > c.MaxResponseBytes
	if tooLarge {
		readErr = fmt.Errorf("response body exceeds %d bytes", c.MaxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return false, c.NewError(c.failure(call, st, resp, buf.Bytes(), readErr))
	}
	retryable := st.safe && st.attempts <= c.Retry.MaxRetries
	if readErr != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return false, ctxErr
		}
		f := c.failure(call, st, resp, nil, readErr)
		f.Message = "reading response: " + f.Err.Error()
		c.scrub(f, call)
		return retryable && !tooLarge, c.NewError(f)
	}
	if out == nil {
		return false, nil
	}
	if len(bytes.TrimSpace(buf.Bytes())) > 0 {
		if err := Unmarshal(buf.Bytes(), out); err != nil {
			f := c.failure(call, st, resp, nil, err)
			f.Message = "decoding response: " + err.Error()
			c.scrub(f, call)
			var syntaxErr *json.SyntaxError
			return retryable && (errors.As(err, &syntaxErr) || errors.Is(err, io.ErrUnexpectedEOF)), c.NewError(f)
		}
	}
	// An operation that returns something must not pass off an answer
	// without it (an empty body, null, {}, {"data": null}, {"data": {}},
	// a list's meta without its items) as success with a zero value.
	if noData(out, buf.Bytes(), call.EmptyOK) {
		f := c.failure(call, st, resp, buf.Bytes(), ErrEmptyResponse)
		if f.Code == "" {
			f.Message = "the response held no data"
		}
		if !st.safe {
			f.Message += "; the request may have been applied"
		}
		return false, c.NewError(f)
	}
	return false, nil
}

// noData reports whether out, decoded from body, holds no answer: a list
// (a struct with a Data slice) whose items are missing or null, or a zero
// value decoded from a body without a "data" member, with a null one, or
// (unless emptyOK) with an empty object.
func noData(out any, body []byte, emptyOK bool) bool {
	rv := reflect.ValueOf(out).Elem()
	if i := dataSlice(rv.Type()); i >= 0 && rv.Field(i).IsNil() {
		return true
	}
	if !rv.IsZero() {
		return false
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &env) != nil {
		return true
	}
	switch d := bytes.TrimSpace(env.Data); {
	case len(d) == 0, string(d) == "null":
		return true
	case len(d) >= 2 && d[0] == '{' && len(bytes.TrimSpace(d[1:len(d)-1])) == 0:
		return !emptyOK
	}
	return false
}

// dataSlices caches, per type, the index of its Data field when that is a
// slice: a list's items.
var dataSlices sync.Map // reflect.Type -> int

func dataSlice(t reflect.Type) int {
	if i, ok := dataSlices.Load(t); ok {
		return i.(int)
	}
	i := -1
	if t.Kind() == reflect.Struct {
		if f, ok := t.FieldByName("Data"); ok && len(f.Index) == 1 && f.Type.Kind() == reflect.Slice {
			i = f.Index[0]
		}
	}
	dataSlices.Store(t, i)
	return i
}

// pause waits the backoff before attempt number attempts+1, or until ctx
// is done.
func (c *Client) pause(ctx context.Context, attempts int) error {
	t := time.NewTimer(c.backoff(c.Retry.MinWait, c.Retry.MaxWait, attempts-1, nil))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) newRequest(ctx context.Context, call *Call) (*retryablehttp.Request, *callState, context.CancelFunc, error) {
	if !call.Path.Valid() {
		return nil, nil, nil, c.NewArgError("path", "a path parameter is empty or a dot segment")
	}
	s := c.settings(call)
	if !validHeaderValue(s.OnBehalfOf) {
		return nil, nil, nil, c.NewArgError("onBehalfOf", "contains a control character")
	}

	u := c.base + call.Path.Escaped()
	if call.Query != nil {
		var v url.Values
		switch q := call.Query.(type) {
		case url.Values:
			v = q
		default:
			var err error
			if v, err = QueryValues(q); err != nil {
				return nil, nil, nil, c.NewArgError("query", err.Error())
			}
		}
		if enc := v.Encode(); enc != "" {
			// Commas separate array values (tags=a,b). A decoded query is the
			// same with or without escaping them; sent literally, it reads as
			// the reference writes it.
			u += "?" + strings.ReplaceAll(enc, "%2C", ",")
		}
	}

	var body any
	contentType := jsonHeaderValue
	if raw, ok := call.Body.(*RawBody); ok && raw != nil {
		body, contentType = raw.Data, jsonHeaderValue
		if raw.ContentType != jsonHeaderValue[0] {
			contentType = []string{raw.ContentType}
		}
	} else if !isNil(call.Body) {
		b, err := json.Marshal(call.Body)
		if err != nil {
			return nil, nil, nil, c.NewArgError("body", err.Error())
		}
		body = b
	}

	cancel := context.CancelFunc(func() {})
	if c.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	st := &callState{idempotent: idempotent(call.Method), safe: safe(call.Method), shownPath: call.Path.Redacted(), method: call.Method,
		call: call}
	if c.Limiter != nil {
		ls := &limitState{limiter: c.Limiter}
		ls.class, ls.observe = Classify(call.Method, call.Path.Escaped())
		ctx = context.WithValue(ctx, limitKey{}, ls)
	}
	req, err := retryablehttp.NewRequestWithContext(withState(ctx, st), call.Method, u, body)
	if err != nil {
		cancel()
		return nil, nil, nil, c.NewArgError("path", "does not form a valid URL")
	}
	h := req.Header
	h["Accept"] = jsonHeaderValue
	if body != nil {
		h["Content-Type"] = contentType
	}
	if c.UserAgent != "" {
		h["User-Agent"] = c.userAgentHeader()
	}
	if c.Auth != nil {
		c.Auth(h)
	}
	if s.OnBehalfOf != "" {
		h.Set("onBehalfOf", s.OnBehalfOf)
	}
	for k, vs := range s.Header {
		if !validHeaderName(k) {
			cancel()
			return nil, nil, nil, c.NewArgError("header", "name "+strconv.Quote(k)+" is not a valid header field name")
		}
		for _, v := range vs {
			if !validHeaderValue(v) {
				cancel()
				return nil, nil, nil, c.NewArgError("header "+k, "contains a control character")
			}
			h.Add(k, v)
		}
	}
	if c.Logger != nil && c.Logger.Enabled(ctx, slog.LevelDebug) {
		c.Logger.LogAttrs(ctx, slog.LevelDebug, "chat: request",
			slog.String("method", call.Method), slog.String("path", c.basePath+st.shownPath),
			slog.Bool("onBehalfOf", s.OnBehalfOf != ""))
	}
	return req, st, cancel, nil
}

// isNil reports whether v is nil or a nil pointer, map or slice: no body.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// jsonHeaderValue is shared by every request's Accept and Content-Type
// headers; its capacity is its length, so an append copies it.
var jsonHeaderValue = []string{"application/json"}[:1:1]

// settings applies the call's request options; the positional onBehalfOf
// wins over an option's. A call without options allocates nothing.
func (c *Client) settings(call *Call) Settings {
	var s Settings
	if len(call.Options) > 0 {
		p := new(Settings)
		for _, o := range call.Options {
			if o != nil {
				o(p)
			}
		}
		s = *p
	}
	if call.OnBehalfOf != "" {
		s.OnBehalfOf = call.OnBehalfOf
	}
	return s
}

// validHeaderName reports whether k is a header field name as HTTP defines
// it: one or more token characters (RFC 9110, section 5.1), so no space,
// colon, CR or LF.
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func (c *Client) logDone(ctx context.Context, st *callState, status int, took time.Duration) {
	if c.Logger == nil || !c.Logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	c.Logger.LogAttrs(ctx, slog.LevelDebug, "chat: response",
		slog.String("method", st.method), slog.String("path", c.basePath+st.shownPath),
		slog.Int("status", status), slog.Int("attempts", st.attempts),
		slog.Duration("took", took))
}

// redactErr rewrites the URL in a transport error so that secret path
// segments do not show, and removes secrets from the text of the error it
// wraps (a proxy or a custom transport may quote the URL), keeping that
// error for errors.Is/As.
func redactErr(err error, shown string, secrets []string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return &url.Error{Op: ue.Op, URL: shown, Err: scrubErr(ue.Err, secrets)}
	}
	return scrubErr(err, secrets)
}

// scrubErr returns err, or when its text shows a secret, an error with that
// text scrubbed (see Scrub) which unwraps to err.
func scrubErr(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if shown := Scrub(msg, secrets); shown != msg {
		return &scrubbedError{msg: shown, err: err}
	}
	return err
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }

// Is matches what the scrubbed error matches (a context's error, a
// syscall error): errors.Is still works. There is no Unwrap, which would
// hand out the error whose text shows the secret.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.err, target) }

// Timeout keeps url.Error.Timeout working through the wrapper.
func (e *scrubbedError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.err, &t) && t.Timeout()
}

// errRedirectRefused is returned by the redirect policy; it is not retried.
var errRedirectRefused = errors.New("redirect refused")

// CheckRedirect wraps next (which may be nil, for net/http's default) with
// the SDK's rules:
//   - a POST or PATCH is never redirected;
//   - nothing is sent over plain http, unless loopbackHTTP (the client's
//     loopback opt-in) is set and the target is a loopback host;
//   - a request with a body (a PUT or DELETE whose body may carry a
//     secret) is not sent to another origin;
//   - once a redirect leaves the first request's origin (its scheme, host
//     name or port), that request and every later one of the chain go
//     without the credential headers and without an Authorization or
//     Cookie header, even when a later redirect comes back to the first
//     origin: the other host chose where it goes. (net/http itself keeps
//     Authorization for another port of the same host name, and sends it
//     again when a chain comes back.)
func CheckRedirect(next func(*http.Request, []*http.Request) error, loopbackHTTP bool, credentialHeaders ...string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if !idempotent(first.Method) {
			return http.ErrUseLastResponse
		}
		if !strings.EqualFold(req.URL.Scheme, "https") &&
			!(loopbackHTTP && strings.EqualFold(req.URL.Scheme, "http") && IsLoopback(req.URL.Hostname())) {
			return fmt.Errorf("%w: %s:// is not https", errRedirectRefused, req.URL.Scheme)
		}
		left := !sameOrigin(req.URL, first.URL)
		for _, r := range via[1:] {
			left = left || !sameOrigin(r.URL, first.URL)
		}
		if left {
			if req.Body != nil && req.Body != http.NoBody || req.ContentLength > 0 {
				return fmt.Errorf("%w: a request with a body is not sent to another host", errRedirectRefused)
			}
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("%w: stopped after 10 redirects", errRedirectRefused)
		}
		return nil
	}
}

// sameOrigin reports whether a and b have the same scheme, host name and
// port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// keepIdle hides its transport's CloseIdleConnections from
// go-retryablehttp, which calls it after every failed call (a cancelled
// context, a 404 is fine): on a client shared by many goroutines that would
// throw away every pooled connection whenever one call fails. Broken
// connections are still discarded by the transport itself.
type keepIdle struct{ rt http.RoundTripper }

func (k keepIdle) RoundTrip(r *http.Request) (*http.Response, error) { return k.rt.RoundTrip(r) }

// KeepIdle wraps rt (nil: http.DefaultTransport) so that the retry layer
// cannot close its idle connections.
func KeepIdle(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return keepIdle{rt}
}

// userAgentHeader is the User-Agent header's value: one slice shared by
// every request while UserAgent does not change (its capacity is its
// length, so an append copies it).
func (c *Client) userAgentHeader() []string {
	if len(c.uaHeader) == 1 && c.uaHeader[0] == c.UserAgent {
		return c.uaHeader
	}
	return []string{c.UserAgent}
}
