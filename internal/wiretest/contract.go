package wiretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Example is one operation of the reference's example fixtures
// (testdata/reference/examples, one JSON file per operation; INDEX.md
// there gives the format): its request line and its documented answers.
type Example struct {
	// File is the fixture's path below the examples directory, e.g.
	// "chat/get-user.json".
	File string `json:"-"`
	// Method and Path are the operation's request line; Path is relative
	// to the document's server.
	Method string `json:"method"`
	Path   string `json:"path"`
	// OperationID is the operation's id; nil for the few operations
	// without one.
	OperationID *string `json:"operationId"`
	// Responses holds the documented answers by status ("200") or by
	// status and example name ("200/abc").
	Responses map[string]json.RawMessage `json:"responses"`
}

// Name is the operation's id, or the fixture's base name (e.g.
// "noid-get-users-uid-blockedusers") for an operation without one.
func (e Example) Name() string {
	if e.OperationID != nil {
		return *e.OperationID
	}
	return strings.TrimSuffix(filepath.Base(e.File), ".json")
}

// PathPattern is a regular expression matching the escaped paths of the
// operation: its Path below prefix (e.g. "/v3"), each {parameter} one
// non-empty segment.
func (e Example) PathPattern(prefix string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^" + regexp.QuoteMeta(prefix))
	for seg := range strings.SplitSeq(strings.TrimPrefix(e.Path, "/"), "/") {
		b.WriteString("/")
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			b.WriteString("[^/]+")
		} else {
			b.WriteString(regexp.QuoteMeta(seg))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// Answers returns the documented 2xx answers, keyed as in Responses, in
// key order.
func (e Example) Answers() (keys []string, bodies []json.RawMessage) {
	for k := range e.Responses {
		if strings.HasPrefix(k, "2") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		bodies = append(bodies, e.Responses[k])
	}
	return keys, bodies
}

// LoadExamples reads the fixtures of the documents named (subdirectories
// of dir, e.g. "chat", "calls") and returns them by Name. A document
// without fixtures fails the test.
func LoadExamples(t testing.TB, dir string, documents ...string) map[string]Example {
	t.Helper()
	out := map[string]Example{}
	for _, doc := range documents {
		files, err := filepath.Glob(filepath.Join(dir, doc, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no fixtures in %s", filepath.Join(dir, doc))
		for _, name := range files {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			var e Example
			require.NoError(t, json.Unmarshal(b, &e), name)
			e.File = doc + "/" + filepath.Base(name)
			_, dup := out[e.Name()]
			require.False(t, dup, "two fixtures name the operation %s", e.Name())
			out[e.Name()] = e
		}
	}
	return out
}

// DecodeTree decodes JSON into the generic tree Lacks compares: maps,
// slices, strings, booleans, nil and json.Number.
func DecodeTree(t testing.TB, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), "decoding %.200s", b)
	return v
}

// Encode encodes v with encoding/json, as a user of the SDK would, and
// returns it as a tree for Lacks.
func Encode(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err, "encoding %T", v)
	return DecodeTree(t, b)
}

// Select returns the member of tree at the dotted path ("data",
// "data.timezone", "data.pushProviders.0" for an array's first item); ""
// is the tree itself. A member that is not there fails the test.
func Select(t testing.TB, tree any, path string) any {
	t.Helper()
	if path == "" {
		return tree
	}
	for name := range strings.SplitSeq(path, ".") {
		if a, ok := tree.([]any); ok {
			i, err := strconv.Atoi(name)
			require.True(t, err == nil && i >= 0 && i < len(a), "%s: no item %q in an array of %d", path, name, len(a))
			tree = a[i]
			continue
		}
		m, ok := tree.(map[string]any)
		require.True(t, ok, "%s: no object holds %q", path, name)
		tree, ok = m[name]
		require.True(t, ok, "%s: no member %q", path, name)
	}
	return tree
}

// Lacks returns where got, a value encoded again, lacks what want, the
// documented value, has: every member of every object of want must be in
// got under the same key, every array must have as many items, each
// holding what want's holds, and every other value must be equal. Members
// got has beyond want's are not looked at. Three leniencies follow what
// the SDK's decoding does and lose nothing: a number and a string holding
// the same number are equal (the API sends counts and ids either way), an
// empty array is an empty object (the management API writes an empty map
// as []), and a member whose documented value is null may be left out.
//
// Each place is a path from the root: "data.entities.sender.entity.uid",
// "data[0].tags", with what is wrong there.
func Lacks(want, got any) []string {
	var out []string
	lacks(&out, "", want, got)
	return out
}

func lacks(out *[]string, at string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want an object, got %s", orRoot(at), show(got)))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if at != "" {
				p = at + "." + k
			}
			gv, ok := g[k]
			if !ok {
				if w[k] != nil {
					*out = append(*out, p+": missing")
				}
				continue
			}
			lacks(out, p, w[k], gv)
		}
	case []any:
		if m, ok := got.(map[string]any); ok && len(w) == 0 && len(m) == 0 {
			return // an empty map, which the service writes as []
		}
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want an array of %d, got %s", orRoot(at), len(w), show(got)))
			return
		}
		if len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: want %d items, got %d", orRoot(at), len(w), len(g)))
			return
		}
		for i := range w {
			lacks(out, fmt.Sprintf("%s[%d]", at, i), w[i], g[i])
		}
	default:
		if !sameScalar(want, got) {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", orRoot(at), show(want), show(got)))
		}
	}
}

func orRoot(at string) string {
	if at == "" {
		return "(root)"
	}
	return at
}

