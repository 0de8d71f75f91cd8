package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/rest"
)

// Request describes one API call: what [Caller.Do] (and [Client.Do]) sends.
// Every method of the SDK fills one and hands it to the same function.
type Request struct {
	// Method is the HTTP method, e.g. http.MethodPost.
	Method string
	// Path is the path below the API's address (after its version
	// prefix), as segments: each is escaped on its own, so that no value
	// can add a segment, a query or a fragment. An empty, "." or ".."
	// segment is refused before anything is sent.
	Path []string
	// Query is a struct with url tags (encoded as
	// github.com/google/go-querystring does: a "comma" option sends a
	// slice as a,b) or a url.Values; nil sends none.
	Query any
	// Body is sent as JSON; nil sends none.
	Body any
	// OnBehalfOf, when not empty, is sent as the onBehalfOf header: the
	// user the call acts as. It wins over the [OnBehalfOf] request option.
	OnBehalfOf string
	// Secrets are credentials the request carries where no [Secret] field
	// of its Body or Query shows them, such as an auth token in its Path:
	// a path segment equal to one shows as REDACTED, and every one is
	// scrubbed from the call's error and log lines.
	Secrets []Secret

	emptyOK          bool          // an empty object is an answer (a user's contact details)
	pace             *rate.Limiter // waited on before every attempt (a bulk import's pace)
	rateLimitRetries int           // further retries of a 429 (a bulk import's)
	attempts         *int          // set to the number of attempts sent, when not nil
}

// RequestOption changes a single call: [OnBehalfOf], [WithHeader] and
// [CaptureResponse] make one. Every method of the SDK takes them last.
type RequestOption func(*callOptions)

// callOptions are what a call's RequestOptions set.
type callOptions struct {
	onBehalfOf string
	header     http.Header
	capture    *Response
}

// OnBehalfOf makes a call act as the user uid (the onBehalfOf header), for
// operations where the API allows it as an option. Operations that require
// it take the UID as a positional argument instead, which wins over this
// option.
func OnBehalfOf(uid string) RequestOption { return func(o *callOptions) { o.onBehalfOf = uid } }

// WithHeader sets a header of a single call, for headers the SDK has no
// option for; a later WithHeader of the same name replaces it, and an
// empty value removes it. A name that is not a valid header field name, or
// a value with a control character, fails the call before anything is
// sent.
func WithHeader(key, value string) RequestOption {
	return func(o *callOptions) {
		if o.header == nil {
			o.header = http.Header{}
		}
		if value == "" {
			o.header.Del(key)
			return
		}
		o.header.Set(key, value)
	}
}

// actingUser returns the UID opts make a call act as: the OnBehalfOf
// option's, or an onBehalfOf header's; "" when none.
func actingUser(opts []RequestOption) string {
	var o callOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.onBehalfOf != "" {
		return o.onBehalfOf
	}
	return o.header.Get("onBehalfOf")
}

// CaptureResponse makes a call fill r with what its final attempt was
// answered, on success and on error: the status, the headers, the
// rate-limit budget and the number of attempts. A call that got no answer
// (a connection refused, a context ended before any answer) leaves r's
// StatusCode zero.
//
//	var resp chat.Response
//	user, err := client.Users.Get(ctx, "alice", chat.CaptureResponse(&resp))
//	log.Println(resp.StatusCode, resp.RateLimit.Remaining)
func CaptureResponse(r *Response) RequestOption { return func(o *callOptions) { o.capture = r } }

// Response is what a call's final attempt was answered, for
// [CaptureResponse].
type Response struct {
	// StatusCode is the HTTP status, e.g. 200; zero when no answer came.
	StatusCode int
	// Header holds the answer's headers.
	Header http.Header
	// RateLimit is what the answer said about the budget of the call's
	// rate-limit class (X-Rate-Limit, X-Rate-Limit-Remaining, Retry-After,
	// X-Rate-Limit-Reset).
	RateLimit RateObservation
	// RequestID is the answer's X-Request-Id header, when it has one: the
	// id to quote to the service's support.
	RequestID string
	// Attempts is how many times the request was sent, retries included.
	Attempts int
}

