package chat_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// hostileEnv is the hostile-server test's servers (wiretest's), shared by
// every scenario, and the share of every bound's slack the scenarios get
// (see hostileScenario.bound). Each scenario's clients have the run's base
// address, and trust the servers' certificate through WithHTTPClient, not
// WithInsecureLoopback.
type hostileEnv struct {
	srv   *wiretest.HostileServers
	share int
}

// hostileRun is one scenario in progress.
type hostileRun struct {
	srv  *wiretest.HostileServers
	id   string
	sc   hostileScenario
	call *hostileCall

	mu    sync.Mutex
	reqs  []hostileRequest // to the https servers
	plain []hostileRequest // to the plain-http listener
}

// hostileRequest is a request as a server received it.
type hostileRequest struct {
	server, method, path string
	at                   time.Time
	carried              []string // the credentials it carried
}

// start registers a run of sc on the servers.
func (e hostileEnv) start(sc hostileScenario, call *hostileCall) *hostileRun {
	run := &hostileRun{srv: e.srv, id: e.srv.NewRun(), sc: sc, call: call}
	e.srv.Handle(run.id, run.serve)
	return run
}

// snapshot returns the requests received so far.
func (run *hostileRun) snapshot() (reqs, plain []hostileRequest) {
	run.mu.Lock()
	defer run.mu.Unlock()
	return append([]hostileRequest(nil), run.reqs...), append([]hostileRequest(nil), run.plain...)
}

// record keeps r and returns how many requests the scenario's servers
// received, r included.
func (run *hostileRun) record(r hostileRequest) int {
	run.mu.Lock()
	defer run.mu.Unlock()
	if r.server == "plain" {
		run.plain = append(run.plain, r)
	} else {
		run.reqs = append(run.reqs, r)
	}
	return len(run.reqs) + len(run.plain)
}

