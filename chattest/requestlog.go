package chattest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Redacted replaces every credential in the request log: API keys, auth
// tokens, the client API's jwts, push tokens, passwords and providers'
// credentials, and the values of the credential headers (see [Request]).
const Redacted = "REDACTED"

// maxLoggedRequests is how many requests the log keeps, the most recent.
const maxLoggedRequests = 10000

// Request is one request as the server received it, for tests to assert
// what was sent: see [Server.Requests]. It never holds a credential, so
// printing a Request, or the log as JSON, shows no secret. These read
// [Redacted]:
//
//   - the values of the credential headers, whole: apikey, key, secret,
//     Authorization, Proxy-Authorization, Cookie, and those named as the
//     fields below are (authToken, X-Auth-Token, X-Api-Key, ...);
//   - by name, the path segments of {apiKey}, {authToken} and {pushToken},
//     and the query parameters, JSON body fields (at any depth) and
//     multipart or URL-encoded form fields whose name ends, in any letter
//     case and ignoring "_" and "-", with password, token, secret,
//     secretKey, apiKey, apiVideoKey, privateKey, p8Key, authKey,
//     accessKey, appKey, certificate or jwt: the passwords of webhooks,
//     tenants and groups, the providers' credentials (basicAuthPassword,
//     private_key, p8Key, twilioAuthToken, sendGridApiKey, ...), push tokens
//     (fcmToken, deviceToken, voipToken), uploaded certificates and the
//     client API's jwts;
//   - by value, wherever it appears (path, query, headers, body, escaped or
//     not), every API key, auth token and jwt the server has held or issued,
//     and the credentials the request itself carries in the places above,
//     when at least 4 characters long (a shorter value is redacted only
//     where its name says it is a credential, so that a password "p" does
//     not wipe every "p" of the log).
//
// A body with a field redacted by name is shown re-encoded: JSON with its
// object keys sorted.
type Request struct {
	// Time is the server's clock ([WithClock]) when the request arrived.
	Time time.Time
	// Method is the request method, e.g. "POST".
	Method string
	// Path is the path as received, escaped, e.g. "/v3/users/a%2Fb".
	Path string
	// Route is the pattern of the route that served the request, e.g.
	// "POST /v3/messages/{id}/thread"; empty when no route matched (the
	// answer was 404 ERR_API_NOT_FOUND).
	Route string
	// Query is the decoded query string.
	Query url.Values
	// Header holds the request's headers.
	Header http.Header
	// Body is the request body.
	Body string
	// Status is the status answered; 0 when nothing was answered: the
	// connection was dropped ([FaultDropBefore], [FaultDropAfter]), or the
	// client left or the server closed during a [Fault.Delay] (or, for a
	// moment, while the request is in progress).
	Status int
	// Fault is the fault applied to the request; the zero Fault when none
	// was.
	Fault Fault
}

// credentialHeaders are the headers whose values are redacted whole,
// besides those whose name says they hold a credential (see
// credentialHeader).
var credentialHeaders = []string{"Apikey", "Key", "Secret", "Authorization", "Proxy-Authorization", "Cookie"}

// credentialHeader reports whether the values of the header name (in
// canonical form) are credentials: one of credentialHeaders, or a name
// such as X-Auth-Token or X-Api-Key that secretField recognizes.
func credentialHeader(name string) bool {
	return slices.Contains(credentialHeaders, name) || secretField(name)
}

// secretWildcards are the path wildcards whose values are credentials.
var secretWildcards = []string{"apiKey", "authToken", "pushToken"}

// secretFieldSuffixes end the normalized names (see secretField) of the
// fields, form fields and query parameters that hold a credential.
var secretFieldSuffixes = []string{
	"password",    // webhooks, tenants, groups; basicAuthPassword, webhookPassword
	"token",       // authToken, fcmToken, deviceToken, voipToken, pushToken, twilioAuthToken, bitlyAccessToken, ...
	"secret",      // the management secret
	"secretkey",   // scaniiSecretKey
	"apikey",      // apiKey, sendGridApiKey, giphyApiKey, revaiAPIKey, ...
	"apivideokey", // the broadcast extension's key
	"privatekey",  // FCM service accounts' private_key
	"p8key",       // APNs providers' p8Key
	"authkey",     // a tenant app's authKey
	"accesskey",   // an app's accessKey
	"appkey",      // the E2EE extension's virgilAppKey
	"certificate", // APNs p12 and p8 certificate uploads
	"jwt",         // the client API's websocket credential
}