// do sends req and returns the decoded "data" member of its answer, the
// envelope every operation of the APIs answers with.
func do[T any](ctx context.Context, c *Caller, req *Request, opts []RequestOption) (*T, error) {
	// One allocation holds the envelope and the result, which is returned
	// in place (the envelope has no other field to keep alive).
	env := new(envelope[T])
	if err := c.send(ctx, req, env, opts); err != nil {
		return nil, err
	}
	return &env.Data, nil
}

// envelope is the success body: {"data": ...}.
type envelope[T any] struct {
	Data T `json:"data"`
}

// list sends a GET of a list and returns the page it answers: its data and
// meta.
func list[T any](ctx context.Context, c *Caller, req *Request, opts []RequestOption) (*Page[T], error) {
	req.Method = http.MethodGet
	page := new(Page[T])
	if err := c.send(ctx, req, page, opts); err != nil {
		return nil, err
	}
	return page, nil
}

// required checks name/value pairs and returns an [*ArgumentError] naming
// the first argument that is empty or a dot segment (which would change a
// path's shape).
func required(nameValues ...string) error {
	if name, problem := rest.Required(nameValues...); name != "" {
		return newArgError(name, problem)
	}
	return nil
}

// ErrNoCaller is returned by a method of a service, or by [Caller.Do], that
// has no Caller to send through: a service value made by hand rather than
// taken from a [Client].
var ErrNoCaller = errors.New("chat: no client: use the services of a Client made by NewClient")

// Do sends req and decodes the JSON body of a successful answer into out
// (a pointer; nil discards it). opts change this call only.
//
// A failed call returns a [*Error] (the service answered with a non-2xx
// status, or a 2xx that could not be read or that held no data: out stays
// at its zero value, and the error wraps [ErrEmptyResponse]); a bad request
// an [*ArgumentError] before anything is sent; the context's error when it
// ended; a transport error otherwise, with every credential scrubbed from
// its text.
func (c *Caller) Do(ctx context.Context, req *Request, out any, opts ...RequestOption) error {
	return c.send(ctx, req, out, opts)
}

// send is Do with the options as a slice: the one function every method's
// request goes through.
func (c *Caller) send(ctx context.Context, req *Request, out any, opts []RequestOption) error {
	if c == nil {
		return ErrNoCaller
	}
	if req == nil {
		return newArgError("req", "must not be nil")
	}
	st, rreq, cancel, err := c.newCall(ctx, req, out, opts)
	if err != nil {
		return err
	}
	defer cancel()
	if err := st.waitPermit(rreq.Context()); err != nil {
		return st.finish(c, nil, ctxErrOr(ctx, err))
	}
	resp, err := c.http.Do(rreq)
	if req.attempts != nil {
		defer func() { *req.attempts = st.attempts }()
	}
	return st.finish(c, resp, err)
}

// ctxErrOr returns ctx's error when it has ended, else err.
func ctxErrOr(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return err
}

// callState follows one call across its attempts. It travels in the
// request's context, which go-retryablehttp hands to its CheckRetry hook
// and the response handler: they are the client's, shared by every call.
type callState struct {
	c          *Caller
	req        *Request
	out        any
	opts       callOptions
	idempotent bool        // PUT, DELETE and the safe methods: repeating one changes nothing more
	safe       bool        // GET, HEAD, OPTIONS: the request changes nothing
	gotConn    atomic.Bool // the current attempt obtained a connection
	attempts   int
	shownPath  string // the path with secrets redacted, below the base's prefix
	secrets    []string

	class   OperationClass
	observe bool      // the limiter learns from the answers (not the data import endpoints')
	sent    time.Time // when the current attempt got its permit

	checked    *http.Response // the answer the policy last decided on
	handled    bool           // the response handler read the final answer
	result     error          // what the handler made of it: nil, or the call's error
	handlerErr error          // the handler's error, which retryablehttp asks CheckRetry about again

	// ctx and trace are set by withState. They live in the state so that
	// attaching the state to a context and tracing its connections cost no
	// allocations of their own.
	ctx   stateContext
	trace httptrace.ClientTrace
	body  io.LimitedReader // the response body, read up to maxBytes+1
}