// serve records a request of the run on the server named server and
// answers it, or a 400 beyond hostileRequestCap.
func (run *hostileRun) serve(server string, w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	req := hostileRequest{server: server, method: r.Method, path: r.URL.EscapedPath(), at: time.Now(),
		carried: hostileCarried(r, body)}
	if n := run.record(req); n > hostileRequestCap {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"code":"ERR_HOSTILE_REQUEST_CAP","message":"the test's servers answer no more requests of this call"}}`)
		return
	}
	run.answer(w, r, req)
}

// answer writes the scenario's answer to req. A redirect's target (a path
// ending in /moved) gets the body with status 200.
func (run *hostileRun) answer(w http.ResponseWriter, r *http.Request, req hostileRequest) {
	sc, call, h := run.sc, run.call, w.Header()
	if call.iterates() && sc.Repeat {
		run.mu.Lock()
		n := len(run.reqs)
		run.mu.Unlock()
		h.Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, sc.repeatPage(call, n))
		return
	}
	status, moved := sc.Status, strings.HasSuffix(r.URL.Path, "/moved")
	if moved {
		status = http.StatusOK
	}
	body, contentType := sc.text(call, status, req.carried)
	h.Set("Content-Type", contentType)
	if !moved {
		now := time.Now()
		if sc.RetryAfter != 0 {
			h.Set("Retry-After", hostileRetryAfters[sc.RetryAfter].value(now))
		}
		if sc.Reset != 0 {
			h.Set("X-Rate-Limit-Reset", hostileResets[sc.Reset].value(now))
			h.Set("X-Rate-Limit", hostileRateLimits[sc.Reset%len(hostileRateLimits)])
			h.Set("X-Rate-Limit-Remaining", hostileRateLimits[(sc.Reset+1)%len(hostileRateLimits)])
		}
		if loc := run.location(r, req.carried); loc != "" {
			h.Set("Location", loc)
		}
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		w.WriteHeader(status)
		return
	}
	written := len(body)
	switch {
	case moved:
	case sc.Length == lenShort && len(body) > 1:
		written = len(body) / 2
		h.Set("Content-Length", strconv.Itoa(written))
	case sc.Length == lenLong:
		h.Set("Content-Length", strconv.Itoa(len(body)+16))
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body[:written])
}

// location is the Location header of the scenario's answer, if any.
func (run *hostileRun) location(r *http.Request, carried []string) string {
	moved := run.srv.Prefix(run.id) + "/v3/moved"
	echo := url.QueryEscape(hostileEcho(carried, run.sc.Variant))
	switch run.sc.Location {
	case locPlainHTTP:
		return run.srv.Plain.URL + moved
	case locPlainHTTPEcho:
		return run.srv.Plain.URL + moved + "?echo=" + echo
	case locPlainUpper:
		_, port, _ := net.SplitHostPort(run.srv.Plain.Listener.Addr().String())
		return "HTTP://localhost:" + port + moved
	case locOtherHTTPS:
		return run.srv.Other.URL + moved
	case locSameHost:
		return moved
	case locLoop:
		return r.URL.RequestURI()
	case locGarbage:
		return "http://[::1%zz" + hostileEcho(carried, run.sc.Variant) + "/" + moved
	}
	return ""
}

// hostileCarried returns the credentials a request carried, in any form,
// in its headers (Basic auth decoded), path, query or body.
func hostileCarried(r *http.Request, body []byte) []string {
	var b strings.Builder
	for k, vs := range r.Header {
		b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
	}
	if user, pass, ok := r.BasicAuth(); ok {
		b.WriteString(user + "\n" + pass + "\n")
	}
	b.WriteString(r.URL.EscapedPath() + "\n" + r.URL.Path + "\n" + r.URL.RawQuery + "\n")
	b.Write(body)
	text := b.String()
	var out []string
	for _, sec := range hostileSecrets {
		for _, f := range hostileForms(sec.value) {
			if strings.Contains(text, f) {
				out = append(out, sec.value)
				break
			}
		}
	}
	return out
}

// The credentials of the hostile-server test. Each holds a "/" and a "+",
// which path and query escaping change, so that the forms a server may
// echo (as sent, path-escaped, query-escaped, base64) all differ.
const (
	hostileAPIKey     = "HOSTILE-apikey/9f3a+7c2e"
	hostileMgmtKey    = "HOSTILE-mgmtkey/51be+04"
	hostileMgmtSecret = "HOSTILE-mgmtsecret/c0de+77"
	hostileAuthToken  = "HOSTILE-authtoken/a1b2+c3"
	hostileGroupPW    = "HOSTILE-grouppw/3e3e+f0"
	hostileTwilio     = "HOSTILE-twilio/7d7d+01"
	hostileHookPW     = "HOSTILE-hookpw/1234+ab"
	hostileTenantPW   = "HOSTILE-tenantpw/4242+cd"
	hostileGiphy      = "HOSTILE-giphy/5151+ef"
)

// hostileSecrets are the credentials a request of the test may carry, by
// what they are. The Basic credential Tenants.Add sends is one of them.
var hostileSecrets = []struct{ name, value string }{
	{"the API key", hostileAPIKey},
	{"the management key", hostileMgmtKey},
	{"the management secret", hostileMgmtSecret},
	{"the management Basic credential", base64.StdEncoding.EncodeToString([]byte(hostileMgmtKey + ":" + hostileMgmtSecret))},
	{"the auth token", hostileAuthToken},
	{"the group password", hostileGroupPW},
	{"the Twilio auth token", hostileTwilio},
	{"the webhook's Basic-auth password", hostileHookPW},
	{"the tenant's password", hostileTenantPW},
	{"the Giphy API key", hostileGiphy},
}

// hostileFormNames name the forms of hostileForms, in order.
var hostileFormNames = []string{"as sent", "path-escaped", "query-escaped", "base64"}

// hostileForms are the forms of a credential a server may echo, and that
// no rendering may show.
func hostileForms(s string) []string {
	return []string{s, url.PathEscape(s), url.QueryEscape(s), base64.StdEncoding.EncodeToString([]byte(s))}
}

// The client settings of every scenario.
const (
	// hostileMaxBody is the client's WithMaxResponseBytes.
	hostileMaxBody = 64 << 10
	// hostileBulkRetries is the bulk import's RateLimitRetries.
	hostileBulkRetries = 1
	// hostileRequestCap is how many requests the servers answer for one
	// scenario; later ones get a 400. A call that needs more loops.
	hostileRequestCap = 24
	// hostilePerRequest and hostileSlack make a call's bound: a hang
	// detector, far above what an answered request takes, even under the
	// race detector. Fuzzing, which runs without it and repeats a hang
	// while minimizing it, uses a fraction of them.
	hostilePerRequest = 250 * time.Millisecond
	hostileSlack      = 3 * time.Second
	hostileFuzzShare  = 4
	// hostileAfterCancel is how long a call that overran its bound has to
	// return once its context is cancelled.
	hostileAfterCancel = 10 * time.Second
	// hostileWorkers is how many scenarios of the table run at once.
	hostileWorkers = 8
	// hostileTS is an ordinary timestamp.
	hostileTS = "1700000000"
)

// hostileSmallPolicy is the retry policy of most scenarios: ms waits and a
// MaxServerWait below a second, so that every Retry-After of 1 or more is
// too long.
var hostileSmallPolicy = chat.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 4 * time.Millisecond,
	MaxServerWait: 500 * time.Millisecond}

// hostileResult is what kind of value a call returns.
type hostileResult int

const (
	hostileObject     hostileResult = iota // one resource
	hostilePage                            // one page of a list
	hostileIterPages                       // an iterator over a page-numbered list
	hostileIterCursor                      // an iterator over a cursor list
	hostileBulk                            // one result per entity of a bulk import
)

// hostileCall is one kind of call the test makes.
type hostileCall struct {
	name   string
	method string
	result hostileResult
	// ok is a good 2xx answer: %TS% stands for a timestamp and %SECRET% for
	// the value of a field that holds a credential.
	ok  string
	run func(ctx context.Context, c hostileClients) (any, error)
}

// hostileClients are the clients of one scenario.
type hostileClients struct {
	chat *chat.Client
	mgmt *management.Client
}

// iterates reports whether the call ranges over an iterator.
func (c *hostileCall) iterates() bool {
	return c.result == hostileIterPages || c.result == hostileIterCursor
}

// retried reports whether the retry rules send the call again after an
// answer with status: 429 always, 5xx for GET, PUT and DELETE.
func (c *hostileCall) retried(status int) bool {
	switch status {
	case http.StatusTooManyRequests:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return c.method == http.MethodGet || c.method == http.MethodPut || c.method == http.MethodDelete
	}
	return false
}

// hostileUserOK, hostileMessageOK, ... are the good answers shared by
// several calls.
const (
	hostileUserOK    = `{"data":{"uid":"hostile-u1","name":"U1","authToken":"%SECRET%","createdAt":%TS%,"updatedAt":%TS%}}`
	hostileUsersOK   = `{"data":[{"uid":"hostile-u1","name":"U1","createdAt":%TS%}],"meta":{"pagination":{"total":1,"count":1,"per_page":2,"current_page":1,"total_pages":1}}}`
	hostileMessageOK = `{"data":{"id":"1001","muid":"m-1","sender":"alice","receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"hi"},"sentAt":%TS%,"updatedAt":%TS%}}`
	hostileGroupOK   = `{"data":{"guid":"hostile-g1","name":"G1","type":"password","password":"%SECRET%","createdAt":%TS%,"updatedAt":%TS%}}`
	hostileTokenOK   = `{"data":{"uid":"hostile-u1","authToken":"%SECRET%","createdAt":%TS%}}`
	hostileTwilioOK  = `{"data":{"twilioAccountSID":"AC1","twilioAuthToken":"%SECRET%","twilioSenderPhoneNumber":"+15550100"}}`
	hostileWebhookOK = `{"data":{"id":"hook1","name":"Hook","webhookURL":"https://example.com/hook","useBasicAuth":true,"username":"hookuser","password":"%SECRET%","createdAt":%TS%,"updatedAt":%TS%}}`
)

// hostileCalls are the calls of the test: a read, a list and both kinds of
// iterator, writes that return what they made, an update and a delete,
// and every call whose request carries a secret besides the credentials.
var hostileCalls = []hostileCall{
	{name: "Users.Get", method: http.MethodGet, result: hostileObject, ok: hostileUserOK,
		run: func(ctx context.Context, c hostileClients) (any, error) { return c.chat.Users.Get(ctx, "hostile-u1") }},
	{name: "Users.List", method: http.MethodGet, result: hostilePage, ok: hostileUsersOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Users.List(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}})
		}},
	{name: "Users.All", method: http.MethodGet, result: hostileIterPages, ok: hostileUsersOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return hostileCollect(c.chat.Users.All(ctx, &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 2}}))
		}},
	{name: "Messages.All", method: http.MethodGet, result: hostileIterCursor,
		ok: `{"data":[{"id":"1001","sender":"alice","receiver":"bob","receiverType":"user","sentAt":%TS%}],"meta":{"current":{"limit":2,"count":1}}}`,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return hostileCollect(c.chat.Messages.All(ctx, &chat.ListMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 2}}))
		}},
	{name: "Messages.Send", method: http.MethodPost, result: hostileObject, ok: hostileMessageOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Text: "hi"}}, chat.OnBehalfOf("alice"))
		}},
	{name: "Messages.SendThread", method: http.MethodPost, result: hostileObject, ok: hostileMessageOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Messages.SendThread(ctx, "1000", "alice", &chat.SendMessageRequest{Receiver: "bob",
				ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}})
		}},
	{name: "Groups.Create", method: http.MethodPost, result: hostileObject, ok: hostileGroupOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "hostile-g1", Name: "G1", Type: chat.GroupPassword,
				Password: hostileGroupPW})
		}},
	{name: "Groups.Update", method: http.MethodPut, result: hostileObject, ok: hostileGroupOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Groups.Update(ctx, "hostile-g1", &chat.UpdateGroupRequest{Type: chat.GroupPassword, Password: hostileGroupPW})
		}},
	{name: "Users.Delete", method: http.MethodDelete, result: hostileObject, ok: `{"data":{"success":true,"message":"deleted"}}`,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Users.Delete(ctx, "hostile-u1", nil)
		}},
	{name: "AuthTokens.Create", method: http.MethodPost, result: hostileObject, ok: hostileTokenOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.AuthTokens.Create(ctx, "hostile-u1", nil)
		}},
	{name: "AuthTokens.Get", method: http.MethodGet, result: hostileObject, ok: hostileTokenOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.AuthTokens.Get(ctx, "hostile-u1", hostileAuthToken)
		}},
	{name: "Notifications.AddTwilioProvider", method: http.MethodPost, result: hostileObject, ok: hostileTwilioOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Notifications.AddTwilioProvider(ctx, &chat.TwilioProvider{TwilioAccountSID: "AC1", TwilioAuthToken: hostileTwilio,
				TwilioSenderPhoneNumber: "+15550100"})
		}},
	{name: "Notifications.UpdateTwilioProvider", method: http.MethodPut, result: hostileObject, ok: hostileTwilioOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.chat.Notifications.UpdateTwilioProvider(ctx, &chat.TwilioProvider{TwilioAuthToken: hostileTwilio})
		}},
	{name: "management Webhooks.Create", method: http.MethodPost, result: hostileObject, ok: hostileWebhookOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.mgmt.Webhooks.Create(ctx, "hostile-app", &management.CreateWebhookRequest{ID: "hook1", Name: "Hook",
				URL: "https://example.com/hook", UseBasicAuth: true, Username: "hookuser", Password: hostileHookPW})
		}},
	{name: "management Webhooks.Update", method: http.MethodPut, result: hostileObject, ok: hostileWebhookOK,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			pw := chat.Secret(hostileHookPW)
			return c.mgmt.Webhooks.Update(ctx, "hostile-app", "hook1", &management.UpdateWebhookRequest{Password: &pw})
		}},
	{name: "management Tenants.Add", method: http.MethodPost, result: hostileObject,
		ok: `{"data":{"name":"Ann","email":"ann@example.com","createdAt":%TS%,"app":{"name":"A","appId":"a1","region":"us","apiKey":"%SECRET%","createdAt":%TS%}}}`,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return c.mgmt.Tenants.Add(ctx, &management.AddTenantRequest{Name: "Ann", Email: "ann@example.com", Password: hostileTenantPW,
				AppName: "A", AppRegion: chat.RegionUS})
		}},
	{name: "management StoreExtensionSettings(Giphy)", method: http.MethodPost, result: hostileObject,
		ok: `{"data":{"statusCode":200,"success":true,"body":{"data":{"settings":{"giphyApiKey":"%SECRET%"}}}}}`,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			return management.StoreExtensionSettings(ctx, c.mgmt.Extensions, "hostile-app", &management.GiphySettings{GiphyAPIKey: hostileGiphy})
		}},
	{name: "DataImport.BulkImportGroups", method: http.MethodPost, result: hostileBulk,
		ok: `{"data":{"hostile-g1":{"success":true,"data":{"guid":"hostile-g1","name":"G1","type":"password","createdAt":%TS%}},` +
			`"hostile-g2":{"success":false,"error":{"code":"ERR_GUID_ALREADY_EXISTS","message":"group %SECRET% exists"}}}}`,
		run: func(ctx context.Context, c hostileClients) (any, error) {
			groups := []chat.ImportGroup{
				{GUID: "hostile-g1", Name: "G1", Type: chat.GroupPassword, Password: hostileGroupPW},
				{GUID: "hostile-g2", Name: "G2", Type: chat.GroupPassword, Password: hostileGroupPW},
			}
			return c.chat.DataImport.BulkImportGroups(ctx, groups, &chat.BulkOptions{RequestsPerMinute: 60000,
				RateLimitRetries: hostileBulkRetries})
		}},
}

