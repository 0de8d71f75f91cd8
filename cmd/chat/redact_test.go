package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRedactJSON(t *testing.T) {
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
			assert.Equal(t, tc.want, string(redactJSON([]byte(tc.in))))
		})
	}
	assert.Equal(t, `{"apiKeys":"REDACTED","name":"n"}`, string(redactJSON([]byte(`{"apiKeys":{"k1":{"apiKey":"k1"}},"name":"n"}`), "apiKeys")))
}

func FuzzRedactJSON(f *testing.F) {
	f.Add(`{"password":"p","a":[{"accessKey":{"x":1}}],"u":"https://a:b@c"}`)
	f.Fuzz(func(t *testing.T, in string) {
		out := redactJSON([]byte(in))
		if json.Valid([]byte(in)) && !json.Valid(out) {
			t.Fatalf("redactJSON(%q) = %q, not JSON", in, out)
		}
	})
}
