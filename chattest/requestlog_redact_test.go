package chattest_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// secretForms returns s as a log could show it: as sent, escaped for a
// query, a path and a JSON string, and base64-encoded.
func secretForms(s string) []string {
	j, _ := json.Marshal(s)
	b := []byte(s)
	return []string{s, url.QueryEscape(s), url.PathEscape(s), string(j[1 : len(j)-1]), escapeAll(s),
		base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
}

// assertHides asserts that text shows none of secrets, in any of their
// forms (secretForms).
func assertHides(t *testing.T, where, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		for _, f := range secretForms(s) {
			if !assert.NotContains(t, text, f, "%s shows the secret %q", where, s) {
				return
			}
		}
	}
}

// dashRequests returns the dashboard's request log page as a browser gets
// it, and its text with the HTML entities decoded.
func dashRequests(t *testing.T, srv *chattest.Server) string {
	t.Helper()
	page := getPage(t, srv, srv.HTTPClient(), "requests")
	return page + "\n" + html.UnescapeString(page)
}

// A request to redact: what is sent, the secrets it carries, and what of
// it the log must still show.
type redactCase struct {
	name         string
	method, path string
	header       map[string]string // besides the apikey
	body         string
	secrets      []string
	shown        []string // in the logged request, printed with %+v
}