// hostileCallNamed returns the call of hostileCalls named name.
func hostileCallNamed(name string) *hostileCall {
	for i := range hostileCalls {
		if hostileCalls[i].name == name {
			return &hostileCalls[i]
		}
	}
	panic("no hostile call " + name)
}

// hostileMaxItems bounds what an iterator may yield in one scenario: no
// answer of the test lists more.
const hostileMaxItems = 200

var errHostileTooManyItems = errors.New("the iterator yielded more items than every page holds together")

// hostileCollect ranges over an iterator: its items, and the first error
// it yields.
func hostileCollect[T any](seq iter.Seq2[*T, error]) (any, error) {
	var items []any
	for v, err := range seq {
		if err != nil {
			return items, err
		}
		items = append(items, v)
		if len(items) > hostileMaxItems {
			return items, errHostileTooManyItems
		}
	}
	return items, nil
}

// hostileBody is the kind of body an answer has.
type hostileBody int

const (
	bodyOK            hostileBody = iota // the call's good answer
	bodyEmpty                            // no bytes
	bodyNull                             // null
	bodyEmptyObject                      // {}
	bodyDataNull                         // {"data":null}
	bodyDataEmpty                        // {"data":{}}
	bodyDataArray                        // {"data":[]}
	bodyTimestamps                       // the good answer with out-of-range timestamps
	bodyTruncated                        // the good answer cut in half
	bodyWrongTypes                       // values of the wrong JSON type
	bodyHugeNumbers                      // numbers beyond every integer type
	bodyAPIError                         // the API's error object
	bodyEcho                             // the request's credentials echoed
	bodyEchoWrongType                    // the request's credentials where a timestamp belongs
	bodyHTML                             // a gateway's HTML page, echoing the credentials
	bodyTooLarge                         // beyond the client's WithMaxResponseBytes
	bodyRaw                              // the fuzzer's bytes
	hostileBodyKinds
)

// hostileTimestamps are the out-of-range timestamps of bodyTimestamps.
var hostileTimestamps = []string{`1e300`, `99999999999999999999999`, `"NaN"`, `"Infinity"`, `"1e300"`, `1.8446744073709552e19`,
	`9.3e18`, `"99999999999999999999999"`, `1e19`}

// hostileWrongTypes are the bodies of bodyWrongTypes.
var hostileWrongTypes = []string{
	`{"data":"hostile"}`,
	`{"data":42}`,
	`{"data":true}`,
	`{"data":{"uid":{"x":1},"id":[1],"guid":false,"name":7,"createdAt":"yesterday","success":"yes","statusCode":"x"}}`,
	`{"data":[{"uid":1,"id":2,"sentAt":"x"}],"meta":"none"}`,
	`{"data":{"data":{"data":null}},"meta":{"pagination":[]}}`,
	`{"data":[{"uid":"a"},{"uid":"b"}],"meta":{"pagination":{"per_page":"2","count":"two","current_page":"1"}}}`,
}

