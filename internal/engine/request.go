// Package engine is the request engine of the SDK, shared by packages chat,
// management and chattest: the call, its retries, the rate limiter, the
// errors, and the scrubbing of credentials from them.
//
// A call goes from a method to the wire and back through these files,
// read in this order:
//
//  1. messages_threads.go in package chat (or any service's file):
//     Messages.SendThread checks its arguments, fills a Request and calls
//     do (chat's request.go), which hands it to [Caller.Send].
//  2. request.go, this file: Caller.Send builds the HTTP request, runs
//     go-retryablehttp's loop with this call's hooks (checkRetry after
//     every attempt, permitRetry before every retry; the request's
//     context is the call, which they read), and reads the answer.
//  3. retry.go: the policy the hooks apply: which answers are sent again
//     (retryable) and how long to wait first (backoff).
//  4. errors.go: newError, the *Error an answer other than a success
//     becomes, with every credential scrubbed.
//
// What they call and that calls nothing back are leaves: internal/rest
// escapes path segments and decodes JSON leniently; internal/redact
// finds and scrubs credentials; go-querystring encodes queries.
// caller.go builds a Caller (credentials, redirect rules, transport) once
// per client; options.go holds what a client's and a call's options set;
// limiter.go paces calls within the service's budgets.
package engine

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

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/redact"
	"github.com/chatrest/chat/internal/rest"
)

// Request describes one API call: what chat.Client.Do sends. Every method
// of the SDK fills one and hands it to the same function. It holds what a
// user sets; what a bulk import adds to a call is a [CallConfig].
type Request struct {
	// Method is the HTTP method, e.g. http.MethodPost.
	Method string
	// Path is the path below the API's address (after its version
	// prefix), as segments: each is escaped on its own, so that no value
	// can add a segment, a query or a fragment. An empty, "." or ".."
	// segment is refused before anything is sent.
	Path []string
	// Query is a struct with url tags, encoded by
	// github.com/google/go-querystring (a "comma" option sends a slice as
	// a,b), or a url.Values; nil sends none.
	Query any
	// Body is sent as JSON; nil sends none.
	Body any
	// OnBehalfOf, when not empty, is sent as the onBehalfOf header: the
	// user the call acts as. It wins over the [github.com/chatrest/chat.OnBehalfOf] request option.
	OnBehalfOf string
	// Secrets are credentials the request carries where no [redact.Secret] field
	// of its Body or Query shows them, such as an auth token in its Path:
	// a path segment equal to one shows as REDACTED, and every one is
	// scrubbed from the call's error and log lines.
	Secrets []redact.Secret
}

// CallConfig is what package chat sets on a call beyond its [Request]:
// how its answer is read, and a bulk import's pace and retries. The zero
// value is a plain call.
type CallConfig struct {
	EmptyOK          bool          // an empty object is an answer (a user's contact details)
	Pace             *rate.Limiter // waited on before every attempt (a bulk import's pace)
	RateLimitRetries int           // further retries of a 429 (a bulk import's)
	Attempts         *int          // set to the number of attempts sent, when not nil
}

// ErrNoClient is returned by a method of a service that has no client to
// send through: a service value made by hand rather than taken from a
// client.
var ErrNoClient = errors.New("chat: no client: use the services of a Client made by NewClient")

// Send is the one function every request goes through: it returns nil
// with out decoded from the answer, a [*Error] for an answer that is not a
// success, an [*ArgumentError] before anything is sent, the context's
// error when it ended, or a transport error with every credential
// scrubbed from its text.
func (c *Caller) Send(ctx context.Context, req *Request, out any, opts []RequestOption) error {
	return c.SendWith(ctx, req, CallConfig{}, out, opts)
}

