package fake

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite testdata/records-schema.txt")

// TestRecordsSchema lists what records keep: every collection, and the
// fields of every struct its values hold, by the names records give them
// and their Go types. A field renamed, removed or of another type changes
// the list, which must then be rewritten on purpose (-update-schema): a
// rename keeps the old name in fieldNames or recordNames, else the data
// directories and state files already written lose the field.
func TestRecordsSchema(t *testing.T) {
	var lines []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem())
		case reflect.Map:
			walk(ty.Key())
			walk(ty.Elem())
		case reflect.Struct:
			if seen[ty] || ty == timeType || ty == regexpType {
				return
			}
			seen[ty] = true
			skip := skipOf(ty)
			for i := range ty.NumField() {
				f := ty.Field(i)
				if skipped(f, skip) {
					continue
				}
				lines = append(lines, fmt.Sprintf("%s.%s %s", ty.String(), keptName(ty, f), typeString(f.Type)))
				walk(f.Type)
			}
		}
	}
	for _, c := range collections() {
		f := reflect.TypeFor[state]()
		var ft reflect.Type
		for _, i := range c.index {
			if f.Kind() == reflect.Pointer {
				f = f.Elem()
			}
			ft = f.Field(i).Type
			f = ft
		}
		kind := "field"
		if c.keyed {
			kind = "map"
		}
		lines = append(lines, fmt.Sprintf("collection %s %s %s", c.name, kind, typeString(ft)))
		walk(ft)
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	const file = "testdata/records-schema.txt"
	if *updateSchema {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("what records keep changed (a field renamed keeps its old name in fieldNames; then run go test -run TestRecordsSchema -update-schema):\n%s", diffLines(string(want), got))
	}
}

// typeString names t as records see it: a type of the standard library
// (json.RawMessage, which is jsontext.Value on some Go releases) by its
// underlying type, the others by their names.
func typeString(t reflect.Type) string {
	if t.Name() != "" {
		if first, _, _ := strings.Cut(t.PkgPath(), "/"); t == timeType || t.PkgPath() == "" || strings.Contains(first, ".") {
			return t.String()
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeString(t.Elem())
	case reflect.Slice:
		return "[]" + typeString(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), typeString(t.Elem()))
	case reflect.Map:
		return "map[" + typeString(t.Key()) + "]" + typeString(t.Elem())
	}
	if t.Name() != "" {
		return t.Kind().String()
	}
	return t.String()
}
