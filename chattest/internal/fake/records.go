package fake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/chatrest/chat"
)

// The state is kept on disk as records (the data directory, -export):
// each entry of each map the state holds (a user, a group with its
// members and bans, a message with its reactions, a conversation's marks,
// a friendship, a role, ...) is one record, and so is each other field (a
// counter, the queue of messages awaiting review, ...). A snapshot is
// every record; a change is the records it set or removed, with their
// values after it. Opening a store sets the records again, in order, and
// rebuilds the indexes derived from them: no handler runs, so what a
// release's handlers answer cannot change what a store holds.
//
// A record is a JSON array: [collection, key, value] sets it, [collection,
// key] removes it, [collection] empties the collection. A collection is
// named by the path of the fields that hold it from the state (recordNames
// and fieldNames keep the names of fields renamed since), a key and a
// value are encoded as a snapshot encodes them (snapshot.go), and a
// message a record points to (a reply's parent, a thread's replies) is
// {"$msg": id}, so that each stored message is one record, met again by
// its id. A record of a collection the state no longer has is ignored, as
// a snapshot's field the state no longer has is.
//
// A handler that changes an entry of a map says so (touch), and so does
// one that changes a field that is not a number, a string or a time
// (touchField): the entries and fields touched are the records its change
// writes. The numbers, strings and times (counters, flags) are compared
// with what was last written. The state check of the tests (CheckRecords)
// sets every change's records in a copy of the state and compares it with
// the state itself, so that a change a handler did not say is found.

// collection is a place of the state that holds records.
type collection struct {
	name   string // the path of its fields, or its name in recordNames
	index  []int  // the fields to it from the state, pointers followed
	keyed  bool   // a map, each entry a record; else the field is one
	scalar bool   // a number, string or time: compared after each change
}

// recordSkip are the fields of the state that records leave out beyond
// those snapshotSkip leaves out: what is derived from other records.
var recordSkip = map[string][]string{
	"state": {"messages"}, // msgByID's values in id order: rebuilt
}

// recordWhole are the maps of the state kept as one record each, as the
// fields that are not maps are: those whose size the app's configuration
// bounds (roles, permissions, moderation rules, settings, webhooks), not
// its traffic.
var recordWhole = []string{"roles", "restricted", "rolePerms", "scopePerms", "reasons", "notif.settings", "notif.single",
	"rules", "keywords", "apps", "tenants", "webhooks", "importUsed"}

// wholeWrittenBy are the collections kept whole (recordWhole, and the
// fields that are not maps) that the routes under each path write: a
// request of those routes that is not a read writes their records. Other
// changes of them say so (touchField).
var wholeWrittenBy = []struct {
	prefix string
	names  []string
}{
	{"/v3/roles", []string{"roles", "restricted", "rolePerms"}},
	{"/v3/moderation", []string{"reasons", "rules", "keywords", "textRules", "blocked", "modMsgs"}},
	{"/v3/notifications", []string{"notif.settings", "notif.single", "notif.fcm", "notif.apns", "notif.tokens"}},
	{"/v3/data_import", []string{"importUsed"}},
	{"/v3/ai-agents", []string{"agents", "byoAgents"}},
	{"/apps", []string{"apps", "tenants", "webhooks", "rules", "keywords"}},
	{"/tenants", []string{"apps", "tenants"}},
}

// touchWritten says that the change in progress, a request of the route
// pattern (method and path) that is not a read, wrote the collections
// wholeWrittenBy lists for it.
func (st *state) touchWritten(pattern string) {
	_, path, _ := strings.Cut(pattern, " ")
	for _, w := range wholeWrittenBy {
		if strings.HasPrefix(path, w.prefix) {
			for _, name := range w.names {
				st.rec.all[collectionNamed()[name]] = true
			}
		}
	}
}

// recordNames are the names of collections whose fields were renamed,
// by their fields' path today: a record keeps the name it was first
// written with.
var recordNames = map[string]string{}

