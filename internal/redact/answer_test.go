package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnswer(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"nothing to hide", `{"b":1, "a":"\u00e9", "url":"https://h.example/x?a=1&b=2"}`, `{"b":1, "a":"\u00e9", "url":"https://h.example/x?a=1&b=2"}`},
		{"a password member", `{"id":"w", "password" : "p\"w", "n":2}`, `{"id":"w", "password" : "REDACTED", "n":2}`},
		{"names in any case, nested", `[{"x":{"basicAuthPassword":"p","accessKey":"k","webhookPassword":null,"mgmtSecret":7}}]`,
			`[{"x":{"basicAuthPassword":"REDACTED","accessKey":"REDACTED","webhookPassword":"REDACTED","mgmtSecret":"REDACTED"}}]`},
		{"a hidden object whole", `{"password":{"password":"p","a":[1,{"b":2}]},"next":"password"}`, `{"password":"REDACTED","next":"password"}`},
		{"a URL's password", `{"webhookURL":"https://bob:pw@h.example/x?a=1&b=2","u":"https://bob@h.example"}`,
			`{"webhookURL":"https://bob:xxxxx@h.example/x?a=1&b=2","u":"https://bob@h.example"}`},
		{"a value named like a member", `["password","accessKey"]`, `["password","accessKey"]`},
		{"not JSON", `{"password":`, `{"password":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(Answer([]byte(tc.in))))
		})
	}
	assert.Equal(t, `{"apiKeys":"REDACTED","name":"n"}`, string(Answer([]byte(`{"apiKeys":{"k1":{"apiKey":"k1"}},"name":"n"}`), "apiKeys")))
}

func FuzzAnswer(f *testing.F) {
	f.Add(`{"password":"p","a":[{"accessKey":{"x":1}}],"u":"https://a:b@c"}`)
	f.Fuzz(func(t *testing.T, in string) {
		out := Answer([]byte(in))
		if json.Valid([]byte(in)) && !json.Valid(out) {
			t.Fatalf("Answer(%q) = %q, not JSON", in, out)
		}
	})
}

// A Writer replaces each credential it was given, also when it is written
// in two pieces, and writes what it held back on Flush.
func TestWriter(t *testing.T) {
	var out strings.Builder
	w := NewWriter(&out)
	w.Redact("key-0123456789", "")
	_, err := w.Write([]byte("sent key-01234"))
	require.NoError(t, err)
	assert.Empty(t, out.String(), "a line without its end is held back")
	_, err = w.Write([]byte("56789 to the server\nthen "))
	require.NoError(t, err)
	assert.Equal(t, "sent REDACTED to the server\n", out.String())
	require.NoError(t, w.Flush())
	assert.Equal(t, "sent REDACTED to the server\nthen ", out.String())
}

func TestStoredCredential(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "basicAuthPassword": true, "secret": true, "mgmtSecret": true, "accessKey": true,
		"authToken": false, "apiKey": false, "name": false, "passwordHint": false,
	} {
		assert.Equal(t, want, StoredCredential(name), "%q", name)
	}
}