// hostileHugeNumbers are the bodies of bodyHugeNumbers.
var hostileHugeNumbers = []string{
	`{"data":{"uid":"hostile-u1","id":"1","guid":"g","membersCount":1e400,"replyCount":99999999999999999999999}}`,
	`{"data":{"uid":"hostile-u1","id":"1","createdAt":1e400,"sentAt":1e400,"replyCount":-1e400}}`,
	`{"data":[{"uid":"u","id":"1"}],"meta":{"pagination":{"total":1e30,"per_page":-1,"current_page":1e20,"total_pages":99999999999999999999}}}`,
	`{"data":{"statusCode":1e300,"success":true,"responseTime":1e400}}`,
}

// hostileEchoForms name the forms bodyEcho uses, by Variant: each form of
// hostileForms, then all of them.
var hostileEchoForms = append(slices.Clone(hostileFormNames), "every form")

// hostileEcho is what an echoing server says back: each credential the
// request carried, in the form variant picks.
func hostileEcho(carried []string, variant int) string {
	var parts []string
	v := variant % len(hostileEchoForms)
	for _, s := range carried {
		forms := hostileForms(s)
		if v < len(forms) {
			parts = append(parts, forms[v])
		} else {
			parts = append(parts, forms...)
		}
	}
	return strings.Join(parts, " ")
}

// hostileJSON is s as a JSON string literal.
func hostileJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileWait is a value of a header that asks the client to wait.
type hostileWait struct {
	// value returns the header's value at now.
	value func(now time.Time) string
	// doc describes a value that depends on the time; "" for a fixed one.
	doc string
	// wait is the wait the value asks for; readable is false when it
	// cannot be read (garbage, a number too large for any integer type),
	// which counts as too long. ambiguous values (a reset of 0 or before
	// 1970) are not checked for the attempts they lead to.
	wait      time.Duration
	readable  bool
	ambiguous bool
}

// hostileFixed is a header value that does not depend on the time.
func hostileFixed(v string) func(time.Time) string { return func(time.Time) string { return v } }

// hostileRetryAfters are the Retry-After values, by index; 0 sends none.
var hostileRetryAfters = []hostileWait{
	{value: hostileFixed("")},
	{value: hostileFixed("0"), readable: true},
	{value: hostileFixed("1"), wait: time.Second, readable: true},
	{value: hostileFixed("3600"), wait: time.Hour, readable: true},
	{value: hostileFixed("99999999999999999999")},
	{value: hostileFixed("9223372036854775807")},
	{value: hostileFixed("-1")},
	{value: hostileFixed("soon")},
	{value: hostileFixed("1.5")},
	{value: func(now time.Time) string { return now.Add(-time.Hour).UTC().Format(http.TimeFormat) }, readable: true,
		doc: "an HTTP date an hour ago"},
	{value: func(now time.Time) string { return now.Add(time.Hour).UTC().Format(http.TimeFormat) }, wait: time.Hour, readable: true,
		doc: "an HTTP date an hour ahead"},
	{value: hostileFixed("Fri, 31 Dec 9999 23:59:59 GMT")},
	{value: hostileFixed("Mon, 32 Foo 2024 25:61:61 GMT")},
}

// hostileResets are the X-Rate-Limit-Reset values, by index; 0 sends
// none. Each also sends X-Rate-Limit and X-Rate-Limit-Remaining values
// that are not numbers a client can use.
var hostileResets = []hostileWait{
	{value: hostileFixed("")},
	{value: hostileFixed("1"), readable: true},
	{value: func(now time.Time) string { return strconv.FormatInt(now.Add(time.Hour).Unix(), 10) }, wait: time.Hour, readable: true,
		doc: "an hour ahead"},
	{value: hostileFixed("99999999999999999999")},
	{value: hostileFixed("9223372036854775807")},
	{value: hostileFixed("soon")},
	{value: hostileFixed("0"), ambiguous: true},
	{value: hostileFixed("-5"), ambiguous: true},
}

// hostileRateLimits are the X-Rate-Limit and X-Rate-Limit-Remaining values
// sent with a reset, by the reset's index.
var hostileRateLimits = []string{"99999999999999999999", "-1", "abc", "1e9", ""}

// hostileLocation is where a redirect points.
type hostileLocation int

const (
	locNone          hostileLocation = iota
	locPlainHTTP                     // the plain-http listener
	locPlainHTTPEcho                 // the plain-http listener, with the credentials carried in its query
	locPlainUpper                    // HTTP://localhost:<plain port>/...: the same in other spelling
	locOtherHTTPS                    // another https host
	locSameHost                      // another path of the same host
	locLoop                          // the request's own address
	locGarbage                       // not a URL, echoing the credentials
	hostileLocations
)

// hostileLocationNames describe the hostileLocations, by value.
var hostileLocationNames = []string{"", "the plain-http listener", "the plain-http listener, credentials in its query",
	"HTTP://localhost (the plain-http listener)", "another https host", "another path of the same host",
	"the request's own address", "not a URL"}

// hostileLength says whether Content-Length tells the truth.
type hostileLength int

const (
	lenHonest hostileLength = iota
	lenShort                // half the body's length: the client reads half
	lenLong                 // beyond the body: the connection ends first
	hostileLengths
)

// hostileStatuses are the statuses a scenario's server answers with.
var hostileStatuses = []int{200, 201, 204, 299, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504, 999}

// hostileScenario is one generated answer to one call: every request of
// the call gets it (an iterator's with Repeat: the same page).
type hostileScenario struct {
	Call       string
	Status     int
	Body       hostileBody
	Variant    int // picks the timestamp, echo form, wrong type or page repetition
	RetryAfter int // index into hostileRetryAfters
	Reset      int // index into hostileResets
	Location   hostileLocation
	Length     hostileLength
	// Repeat makes an iterator's every page the same full page; Variant
	// picks how its meta repeats.
	Repeat bool
	// ZeroPolicy gives the client a RetryPolicy with MaxRetries alone, so
	// that every wait is the default.
	ZeroPolicy bool
	// Deadline gives the call's context a deadline, twice its bound.
	Deadline bool
	Raw      string // the body of bodyRaw
}

// hostileHeaderBytes is how many bytes of a fuzz input choose the
// scenario; the rest is the raw body.
const hostileHeaderBytes = 10

// decodeHostile turns fuzz input into a scenario.
func decodeHostile(data []byte) hostileScenario {
	at := func(i int) int {
		if i < len(data) {
			return int(data[i])
		}
		return 0
	}
	sc := hostileScenario{
		Call:       hostileCalls[at(0)%len(hostileCalls)].name,
		Status:     hostileStatuses[at(1)%len(hostileStatuses)],
		Body:       hostileBody(at(2) % int(hostileBodyKinds)),
		Variant:    at(3),
		RetryAfter: at(4) % len(hostileRetryAfters),
		Reset:      at(5) % len(hostileResets),
		Location:   hostileLocation(at(6) % int(hostileLocations)),
		Length:     hostileLength(at(7) % int(hostileLengths)),
		Repeat:     at(8)%2 == 1,
		Deadline:   at(9)%2 == 1,
	}
	if len(data) > hostileHeaderBytes {
		sc.Raw = string(data[hostileHeaderBytes:])
	}
	return sc
}

