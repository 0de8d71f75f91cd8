package redact

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSecretField(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "Password": true, "basicAuthPassword": true, "pass_word": true, "user[password]": true,
		"password2": true, "new_pwd": true, "passwd": true, "client_secret": true, "X-Api-Key": true, "x-key": true,
		"key": true, "KEY": true, "metadata.key": true, "pass": true, "auth": true, "authToken": true,
		"private_key": true, "p8Key": true, "fcm[private_key]": true, "jwt": true, "Authorization": true, "Cookie": true,
		"sendGridApiKey": true, "revaiAPIKey": true, "certificate": true, "passphrase": true,
		"searchKey": false, "dataKey": false, "keyId": false, "private_key_id": false, "tokens": false,
		"username": false, "passport": false, "useBasicAuth": false, "author": false, "note": false, "": false,
		"123": false, "password.hint": false, "keys": false, "monkey": false,
	} {
		assert.Equal(t, want, SecretField(name), "%q", name)
	}
}

// known is a Finder of the values it holds.
type known []string

func (k known) Spans(v string, spans [][2]int) [][2]int {
	for _, s := range k {
		for i := 0; ; {
			j := strings.Index(v[i:], s)
			if j < 0 {
				break
			}
			spans = append(spans, [2]int{i + j, i + j + len(s)})
			i += j + 1
		}
	}
	return spans
}

// logged returns the body of a request with body and the Content-Type ct
// as a request log shows it: redacted once, then again with the values
// the first pass hid by name (of 4 bytes or more) hidden wherever they
// appear, as chattest's log does.
func logged(body, ct string) string {
	rd := NewRedactor(nil)
	out := rd.Body(body, ct)
	var again known
	for _, f := range rd.Found() {
		if len(f.Value) >= 4 {
			again = append(again, WithEncodings([]string{f.Value})...)
		}
	}
	if len(again) == 0 {
		return out
	}
	return NewRedactor(again).Body(body, ct)
}