type stateKey struct{}

// stateContext is the call's context with its state attached: what
// context.WithValue(ctx, stateKey{}, st) gives, held inside st.
type stateContext struct {
	context.Context
	st *callState
}

func (c *stateContext) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.st
	}
	return c.Context.Value(key)
}

func stateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(stateKey{}).(*callState)
	return st
}

// withState attaches st to ctx. For a method that writes it also traces
// whether an attempt obtained a connection: a request that never had one
// was certainly not received, so it may be sent again.
func (st *callState) withState(ctx context.Context) context.Context {
	st.ctx = stateContext{Context: ctx, st: st}
	ctx = &st.ctx
	if !st.safe {
		st.trace.GotConn = st.gotConnection
		ctx = httptrace.WithClientTrace(ctx, &st.trace)
	}
	return ctx
}

func (st *callState) gotConnection(httptrace.GotConnInfo) { st.gotConn.Store(true) }

// credentials is every credential the call carries, in the forms a server
// may echo them in: the Caller's, its Request's Secrets, and the Secret
// fields of its body and query. It is built on the error and log paths
// only, once.
func (st *callState) credentials() []string {
	if st.secrets == nil {
		all := make([]string, 0, 4)
		for _, s := range st.req.Secrets {
			all = append(all, string(s))
		}
		all = append(all, rest.SecretsIn(st.req.Body)...)
		all = append(all, rest.SecretsIn(st.req.Query)...)
		all = append(rest.WithEncodings(all), st.c.secrets()...)
		st.secrets = all
	}
	return st.secrets
}

// scrubber returns a function that removes every credential req carries
// from a text, as its errors are scrubbed: for texts built from a
// successful answer (a bulk import's per-entity errors).
func (c *Caller) scrubber(req *Request) func(string) string {
	st := &callState{c: c, req: req}
	return st.scrub
}

