package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The state lives in memory. A journal keeps, beside it, the changes the
// state went through since its last snapshot, in order (WithStore): each
// change is the records (records.go) that a request the API served, a
// call of a seeding method or an event of the client API's websocket set
// or removed, at the server's time. Opening a store sets the records of
// its last snapshot, then of the changes after it: no handler runs.
//
// The stores and state files written before records (up to the release
// after 81b49ab) kept requests instead: the requests the API served that
// changed the state, and the calls of the seeding methods, with the
// credentials each issued. Those are still read: opening one replays its
// requests through the handlers once (replayer), and keeps the state it
// makes as a snapshot of records at once, so that it is never replayed
// again.

// The versions of a store's changes and of the state file.
const (
	// RecordsFormat is the version of a store whose changes are records.
	RecordsFormat = 2
	// ChangesFormat is the version of a store whose changes are requests
	// (and snapshots of the state as a whole, from the release after
	// 81b49ab), and of the state files of requests that releases up to
	// 81b49ab wrote: both are still read.
	ChangesFormat = 1
	// stateFormat is the version of the state file that holds the state
	// as a whole (snapshot.go), as releases from the one after 81b49ab
	// wrote it: still read.
	stateFormat = 2
	// recordsFileFormat is the version of the state file of records, as
	// Export writes it.
	recordsFileFormat = 3
)

// change is one change of the state, as the journal keeps it: the records
// it set or removed, or, for a snapshot, every record of the state. A
// store written before records holds requests and seeding calls instead,
// which are replayed (replayer).
type change struct {
	// At is the server's time when the change happened.
	At time.Time `json:"at"`

	// Records are those the change set or removed, in order: records.go.
	Records []json.RawMessage `json:"records,omitempty"`
	// State is, in a snapshot, every record of the state.
	State []json.RawMessage `json:"state,omitempty"`

	// What follows is read only, from the stores written before records.

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

// lazyParts are parts of the state kept up to date lazily, by the request
// or call that next needs them: a read that brings one up to date changes
// the state, and is journaled.
type lazyParts uint8

const (
	lazyNotifications lazyParts = 1 << iota // the notification log (notifSync)
	lazyModeration                          // the dates of the built-in moderation rules (stampModeration)
	lazyRoles                               // the date of the default role (stampDefaults)
)

// keep journals the records the request r that serve served set or
// removed, if any, and returns what waits until they are written; it is
// called with st.mu held. A request that changed nothing (a read, or one
// answered with an error) waits until the changes it may show are written,
// so that a crash loses nothing a client was shown. Without a journal, or
// for a request refused before its handler ran, it returns a wait that
// returns nil at once.
func (h *Core) keep(rt route, r *http.Request, res served) (wait func() error) {
	st := h.st
	st.issuer.take()
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	if res.ran && rt.pattern != "" && (res.status < http.StatusBadRequest && !read || st.lazy != 0) {
		st.lastAt = res.now
	}
	if !res.ran || rt.pattern == "" {
		return noWait
	}
	st.rec.what = rt.pattern
	if st.rec.on && !read {
		st.touchWritten(rt.pattern)
	}
	return st.keepRecords(res.now)
}

// keepRecords journals the records the change in progress set or removed,
// made at at, and returns what waits until they are written. A change
// that set none waits until the changes before it are written.
func (st *state) keepRecords(at time.Time) (wait func() error) {
	if !st.rec.on {
		return noWait
	}
	recs, err := st.takeRecords()
	switch {
	case err != nil:
		return func() error { return err }
	case st.journal == nil:
		return noWait
	case len(recs) == 0:
		return func() error {
			_ = st.journal.Sync() // a journal that failed takes no change since: the answer is served
			return nil
		}
	}
	seq := st.journal.Add(recordsChange(at, "records", recs))
	return func() error { return st.journal.Wait(seq) }
}

// recordsChange is the change made at at of the records recs, as the
// journal keeps it: {"at": at, field: recs}. The records are valid JSON
// already, which encoding/json would check again.
func recordsChange(at time.Time, field string, recs []json.RawMessage) []byte {
	n := 64
	for _, r := range recs {
		n += len(r) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"at":"`...)
	b = at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","`...)
	b = append(b, field...)
	b = append(b, `":[`...)
	for i, r := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r...)
	}
	return append(b, "]}"...)
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

	legacyTokens int64     // the auth tokens minted by changes that record none: legacyCredential
	last         time.Time // the time of the last change replayed
}

func (h *Core) newReplayer() *replayer {
	rp := &replayer{h: h, mux: http.NewServeMux()}
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
