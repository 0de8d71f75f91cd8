package fake

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRecordsShareNothing changes every area of a server, then walks
// each record of its state: no pointer or map is reached from two
// records (a stored message is met by its id), since each record is
// written and read on its own.
func TestRecordsShareNothing(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	srv := NewServer(WithClock(func() time.Time { now = now.Add(time.Second); return now }), withPipes())
	defer srv.Close()
	if failed := everyArea(t, srv); failed > 0 {
		t.Errorf("%d calls failed", failed)
	}
	st := srv.st
	st.mu.Lock()
	defer st.mu.Unlock()
	owner := map[uintptr]string{}
	var shared []string
	var walk func(rec string, v reflect.Value, root bool)
	walk = func(rec string, v reflect.Value, root bool) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Map:
			if v.IsNil() {
				return
			}
			if v.Type() == msgRecPtr && !root {
				if m := (*MsgRec)(v.UnsafePointer()); st.msgByID[m.id] == m {
					return
				}
			}
			p := v.Pointer()
			if o, ok := owner[p]; ok {
				if o != rec {
					shared = append(shared, fmt.Sprintf("%s and %s share a %s", o, rec, v.Type()))
				}
				return
			}
			owner[p] = rec
			if v.Kind() == reflect.Pointer {
				walk(rec, v.Elem(), false)
				return
			}
			for it := v.MapRange(); it.Next(); {
				walk(rec, it.Value(), false)
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(rec, v.Elem(), false)
			}
		case reflect.Struct:
			skip := skipOf(v.Type())
			for i := range v.NumField() {
				if !skipped(v.Type().Field(i), skip) {
					walk(rec, exported(v.Field(i)), false)
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(rec, v.Index(i), false)
			}
		}
	}
	for _, c := range collections() {
		f := c.field(st, true)
		if !c.keyed {
			walk(c.name, f, false)
			continue
		}
		for it := f.MapRange(); it.Next(); {
			walk(fmt.Sprintf("%s[%v]", c.name, it.Key()), it.Value(), c.name == "msgByID")
		}
	}
	if len(shared) > 0 {
		t.Errorf("records share values:\n%s", strings.Join(shared, "\n"))
	}
	var names []string
	for _, c := range collections() {
		names = append(names, fmt.Sprintf("%s(%v)", c.name, c.keyed))
	}
	t.Log(strings.Join(names, " "))
}