// minSecretLen is the length below which a value is not redacted wherever
// it appears, only where its name says it is a credential: scrubbing a
// one-letter password from every string would wipe that letter.
const minSecretLen = 4

// secretField reports whether a field, form field or query parameter named
// name holds a credential: its name, lower-cased and without "_" and "-",
// ends with one of secretFieldSuffixes. "withAuthToken" qualifies too, but
// only string and number values are redacted, and its value is a bool.
func secretField(name string) bool {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf { // lower-casing may make ASCII of it (K, the Kelvin sign, is k)
			name = strings.ToLower(name)
			break
		}
	}
	for _, suffix := range secretFieldSuffixes {
		if hasNormalizedSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// hasNormalizedSuffix reports whether name, its ASCII letters lower-cased
// and without "_" and "-", ends with suffix (lower-case ASCII).
func hasNormalizedSuffix(name, suffix string) bool {
	i := len(name)
	for j := len(suffix) - 1; j >= 0; j-- {
		for i > 0 && (name[i-1] == '_' || name[i-1] == '-') {
			i--
		}
		if i == 0 {
			return false
		}
		c := name[i-1]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[j] {
			return false
		}
		i--
	}
	return true
}

// requestLog records the requests. It is guarded by the state's lock.
type requestLog struct {
	entries []*Request     // the most recent, at most 2*maxLoggedRequests
	counts  map[string]int // requests by route pattern; "" for none
	total   int
	arrived chan struct{} // closed, and replaced, when a request arrives
	changed chan struct{} // closed, and replaced, when a request arrives or is answered: the dashboard's feed

	known   sync.Map    // every credential the server has held or issued (string: true), read without the lock
	secrets secretIndex // known, with their escaped forms

	// keysLearned is the state's apiKeySeq when its keys were last
	// learned: keys seeded with Server.AddAPIKey are learned when the
	// next request arrives.
	keysLearned int64
}

func (l *requestLog) init() {
	l.counts = map[string]int{}
	l.arrived = make(chan struct{})
	l.changed = make(chan struct{})
}

// touch wakes the dashboard's live pages: a request arrived, or the state
// changed as one was served.
func (l *requestLog) touch() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// learn adds a credential to those never logged, for good: a key or token
// stays secret after it is deleted.
func (l *requestLog) learn(secret string) {
	if _, ok := l.known.Load(secret); ok || secret == "" {
		return
	}
	l.secrets.add(forms(secret))
	l.known.Store(secret, true) // after secrets, which then hold it
}

// learnFrom learns the credentials an answer body issues or shows.
func (l *requestLog) learnFrom(out []byte) {
	if bytes.Contains(out, []byte(`"authToken"`)) || bytes.Contains(out, []byte(`"apiKey"`)) || bytes.Contains(out, []byte(`"jwt"`)) {
		jsonSecrets(out, l.learn)
	}
}

// jsonSecrets calls add with the string value of every apiKey, authToken
// and jwt field (in any letter case, at any depth) of the JSON document b.
func jsonSecrets(b []byte, add func(string)) {
	if len(b) == 0 {
		return
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && (strings.EqualFold(k, "apiKey") || strings.EqualFold(k, "authToken") || strings.EqualFold(k, "jwt")) {
					add(s)
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
}

// forms returns secret as it may appear in a request: as it is, escaped in
// a path or a query, and escaped in a JSON string.
func forms(secret string) []string {
	j, _ := json.Marshal(secret) // a string always encodes
	out := []string{secret, url.PathEscape(secret), url.QueryEscape(secret), string(j[1 : len(j)-1])}
	slices.Sort(out)
	return slices.Compact(out)
}

// secretIndex holds the credentials the server knows, in every form they
// may take, so that scrubbing a text finds them in one pass however many
// there are: by the first minSecretLen bytes of each, once there are more
// than a few (tokens of many users). It is safe for concurrent use.
type secretIndex struct {
	learned atomic.Int64 // how many secrets were added: a scrub with fewer may have missed one

	mu       sync.RWMutex
	all      []string            // at least minSecretLen long
	byPrefix map[string][]string // all, by their first minSecretLen bytes
}

// linearSecrets is how many secrets a text is searched for one by one;
// beyond, it is searched by prefix.
const linearSecrets = 64

func (x *secretIndex) add(secrets []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.byPrefix == nil {
		x.byPrefix = map[string][]string{}
	}
	for _, s := range secrets {
		if len(s) >= minSecretLen {
			x.all = append(x.all, s)
			x.byPrefix[s[:minSecretLen]] = append(x.byPrefix[s[:minSecretLen]], s)
		}
	}
	x.learned.Add(int64(len(secrets)))
}

// find appends to found the secrets that occur in v.
func (x *secretIndex) find(v string, found []string) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(x.all) <= linearSecrets {
		for _, s := range x.all {
			if strings.Contains(v, s) {
				found = append(found, s)
			}
		}
		return found
	}
	for i := 0; i+minSecretLen <= len(v); i++ {
		for _, s := range x.byPrefix[v[i:i+minSecretLen]] {
			if strings.HasPrefix(v[i:], s) && !slices.Contains(found, s) {
				found = append(found, s)
			}
		}
	}
	return found
}

// scrubber replaces secrets in text: those of a request (mine) and those
// the server knows.
type scrubber struct {
	mine  []string
	known *secretIndex
}

// scrub replaces every secret found in v by Redacted, longest first, so that
// a secret inside another cannot leave a part of the longer one. Secrets
// shorter than minSecretLen are left alone.
func (s scrubber) scrub(v string) string {
	var found []string
	for _, secret := range s.mine {
		if len(secret) >= minSecretLen && strings.Contains(v, secret) {
			found = append(found, secret)
		}
	}
	found = s.known.find(v, found)
	slices.SortFunc(found, func(a, b string) int { return len(b) - len(a) })
	for _, secret := range found {
		v = strings.ReplaceAll(v, secret, Redacted)
	}
	return v
}

// scrubPath scrubs an escaped path. When its decoded form still shows a
// secret (escaped in a way of its own, e.g. "%6B" for "k"), the path is
// shown decoded, scrubbed and escaped again.
func (s scrubber) scrubPath(escaped string) string {
	out := s.scrub(escaped)
	if dec, err := url.PathUnescape(out); err == nil && s.scrub(dec) != dec {
		return (&url.URL{Path: s.scrub(dec)}).EscapedPath()
	}
	return out
}

// scrubBody scrubs a body of the content type ct: by name the fields of a
// JSON, multipart or URL-encoded form body that hold a credential, and by
// value the secrets of s anywhere. When a JSON body's strings, decoded,
// still show a secret (escaped in a way of its own, e.g. "\/" for "/"), or
// a field was redacted by name, the body is shown decoded, scrubbed and
// encoded again.
func (s scrubber) scrubBody(body, ct string) string {
	if body == "" {
		return ""
	}
	mt, params, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "multipart/form-data" && params["boundary"] != "":
		return s.scrub(redactMultipart(body, params["boundary"]))
	case mt == "application/x-www-form-urlencoded":
		return s.scrub(redactForm(body))
	}
	out := s.scrub(body)
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return out
	}
	changed := false
	var walk func(v any, secret bool) any
	walk = func(v any, secret bool) any {
		switch v := v.(type) {
		case string:
			if secret && v != "" {
				changed = true
				return Redacted
			}
			if c := s.scrub(v); c != v {
				changed = true
				return c
			}
		case json.Number:
			if secret {
				changed = true
				return Redacted
			}
		case []any:
			for i, e := range v {
				v[i] = walk(e, secret)
			}
		case map[string]any:
			m := make(map[string]any, len(v))
			for k, e := range v {
				m[walk(k, false).(string)] = walk(e, secretField(k))
			}
			return m
		}
		return v
	}
	v = walk(v, false)
	if !changed {
		return out
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return Redacted // unreachable: decoded JSON encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// redactMultipart replaces the content of each part of a multipart body
// whose form name holds a credential, keeping everything else as sent. A
// body it cannot read is returned as it is.
func redactMultipart(body, boundary string) string {
	delim := "\r\n--" + boundary
	parts := strings.Split("\r\n"+body, delim)
	for i := 1; i < len(parts); i++ {
		p := parts[i]
		if strings.HasPrefix(p, "--") {
			break // the closing delimiter: the rest is the epilogue
		}
		// The delimiter's line ends (after optional padding), then come
		// the part's headers, an empty line and the content.
		start, end := strings.Index(p, "\r\n"), strings.Index(p, "\r\n\r\n")
		if start < 0 || end < 0 {
			continue
		}
		hdr, err := textproto.NewReader(bufio.NewReader(strings.NewReader(p[start+2 : end+4]))).ReadMIMEHeader()
		if err != nil && !errors.Is(err, io.EOF) {
			continue
		}
		_, disp, err := mime.ParseMediaType(hdr.Get("Content-Disposition"))
		if err == nil && secretField(disp["name"]) && len(p) > end+4 {
			parts[i] = p[:end+4] + Redacted
		}
	}
	return strings.TrimPrefix(strings.Join(parts, delim), "\r\n")
}

// redactForm replaces the values of the fields of a URL-encoded form body
// that hold a credential, keeping the fields in their order.
func redactForm(body string) string {
	fields := strings.Split(body, "&")
	for i, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if name, err := url.QueryUnescape(k); ok && v != "" && err == nil && secretField(name) {
			fields[i] = k + "=" + Redacted
		}
	}
	return strings.Join(fields, "&")
}

// exchange is a request in progress: its log entry, which the handler
// completes under the state's lock, and the fault that applies to it.
type exchange struct {
	pattern string
	r       *http.Request
	body    []byte
	mine    []string // the credentials the request carries that the server did not know
	learned int64    // how many credentials the server had learned when entry was scrubbed
	entry   *Request
	fault   Fault
}

// arrive prepares the log entry of a request of the route pattern, with
// every credential redacted; record then records it. The work is done
// before taking the state's lock, with the credentials the server knows
// by then.
func (h *Handler) arrive(pattern string, r *http.Request, body []byte) *exchange {
	x := &exchange{pattern: pattern, r: r, body: body}
	// The credentials this request carries that the server does not
	// know (the log's snapshot, loaded after, has those it knows).
	add := func(s string) {
		if _, known := h.log.known.Load(s); !known && len(s) >= minSecretLen {
			x.mine = append(x.mine, forms(s)...)
		}
	}
	for name, vs := range r.Header {
		if !credentialHeader(name) {
			continue
		}
		for _, v := range vs {
			add(v)
			if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer <token>"
				add(strings.TrimSpace(cred))
			}
		}
	}
	for _, name := range secretWildcards {
		add(r.PathValue(name))
	}
	jsonSecrets(body, add)
	x.learned = h.log.secrets.learned.Load()
	x.entry = logEntry(pattern, r, body, scrubber{x.mine, &h.log.secrets})
	return x
}

