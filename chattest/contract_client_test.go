package chattest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sendClient sends a request to the client API (/v3.0) as the user whose
// auth token is token, and returns the status and the decoded answer.
func (f *fixture) sendClient(method, path string, body []byte, token string) (int, any, []byte) {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(f.t.Context(), method, f.srv.URL()+"/v3.0"+path, rd)
	require.NoError(f.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	uid, _, _ := strings.Cut(token, "_")
	req.Header.Set("appId", f.srv.AppID())
	req.Header.Set("authToken", token)
	req.Header.Set("resource", "device-"+uid)
	resp, err := f.hc.Do(req)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	var v any
	if len(raw) > 0 {
		require.NoError(f.t, json.Unmarshal(raw, &v), "%s %s answers JSON: %s", method, path, raw)
	}
	return resp.StatusCode, v, raw
}

// The client API's contract: the reference documents no answer of the
// client API (/v3.0, the official client SDKs' API), but the fake serves
// the server API's reads there as on /v3, with the token's user as the
// acting user (CLIENTAPI.md). Each such read, sent to the client API as
// its case seeds it, is compared with the reference's example of the
// server API's operation, as the server API's contract compares it, with
// the client API's documented differences (clientDifferences): the same
// keys at every level, the same JSON types, the reference's enumerations
// and paging defaults.

// clientTwins are the reads the client API serves as the server API does,
// by operationId, each with how its answer differs from the server API's
// (nil: it does not), and why.
var clientTwins = map[string]*contractExpectation{
	"list-users": nil, "get-user": nil, "list-groups": nil, "get-group": nil,
	"list-group-members": nil, "list-banned-group-users": nil,
	"get-message-details": nil, "user-list-user-messages": nil,
	"get-message-reactions": nil, "list-all-reactions": nil, "list-all-conversations": nil,
	"list-all-messages":        {reason: clientCursorReason, expect: withClientCursor},
	"user-list-group-messages": {reason: clientCursorReason, expect: withClientCursor},
	"list-all-thread-messages": {reason: clientCursorReason, expect: withClientCursor},
	"get-user-conversations":   {reason: clientConversationReason, expect: oneClientConversation},
	"get-group-conversations":  {reason: clientConversationReason, expect: oneClientConversation},

	// Writes, by the user the case acts as.
	"create-group": nil, "update-group": nil, "send-message": nil, "update-message": nil, "deletes-message": nil,
	"send-thread-message": nil, "mark-message-as-interacted": nil, "add-message-reactions": nil, "remove-message-reactions": nil,
	"resets-group-conversation": nil, "mark-group-conversation-as-delivered": nil, "mark-group-conversation-as-read": nil,
	"mark-group-conversation-as-unread": nil, "resets-user-conversation": nil, "mark-conversation-as-delivered": nil,
	"mark-conversation-as-read": nil, "mark-conversation-as-unread": nil,
	"updates-group-conversation": {reason: clientConversationReason, expect: oneClientConversation},
	"updates-user-conversation":  {reason: clientConversationReason, expect: oneClientConversation},
}

const (
	clientCursorReason       = "CLIENTAPI.md: a message list's meta.cursor repeats meta.next, and its meta.pagination counts the whole list, as the SDK reads it"
	clientConversationReason = "CLIENTAPI.md: a single conversation is an object, not an array of one"
)

// withClientCursor adds the client API's meta.cursor and meta.pagination
// to a documented message list.
func withClientCursor(doc any, _ json.RawMessage) any {
	meta := dig(doc, "meta").(map[string]any)
	meta["cursor"] = meta["next"]
	meta["pagination"] = dig(documentedAnswer("chat/list-users.json"), "meta.pagination")
	return doc
}

// oneClientConversation makes the documented conversation list its one
// conversation.
func oneClientConversation(doc any, _ json.RawMessage) any {
	dig(doc, "").(map[string]any)["data"] = dig(doc, "data.0")
	return doc
}

func TestContractClientAPI(t *testing.T) {
	ops := loadReference(t)
	compared := 0
	for _, op := range ops {
		diff, ok := clientTwins[op.name]
		if !ok {
			continue
		}
		compared++
		t.Run(op.name, func(t *testing.T) {
			f, path, h, reqs := prepareOperation(t, op, ops)
			token := f.clientToken(h.Get("onBehalfOf"))
			rq := reqs[0]
			if h.Get("Content-Type") != "" {
				t.Fatalf("%s: the client API's contract sends JSON bodies only", op.name)
			}
			status, got, raw := f.sendClient(op.Method, path, rq.body, token)
			wantStatus, want := op.response(t, rq.name)
			against := "the reference's example"
			if fix, ok := contractExpectations[op.name]; ok {
				want, against = fix.expect(want, rq.body), fix.against()
			}
			if diff != nil {
				want = diff.expect(want, rq.body)
				against += ", with the client API's difference (" + diff.reason + ")"
			}
			require.Equal(t, wantStatus, status, "%s", raw)
			if d := shapeDiff(want, got); len(d) > 0 {
				t.Errorf("%s %s: the client API's answer's shape differs from %s:\n%s\nanswer: %s", op.Method, path, against, strings.Join(d, "\n"), raw)
			}
			if d := answerValuesDiff(op, contractCases[op.name].query, got); len(d) > 0 {
				t.Errorf("%s %s: the client API's answer's values differ from those the reference fixes:\n%s\nanswer: %s", op.Method, path, strings.Join(d, "\n"), raw)
			}
		})
	}
	require.Equal(t, len(clientTwins), compared, "every twin names an operation of the reference")
}

// clientToken returns an auth token of uid, or where uid is empty of a
// user the fake holds (one of its own when it holds none).
func (f *fixture) clientToken(uid string) string {
	f.t.Helper()
	if uid == "" {
		_, users, _ := f.send("chat", "GET", "/users?perPage=1", nil, nil)
		if first, ok := dig(users, "data.0.uid").(string); ok {
			uid = first
		} else {
			uid = "client-viewer"
			f.users(uid)
		}
	}
	v := f.must("chat", "POST", "/users/"+uid+"/auth_tokens", "{}", "")
	return dig(v, "data.authToken").(string)
}