// sameScalar reports whether two leaves are the same value: equal, or a
// number and a string holding that number.
func sameScalar(want, got any) bool {
	if reflect.DeepEqual(want, got) {
		return true
	}
	_, ws := want.(string)
	_, gs := got.(string)
	if ws && gs {
		return false
	}
	wn, wok := number(want)
	gn, gok := number(got)
	return wok && gok && wn.Cmp(gn) == 0
}

// number reads a json.Number, or a string that is a JSON number.
func number(v any) (*big.Float, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		if !json.Valid([]byte(x)) {
			return nil, false
		}
		if _, err := strconv.ParseFloat(x, 64); err != nil {
			return nil, false
		}
		s = x
	default:
		return nil, false
	}
	f, _, err := big.ParseFloat(s, 10, 200, big.ToNearestEven)
	return f, err == nil
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

// Excused reports whether the place p (as Lacks names it) lies under one of
// the paths given, in which "[*]" stands for any index, and a leading
// "**." for any depth: "data[*].meta" excuses "data[2].meta.cursor:
// missing", "**.flag" excuses "conditions[0].flag: missing".
func Excused(p string, paths []string) bool {
	place, _, _ := strings.Cut(p, ": ")
	for _, e := range paths {
		if matchPath(place, e) {
			return true
		}
	}
	return false
}

// matchPath reports whether place is pattern, or lies below it.
func matchPath(place, pattern string) bool {
	if rest, ok := strings.CutPrefix(pattern, "**."); ok {
		for i := 0; i <= len(place); i++ {
			if (i == 0 || place[i-1] == '.') && matchPath(place[i:], rest) {
				return true
			}
		}
		return false
	}
	for {
		i := strings.Index(pattern, "[*]")
		if i < 0 {
			break
		}
		if !strings.HasPrefix(place, pattern[:i]+"[") {
			return false
		}
		place = place[i+1:]
		j := strings.IndexByte(place, ']')
		if j < 0 {
			return false
		}
		if _, err := strconv.Atoi(place[:j]); err != nil {
			return false
		}
		place, pattern = place[j+1:], pattern[i+3:]
	}
	return place == pattern || strings.HasPrefix(place, pattern+".") || strings.HasPrefix(place, pattern+"[")
}

// Contract is how one operation's result is held to its documented
// answers by [CheckContract].
type Contract struct {
	// Call calls the SDK method with body, a documented answer, served
	// whatever is asked, and returns what the method returned. doc is body
	// as a tree, for calls whose arguments must name what it holds.
	Call func(t *testing.T, body []byte, doc any) (any, error)
	// Part is where the result sits in the documented answer: "data"
	// when empty, "-" for the whole answer (a page: data, meta, cursor),
	// or a path for Select ("data.pushTokens", "0.data").
	Part string
	// View, when set, turns the result into what is compared, for results
	// that regroup the answer.
	View func(t *testing.T, result any) any
	// Expand, when set, rewrites the encoded result before it is compared
	// (the chat package decodes the entities a message keeps as JSON).
	Expand func(t *testing.T, tree any) any
	// Repair, when set, gives the documented answer the shape its schema
	// describes, for an example that is not an answer a service could
	// send; every key and value stays and is compared.
	Repair func(t *testing.T, doc any) any
	// Excused are the places the SDK drops or rewrites on purpose (see
	// Excused); each must excuse something.
	Excused []string
	// Pending, when set, says why what the result lacks is logged rather
	// than failed.
	Pending string
}

// CheckContract calls c.Call on each documented 2xx answer of ex, encodes
// the result again with encoding/json and fails the test for each place
// the documented answer has and the result lacks (see Lacks), but those c
// excuses; an excuse that excuses nothing fails too.
func CheckContract(t *testing.T, ex Example, c Contract) {
	t.Helper()
	keys, bodies := ex.Answers()
	require.NotEmpty(t, keys, "%s documents no 2xx answer", ex.File)
	used := map[string]bool{}
	for i, body := range bodies {
		t.Run(keys[i], func(t *testing.T) {
			doc := DecodeTree(t, body)
			if c.Repair != nil {
				doc = c.Repair(t, doc)
				b, err := json.Marshal(doc)
				require.NoError(t, err)
				body = b
			}
			res, err := c.Call(t, body, DecodeTree(t, body))
			require.NoError(t, err)
			require.NotNil(t, res)
			var want any
			switch c.Part {
			case "":
				want = Select(t, doc, "data")
			case "-":
				want = doc
			default:
				want = Select(t, doc, c.Part)
			}
			if c.View != nil {
				res = c.View(t, res)
			}
			got := Encode(t, res)
			if c.Expand != nil {
				got = c.Expand(t, got)
			}
			for _, p := range Lacks(want, got) {
				switch {
				case c.Pending != "":
					t.Logf("not held to the example (%s): %s", c.Pending, p)
				case Excused(p, c.Excused):
					t.Logf("excused (CHOICES.md): %s", p)
					for _, e := range c.Excused {
						if Excused(p, []string{e}) {
							used[e] = true
						}
					}
				default:
					t.Errorf("the encoded result lacks %s", p)
				}
			}
		})
	}
	for _, e := range c.Excused {
		assert.True(t, used[e], "excused place %s is no longer needed: remove it here and in CHOICES.md", e)
	}
}

// Answer makes a fresh client whose Mock answers 200 with body, makes the
// call, and, when it succeeds, asserts that it sent one request: with the
// example's method, to a path the example's pattern below prefix matches.
func (h Harness[C]) Answer(t *testing.T, ex Example, prefix string, body []byte, call func(c C) (any, error)) (any, error) {
	t.Helper()
	m, c := h.New(t)
	m.Reply(http.StatusOK, string(body))
	res, err := call(c)
	if err == nil {
		r := m.Only()
		assert.Equal(t, ex.Method, r.Method, "method")
		assert.Regexp(t, ex.PathPattern(prefix), r.Path, "escaped path")
	}
	return res, err
}
