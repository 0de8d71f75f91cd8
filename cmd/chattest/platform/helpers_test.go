package platform_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/internal/faketest"
)

// TestMain fails the package's tests when a goroutine is still running
// after they end: no test, client call or fake server may leave one behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// start returns a server with the websocket at faketest's time (unless
// opts set another clock) and a client of its fullAccess key; the server
// closes when the test ends.
func start(t *testing.T, opts ...chattest.Option) (*chattest.Server, *chat.Client) {
	t.Helper()
	return faketest.Start(t, append([]chattest.Option{platform.WithWebSocket()}, opts...)...)
}

// seed adds active users without going through the API.
func seed(srv *chattest.Server, uids ...string) { faketest.Seed(srv, uids...) }

// mint returns a new auth token of uid, as a backend mints it.
func mint(t testing.TB, client *chat.Client, uid string) string {
	t.Helper()
	tok, err := client.AuthTokens.Create(t.Context(), uid, &chat.CreateAuthTokenRequest{Force: true})
	require.NoError(t, err)
	return string(tok.AuthToken)
}

// as returns the headers of a client SDK logged in with token; its
// session id (resource) is "device-" and the token's user.
func as(srv *chattest.Server, token string) map[string]string {
	uid, _, _ := strings.Cut(token, "_")
	return map[string]string{"appId": srv.AppID(), "authToken": token, "resource": "device-" + uid}
}

// rawResponse is a response as the wire shows it.
type rawResponse struct {
	resp *http.Response
	body map[string]any
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

// toUser is a text message to the user uid.
func toUser(uid, s string) *chat.SendMessageRequest { return faketest.ToUser(uid, s) }

// requireAPIError asserts that err is the API error code with status, that
// errors.Is matches sentinel, and returns it.
func requireAPIError(t *testing.T, err error, status int, code string, sentinel error) *chat.Error {
	t.Helper()
	return faketest.RequireServiceError(t, err, status, code, sentinel)
}

// toGroup is a text message to the group guid.
func toGroup(guid, s string) *chat.SendMessageRequest {
	return &chat.SendMessageRequest{Receiver: guid, ReceiverType: chat.ReceiverGroup, Data: text(s)}
}

// text is a text message's data.
func text(s string) chat.MessageData { return chat.MessageData{Text: s} }

// mustID is a message id as a number.
func mustID(t *testing.T, id string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(id, 10, 64)
	require.NoError(t, err)
	return n
}
