package rest

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPathEscaping(t *testing.T) {
	tests := []struct {
		name     string
		segments []string
		escaped  string
		valid    bool
	}{
		{"root", nil, "", true},
		{"plain", []string{"users", "cometchat-uid-1"}, "/users/cometchat-uid-1", true},
		{"unreserved marks", []string{"a-b_c.d~e"}, "/a-b_c.d~e", true},
		{"slash", []string{"users", "a/b"}, "/users/a%2Fb", true},
		{"climbing", []string{"users", "../../apikeys"}, "/users/..%2F..%2Fapikeys", true},
		{"query", []string{"users", "a?b=c&d"}, "/users/a%3Fb=c&d", true},
		{"fragment", []string{"users", "a#b"}, "/users/a%23b", true},
		{"percent", []string{"users", "100%"}, "/users/100%25", true},
		{"escaped slash stays literal", []string{"users", "a%2Fb"}, "/users/a%252Fb", true},
		{"space", []string{"users", "a b"}, "/users/a%20b", true},
		{"segment separators", []string{"users", "a;b,c"}, "/users/a%3Bb%2Cc", true},
		{"allowed sub-delims", []string{"users", "a:b@c+d$e=f&g"}, "/users/a:b@c+d$e=f&g", true},
		{"emoji", []string{"messages", "42", "reactions", "👍"}, "/messages/42/reactions/%F0%9F%91%8D", true},
		{"emoji with a joiner", []string{"r", "🏳️‍🌈"}, "/r/%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88", true},
		{"control characters", []string{"users", "a\r\nb\x00"}, "/users/a%0D%0Ab%00", true},
		{"backslash", []string{"users", `a\b`}, "/users/a%5Cb", true},
		{"invalid UTF-8", []string{"users", "\xff\xfe"}, "/users/%FF%FE", true},
		{"three dots", []string{"users", "..."}, "/users/...", true},
		{"empty segment", []string{"users", ""}, "/users/", false},
		{"dot", []string{"users", "."}, "/users/.", false},
		{"dot-dot", []string{"users", ".."}, "/users/..", false},
		{"dot-dot first", []string{"..", "users"}, "/../users", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPath(tt.segments...)
			assert.Equal(t, tt.escaped, p.Escaped())
			assert.Equal(t, tt.escaped, p.Redacted(), "a path without secrets shows as sent")
			assert.Equal(t, tt.valid, p.Valid())
			if !tt.valid || len(tt.segments) == 0 {
				return
			}
			// Each segment comes back whole, and nothing else is added.
			parts := strings.Split(p.Escaped(), "/")
			require.Len(t, parts, len(tt.segments)+1)
			for i, seg := range tt.segments {
				got, err := url.PathUnescape(parts[i+1])
				require.NoError(t, err)
				assert.Equal(t, seg, got)
			}
			u, err := url.Parse("https://app.example.com/v3" + p.Escaped())
			require.NoError(t, err)
			assert.Equal(t, "app.example.com", u.Host)
			assert.Empty(t, u.RawQuery)
			assert.Empty(t, u.Fragment)
			assert.Equal(t, "/v3"+p.Escaped(), u.EscapedPath())
		})
	}
}

func TestPathSecret(t *testing.T) {
	tests := []struct {
		name     string
		path     Path
		escaped  string
		redacted string
		secrets  []string
		valid    bool
	}{
		{"auth token", NewPath("users", "u1", "auth_tokens").Secret("u1_abc123"),
			"/users/u1/auth_tokens/u1_abc123", "/users/u1/auth_tokens/REDACTED", []string{"u1_abc123"}, true},
		{"api key", NewPath("apikeys").Secret("f1915e328e249ffaaafd97fb46a57ba55d233fbf"),
			"/apikeys/f1915e328e249ffaaafd97fb46a57ba55d233fbf", "/apikeys/REDACTED", []string{"f1915e328e249ffaaafd97fb46a57ba55d233fbf"}, true},
		{"escaped secret", NewPath("apikeys").Secret("a/b?c"), "/apikeys/a%2Fb%3Fc", "/apikeys/REDACTED", []string{"a/b?c"}, true},
		{"escaped base", NewPath("users", "a b", "auth_tokens").Secret("tok-1"), "/users/a%20b/auth_tokens/tok-1", "/users/a%20b/auth_tokens/REDACTED", []string{"tok-1"}, true},
		{"two secrets", NewPath("x").Secret("s1").Secret("s2"), "/x/s1/s2", "/x/REDACTED/REDACTED", []string{"s1", "s2"}, true},
		{"empty secret", NewPath("apikeys").Secret(""), "/apikeys/", "/apikeys/REDACTED", []string{""}, false},
		{"dot-dot secret", NewPath("apikeys").Secret(".."), "/apikeys/..", "/apikeys/REDACTED", []string{".."}, false},
		{"bad base stays bad", NewPath("users", "").Secret("tok-1"), "/users//tok-1", "/users//REDACTED", []string{"tok-1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.escaped, tt.path.Escaped())
			assert.Equal(t, tt.redacted, tt.path.Redacted())
			assert.Equal(t, tt.secrets, tt.path.secrets)
			assert.Equal(t, tt.valid, tt.path.Valid())
			for _, s := range tt.secrets {
				if s != "" && s != ".." {
					assert.NotContains(t, tt.path.Redacted(), s)
				}
			}
		})
	}

	t.Run("paths built from one base do not share secrets", func(t *testing.T) {
		base := NewPath("x").Secret("s1")
		a := base.Secret("a")
		b := base.Secret("b")
		assert.Equal(t, []string{"s1", "a"}, a.secrets)
		assert.Equal(t, []string{"s1", "b"}, b.secrets)
		assert.Equal(t, []string{"s1"}, base.secrets)
	})
}
