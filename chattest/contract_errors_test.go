package chattest_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/chattest"
)

// The error contract: every error the fake answers has a code of the
// reference's error table (testdata/error-codes.txt), or one the live
// service was recorded answering (testdata/service), or one the fake chose
// where the reference names none (fakeChosenCodes, each in CHOICES.md);
// the status the reference or the live service fixes for its code
// (testdata/error-statuses.txt); and the body the live service answers
// errors with (testdata/service/error-auth-no-access.json): the same keys
// and types, "source" "chat-api", and details, when present, a list of
// messages per field (platform.md §2.1).

const (
	errorCodesFile    = "../testdata/error-codes.txt"
	errorStatusesFile = "../testdata/error-statuses.txt"
	serviceDir        = "../testdata/service"
	// referenceBeside is the reference, when it is beside the repository.
	referenceBeside = "../../shared/api"
)

// fakeChosenCodes are the codes the fake answers that neither the
// reference nor the live service's recorded answers name, each with the
// case it answers; CHOICES.md says why each.
var fakeChosenCodes = map[string]string{
	"ERR_GUID_ALREADY_EXISTS": "POST /v3/groups with a GUID in use",
	"AUTH_ERR_APP_NOT_FOUND":  "the client API asked with another app's appId",
}

var codePattern = regexp.MustCompile(`^(?:AUTH_)?ERR_[A-Z0-9_]+$`)

// readTableLines returns the lines of a testdata table, without comments
// and blank lines.
func readTableLines(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// errorStatus is one line of the status table.
type errorStatus struct {
	status int
	source string // "reference" or "service"
	where  string
}

// errorStatuses reads testdata/error-statuses.txt.
func errorStatuses(t testing.TB) map[string]errorStatus {
	t.Helper()
	out := map[string]errorStatus{}
	for _, line := range readTableLines(t, errorStatusesFile) {
		f := strings.SplitN(line, " ", 4)
		require.Len(t, f, 4, line)
		status, err := strconv.Atoi(f[1])
		require.NoError(t, err, line)
		require.Contains(t, []string{"reference", "service"}, f[2], line)
		require.NotContains(t, out, f[0], "%s is given twice", f[0])
		out[f[0]] = errorStatus{status, f[2], f[3]}
	}
	return out
}

// serviceErrorCodes are the codes of the live service's recorded error
// answers.
func serviceErrorCodes(t testing.TB) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(serviceDir, "*.json"))
	require.NoError(t, err)
	out := map[string]bool{}
	for _, f := range files {
		if code, ok := dig(loadJSON(t, f), "error.code").(string); ok {
			out[code] = true
		}
	}
	return out
}

// knownCodes are the codes an error of the fake may have.
func knownCodes(t testing.TB) map[string]bool {
	t.Helper()
	out := serviceErrorCodes(t)
	for _, c := range readTableLines(t, errorCodesFile) {
		out[c] = true
	}
	for c := range fakeChosenCodes {
		out[c] = true
	}
	return out
}

// httpStatuses are the values of the net/http status names the fake's
// errors use.
var httpStatuses = map[string]int{
	"StatusBadRequest": 400, "StatusUnauthorized": 401, "StatusPaymentRequired": 402, "StatusForbidden": 403,
	"StatusNotFound": 404, "StatusMethodNotAllowed": 405, "StatusConflict": 409, "StatusGone": 410,
	"StatusRequestEntityTooLarge": 413, "StatusUnsupportedMediaType": 415, "StatusUnprocessableEntity": 422,
	"StatusTooManyRequests": 429, "StatusInternalServerError": 500, "StatusNotImplemented": 501,
	"StatusBadGateway": 502, "StatusServiceUnavailable": 503, "StatusGatewayTimeout": 504,
}

// fakeError is an error the fake's source builds: newAPIError(status,
// code, ...) with both known where it is written.
type fakeError struct {
	pos    string
	status int
	code   string
}

// scanFakeSource parses the fake's sources (not its tests) and returns the
// error codes written in them and the errors they build.
func scanFakeSource(t testing.TB) (codes map[string][]string, built []fakeError) {
	t.Helper()
	fset := token.NewFileSet()
	var files []string // the fake's sources: the package's and its internal packages'
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	codes = map[string][]string{}
	consts := map[string]string{}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		parsed = append(parsed, f)
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && codePattern.MatchString(s) {
					codes[s] = append(codes[s], fset.Position(x.Pos()).String())
				}
			case *ast.ValueSpec:
				for i, id := range x.Names {
					if i < len(x.Values) {
						if lit, ok := x.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[id.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
			return true
		})
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "newAPIError" {
				return true
			}
			pos := fset.Position(call.Pos()).String()
			sel, ok := call.Args[0].(*ast.SelectorExpr)
			if !ok {
				return true // a status chosen by the caller: an injected fault
			}
			status, ok := httpStatuses[sel.Sel.Name]
			require.True(t, ok, "%s: http.%s is not in httpStatuses", pos, sel.Sel.Name)
			var code string
			switch a := call.Args[1].(type) {
			case *ast.BasicLit:
				code, _ = strconv.Unquote(a.Value)
			case *ast.Ident:
				code = consts[a.Name]
			}
			if code != "" {
				built = append(built, fakeError{pos, status, code})
			}
			return true
		})
	}
	return codes, built
}

