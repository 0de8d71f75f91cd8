package engine

import (
	"testing"

	"github.com/chatrest/chat/internal/redact"
	"github.com/stretchr/testify/assert"
)

// TestEscapePath checks what a request's path becomes on the wire and in
// errors and logs: a segment equal to one of the request's Secrets shows
// as REDACTED, escaped or not.
func TestEscapePath(t *testing.T) {
	const base = "https://myapp.api-us.cometchat.io/v3"
	tests := []struct {
		name           string
		req            Request
		escaped, shown string
		valid          bool
	}{
		{"auth token", Request{Path: []string{"users", "u1", "auth_tokens", "u1_abc123"}, Secrets: []redact.Secret{"u1_abc123"}},
			"/users/u1/auth_tokens/u1_abc123", "/users/u1/auth_tokens/REDACTED", true},
		{"api key", Request{Path: []string{"apikeys", "f1915e328e249ffaaafd97fb46a57ba55d233fbf"}, Secrets: []redact.Secret{"f1915e328e249ffaaafd97fb46a57ba55d233fbf"}},
			"/apikeys/f1915e328e249ffaaafd97fb46a57ba55d233fbf", "/apikeys/REDACTED", true},
		{"escaped secret", Request{Path: []string{"apikeys", "a/b?c"}, Secrets: []redact.Secret{"a/b?c"}}, "/apikeys/a%2Fb%3Fc", "/apikeys/REDACTED", true},
		{"escaped segment before it", Request{Path: []string{"users", "a b", "auth_tokens", "tok-1"}, Secrets: []redact.Secret{"tok-1"}},
			"/users/a%20b/auth_tokens/tok-1", "/users/a%20b/auth_tokens/REDACTED", true},
		{"two secrets", Request{Path: []string{"x", "s1", "s2"}, Secrets: []redact.Secret{"s1", "s2"}}, "/x/s1/s2", "/x/REDACTED/REDACTED", true},
		{"no secrets", Request{Path: []string{"users", "a/b"}}, "/users/a%2Fb", "/users/a%2Fb", true},
		{"empty secret", Request{Path: []string{"apikeys", ""}, Secrets: []redact.Secret{""}}, "", "", false},
		{"dot-dot", Request{Path: []string{"apikeys", ".."}}, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, shown, ok := escapePath(base, &tt.req)
			assert.Equal(t, tt.valid, ok)
			if !ok {
				return
			}
			assert.Equal(t, base+tt.escaped, u)
			assert.Equal(t, tt.shown, shown)
			for _, s := range tt.req.Secrets {
				assert.NotContains(t, shown, string(s))
			}
		})
	}
}

func TestIsNil(t *testing.T) {
	var p *struct{}
	var m map[string]int
	var s []int
	var i any = p
	for name, tt := range map[string]struct {
		v    any
		want bool
	}{
		"nil": {nil, true}, "nil pointer": {p, true}, "nil map": {m, true}, "nil slice": {s, true},
		"interface holding nil": {i, true}, "struct": {struct{}{}, false}, "empty map": {map[string]int{}, false},
		"pointer": {&struct{}{}, false}, "zero int": {0, false}, "empty string": {"", false},
	} {
		assert.Equal(t, tt.want, isNil(tt.v), name)
	}
}