// The rules of the request log's redaction (see chattest.Request), each
// shown on the body a developer would see.
func TestRedactionRules(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	cases := []struct{ name, body, ct, want string }{
		// JSON, whatever its label.
		{"json as sent when nothing is hidden", `{ "b": 1, "a": "x" }`, "text/plain", `{ "b": 1, "a": "x" }`},
		{"json re-encoded, keys sorted", `{"b":1,"password":"pw","a":"x"}`, "", `{"a":"x","b":1,"password":"REDACTED"}`},
		{"json object under a secret name", `{"token":{"v":"t1","n":7,"ok":true}}`, "", `{"token":{"n":"REDACTED","ok":true,"v":"REDACTED"}}`},
		{"json duplicate keys", `{"password":"first-one","password":""}`, "", `{"password":""}`},
		{"json string holding a form", `{"q":"a=1&secret=s1"}`, "", `{"q":"a=1&secret=REDACTED"}`},
		{"json string holding json", `{"q":"{\"apiKey\":\"k1\"}"}`, "", `{"q":"{\"apiKey\":\"REDACTED\"}"}`},
		{"json string holding text", `{"text":"my password: hunter2"}`, "", `{"text":"my password: REDACTED"}`},
		{"json url password", `{"url":"https://u:pw@h.example/x"}`, "", `{"url":"https://u:REDACTED@h.example/x"}`},
		{"json escaped name", `{"p\u0061ssword":"pw","n":1}`, "", `{"n":1,"password":"REDACTED"}`},

		// Forms, whatever their label.
		{"form", "a=1&pass_word=p&empty_password=&x%5Btoken%5D=t&b", "", "a=1&pass_word=REDACTED&empty_password=&x%5Btoken%5D=REDACTED&b"},
		{"form value holding json", "a=" + "%7B%22secret%22%3A%22s%22%7D", "application/json", "a=%7B%22secret%22%3A%22REDACTED%22%7D"},

		// Text: quoted values, to their closing quote or the end.
		{"quoted", `x "password" : "a b" y`, "", `x "password" : "REDACTED" y`},
		{"quoted with an escaped quote", `{"password":"a\"b", "n":`, "", `{"password":"REDACTED", "n":`},
		{"quoted, cut short", `{"n":1,"password":"abc`, "", `{"n":1,"password":"REDACTED`},
		{"quoted in a JSON string", `{"s":"{\"token\":\"a\\\"b\"}", `, "", `{"s":"{\"token\":\"REDACTED\"}", `},
		{"single quoted", `'apiKey' => 'k1', 'n' => 1`, "", `'apiKey' => 'REDACTED', 'n' => 1`},
		{"object value", `{"secret": {"a": "}"}, "n": 1,`, "", `{"secret": REDACTED, "n": 1,`},
		{"number after a colon", `{"password": 1234, "n": 1,`, "", `{"password": REDACTED, "n": 1,`},
		{"literals left alone", `{"withAuthToken": true, "token": null,`, "", `{"withAuthToken": true, "token": null,`},
		{"other value after a colon: the line", "Authorization: Bearer abc def\nnext: 1", "", "Authorization: REDACTED\nnext: 1"},
		{"value after =: to & or the line", "user=bob password=a b;c&n=1\nx", "", "user=bob password=REDACTED&n=1\nx"},
		{"xml", "<user><name>bob</name><password>pw</password></user>", "application/xml", "<user><name>bob</name><password>REDACTED</password></user>"},
		{"yaml block", "password:\n  hunter2\nuser: bob", "", "password:\n  REDACTED\nuser: bob"},
		{"no separator: not a pair", "the password field", "", "the password field"},

		// URLs.
		{"url", "see https://u:p@ss@h.example/x?y", "", "see https://u:REDACTED@h.example/x?y"},
		{"url password with a slash", "see https://u:pa/ss@h.example/x", "", "see https://u:REDACTED@h.example/x"},
		{"url with a port and an email", "http://localhost:8080/cb?to=a@b.example", "", "http://localhost:8080/cb?to=a@b.example"},
		{"url user without password", "https://user@h.example/", "", "https://user@h.example/"},
		{"url escaped slashes", `https:\/\/u:pw@h.example\/x`, "", `https:\/\/u:REDACTED@h.example\/x`},

		// What cannot be shown safely.
		{"percent-escaped pair", "pass%77ord%3D%70%77", "", fmt.Sprintf(hiddenNote, 19)},
		{"percent-escaped name, value found decoded and hidden as sent", "pass%77ord%3Dhunter2 and more", "", "pass%77ord%3DREDACTED"},
		{"html-escaped pair", "&quot;password&quot;:&quot;pw&quot;", "", fmt.Sprintf(hiddenNote, 35)},
		{"binary", "\xff\x00password=pw", "", fmt.Sprintf(binaryNote, 13)},

		// Multipart.
		{"multipart", "--b\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n{\"token\":\"t\"}\r\n--b\r\n" +
			"Content-Disposition: form-data; name=\"secret\"\r\n\r\ns\r\n--b--\r\n", "multipart/form-data; boundary=b",
			"--b\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n{\"token\":\"REDACTED\"}\r\n--b\r\n" +
				"Content-Disposition: form-data; name=\"secret\"\r\n\r\nREDACTED\r\n--b--\r\n"},
		{"multipart binary part", "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n\xff\xd8\xff\r\n--b--", "",
			"--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n" + fmt.Sprintf(binaryNote, 3) + "\r\n--b--"},
		{"multipart base64 part hiding a pair", "--b\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(`{"password":"pw"}`)) + "\r\n--b--", "",
			"--b\r\nContent-Transfer-Encoding: base64\r\n\r\n" + fmt.Sprintf(hiddenNote, 24) + "\r\n--b--"},
		{"multipart base64 part with nothing to hide", "--b\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte("hello")) + "\r\n--b--", "",
			"--b\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte("hello")) + "\r\n--b--"},
		{"multipart-shaped text", "x\n--b@d\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\npw\r\n--b@d--", "text/plain",
			"x\n--b@d\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nREDACTED\r\n--b@d--"},
		{"multipart headers ended by a bare line feed", "--b\r\n\nname=\"note\"\r\n\r\n--b--", "", "--b\r\n\nname=\"note\"\r\n\r\n--b--"},
		{"multipart with bare line feeds", "--b\nContent-Disposition: form-data; name=\"token\"\n\nt\n--b--\n", "",
			"--b\nContent-Disposition: form-data; name=\"token\"\n\nREDACTED\n--b--\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, logged(c.body, c.ct))
		})
	}
}