// TestContractErrorCodes reads the fake's sources: every error code in
// them is one the fake may answer, and every error built with a code
// whose status is fixed has that status.
func TestContractErrorCodes(t *testing.T) {
	known := knownCodes(t)
	statuses := errorStatuses(t)
	codes, built := scanFakeSource(t)
	require.NotEmpty(t, built)
	for _, code := range slices.Sorted(maps.Keys(codes)) {
		if !known[code] {
			t.Errorf("%s (%s) is in neither the reference's error table nor the service's answers, nor a code the fake chose", code, strings.Join(codes[code], ", "))
		}
	}
	for _, e := range built {
		if fixed, ok := statuses[e.code]; ok && fixed.status != e.status {
			t.Errorf("%s: %s with status %d; %s fixes %d", e.pos, e.code, e.status, fixed.where, fixed.status)
		}
	}
	service := serviceErrorCodes(t)
	for code, s := range statuses {
		if s.source == "service" {
			require.True(t, service[code], "the status of %s comes from a recorded answer of the service (testdata/service)", code)
		}
	}
	choices, err := os.ReadFile("../CHOICES.md")
	require.NoError(t, err)
	for code, what := range fakeChosenCodes {
		require.Contains(t, string(choices), "`"+code+"`", "CHOICES.md says why the fake answers %s (%s)", code, what)
		require.Contains(t, codes, code, "the fake answers %s", code)
	}
}

// TestContractErrorStatusesAreTheReferences compares the status table
// with the reference, when it is beside the repository: each status it
// says the reference fixes is written there beside its code.
func TestContractErrorStatusesAreTheReferences(t *testing.T) {
	var text string
	for _, name := range []string{"chat-core.md", "platform.md"} {
		b, err := os.ReadFile(filepath.Join(referenceBeside, name))
		if errors.Is(err, fs.ErrNotExist) {
			t.Logf("%s is not beside the repository: testdata's table is not compared with it", referenceBeside)
			return
		}
		require.NoError(t, err)
		text += string(b)
	}
	for code, s := range errorStatuses(t) {
		if s.source != "reference" {
			continue
		}
		q, st := regexp.QuoteMeta(code), strconv.Itoa(s.status)
		// "`CODE` (400", "400 `CODE`", "| 400 | `CODE`", "`CODE`→400",
		// "HTTP `429`; ... `CODE`".
		re := regexp.MustCompile("`" + q + "` \\(" + st + "|" + st + " `" + q + "`|\\| " + st + " \\| `" + q + "`|`" + q + "`→" + st +
			"|HTTP `" + st + "`[^|\n]*`" + q + "`")
		found := re.MatchString(text)
		require.True(t, found, "the reference gives %s the status %d", code, s.status)
	}
}

// errorBodyAlternatives are the error bodies the live service answers,
// without details and with them (platform.md §2.1: each failing field
// mapped to a list of messages).
func errorBodyAlternatives(t testing.TB) []any {
	t.Helper()
	bare := loadJSON(t, filepath.Join(serviceDir, "error-auth-no-access.json"))
	withDetails := clone(bare)
	dig(withDetails, "error").(map[string]any)["details"] = map[string]any{"<field>": []any{""}}
	return []any{bare, withDetails}
}

// checkErrorAnswer compares one error answer with the contract and
// returns what differs.
func checkErrorAnswer(t testing.TB, alts []any, known map[string]bool, statuses map[string]errorStatus, status int, body any) []string {
	t.Helper()
	out := diffShapeAlts(alts, body)
	code, _ := dig(body, "error.code").(string)
	if !known[code] {
		out = append(out, fmt.Sprintf("error.code %q: not a code of the error table", code))
	}
	if fixed, ok := statuses[code]; ok && fixed.status != status {
		out = append(out, fmt.Sprintf("status %d for %s; %s fixes %d", status, code, fixed.where, fixed.status))
	}
	if src := dig(body, "error.source"); src != "chat-api" {
		out = append(out, fmt.Sprintf("error.source %v, the service's is \"chat-api\"", src))
	}
	if msg, _ := dig(body, "error.message").(string); msg == "" {
		out = append(out, "error.message: empty")
	}
	return out
}