// SendWith is [Caller.Send] with what cfg adds to the call.
func (c *Caller) SendWith(ctx context.Context, req *Request, cfg CallConfig, out any, opts []RequestOption) error {
	if c == nil {
		return ErrNoClient
	}
	if req == nil {
		return NewArgError("req", "must not be nil")
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	cl := &call{c: c, method: req.Method, query: req.Query, reqBody: req.Body, secretArgs: req.Secrets, cfg: cfg, out: out}
	hreq, err := cl.newRequest(ctx, req, opts)
	if err != nil {
		return err
	}
	if c.debug(ctx) {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "chat: request", slog.String("method", req.Method),
			slog.String("path", c.basePath+cl.shownPath), slog.Bool("onBehalfOf", cl.opts.OnBehalfOf != ""))
	}

	// go-retryablehttp runs the attempts, with this call's hooks. Its
	// count covers every attempt: the policy's retries, and a bulk
	// import's further retries of a 429.
	cl.retrier = retryablehttp.Client{
		HTTPClient:   c.attempts,
		RetryMax:     c.retry.MaxRetries + max(cfg.RateLimitRetries, 0),
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		CheckRetry:   checkRetry,
		Backoff:      c.backoff,
		PrepareRetry: permitRetry,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	if cfg.Attempts != nil {
		defer func() { *cfg.Attempts = cl.attempts }()
	}
	// The first attempt waits for its permits here, each retry in
	// PrepareRetry.
	if err := cl.permit(ctx); err != nil {
		return cl.failed(ctx, nil, err)
	}
	resp, err := cl.retrier.Do(hreq)
	if err != nil {
		return cl.failed(ctx, resp, err)
	}
	if cl.answer != resp {
		cl.read(ctx, resp) // an answer not retried on its status, or the last of the retries
	}
	return cl.result
}

// call is one call across its attempts: what the hooks of its
// go-retryablehttp client share. It lives as long as [Caller.SendWith].
type call struct {
	c *Caller
	// What the call keeps of its Request (rather than the Request, which
	// then stays on its caller's stack): its method, and what its
	// credentials are found in.
	method         string
	query, reqBody any
	secretArgs     []redact.Secret
	cfg            CallConfig
	out            any
	opts           CallOptions

	shownPath string   // the path below the base as errors and logs show it: a secret segment as REDACTED
	key       LimitKey // the budget the call draws on, when a limiter or a pace is set
	observe   bool     // the limiter learns from the answers (not the data import endpoints')

	attempts int
	sent     time.Time      // when the current attempt got its permits
	gotConn  atomic.Bool    // the current attempt obtained a connection
	answer   *http.Response // the answer read last (checkRetry reads a success)
	result   error          // what answer made: nil (out decoded) or the call's error
	secrets  []string       // every credential the call carries; built when an error or log line needs it

	// Held here, rather than each allocated on its own, to save
	// allocations on every call.
	ctx     context.Context // the context the call's HTTP request has through the call (see call.Value)
	retrier retryablehttp.Client
	trace   httptrace.ClientTrace // for a write: whether an attempt got a connection
	body    io.LimitedReader      // the answer's body, read up to maxBytes+1
	sendBuf bytes.Buffer          // the request's body, which every attempt sends
}

// A call is the context of its HTTP request, which go-retryablehttp hands
// to the hooks: checkRetry and permitRetry find their call there, where
// a closure over it per hook would cost an allocation each on every call.
// It is the context it holds in every other respect.
func (cl *call) Deadline() (time.Time, bool) { return cl.ctx.Deadline() }
func (cl *call) Done() <-chan struct{}       { return cl.ctx.Done() }
func (cl *call) Err() error                  { return cl.ctx.Err() }
func (cl *call) Value(key any) any           { return cl.ctx.Value(key) }

// newRequest checks the request and its options and builds the HTTP
// request: the URL (each path segment escaped, the query encoded), the
// body, the headers, and for a write a trace of whether an attempt got a
// connection.
func (cl *call) newRequest(ctx context.Context, req *Request, opts []RequestOption) (*retryablehttp.Request, error) {
	c := cl.c
	for _, o := range opts {
		if o != nil {
			o(&cl.opts)
		}
	}
	if req.OnBehalfOf != "" {
		cl.opts.OnBehalfOf = req.OnBehalfOf
	}
	if !rest.ValidHeader(cl.opts.OnBehalfOf) {
		return nil, NewArgError("onBehalfOf", "contains a control character")
	}
	u, shown, ok := escapePath(c.base, req)
	if !ok {
		return nil, NewArgError("path", "a path parameter is empty or a dot segment")
	}
	escaped := u[len(c.base):]
	cl.shownPath = shown
	if req.Query != nil {
		q, err := encodeQuery(req.Query)
		if err != nil {
			return nil, NewArgError("query", err.Error())
		}
		if q != "" {
			u += "?" + q
		}
	}
	body, contentType, err := encodeBody(req.Body)
	if err != nil {
		return nil, NewArgError("body", err.Error())
	}
	if c.limiter != nil || cl.cfg.Pace != nil {
		class, observe := classify(req.Method, escaped)
		cl.key, cl.observe = LimitKey{AppID: c.appID, Class: class}, observe && c.limiter != nil
	}

	if !safe(req.Method) {
		// A write whose attempt never had a connection was not received:
		// it may go again.
		cl.trace.GotConn = cl.gotConnection
		ctx = httptrace.WithClientTrace(ctx, &cl.trace)
	}
	var rawBody any // no body: a nil interface, not a nil *bytes.Buffer
	if body != nil {
		// A *bytes.Buffer held in the call, which go-retryablehttp reads
		// for each attempt as it would a []byte, saves the allocation
		// that boxing the []byte in an interface would cost.
		cl.sendBuf = *bytes.NewBuffer(body)
		rawBody = &cl.sendBuf
	}
	// The request's context is the call itself (see call.Value): the hooks
	// find their call in it.
	cl.ctx = ctx
	hreq, err := retryablehttp.NewRequestWithContext(cl, req.Method, u, rawBody)
	if err != nil {
		return nil, NewArgError("path", "does not form a valid URL")
	}
	h := hreq.Header
	h["Accept"] = jsonHeaderValue
	if body != nil {
		h["Content-Type"] = contentType
	}
	h["User-Agent"] = c.userAgent
	for k, v := range c.auth() {
		h[k] = v
	}
	if cl.opts.OnBehalfOf != "" {
		h.Set("onBehalfOf", cl.opts.OnBehalfOf)
	}
	for k, vs := range cl.opts.Header {
		if !rest.ValidHeaderName(k) {
			return nil, NewArgError("header", "name "+strconv.Quote(k)+" is not a valid header field name")
		}
		for _, v := range vs {
			if !rest.ValidHeader(v) {
				return nil, NewArgError("header "+k, "contains a control character")
			}
			h.Add(k, v)
		}
	}
	return hreq, nil
}

func (cl *call) gotConnection(httptrace.GotConnInfo) { cl.gotConn.Store(true) }

// permit waits for the permits of an attempt: the request's pace, then the
// client's limiter.
func (cl *call) permit(ctx context.Context) error {
	if p := cl.cfg.Pace; p != nil {
		if err := p.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				// The pace will not wait past ctx's deadline.
				return errors.Join(ErrPaceDeadline, context.DeadlineExceeded)
			}
			return err
		}
	}
	if l := cl.c.limiter; l != nil {
		if err := l.Wait(ctx, cl.key); err != nil {
			return err
		}
	}
	cl.sent = time.Now()
	return nil
}

