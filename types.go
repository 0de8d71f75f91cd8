package chat

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"

	"github.com/chatrest/chat/internal/rest"
)

// Timestamp is a point in time as the API sends it: Unix seconds. Zero means
// unset. It decodes leniently, as the API is not consistent: a number, a
// numeric string, or null (which leaves it zero).
type Timestamp int64

// Time returns t as a time.Time, or the zero time.Time when t is zero.
func (t Timestamp) Time() time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(int64(t), 0)
}

// IsZero reports whether t is unset.
func (t Timestamp) IsZero() bool { return t == 0 }

// TimestampOf returns t as a Timestamp (Unix seconds), or zero for the zero
// time.
func TimestampOf(t time.Time) Timestamp {
	if t.IsZero() {
		return 0
	}
	return Timestamp(t.Unix())
}

// UnmarshalJSON accepts a number, a numeric string, "" or null. A value
// beyond the year 9999 (or before -9999) saturates to that bound; NaN and
// other text are an error.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	n, ok, valid := rest.ParseUnix(b, rest.MaxUnix)
	if !valid {
		return &json.UnmarshalTypeError{Value: "timestamp " + strconv.Quote(string(b)), Type: reflect.TypeFor[Timestamp]()}
	}
	if ok {
		*t = Timestamp(n)
	}
	return nil
}

// Result is the answer of operations that change something without
// returning a resource: {"success": true, "message": "..."}. The API
// sometimes capitalises the key as "Message"; both decode (encoding/json
// matches keys case-insensitively).
type Result struct {
	// Success reports whether the operation succeeded.
	Success bool `json:"success"`
	// Message is the service's description of what happened.
	Message string `json:"message,omitempty"`
}

// decodeKeepingRaw decodes b leniently into v, the plain form of a type
// (one without its UnmarshalJSON method), and keeps a copy of b in raw.
func decodeKeepingRaw(b []byte, v any, raw *json.RawMessage) error {
	if err := rest.Unmarshal(b, v); err != nil {
		return err
	}
	*raw = append(json.RawMessage(nil), b...)
	return nil
}