// fieldNames are the names records and snapshots give the fields renamed
// since they were first written, by "Type.Field" today: the name first
// written stays. TestRecordsSchema lists every field kept, so that a
// rename is seen.
var fieldNames = map[string]string{}

// keptName is the name records and snapshots give the field f of the
// struct type t.
func keptName(t reflect.Type, f reflect.StructField) string {
	if len(fieldNames) > 0 {
		if old, ok := fieldNames[t.Name()+"."+f.Name]; ok {
			return old
		}
	}
	return f.Name
}

// collections are the state's, found once from its type.
var collections = sync.OnceValue(func() []collection {
	var out []collection
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		skip := slices.Concat(skipOf(t), recordSkip[t.Name()])
		for i := range t.NumField() {
			f := t.Field(i)
			if skipped(f, skip) {
				continue
			}
			at := append(slices.Clone(index), i)
			ft := f.Type
			switch {
			case f.Anonymous && ft.Kind() == reflect.Struct:
				walk(ft, prefix, at)
				continue
			case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && strings.HasSuffix(ft.Elem().Name(), "Store"):
				walk(ft.Elem(), prefix+f.Name+".", at)
				continue
			}
			name := prefix + f.Name
			if old, ok := recordNames[name]; ok {
				name = old
			}
			keyed := ft.Kind() == reflect.Map && !slices.Contains(recordWhole, prefix+f.Name)
			out = append(out, collection{name: name, index: at, keyed: keyed, scalar: isScalar(ft)})
		}
	}
	walk(reflect.TypeFor[state](), "", nil)
	return out
})

// isScalar reports whether t, a field's type, is a number, a string, a
// bool or a time.
func isScalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return t == timeType
}

// collectionNamed is the collection of each name.
var collectionNamed = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for i, c := range collections() {
		out[c.name] = i
	}
	return out
})

// field returns the field of st that holds c, allocating the structs the
// pointers on the way point to when alloc is set (else it returns an
// invalid value where one is nil).
func (c *collection) field(st *state, alloc bool) reflect.Value {
	v := reflect.ValueOf(st).Elem()
	for _, i := range c.index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc {
					return reflect.Value{}
				}
				exported(v).Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = exported(v.Field(i))
	}
	return v
}

// recorder keeps what the change in progress touched, for the records it
// writes. Its zero value records nothing.
type recorder struct {
	on      bool
	err     error             // a touch of a map that is not a collection: a bug the state check reports
	addrs   map[uintptr]int   // the collections, by the address of their field
	touched map[recordKey]any // the entries touched, by collection and key: the key
	all     map[int]bool      // the collections touched whole
	scalars []scalarField     // the scalar fields, with what was last written
	shadow  *state            // a copy the records are set in, to check them: records_check.go
	what    string            // the change in progress, for the check's failures
	ownKey  string            // the server's own API key, which records keep as ""
	enc     *recordEncoder    // reused: recordEncoder
}

type recordKey struct {
	c   int
	key any
}

// touch says that the change in progress set or removed the entry k of the
// map *m, one of the state's: its record is written with the change.
func touch[K comparable, V any](st *state, m *map[K]V, k K) {
	if !st.rec.on {
		return
	}
	c, ok := st.rec.collectionAt(st, unsafe.Pointer(m))
	switch {
	case !ok:
	case !collections()[c].keyed: // a map kept whole
		st.rec.all[c] = true
	default:
		st.rec.touched[recordKey{c, k}] = k
	}
}

// touchField says that the change in progress may have changed the field
// *f of the state: a map whose every entry is written, or a field that is
// one record.
func touchField[T any](st *state, f *T) {
	if !st.rec.on {
		return
	}
	if c, ok := st.rec.collectionAt(st, unsafe.Pointer(f)); ok {
		st.rec.all[c] = true
	}
}