// record records x's request in the log, scrubbing it again in the rare
// case that the server learned a credential since arrive, and takes the
// fault that applies to it. It runs with st.mu held.
func (h *Handler) record(x *exchange) {
	st := h.st
	if st.apiKeySeq != h.log.keysLearned {
		for key := range st.apiKeys {
			h.log.learn(key)
		}
		h.log.keysLearned = st.apiKeySeq
	}
	if h.log.secrets.learned.Load() != x.learned {
		x.entry = logEntry(x.pattern, x.r, x.body, scrubber{x.mine, &h.log.secrets})
	}
	x.entry.Time, x.entry.Fault = st.clock(), h.takeFault(x.pattern)
	x.fault = x.entry.Fault
	h.log.add(x.entry)
}

// logEntry is the log entry of a request of the route pattern, with the
// secrets of sc redacted, and the credentials named as such (see
// [Request]).
func logEntry(pattern string, r *http.Request, body []byte, sc scrubber) *Request {
	e := &Request{
		Method: r.Method,
		Path:   sc.scrubPath(redactPath(r.URL.EscapedPath(), pattern)),
		Route:  pattern,
		Query:  url.Values{},
		Header: r.Header.Clone(),
		Body:   sc.scrubBody(string(body), r.Header.Get("Content-Type")),
	}
	for k, vs := range r.URL.Query() {
		for _, v := range vs {
			if secretField(k) && v != "" {
				v = Redacted
			}
			e.Query.Add(sc.scrub(k), sc.scrub(v))
		}
	}
	for k, vs := range e.Header {
		for i, v := range vs {
			vs[i] = sc.scrub(v)
			if credentialHeader(k) {
				vs[i] = Redacted
			}
		}
	}
	return e
}

