package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"time"
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

// UnmarshalJSON accepts a number, a numeric string, "" or null.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	n, err := lenientInt(b)
	if err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: timestampType}
	}
	*t = Timestamp(n)
	return nil
}

var timestampType = reflect.TypeFor[Timestamp]()

// lenientInt decodes a JSON number, a numeric string, "", null, or a
// fractional number (truncated).
func lenientInt(b []byte) (int64, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return 0, nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, err
		}
		if s == "" {
			return 0, nil
		}
		b = []byte(s)
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, err
	}
	return int64(f), nil
}

// flexInt decodes like lenientInt; used in shadow structs for int fields.
type flexInt int64

func (n *flexInt) UnmarshalJSON(b []byte) error {
	v, err := lenientInt(b)
	if err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[int]()}
	}
	*n = flexInt(v)
	return nil
}

// flexString decodes a JSON string, or a number as its text, or null as "".
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
		return nil
	case b[0] == '-' || '0' <= b[0] && b[0] <= '9':
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		*s = flexString(n)
		return nil
	}
	return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[string]()}
}

// Result is the answer of operations that change something without
// returning a resource: {"success": true, "message": "..."}. The API
// sometimes capitalises the key as "Message"; both decode.
type Result struct {
	// Success reports whether the operation succeeded.
	Success bool `json:"success"`
	// Message is the service's description of what happened.
	Message string `json:"message,omitempty"`
}

// UnmarshalJSON accepts "message" and "Message".
func (r *Result) UnmarshalJSON(b []byte) error {
	var aux struct {
		Success json.RawMessage `json:"success"`
		Lower   *string         `json:"message"`
		Upper   *string         `json:"Message"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	r.Success = lenientBool(aux.Success)
	switch {
	case aux.Lower != nil:
		r.Message = *aux.Lower
	case aux.Upper != nil:
		r.Message = *aux.Upper
	}
	return nil
}

func lenientBool(b json.RawMessage) bool {
	switch string(bytes.TrimSpace(b)) {
	case "true", `"true"`, "1", `"1"`:
		return true
	}
	return false
}
