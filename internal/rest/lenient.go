package rest

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
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
	fixed, merr := json.Marshal(coerce(tree, rv.Type().Elem(), 0))
	if merr != nil {
		return err // the tree holds what JSON cannot: e.g. a number coerce kept as "+5"
	}
	rv.Elem().SetZero()
	return json.Unmarshal(fixed, v)
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
