package fake

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// dumpState renders everything st holds that a journal must rebuild, as
// text, so that two states can be compared whole: every field, followed
// through pointers, maps (in key order) and slices, unexported fields
// included. A pointer met again renders as a reference to where it was
// first met. Left out: the lock, the clock, the rate limits' counts, the
// journal, the flags of a request in progress, webhook deliveries, the
// open websockets and the key that signs their jwts (a server's own, or
// its data directory's), and the indexes and caches derived from the rest
// (checkIndexes checks those).
func dumpState(st *state) string {
	d := &dumper{seen: map[uintptr]string{}}
	d.value("st", reflect.ValueOf(st))
	return d.b.String()
}

// dumpSkip are the fields left out, by struct type and field name.
var dumpSkip = map[string][]string{
	"state":         {"mu", "clock", "rate", "journal", "replaying", "lazy", "lastAt", "rec", "usersIndex", "messagesIndex", "conversationsIndex", "out"},
	"realtimeState": {"jwtKey", "rtConns", "rtByUID", "rtClosed"},
	"groupsState":   {"groupsIndex"},
	"GroupRec":      {"count", "countEpoch", "counted"},
}

type dumper struct {
	b    strings.Builder
	seen map[uintptr]string
}

func (d *dumper) line(path, format string, args ...any) {
	fmt.Fprintf(&d.b, "%s = "+format+"\n", append([]any{path}, args...)...)
}

func (d *dumper) value(path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		d.line(path, "invalid")
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
	case reflect.Pointer:
		if v.IsNil() {
			d.line(path, "nil")
			return
		}
		if first, ok := d.seen[v.Pointer()]; ok {
			d.line(path, "same as %s", first)
			return
		}
		d.seen[v.Pointer()] = path
		d.value(path, v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			d.line(path, "nil")
			return
		}
		d.value(path+".("+v.Elem().Type().String()+")", v.Elem())
	case reflect.Struct:
		if v.Type().PkgPath() == "sync" || v.Type().PkgPath() == "sync/atomic" {
			return
		}
		skip := dumpSkip[v.Type().Name()]
		if v.Type().PkgPath() != "github.com/chatrest/chat/chattest/internal/fake" {
			skip = nil
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if slices.Contains(skip, f.Name) {
				continue
			}
			d.value(path+"."+f.Name, v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			d.line(path, "nil")
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			d.line(path, "%q", bytesOf(v))
			return
		}
		d.line(path, "len %d", v.Len())
		for i := range v.Len() {
			d.value(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			d.line(path, "nil")
			return
		}
		type entry struct {
			key string
			k   reflect.Value
		}
		var keys []entry
		for _, k := range v.MapKeys() {
			kd := &dumper{seen: map[uintptr]string{}}
			kd.value("", k)
			keys = append(keys, entry{kd.b.String(), k})
		}
		slices.SortFunc(keys, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		d.line(path, "map of %d", len(keys))
		for _, e := range keys {
			d.value(path+"["+strings.TrimSpace(strings.ReplaceAll(e.key, "\n", " "))+"]", v.MapIndex(e.k))
		}
	case reflect.String:
		d.line(path, "%q", v.String())
	case reflect.Bool:
		d.line(path, "%v", v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.line(path, "%d", v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.line(path, "%d", v.Uint())
	case reflect.Float32, reflect.Float64:
		d.line(path, "%v", v.Float())
	default:
		d.line(path, "%s?", v.Kind())
	}
}

func bytesOf(v reflect.Value) []byte {
	out := make([]byte, v.Len())
	for i := range out {
		out[i] = byte(v.Index(i).Uint())
	}
	return out
}

// diffLines returns the first lines where a and b differ, for a failure
// message.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			end := min(i+3, len(al), len(bl))
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, strings.Join(al[i:end], "\n- "), strings.Join(bl[i:end], "\n+ "))
		}
	}
	return fmt.Sprintf("%d lines, %d lines", len(al), len(bl))
}