// permitRetry is go-retryablehttp's PrepareRetry hook: a retry waits for
// its permits as the first attempt did.
func permitRetry(r *http.Request) error {
	cl := r.Context().(*call)
	return cl.permit(cl)
}

// ErrPaceDeadline is the cause, with [context.DeadlineExceeded], of a bulk
// import request that was not sent because its turn in the pace would come
// after the context's deadline.
var ErrPaceDeadline = errors.New("chat: the next request is not due before the context's deadline")

// checkRetry is go-retryablehttp's CheckRetry hook; ctx is the request's
// context, its call.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return ctx.(*call).checkRetry(ctx, resp, err)
}

// checkRetry is the call's side of the CheckRetry hook, which go-retryablehttp runs
// after every attempt: it counts the attempt, lets the limiter learn from
// the answer, reads a success (whose body decides whether a read goes
// again), and asks the policy whether to send the request again.
func (cl *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	cl.attempts++
	connected := cl.gotConn.Swap(false)
	if resp != nil && cl.observe {
		cl.c.limiter.Observe(ctx, cl.key, observe(resp, cl.sent, time.Now()))
	}
	cl.logAttempt(ctx, resp, err)
	broken := false
	if err == nil && ctx.Err() == nil && success(resp.StatusCode) {
		broken = cl.read(ctx, resp)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	return cl.c.retry.retryable(ctx, cl.method, cl.attempts, resp, err, connected, broken), nil
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// read reads the answer resp, at most maxBytes of it, and makes it the
// call's result: nil with out decoded from a success, or the [*Error]. It
// reports whether a success could not be read as JSON (cut short, or not
// JSON), which a request that only reads may send again.
func (cl *call) read(ctx context.Context, resp *http.Response) (broken bool) {
	defer resp.Body.Close()
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 {
			bufPool.Put(buf)
		}
	}()
	maxBytes := cl.c.maxBytes
	cl.body = io.LimitedReader{R: resp.Body, N: maxBytes + 1}
	n, readErr := buf.ReadFrom(&cl.body)
	tooLarge := readErr == nil && n > maxBytes
	if tooLarge {
		readErr = errors.New("response body exceeds " + strconv.FormatInt(maxBytes, 10) + " bytes")
	}
	cl.answer = resp
	cl.capture(resp)
	if c := cl.c; c.debug(ctx) {
		c.logger.LogAttrs(ctx, slog.LevelDebug, "chat: response", slog.String("method", cl.method),
			slog.String("path", c.basePath+cl.shownPath), slog.Int("status", resp.StatusCode), slog.Int("attempts", cl.attempts))
	}
	body := buf.Bytes()

	switch {
	case !success(resp.StatusCode):
		cl.result = cl.newError(resp, body, readErr, "")
		return false
	case readErr != nil:
		cl.result = cl.newError(resp, nil, readErr, "reading response: "+readErr.Error())
		return !tooLarge
	case cl.out == nil:
		cl.result = nil
		return false
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := rest.Unmarshal(body, cl.out); err != nil {
			cl.result = cl.newError(resp, nil, err, "decoding response: "+err.Error())
			var syntaxErr *json.SyntaxError
			return errors.As(err, &syntaxErr) || errors.Is(err, io.ErrUnexpectedEOF)
		}
	}
	// An operation that returns something must not pass off an answer
	// without it (an empty body, null, {}, {"data": null}, {"data": {}},
	// a list's meta without its items) as success with a zero value.
	if noData(cl.out, body, cl.cfg.EmptyOK) {
		e := cl.newError(resp, body, ErrEmptyResponse, "")
		if e.Code == "" {
			e.Message = "the response held no data"
		}
		if !safe(cl.method) {
			e.Message += "; the request may have been applied"
		}
		cl.result = e
		return false
	}
	cl.result = nil
	return false
}

// failed is the call's result when go-retryablehttp returned an error (the
// context ended, a permit was refused, the last attempt got no answer) or
// the first permit was refused.
func (cl *call) failed(ctx context.Context, resp *http.Response, err error) error {
	if resp != nil && resp != cl.answer {
		resp.Body.Close() // an answer no one read
	}
	if r := cl.opts.Capture; r != nil {
		r.Attempts = cl.attempts
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return ctxErr
	}
	var e *Error
	if errors.As(err, &e) {
		return err // a limiter's refusal, built as an *Error
	}
	return redactErr(err, cl.c.base+cl.shownPath, cl.credentials())
}

// capture fills the CaptureResponse target, if any, from resp.
func (cl *call) capture(resp *http.Response) {
	if r := cl.opts.Capture; r != nil {
		*r = Response{StatusCode: resp.StatusCode, Header: resp.Header.Clone(), RequestID: resp.Header.Get("X-Request-Id"),
			RateLimit: observe(resp, cl.sent, time.Now()), Attempts: cl.attempts}
	}
}

// credentials is every credential the call carries, in the forms a server
// may echo them in: the caller's, the Request's Secrets, and the Secret
// fields of its body and query. It is built on the error and log paths
// only, once.
func (cl *call) credentials() []string {
	if cl.secrets == nil {
		all := make([]string, 0, 4)
		for _, s := range cl.secretArgs {
			all = append(all, string(s))
		}
		all = append(all, redact.SecretsIn(cl.reqBody)...)
		all = append(all, redact.SecretsIn(cl.query)...)
		cl.secrets = append(redact.WithEncodings(all), cl.c.secrets()...)
	}
	return cl.secrets
}

// scrub removes every credential the call carries from text.
func (cl *call) scrub(text string) string { return redact.Scrub(text, cl.credentials()) }

// Scrubber returns a function that removes every credential req carries
// from a text, as its errors are scrubbed: for texts built from a
// successful answer (a bulk import's per-entity errors).
func (c *Caller) Scrubber(req *Request) func(string) string {
	cl := &call{c: c, method: req.Method, query: req.Query, reqBody: req.Body, secretArgs: req.Secrets}
	return cl.scrub
}

// debug reports whether the caller logs debug lines for ctx: one per
// request, attempt and answer read.
func (c *Caller) debug(ctx context.Context) bool {
	return c.logger != nil && c.logger.Enabled(ctx, slog.LevelDebug)
}

// logAttempt logs how an attempt ended: its status, or its error.
func (cl *call) logAttempt(ctx context.Context, resp *http.Response, err error) {
	c := cl.c
	if !c.debug(ctx) {
		return
	}
	outcome := slog.Attr{}
	if err != nil {
		outcome = slog.String("error", redactErr(err, c.base+cl.shownPath, cl.credentials()).Error())
	} else {
		outcome = slog.Int("status", resp.StatusCode)
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "chat: attempt", slog.String("method", cl.method),
		slog.String("path", c.basePath+cl.shownPath), slog.Int("attempt", cl.attempts), outcome)
}

// escapePath returns base followed by req's path as sent (each segment
// escaped), the path as shown (a segment equal to one of req.Secrets as
// REDACTED), and whether every segment is valid.
func escapePath(base string, req *Request) (u, shown string, ok bool) {
	var b strings.Builder
	n := len(base)
	for _, s := range req.Path {
		n += len(s) + 1
	}
	b.Grow(n + n/4)
	b.WriteString(base)
	secret := false
	for _, s := range req.Path {
		if !rest.ValidSegment(s) {
			return "", "", false
		}
		b.WriteByte('/')
		b.WriteString(rest.EscapeSegment(s))
		secret = secret || isSecretSegment(s, req.Secrets)
	}
	u = b.String()
	if !secret {
		return u, u[len(base):], true
	}
	var sb strings.Builder
	for _, s := range req.Path {
		sb.WriteByte('/')
		if isSecretSegment(s, req.Secrets) {
			sb.WriteString(redact.Redacted)
		} else {
			sb.WriteString(rest.EscapeSegment(s))
		}
	}
	return u, sb.String(), true
}

func isSecretSegment(s string, secrets []redact.Secret) bool {
	for _, sec := range secrets {
		if s == string(sec) {
			return true
		}
	}
	return false
}

// encodeQuery encodes q, a url.Values or a struct with url tags, as a
// query string. Commas separate array values (tags=a,b): a decoded query
// is the same with or without escaping them, and sent literally it reads
// as the API's documentation writes it.
func encodeQuery(q any) (string, error) {
	v, ok := q.(url.Values)
	if !ok {
		var err error
		if v, err = query.Values(q); err != nil {
			return "", err
		}
	}
	return strings.ReplaceAll(v.Encode(), "%2C", ","), nil
}

// encodeBody returns the bytes a request sends for body and their
// Content-Type: body's JSON, or a RawBody's bytes as they are; nil for no
// body. The same bytes go with every attempt.
func encodeBody(body any) ([]byte, []string, error) {
	if raw, ok := body.(*rest.RawBody); ok && raw != nil {
		if raw.ContentType != jsonHeaderValue[0] {
			return raw.Data, []string{raw.ContentType}, nil
		}
		return raw.Data, jsonHeaderValue, nil
	}
	if isNil(body) {
		return nil, nil, nil
	}
	b, err := json.Marshal(body)
	return b, jsonHeaderValue, err
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

// success reports whether status is a 2xx.
func success(status int) bool { return status >= 200 && status <= 299 }
