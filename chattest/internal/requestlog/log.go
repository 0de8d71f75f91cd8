// Package requestlog records the requests a fake serves, with every
// credential redacted (chattest.Request says how), for chattest's
// Server.Requests and the dashboard: an adapter around the core.
package requestlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/internal/redact"
)

// maxLoggedRequests is how many requests the log keeps, the most recent.
const maxLoggedRequests = 10000

// minSecretLen is the length below which a value is not redacted wherever
// it appears, only where its name says it is a credential: scrubbing a
// one-letter password from every string would wipe that letter.
const minSecretLen = 4

// Log records the requests a fake serves, with their credentials
// redacted: the fake's [fake.RequestLog]. It is safe for concurrent use.
type Log struct {
	mu      sync.Mutex
	entries []*fake.Request // the most recent, at most 2*maxLoggedRequests
	counts  map[string]int  // requests by route pattern; "" for none
	total   int
	arrived fake.Signal // a request arrives: AwaitRequests, the dashboard's live pages

	known   sync.Map    // every credential the server has held or issued (string: true), read without the lock
	secrets secretIndex // known, with their escaped forms
}

// New returns an empty log.
func New() *Log { return &Log{counts: map[string]int{}} }

// Learn adds a credential to those never logged, for good: a key or token
// stays secret after it is deleted. It reports whether the credential is
// new.
func (l *Log) Learn(secret string) bool {
	if _, ok := l.known.Load(secret); ok || secret == "" {
		return false
	}
	l.secrets.add(forms(secret))
	l.known.Store(secret, true) // after secrets, which then hold it
	return true
}