// redactPath replaces the segments of path that the route pattern names
// with one of secretWildcards ({apiKey}, {authToken}, {pushToken}), however
// they are escaped.
func redactPath(path, pattern string) string {
	_, pat, _ := strings.Cut(pattern, " ")
	named := false
	for _, w := range secretWildcards {
		if strings.Contains(pat, "{"+w+"}") {
			named = true
		}
	}
	if !named {
		return path
	}
	pats, segs := strings.Split(pat, "/"), strings.Split(path, "/")
	if len(pats) != len(segs) {
		return path // unreachable: the route matched the path
	}
	for i, p := range pats {
		if w, ok := strings.CutPrefix(p, "{"); ok && slices.Contains(secretWildcards, strings.TrimSuffix(w, "}")) {
			segs[i] = Redacted
		}
	}
	return strings.Join(segs, "/")
}

// add appends e, keeping the most recent maxLoggedRequests, counts it and
// wakes AwaitRequests.
func (l *requestLog) add(e *Request) {
	if len(l.entries) >= 2*maxLoggedRequests {
		l.entries = slices.Clone(l.entries[len(l.entries)-maxLoggedRequests+1:])
	}
	l.entries = append(l.entries, e)
	l.counts[e.Route]++
	l.total++
	close(l.arrived)
	l.arrived = make(chan struct{})
	l.touch()
}

