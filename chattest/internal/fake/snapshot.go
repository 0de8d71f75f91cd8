package fake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/chatrest/chat"
)

// A snapshot of format 2 is the state as a whole, as JSON, as the
// releases from the one after 81b49ab to records wrote it (in stores and
// state files): every field of the state, under the names of the fields
// that held it. It is still read (loadSnapshot): loading one sets the
// fields again and rebuilds the indexes derived from them
// (snapshotLoaded); a field the snapshot lacks keeps the value a new state
// has, and a field the state no longer has is ignored. Records
// (records.go) encode their keys and values the same way.
//
// The encoding follows the values: a struct is an object of its fields; a
// map, an array of [key, value] pairs in the order of their encoded keys;
// a slice or an array, an array; []byte, base64; a pointer, {"$id": n,
// "v": value} where it is first met and {"$ref": n} where it is met again,
// so that what the state shares stays shared; an interface, {"$t": type,
// "v": value}, its dynamic type among snapshotTypes; a time, RFC 3339; a
// compiled regular expression, its source. Numbers are kept as they are
// written, so that int64s lose nothing.

// snapshotSkip are the fields a snapshot and records leave out, by struct
// type and field name: the lock, the clock, the configuration (own
// credentials, limits), what a request in progress holds, what the server
// runs beside the state (rate counts, the outbox, deliveries, websockets),
// and the indexes derived from the rest (snapshotLoaded rebuilds them).
var snapshotSkip = map[string][]string{
	"state":              {"mu", "clock", "appID", "mgmtKey", "mgmtSecret", "usersIndex", "messagesIndex", "issuer", "rate", "journal", "replaying", "lazy", "lastAt", "rec", "out", "realtimeState"},
	"conversationsIndex": {"convs", "userConvs", "pairConvs", "groupConvs"}, // hiddenOf is the owners' state
	"groupsState":        {"groupsIndex"},
	"GroupRec":           {"count", "countEpoch", "counted"},
	"hooksState":         {"deliv"},
	"importState":        {"importLimit", "importEnforce"},
}

// snapshotTypes are the dynamic types an interface of the state may hold,
// by the name a snapshot gives them.
var snapshotTypes = map[string]reflect.Type{
	"string":         reflect.TypeFor[string](),
	"bool":           reflect.TypeFor[bool](),
	"float64":        reflect.TypeFor[float64](),
	"int":            reflect.TypeFor[int](),
	"int64":          reflect.TypeFor[int64](),
	"json.Number":    reflect.TypeFor[json.Number](),
	"map[string]any": reflect.TypeFor[map[string]any](),
	"[]any":          reflect.TypeFor[[]any](),
	"[]string":       reflect.TypeFor[[]string](),
}

var (
	secretType = reflect.TypeFor[chat.Secret]()
	timeType   = reflect.TypeFor[time.Time]()
	regexpType = reflect.TypeFor[regexp.Regexp]()
)

// ownKey is the record of the server's own API key: the first created.
func (st *state) ownKey() *apiKeyRec {
	for _, k := range st.apiKeys {
		if k.seq == 1 {
			return k
		}
	}
	return nil
}

// loadSnapshot sets st, a state that holds nothing yet, to the snapshot
// b, and rebuilds its indexes. It returns the credentials the state holds,
// for the request log to hide.
func (st *state) loadSnapshot(b json.RawMessage) (secrets []string, err error) {
	own := st.ownKey()
	var tree any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&tree); err != nil {
		return nil, err
	}
	sd := &snapDecoder{ptrs: map[int]reflect.Value{}}
	if err := sd.value(tree, reflect.ValueOf(&st).Elem(), "st"); err != nil {
		return nil, err
	}
	if k := st.apiKeys[""]; k != nil && own != nil { // the server's own, by the key it has
		delete(st.apiKeys, "")
		k.k.APIKey, st.apiKeys[string(own.k.APIKey)] = own.k.APIKey, k
	}
	st.snapshotLoaded()
	return sd.secrets, nil
}

// snapshotLoaded rebuilds what a snapshot leaves out from what it holds.
func (st *state) snapshotLoaded() {
	for _, u := range st.users {
		st.indexUser(u)
	}
	for _, g := range st.groups {
		st.indexGroup(g)
		for _, m := range g.order {
			st.addMemberOf(m.uid, g)
		}
		st.countPrivate(g, 1)
	}
	st.reindexMessages()
	st.reindexConversations()
}

type snapEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder  // of strings, into buf
	ids map[ptrKey]int // the pointers met: their $id

	// Encoding a record (records.go): a stored message of refs, but the
	// one at root, is {"$msg": id}; omitZero leaves out the fields of a
	// struct that hold their zero value.
	refs     *state
	root     uintptr
	omitZero bool
}

// ptrKey is a pointer met: a struct and its first field share an address.
type ptrKey struct {
	at uintptr
	t  reflect.Type
}

