package requestlog

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// plantNames are names that say a value is a credential.
var plantNames = []string{"password", "secret", "token", "apiKey", "key", "authToken", "privateKey", "client_secret",
	"X-Api-Key", "basicAuthPassword", "p8Key", "pass", "auth", "sendGridApiKey", "jwt", "user[password]", "Authorization",
	"PASSWORD", "private_key", "twilioAuthToken", "fcm.private-key"}

// plantTypes are Content-Types, right and wrong.
var plantTypes = []string{"", "application/json", "application/x-www-form-urlencoded", "text/plain; charset=utf-8",
	"multipart/form-data; boundary=B0und", "multipart/form-data", "application/octet-stream", "garbage;;=", "image/png"}

// plantSeps are what stands between a planted credential and the text
// around it.
var plantSeps = []string{"\n", "&", " ", "\t", ";", ",", "\r\n"}

// plant returns a text holding secret as the template tmpl writes it under
// name, and where it goes: "body", "query" or "header".
func plant(tmpl int, name, secret string) (text, where string) {
	templates := []struct{ text, where string }{
		{`"NAME":"SECRET"`, "body"},
		{`NAME=SECRET`, "body"},
		{`"NAME": SECRET`, "body"},
		{`NAME: SECRET`, "body"},
		{`https://user:SECRET@host.example/x`, "body"},
		{`\"NAME\":\"SECRET\"`, "body"},
		{`'NAME' => 'SECRET'`, "body"},
		{`{"NAME":{"inner":["SECRET"]}}`, "body"},
		{"\r\n--B0und\r\nContent-Disposition: form-data; name=\"NAME\"\r\n\r\nSECRET\r\n--B0und--\r\n", "body"},
		{`https:\/\/user:SECRET@host.example\/x`, "body"},
		{`NAME%3DSECRET`, "body"},
		{`https%3A%2F%2Fuser%3ASECRET%40host.example`, "body"},
		{`{"note":"NAME=SECRET"}`, "body"},
		{`NAME=SECRET`, "query"},
		{`cb=` + url.QueryEscape("https://u:SECRET@host.example/"), "query"},
		{`NAME=SECRET`, "header"},
		{`https://u:SECRET@host.example/`, "header"},
	}
	t := templates[tmpl%len(templates)]
	return strings.NewReplacer("NAME", name, "SECRET", secret).Replace(t.text), t.where
}

// FuzzRequestLogRedaction plants a credential in a random body, query or
// header, under a name that says it is one or in a URL's user info, with
// a random Content-Type, and asserts that the log entry does not show it
// in any form.
func FuzzRequestLogRedaction(f *testing.F) {
	for tmpl := range 17 {
		f.Add("", "", "hunter2", uint8(tmpl), uint8(tmpl), uint8(tmpl), uint8(0))
	}
	f.Add(`{"a":`, `}`, "x", uint8(7), uint8(1), uint8(1), uint8(0))
	f.Add(`{"a":"`, `"}`, "x", uint8(1), uint8(4), uint8(1), uint8(2))
	f.Add("a=1", "b=2", "x", uint8(1), uint8(0), uint8(2), uint8(1))
	f.Add("--x\r\nContent-Type: a", "\r\n\r\nrest", "x", uint8(3), uint8(0), uint8(0), uint8(6))
	f.Add("preamble", "", "x", uint8(8), uint8(11), uint8(0), uint8(0))
	f.Add("\xff\xfe", "\x00", "x", uint8(0), uint8(0), uint8(6), uint8(0))
	f.Fuzz(func(t *testing.T, prefix, suffix, seed string, tmpl, name, ct, sep uint8) {
		var b strings.Builder
		for _, c := range []byte(seed) {
			if isAlnum(c) && b.Len() < 32 {
				b.WriteByte(c)
			}
		}
		secret := "S3cr" + b.String() + "t9Qz"
		planted, where := plant(int(tmpl), plantNames[int(name)%len(plantNames)], secret)
		s := plantSeps[int(sep)%len(plantSeps)]
		body := prefix[:min(len(prefix), 512)] + s + suffix[:min(len(suffix), 512)]
		target := "/v3/anything"
		switch where {
		case "body":
			body = prefix[:min(len(prefix), 512)] + s + planted + s + suffix[:min(len(suffix), 512)]
		case "query":
			target += "?a=" + url.QueryEscape(prefix[:min(len(prefix), 64)]) + "&" + planted
		}
		r := httptest.NewRequest("POST", target, strings.NewReader(body))
		r.Header.Set("Content-Type", plantTypes[int(ct)%len(plantTypes)])
		if where == "header" {
			r.Header.Set("X-Debug", planted)
		}
		e := New().Arrive("", r, []byte(body)).(*exchange).entry
		js, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		shown := string(js) + "\n" + fmt.Sprintf("%+v", *e)
		for _, f := range forms(secret) {
			if strings.Contains(shown, f) {
				t.Fatalf("the log shows %q (as %q):\nbody %q\nquery %q\nlogged %s", secret, f, body, r.URL.RawQuery, js)
			}
		}
		if e.Method != "POST" || e.Path != "/v3/anything" {
			t.Fatalf("the log lost the method or path: %s %s", e.Method, e.Path)
		}
	})
}
