package rest

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Unmarshal decodes JSON into v like json.Unmarshal, but tolerates the type
// inconsistencies the API is known for: numbers where strings are
// documented and back ("0" counts, numeric ids), booleans as strings or
// 0/1, fractional numbers for integers, and a one-element array where a
// single object is documented.
//
// The well-typed case costs nothing extra: v is decoded strictly first, and
// only a type mismatch triggers the lenient pass, which reshapes the JSON to
// v's types (by reflection) and decodes it again.
func Unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil || !isTypeError(err) {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if dec.Decode(&tree) != nil {
		return err
	}
	bp := treeBufPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 1<<20 {
			treeBufPool.Put(bp)
		}
	}()
	fixed, ok := appendJSON((*bp)[:0], coerce(tree, rv.Type().Elem(), 0))
	*bp = fixed
	if !ok {
		return err
	}
	rv.Elem().SetZero()
	return json.Unmarshal(fixed, v)
}

// treeBufPool holds the buffers the lenient pass writes the reshaped JSON
// into; json.Unmarshal keeps no reference to its input (json.RawMessage
// copies it).
var treeBufPool = sync.Pool{New: func() any { return new([]byte) }}

// appendJSON appends v, a tree decoded with UseNumber and reshaped by
// coerce, to b as JSON: the bytes json.Marshal writes (sorted keys, HTML
// escaping), so that JSON kept raw (json.RawMessage) reads the same, but
// without reflection. It reports false where json.Marshal fails: a number
// that is not a JSON number (coerce keeps, e.g., "+5"), or a type a tree
// cannot hold.
func appendJSON(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendJSONString(b, x), true
	case json.Number:
		if x == "" {
			return append(b, '0'), true
		}
		if !validNumber(string(x)) {
			return b, false
		}
		return append(b, x...), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSON(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, k), ':')
			var ok bool
			if b, ok = appendJSON(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendJSONString appends s as a JSON string, escaped as json.Marshal
// escapes it: quotes, backslashes, control characters, <, > and &, U+2028
// and U+2029, and invalid UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// validNumber reports whether s is a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(s string) bool {
	digits := func(s string) (rest string, n int) {
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		return s[n:], n
	}
	s = strings.TrimPrefix(s, "-")
	switch {
	case s == "":
		return false
	case s[0] == '0':
		s = s[1:]
	default:
		var n int
		if s, n = digits(s); n == 0 {
			return false
		}
	}
	if rest, ok := strings.CutPrefix(s, "."); ok {
		var n int
		if s, n = digits(rest); n == 0 {
			return false
		}
	}
	if len(s) > 0 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		var n int
		if s, n = digits(s); n == 0 {
			return false
		}
	}
	return s == ""
}

// isTypeError reports whether err is a *json.UnmarshalTypeError. It is a
// function of its own so that the target errors.As needs escapes only on
// this error path, not on every successful decode.
func isTypeError(err error) bool {
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &typeErr)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
)

// coerce reshapes the decoded JSON value v to fit type t where the API's
// inconsistencies would make a strict decode fail.
func coerce(v any, t reflect.Type, depth int) any {
	if depth > 64 || v == nil {
		return v
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return v
	}
	switch t.Kind() {
	case reflect.String:
		if reflect.PointerTo(t).Implements(textUnmarshalerType) {
			return v
		}
		switch x := v.(type) {
		case json.Number:
			return x.String()
		case bool:
			return strconv.FormatBool(x)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return coerceInt(v)
	case reflect.Float32, reflect.Float64:
		if s, ok := v.(string); ok {
			s = strings.TrimSpace(s)
			if s == "" {
				return nil
			}
			if _, err := strconv.ParseFloat(s, 64); err == nil {
				return json.Number(s)
			}
		}
	case reflect.Bool:
		switch x := v.(type) {
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "1":
				return true
			case "false", "0", "":
				return false
			}
		case json.Number:
			return x.String() != "0"
		}
	case reflect.Struct:
		if arr, ok := v.([]any); ok && len(arr) == 1 {
			v = arr[0]
		}
		if m, ok := v.(map[string]any); ok {
			coerceStruct(m, t, depth)
		}
	case reflect.Slice, reflect.Array:
		if arr, ok := v.([]any); ok {
			for i := range arr {
				arr[i] = coerce(arr[i], t.Elem(), depth+1)
			}
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for k := range m {
				m[k] = coerce(m[k], t.Elem(), depth+1)
			}
		}
	}
	return v
}

func coerceInt(v any) any {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
		if s == "" {
			return nil
		}
	case bool:
		if x {
			return 1
		}
		return 0
	default:
		return v
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return json.Number(s)
	}
	// A float or an integer too large for int64 saturates, as timestamps
	// do (ParseUnix); NaN and text stay as they are, a type error.
	if n, ok, valid := ParseUnix([]byte(s), math.MaxInt64); ok && valid {
		return n
	}
	return v
}

// coerceStruct coerces each member of m that names a field of t, matching
// names the way encoding/json does (exact, then case-insensitive).
func coerceStruct(m map[string]any, t reflect.Type, depth int) {
	fields := jsonFields(t)
	for k, val := range m {
		ft, ok := fields[k]
		if !ok {
			for name, f := range fields {
				if strings.EqualFold(name, k) {
					ft, ok = f, true
					break
				}
			}
		}
		if ok {
			m[k] = coerce(val, ft, depth+1)
		}
	}
}

var fieldsCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps the JSON names of t's fields (embedded structs flattened)
// to their types. It is worked out once per type; callers must not modify
// the map.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldsCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f := structFields(t)
	fieldsCache.Store(t, f)
	return f
}

func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					if _, dup := out[k]; !dup {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
