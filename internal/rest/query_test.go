package rest

import (
	"math/rand/v2"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Types of the shapes the SDK's options use: typed strings, Unix-second
// timestamps, pointers, comma lists, the int option, embedded options
// (exported, as the SDK's are).
type (
	qAffix     string
	qTimestamp int64
	QPage      struct {
		PerPage int `url:"perPage,omitempty"`
		Page    int `url:"page,omitempty"`
	}
	QCursor struct {
		Affix  qAffix     `url:"affix,omitempty"`
		ID     string     `url:"id,omitempty"`
		SentAt qTimestamp `url:"sentAt,omitempty"`
		Limit  int        `url:"limit,omitempty"`
	}
	QFilters struct {
		SearchKey string   `url:"searchKey,omitempty"`
		Types     []qAffix `url:"types,comma,omitempty"`
		// Page repeats a name of QPage: the embedded one comes after.
		Page int `url:"page,omitempty"`
	}
	qOptions struct {
		QPage
		QCursor
		QFilters
		Tags        []string    `url:"tags,comma,omitempty"`
		Repeated    []string    `url:"rep,omitempty"`
		Unique      bool        `url:"unique,int,omitempty"`
		Cursored    *bool       `url:"useCursoredIndex,int,omitempty"`
		Count       *int        `url:"count,omitempty"`
		Required    string      `url:"required"`
		RequiredPtr *bool       `url:"requiredPtr"`
		From        qTimestamp  `url:"createdAt[from],omitempty"`
		Flag        bool        `url:"flag"`
		Small       uint8       `url:"small,omitempty"`
		Ints        []int64     `url:"ints,comma"`
		Bools       []bool      `url:"bools,int,omitempty"`
		NoTag       string      // encoded under its Go name
		Skipped     string      `url:"-"`
		hidden      string      // unexported: not encoded
		Nullable    *qAffix     `url:"nullable"`
		Untyped     []qAffix    `url:"untyped"`
		Deep        *qTimestamp `url:"deep,omitempty"`
	}
)

// Types query.Values encodes in ways the plan leaves to it.
type (
	qStringer int
	qEncoder  struct{}
)

func (qStringer) String() string { return "stringer" }

func (qEncoder) EncodeValues(key string, v *url.Values) error {
	v.Set(key, "encoded")
	return nil
}

var fallbackValues = []any{
	&struct {
		S qStringer `url:"s"`
	}{1},
	&struct {
		T time.Time `url:"t,omitempty"`
	}{time.Unix(1638423490, 0).UTC()},
	&struct {
		T time.Time `url:"t,unix"`
	}{time.Unix(1638423490, 0)},
	&struct {
		E qEncoder `url:"e"`
	}{},
	&struct {
		Nested QPage `url:"nested"`
	}{QPage{PerPage: 2}},
	&struct {
		*QPage
	}{&QPage{Page: 3}},
	&struct {
		L []string `url:"l,brackets"`
	}{[]string{"a", "b"}},
	&struct {
		L []string `url:"l,numbered"`
	}{[]string{"a", "b"}},
	&struct {
		L []string `url:"l,space"`
	}{[]string{"a", "b"}},
	&struct {
		L []string `url:"l" del:"|"`
	}{[]string{"a", "b"}},
	&struct {
		A [2]string `url:"a"`
	}{[2]string{"x", "y"}},
	&struct {
		F float64 `url:"f"`
	}{1.5},
	&struct {
		P **int `url:"p,omitempty"`
	}{},
}

func TestQueryValuesMatchesGoQuerystring(t *testing.T) {
	yes, no := true, false
	seven, zero := 7, 0
	ts := qTimestamp(1638423490)
	affix := qAffix("append")
	fixed := []any{
		nil,
		(*qOptions)(nil),
		qOptions{},
		&qOptions{},
		&qOptions{
			QPage:    QPage{PerPage: 25, Page: 2},
			QCursor:  QCursor{Affix: "prepend", ID: "a b,c&d", SentAt: 1638423490, Limit: 100},
			QFilters: QFilters{SearchKey: "ünï çødé", Types: []qAffix{"text", "image"}, Page: 9},
			Tags:     []string{"a,b", "c"}, Repeated: []string{"x", "y", "x"},
			Unique: true, Cursored: &no, Count: &zero, Required: "", RequiredPtr: &yes,
			From: -5, Flag: false, Small: 200, Ints: []int64{-1, 0, 1 << 40}, Bools: []bool{true, false},
			NoTag: "bare", Skipped: "never", hidden: "never", Nullable: &affix, Untyped: []qAffix{"u", "v"}, Deep: &ts,
		},
		&qOptions{Cursored: &yes, Count: &seven},
		&struct{}{},
	}
	for _, v := range append(fixed, fallbackValues...) {
		want, wantErr := query.Values(v)
		got, gotErr := QueryValues(v)
		require.Equal(t, wantErr, gotErr, "%#v", v)
		assert.Equal(t, want, got, "%#v", v)
		assert.Equal(t, want.Encode(), got.Encode(), "%#v", v)
	}

	t.Run("not a struct", func(t *testing.T) {
		for _, v := range []any{42, "s", []string{"a"}, new(int)} {
			_, wantErr := query.Values(v)
			_, gotErr := QueryValues(v)
			require.Error(t, gotErr)
			assert.Equal(t, wantErr, gotErr)
		}
	})
}

func TestQueryValuesRandomised(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var v qOptions
		fill(rng, reflect.ValueOf(&v).Elem())
		want, err := query.Values(&v)
		require.NoError(t, err)
		got, err := QueryValues(&v)
		require.NoError(t, err)
		require.Equal(t, want, got, "%#v", v)
	}
}

// fill sets the exported fields of v, a struct, to random values: empty or
// not, nil or not.
func fill(rng *rand.Rand, v reflect.Value) {
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
			fillValue(rng, v.Field(i))
		}
	}
}

func fillValue(rng *rand.Rand, v reflect.Value) {
	if rng.IntN(4) == 0 && v.Kind() != reflect.Struct {
		return // zero
	}
	switch v.Kind() {
	case reflect.Struct:
		fill(rng, v)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillValue(rng, p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), rng.IntN(4), 4)
		for i := range s.Len() {
			fillValue(rng, s.Index(i))
		}
		v.Set(s)
	case reflect.String:
		const alphabet = "ab ,&=?%é+/"
		b := make([]rune, rng.IntN(6))
		for i := range b {
			b[i] = []rune(alphabet)[rng.IntN(len([]rune(alphabet)))]
		}
		v.SetString(string(b))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int64N(1<<40) - 1<<39)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rng.Uint64N(256))
	}
}

func TestQueryValuesPlans(t *testing.T) {
	assert.NotNil(t, queryPlanFor(reflect.TypeFor[qOptions]()), "the SDK's shapes are planned, not left to query.Values")
	for _, v := range fallbackValues {
		assert.Nil(t, queryPlanFor(reflect.TypeOf(v).Elem()), "%T is left to query.Values", v)
	}

	opts := &qOptions{QPage: QPage{PerPage: 25, Page: 2}, Tags: []string{"a", "b"}, Unique: true}
	_, _ = QueryValues(opts)
	planned := testing.AllocsPerRun(100, func() { _, _ = QueryValues(opts) })
	generic := testing.AllocsPerRun(100, func() { _, _ = query.Values(opts) })
	assert.Less(t, planned, generic/2, "a cached plan allocates far less than query.Values")
}
