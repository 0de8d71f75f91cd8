package chat_test

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's operation table from the SDK")

// operation is one entry of the reference's operation index.
type operation struct {
	method, path, onBehalfOf, id string
}

func (o operation) key() string { return o.method + " " + o.path }

// readOperations reads testdata/chat-operations.txt, the reference's index.
func readOperations(t *testing.T, file string) []operation {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var ops []operation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		require.Len(t, fields, 4, "bad line %q", line)
		ops = append(ops, operation{fields[0], fields[1], fields[2], fields[3]})
	}
	require.NoError(t, sc.Err())
	return ops
}

// sdkMethod is an exported service method with its "API:" doc line.
type sdkMethod struct {
	name       string // e.g. "Messages.SendThread"
	endpoint   string // e.g. "POST /messages/{id}/thread"
	onBehalfOf string // req, opt or none
	deprecated bool
}

var apiLine = regexp.MustCompile(`(?m)^API: ([A-Z]+) /v3(\S+) \(onBehalfOf (required|optional|not supported)\)$`)

// sdkMethods parses the package's source for service methods and the
// endpoint each one's doc comment names.
func sdkMethods(t *testing.T) (methods []sdkMethod, undocumented []string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	obo := map[string]string{"required": "req", "optional": "opt", "not supported": "none"}
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
			name := strings.TrimSuffix(recv.Name, "Service") + "." + fn.Name.Name
			doc := fn.Doc.Text()
			m := apiLine.FindStringSubmatch(doc)
			if m == nil {
				undocumented = append(undocumented, name)
				continue
			}
			methods = append(methods, sdkMethod{
				name: name, endpoint: m[1] + " " + m[2], onBehalfOf: obo[m[3]],
				deprecated: strings.Contains(doc, "\nDeprecated: "),
			})
		}
	}
	slices.SortFunc(methods, func(a, b sdkMethod) int { return strings.Compare(a.name, b.name) })
	return methods, undocumented
}

// TestCoverage fails when an operation of the reference's index has no SDK
// method, when a method names an endpoint the index does not have or
// declares another onBehalfOf rule, and when the README's operation table
// is out of date (go test -run TestCoverage -update-readme rewrites it).
func TestCoverage(t *testing.T) {
	ops := readOperations(t, "testdata/chat-operations.txt")
	require.Len(t, ops, 99, "the reference indexes 99 chat operations")

	// When the reference is beside the repository, the copy must match it.
	if ref, err := os.ReadFile("../shared/api/chat-core.md"); err == nil {
		text := string(ref)
		if i := strings.Index(text, "## 0. Operation index"); i >= 0 {
			text = text[i:]
		}
		if j := strings.Index(text, "\n## 1."); j >= 0 {
			text = text[:j]
		}
		index := regexp.MustCompile("(?m)^- `([A-Z]+) ([^`]+)` — ([a-z-]+)")
		var fromRef []string
		for _, m := range index.FindAllStringSubmatch(text, -1) {
			fromRef = append(fromRef, m[1]+" "+m[2])
		}
		var fromCopy []string
		for _, o := range ops {
			fromCopy = append(fromCopy, o.key())
		}
		assert.ElementsMatch(t, fromRef, fromCopy, "testdata/chat-operations.txt differs from the reference's index")
	}

	methods, undocumented := sdkMethods(t)
	assert.Empty(t, undocumented, "service methods whose doc comment has no \"API: METHOD /v3/path (onBehalfOf ...)\" line")

	byEndpoint := map[string][]sdkMethod{}
	for _, m := range methods {
		byEndpoint[m.endpoint] = append(byEndpoint[m.endpoint], m)
	}
	known := map[string]operation{}
	for _, o := range ops {
		known[o.key()] = o
		ms := byEndpoint[o.key()]
		if !assert.NotEmpty(t, ms, "%s (%s) has no SDK method", o.key(), o.id) {
			continue
		}
		for _, m := range ms {
			assert.Equal(t, o.onBehalfOf, m.onBehalfOf, "%s documents onBehalfOf %s for %s; the reference says %s", m.name, m.onBehalfOf, o.key(), o.onBehalfOf)
		}
	}
	for _, m := range methods {
		_, ok := known[m.endpoint]
		assert.True(t, ok, "%s names %s, which is not in the reference's index", m.name, m.endpoint)
	}

	table := operationTable(ops, byEndpoint)
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	const begin, end = "<!-- operations:begin -->\n", "<!-- operations:end -->"
	i, j := strings.Index(string(readme), begin), strings.Index(string(readme), end)
	require.True(t, i >= 0 && j > i, "README.md lacks the %q ... %q markers", begin, end)
	current := string(readme[i+len(begin) : j])
	if *updateReadme {
		out := string(readme[:i+len(begin)]) + table + string(readme[j:])
		require.NoError(t, os.WriteFile("README.md", []byte(out), 0o644))
		return
	}
	assert.Equal(t, table, current, "README's operation table is out of date: go test -run TestCoverage -update-readme")
}

// operationTable renders the README's table: one section per service, one
// row per operation, in the reference's order.
func operationTable(ops []operation, byEndpoint map[string][]sdkMethod) string {
	type row struct{ op, methods, obo string }
	sections := map[string][]row{}
	var order []string
	obo := map[string]string{"req": "required (argument)", "opt": "optional (`chat.OnBehalfOf`)", "none": "—"}
	for _, o := range ops {
		ms := byEndpoint[o.key()]
		if len(ms) == 0 {
			continue
		}
		service, _, _ := strings.Cut(ms[0].name, ".")
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
		sections[service] = append(sections[service], row{fmt.Sprintf("`%s /v3%s`", o.method, o.path), strings.Join(names, ", "), obo[o.onBehalfOf]})
	}
	var b strings.Builder
	for _, s := range order {
		fmt.Fprintf(&b, "\n**client.%s**\n\n| Endpoint | Method | onBehalfOf |\n|---|---|---|\n", s)
		for _, r := range sections[s] {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.op, r.methods, r.obo)
		}
	}
	b.WriteString("\n")
	return b.String()
}
