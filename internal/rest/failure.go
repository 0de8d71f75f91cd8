package rest

import (
	"encoding/json"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Failure is what the SDK knows about a call that did not succeed. Its
// fields, in order and type, are exactly those of chat.Error, which is built
// from it by a pointer conversion.
type Failure struct {
	StatusCode         int
	Code               string
	Message            string
	DevMessage         string
	Source             string
	Details            map[string][]string
	Method             string
	Path               string
	Attempts           int
	RateLimit          int
	RateLimitRemaining int
	RateLimitReset     time.Time
	RetryAfter         time.Duration
	Err                error
}

// wireError is the service's error body: {"error": {...}}.
type wireError struct {
	Error *struct {
		Code       json.RawMessage            `json:"code"`
		Message    string                     `json:"message"`
		DevMessage string                     `json:"devMessage"`
		Source     string                     `json:"source"`
		Details    map[string]json.RawMessage `json:"details"`
	} `json:"error"`
}

func (c *Client) failure(call *Call, st *callState, resp *http.Response, body []byte, err error) *Failure {
	f := &Failure{
		StatusCode: resp.StatusCode,
		Method:     call.Method,
		Path:       pathOf(c.base) + call.Path.Redacted(),
		Attempts:   st.attempts,
		Err:        err,
	}
	h := resp.Header
	f.RateLimit, _ = strconv.Atoi(h.Get("X-Rate-Limit"))
	f.RateLimitRemaining, _ = strconv.Atoi(h.Get("X-Rate-Limit-Remaining"))
	if s, err := strconv.ParseInt(h.Get("X-Rate-Limit-Reset"), 10, 64); err == nil && s > 0 {
		f.RateLimitReset = time.Unix(s, 0)
	}
	f.RetryAfter, _ = serverWait(resp.StatusCode, h, time.Now())
	if len(body) > 0 {
		var w wireError
		if json.Unmarshal(body, &w) == nil && w.Error != nil {
			f.Code = jsonString(w.Error.Code)
			f.Message = w.Error.Message
			f.DevMessage = w.Error.DevMessage
			f.Source = w.Error.Source
			f.Details = details(w.Error.Details)
		} else if f.Err == nil {
			f.Message = unrecognisedMessage(resp, body)
		}
	}
	if f.Message == "" && f.Code == "" && f.StatusCode >= 300 {
		f.Message = http.StatusText(f.StatusCode)
	}
	c.scrub(f, call)
	return f
}

// scrub removes every credential the call carried from every text of f
// that the server may have filled: a server may echo what it was sent in
// any of them.
func (c *Client) scrub(f *Failure, call *Call) {
	secrets := c.callSecrets(call)
	f.Code = Scrub(f.Code, secrets)
	f.Message = Scrub(f.Message, secrets)
	f.DevMessage = Scrub(f.DevMessage, secrets)
	f.Source = Scrub(f.Source, secrets)
	f.Details = ScrubDetails(f.Details, func(s string) string { return Scrub(s, secrets) })
	f.Err = scrubErr(f.Err, secrets)
}

// ScrubDetails applies scrub to the keys and values of details (an error's
// field -> problems map); keys that become equal keep every value.
func ScrubDetails(details map[string][]string, scrub func(string) string) map[string][]string {
	if len(details) == 0 {
		return details
	}
	out := make(map[string][]string, len(details))
	for k, vs := range details {
		for i, v := range vs {
			vs[i] = scrub(v)
		}
		k = scrub(k)
		out[k] = append(out[k], vs...)
	}
	return out
}

func pathOf(base string) string {
	if i := strings.Index(base, "://"); i >= 0 {
		rest := base[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[j:]
		}
		return ""
	}
	return base
}

// jsonString reads a JSON string, or a number as its text.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// details normalises {"field": ["msg", ...]} and {"field": "msg"}.
func details(in map[string]json.RawMessage) map[string][]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string][]string, len(in))
	for k, raw := range in {
		var list []string
		if json.Unmarshal(raw, &list) == nil {
			out[k] = list
			continue
		}
		if s := jsonString(raw); s != "" {
			out[k] = []string{s}
			continue
		}
		out[k] = []string{string(raw)}
	}
	return out
}

// unrecognisedMessage describes an error body that is not the API's
// {"error": {...}} object: a proxy's HTML page, or other JSON.
func unrecognisedMessage(resp *http.Response, body []byte) string {
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "" {
		mt = "unknown content type"
	}
	if json.Valid(body) {
		return "error response is JSON but not the API's error object (" + mt + ")"
	}
	return "non-JSON error response (" + mt + ")"
}

// SortedKeys returns the keys of m in order; for stable error texts.
func SortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