// redactCases send credentials in every place and shape a client may put
// them: each is a case the request log showed before it redacted by
// content rather than by label.
func redactCases(appID string) []redactCase {
	const form = "application/x-www-form-urlencoded"
	return []redactCase{{
		name: "JSON labelled as a form", method: "POST", path: "/v3/groups",
		header:  map[string]string{"Content-Type": form}, // curl -d's default
		body:    `{"guid":"locked","name":"Locked","type":"password","password":"grp-pw-form-label"}`,
		secrets: []string{"grp-pw-form-label"}, shown: []string{`"guid":"locked"`, `"name":"Locked"`},
	}, {
		name: "JSON labelled as multipart", method: "POST", path: "/v3/groups",
		header:  map[string]string{"Content-Type": "multipart/form-data; boundary=xyz"},
		body:    `{"guid":"locked2","password":"grp-pw-multi-label"}`,
		secrets: []string{"grp-pw-multi-label"}, shown: []string{`"guid":"locked2"`},
	}, {
		name: "multipart part holding JSON", method: "POST", path: "/v3/anything",
		header: map[string]string{"Content-Type": "multipart/form-data; boundary=b0und"},
		body: "--b0und\r\nContent-Disposition: form-data; name=\"settings\"\r\nContent-Type: application/json\r\n\r\n" +
			`{"region":"eu","fcm":{"private_key":"-----BEGIN PRIVATE KEY-----pk-in-a-part"}}` + "\r\n--b0und--\r\n",
		secrets: []string{"-----BEGIN PRIVATE KEY-----pk-in-a-part", "pk-in-a-part"}, shown: []string{`name="settings"`, `"region":"eu"`},
	}, {
		name: "multipart with a boundary other than its label's", method: "POST", path: "/v3/anything",
		header: map[string]string{"Content-Type": "multipart/form-data; boundary=b0und"},
		body: "--other\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi there\r\n" +
			"--other\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nother-boundary-pw\r\n--other--\r\n",
		secrets: []string{"other-boundary-pw"}, shown: []string{"hi there", `name="password"`},
	}, {
		name: "multipart part whose headers do not parse", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "multipart/form-data; boundary=b0und"},
		body:    "--b0und\r\nnot a header\r\n\r\napiKey: part-api-key-123\r\n--b0und--\r\n",
		secrets: []string{"part-api-key-123"},
	}, {
		name: "form in text/plain", method: "POST", path: "/v3/anything?debug=1",
		header:  map[string]string{"Content-Type": "text/plain"},
		body:    "user=bob&password=plain-text-pw&authToken=plain-text-token",
		secrets: []string{"plain-text-pw", "plain-text-token"}, shown: []string{"user=bob", "debug"},
	}, {
		name: "form without a content type", method: "POST", path: "/v3/anything",
		body:    "user=bob&client_secret=no-type-secret&apiKey=no-type-key",
		secrets: []string{"no-type-secret", "no-type-key"}, shown: []string{"user=bob"},
	}, {
		name: "malformed JSON", method: "POST", path: "/v3/groups",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"guid":"broken","password":"malformed-pw", "authToken": "malformed-token",}`,
		secrets: []string{"malformed-pw", "malformed-token"}, shown: []string{`"guid":"broken"`},
	}, {
		name: "truncated JSON", method: "POST", path: "/v3/groups",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"guid":"cut","name":"Cut short","password":"truncated-pw-1234`,
		secrets: []string{"truncated-pw-1234"}, shown: []string{`"guid":"cut"`, `"name":"Cut short"`},
	}, {
		name: "truncated JSON with an escaped quote", method: "POST", path: "/v3/groups",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"guid":"cut2","password":"trunc\"ated-pw-5678`,
		secrets: []string{`trunc"ated-pw-5678`, "ated-pw-5678"}, shown: []string{`"guid":"cut2"`},
	}, {
		name: "JSON in a string in a form field", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": form},
		body:    "note=deep&payload=" + url.QueryEscape(`{"a":[{"b":{"c":"{\"secretKey\":\"nested-secret-key\"}"}}]}`),
		secrets: []string{"nested-secret-key"}, shown: []string{"note=deep"},
	}, {
		name: "deep JSON cut short", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    strings.Repeat(`{"next":`, 200) + `{"depth":200,"token":"deep-token-abcd","more":`,
		secrets: []string{"deep-token-abcd"}, shown: []string{`"depth":200`},
	}, {
		name: "deep JSON in a string", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"a":` + strings.Repeat(`[`, 100) + `"{\"b\":{\"c\":[{\"clientSecret\":\"deep-client-secret\"}]}}"` + strings.Repeat(`]`, 100) + `}`,
		secrets: []string{"deep-client-secret"}, shown: []string{`\"b\"`},
	}, {
		name: "webhook URL with a password", method: "POST", path: "/apps/" + appID + "/webhooks",
		body:    `{"id":"userinfo","name":"Userinfo","webhookURL":"https://hookuser:hook-url-pw@hooks.example.com/in"}`,
		secrets: []string{"hook-url-pw"}, shown: []string{"https://hookuser:REDACTED@hooks.example.com/in", `"id":"userinfo"`},
	}, {
		name: "provider URL with a password", method: "POST", path: "/v3/notifications/push/v1/providers/custom",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"isEnabled":true,"webhookURL":"https://pusher:provider-url-pw@push.example.com/send","useBasicAuth":false}`,
		secrets: []string{"provider-url-pw"}, shown: []string{"https://pusher:REDACTED@push.example.com/send"},
	}, {
		name: "URL with a password in malformed JSON", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "application/json"},
		body:    `{"url": "https:\/\/u:escaped-url-pw@example.com\/x", "more": `,
		secrets: []string{"escaped-url-pw"}, shown: []string{"example.com"},
	}, {
		name: "secrets in the query", method: "GET", path: "/v3/users?searchKey=alice&callback=" +
			url.QueryEscape("https://cb:query-url-pw@cb.example.com/") + "&q=" + url.QueryEscape("x password=query-text-pw"),
		secrets: []string{"query-url-pw", "query-text-pw"}, shown: []string{"alice", "cb.example.com"},
	}, {
		name: "secrets in headers", method: "GET", path: "/v3/users",
		header: map[string]string{"Authtoken": "hdr-auth-token", "Authorization": "Bearer hdr-bearer-token",
			"Key": "hdr-mgmt-key", "Secret": "hdr-mgmt-secret", "Referer": "https://ref:hdr-url-pw@app.example.com/page",
			"X-Debug": "password=hdr-text-pw"},
		secrets: []string{"hdr-auth-token", "hdr-bearer-token", "hdr-mgmt-key", "hdr-mgmt-secret", "hdr-url-pw", "hdr-text-pw"},
		shown:   []string{"app.example.com"},
	}, {
		name: "binary body", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "application/octet-stream"},
		body:    "\xff\xfe\x00password=binary-pw-123\x00",
		secrets: []string{"binary-pw-123"},
	}, {
		name: "escaped credential in text", method: "POST", path: "/v3/anything",
		header:  map[string]string{"Content-Type": "text/plain"},
		body:    "see https%3A%2F%2Fu%3Apercent-url-pw%40example.com and pass%77ord%3Dpercent-pw",
		secrets: []string{"percent-url-pw", "percent-pw"},
	}}
}

// The request log hides every credential whatever the content type, even
// in a body that does not parse, and still shows the rest: through the Go
// API and the dashboard as a browser gets it.
func TestRequestLogRedactsByContent(t *testing.T) {
	srv, _ := start(t)
	seed(srv, "alice")
	hc := srv.HTTPClient()
	for _, c := range redactCases(srv.AppID()) {
		t.Run(c.name, func(t *testing.T) {
			srv.ResetRequests()
			base := srv.URL()
			if strings.HasPrefix(c.path, "/apps/") {
				base = srv.ManagementURL()
			}
			req, err := http.NewRequestWithContext(t.Context(), c.method, base+c.path, strings.NewReader(c.body))
			require.NoError(t, err)
			if strings.HasPrefix(c.path, "/apps/") {
				req.Header.Set("key", srv.ManagementKey())
				req.Header.Set("secret", srv.ManagementSecret())
				req.Header.Set("Content-Type", "application/json")
			} else {
				req.Header.Set("apikey", srv.APIKey())
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := hc.Do(req)
			require.NoError(t, err)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()

			log := srv.Requests()
			require.Len(t, log, 1)
			r := log[0]
			js, err := json.Marshal(log)
			require.NoError(t, err)
			printed := fmt.Sprintf("%+v", r)
			page := dashRequests(t, srv)
			for where, text := range map[string]string{"%+v": printed, "%#v": fmt.Sprintf("%#v", r), "JSON": string(js), "the dashboard": page} {
				assertHides(t, where, text, c.secrets)
			}

			// What a developer needs is still there.
			path, _, _ := strings.Cut(c.path, "?")
			assert.Equal(t, c.method, r.Method)
			assert.Equal(t, path, r.Path)
			assert.Equal(t, resp.StatusCode, r.Status)
			assert.Contains(t, page, "<td>"+c.method+"</td>")
			assert.Contains(t, page, `<td class="status">`+fmt.Sprint(resp.StatusCode)+`</td>`)
			assert.Contains(t, page, ">"+path+"</code>")
			for _, s := range c.shown {
				assert.Contains(t, printed, s)
			}
		})
	}
}

// Where a webhook's URL has a password, the dashboard shows the user and
// hides the password.
func TestDashboardHidesURLPasswords(t *testing.T) {
	srv, _ := start(t)
	resp, body := fetchMgmt(t, srv, "POST", "/apps/"+srv.AppID()+"/webhooks",
		`{"id":"userinfo","name":"Userinfo","webhookURL":"https://hookuser:dash-url-pw@hooks.example.com/in"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	page := getPage(t, srv, srv.HTTPClient(), "webhooks")
	assertHides(t, "the webhooks page", page+html.UnescapeString(page), []string{"dash-url-pw"})
	assert.Contains(t, cells(row(t, page, "data-webhook", "userinfo")), "https://hookuser:REDACTED@hooks.example.com/in")
	assertHides(t, "the requests page", dashRequests(t, srv), []string{"dash-url-pw"})
}

// fetchMgmt sends a request with the management credentials.
func fetchMgmt(t *testing.T, srv *chattest.Server, method, path, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.ManagementURL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("key", srv.ManagementKey())
	req.Header.Set("secret", srv.ManagementSecret())
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// A message that quotes a credential shows on the dashboard without it,
// as in the request log.
func TestDashboardHidesCredentialsInMessages(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	_, err := client.Messages.Send(t.Context(), toUser("bob", "the key is "+srv.APIKey()+", and the wifi password: hunter22"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	for _, page := range []string{"messages", "conversations", "requests"} {
		p := getPage(t, srv, srv.HTTPClient(), page)
		assertHides(t, page, p+html.UnescapeString(p), []string{srv.APIKey(), "hunter22"})
		assert.Contains(t, html.UnescapeString(p), "the key is REDACTED, and the wifi password: REDACTED", page)
	}
}