// encode is the fuzz input that decodes to sc (ZeroPolicy aside).
func (sc hostileScenario) encode() []byte {
	call := slices.IndexFunc(hostileCalls, func(c hostileCall) bool { return c.name == sc.Call })
	b := []byte{byte(call), byte(slices.Index(hostileStatuses, sc.Status)), byte(sc.Body), byte(sc.Variant),
		byte(sc.RetryAfter), byte(sc.Reset), byte(sc.Location), byte(sc.Length), 0, 0}
	if sc.Repeat {
		b[8] = 1
	}
	if sc.Deadline {
		b[9] = 1
	}
	return append(b, sc.Raw...)
}

// policy is the retry policy the client is given and the one it must
// apply: the defaults for a zero-valued one.
func (sc hostileScenario) policy() (given, effective chat.RetryPolicy) {
	if !sc.ZeroPolicy {
		return hostileSmallPolicy, hostileSmallPolicy
	}
	given = chat.RetryPolicy{MaxRetries: hostileSmallPolicy.MaxRetries}
	effective = chat.DefaultRetryPolicy()
	effective.MaxRetries = given.MaxRetries
	return given, effective
}

// waitClass is how a client must treat the wait a retryable answer asks
// for.
type waitClass int

const (
	waitNone      waitClass = iota // none asked for: the policy's backoff
	waitAccepted                   // readable and within MaxServerWait: waited, then retried
	waitTooLong                    // beyond MaxServerWait or unreadable: the error at once
	waitAmbiguous                  // not checked
)

// serverWait classifies the wait the answer asks for under the cap:
// Retry-After when it sends one, else, for a 429, X-Rate-Limit-Reset (the
// rate limit's reset says nothing about when a failing service is back).
func (sc hostileScenario) serverWait(maxServerWait time.Duration) (waitClass, time.Duration) {
	w := hostileRetryAfters[sc.RetryAfter]
	if sc.RetryAfter == 0 {
		w = hostileResets[sc.Reset]
		if sc.Reset == 0 || sc.Status != http.StatusTooManyRequests {
			return waitNone, 0
		}
	}
	switch {
	case w.ambiguous:
		return waitAmbiguous, 0
	case !w.readable || w.wait > maxServerWait:
		return waitTooLong, 0
	}
	return waitAccepted, w.wait
}

// bound is how long the call may take: every request it may send, every
// wait the policy allows, and slack.
func (sc hostileScenario) bound(call *hostileCall, pol chat.RetryPolicy, share int) time.Duration {
	class, wait := sc.serverWait(pol.MaxServerWait)
	var waits time.Duration
	for k := range pol.MaxRetries {
		b := min(pol.MinWait<<k, pol.MaxWait)
		if class == waitAccepted {
			b = max(b, wait)
		}
		waits += b
	}
	requests := pol.MaxRetries + 1
	if sc.Location != locNone {
		requests *= 11 // net/http follows up to 10 redirects
	}
	if call.result == hostileBulk {
		requests *= hostileBulkRetries + 1
		waits = (waits + wait + time.Millisecond) * (hostileBulkRetries + 1)
	}
	if call.iterates() {
		requests = hostileRequestCap
	}
	return (hostileSlack+time.Duration(requests)*hostilePerRequest)/time.Duration(share) + waits
}

// text is the body of the answer, with status, to a request that carried
// the credentials carried, and its content type.
func (sc hostileScenario) text(call *hostileCall, status int, carried []string) (string, string) {
	fill := func(ts, secret string) string {
		return strings.NewReplacer("%TS%", ts, "%SECRET%", secret).Replace(call.ok)
	}
	const jsonType = "application/json"
	echo := hostileEcho(carried, sc.Variant)
	ej := hostileJSON(echo)
	switch sc.Body {
	case bodyOK:
		return fill(hostileTS, "hostile-plain"), jsonType
	case bodyEmpty:
		return "", jsonType
	case bodyNull:
		return "null", jsonType
	case bodyEmptyObject:
		return "{}", jsonType
	case bodyDataNull:
		return `{"data":null}`, jsonType
	case bodyDataEmpty:
		return `{"data":{}}`, jsonType
	case bodyDataArray:
		return `{"data":[]}`, jsonType
	case bodyTimestamps:
		return fill(hostileTimestamps[sc.Variant%len(hostileTimestamps)], "hostile-plain"), jsonType
	case bodyTruncated:
		b := fill(hostileTS, "hostile-plain")
		return b[:len(b)/2], jsonType
	case bodyWrongTypes:
		return hostileWrongTypes[sc.Variant%len(hostileWrongTypes)], jsonType
	case bodyHugeNumbers:
		return hostileHugeNumbers[sc.Variant%len(hostileHugeNumbers)], jsonType
	case bodyAPIError:
		return `{"error":{"code":"ERR_HOSTILE","message":"the hostile server refuses","devMessage":"no","source":"hostile"}}`, jsonType
	case bodyEcho:
		if status >= 200 && status <= 299 {
			// The good answer with the credentials in its credential
			// fields, and beside it the error object's keys.
			b := fill(hostileTS, strings.Trim(ej, `"`))
			return `{"code":` + ej + `,"message":` + ej + `,"devMessage":` + ej + `,"source":` + ej + `,"details":{` + ej + `:[` + ej + `]},` + b[1:], jsonType
		}
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": echo, "message": "invalid request: " + echo,
			"devMessage": echo, "source": echo, "details": map[string]any{echo: []string{echo}, "password": echo}}})
		return string(b), jsonType
	case bodyEchoWrongType:
		return fill(ej, "hostile-plain"), jsonType
	case bodyHTML:
		return "<html><head><title>502 Bad Gateway</title></head><body>" + echo + "</body></html>", "text/html"
	case bodyTooLarge:
		return `{"data":{"uid":"hostile-u1","id":"1","name":"` + strings.Repeat("x", hostileMaxBody+1024) + `"}}`, jsonType
	}
	return sc.Raw, jsonType
}

// delivered is the body the client receives, and whether the connection
// ends before the body does.
func (sc hostileScenario) delivered(call *hostileCall) (body string, cut bool) {
	if sc.Status == http.StatusNoContent || sc.Status == http.StatusNotModified {
		return "", false
	}
	body, _ = sc.text(call, sc.Status, nil)
	switch sc.Length {
	case lenShort:
		if len(body) > 1 {
			body = body[:len(body)/2]
		}
	case lenLong:
		return body, true
	}
	return body, false
}

