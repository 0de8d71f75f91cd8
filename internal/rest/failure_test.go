package rest

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDetails(t *testing.T) {
	in := map[string]json.RawMessage{
		"list":   json.RawMessage(`["a","b"]`),
		"string": json.RawMessage(`"c"`),
		"number": json.RawMessage(`12`),
		"object": json.RawMessage(`{"x":1}`),
		"empty":  json.RawMessage(`[]`),
		"null":   json.RawMessage(`null`),
	}
	assert.Equal(t, map[string][]string{
		"list":   {"a", "b"},
		"string": {"c"},
		"number": {"12"},
		"object": {`{"x":1}`},
		"empty":  {},
		"null":   nil,
	}, details(in))
	assert.Nil(t, details(nil))
}

func TestJSONString(t *testing.T) {
	for raw, want := range map[string]string{`"ERR_X"`: "ERR_X", `404`: "404", `1.5`: "1.5", `null`: "", `{}`: "", `true`: "", ``: ""} {
		assert.Equal(t, want, jsonString(json.RawMessage(raw)), raw)
	}
}

func TestPathOf(t *testing.T) {
	for base, want := range map[string]string{
		"https://app.api-us.cometchat.io/v3": "/v3",
		"https://127.0.0.1:8443/prefix/v3":   "/prefix/v3",
		"https://app.api-us.cometchat.io":    "",
		"/already/a/path":                    "/already/a/path",
		"http://[::1]:80/v3":                 "/v3",
	} {
		assert.Equal(t, want, pathOf(base), base)
	}
}

func TestFailure(t *testing.T) {
	c := &Client{base: "https://app.example.com/v3", Secrets: func() []string { return []string{"the-api-key-1234"} }}
	call := &Call{Method: http.MethodGet, Path: NewPath("users", "u1", "auth_tokens").Secret("tok-9876")}
	st := &callState{attempts: 2}
	resp := &http.Response{StatusCode: 429, Header: http.Header{
		"Content-Type":           {"application/json"},
		"X-Rate-Limit":           {"700"},
		"X-Rate-Limit-Remaining": {"0"},
		"X-Rate-Limit-Reset":     {"1625143246"},
		"Retry-After":            {"15"},
	}}
	f := c.failure(call, st, resp, []byte(`{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"slow down tok-9876",
		"devMessage":"key the-api-key-1234","source":"chat-api","details":{"tok-9876":["the-api-key-1234 and tok-9876"]}}}`), nil)
	assert.Equal(t, &Failure{
		StatusCode: 429, Code: "ERR_TOO_MANY_REQUESTS", Message: "slow down REDACTED", DevMessage: "key REDACTED",
		Source: "chat-api", Details: map[string][]string{"REDACTED": {"REDACTED and REDACTED"}},
		Method: "GET", Path: "/v3/users/u1/auth_tokens/REDACTED", Attempts: 2,
		RateLimit: 700, RateLimitRemaining: 0, RateLimitReset: time.Unix(1625143246, 0), RetryAfter: 15 * time.Second,
	}, f)

	t.Run("short secrets are scrubbed where they stand as a word", func(t *testing.T) {
		call := &Call{Method: http.MethodGet, Path: NewPath("x").Secret("abc")}
		f := c.failure(call, st, &http.Response{StatusCode: 404, Header: http.Header{}}, []byte(`{"error":{"message":"abc not found in xabcx"}}`), nil)
		assert.Equal(t, "REDACTED not found in xabcx", f.Message)
		assert.Equal(t, "/v3/x/REDACTED", f.Path)
	})

	t.Run("every field the server fills is scrubbed", func(t *testing.T) {
		call := &Call{Method: http.MethodGet, Path: NewPath("x"), Secrets: []string{"pass word/1"}}
		f := c.failure(call, st, &http.Response{StatusCode: 400, Header: http.Header{}}, []byte(`{"error":{
			"code":"the-api-key-1234","message":"pass word/1","devMessage":"pass+word%2F1","source":"pass%20word%2F1",
			"details":{"the-api-key-1234":["x"],"REDACTED":["y"]}}}`), nil)
		assert.Equal(t, "REDACTED", f.Code)
		assert.Equal(t, "REDACTED", f.Message)
		assert.Equal(t, "REDACTED", f.DevMessage, "query-escaped")
		assert.Equal(t, "REDACTED", f.Source, "path-escaped")
		require.Len(t, f.Details, 1)
		assert.ElementsMatch(t, []string{"x", "y"}, f.Details["REDACTED"], "keys that become equal keep every value")
	})

	t.Run("non-JSON body", func(t *testing.T) {
		f := c.failure(call, st, &http.Response{StatusCode: 502, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}}, []byte(`<html>`), nil)
		assert.Equal(t, "non-JSON error response (text/html)", f.Message)
		assert.Empty(t, f.Code)
	})

	t.Run("no body", func(t *testing.T) {
		f := c.failure(call, st, &http.Response{StatusCode: 503, Header: http.Header{}}, nil, nil)
		assert.Equal(t, "Service Unavailable", f.Message)
	})

	t.Run("numeric code", func(t *testing.T) {
		f := c.failure(call, st, &http.Response{StatusCode: 400, Header: http.Header{}}, []byte(`{"error":{"code":400}}`), nil)
		assert.Equal(t, "400", f.Code)
	})
}

func TestSortedKeys(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "c"}, SortedKeys(map[string][]string{"c": nil, "a": nil, "b": nil}))
	require.Empty(t, SortedKeys(nil))
}
