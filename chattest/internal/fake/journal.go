package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The state lives in memory. A journal keeps, beside it, every change the
// state went through since its last snapshot, in order (WithStore): the requests the
// API served that changed it, and the calls of the seeding methods, each
// at the server's time. Replaying the changes through the same code at the
// same times rebuilds the same state, every id included: ids derive from
// the app id and counters, never from chance. Credentials are drawn by
// chance (credentials.go): a change records those it issued, and its
// replay issues them again. That covers everything the fake serves
// without a format per kind of record, and a change made by any route is
// kept as soon as the route exists.
//
// A change is journaled when the route's handler ran (the request passed
// the rate limit and authentication) and answered success: every method
// but GET, and a GET that brought lazily kept state up to date (st.lazy),
// such as the notification log. A request answered with an error changed
// nothing but, at most, that lazily kept state, which is journaled as a
// call of "sync". Whatever a request carried, its change replays: a body
// is kept as JSON when encoding/json reads it back within its depth limit
// (maxKeptDepth), else as text or base64, and a request whose query or
// journaled headers are not UTF-8 is refused before it is served
// (unjournalable).

// The versions of the state file and of a store's records.
const (
	// ChangesFormat is the version of a store's records (changes, and
	// snapshots of the state since the release after 81b49ab), and of the
	// state files of the changes that releases up to 81b49ab wrote, which
	// are still read.
	ChangesFormat = 1
	// stateFormat is the version of the state file that holds the state
	// itself, as Export writes it (snapshot.go).
	stateFormat = 2
)

// change is one change of the state, as the journal keeps it and the state
// file shows it: a request the API served, or a call of a seeding method.
type change struct {
	// At is the server's time when the change happened.
	At time.Time `json:"at"`

	// A request: its method, escaped path and query, the onBehalfOf
	// header (for the client API, /v3.0, the user whose auth token sent
	// it), the API key that sent it by creation order (1 is the server's
	// own; 0 for the management and client APIs, whose credentials are
	// the server's and the user's), the headers a handler reads
	// (journaledHeaders), the body (JSON as it is, else as text or
	// base64), and the status answered, which a replay must answer too.
	Method     string            `json:"method,omitempty"`
	Path       string            `json:"path,omitempty"`
	OnBehalfOf string            `json:"onBehalfOf,omitempty"`
	Key        int64             `json:"key,omitempty"`
	Header     map[string]string `json:"header,omitempty"`
	Body       json.RawMessage   `json:"body,omitempty"`
	Text       string            `json:"text,omitempty"`
	Base64     []byte            `json:"base64,omitempty"`
	Status     int               `json:"status,omitempty"`

	// A change made outside a request (seed_ops.go): a call of a seeding
	// method, or an event of the client API's websocket (realtime.go),
	// by name, and its arguments.
	Seed string          `json:"seed,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`

	// The credentials the change issued (auth tokens, API keys), in the
	// order it issued them, which its replay issues again
	// (credentials.go).
	Issued []string `json:"issued,omitempty"`
}

// journaledHeaders are the request headers that handlers read, besides
// onBehalfOf and the credentials, which a change keeps apart.
var journaledHeaders = []string{"Content-Type", "X-Webhook-Version"}

// requestChange is the change a request served at at makes.
func requestChange(st *state, r *http.Request, body []byte, res served, at time.Time) change {
	ch := change{At: at, Method: r.Method, Path: r.URL.EscapedPath(), OnBehalfOf: r.Header.Get("onBehalfOf"), Status: res.status}
	if res.client != "" {
		ch.OnBehalfOf = res.client
	}
	if r.URL.RawQuery != "" {
		ch.Path += "?" + r.URL.RawQuery
	}
	if k := st.apiKeys[res.apiKey]; k != nil {
		ch.Key = k.seq
	}
	for _, name := range journaledHeaders {
		if v := r.Header.Get(name); v != "" {
			if ch.Header == nil {
				ch.Header = map[string]string{}
			}
			ch.Header[name] = v
		}
	}
	switch {
	case len(body) == 0:
	case keptAsJSON(body):
		ch.Body = body
	case utf8.Valid(body):
		ch.Text = string(body)
	default:
		ch.Base64 = body
	}
	return ch
}

