package requestlog

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/stretchr/testify/assert"
)

// isAlnum reports whether c is an ASCII letter or digit: what a planted
// credential is made of.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// A value hidden by name is hidden wherever else its request shows it;
// one under a strong name, of 8 characters or more, in later requests too.
func TestRequestLogHidesFoundValuesElsewhere(t *testing.T) {
	l := New()
	entry := func(target, body string) *fake.Request {
		r := httptest.NewRequest("POST", target, strings.NewReader(body))
		r.Header.Set("X-Debug", "saw hunter22 and k1k1")
		return l.Arrive("", r, []byte(body)).(*exchange).entry
	}
	e := entry("/v3/groups?note=hunter22", `{"guid":"g","password":"hunter22","metadata":{"key":"k1k1"},"note":"k1k1 hunter22"}`)
	assert.Equal(t, `{"guid":"g","metadata":{"key":"REDACTED"},"note":"REDACTED REDACTED","password":"REDACTED"}`, e.Body)
	assert.Equal(t, "REDACTED", e.Query.Get("note"))
	assert.Equal(t, "saw REDACTED and REDACTED", e.Header.Get("X-Debug"))

	// Later: the password is known, the loosely named key is not.
	e = entry("/v3/users", `{"note":"hunter22 k1k1"}`)
	assert.Equal(t, `{"note":"REDACTED k1k1"}`, e.Body)
}