// repeatPage is the n-th page of an iterator whose pages repeat: the same
// two items each time, with meta that never says the list ended. Variant
// picks how.
func (sc hostileScenario) repeatPage(call *hostileCall, n int) string {
	if call.result == hostileIterPages {
		meta := []string{
			`{"pagination":{"count":2,"per_page":2}}`,
			`{"pagination":{"count":2,"per_page":2,"total":1000}}`,
			`{"pagination":{"count":2}}`,
			`{"pagination":{"count":2,"per_page":2,"current_page":0,"total_pages":0}}`,
		}[sc.Variant%4]
		return `{"data":[{"uid":"hostile-u1"},{"uid":"hostile-u2"}],"meta":` + meta + `}`
	}
	next := []string{
		`{"affix":"append","id":"1002","sentAt":1700000000}`,
		`{"affix":"append","id":"` + strconv.Itoa(2000+n) + `"}`,
		`{"affix":"append","sentAt":` + strconv.Itoa(1700000000+n) + `}`,
		`{"affix":"append","id":"` + []string{"A", "B"}[n%2] + `"}`,
	}[sc.Variant%4]
	return `{"data":[{"id":"1001"},{"id":"1002"}],"meta":{"current":{"limit":2,"count":2},"next":` + next + `}}`
}

// hostileRepeatNames describe how an iterator's pages repeat, by Variant.
var hostileRepeatNames = map[hostileResult][]string{
	hostileIterPages: {"meta without current page or total", "meta with a total but no page numbers",
		"meta with a count alone", "meta with zero page numbers"},
	hostileIterCursor: {"the same next cursor", "a next id that moves on", "a next sentAt that moves on",
		"two next cursors in turn"},
}

// hostileBodyNames describe the hostileBody kinds, by value.
var hostileBodyNames = []string{"the good answer", "empty body", "body null", "body {}", `body {"data":null}`, `body {"data":{}}`,
	`body {"data":[]}`, "timestamps", "the good answer cut in half", "wrong types", "huge numbers", "the API's error object",
	"echo", "the credentials as a timestamp", "an HTML page echoing the credentials", "a body beyond WithMaxResponseBytes", "raw"}

// String describes the call and the generated answer.
func (sc hostileScenario) String() string {
	call := hostileCallNamed(sc.Call)
	var b strings.Builder
	fmt.Fprintf(&b, "%s ← ", sc.Call)
	if call.iterates() && sc.Repeat {
		fmt.Fprintf(&b, "every page the same two items, with %s",
			hostileRepeatNames[call.result][sc.Variant%4])
	} else {
		fmt.Fprintf(&b, "%d, ", sc.Status)
		switch sc.Body {
		case bodyTimestamps:
			fmt.Fprintf(&b, "the good answer with timestamps of %s", hostileTimestamps[sc.Variant%len(hostileTimestamps)])
		case bodyWrongTypes:
			fmt.Fprintf(&b, "body %s", hostileWrongTypes[sc.Variant%len(hostileWrongTypes)])
		case bodyHugeNumbers:
			fmt.Fprintf(&b, "body %s", hostileHugeNumbers[sc.Variant%len(hostileHugeNumbers)])
		case bodyEcho:
			what := "an error object echoing the credentials carried"
			if sc.Status >= 200 && sc.Status <= 299 {
				what = "the good answer echoing the credentials carried (in their fields and as code, message, devMessage, source, details)"
			}
			fmt.Fprintf(&b, "%s, %s", what, hostileEchoForms[sc.Variant%len(hostileEchoForms)])
		case bodyRaw:
			raw := sc.Raw
			if len(raw) > 120 {
				raw = raw[:120] + "…"
			}
			fmt.Fprintf(&b, "body %q", raw)
		default:
			b.WriteString(hostileBodyNames[sc.Body])
		}
		if sc.RetryAfter != 0 {
			fmt.Fprintf(&b, ", Retry-After: %s", hostileRetryAfters[sc.RetryAfter].value(time.Now()))
		}
		if sc.Reset != 0 {
			fmt.Fprintf(&b, ", X-Rate-Limit-Reset: %s", hostileResets[sc.Reset].value(time.Now()))
		}
		if sc.Location != locNone {
			fmt.Fprintf(&b, ", Location: %s", hostileLocationNames[sc.Location])
		}
		switch sc.Length {
		case lenShort:
			b.WriteString(", Content-Length: half the body")
		case lenLong:
			b.WriteString(", Content-Length: beyond the body")
		}
	}
	if sc.ZeroPolicy {
		b.WriteString("; client policy RetryPolicy{MaxRetries: 2} (zero waits: the defaults)")
	}
	if sc.Deadline {
		b.WriteString("; the context has a deadline")
	}
	return b.String()
}

// name is a short subtest name.
func (sc hostileScenario) name(i int) string {
	n := fmt.Sprintf("%03d %s %d %s", i, sc.Call, sc.Status, hostileBodyNames[sc.Body])
	if hostileCallNamed(sc.Call).iterates() && sc.Repeat {
		n = fmt.Sprintf("%03d %s repeating pages %d", i, sc.Call, sc.Variant%4)
	}
	return strings.NewReplacer("/", "-", `"`, "", "{", "", "}", "", "[", "", "]", "", ":", "").Replace(n)
}

// hostileOutcome is what a call returned.
type hostileOutcome struct {
	result   any
	err      error
	panicked string
}

// hostileReport reports broken invariants, each naming the scenario.
type hostileReport struct {
	t    *testing.T
	desc string
}

// fail reports that the invariant broke, and how.
func (r hostileReport) fail(invariant, format string, args ...any) {
	r.t.Helper()
	r.t.Errorf("%s\n    [%s] %s", r.desc, invariant, fmt.Sprintf(format, args...))
}