// exported returns v, a field, readable through Interface even when the
// field is unexported.
func exported(v reflect.Value) reflect.Value {
	if v.CanInterface() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func (e *snapEncoder) value(v reflect.Value) error {
	b := &e.buf
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if e.refs != nil && v.Type() == msgRecPtr && v.Pointer() != e.root {
			if m := (*MsgRec)(v.UnsafePointer()); e.refs.msgByID[m.id] == m {
				b.WriteString(`{"$msg":`)
				b.Write(strconv.AppendInt(b.AvailableBuffer(), m.id, 10))
				b.WriteByte('}')
				return nil
			}
		}
		key := ptrKey{v.Pointer(), v.Type()}
		if id, ok := e.ids[key]; ok {
			b.WriteString(`{"$ref":`)
			b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(id), 10))
			b.WriteByte('}')
			return nil
		}
		id := len(e.ids)
		e.ids[key] = id
		b.WriteString(`{"$id":`)
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(id), 10))
		b.WriteString(`,"v":`)
		if err := e.value(v.Elem()); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		name := ""
		for n, t := range snapshotTypes {
			if t == v.Elem().Type() {
				name = n
			}
		}
		if name == "" {
			return fmt.Errorf("no snapshot of a value of type %s", v.Elem().Type())
		}
		fmt.Fprintf(b, `{"$t":%q,"v":`, name)
		if err := e.value(v.Elem()); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case reflect.Struct:
		if !v.CanAddr() { // a map's value: its fields are read through a copy
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			v = c
		}
		switch v.Type() {
		case timeType:
			e.str(exported(v).Interface().(time.Time).Format(time.RFC3339Nano))
			return nil
		case regexpType:
			e.str(exported(v).Addr().Interface().(*regexp.Regexp).String())
			return nil
		}
		b.WriteByte('{')
		first := true
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if e.omitZero && fv.IsZero() {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(f.key)
			if err := e.value(exported(fv)); err != nil {
				return fmt.Errorf("%s.%w", f.name, err)
			}
		}
		b.WriteByte('}')
		return nil
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		type pair struct {
			key []byte // the key encoded: the pairs' order
			val reflect.Value
		}
		pairs := make([]pair, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, err := e.encoded(it.Key()) // keys hold no pointers: their $ids follow no order
			if err != nil {
				return err
			}
			pairs = append(pairs, pair{k, it.Value()})
		}
		slices.SortFunc(pairs, func(a, b pair) int { return bytes.Compare(a.key, b.key) })
		b.WriteByte('[')
		for i, p := range pairs { // the values in order, so that their $ids are the same each time
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			b.Write(p.key)
			b.WriteByte(',')
			if err := e.value(p.val); err != nil {
				return fmt.Errorf("[%s]: %w", p.key, err)
			}
			b.WriteByte(']')
		}
		b.WriteByte(']')
		return nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			e.str(base64.StdEncoding.EncodeToString(v.Bytes()))
			return nil
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := e.value(v.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.String:
		e.str(v.String())
		return nil
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), v.Int(), 10))
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.Write(strconv.AppendUint(b.AvailableBuffer(), v.Uint(), 10))
		return nil
	case reflect.Float32, reflect.Float64:
		out, err := json.Marshal(v.Float())
		if err != nil {
			return err
		}
		b.Write(out)
		return nil
	}
	return fmt.Errorf("no snapshot of a %s", v.Type())
}

// str writes s as a JSON string.
func (e *snapEncoder) str(s string) {
	plain := true
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		e.buf.WriteByte('"')
		e.buf.WriteString(s)
		e.buf.WriteByte('"')
		return
	}
	e.enc.Encode(s)                 // a string always encodes
	e.buf.Truncate(e.buf.Len() - 1) // the newline Encode adds
}

// encoded returns v encoded on its own.
func (e *snapEncoder) encoded(v reflect.Value) ([]byte, error) {
	start := e.buf.Len()
	if err := e.value(v); err != nil {
		return nil, err
	}
	out := bytes.Clone(e.buf.Bytes()[start:])
	e.buf.Truncate(start)
	return out, nil
}

// keptField is a field of a struct that snapshots and records keep.
type keptField struct {
	index int
	name  string // the Go name, for errors
	key   string // the name kept, as a JSON string and a colon
}

// keptFields are the fields kept of each struct type met, found once.
var keptFields sync.Map // reflect.Type -> []keptField

// fieldsOf returns the fields kept of the struct type t.
func fieldsOf(t reflect.Type) []keptField {
	if fs, ok := keptFields.Load(t); ok {
		return fs.([]keptField)
	}
	skip := skipOf(t)
	var fs []keptField
	for i := range t.NumField() {
		f := t.Field(i)
		if skipped(f, skip) {
			continue
		}
		key, _ := json.Marshal(keptName(t, f)) // a string always encodes
		fs = append(fs, keptField{index: i, name: f.Name, key: string(key) + ":"})
	}
	keptFields.Store(t, fs)
	return fs
}

// skipOf is the fields of the struct type t that a snapshot leaves out by
// name.
func skipOf(t reflect.Type) []string {
	if t.PkgPath() != reflect.TypeFor[state]().PkgPath() {
		return nil
	}
	return snapshotSkip[t.Name()]
}

