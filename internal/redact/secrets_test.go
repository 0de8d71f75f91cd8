package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScrub(t *testing.T) {
	for _, tt := range []struct{ text, secret, want string }{
		{"key 0123456789abcdef echoed", "0123456789abcdef", "key REDACTED echoed"},
		{"inside:X0123456789abcdefX", "0123456789abcdef", "inside:XREDACTEDX"},
		{"password pw1 is wrong", "pw1", "password REDACTED is wrong"},
		{"pw1", "pw1", "REDACTED"},
		{"(pw1),pw1", "pw1", "(REDACTED),REDACTED"},
		{"apw1 pw1b pw12", "pw1", "apw1 pw1b pw12"},
		{"the message has an a", "a", "the message has an REDACTED"},
		{"naïve pw1é", "pw1", "naïve pw1é"},
		{"", "pw1", ""},
		{"nothing here", "", "nothing here"},
	} {
		assert.Equal(t, tt.want, Scrub(tt.text, []string{tt.secret}), "%q in %q", tt.secret, tt.text)
	}
}

func TestSecretsIn(t *testing.T) {
	assert.Nil(t, SecretsIn(nil))
	assert.Nil(t, SecretsIn(struct{ A string }{"x"}))
	assert.Nil(t, SecretsIn(&struct{ N int }{1}))
}
