package webhook

import (
	"bytes"
	"strconv"
	"time"
)

// Millis is a point in time in Unix milliseconds, as
// user_connection_status_changed sends its times. Zero means unset. It
// decodes from a number or a numeric string.
type Millis int64

// Time returns m as a time.Time, or the zero time.Time when m is zero.
func (m Millis) Time() time.Time {
	if m == 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(m))
}

// Seconds is a length of time in seconds, possibly fractional, as
// recording_generated sends a recording's duration ("21.433000"). It
// decodes from a number or a numeric string.
type Seconds float64

// Duration returns s as a time.Duration.
func (s Seconds) Duration() time.Duration { return time.Duration(float64(s) * float64(time.Second)) }

// Time is a point in time in the payloads whose time format varies:
// moderation failures, campaigns, notifications, feed items and push
// notifications. They may carry Unix seconds, or ISO-8601 strings as the
// same service's REST answers do, so Time takes either:
//
//   - a number or numeric string: Unix seconds, or Unix milliseconds when
//     it has 13 digits or more (seconds would need the year 33658 for that);
//   - an RFC 3339 string, e.g. "2024-01-15T09:30:00.000Z";
//   - null, "" or anything else: the zero Time.
//
// Decoding a Time never fails, so an unexpected format does not cost the
// event; the value as sent stays in the envelope's Data. A Time encodes as
// Unix seconds, or milliseconds when it has a fraction of a second (and is
// after September 2001, so that it reads back the same), and the zero Time
// as null.
type Time struct{ time.Time }

// UnmarshalJSON reads seconds, milliseconds or an RFC 3339 string; see [Time].
func (t *Time) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	t.Time = time.Time{}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = bytes.TrimSpace(b[1 : len(b)-1])
	}
	s := string(b)
	if s == "" {
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		t.Time = unixGuess(n)
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > -1e18 && f < 1e18 {
		t.Time = unixGuess(int64(f))
		return nil
	}
	if v, err := time.Parse(time.RFC3339Nano, s); err == nil {
		t.Time = v
	}
	return nil
}

// unixGuess reads n as Unix milliseconds when it has 13 digits or more,
// else as Unix seconds.
func unixGuess(n int64) time.Time {
	if n >= 1e12 || n <= -1e12 {
		return time.UnixMilli(n)
	}
	return time.Unix(n, 0)
}

// MarshalJSON writes t as Unix seconds, or milliseconds when it has a
// fraction of a second, and the zero Time as null; see [Time].
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	if ms := t.UnixMilli(); t.Nanosecond() != 0 && (ms >= 1e12 || ms <= -1e12) {
		return strconv.AppendInt(nil, ms, 10), nil
	}
	return strconv.AppendInt(nil, t.Unix(), 10), nil
}