// maxKeptDepth bounds the nesting of a body kept as JSON in a change
// (deeper, it is kept as text): a change nests its body one level deeper,
// and a state file three, and encoding/json reads 10,000 levels at most.
const maxKeptDepth = 1000

// keptAsJSON reports whether a change keeps the body b as JSON: b is a
// JSON document, compact (it has no insignificant space, so that it is
// kept byte for byte as a JSON value of the journal), whose arrays and
// objects nest maxKeptDepth deep at most.
func keptAsJSON(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxKeptDepth {
				return false
			}
		case c == ']' || c == '}':
			depth--
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false // outside a string, in a valid document: insignificant
		}
	}
	return true
}

// body is the request body the change keeps.
func (ch *change) body() []byte {
	switch {
	case ch.Body != nil:
		return ch.Body
	case ch.Text != "":
		return []byte(ch.Text)
	}
	return ch.Base64
}

// encode is the change as the journal keeps it: one line of JSON.
func (ch *change) encode() []byte {
	e := changeEncoders.Get().(*changeEncoder)
	e.buf.Reset()
	if err := e.enc.Encode(ch); err != nil {
		// Unreachable: the fields are strings, numbers, a map of strings
		// and valid JSON.
		panic("chattest: unreachable: encoding a change: " + err.Error())
	}
	b := bytes.Clone(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	if e.buf.Cap() <= 64<<10 { // a buffer grown by a large body is let go
		changeEncoders.Put(e)
	}
	return b
}

// changeEncoder encodes changes into its buffer, which encodings reuse.
type changeEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var changeEncoders = sync.Pool{New: func() any {
	e := new(changeEncoder)
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// lazyParts are parts of the state kept up to date lazily, by the request
// or call that next needs them: a read that brings one up to date changes
// the state, and is journaled.
type lazyParts uint8

const (
	lazyNotifications lazyParts = 1 << iota // the notification log (notifSync)
	lazyModeration                          // the dates of the built-in moderation rules (stampModeration)
	lazyRoles                               // the date of the default role (stampDefaults)
)

// keep journals the request r that serve served, if it changed the
// state, and returns what waits until it is written; it is called with
// st.mu held. A request answered with an error changed nothing (a handler
// refuses before it changes the state) but the lazily kept parts it may
// have brought up to date: those are journaled as a call of "sync", which
// replays them, and the request is not. A read, which changes nothing,
// waits until the changes it may show are written, so that a crash loses
// nothing a client was shown, and so does a request answered with an
// error. Without a journal, or for a request refused before its handler
// ran, it returns a wait that returns nil at once.
func (h *Core) keep(rt route, r *http.Request, body []byte, res served) (wait func() error) {
	st := h.st
	issued := st.issuer.take()
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	if res.ran && rt.pattern != "" && (res.status < http.StatusBadRequest && !read || st.lazy != 0) {
		st.lastAt = res.now
	}
	if st.journal == nil || !res.ran || rt.pattern == "" {
		return noWait
	}
	var ch change
	switch {
	case res.status >= http.StatusBadRequest && st.lazy != 0:
		args, _ := json.Marshal(syncArgs{Parts: st.lazy}) // a number always encodes
		ch = change{At: res.now, Seed: "sync", Args: args}
	case res.status >= http.StatusBadRequest, read && st.lazy == 0:
		return func() error {
			_ = st.journal.Sync() // a journal that failed takes no change since: the answer is served
			return nil
		}
	default:
		ch = requestChange(st, r, body, res, res.now)
		ch.Issued = issued
	}
	seq := st.journal.Add(ch.encode())
	return func() error { return st.journal.Wait(seq) }
}

// unjournalable returns the error that refuses the request r before it
// is served when the journal could not keep it as it came: a query or a
// header that a handler reads (journaledHeaders, onBehalfOf) and that is
// not UTF-8, which a change, JSON, cannot hold byte for byte. Without a
// journal it returns nil.
func (st *state) unjournalable(r *http.Request) *apiError {
	if st.journal == nil {
		return nil
	}
	bad := map[string][]string{}
	if !utf8.ValidString(r.URL.RawQuery) {
		bad["query"] = []string{"The query string must be UTF-8."}
	}
	for _, name := range append([]string{"onBehalfOf"}, journaledHeaders...) {
		if v := r.Header.Get(name); !utf8.ValidString(v) {
			bad[name] = []string{"The " + name + " header must be UTF-8."}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return validationError(bad)
}

func noWait() error { return nil }

// errNotSaved answers a request whose change the journal could not write.
func errNotSaved(err error) *apiError {
	return newAPIError(http.StatusInternalServerError, codeException,
		"The change was made in memory but could not be kept in the server's store, which takes no change since.", err.Error())
}

// answerError is the status and body of an error answer.
func answerError(ae *apiError) (int, []byte) {
	out, _ := json.Marshal(errorEnvelope{ae}) // an apiError always encodes
	return ae.Status, out
}

// replayer replays the changes of a journal or a state file, in order, on
// a handler whose state holds nothing else yet.
type replayer struct {
	h   *Core
	mux *http.ServeMux
	ch  *change // the change being replayed
	res served  // what serving its request did
	hit bool    // its request matched a route

	online       map[string]bool // the users whose last presence change replayed brought them online
	legacyTokens int64           // the auth tokens minted by changes that record none: legacyCredential
	last         time.Time       // the time of the last change replayed
}

func (h *Core) newReplayer() *replayer {
	rp := &replayer{h: h, mux: http.NewServeMux(), online: map[string]bool{}}
	for _, rt := range append(allRoutes(), allMgmtRoutes()...) {
		rp.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { rp.serve(rt, r) })
	}
	return rp
}

// replay applies changes to the state, each at its time: requests through
// their routes, with the credentials they were sent with, and seeding
// calls through their methods. Nothing is rate limited, logged or
// delivered to webhooks. A request answered otherwise than the change
// says is an error: the state would not be the one journaled.
func (rp *replayer) replay(changes []change) error {
	st := rp.h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	clock := st.clock
	st.replaying = true
	defer func() { st.clock, st.replaying = clock, false }()
	ops := seedOps()
	for i := range changes {
		ch := &changes[i]
		at := ch.At
		st.clock = func() time.Time { return at }
		st.issuer.given = ch.Issued
		if ch.Status != 0 && ch.Issued == nil {
			st.issuer.legacy = rp.legacyCredential(ch)
		}
		var err error
		switch {
		case ch.Seed != "":
			op := ops[ch.Seed]
			if op == nil {
				err = fmt.Errorf("no seeding method %q", ch.Seed)
			} else {
				err = op(st, ch.Args)
			}
		case ch.Method != "" && ch.Status >= http.StatusBadRequest:
			// Answered with an error, which changed nothing: a journal
			// written before errors were left out (format 1 until
			// 81b49ab) holds such requests, and today's handlers may
			// answer them with another error (a repeated create: 409
			// then, 400 now). Nothing to replay.
		case ch.Method != "":
			err = rp.request(ch)
		default:
			err = errors.New("neither a request (method) nor a seeding call (seed)")
		}
		if issued := st.issuer.take(); ch.Issued == nil {
			// A change written by hand records none: it keeps those it
			// issued now when it seeds a store.
			ch.Issued = issued
		}
		st.issuer.given, st.issuer.legacy = nil, nil
		if err != nil {
			return fmt.Errorf("change %d: %w", i+1, err)
		}
		st.lastAt = at
		if ch.Seed == presenceOp {
			var a presenceArgs
			json.Unmarshal(ch.Args, &a) // replayed: it decodes
			rp.online[a.UID] = a.Online
		}
		rp.last = at
	}
	return nil
}

// legacyCredential returns what turns a credential minted while the
// request change ch replays into the one the server that made ch issued,
// when ch was made by a server but records no credentials: a journal
// written before credentials came from crypto/rand (e34b134 and earlier)
// records none, and its servers derived them from the app id and
// counters, as hexID does. Those stay valid on the servers that open it.
// An API key was the hexID of its creation order; an auth token, its
// user's uid, "_", and the hexID of the tokens minted so far. Anything
// else (the keys of the management API's apps) is issued anew.
func (rp *replayer) legacyCredential(ch *change) func(string) string {
	path, _, _ := strings.Cut(ch.Path, "?")
	return func(minted string) string {
		st := rp.h.st
		switch {
		case len(minted) > 41 && minted[len(minted)-41] == '_': // an auth token: authTokenFor
			rp.legacyTokens++
			return minted[:len(minted)-40] + st.hexID("authtoken", rp.legacyTokens)
		case path == "/v3/apikeys":
			return st.hexID("apikey", st.apiKeySeq)
		}
		return minted
	}
}

// endPresence makes the users whom the replayed changes left online go
// offline, at the time of the last change, which the journal keeps: their
// websockets did not outlive the server that kept the changes (a crash
// journals no offline).
func (rp *replayer) endPresence() {
	st := rp.h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	clock, last := st.clock, rp.last
	st.clock = func() time.Time { return last }
	for _, uid := range slices.Sorted(maps.Keys(rp.online)) {
		if rp.online[uid] {
			st.presenceChanged(uid, false, nil)
		}
	}
	st.clock = clock
}

// request replays the request of ch.
func (rp *replayer) request(ch *change) error {
	u, err := url.Parse(ch.Path)
	if err != nil || u.Path == "" || u.Path[0] != '/' {
		return fmt.Errorf("the path %q is not an absolute path", ch.Path)
	}
	body := ch.body()
	r, err := http.NewRequest(ch.Method, "http://chattest"+u.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range ch.Header {
		r.Header.Set(k, v)
	}
	if ch.OnBehalfOf != "" {
		r.Header.Set("onBehalfOf", ch.OnBehalfOf)
	}
	rp.ch, rp.hit = ch, false
	rp.mux.ServeHTTP(discard{}, r)
	switch {
	case !rp.hit:
		return fmt.Errorf("%s %s: no such route", ch.Method, ch.Path)
	case ch.Status != 0 && rp.res.status != ch.Status:
		return fmt.Errorf("%s %s answered %d, not %d as when it was made: %s", ch.Method, ch.Path, rp.res.status, ch.Status, rp.res.out)
	}
	return nil
}

// serve serves the replayed request r of the route rt, with the
// credentials it was sent with. It runs with st.mu held.
func (rp *replayer) serve(rt route, r *http.Request) {
	st := rp.h.st
	switch rt.auth {
	case authAPIKey:
		for key, k := range st.apiKeys {
			if k.seq == rp.ch.Key {
				r.Header.Set("apikey", key)
			}
		}
	case authMgmt:
		r.Header.Set("key", st.mgmtKey)
		r.Header.Set("secret", st.mgmtSecret)
	case authBasic:
		r.SetBasicAuth(st.mgmtKey, st.mgmtSecret)
	case authClient:
		// The user's auth token that sent it, or another of theirs: a
		// handler reads none but to authenticate, and to sign a jwt
		// which the answer, not the state, holds.
		r.Header.Del("onBehalfOf")
		r.Header.Set("appId", st.appID)
		if u := st.users[strings.ToLower(rp.ch.OnBehalfOf)]; u != nil && len(u.tokens) > 0 {
			r.Header.Set("authToken", string(u.tokens[0].AuthToken))
		}
	}
	rp.res = st.serve(rt, classify(rt.pattern), r, rp.ch.body(), nil)
	rp.h.log.LearnFrom(rp.res.out) // the request log hides what was issued before the restart
	rp.hit = true
}

// discard is a ResponseWriter for replayed requests, whose answers were
// sent when they were made.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