// skipped reports whether a snapshot leaves out the field f of a struct
// whose skipped fields are skip: those, and the lock-free parts of the
// runtime (functions, channels, locks).
func skipped(f reflect.StructField, skip []string) bool {
	switch f.Type.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return true
	}
	if p := f.Type.PkgPath(); p == "sync" || p == "sync/atomic" {
		return true
	}
	return slices.Contains(skip, f.Name)
}

type snapDecoder struct {
	ptrs    map[int]reflect.Value // the pointers decoded, by $id
	secrets []string              // the credentials (chat.Secret) decoded
	msgs    *[]msgRef             // the stored messages referred to, by id: records.go
}

// value sets v, which is settable, to what x, a snapshot's value decoded
// with UseNumber, says. path names v in errors.
func (d *snapDecoder) value(x any, v reflect.Value, path string) error {
	bad := func() error { return fmt.Errorf("%s: %T is not a %s", path, x, v.Type()) }
	if x == nil {
		v.SetZero()
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		m, ok := x.(map[string]any)
		if !ok {
			return bad()
		}
		if ref, ok := m["$msg"]; ok && d.msgs != nil && v.Type() == msgRecPtr {
			id, err := number[int64](ref)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			*d.msgs = append(*d.msgs, msgRef{v, id})
			return nil
		}
		if ref, ok := m["$ref"]; ok {
			id, err := number[int64](ref)
			p, found := d.ptrs[int(id)]
			if err != nil || !found || p.Type() != v.Type() {
				return fmt.Errorf("%s: a reference to %v, not met before as a %s", path, ref, v.Type())
			}
			v.Set(p)
			return nil
		}
		id, err := number[int64](m["$id"])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if v.IsNil() { // a new state's own values (its trees' orders) are kept
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.ptrs[int(id)] = v
		return d.value(m["v"], v.Elem(), path)
	case reflect.Interface:
		m, ok := x.(map[string]any)
		if !ok {
			return bad()
		}
		name, _ := m["$t"].(string)
		t := snapshotTypes[name]
		if t == nil {
			return fmt.Errorf("%s: no type %q", path, name)
		}
		nv := reflect.New(t).Elem()
		if err := d.value(m["v"], nv, path); err != nil {
			return err
		}
		v.Set(nv)
		return nil
	case reflect.Struct:
		switch v.Type() {
		case timeType:
			s, ok := x.(string)
			if !ok {
				return bad()
			}
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			exported(v).Set(reflect.ValueOf(t))
			return nil
		case regexpType:
			s, ok := x.(string)
			if !ok {
				return bad()
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			exported(v).Set(reflect.ValueOf(re).Elem())
			return nil
		}
		m, ok := x.(map[string]any)
		if !ok {
			return bad()
		}
		skip := skipOf(v.Type())
		for i := range v.NumField() {
			f := v.Type().Field(i)
			fx, present := m[keptName(v.Type(), f)]
			if skipped(f, skip) || !present {
				continue
			}
			if err := d.value(fx, exported(v.Field(i)), path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		pairs, ok := x.([]any)
		if !ok {
			return bad()
		}
		out := reflect.MakeMapWithSize(v.Type(), len(pairs))
		for i, p := range pairs {
			kv, ok := p.([]any)
			if !ok || len(kv) != 2 {
				return fmt.Errorf("%s[%d]: not a [key, value] pair", path, i)
			}
			k, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			if err := d.value(kv[0], k, fmt.Sprintf("%s[%d].key", path, i)); err != nil {
				return err
			}
			if err := d.value(kv[1], val, fmt.Sprintf("%s[%v]", path, kv[0])); err != nil {
				return err
			}
			out.SetMapIndex(k, val)
		}
		v.Set(out)
		return nil
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			s, ok := x.(string)
			if !ok {
				return bad()
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			v.SetBytes(b)
			return nil
		}
		items, ok := x.([]any)
		if !ok {
			return bad()
		}
		out := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, it := range items {
			if err := d.value(it, out.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(out)
		return nil
	case reflect.Array:
		items, ok := x.([]any)
		if !ok || len(items) != v.Len() {
			return bad()
		}
		for i, it := range items {
			if err := d.value(it, v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return bad()
		}
		v.SetString(s)
		if v.Type() == secretType && s != "" {
			d.secrets = append(d.secrets, s)
		}
		return nil
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return bad()
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := number[int64](x)
		if err != nil || v.OverflowInt(n) {
			return bad()
		}
		v.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := number[uint64](x)
		if err != nil || v.OverflowUint(n) {
			return bad()
		}
		v.SetUint(n)
		return nil
	case reflect.Float32, reflect.Float64:
		n, err := number[float64](x)
		if err != nil {
			return bad()
		}
		v.SetFloat(n)
		return nil
	}
	return fmt.Errorf("%s: no snapshot of a %s", path, v.Type())
}

// number is the JSON number x as a T.
func number[T int64 | uint64 | float64](x any) (T, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%v is not a number", x)
	}
	var out T
	var err error
	switch p := any(&out).(type) {
	case *int64:
		*p, err = strconv.ParseInt(string(n), 10, 64)
	case *uint64:
		*p, err = strconv.ParseUint(string(n), 10, 64)
	case *float64:
		*p, err = n.Float64()
	}
	return out, err
}
