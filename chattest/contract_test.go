package chattest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/chattest"
)

// The contract: every operation of the reference, sent as its example
// request documents it, is answered by the fake with the documented status
// and the documented answer's shape: the same keys at every level, each with
// the same JSON type (object, array, string, number, bool, null). Arrays are
// compared through their elements: each element the fake answers has the
// shape of the documented elements, where a key that only some documented
// elements carry may be absent; an object the reference keys by
// placeholders ("<API_KEY1>") is a map, compared member by member the same
// way. The fake may also leave out a key under one rule, mayBeAbsent
// below. Nothing here goes through the SDK's types: the
// requests are written as JSON and the answers read as JSON.

// referenceDir holds the reference's example requests and answers, one
// JSON file per operation (its INDEX.md gives the format).
const referenceDir = "../testdata/reference/examples"

// mayBeAbsent is the one rule under which the fake may leave out a key the
// reference documents: a key whose documented value is null, an empty
// string, an empty array or an empty object may be absent, since the fake
// writes no key for what its state holds nothing of.
func mayBeAbsent(documented any) bool {
	switch v := documented.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// shapeDiff compares the shape of got with the documented value and
// returns what differs, one line per difference, each naming its path
// (e.g. "data.entities.sender.entity.name: missing").
func shapeDiff(documented, got any) []string {
	var out []string
	diffShape(&out, "$", []any{documented}, got)
	return out
}

// diffShape compares got with alts, the documented values at one place: one
// value, or the elements of the documented arrays at that place. got may
// take the type of any of them; an object may carry a key any of them
// carries, and must carry a key that every one of them carries, unless the
// key may be absent in each.
func diffShape(out *[]string, path string, alts []any, got any) {
	kind := jsonKind(got)
	var same []any
	var kinds []string
	for _, a := range alts {
		k := jsonKind(a)
		if k == kind {
			same = append(same, a)
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(same) == 0 {
		*out = append(*out, fmt.Sprintf("%s: %s, documented %s", path, kind, strings.Join(kinds, " or ")))
		return
	}
	switch g := got.(type) {
	case map[string]any:
		if members, ok := placeholderKeyed(same); ok {
			for _, k := range slices.Sorted(maps.Keys(g)) {
				diffShape(out, path+"."+k, members, g[k])
			}
			return
		}
		seen := map[string][]any{} // documented values of each key
		for _, a := range same {
			for k, v := range a.(map[string]any) {
				seen[k] = append(seen[k], v)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(seen)) {
			vals := seen[k]
			v, ok := g[k]
			if ok {
				diffShape(out, path+"."+k, vals, v)
				continue
			}
			if len(vals) < len(same) {
				continue // some documented objects lack it too
			}
			if !slices.ContainsFunc(vals, func(v any) bool { return !mayBeAbsent(v) }) {
				continue
			}
			*out = append(*out, fmt.Sprintf("%s.%s: missing", path, k))
		}
		for _, k := range slices.Sorted(maps.Keys(g)) {
			if _, ok := seen[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: not documented", path, k))
			}
		}
	case []any:
		var elems []any
		emptyDocumented := false
		for _, a := range same {
			arr := a.([]any)
			elems = append(elems, arr...)
			emptyDocumented = emptyDocumented || len(arr) == 0
		}
		switch {
		case len(g) == 0 && !emptyDocumented:
			*out = append(*out, fmt.Sprintf("%s: empty, documented with elements", path))
		case len(g) > 0 && len(elems) == 0:
			*out = append(*out, fmt.Sprintf("%s: %d elements, documented empty", path, len(g)))
		}
		if len(elems) == 0 {
			return
		}
		for i, e := range g {
			diffShape(out, fmt.Sprintf("%s[%d]", path, i), elems, e)
		}
	}
}

// placeholderKeyed reports whether the documented objects are keyed by
// placeholders ("<API_KEY1>", "<SETTING_KEY1>") rather than by names, and
// returns their members: such an object is a map, each member of the
// answer compared with the documented members.
func placeholderKeyed(objects []any) ([]any, bool) {
	var members []any
	for _, o := range objects {
		for k, v := range o.(map[string]any) {
			if !strings.HasPrefix(k, "<") || !strings.HasSuffix(k, ">") {
				return nil, false
			}
			members = append(members, v)
		}
	}
	return members, len(members) > 0
}

// refOperation is one operation of the reference, as its example file
// gives it.
type refOperation struct {
	api  string // the directory: chat, calls, management or data-import
	name string // the operationId, or the file's name where it has none

	Method                  string                     `json:"method"`
	Path                    string                     `json:"path"`
	OperationID             *string                    `json:"operationId"`
	Headers                 []refParam                 `json:"headers"`
	Query                   []refParam                 `json:"query"`
	RequestExample          json.RawMessage            `json:"requestExample"`
	RequestPropertyExamples json.RawMessage            `json:"requestPropertyExamples"`
	Responses               map[string]json.RawMessage `json:"responses"`
}

type refParam struct {
	Name     string   `json:"name"`
	Required bool     `json:"required"`
	Type     string   `json:"type"`    // query parameters: the schema's type
	Enum     []string `json:"enum"`    // query parameters: the values it takes, if enumerated
	Default  any      `json:"default"` // query parameters: its default, if any (numbers may be strings)
}

func (op refOperation) headerRequired(name string) bool {
	return slices.ContainsFunc(op.Headers, func(p refParam) bool { return p.Name == name && p.Required })
}

// refRequest is one documented request body of an operation: the single
// example (name ""), or one of its named examples.
type refRequest struct {
	name string
	body json.RawMessage // nil: no body
}

// requests lists the operation's documented request bodies: for named
// examples (an object whose every member is an object) each one; for the
// data import operations, whose documents give the wrapper property's
// example only, that example, which is the whole body.
func (op refOperation) requests() []refRequest {
	raw := op.RequestExample
	if isNull(raw) {
		raw = op.RequestPropertyExamples
	}
	if isNull(raw) {
		return nil
	}
	var named map[string]json.RawMessage
	if json.Unmarshal(raw, &named) == nil && len(named) > 0 {
		all := true
		for _, v := range named {
			all = all && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{"))
		}
		if all && op.RequestPropertyExamples == nil {
			var out []refRequest
			for _, k := range slices.Sorted(maps.Keys(named)) {
				out = append(out, refRequest{k, named[k]})
			}
			return out
		}
	}
	return []refRequest{{"", raw}}
}

// response returns the documented answer to the request named name: the
// response of that name where the document names its responses, else its
// only one.
func (op refOperation) response(t testing.TB, name string) (int, any) {
	t.Helper()
	key := ""
	for k := range op.Responses {
		if k == name || strings.HasSuffix(k, "/"+name) || len(op.Responses) == 1 {
			key = k
		}
	}
	require.NotEmpty(t, key, "%s: no documented response for %q", op.name, name)
	status, err := strconv.Atoi(strings.SplitN(key, "/", 2)[0])
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(op.Responses[key], &v))
	return status, v
}

func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// loadReference reads every operation's example file.
func loadReference(t testing.TB) []refOperation {
	t.Helper()
	var ops []refOperation
	for _, api := range []string{"chat", "calls", "management", "data-import"} {
		files, err := filepath.Glob(filepath.Join(referenceDir, api, "*.json"))
		require.NoError(t, err)
		for _, f := range files {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			var op refOperation
			require.NoError(t, json.Unmarshal(raw, &op), f)
			op.api = api
			op.name = strings.TrimSuffix(filepath.Base(f), ".json")
			if op.OperationID != nil {
				require.Equal(t, *op.OperationID, op.name, "%s is named for its operationId", f)
			}
			ops = append(ops, op)
		}
	}
	return ops
}

// contractTime is the fake's clock in the contract test.
var contractTime = time.Unix(1_760_000_000, 0) // after every example's timestamps

// fixture is a fake seeded for one operation, and the requests sent to it.
type fixture struct {
	t      *testing.T
	srv    *chattest.Server
	hc     *http.Client
	params map[string]string // path parameters the seeding made (e.g. a token's value)
}

// send sends one request to the API of op's kind and returns the status and
// the decoded answer.
func (f *fixture) send(api, method, path string, body []byte, header http.Header) (int, any, []byte) {
	f.t.Helper()
	base := f.srv.URL() + "/v3"
	if api == "management" {
		base = f.srv.ManagementURL()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(f.t.Context(), method, base+path, rd)
	require.NoError(f.t, err)
	if body != nil && header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case api != "management":
		req.Header.Set("apikey", f.srv.APIKey())
	case path == "/tenants":
		req.SetBasicAuth(f.srv.ManagementKey(), f.srv.ManagementSecret())
	default:
		req.Header.Set("key", f.srv.ManagementKey())
		req.Header.Set("secret", f.srv.ManagementSecret())
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := f.hc.Do(req)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	var v any
	if len(raw) > 0 {
		require.NoError(f.t, json.Unmarshal(raw, &v), "%s %s answers JSON: %s", method, path, raw)
	}
	return resp.StatusCode, v, raw
}

// fill replaces each {name} in s with the path parameter name the seeding
// made.
func (f *fixture) fill(s string) string {
	for k, v := range f.params {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// form sends a seeding multipart/form-data request and requires a 2xx.
func (f *fixture) form(method, path string, fields map[string]string) {
	f.t.Helper()
	body, ct := multipartBody(f.t, fields)
	status, _, raw := f.send("chat", method, path, body, http.Header{"Content-Type": {ct}})
	require.True(f.t, status/100 == 2, "seeding %s %s: %d %s", method, path, status, raw)
}

// multipartBody encodes fields as a multipart/form-data body.
func multipartBody(t testing.TB, fields map[string]string) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		name, file, ok := strings.Cut(k, "@") // "name@file": a file part
		if !ok {
			require.NoError(t, w.WriteField(k, fields[k]))
			continue
		}
		part, err := w.CreateFormFile(name, file)
		require.NoError(t, err)
		_, err = part.Write([]byte(fields[k]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return buf.Bytes(), w.FormDataContentType()
}

// stateFile writes a state file of changes for WithSeedFile.
func stateFile(t testing.TB, changes []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	doc := fmt.Sprintf(`{"chattest": 1, "appId": "test-app", "created": %q, "changes": [%s]}`,
		contractTime.UTC().Format(time.RFC3339), strings.Join(changes, ",\n"))
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o600))
	return path
}

// must sends a seeding request and requires a 2xx.
func (f *fixture) must(api, method, path, body, onBehalfOf string) any {
	f.t.Helper()
	h := http.Header{}
	if onBehalfOf != "" {
		h.Set("onBehalfOf", onBehalfOf)
	}
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	status, v, raw := f.send(api, method, path, b, h)
	require.True(f.t, status/100 == 2, "seeding %s %s: %d %s", method, path, status, raw)
	return v
}

func TestContract(t *testing.T) {
	ops := loadReference(t)
	require.Len(t, ops, 278)
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			f, path, h, reqs := prepareOperation(t, op, ops)
			c := contractCases[op.name]
			for _, rq := range reqs {
				status, got, raw := f.send(op.api, op.Method, path, rq.body, h)
				wantStatus, want := op.response(t, rq.name)
				against := "the reference's example"
				if fix, ok := contractExpectations[op.name]; ok {
					want, against = fix.expect(want, rq.body), fix.against()
				}
				if status != wantStatus {
					t.Errorf("%s %s %s: status %d, documented %d: %s", rq.name, op.Method, path, status, wantStatus, raw)
					continue
				}
				if d := shapeDiff(want, got); len(d) > 0 {
					t.Errorf("%s %s %s: the answer's shape differs from %s:\n%s\nanswer: %s",
						rq.name, op.Method, path, against, strings.Join(d, "\n"), raw)
				}
				if d := answerValuesDiff(op, c.query, got); len(d) > 0 {
					t.Errorf("%s %s %s: the answer's values differ from those the reference fixes:\n%s\nanswer: %s",
						rq.name, op.Method, path, strings.Join(d, "\n"), raw)
				}
			}
		})
	}
}

// prepareOperation starts a fake seeded as op's case says and returns
// it, the path to send op to (its parameters and the case's query filled
// in), the headers and the request bodies to send; the fake closes when
// the test ends.
func prepareOperation(t *testing.T, op refOperation, ops []refOperation) (*fixture, string, http.Header, []refRequest) {
	t.Helper()
	c, ok := contractCases[op.name]
	if !ok && strings.HasPrefix(op.Path, "/apps/{appId}/extensions/") && strings.HasSuffix(op.Path, "/v1/settings") {
		c = settingsCase(t, op, ops)
	}
	opts := []chattest.Option{chattest.WithClock(func() time.Time { return contractTime })}
	if c.state != nil {
		opts = append(opts, chattest.WithSeedFile(stateFile(t, c.state(t))))
	}
	srv, err := chattest.OpenServer(opts...)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	f := &fixture{t: t, srv: srv, hc: srv.HTTPClient(), params: map[string]string{}}
	if c.seed != nil {
		c.seed(f)
	}
	path := op.Path
	for _, ps := range []map[string]string{c.params, f.params, defaultParams(srv)} {
		for k, v := range ps {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
	}
	if c.query != "" {
		path += "?" + f.fill(c.query)
	}
	h := http.Header{}
	switch {
	case c.actor != "":
		h.Set("onBehalfOf", c.actor)
	case op.headerRequired("onBehalfOf"):
		h.Set("onBehalfOf", "superhero1")
	}
	reqs := op.requests()
	if _, ok := contractRequests[op.name]; ok {
		reqs = nil // the case's body replaces the documented one
	}
	if reqs == nil {
		var body json.RawMessage
		switch {
		case c.form != nil:
			var ct string
			body, ct = multipartBody(t, c.form)
			h.Set("Content-Type", ct)
		case c.body != "":
			body = json.RawMessage(f.fill(c.body))
		}
		reqs = []refRequest{{"", body}}
	}
	return f, path, h, reqs
}

// defaultParams are the path parameters every operation may use: the
// fake's own app for the management API.
func defaultParams(srv *chattest.Server) map[string]string {
	return map[string]string{"appId": srv.AppID()}
}

// contractCase says how one operation is sent: what the fake holds first,
// the path parameters, the query, the acting user and, where the reference
// gives no example body, the body.
type contractCase struct {
	seed   func(f *fixture)
	params map[string]string
	query  string
	actor  string                      // onBehalfOf (default: superhero1 where the reference requires the header)
	body   string                      // the body where the reference gives no example ({name} takes a path parameter's value)
	form   map[string]string           // a multipart/form-data body, for the operations that take one
	state  func(t testing.TB) []string // changes of a state file the fake starts from
}

// contractExpectation is an answer the contract expects in place of the
// reference's example, with its reason: the live service's answer where it
// differs from the reference (service), or the reference's own correction
// of an example it contradicts.
type contractExpectation struct {
	service bool
	reason  string
	expect  func(documented any, req json.RawMessage) any
}

// against says what the answer is compared with, for failures.
func (e contractExpectation) against() string {
	if e.service {
		return "the service's answer (" + e.reason + ")"
	}
	return "the reference's example as corrected (" + e.reason + ")"
}

// contractRequests lists the operations whose documented request body is
// not sent, each with the reason; the case's body is sent in its place.
var contractRequests = map[string]string{
	"remove-triggers": "the documented body is a tenant sign-up (name, email, password, appName), not the triggerIds the operation removes",
}

func TestShapeDiff(t *testing.T) {
	parse := func(s string) any {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		return v
	}
	cases := []struct {
		name, documented, got string
		want                  []string
	}{
		{"same keys and types", `{"data":{"uid":"a","n":1,"ok":true,"m":{"k":"v"}}}`, `{"data":{"uid":"b","n":2.5,"ok":false,"m":{"k":"w"}}}`, nil},
		{"a key missing", `{"data":{"uid":"a","name":"A"}}`, `{"data":{"uid":"a"}}`, []string{"$.data.name: missing"}},
		{"a key not documented", `{"data":{"uid":"a"}}`, `{"data":{"uid":"a","nam":"A"}}`, []string{"$.data.nam: not documented"}},
		{"another type", `{"data":{"count":"0"}}`, `{"data":{"count":0}}`, []string{"$.data.count: number, documented string"}},
		{"null, empty string, array and object may be absent", `{"a":null,"b":"","c":[],"d":{},"e":"x"}`, `{"e":"y"}`, nil},
		{"false may not be absent", `{"a":false}`, `{}`, []string{"$.a: missing"}},
		{"a documented null is null", `{"a":null}`, `{"a":1}`, []string{"$.a: number, documented null"}},
		{"elements compared with every documented element", `[{"a":1,"b":1},{"a":2}]`, `[{"a":1},{"a":1,"b":2},{"c":3}]`,
			[]string{"$[2].a: missing", "$[2].c: not documented"}},
		{"an element's key of another type", `[{"a":1},{"a":"x"}]`, `[{"a":true}]`, []string{"$[0].a: bool, documented number or string"}},
		{"documented elements, none answered", `{"data":[{"a":1}]}`, `{"data":[]}`, []string{"$.data: empty, documented with elements"}},
		{"documented empty, elements answered", `{"data":[]}`, `{"data":[1]}`, []string{"$.data: 1 elements, documented empty"}},
		{"placeholder keys are a map", `{"keys":{"<K1>":{"a":1},"<K2>":{"a":2}}}`, `{"keys":{"x1":{"a":1},"x2":{"b":1}}}`,
			[]string{"$.keys.x2.a: missing", "$.keys.x2.b: not documented"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, shapeDiff(parse(tc.documented), parse(tc.got)))
		})
	}
}

// A JSON tag changed on a type the fake answers with (here chat.User's
// "name", as if it read "nam") is a difference the contract reports: the
// fake's real answer to get-user matches the reference, and the same
// answer with the key renamed does not.
func TestContractCatchesARenamedKey(t *testing.T) {
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return contractTime }))
	defer srv.Close()
	f := &fixture{t: t, srv: srv, hc: srv.HTTPClient(), params: map[string]string{}}
	f.managerRole()
	f.users("superhero6")
	_, documented := documentedStatus(t, "chat/get-user.json")
	status, got, raw := f.send("chat", "GET", "/users/superhero6", nil, nil)
	require.Equal(t, 200, status)
	require.Empty(t, shapeDiff(documented, got), "the fake's answer: %s", raw)

	renamed := dig(got, "data").(map[string]any)
	renamed["nam"] = renamed["name"]
	delete(renamed, "name")
	require.Equal(t, []string{"$.data.name: missing", "$.data.nam: not documented"}, shapeDiff(documented, got))
}

// Every operation the cases and expectations name is an operation of the
// reference, and every expectation and request override says why.
func TestContractListsAreReviewed(t *testing.T) {
	names := map[string]bool{}
	for _, op := range loadReference(t) {
		names[op.name] = true
	}
	for name := range contractCases {
		require.True(t, names[name], "case %s names no operation", name)
	}
	for name, e := range contractExpectations {
		require.True(t, names[name], "expectation %s names no operation", name)
		require.NotEmpty(t, e.reason, name)
	}
	for name, reason := range contractRequests {
		require.True(t, names[name], "request override %s names no operation", name)
		require.NotEmpty(t, reason, name)
		require.NotEmpty(t, contractCases[name].body, "%s: the body sent in place of the documented one", name)
	}
}

// documentedStatus is the documented status and answer of an example file.
func documentedStatus(t testing.TB, name string) (int, any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(referenceDir, name))
	require.NoError(t, err)
	var op refOperation
	require.NoError(t, json.Unmarshal(raw, &op))
	op.name = name
	return op.response(t, "")
}
