package rest

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/google/go-querystring/query"
)

// Redacted replaces secrets (API keys, auth tokens) wherever the SDK shows a
// request: in errors and in log lines.
const Redacted = "REDACTED"

// ValidSegment reports whether s can be one path segment: not empty, "."
// or "..", which would change the path's shape.
func ValidSegment(s string) bool {
	return s != "" && s != "." && s != ".."
}

// EscapeSegment escapes s for use as exactly one path segment: no value
// can add a segment, a query or a fragment.
func EscapeSegment(s string) string {
	for i := 0; i < len(s); i++ {
		if !unreserved(s[i]) {
			return url.PathEscape(s)
		}
	}
	return s
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~'
}

// QueryValues encodes v, a struct with url tags or a pointer to one, exactly
// as go-querystring's query.Values does. The encoding plan of each type (its
// fields, names and options, embedded structs flattened) is worked out once
// and cached, so that a call parses no tags and inspects no types; a type
// using what the plan does not cover (an Encoder, a Stringer, time.Time, a
// nested or pointer-embedded struct, the space, semicolon, brackets or
// numbered options) is encoded by query.Values itself.
func QueryValues(v any) (url.Values, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return url.Values{}, nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return query.Values(v)
	}
	plan := queryPlanFor(rv.Type())
	if plan == nil {
		return query.Values(v)
	}
	values := url.Values{}
	for i := range plan {
		plan[i].encode(values, rv)
	}
	return values, nil
}

// queryField is one field of a query plan: a scalar, a pointer to a scalar
// or a slice of scalars, reached from the struct by index.
type queryField struct {
	index             []int
	name              string
	omitEmpty, asInt  bool // the omitempty and int options
	comma             bool // the comma option, for slices
	pointer, repeated bool // a pointer to a scalar, a slice of scalars
}

var queryPlans sync.Map // reflect.Type -> []queryField; nil: use query.Values

func queryPlanFor(t reflect.Type) []queryField {
	if p, ok := queryPlans.Load(t); ok {
		return p.([]queryField)
	}
	var plan []queryField
	if !compileQuery(t, nil, &plan) {
		plan = nil
	} else if plan == nil {
		plan = []queryField{}
	}
	queryPlans.Store(t, plan)
	return plan
}

var (
	queryEncoderType = reflect.TypeFor[query.Encoder]()
	stringerType     = reflect.TypeFor[fmt.Stringer]()
	formatterType    = reflect.TypeFor[fmt.Formatter]()
	errorType        = reflect.TypeFor[error]()
)

// compileQuery appends the plan of struct type t, reached by index, to
// plan, in query.Values's order: t's own fields, then those of its embedded
// structs. It reports false for a type the plan cannot encode exactly as
// query.Values does.
func compileQuery(t reflect.Type, index []int, plan *[]queryField) bool {
	var embedded []int
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.PkgPath != "" && !sf.Anonymous {
			continue // unexported
		}
		tag := sf.Tag.Get("url")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" && sf.Anonymous {
			if sf.Type.Kind() != reflect.Struct || sf.PkgPath != "" {
				return false
			}
			embedded = append(embedded, i)
			continue
		}
		if sf.PkgPath != "" || sf.Tag.Get("del") != "" {
			return false
		}
		if name == "" {
			name = sf.Name
		}
		f := queryField{index: append(index[:len(index):len(index)], i), name: name}
		for o := range strings.SplitSeq(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "int":
				f.asInt = true
			case "comma":
				f.comma = true
			case "space", "semicolon", "brackets", "numbered":
				return false
			}
		}
		ft := sf.Type
		if ft.Implements(queryEncoderType) {
			return false
		}
		switch ft.Kind() {
		case reflect.Pointer:
			f.pointer, ft = true, ft.Elem()
		case reflect.Slice:
			f.repeated, ft = true, ft.Elem()
		}
		if !queryScalar(ft) {
			return false
		}
		*plan = append(*plan, f)
	}
	for _, i := range embedded {
		if !compileQuery(t.Field(i).Type, append(index[:len(index):len(index)], i), plan) {
			return false
		}
	}
	return true
}

// queryScalar reports whether a value of t goes in a query as its plain
// string, number or boolean, as scalarString writes it: fmt.Sprint prints it
// so, or it is a Secret, whose value is sent though fmt hides it.
func queryScalar(t reflect.Type) bool {
	if isSecretType(t) {
		return true // sent as its value; only printing it hides it
	}
	if t.Implements(stringerType) || t.Implements(formatterType) || t.Implements(errorType) {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

func (f *queryField) encode(values url.Values, rv reflect.Value) {
	v := rv.FieldByIndex(f.index)
	switch {
	case f.repeated:
		n := v.Len()
		if n == 0 {
			return // query.Values sends no empty slice, omitempty or not
		}
		if !f.comma {
			for i := range n {
				values.Add(f.name, f.scalarString(v.Index(i)))
			}
			return
		}
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.scalarString(v.Index(i)))
		}
		values.Add(f.name, b.String())
	case f.pointer:
		if v.IsNil() {
			if !f.omitEmpty {
				values.Add(f.name, "")
			}
			return
		}
		values.Add(f.name, f.scalarString(v.Elem()))
	default:
		if f.omitEmpty && v.IsZero() {
			return
		}
		values.Add(f.name, f.scalarString(v))
	}
}

func (f *queryField) scalarString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		switch {
		case f.asInt && v.Bool():
			return "1"
		case f.asInt:
			return "0"
		}
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	default:
		return strconv.FormatUint(v.Uint(), 10)
	}
}

// Required checks name/value pairs of required arguments and returns the
// name of the first one that is empty or a dot segment (which would change
// a path's shape) and what is wrong with it; "" when all are fine.
func Required(nameValues ...string) (name, problem string) {
	for i := 0; i+1 < len(nameValues); i += 2 {
		switch nameValues[i+1] {
		case "":
			return nameValues[i], "must not be empty"
		case ".", "..":
			return nameValues[i], `must not be "." or ".."`
		}
	}
	return "", ""
}
