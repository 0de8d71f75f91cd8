package chattest_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/internal/faketest"
)

// rawResponse is a response as the wire shows it.
type rawResponse struct {
	resp *http.Response
	body map[string]any
}

// errorBody returns the "error" object of an error answer.
func (r rawResponse) errorBody(t testing.TB) map[string]any {
	t.Helper()
	e, ok := r.body["error"].(map[string]any)
	require.True(t, ok, "an error body: %v", r.body)
	return e
}

// do sends a raw request; header holds extra headers ("apikey" is not added
// for you).
func do(t testing.TB, srv *chattest.Server, method, path, body string, header map[string]string) rawResponse {
	t.Helper()
	resp := faketest.SendRaw(t, srv, method, path, body, header)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out), "every answer is JSON")
	return rawResponse{resp, out}
}

func key(srv *chattest.Server, more ...string) map[string]string {
	h := map[string]string{"apikey": srv.APIKey()}
	for i := 0; i+1 < len(more); i += 2 {
		h[more[i]] = more[i+1]
	}
	return h
}

func TestRawErrors(t *testing.T) {
	srv, client := start(t)
	seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(t.Context(), toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)

	cases := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		code                     string
		detail                   string
	}{
		{"missing apikey", "GET", "/v3/users", "", nil, 401, "AUTH_ERR_EMPTY_APIKEY", ""},
		{"missing apikey on unknown route", "GET", "/v3/nothing", "", nil, 401, "AUTH_ERR_EMPTY_APIKEY", ""},
		{"unknown apikey", "GET", "/v3/users", "", map[string]string{"apikey": "nope"}, 401, "AUTH_ERR_APIKEY_NOT_FOUND", ""},
		{"unknown route", "GET", "/v3/nothing", "", key(srv), 404, "ERR_API_NOT_FOUND", ""},
		{"outside /v3", "GET", "/users", "", key(srv), 404, "ERR_API_NOT_FOUND", ""},
		{"wrong method", "PATCH", "/v3/users", "{}", key(srv), 404, "ERR_API_NOT_FOUND", ""},
		{"unclean path", "GET", "/v3//users", "", key(srv), 404, "ERR_API_NOT_FOUND", ""},
		{"trailing slash", "GET", "/v3/users/", "", key(srv), 404, "ERR_API_NOT_FOUND", ""},
		{"thread reply without onBehalfOf", "POST", "/v3/messages/" + parent.ID + "/thread",
			`{"receiver":"alice","receiverType":"user","data":{"text":"x"}}`, key(srv), 400, "ERR_BAD_REQUEST", "onBehalfOf"},
		{"message without receiver", "POST", "/v3/messages", `{"receiverType":"user","data":{"text":"x"}}`, key(srv, "onBehalfOf", "alice"),
			400, "ERR_EMPTY_RECEIVER", "receiver"},
		{"message with a bad receiver type", "POST", "/v3/messages", `{"receiver":"bob","receiverType":"room","data":{"text":"x"}}`,
			key(srv, "onBehalfOf", "alice"), 400, "ERR_INVALID_RECEIVER_TYPE", "receiverType"},
		{"message without receiver type", "POST", "/v3/messages", `{"receiver":"bob","data":{"text":"x"}}`, key(srv, "onBehalfOf", "alice"),
			400, "ERR_INVALID_RECEIVER_TYPE", "receiverType"},
		{"get unknown message", "GET", "/v3/messages/42", "", key(srv), 404, "ERR_MSG_NOT_FOUND", ""},
		{"get message as unknown user", "GET", "/v3/messages/" + parent.ID, "", key(srv, "onBehalfOf", "ghost"), 404, "ERR_UID_NOT_FOUND", ""},
		{"escaped path value", "GET", "/v3/users/a%2Fb", "", key(srv), 404, "ERR_UID_NOT_FOUND", ""},
		{"body not JSON", "POST", "/v3/users", `{"uid":`, key(srv), 400, "ERR_BAD_REQUEST", "body"},
		{"body not an object", "POST", "/v3/users", `[1]`, key(srv), 400, "ERR_BAD_REQUEST", "body"},
		{"field of the wrong type", "POST", "/v3/users", `{"uid": 7, "name": "x"}`, key(srv), 400, "ERR_BAD_REQUEST", "uid"},
		{"user without uid and name", "POST", "/v3/users", `{}`, key(srv), 400, "ERR_BAD_REQUEST", "name"},
		{"deactivate nobody", "DELETE", "/v3/users", `{"uidsToDeactivate": []}`, key(srv), 400, "ERR_BAD_REQUEST", "uidsToDeactivate"},
		{"bad boolean", "GET", "/v3/users?withTags=yes", "", key(srv), 400, "ERR_BAD_REQUEST", "withTags"},
		{"body too large", "POST", "/v3/users", `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, key(srv), 400, "ERR_BAD_REQUEST", "body"},
		{"bad unset", "PUT", "/v3/users/alice", `{"unset":["name"]}`, key(srv), 400, "ERR_BAD_REQUEST", "unset"},
		// Limits the SDK checks before sending; the fake checks them too.
		{"bad uid characters", "POST", "/v3/users", `{"uid":"a b!","name":"X"}`, key(srv), 400, "ERR_BAD_REQUEST", "uid"},
		{"uid too long", "POST", "/v3/users", `{"uid":"` + strings.Repeat("u", 101) + `","name":"X"}`, key(srv), 400, "ERR_BAD_REQUEST", "uid"},
		{"too many user tags", "POST", "/v3/users", `{"uid":"x","name":"X","tags":[` + strings.Repeat(`"t",`, 25) + `"t"]}`, key(srv), 400, "ERR_BAD_REQUEST", "tags"},
		{"message too large", "POST", "/v3/messages", `{"receiver":"bob","receiverType":"user","data":{"text":"` + strings.Repeat("x", 65_537) + `"}}`,
			key(srv, "onBehalfOf", "alice"), 400, "ERR_BAD_REQUEST", "message"},
		{"too many tags on an edit", "PUT", "/v3/messages/" + parent.ID, `{"tags":[` + strings.Repeat(`"t",`, 25) + `"t"]}`, key(srv), 400, "ERR_BAD_REQUEST", "tags"},
		{"too many conversation tags", "PUT", "/v3/users/alice/conversation", `{"tags":[` + strings.Repeat(`"t",`, 25) + `"t"]}`,
			key(srv, "onBehalfOf", "bob"), 400, "ERR_BAD_REQUEST", "tags"},
		{"bad role id", "POST", "/v3/roles", `{"role":"bad role!","name":"x"}`, key(srv), 400, "ERR_BAD_REQUEST", "role"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, srv, tc.method, tc.path, tc.body, tc.header)
			assert.Equal(t, tc.status, r.resp.StatusCode)
			e := r.errorBody(t)
			assert.Equal(t, tc.code, e["code"])
			assert.Equal(t, "chat-api", e["source"])
			assert.NotEmpty(t, e["message"])
			assert.NotEmpty(t, e["devMessage"])
			if tc.detail != "" {
				details, ok := e["details"].(map[string]any)
				require.True(t, ok, "details: %v", e)
				assert.NotEmpty(t, details[tc.detail], "details: %v", details)
			} else {
				assert.NotContains(t, e, "details")
			}
			assert.Equal(t, "application/json", r.resp.Header.Get("Content-Type"))
		})
	}

	t.Run("path values are unescaped", func(t *testing.T) {
		r := do(t, srv, "GET", "/v3/users/a%2Fb", "", key(srv))
		assert.Contains(t, r.errorBody(t)["message"], "a/b")
	})
	t.Run("onBehalfOf names the missing header", func(t *testing.T) {
		r := do(t, srv, "POST", "/v3/messages/"+parent.ID+"/thread", `{"receiver":"alice","receiverType":"user"}`, key(srv))
		details := r.errorBody(t)["details"].(map[string]any)
		assert.Equal(t, []any{"The onBehalfOf header is required."}, details["onBehalfOf"])
	})
	t.Run("error text never shows the key", func(t *testing.T) {
		r := do(t, srv, "GET", "/v3/users", "", map[string]string{"apikey": "0123456789abcdef-unknown"})
		raw, err := json.Marshal(r.body)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), "0123456789abcdef-unknown")
	})
}

func TestRawSuccess(t *testing.T) {
	clk := faketest.NewClock(t0)
	srv, client := start(t, chattest.WithClock(clk.Now))
	seed(srv, "alice", "bob")
	parent, err := client.Messages.Send(t.Context(), toUser("bob", "hi"), chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.SendThread(t.Context(), parent.ID, "bob", toUser("alice", "yo"))
	require.NoError(t, err)

	r := do(t, srv, "GET", "/v3/messages/1", "", key(srv, "onBehalfOf", "bob"))
	assert.Equal(t, 200, r.resp.StatusCode)
	assert.Equal(t, 2, r.resp.ProtoMajor, "HTTP/2")
	assert.Equal(t, "application/json", r.resp.Header.Get("Content-Type"))
	msg := r.body["data"].(map[string]any)
	assert.Equal(t, "1", msg["id"], "ids are strings")
	assert.Equal(t, float64(1), msg["replyCount"])
	assert.Equal(t, "2", msg["lastReply"].(map[string]any)["id"])
	assert.Equal(t, "1", msg["lastReply"].(map[string]any)["parentId"])
	entities := msg["data"].(map[string]any)["entities"].(map[string]any)
	assert.Equal(t, "user", entities["sender"].(map[string]any)["entityType"])
	assert.Equal(t, "alice", entities["sender"].(map[string]any)["entity"].(map[string]any)["uid"])

	r = do(t, srv, "GET", "/v3/users?perPage=1&withTags=true", "", key(srv))
	assert.Equal(t, map[string]any{"pagination": map[string]any{
		"total": float64(2), "count": float64(1), "per_page": float64(1), "current_page": float64(1), "total_pages": float64(2),
	}}, r.body["meta"])

	r = do(t, srv, "GET", "/v3/messages/1/thread?limit=1", "", key(srv))
	assert.Equal(t, map[string]any{
		"current": map[string]any{"limit": float64(1), "count": float64(1)},
		"next":    map[string]any{"affix": "append", "id": "2", "sentAt": float64(t0.Unix())},
	}, r.body["meta"])

	// The service's answers (testdata/service), not the reference's.
	r = do(t, srv, "DELETE", "/v3/users", `{"uidsToDeactivate":["bob"]}`, key(srv))
	assert.Equal(t, map[string]any{"deactivatedUids": []any{"bob"}}, r.body["data"])
	r = do(t, srv, "DELETE", "/v3/users", `{"uidsToDeactivate":["bob","Ghost-1"]}`, key(srv))
	assert.Equal(t, map[string]any{"alreadyDeactivatedUids": []any{"bob"}, "notFound": []any{"Ghost-1"}}, r.body["data"])
	r = do(t, srv, "PUT", "/v3/users", `{"uidsToActivate":["bob"]}`, key(srv))
	assert.Equal(t, map[string]any{"reactivatedUids": []any{"bob"}}, r.body["data"])
	r = do(t, srv, "PUT", "/v3/users", `{"uidsToActivate":["Ghost-1","ghost-2"]}`, key(srv))
	assert.Equal(t, map[string]any{"notFound": []any{"Ghost-1", "ghost-2"}}, r.body["data"])
	r = do(t, srv, "DELETE", "/v3/users/bob", `{"permanent": false}`, key(srv))
	assert.Equal(t, map[string]any{"deactivatedUids": []any{"bob"}}, r.body["data"])
	r = do(t, srv, "POST", "/v3/users", `{"uid":"bob","name":"Bob"}`, key(srv))
	assert.Equal(t, http.StatusBadRequest, r.resp.StatusCode)
	assert.Equal(t, "ERR_UID_ALREADY_EXISTS", r.body["error"].(map[string]any)["code"])
	r = do(t, srv, "DELETE", "/v3/users/bob", `{"permanent": true}`, key(srv))
	assert.Equal(t, map[string]any{"success": true, "message": "User bob has been deleted successfully."}, r.body["data"])

	t.Run("rate limit headers", func(t *testing.T) {
		clk.Set(t0.Add(time.Hour))
		remaining := func() string {
			return do(t, srv, "GET", "/v3/apikeys", "", key(srv)).resp.Header.Get("X-Rate-Limit-Remaining")
		}
		r := do(t, srv, "GET", "/v3/apikeys", "", nil)
		assert.Equal(t, "20000", r.resp.Header.Get("X-Rate-Limit"), "on errors too")
		assert.Equal(t, "19999", r.resp.Header.Get("X-Rate-Limit-Remaining"), "a new minute starts afresh")
		assert.Equal(t, "19998", remaining())
		assert.Equal(t, "19997", remaining())
		clk.Set(t0.Add(time.Hour + time.Minute))
		assert.Equal(t, "19999", remaining())
	})
}

func TestCertificate(t *testing.T) {
	srv, _ := start(t)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer hc.CloseIdleConnections()
	client, err := chat.NewClient(srv.AppID(), srv.APIKey(), chat.WithBaseURL(srv.URL()), chat.WithHTTPClient(hc))
	require.NoError(t, err)
	page, err := client.APIKeys.List(t.Context(), nil)
	require.NoError(t, err)
	assert.Len(t, page.Data, 1)

	_, err = srv.Client(chat.WithHTTPClient(&http.Client{}), chat.WithoutRetries()).APIKeys.List(t.Context(), nil)
	var ua x509.UnknownAuthorityError
	require.ErrorAs(t, err, &ua, "a client that does not trust the certificate cannot connect")
}

func TestHandlerWithoutTLS(t *testing.T) {
	srv, _ := start(t)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/v3/apikeys", nil)
	req.Header.Set("apikey", srv.APIKey())
	srv.Handler().ServeHTTP(rec, req)
	assert.Equal(t, 200, rec.Code)
	var body chat.Page[chat.APIKey]
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	require.Len(t, body.Data, 1)
	assert.Equal(t, chat.ScopeFullAccess, body.Data[0].Scope)
}

// A request handed to the Handler directly may carry a body with its
// ContentLength left at 0 (unknown, as http.NewRequest leaves it for a
// reader of its own): the body is read all the same.
func TestHandlerReadsBodyOfUnknownLength(t *testing.T) {
	srv, _ := start(t)
	body := struct{ io.Reader }{strings.NewReader(`{"uid":"dora","name":"Dora"}`)}
	req := httptest.NewRequest("POST", "/v3/users", body)
	req.ContentLength = 0
	req.Header.Set("apikey", srv.APIKey())
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	require.Equal(t, 200, rec.Code, rec.Body.String())
	u, err := srv.Client().Users.Get(t.Context(), "dora")
	require.NoError(t, err)
	assert.Equal(t, "Dora", u.Name)
}
