package rest

import (
	"math"
	"strconv"
	"strings"
)

// MaxUnix is the largest timestamp in Unix seconds the SDK decodes, the end
// of the year 9999; larger values saturate to it, and smaller values than
// -MaxUnix to -MaxUnix.
const MaxUnix = 253402300799 // 9999-12-31T23:59:59Z

// ParseUnix reads a timestamp as the APIs send it: a JSON number or a
// string holding one, in units of which limit is the largest to keep (a
// larger or smaller value, infinity included, saturates to ±limit: a
// timestamp never wraps round). A fraction is dropped. "", null and a
// string of blanks are unset (ok false). Anything else, NaN included, is
// not a timestamp (valid false).
func ParseUnix(b []byte, limit int64) (n int64, ok, valid bool) {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	switch s {
	case "", "null":
		return 0, false, true
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return min(max(i, -limit), limit), true, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeError(err) || math.IsNaN(f) {
		return 0, false, false
	}
	switch {
	case f >= float64(limit):
		return limit, true, true
	case f <= -float64(limit):
		return -limit, true, true
	}
	return int64(f), true, true
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
