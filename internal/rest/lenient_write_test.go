package rest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The lenient pass writes its reshaped tree with appendJSON instead of
// json.Marshal: it must write the same bytes (JSON kept raw shows them), and
// refuse what json.Marshal refuses.
func TestAppendJSONWritesAsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		tree := randomTree(rng, 0)
		want, wantErr := json.Marshal(tree)
		got, ok := appendJSON(nil, tree)
		if wantErr != nil {
			assert.False(t, ok, "%#v: json.Marshal fails with %v", tree, wantErr)
			continue
		}
		require.True(t, ok, "%#v", tree)
		require.Equal(t, string(want), string(got))
		decodeTree(t, got)
	}
}

func TestAppendJSONStrings(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "nl\n cr\r tab\t bs\b ff\f", "\x00\x01\x1f\x7f", "<&>", "é ünï \u2028\u2029 😀", "\xff\xfe", "a\xc3"} {
		got, ok := appendJSON(nil, s)
		require.True(t, ok)
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "-12", "1.5", "0.25", "1e9", "1E+9", "2.5e-3", "12345678901234567890"} {
		assert.True(t, validNumber(s), s)
	}
	for _, s := range []string{"", "-", "+5", "01", "1.", ".5", "1e", "1e+", "0x10", "inf", "NaN", "1_000", " 1", "1 "} {
		assert.False(t, validNumber(s), s)
	}
}

func decodeTree(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), "%s", b)
	return v
}

func randomTree(rng *rand.Rand, depth int) any {
	n := 8
	if depth > 3 {
		n = 6 // no more containers
	}
	switch rng.IntN(n) {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2:
		const alphabet = "a\"\\\n\t\b\x01é😀<&\u2028\xff"
		b := make([]byte, rng.IntN(8))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	case 3:
		numbers := []string{"", "0", "-1", "3.25", "1e3", "12345678901234567890", "+5", "01", "1.", "inf", "0x1p-2"}
		return json.Number(numbers[rng.IntN(len(numbers))])
	case 4:
		return rng.IntN(1000) - 500
	case 5:
		return rng.Int64()
	case 6:
		if rng.IntN(8) == 0 {
			return []any(nil)
		}
		a := make([]any, rng.IntN(4))
		for i := range a {
			a[i] = randomTree(rng, depth+1)
		}
		return a
	default:
		if rng.IntN(8) == 0 {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for i := range rng.IntN(4) {
			m["k"+strconv.Itoa(i)+"\"\n"] = randomTree(rng, depth+1)
		}
		return m
	}
}