// count returns how many requests of route ("*": all) arrived.
func (l *requestLog) count(route string) int {
	if route == "*" {
		return l.total
	}
	return l.counts[route]
}

// Requests returns the requests the server received since it started or
// since [Server.ResetRequests], oldest first: the most recent 10000 of them.
// The copies share nothing with the server. Credentials are redacted (see
// [Request]).
func (s *Server) Requests() []Request {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	entries := s.h.log.entries
	entries = entries[max(len(entries)-maxLoggedRequests, 0):]
	out := make([]Request, len(entries))
	for i, e := range entries {
		out[i] = *e
		out[i].Header = e.Header.Clone()
		out[i].Query = url.Values(http.Header(e.Query).Clone())
	}
	return out
}

// ResetRequests empties the request log and sets the counts of
// [Server.RequestCount] to zero.
func (s *Server) ResetRequests() {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	l := &s.h.log
	l.entries, l.counts, l.total = nil, map[string]int{}, 0
}

// RequestCount returns how many requests of route arrived since the server
// started or since [Server.ResetRequests], each attempt of a retried call
// counted. route is a pattern the server registers, method included
// ("POST /v3/messages"), or "*" for every request; any other route has
// no requests and counts 0. Unlike [Server.Requests], the count has no
// limit.
func (s *Server) RequestCount(route string) int {
	route, err := s.h.route(route)
	if err != nil {
		return 0
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	return s.h.log.count(route)
}

// AwaitRequests waits until [Server.RequestCount] of route reaches n, e.g.
// for the request that a goroutine under test sends, and returns nil; or
// until ctx ends or the server closes, and returns an error. A request
// counts as soon as it arrives, before it is served. A route the server
// does not register is an error.
func (s *Server) AwaitRequests(ctx context.Context, route string, n int) error {
	route, err := s.h.route(route)
	if err != nil {
		return fmt.Errorf("chattest: AwaitRequests: %w", err)
	}
	st := s.st
	for {
		st.mu.Lock()
		count, arrived := s.h.log.count(route), s.h.log.arrived
		st.mu.Unlock()
		if count >= n {
			return nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return ctx.Err()
		case <-s.h.closing:
			return errors.New("chattest: AwaitRequests: the server closed")
		}
	}
}
