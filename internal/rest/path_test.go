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
			escaped, valid := "", true
			for _, seg := range tt.segments {
				escaped += "/" + EscapeSegment(seg)
				valid = valid && ValidSegment(seg)
			}
			assert.Equal(t, tt.escaped, escaped)
			assert.Equal(t, tt.valid, valid)
			if !tt.valid || len(tt.segments) == 0 {
				return
			}
			// Each segment comes back whole, and nothing else is added.
			parts := strings.Split(escaped, "/")
			require.Len(t, parts, len(tt.segments)+1)
			for i, seg := range tt.segments {
				got, err := url.PathUnescape(parts[i+1])
				require.NoError(t, err)
				assert.Equal(t, seg, got)
			}
			u, err := url.Parse("https://app.example.com/v3" + escaped)
			require.NoError(t, err)
			assert.Equal(t, "app.example.com", u.Host)
			assert.Empty(t, u.RawQuery)
			assert.Empty(t, u.Fragment)
			assert.Equal(t, "/v3"+escaped, u.EscapedPath())
		})
	}
}
