package chat_test

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// TestTimestampRange decodes timestamps out of any sensible range: they
// saturate at the end of the year 9999 (or -9999) and never wrap round to a
// time on the other side of 1970; NaN and text are an error.
func TestTimestampRange(t *testing.T) {
	end := chat.Timestamp(253402300799) // 9999-12-31T23:59:59Z
	for in, want := range map[string]chat.Timestamp{
		`1638354015`: 1638354015, `"1638354015"`: 1638354015, `1638354015.9`: 1638354015, `" 1638354015 "`: 1638354015,
		`null`: 0, `""`: 0,
		`1e300`: end, `"1e300"`: end, `99999999999999999999999`: end, `"99999999999999999999999"`: end,
		`"Infinity"`: end, `"+Inf"`: end, strconv.FormatInt(math.MaxInt64, 10): end, `253402300800`: end,
		`-1e300`: -end, `"-Infinity"`: -end, strconv.FormatInt(math.MinInt64, 10): -end, `-99999999999999999999999`: -end,
	} {
		var ts chat.Timestamp
		require.NoError(t, json.Unmarshal([]byte(in), &ts), in)
		assert.Equal(t, want, ts, in)
		if want > 0 {
			assert.True(t, ts.Time().After(time.Unix(0, 0)), "%s decodes to %v", in, ts.Time())
		}
	}
	assert.Equal(t, 9999, end.Time().UTC().Year())
	for _, in := range []string{`"NaN"`, `"nan"`, `"soon"`, `true`, `{}`, `[1]`} {
		var ts chat.Timestamp
		assert.EqualError(t, json.Unmarshal([]byte(in), &ts), "json: cannot unmarshal timestamp "+strconv.Quote(in)+" into Go value of type chat.Timestamp")
	}
	var m chat.Message
	require.NoError(t, json.Unmarshal([]byte(`{"id":"1","sentAt":1e300,"updatedAt":"-Infinity"}`), &m))
	assert.Equal(t, end, m.SentAt)
	assert.Equal(t, -end, m.UpdatedAt)
}
