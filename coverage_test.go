package chat_test

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/internal/wiretest"
)

var updateOperations = flag.Bool("update-operations", false, "rewrite the operation table of OPERATIONS.md from the SDK")

// The API bases of the reference: the chat API, the calls API and the
// management API.
const (
	baseChat = "CHAT"
	baseCall = "CALL"
	baseMgmt = "MGMT"
)

// operation is one entry of the reference's operation index.
type operation struct {
	base, method, path, onBehalfOf string
}

func (o operation) key() string { return o.base + " " + o.method + " " + o.path }

// readOperations reads an index copied from the reference: lines of
// "[BASE] METHOD PATH ONBEHALFOF [ID]"; without a base the line is a chat
// operation (chat-operations.txt keeps the reference's operation ids).
func readOperations(t *testing.T, file string) []operation {
	t.Helper()
	var ops []operation
	for _, line := range readLines(t, file) {
		fields := strings.Fields(line)
		require.Len(t, fields, 4, "bad line %q", line)
		switch fields[0] {
		case baseChat, baseCall, baseMgmt:
			ops = append(ops, operation{fields[0], fields[1], fields[2], fields[3]})
		default:
			ops = append(ops, operation{baseChat, fields[0], fields[1], fields[2]})
		}
	}
	return ops
}

// readLines returns the lines of a testdata file that are neither empty
// nor comments (#), trimmed. The file must exist and hold some.
func readLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var lines []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	require.NotEmpty(t, lines, "%s holds no lines", file)
	return lines
}

// referenceDir is where a checkout of the API reference may sit beside
// the repository. The tests never need it: the repository keeps its own
// copy of what they read (testdata), and compares that copy with the
// reference only when the reference is there.
const referenceDir = "../shared/api"

// readReference returns a file of the API reference beside the repository,
// or ok false when there is none.
func readReference(t *testing.T, name string) (text string, ok bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(referenceDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is not beside the repository: testdata's copy is not compared with it", filepath.Join(referenceDir, name))
		return "", false
	}
	require.NoError(t, err)
	return string(b), true
}