// LearnFrom learns the credentials an answer body issues or shows.
func (l *Log) LearnFrom(out []byte) {
	if bytes.Contains(out, []byte(`"authToken"`)) || bytes.Contains(out, []byte(`"apiKey"`)) || bytes.Contains(out, []byte(`"jwt"`)) {
		jsonSecrets(out, func(s string) { l.Learn(s) })
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
// a path, a query or a JSON string, and base64-encoded.
func forms(secret string) []string {
	j, _ := json.Marshal(secret) // a string always encodes
	out := append(redact.WithEncodings([]string{secret}), string(j[1:len(j)-1]))
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

// scrubber finds secrets in text: those of a request (mine) and those the
// server knows.
type scrubber struct {
	mine  []string
	known *secretIndex
}

// Spans appends to spans where the secrets of s occur in v. Secrets
// shorter than minSecretLen are left alone.
func (s scrubber) Spans(v string, spans [][2]int) [][2]int {
	var found []string
	for _, secret := range s.mine {
		if len(secret) >= minSecretLen && strings.Contains(v, secret) {
			found = append(found, secret)
		}
	}
	if s.known != nil {
		found = s.known.find(v, found)
	}
	for _, secret := range found {
		for i := 0; ; {
			j := strings.Index(v[i:], secret)
			if j < 0 {
				break
			}
			spans = append(spans, [2]int{i + j, i + j + len(secret)})
			i += j + 1
		}
	}
	return spans
}

// exchange is a request in progress: its log entry, which the handler
// completes under the state's lock, and the fault that applies to it.
type exchange struct {
	pattern string
	r       *http.Request
	body    []byte
	mine    []string // the credentials the request carries that the server did not know
	learned int64    // how many credentials the server had learned when entry was scrubbed
	entry   *fake.Request
}

// learnedLen are the lengths of the credentials a request carries that
// the log learns, to hide them in later requests too: at least 8 bytes, so
// that a password such as "test" does not wipe every "test" of the log
// (it is hidden by name, and in its own request), and at most 64 KiB.
const minLearnedLen, maxLearnedLen = 8, 64 << 10

// arrive prepares the log entry of a request of the route pattern, with
// every credential redacted; record then records it. The work is done
// before taking the state's lock, with the credentials the server knows
// by then. The credentials the request carries, found by name, are
// hidden wherever else they appear in it: when it has new ones, the entry
// is made again with them. Those a strong name holds (see redact.FieldKind) are
// learned.
func (l *Log) Arrive(pattern string, r *http.Request, body []byte) fake.Arrival {
	x := &exchange{pattern: pattern, r: r, body: body}
	for _, name := range redact.SecretPathParams {
		x.addMine(l, r.PathValue(name))
	}
	x.learned = l.secrets.learned.Load()
	entry, found := logEntry(pattern, r, body, scrubber{x.mine, &l.secrets})
	again := false
	for _, f := range found {
		if f.Strong && len(f.Value) >= minLearnedLen && len(f.Value) <= maxLearnedLen && l.Learn(f.Value) {
			again = true
		} else if x.addMine(l, f.Value) {
			again = true
		}
	}
	if again {
		x.learned = l.secrets.learned.Load()
		entry, _ = logEntry(pattern, r, body, scrubber{x.mine, &l.secrets})
	}
	x.entry = entry
	return x
}

// addMine adds s to the credentials of x's request that the server does
// not know, and reports whether it was new. A value longer than
// maxLearnedLen is hidden by name only.
func (x *exchange) addMine(l *Log, s string) bool {
	if len(s) < minSecretLen || len(s) > maxLearnedLen || slices.Contains(x.mine, s) {
		return false
	}
	if _, known := l.known.Load(s); known {
		return false
	}
	x.mine = append(x.mine, forms(s)...)
	return true
}

// Record records the request of a as arrived at the time at, with the
// fault f applied to it, scrubbing it again in the rare case that the log
// learned a credential since Arrive.
func (l *Log) Record(a fake.Arrival, at time.Time, f fake.Fault) {
	x := a.(*exchange)
	if l.secrets.learned.Load() != x.learned {
		x.entry, _ = logEntry(x.pattern, x.r, x.body, scrubber{x.mine, &l.secrets})
	}
	x.entry.Time, x.entry.Fault = at, f
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(x.entry)
}

// Answered sets the status answered to the request of a.
func (l *Log) Answered(a fake.Arrival, status int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.(*exchange).entry.Status = status
}

// logEntry is the log entry of a request of the route pattern, with every
// credential redacted (see [Request]): by name, and by value the secrets
// of sc. It returns too the values it redacted by name.
func logEntry(pattern string, r *http.Request, body []byte, sc scrubber) (*fake.Request, []redact.Found) {
	rd := redact.NewRedactor(sc)
	e := &fake.Request{
		Method: r.Method,
		Path:   rd.Path(redactPath(r.URL.EscapedPath(), pattern)),
		Route:  pattern,
		Query:  url.Values{},
		Header: r.Header.Clone(),
		Body:   rd.Body(string(body), r.Header.Get("Content-Type")),
	}
	for k, vs := range r.URL.Query() {
		name := rd.Value(k)
		for _, v := range vs {
			if redact.SecretField(k) && v != "" {
				rd.NoteField(k, v)
				v = redact.Redacted
			} else {
				v = rd.Value(v)
			}
			e.Query.Add(name, v)
		}
	}
	for k, vs := range e.Header {
		for i, v := range vs {
			if redact.CredentialHeader(k) {
				rd.Note(v, true)
				if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer <token>"
					rd.Note(strings.TrimSpace(cred), true)
				}
				vs[i] = redact.Redacted
				continue
			}
			vs[i] = rd.Value(v)
		}
	}
	return e, rd.Found()
}

// redactPath replaces the segments of path that the route pattern names
// with one of redact.SecretPathParams ({apiKey}, {authToken}, {pushToken}), however
// they are escaped.
func redactPath(path, pattern string) string {
	_, pat, _ := strings.Cut(pattern, " ")
	named := false
	for _, w := range redact.SecretPathParams {
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
		if w, ok := strings.CutPrefix(p, "{"); ok && slices.Contains(redact.SecretPathParams, strings.TrimSuffix(w, "}")) {
			segs[i] = redact.Redacted
		}
	}
	return strings.Join(segs, "/")
}

// add appends e, keeping the most recent maxLoggedRequests, counts it and
// wakes AwaitRequests. l.mu is held.
func (l *Log) add(e *fake.Request) {
	if len(l.entries) >= 2*maxLoggedRequests {
		l.entries = slices.Clone(l.entries[len(l.entries)-maxLoggedRequests+1:])
	}
	l.entries = append(l.entries, e)
	l.counts[e.Route]++
	l.total++
	l.arrived.Notify()
}

// count returns how many requests of route ("*": all) arrived. l.mu is
// held.
func (l *Log) count(route string) int {
	if route == "*" {
		return l.total
	}
	return l.counts[route]
}

// Recent returns how many requests arrived since the log began or was
// reset, and copies of the most recent n entries (at most the 10000 the
// log keeps), oldest first, which share nothing with the log.
func (l *Log) Recent(n int) (total int, recent []fake.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	entries := l.entries
	entries = entries[max(len(entries)-min(n, maxLoggedRequests), 0):]
	out := make([]fake.Request, len(entries))
	for i, e := range entries {
		out[i] = *e
		out[i].Header = e.Header.Clone()
		out[i].Query = url.Values(http.Header(e.Query).Clone())
	}
	return l.total, out
}

// Requests returns copies of the entries the log keeps, oldest first.
func (l *Log) Requests() []fake.Request {
	_, out := l.Recent(maxLoggedRequests)
	return out
}

// Reset empties the log and sets its counts to zero.
func (l *Log) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries, l.counts, l.total = nil, map[string]int{}, 0
}

// Count returns how many requests of route, a registered pattern or "*"
// for all, arrived since the log began or was reset.
func (l *Log) Count(route string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count(route)
}

// Arrived returns a channel closed when the next request arrives.
func (l *Log) Arrived() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.arrived.Wait()
}

// Await waits until the count of route reaches n, and returns nil; or
// until ctx ends or closing is closed, and returns an error.
func (l *Log) Await(ctx context.Context, route string, n int, closing <-chan struct{}) error {
	for {
		l.mu.Lock()
		count, arrived := l.count(route), l.arrived.Wait()
		l.mu.Unlock()
		if count >= n {
			return nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return ctx.Err()
		case <-closing:
			return errors.New("chattest: AwaitRequests: the server closed")
		}
	}
}