// scrub removes every credential the call carries from text.
func (st *callState) scrub(text string) string { return rest.Scrub(text, st.credentials()) }

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// newCall checks req, builds the request to send and the call's state.
func (c *Caller) newCall(ctx context.Context, req *Request, out any, opts []RequestOption) (*callState, *retryablehttp.Request, context.CancelFunc, error) {
	st := &callState{c: c, req: req, out: out, idempotent: rest.Idempotent(req.Method), safe: safe(req.Method)}
	for _, o := range opts {
		if o != nil {
			o(&st.opts)
		}
	}
	if req.OnBehalfOf != "" {
		st.opts.onBehalfOf = req.OnBehalfOf
	}
	if !rest.ValidHeader(st.opts.onBehalfOf) {
		return nil, nil, nil, newArgError("onBehalfOf", "contains a control character")
	}
	escaped, shown, ok := c.escapePath(req)
	if !ok {
		return nil, nil, nil, newArgError("path", "a path parameter is empty or a dot segment")
	}
	st.shownPath = shown
	u := c.base + escaped
	if req.Query != nil {
		var v url.Values
		switch q := req.Query.(type) {
		case url.Values:
			v = q
		default:
			var err error
			if v, err = rest.QueryValues(q); err != nil {
				return nil, nil, nil, newArgError("query", err.Error())
			}
		}
		if enc := v.Encode(); enc != "" {
			// Commas separate array values (tags=a,b). A decoded query is the
			// same with or without escaping them; sent literally, it reads as
			// the API's documentation writes it.
			u += "?" + strings.ReplaceAll(enc, "%2C", ",")
		}
	}

	var body any
	contentType := jsonHeaderValue
	if raw, ok := req.Body.(*rest.RawBody); ok && raw != nil {
		body = raw.Data
		if raw.ContentType != jsonHeaderValue[0] {
			contentType = []string{raw.ContentType}
		}
	} else if !isNil(req.Body) {
		b, err := json.Marshal(req.Body)
		if err != nil {
			return nil, nil, nil, newArgError("body", err.Error())
		}
		body = b
	}

	cancel := context.CancelFunc(func() {})
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	if c.limiter != nil || req.pace != nil {
		st.class, st.observe = classify(req.Method, escaped)
	}
	rreq, err := retryablehttp.NewRequestWithContext(st.withState(ctx), req.Method, u, body)
	if err != nil {
		cancel()
		return nil, nil, nil, newArgError("path", "does not form a valid URL")
	}
	rreq.SetResponseHandler(st.handleResponse)
	h := rreq.Header
	h["Accept"] = jsonHeaderValue
	if body != nil {
		h["Content-Type"] = contentType
	}
	h["User-Agent"] = c.userAgent
	for k, v := range c.auth() {
		h[k] = v
	}
	if st.opts.onBehalfOf != "" {
		h.Set("onBehalfOf", st.opts.onBehalfOf)
	}
	for k, vs := range st.opts.header {
		if !rest.ValidHeaderName(k) {
			cancel()
			return nil, nil, nil, newArgError("header", "name "+strconv.Quote(k)+" is not a valid header field name")
		}
		for _, v := range vs {
			if !rest.ValidHeader(v) {
				cancel()
				return nil, nil, nil, newArgError("header "+k, "contains a control character")
			}
			h.Add(k, v)
		}
	}
	if c.logger != nil && c.logger.Enabled(ctx, slog.LevelDebug) {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "chat: request",
			slog.String("method", req.Method), slog.String("path", c.basePath+st.shownPath),
			slog.Bool("onBehalfOf", st.opts.onBehalfOf != ""))
	}
	return st, rreq, cancel, nil
}

// escapePath returns req's path as sent (each segment escaped) and as
// shown (a segment equal to one of req.Secrets as REDACTED), and whether
// every segment is valid.
func (c *Caller) escapePath(req *Request) (escaped, shown string, ok bool) {
	var b strings.Builder
	n := 0
	for _, s := range req.Path {
		n += len(s) + 1
	}
	b.Grow(n + n/4)
	secret := false
	for _, s := range req.Path {
		if !rest.ValidSegment(s) {
			return "", "", false
		}
		b.WriteByte('/')
		b.WriteString(rest.EscapeSegment(s))
		for _, sec := range req.Secrets {
			secret = secret || s == string(sec)
		}
	}
	escaped = b.String()
	if !secret {
		return escaped, escaped, true
	}
	var sb strings.Builder
	for _, s := range req.Path {
		sb.WriteByte('/')
		if isSecretSegment(s, req.Secrets) {
			sb.WriteString(rest.Redacted)
		} else {
			sb.WriteString(rest.EscapeSegment(s))
		}
	}
	return escaped, sb.String(), true
}

func isSecretSegment(s string, secrets []Secret) bool {
	for _, sec := range secrets {
		if s == string(sec) {
			return true
		}
	}
	return false
}

// waitPermit waits for the permits of an attempt: the request's pace and
// the client's limiter.
func (st *callState) waitPermit(ctx context.Context) error {
	if st.req.pace != nil {
		if err := st.req.pace.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				// The pace will not wait past ctx's deadline.
				return errors.Join(ErrPaceDeadline, context.DeadlineExceeded)
			}
			return err
		}
	}
	if st.c.limiter != nil {
		if err := st.c.limiter.Wait(ctx, LimitKey{AppID: st.c.appID, Class: st.class}); err != nil {
			return err
		}
	}
	st.sent = time.Now()
	return nil
}