// hostileOutcomeText describes what the call returned, for a report.
func hostileOutcomeText(o hostileOutcome) string {
	var s string
	if o.err != nil {
		s = fmt.Sprintf("error %T: %v", o.err, o.err)
	} else {
		s = fmt.Sprintf("success: %+v", o.result)
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// check runs sc and asserts every invariant.
func (e hostileEnv) check(t *testing.T, sc hostileScenario) {
	call := hostileCallNamed(sc.Call)
	run := e.start(sc, call)
	defer e.srv.Finish(run.id)
	var logs leakBuffer
	given, pol := sc.policy()
	cc, err := chat.NewClient("hostile", hostileAPIKey, chat.WithBaseURL(e.srv.Base(run.id)), chat.WithHTTPClient(e.srv.Client),
		chat.WithLogger(debugLogger(&logs)), chat.WithRetryPolicy(given), chat.WithMaxResponseBytes(hostileMaxBody))
	if err != nil {
		t.Fatal(err)
	}
	mc, err := management.NewClient(hostileMgmtKey, hostileMgmtSecret, chat.WithBaseURL(e.srv.Base(run.id)),
		chat.WithHTTPClient(e.srv.Client), chat.WithLogger(debugLogger(&logs)), chat.WithRetryPolicy(given),
		chat.WithMaxResponseBytes(hostileMaxBody))
	if err != nil {
		t.Fatal(err)
	}
	rep := hostileReport{t: t, desc: sc.String()}

	// (1) no panic; (4) return within the bound.
	bound := sc.bound(call, pol, e.share)
	ctx, cancel := context.WithCancel(t.Context())
	if sc.Deadline {
		ctx, cancel = context.WithTimeout(t.Context(), 2*bound)
	}
	defer cancel()
	done := make(chan hostileOutcome, 1)
	start := time.Now()
	go func() {
		var o hostileOutcome
		defer func() {
			if p := recover(); p != nil {
				o.panicked = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- o
		}()
		o.result, o.err = call.run(ctx, hostileClients{chat: cc, mgmt: mc})
	}()
	var o hostileOutcome
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case o = <-done:
	case <-timer.C:
		cancel()
		select {
		case o = <-done:
		case <-time.After(hostileAfterCancel):
			t.Fatalf("%s\n    [bounded] still running %v after its bound of %v, and %v after its context was cancelled",
				rep.desc, time.Since(start), bound, hostileAfterCancel)
		}
		rep.fail("bounded", "still running after %v, the bound of this policy and answer (every request and every wait "+
			"the policy allows, and slack); it returned only when its context was cancelled, with %s", bound, hostileOutcomeText(o))
	}
	if o.panicked != "" {
		rep.fail("no panic", "panicked: %s", o.panicked)
		return
	}
	reqs, plain := run.snapshot()

	// (5) never a plain-http request.
	for _, p := range plain {
		rep.fail("no plain http", "%s %s was sent to the plain-http listener%s", p.method, p.path, hostileCarriedText(p.carried))
	}
	switch n := len(reqs) + len(plain); {
	case n <= hostileRequestCap || call.iterates() && sc.Repeat: // reported below
	case call.iterates():
		rep.fail("iterator stops", "still fetching pages after %d requests (the servers answer %d of a call); it ended with %s",
			n, hostileRequestCap, hostileOutcomeText(o))
	default:
		rep.fail("bounded", "%d requests, beyond the %d the servers answer for one call", n, hostileRequestCap)
	}
	attempts := 0
	for _, r := range reqs {
		if r.server == "main" && !strings.HasSuffix(r.path, "/moved") {
			attempts++
		}
	}

	// (6) an iterator ends, and a repeating page ends it with
	// ErrPaginationStalled.
	if call.iterates() && sc.Repeat {
		items, _ := o.result.([]any)
		if !errors.Is(o.err, chat.ErrPaginationStalled) {
			rep.fail("iterator stops", "every page repeats the first, yet after %d requests and %d items the iterator ended with %s; want chat.ErrPaginationStalled",
				len(reqs), len(items), hostileOutcomeText(o))
		}
		if dup := hostileDuplicate(items); dup != "" {
			rep.fail("iterator stops", "yielded %s twice", dup)
		}
	}

	// (2) no zero-valued success; a cut body never succeeds.
	if sc.Status >= 200 && sc.Status <= 299 && !(call.iterates() && sc.Repeat) {
		body, cut := sc.delivered(call)
		var ce *chat.Error
		switch {
		case cut:
			if o.err == nil {
				rep.fail("no silent wrong answer", "the connection ended before the body did, yet the call succeeded: %s", hostileOutcomeText(o))
			}
		case hostileNoData(body, call.result):
			if !errors.As(o.err, &ce) || ce.StatusCode != sc.Status {
				rep.fail("no zero-valued success", "the answer held no data (delivered body %q); want a *chat.Error with status %d, got %s",
					hostileExcerpt(body, "", 80), sc.Status, hostileOutcomeText(o))
			}
		}
	}
	if o.err == nil && !call.iterates() {
		if v := reflect.ValueOf(o.result); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
			rep.fail("no zero-valued success", "returned no value and no error")
		}
	}
	if call.result == hostileBulk && o.err == nil {
		results, _ := o.result.([]chat.BulkResult[chat.Group])
		for _, r := range results {
			if !r.Success && r.Err == nil {
				rep.fail("no zero-valued success", "entity %d (%s) is neither imported nor failed", r.Index, r.Key)
			}
		}
	}

	// (3) no credential in any rendering of the result or the error, nor
	// in the debug log.
	s := &shown{t: t, texts: map[string]string{}}
	func() {
		defer func() {
			if p := recover(); p != nil {
				rep.fail("no panic", "printing the result or the error panicked: %v\n%s", p, debug.Stack())
			}
		}()
		s.result("result", o.result, o.err)
	}()
	s.add("the debug log", logs.String())
	for _, sec := range hostileSecrets {
		if where, sample := hostileShown(s.texts, sec.value); where != "" {
			rep.fail("no credential shown", "%s is shown %s; e.g. %q", sec.name, where, sample)
		}
	}

	// (7) timestamps never wrap.
	if sc.Body != bodyRaw {
		hostileTimestampsIn(reflect.ValueOf(o.result), "result", func(path string, v int64) {
			rep.fail("timestamps never wrap", "%s decoded as %d, before 1970, from a positive or out-of-range value", path, v)
		})
	}

	// Server waits: one cap, one reading; a wait within the cap is
	// honoured, one beyond it (or unreadable) returns the error at once.
	if call.retried(sc.Status) && sc.Location == locNone && sc.Length == lenHonest && !(call.iterates() && sc.Repeat) {
		class, wait := sc.serverWait(pol.MaxServerWait)
		switch class {
		case waitTooLong:
			if attempts != 1 {
				rep.fail("server waits capped", "the answer asks for a wait beyond MaxServerWait (%v) or one that cannot be read, so the call must return its error at once; it sent %d requests and returned %s",
					pol.MaxServerWait, attempts, hostileOutcomeText(o))
			}
		case waitNone, waitAccepted:
			want := pol.MaxRetries + 1
			if call.result == hostileBulk && sc.Status == http.StatusTooManyRequests {
				want += hostileBulkRetries // BulkOptions.RateLimitRetries: further retries of a 429
			}
			if attempts != want {
				rep.fail("server waits honoured", "a %d asking for a wait within MaxServerWait (%v) is retried until the budget is spent: want %d requests, got %d (%s)",
					sc.Status, pol.MaxServerWait, want, attempts, hostileOutcomeText(o))
			}
			if sc.ZeroPolicy && call.result != hostileBulk {
				hostileGaps(rep, reqs, class, wait, pol)
			}
		}
	}
}

// hostileGaps checks that the client waited between attempts at least
// what the policy promises: the server's wait when it asked for one,
// otherwise half the backoff (the jitter's lower end).
func hostileGaps(rep hostileReport, reqs []hostileRequest, class waitClass, wait time.Duration, pol chat.RetryPolicy) {
	var at []time.Time
	for _, r := range reqs {
		if r.server == "main" {
			at = append(at, r.at)
		}
	}
	for k := 1; k < len(at); k++ {
		want := min(pol.MinWait<<(k-1), pol.MaxWait) / 2
		if class == waitAccepted {
			want = wait
		}
		if gap := at[k].Sub(at[k-1]); gap < want {
			rep.fail("backoff", "attempts %d and %d arrived %v apart; the policy (zero waits mean the defaults: MinWait %v, MaxServerWait %v) waits at least %v",
				k, k+1, gap.Round(time.Millisecond), pol.MinWait, pol.MaxServerWait, want)
		}
	}
}

// hostileShown says where the texts (labelled as shown labels them)
// show secret, in which forms, with an hostileExcerpt; "" when nowhere.
func hostileShown(texts map[string]string, secret string) (where, sample string) {
	var forms []string
	verbs := map[string][]string{} // "the error", "its cause", "the result", "the debug log" -> how printed
	var order []string
	for _, label := range slices.Sorted(maps.Keys(texts)) {
		text := texts[label]
		for i, f := range hostileForms(secret) {
			if !shows(text, f) {
				continue
			}
			if !slices.Contains(forms, hostileFormNames[i]) {
				forms = append(forms, hostileFormNames[i])
			}
			if sample == "" {
				sample = hostileExcerpt(text, secret, 160)
			}
			label, _, _ = strings.Cut(label, " #")
			what, how := label, ""
			switch {
			case label == "result Error()":
				what, how = "the error", "Error()"
			case strings.HasPrefix(label, "result error "):
				what, how = "the error", strings.TrimPrefix(label, "result error ")
			case strings.HasPrefix(label, "result cause "):
				what, how = "its cause", strings.TrimPrefix(label, "result cause ")
			case strings.HasPrefix(label, "result "):
				what, how = "the result", strings.TrimPrefix(label, "result ")
			}
			if _, ok := verbs[what]; !ok {
				order = append(order, what)
			}
			if how != "" && !slices.Contains(verbs[what], how) {
				verbs[what] = append(verbs[what], how)
			}
		}
	}
	if len(order) == 0 {
		return "", ""
	}
	var parts []string
	for _, what := range order {
		if len(verbs[what]) == 0 {
			parts = append(parts, what)
		} else {
			parts = append(parts, what+" ("+strings.Join(verbs[what], " ")+")")
		}
	}
	return "(" + strings.Join(forms, ", ") + ") in " + strings.Join(parts, ", "), sample
}

// hostileNoData reports whether a 2xx body holds no data where the call
// returns some: no body, null, a non-object, no "data" or a null one, and
// for one resource an empty object or array.
func hostileNoData(body string, result hostileResult) bool {
	b := strings.TrimSpace(body)
	if b == "" {
		return true
	}
	var top any
	if json.Unmarshal([]byte(b), &top) != nil {
		return false // not JSON: a decoding error, checked elsewhere
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return true
	}
	// encoding/json matches keys case-insensitively, preferring an exact
	// match.
	data, found := obj["data"]
	if !found {
		var folded []any
		for k, v := range obj {
			if strings.EqualFold(k, "data") {
				folded = append(folded, v)
			}
		}
		switch len(folded) {
		case 0:
			return true
		case 1:
			data, found = folded[0], true
		default:
			return false // which one wins is not worth modelling
		}
	}
	if data == nil {
		return true
	}
	if result == hostileObject {
		switch d := data.(type) {
		case map[string]any:
			return len(d) == 0
		case []any:
			return len(d) == 0
		}
	}
	return false
}

// hostileDuplicate names the first item an iterator yielded twice.
func hostileDuplicate(items []any) string {
	seen := map[string]bool{}
	for _, it := range items {
		var key string
		switch v := it.(type) {
		case *chat.User:
			key = "user " + v.UID
		case *chat.Message:
			key = "message " + v.ID
		default:
			continue
		}
		if seen[key] {
			return key
		}
		seen[key] = true
	}
	return ""
}

// hostileTimestampsIn calls bad for every timestamp in v that is before
// 1970, with its path.
func hostileTimestampsIn(v reflect.Value, path string, bad func(path string, v int64)) {
	if !v.IsValid() {
		return
	}
	if timestampTypes[v.Type()] {
		if v.Int() < 0 {
			bad(path, v.Int())
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		hostileTimestampsIn(v.Elem(), path, bad)
	case reflect.Struct:
		for i := range v.NumField() {
			hostileTimestampsIn(v.Field(i), path+"."+v.Type().Field(i).Name, bad)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			hostileTimestampsIn(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			hostileTimestampsIn(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), bad)
		}
	}
}

// hostileExcerpt is at most n bytes of text: around secret's first occurrence
// in any form, or from the start.
func hostileExcerpt(text, secret string, n int) string {
	i := 0
	if secret != "" {
		for _, f := range hostileForms(secret) {
			if j := strings.Index(text, f); j >= 0 {
				i = max(j-n/2, 0)
				break
			}
		}
	}
	text = text[i:]
	if len(text) > n {
		text = text[:n] + "…"
	}
	return text
}

// hostileCarriedText says which credentials a request carried.
func hostileCarriedText(carried []string) string {
	if len(carried) == 0 {
		return ""
	}
	var names []string
	for _, sec := range hostileSecrets {
		if slices.Contains(carried, sec.value) {
			names = append(names, sec.name)
		}
	}
	return ", carrying " + strings.Join(names, ", ")
}

// hostileSection is a part of the hostile-server table: the answers that
// show one class of defect, and the test that runs them.
type hostileSection struct {
	title     string
	test      string // the test's name and file
	scenarios []hostileScenario
}

// add appends scenarios to s.
func (s *hostileSection) add(sc ...hostileScenario) { s.scenarios = append(s.scenarios, sc...) }

// hostileTable is the hostile-server scenarios: every call with the good
// answer, and for each class of defect the answers that show it. Each
// section is one test, in the file of the behaviour it shows;
// FuzzHostileServer is seeded from them all, and RELIABILITY.md lists them.
func hostileTable() []hostileSection {
	return []hostileSection{hostileGoodAnswers(), hostileAnswersWithoutData(), hostileDowngrades(), hostileEchoes(),
		hostileServerWaits(), hostileRepeatingPages(), hostileWrappingTimestamps(), hostileOtherAnswers()}
}

// runHostile runs the section's scenarios, hostileWorkers at a time: each
// is one call against a TLS server whose every answer is generated, and
// each asserts the SDK's promises (hostileEnv.check): no panic; no
// zero-valued success; no credential in any rendering of the result, the
// error or the debug log; a return within the policy's bounds; never a
// plain-http request; iterators that end, with ErrPaginationStalled when
// pages repeat; timestamps that never wrap; and one reading and one cap of
// the waits a server asks for.
func runHostile(t *testing.T, s hostileSection) {
	env := hostileEnv{srv: wiretest.NewHostileServers(t), share: 1}
	work := make(chan int)
	var wg sync.WaitGroup
	for range hostileWorkers {
		wg.Go(func() {
			for i := range work {
				t.Run(s.scenarios[i].name(i), func(t *testing.T) { env.check(t, s.scenarios[i]) })
			}
		})
	}
	for i := range s.scenarios {
		work <- i
	}
	close(work)
	wg.Wait()
}
