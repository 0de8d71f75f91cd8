package rest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type lenientInner struct {
	A string `json:"a"`
}

type lenientTarget struct {
	ID      string            `json:"id"`
	N       int               `json:"n"`
	U       uint16            `json:"u"`
	I64     int64             `json:"i64"`
	F       float64           `json:"f"`
	B       bool              `json:"b"`
	P       *int              `json:"p"`
	Inner   lenientInner      `json:"inner"`
	List    []lenientInner    `json:"list"`
	Counts  map[string]int    `json:"counts"`
	Raw     json.RawMessage   `json:"raw"`
	Any     any               `json:"any"`
	Strings []string          `json:"strings"`
	ByName  map[string]string `json:"byName"`
	lenientEmbedded
}

type lenientEmbedded struct {
	E int `json:"e"`
}

func TestUnmarshalLenient(t *testing.T) {
	seven := 7
	tests := []struct {
		name string
		json string
		want lenientTarget
	}{
		{"well typed", `{"id":"1","n":2,"b":true,"inner":{"a":"x"}}`, lenientTarget{ID: "1", N: 2, B: true, Inner: lenientInner{A: "x"}}},
		{"number for a string", `{"id":65}`, lenientTarget{ID: "65"}},
		{"big number for a string keeps its digits", `{"id":12345678901234567890}`, lenientTarget{ID: "12345678901234567890"}},
		{"bool for a string", `{"id":true}`, lenientTarget{ID: "true"}},
		{"string for an int", `{"n":"3"}`, lenientTarget{N: 3}},
		{"empty string for an int", `{"n":""}`, lenientTarget{}},
		{"fraction for an int", `{"n":3.9,"i64":"2.5"}`, lenientTarget{N: 3, I64: 2}},
		{"bool for an int", `{"n":true}`, lenientTarget{N: 1}},
		{"string for a uint", `{"u":"8"}`, lenientTarget{U: 8}},
		{"string for a pointer to int", `{"p":"7"}`, lenientTarget{P: &seven}},
		{"string for a float", `{"f":"1.5"}`, lenientTarget{F: 1.5}},
		{"strings for bools", `{"b":"true"}`, lenientTarget{B: true}},
		{"one for a bool", `{"b":1}`, lenientTarget{B: true}},
		{"zero string for a bool", `{"b":"0","n":"1"}`, lenientTarget{N: 1}},
		{"one-element array for an object", `{"inner":[{"a":1}]}`, lenientTarget{Inner: lenientInner{A: "1"}}},
		{"inside a list", `{"list":[{"a":1},{"a":"b"}]}`, lenientTarget{List: []lenientInner{{A: "1"}, {A: "b"}}}},
		{"inside a map", `{"counts":{"x":"1","y":2}}`, lenientTarget{Counts: map[string]int{"x": 1, "y": 2}}},
		{"numbers in a string list", `{"strings":[1,"a",2.5]}`, lenientTarget{Strings: []string{"1", "a", "2.5"}}},
		{"numbers in a string map", `{"byName":{"a":1},"n":"2"}`, lenientTarget{ByName: map[string]string{"a": "1"}, N: 2}},
		{"raw JSON is left alone", `{"raw":{"n":"1"},"n":"1"}`, lenientTarget{Raw: json.RawMessage(`{"n":"1"}`), N: 1}},
		{"free JSON is left alone", `{"any":{"n":"1"},"n":"1"}`, lenientTarget{Any: map[string]any{"n": "1"}, N: 1}},
		{"keys match case-insensitively", `{"ID":5,"N":"6"}`, lenientTarget{ID: "5", N: 6}},
		{"embedded fields", `{"e":"4"}`, lenientTarget{lenientEmbedded: lenientEmbedded{E: 4}}},
		{"null is zero", `{"n":null,"id":null,"inner":null}`, lenientTarget{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got lenientTarget
			require.NoError(t, Unmarshal([]byte(tt.json), &got))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestUnmarshalLenientFailures(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"not a number", `{"n":"abc"}`},
		{"object for a string", `{"id":{"x":1}}`},
		{"two elements for an object", `{"inner":[{"a":"1"},{"a":"2"}]}`},
		{"word for a bool", `{"b":"yes"}`},
		{"negative for a uint", `{"u":"-1"}`},
		{"overflow", `{"u":70000}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got lenientTarget
			err := Unmarshal([]byte(tt.json), &got)
			var typeErr *json.UnmarshalTypeError
			assert.ErrorAs(t, err, &typeErr)
		})
	}

	t.Run("syntax errors are returned as they are", func(t *testing.T) {
		var got lenientTarget
		var syntaxErr *json.SyntaxError
		assert.ErrorAs(t, Unmarshal([]byte(`{"n":`), &got), &syntaxErr)
	})
	t.Run("a non-pointer is refused like json.Unmarshal does", func(t *testing.T) {
		var got lenientTarget
		var invalid *json.InvalidUnmarshalError
		assert.ErrorAs(t, Unmarshal([]byte(`{"n":"1"}`), got), &invalid)
	})
	t.Run("deep nesting does not overflow", func(t *testing.T) {
		const depth = 5000
		deep := strings.Repeat(`[`, depth) + `"1"` + strings.Repeat(`]`, depth)
		var got lenientTarget
		var typeErr *json.UnmarshalTypeError
		require.ErrorAs(t, Unmarshal([]byte(`{"list":`+deep+`}`), &got), &typeErr)
		assert.Equal(t, "array", typeErr.Value)
		assert.Equal(t, reflect.TypeFor[lenientInner](), typeErr.Type)
		assert.True(t, strings.HasPrefix(typeErr.Field, "list"), "the error names the field: %q", typeErr.Field)
	})
}