// ErrPaceDeadline is the cause, with [context.DeadlineExceeded], of a bulk
// import request that was not sent because its turn in the pace would come
// after the context's deadline.
var ErrPaceDeadline = errors.New("chat: the next request is not due before the context's deadline")

// handleResponse is the response handler of the call's request: it reads the
// answer that ends an attempt (one the retry policy did not retry on its
// status), decodes a 2xx into the call's out, and makes any other status
// the call's *Error. Its error asks the retry policy whether the attempt is
// worth repeating: a GET whose 2xx answer was cut short or is not JSON.
func (st *callState) handleResponse(resp *http.Response) error {
	defer resp.Body.Close()
	c := st.c
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 {
			bufPool.Put(buf)
		}
	}()
	st.body = io.LimitedReader{R: resp.Body, N: c.maxBytes + 1}
	n, readErr := buf.ReadFrom(&st.body)
	tooLarge := readErr == nil && n > c.maxBytes
	if tooLarge {
		readErr = errors.New("response body exceeds " + strconv.FormatInt(c.maxBytes, 10) + " bytes")
	}
	st.handled = true
	st.capture(resp)
	c.logDone(st, resp.StatusCode)
	body := buf.Bytes()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		st.result = st.newError(resp, body, readErr, "")
		return nil
	}
	if readErr != nil {
		st.result = st.newError(resp, nil, readErr, "reading response: "+readErr.Error())
		if !tooLarge && st.ctx.Err() == nil {
			st.handlerErr = st.result
			return st.handlerErr
		}
		return nil
	}
	if st.out == nil {
		st.result = nil
		return nil
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := rest.Unmarshal(body, st.out); err != nil {
			st.result = st.newError(resp, nil, err, "decoding response: "+err.Error())
			var syntaxErr *json.SyntaxError
			if errors.As(err, &syntaxErr) || errors.Is(err, io.ErrUnexpectedEOF) {
				st.handlerErr = st.result // a body cut short: a GET may go again
				return st.handlerErr
			}
			return nil
		}
	}
	// An operation that returns something must not pass off an answer
	// without it (an empty body, null, {}, {"data": null}, {"data": {}},
	// a list's meta without its items) as success with a zero value.
	if noData(st.out, body, st.req.emptyOK) {
		e := st.newError(resp, body, ErrEmptyResponse, "")
		if e.Code == "" {
			e.Message = "the response held no data"
		}
		if !st.safe {
			e.Message += "; the request may have been applied"
		}
		st.result = e
		return nil
	}
	st.result = nil
	return nil
}

// finish turns what the retry layer returned into the call's result.
func (st *callState) finish(c *Caller, resp *http.Response, err error) error {
	if resp != nil && !st.handled {
		resp.Body.Close() // an answer the handler did not read
	}
	if err == nil && st.handled || err != nil && err == st.handlerErr {
		return st.result
	}
	ctx := st.ctx.Context
	if err == nil {
		err = errors.New("no answer")
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return ctxErr
	}
	if st.opts.capture != nil {
		st.opts.capture.Attempts = st.attempts
	}
	var e *Error
	if errors.As(err, &e) {
		return err // a limiter's refusal built by the SDK
	}
	return redactErr(err, c.base+st.shownPath, st.credentials())
}

// capture fills the CaptureResponse target, if any, from resp.
func (st *callState) capture(resp *http.Response) {
	r := st.opts.capture
	if r == nil {
		return
	}
	*r = Response{StatusCode: resp.StatusCode, Header: resp.Header.Clone(), RequestID: resp.Header.Get("X-Request-Id"),
		RateLimit: observe(resp, st.sent, time.Now()), Attempts: st.attempts}
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

// safe reports whether a request with this method only reads.
func safe(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

func (c *Caller) logDone(st *callState, status int) {
	ctx := st.ctx.Context
	if c.logger == nil || !c.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "chat: response",
		slog.String("method", st.req.Method), slog.String("path", c.basePath+st.shownPath),
		slog.Int("status", status), slog.Int("attempts", st.attempts))
}