// TestContractErrorAnswers sends every operation of the reference, as
// documented, to a fake that holds nothing the request names (the ids in
// its path name nothing), then again without credentials, and a write once
// more with an empty object as its body, and holds every error answered to
// the contract.
func TestContractErrorAnswers(t *testing.T) {
	ops := loadReference(t)
	known := knownCodes(t)
	statuses := errorStatuses(t)
	alts := errorBodyAlternatives(t)
	srv, err := chattest.OpenServer(chattest.WithClock(func() time.Time { return contractTime }))
	require.NoError(t, err)
	defer srv.Close()
	f := &fixture{t: t, srv: srv, hc: srv.HTTPClient(), params: map[string]string{}}
	seen := map[string]int{}
	for _, op := range ops {
		path := op.Path
		for _, seg := range strings.Split(op.Path, "/") {
			if strings.HasPrefix(seg, "{") && seg != "{appId}" {
				path = strings.Replace(path, seg, "missing-"+strings.Trim(seg, "{}"), 1)
			}
		}
		path = strings.ReplaceAll(path, "{appId}", srv.AppID())
		var body []byte
		if reqs := op.requests(); len(reqs) > 0 {
			body = reqs[0].body
		}
		h := http.Header{}
		if op.headerRequired("onBehalfOf") {
			h.Set("onBehalfOf", "missing-user")
		}
		sends := []struct {
			anonymous bool
			body      []byte
		}{{false, body}, {true, body}}
		if op.Method == http.MethodPost || op.Method == http.MethodPut || op.Method == http.MethodPatch {
			sends = append(sends, struct {
				anonymous bool
				body      []byte
			}{false, []byte(`{}`)}) // what it requires missing
		}
		for _, s := range sends {
			anonymous, body := s.anonymous, s.body
			hh := h.Clone()
			if anonymous {
				hh.Set("apikey", "")
				hh.Set("key", "")
				hh.Set("secret", "")
				hh.Set("Authorization", "")
			}
			status, got, raw := f.send(op.api, op.Method, path, body, hh)
			if status/100 == 2 {
				require.False(t, anonymous, "%s %s answers %d without credentials", op.Method, path, status)
				continue
			}
			code, _ := dig(got, "error.code").(string)
			seen[code]++
			if d := checkErrorAnswer(t, alts, known, statuses, status, got); len(d) > 0 {
				t.Errorf("%s %s (anonymous %v): %d: the error differs from the service's:\n%s\nanswer: %s",
					op.Method, path, anonymous, status, strings.Join(d, "\n"), raw)
			}
		}
	}
	t.Logf("error codes answered: %v", seen)
	require.GreaterOrEqual(t, len(seen), 10, "the sweep reaches errors of many kinds")
}

// An error answer that differs from the service's in a key, a code, a
// status or its source fails the contract.
func TestCheckErrorAnswer(t *testing.T) {
	known := knownCodes(t)
	statuses := errorStatuses(t)
	alts := errorBodyAlternatives(t)
	parse := func(s string) any {
		var v any
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		return v
	}
	cases := []struct {
		name   string
		status int
		body   string
		want   []string
	}{
		{"the service's", 404, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"m","devMessage":"d","source":"chat-api"}}`, nil},
		{"with details", 400, `{"error":{"code":"ERR_BAD_REQUEST","message":"m","devMessage":"d","source":"chat-api","details":{"uid":["required"]}}}`, nil},
		{"details of another shape", 400, `{"error":{"code":"ERR_BAD_REQUEST","message":"m","devMessage":"d","source":"chat-api","details":{"uid":"required"}}}`,
			[]string{"$.error.details.uid: string, documented array"}},
		{"a key renamed", 404, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"m","devMesage":"d","source":"chat-api"}}`,
			[]string{"$.error.devMessage: missing", "$.error.devMesage: not documented"}},
		{"a code of no table", 404, `{"error":{"code":"ERR_NO_SUCH_USER","message":"m","devMessage":"d","source":"chat-api"}}`,
			[]string{`error.code "ERR_NO_SUCH_USER": not a code of the error table`}},
		{"another status", 400, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"m","devMessage":"d","source":"chat-api"}}`,
			[]string{"status 400 for ERR_UID_NOT_FOUND; platform.md §2.1 (observed on the live API) fixes 404"}},
		{"another source", 404, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"m","devMessage":"d","source":"chattest"}}`,
			[]string{`error.source chattest, the service's is "chat-api"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, checkErrorAnswer(t, alts, known, statuses, tc.status, parse(tc.body)))
		})
	}
}