// collectionAt returns the collection whose field is at p.
func (r *recorder) collectionAt(st *state, p unsafe.Pointer) (int, bool) {
	if c, ok := r.addrs[uintptr(p)]; ok {
		return c, true
	}
	r.addrs = map[uintptr]int{} // a pointer on the way changed: found again
	for i := range collections() {
		if f := collections()[i].field(st, false); f.IsValid() {
			r.addrs[f.UnsafeAddr()] = i
		}
	}
	if c, ok := r.addrs[uintptr(p)]; ok {
		return c, true
	}
	r.err = errors.New("a touch of a map that holds no records")
	return 0, false
}

// startRecording makes st record its changes from now on: the scalar
// fields are as st holds them.
func (st *state) startRecording() {
	r := &st.rec
	r.on, r.touched, r.all = true, map[recordKey]any{}, map[int]bool{}
	r.scalars = r.scalars[:0]
	for i, c := range collections() {
		if c.scalar {
			v := c.field(st, true) // its address stays: the state's structs are never replaced
			r.scalars = append(r.scalars, scalarField{c: i, v: v, last: scalarOf(v)})
		}
	}
}

// scalarField is a scalar field of the state, and its value as last
// written.
type scalarField struct {
	c    int
	v    reflect.Value
	last any
}

// scalarOf returns the value of the scalar field v, comparable with ==.
func scalarOf(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Bool:
		return v.Bool()
	}
	return v.Interface()
}

// scalarSame reports whether v still holds last.
func scalarSame(v reflect.Value, last any) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := last.(int64)
		return ok && n == v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := last.(uint64)
		return ok && n == v.Uint()
	case reflect.Bool:
		b, ok := last.(bool)
		return ok && b == v.Bool()
	}
	return v.Interface() == last
}

// takeRecords returns the records the change in progress set or removed,
// and starts the next change.
func (st *state) takeRecords() ([]json.RawMessage, error) {
	r := &st.rec
	if !r.on {
		return nil, nil
	}
	if err := r.err; err != nil {
		r.err = nil
		clear(r.touched)
		clear(r.all)
		return nil, err
	}
	var out []json.RawMessage
	e := st.recordEncoder()
	cs := collections()
	for _, c := range slices.Sorted(maps.Keys(r.all)) { // in a fixed order, as the keys below
		recs, err := e.collection(st, c, true)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	keys := make([]recordKey, 0, len(r.touched))
	for k := range r.touched {
		if !r.all[k.c] {
			keys = append(keys, k)
		}
	}
	if len(keys) > 1 { // in a fixed order, so that a change reads the same each time
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].c != keys[j].c {
				return keys[i].c < keys[j].c
			}
			return fmt.Sprint(keys[i].key) < fmt.Sprint(keys[j].key)
		})
	}
	for _, k := range keys {
		m := cs[k.c].field(st, true)
		b, err := e.entry(cs[k.c].name, m, reflect.ValueOf(k.key))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	for i := range r.scalars {
		s := &r.scalars[i]
		if scalarSame(s.v, s.last) {
			continue
		}
		recs, err := e.collection(st, s.c, false)
		if err != nil {
			return nil, err
		}
		s.last = scalarOf(s.v)
		out = append(out, recs...)
	}
	clear(r.touched)
	clear(r.all)
	if r.shadow != nil {
		st.check(out)
	}
	return out, nil
}