// referenceIndex reads the operation index (section 0) of a reference
// file's text, expanding "POST|GET" forms.
func referenceIndex(text string, withBase bool) (keys []string) {
	if i := strings.Index(text, "## 0. Operation index"); i >= 0 {
		text = text[i:]
	}
	if j := strings.Index(text, "\n## 1."); j >= 0 {
		text = text[:j]
	}
	index := regexp.MustCompile("(?m)^- `([A-Z]+) ([^`]+)` — ")
	if withBase {
		index = regexp.MustCompile("(?m)^- `([A-Z|]+) ((?:CHAT|CALL|MGMT) [^`]+)` — ")
	}
	seen := map[string]bool{}
	for _, m := range index.FindAllStringSubmatch(text, -1) {
		path := m[2]
		if !withBase {
			path = baseChat + " " + path
		}
		base, p, _ := strings.Cut(path, " ")
		for _, method := range strings.Split(m[1], "|") {
			k := base + " " + method + " " + p
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// sdkMethod is an exported service method with its "API:" doc line.
type sdkMethod struct {
	name       string // as OPERATIONS.md shows it, e.g. "Messages.SendThread" or "mc.Webhooks.Get"
	service    string // the OPERATIONS.md section, e.g. "client.Messages" or "mc.Webhooks"
	endpoint   string // e.g. "CHAT POST /messages/{id}/thread"
	onBehalfOf string // req, opt or none
	deprecated bool
}

var (
	apiLine  = regexp.MustCompile(`(?m)^API: ([A-Z]+) /v3(\S+) \(onBehalfOf (required|optional|not supported)\)$`)
	mgmtLine = regexp.MustCompile(`(?m)^API: ([A-Z]+) (/\S+) \(management\)$`)
)

// sdkPackage is a package holding service methods, and how its methods
// are named.
type sdkPackage struct {
	dir     string // relative to the root package
	base    string
	service func(recv string) string // the OPERATIONS.md section of a receiver type
}

var sdkPackages = []sdkPackage{
	{".", baseChat, func(recv string) string { return "client." + strings.TrimSuffix(recv, "Service") }},
	{"management", baseMgmt, func(recv string) string { return "mc." + strings.TrimSuffix(recv, "Service") }},
}

// sdkMethods parses the packages' sources for service methods and the
// endpoint each one's doc comment names.
func sdkMethods(t *testing.T) (methods []sdkMethod, undocumented []string) {
	t.Helper()
	fset := token.NewFileSet()
	obo := map[string]string{"required": "req", "optional": "opt", "not supported": "none"}
	for _, pkg := range sdkPackages {
		files, err := filepath.Glob(filepath.Join(pkg.dir, "*.go"))
		require.NoError(t, err)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			require.NoError(t, err)
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || !fn.Name.IsExported() {
					continue
				}
				star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				recv, ok := star.X.(*ast.Ident)
				if !ok || !strings.HasSuffix(recv.Name, "Service") {
					continue
				}
				service := pkg.service(recv.Name)
				name := strings.TrimPrefix(service, "client.") + "." + fn.Name.Name
				doc := fn.Doc.Text()
				m := sdkMethod{name: name, service: service, deprecated: strings.Contains(doc, "\nDeprecated: ")}
				if pkg.base == baseMgmt {
					sub := mgmtLine.FindStringSubmatch(doc)
					if sub == nil {
						undocumented = append(undocumented, name)
						continue
					}
					m.endpoint, m.onBehalfOf = pkg.base+" "+sub[1]+" "+sub[2], "none"
				} else {
					sub := apiLine.FindStringSubmatch(doc)
					if sub == nil {
						undocumented = append(undocumented, name)
						continue
					}
					base := pkg.base
					if recv.Name == "CallsService" {
						base = baseCall // the Calls API's own address
					}
					m.endpoint, m.onBehalfOf = base+" "+sub[1]+" "+sub[2], obo[sub[3]]
				}
				methods = append(methods, m)
			}
		}
	}
	slices.SortFunc(methods, func(a, b sdkMethod) int { return strings.Compare(a.name, b.name) })
	return methods, undocumented
}

// TestCoverage fails when an operation of the reference's indexes (chat
// core and platform), or of its example fixtures alone, has no SDK method,
// when a method names an endpoint neither has or declares another
// onBehalfOf rule, and when the operation table of OPERATIONS.md is out of
// date (go test -run TestCoverage -update-operations rewrites it).
func TestCoverage(t *testing.T) {
	chatOps := readOperations(t, "testdata/chat-operations.txt")
	require.Len(t, chatOps, 99, "the chat reference indexes 99 operations")
	platformOps := readOperations(t, "testdata/platform-operations.txt")
	require.Len(t, platformOps, 142, "the platform reference indexes 142 operations")

	// The copies must match the references when they are beside the
	// repository.
	for _, ref := range []struct {
		file, copy string
		ops        []operation
		withBase   bool
	}{
		{"chat-core.md", "testdata/chat-operations.txt", chatOps, false},
		{"platform.md", "testdata/platform-operations.txt", platformOps, true},
	} {
		text, ok := readReference(t, ref.file)
		if !ok {
			continue
		}
		fromRef := referenceIndex(text, ref.withBase)
		require.NotEmpty(t, fromRef, "%s has no operation index", ref.file)
		var fromCopy []string
		for _, o := range ref.ops {
			fromCopy = append(fromCopy, o.key())
		}
		assert.ElementsMatch(t, fromRef, fromCopy, "%s differs from the index of %s", ref.copy, ref.file)
	}

	// The platform index repeats some chat operations (roles, RBAC, reasons).
	var ops []operation
	seen := map[string]bool{}
	for _, o := range append(chatOps, platformOps...) {
		if !seen[o.key()] {
			seen[o.key()] = true
			ops = append(ops, o)
		}
	}

	// The operations only the example fixtures show: each has a fixture,
	// and none is in the indexes.
	exampleOps := readOperations(t, "testdata/example-operations.txt")
	require.Len(t, exampleOps, 5, "the example fixtures show 5 chat operations the indexes do not list")
	fixtures := map[string]bool{}
	for _, ex := range wiretest.LoadExamples(t, examplesDir, "chat") {
		fixtures[operation{baseChat, ex.Method, ex.Path, ""}.key()] = true
	}
	for _, o := range exampleOps {
		assert.True(t, fixtures[o.key()], "%s has no example fixture", o.key())
		assert.False(t, seen[o.key()], "%s is in the indexes: it belongs in their copies", o.key())
		seen[o.key()] = true
		ops = append(ops, o)
	}

	methods, undocumented := sdkMethods(t)
	assert.Empty(t, undocumented, "service methods whose doc comment has no \"API: METHOD /v3/path (onBehalfOf ...)\" or \"API: METHOD /path (management)\" line")

	byEndpoint := map[string][]sdkMethod{}
	for _, m := range methods {
		byEndpoint[m.endpoint] = append(byEndpoint[m.endpoint], m)
	}
	known := map[string]operation{}
	for _, o := range ops {
		known[o.key()] = o
		ms := byEndpoint[o.key()]
		if !assert.NotEmpty(t, ms, "%s has no SDK method", o.key()) {
			continue
		}
		for _, m := range ms {
			assert.Equal(t, o.onBehalfOf, m.onBehalfOf, "%s documents onBehalfOf %s for %s; the reference says %s", m.name, m.onBehalfOf, o.key(), o.onBehalfOf)
		}
	}
	for _, m := range methods {
		_, ok := known[m.endpoint]
		assert.True(t, ok, "%s names %s, which is neither in the reference's indexes nor in its example fixtures", m.name, m.endpoint)
	}

	table := operationTable(ops, byEndpoint)
	const doc = "OPERATIONS.md"
	text, err := os.ReadFile(doc)
	require.NoError(t, err)
	const begin, end = "<!-- operations:begin -->\n", "<!-- operations:end -->"
	i, j := strings.Index(string(text), begin), strings.Index(string(text), end)
	require.True(t, i >= 0 && j > i, "%s lacks the %q ... %q markers", doc, begin, end)
	current := string(text[i+len(begin) : j])
	if *updateOperations {
		out := string(text[:i+len(begin)]) + table + string(text[j:])
		require.NoError(t, os.WriteFile(doc, []byte(out), 0o644))
		return
	}
	assert.Equal(t, table, current, "the operation table of %s is out of date: go test -run TestCoverage -update-operations", doc)
}

// operationTable renders the table of OPERATIONS.md: one section per service, one
// row per operation, in the reference's order.
func operationTable(ops []operation, byEndpoint map[string][]sdkMethod) string {
	type row struct{ op, methods, obo string }
	sections := map[string][]row{}
	var order []string
	obo := map[string]string{"req": "required (argument)", "opt": "optional (`chat.OnBehalfOf`)", "none": "—"}
	prefix := map[string]string{baseChat: "/v3", baseCall: "/v3", baseMgmt: ""}
	for _, o := range ops {
		ms := byEndpoint[o.key()]
		if len(ms) == 0 {
			continue
		}
		service := ms[0].service
		var names []string
		for _, m := range ms {
			name := "`" + m.name + "`"
			if m.deprecated {
				name += " (deprecated)"
			}
			names = append(names, name)
		}
		if _, ok := sections[service]; !ok {
			order = append(order, service)
		}
		sections[service] = append(sections[service], row{fmt.Sprintf("`%s %s%s`", o.method, prefix[o.base], o.path), strings.Join(names, ", "), obo[o.onBehalfOf]})
	}
	var b strings.Builder
	for _, s := range order {
		fmt.Fprintf(&b, "\n**%s**\n\n| Endpoint | Method | onBehalfOf |\n|---|---|---|\n", s)
		for _, r := range sections[s] {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.op, r.methods, r.obo)
		}
	}
	b.WriteString("\n")
	return b.String()
}