// allRecords returns every record of st: a snapshot.
func (st *state) allRecords() ([]json.RawMessage, error) {
	e := st.recordEncoder()
	var out []json.RawMessage
	for i := range collections() {
		recs, err := e.collection(st, i, false)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// recordEncoder encodes the records of st.
type recordEncoder struct {
	st *state
	snapEncoder
}

// recordEncoder returns the encoder of st's records, which mu guards.
func (st *state) recordEncoder() *recordEncoder {
	e := st.rec.enc
	if e == nil {
		e = &recordEncoder{st: st}
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
		e.refs, e.omitZero = st, true
		e.ids = map[ptrKey]int{}
		st.rec.enc = e
	}
	return e
}

// record encodes v, a record's value; root is the address of the message
// it is, if it is one, which is encoded whole (else as a reference).
// The bytes returned are e's until its next call.
func (e *recordEncoder) record(v reflect.Value, root uintptr) ([]byte, error) {
	e.buf.Reset()
	clear(e.ids)
	e.root = root
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// wrap returns the record of collection name that sets key (nil: none, a
// field) to the value encoded val, or, when val is nil, removes it.
// A collection's name is a path of Go identifiers: a JSON string as it is.
func (e *recordEncoder) wrap(name string, key, val []byte) json.RawMessage {
	b := make([]byte, 0, len(name)+len(key)+len(val)+12)
	b = append(b, `["`...)
	b = append(b, name...)
	b = append(b, `",`...)
	if key == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, key...)
	}
	if val != nil {
		b = append(b, ',')
		b = append(b, val...)
	}
	return append(b, ']')
}

// entry returns the record of the entry k of the map m, of the collection
// name: its value, or its removal when m holds no k.
func (e *recordEncoder) entry(name string, m, k reflect.Value) (json.RawMessage, error) {
	key, val := k, m.MapIndex(k)
	if name == "apiKeys" && k.String() == e.st.rec.ownKey {
		// The server's own key is kept without its secret, as "": the
		// server that reads the record has its own (see applyRecords).
		key = reflect.ValueOf("")
		if val.IsValid() {
			own := *val.Interface().(*apiKeyRec)
			own.k.APIKey = ""
			val = reflect.ValueOf(&own)
		}
	}
	kb, err := e.record(key, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: a key: %w", name, err)
	}
	kb = bytes.Clone(kb) // the value's encoding reuses the buffer
	if !val.IsValid() {
		return e.wrap(name, kb, nil), nil
	}
	var root uintptr
	if name == "msgByID" { // the message itself, not a reference
		root = val.Pointer()
	}
	vb, err := e.record(val, root)
	if err != nil {
		return nil, fmt.Errorf("%s[%s]: %w", name, kb, err)
	}
	return e.wrap(name, kb, vb), nil
}

// collection returns the records of the collection c: the record of the
// field, or, for a map, those of every entry, after one that empties the
// map when whole is set.
func (e *recordEncoder) collection(st *state, c int, whole bool) ([]json.RawMessage, error) {
	col := collections()[c]
	m := col.field(st, true)
	if !col.keyed {
		b, err := e.record(m, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", col.name, err)
		}
		return []json.RawMessage{e.wrap(col.name, nil, b)}, nil
	}
	var out []json.RawMessage
	if whole {
		out = append(out, json.RawMessage(`["`+col.name+`"]`)) // a name is Go identifiers: a JSON string as it is
	}
	n := len(out)
	for it := m.MapRange(); it.Next(); {
		rec, err := e.entry(col.name, m, it.Key())
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	slices.SortFunc(out[n:], func(a, b json.RawMessage) int { return bytes.Compare(a, b) }) // by key: the same each time
	return out, nil
}

var msgRecPtr = reflect.TypeFor[*MsgRec]()

// applySnapshot empties every map of st, then sets the records recs, a
// snapshot: see applyRecords.
func (st *state) applySnapshot(recs []json.RawMessage) (secrets []string, err error) {
	own := st.rec.ownKey
	if own == "" {
		own = st.ownKeyString()
	}
	for _, c := range collections() {
		if c.keyed {
			f := c.field(st, true)
			f.Set(reflect.MakeMap(f.Type()))
		}
	}
	return st.applyRecords(recs, own)
}

// ownKeyString is the server's own API key.
func (st *state) ownKeyString() string {
	if own := st.ownKey(); own != nil {
		return string(own.k.APIKey)
	}
	return ""
}

// applyRecords sets the records recs in st, in order, and returns the
// credentials they hold, for the request log to hide; ownKey is the
// server's own API key. The indexes are not rebuilt: finishRecords does,
// once every record is set.
func (st *state) applyRecords(recs []json.RawMessage, ownKey string) (secrets []string, err error) {
	d := &snapDecoder{}
	var fix []msgRef
	var again []func()
	tree := func(b json.RawMessage) any { // b is valid JSON: it was read as a record's part
		var x any
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		dec.Decode(&x)
		return x
	}
	for i, raw := range recs {
		var rec []json.RawMessage
		if err := json.Unmarshal(raw, &rec); err != nil || len(rec) == 0 || len(rec) > 3 {
			return nil, fmt.Errorf("record %d is not a [collection, key, value] array", i+1)
		}
		var name string
		if err := json.Unmarshal(rec[0], &name); err != nil {
			return nil, fmt.Errorf("record %d: the collection is not a string", i+1)
		}
		c, ok := collectionNamed()[name]
		if !ok {
			continue // of a collection the state no longer has, as a snapshot's fields (snapshot.go)
		}
		col := collections()[c]
		f := col.field(st, true)
		at := fmt.Sprintf("record %d (%s)", i+1, name)
		if !col.keyed {
			if len(rec) != 3 {
				return nil, fmt.Errorf("%s: a field's record sets it", at)
			}
			d.ptrs = map[int]reflect.Value{}
			v := reflect.New(f.Type()).Elem()
			n := len(fix)
			d.msgs = &fix
			if err := d.value(tree(rec[2]), v, at); err != nil {
				return nil, err
			}
			f.Set(v)
			if len(fix) > n {
				again = append(again, func() { f.Set(v) })
			}
			continue
		}
		if len(rec) == 1 {
			f.Set(reflect.MakeMap(f.Type()))
			continue
		}
		if f.IsNil() {
			f.Set(reflect.MakeMap(f.Type()))
		}
		d.ptrs = map[int]reflect.Value{}
		k := reflect.New(f.Type().Key()).Elem()
		if err := d.value(tree(rec[1]), k, at+" key"); err != nil {
			return nil, err
		}
		own := name == "apiKeys" && k.Kind() == reflect.String && k.String() == ""
		if own {
			k = reflect.ValueOf(ownKey)
		}
		if len(rec) == 2 {
			f.SetMapIndex(k, reflect.Value{})
			continue
		}
		v := reflect.New(f.Type().Elem()).Elem()
		if old := f.MapIndex(k); old.IsValid() && old.Kind() == reflect.Pointer && !old.IsNil() {
			old.Elem().SetZero() // set in place: what points to it stays
			v.Set(old)
		}
		n := len(fix)
		d.msgs = &fix
		if err := d.value(tree(rec[2]), v, at); err != nil {
			return nil, err
		}
		if own {
			v.Interface().(*apiKeyRec).k.APIKey = chat.Secret(ownKey)
		}
		f.SetMapIndex(k, v)
		if len(fix) > n { // v is a copy: set again once its references are
			again = append(again, func() { f.SetMapIndex(k, v) })
		}
	}
	for _, r := range fix {
		m := st.msgByID[r.id]
		if m == nil {
			return nil, fmt.Errorf("a record points to message %d, which no record holds", r.id)
		}
		r.at.Set(reflect.ValueOf(m))
	}
	for _, set := range again {
		set()
	}
	return d.secrets, nil
}

// msgRef is a reference to a stored message a record holds: set once
// every record is.
type msgRef struct {
	at reflect.Value
	id int64
}

// finishRecords rebuilds what records leave out, once they are set.
func (st *state) finishRecords() {
	st.messages = st.messages[:0]
	for _, m := range st.msgByID {
		st.messages = append(st.messages, m)
	}
	slices.SortFunc(st.messages, func(a, b *MsgRec) int { return cmp.Compare(a.id, b.id) })
	st.snapshotLoaded()
}

// touchUser, touchMsg and touchGroup say that the change in progress set
// the record of u, m or g (see touch).
func (st *state) touchUser(u *UserRec)   { touch(st, &st.users, u.u.UID) }
func (st *state) touchMsg(m *MsgRec)     { touch(st, &st.msgByID, m.id) }
func (st *state) touchGroup(g *GroupRec) { touch(st, &st.groups, g.g.GUID) }
