package chat_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
	"github.com/chatrest/chat/internal/wiretest"
	"github.com/chatrest/chat/management"
)

// recordingTransport keeps every request it is asked to send and answers
// 200 with reply, or an empty data object when reply is empty.
type recordingTransport struct {
	reply string
	mu    sync.Mutex
	reqs  []*http.Request
}

func (rt *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	rt.mu.Lock()
	rt.reqs = append(rt.reqs, req)
	rt.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(strings.NewReader(cmp.Or(rt.reply, `{"data":{"ok":true}}`))),
		Request:    req,
	}, nil
}

func (rt *recordingTransport) requests() []*http.Request {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]*http.Request(nil), rt.reqs...)
}

// badSegment reports whether an id cannot be a path segment.
func badSegment(s string) bool { return s == "" || s == "." || s == ".." }

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// pathSeeds are hostile and ordinary path parameters: separators, dot
// segments, escapes, control characters, emoji (reactions), tokens and
// keys as the reference shows them, and ids of every kind.
var pathSeeds = []string{
	"", ".", "..", "...", "a/b", "../../admin", "..%2F..%2Fadmin", "?x=1", "#frag", "%2F", "a%2Fb", "%", "%zz",
	"\x00", "\r\nHost: evil", "\t", "\x7f", "😀", "👍", "🏳️‍🌈", "❤️", ":reaction", "user name", " ", "@evil.com",
	"http://evil", "//evil.com/x", `\..\`, "a;b,c", "a&b=c", "a+b", "\xff\xfe", "\u2028", "%00", "./.", "a/../..",
	strings.Repeat("a", 5000), strings.Repeat("../", 300),
	"cometchat-uid-1", "cometchat-guid-1", "project-group", "42", "v1.us.x.y", "orders-hook", "widget", "stickers",
	"cometchat-uid-1_1630306819c3027ce530b2367f3c97b4106f0cb8", // an auth token (chat reference §2.5)
	"f1915e328e249ffaaafd97fb46a57ba55d233fbf",                 // an API key (chat reference §2.6)
	"fcm:APA91bH-token_value/with+chars=",                      // a push token
}

// FuzzPathEscaping sends hostile path parameters through every kind of
// method that puts one in a path — message ids, uids, guids, role ids,
// reaction emoji, auth tokens, API keys, push tokens, call session ids,
// and the management API's app, webhook and extension ids. Each must stay
// exactly one segment of a request to the API's own host, with no query or
// fragment added, or be refused before anything is sent, naming the
// argument.
func FuzzPathEscaping(f *testing.F) {
	for _, s := range pathSeeds {
		f.Add(s, "cometchat-uid-2")
		f.Add("42", s)
	}

	const (
		callsHost = wiretest.AppID + ".call-us.cometchat.io"
		mgmtHost  = "apimgmt.cometchat.io"
	)
	type clients struct {
		chat *chat.Client
		mgmt *management.Client
	}
	type target struct {
		name string
		call func(c clients, a, b string) error
		// host and prefix are where the request must go; the zero
		// values mean the chat API's host and "/v3".
		host, prefix string
		// segments is the expected path after the prefix.
		segments func(a, b string) []string
		// check returns the argument that must be named in the error, or
		// "" when the call must be sent.
		check func(a, b string) string
		// header is the onBehalfOf header expected, or nil for none.
		header func(a, b string) string
		// query is the query expected, or nil for none.
		query func(a, b string) url.Values
		// reply is the answer's body, when an empty data object will not do.
		reply string
	}
	// ids names the path arguments in the order they are checked.
	ids := func(names ...string) func(a, b string) string {
		return func(a, b string) string {
			for i, v := range []string{a, b}[:len(names)] {
				if badSegment(v) {
					return names[i]
				}
			}
			return ""
		}
	}
	ctx := context.Background()
	targets := []target{
		{
			name: "Messages.SendThread",
			call: func(c clients, a, b string) error {
				_, err := c.chat.Messages.SendThread(ctx, a, b, &chat.SendMessageRequest{Receiver: "r", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "hi"}},
					chat.OnBehalfOf("ignored-option"))
				return err
			},
			segments: func(a, _ string) []string { return []string{"messages", a, "thread"} },
			check: func(a, b string) string {
				switch {
				case badSegment(a):
					return "parentID"
				case badSegment(b), hasControl(b):
					return "onBehalfOf"
				}
				return ""
			},
			header: func(_, b string) string { return b },
		},
		{
			name:     "Messages.Get (message id)",
			call:     func(c clients, a, _ string) error { _, err := c.chat.Messages.Get(ctx, a); return err },
			segments: func(a, _ string) []string { return []string{"messages", a} },
			check:    ids("id"),
		},
		{
			name: "Messages.AddReaction (reaction emoji)",
			call: func(c clients, a, b string) error {
				_, err := c.chat.Messages.AddReaction(ctx, a, b, "cometchat-uid-1")
				return err
			},
			segments: func(a, b string) []string { return []string{"messages", a, "reactions", b} },
			check:    ids("id", "reaction"),
			header:   func(_, _ string) string { return "cometchat-uid-1" },
		},
		{
			name:     "Users.Get (uid)",
			call:     func(c clients, a, _ string) error { _, err := c.chat.Users.Get(ctx, a); return err },
			segments: func(a, _ string) []string { return []string{"users", a} },
			check:    ids("uid"),
		},
		{
			name:     "Members.Kick (guid, uid)",
			call:     func(c clients, a, b string) error { _, err := c.chat.Members.Kick(ctx, a, b); return err },
			segments: func(a, b string) []string { return []string{"groups", a, "members", b} },
			check:    ids("guid", "uid"),
		},
		{
			name: "Users.List (query values)",
			call: func(c clients, a, b string) error {
				_, err := c.chat.Users.List(ctx, &chat.ListUsersOptions{SearchKey: a, Role: b})
				return err
			},
			segments: func(_, _ string) []string { return []string{"users"} },
			check:    func(_, _ string) string { return "" },
			reply:    `{"data":[]}`,
			query: func(a, b string) url.Values {
				q := url.Values{}
				if a != "" {
					q.Set("searchKey", a)
				}
				if b != "" {
					q.Set("role", b)
				}
				return q
			},
		},
		{
			name:     "Roles.Get (role id)",
			call:     func(c clients, a, _ string) error { _, err := c.chat.Roles.Get(ctx, a); return err },
			segments: func(a, _ string) []string { return []string{"roles", a} },
			check:    ids("role"),
		},
		{
			name:     "AuthTokens.Get (auth token)",
			call:     func(c clients, a, b string) error { _, err := c.chat.AuthTokens.Get(ctx, a, b); return err },
			segments: func(a, b string) []string { return []string{"users", a, "auth_tokens", b} },
			check:    ids("uid", "authToken"),
		},
		{
			name:     "APIKeys.Delete (API key)",
			call:     func(c clients, a, _ string) error { _, err := c.chat.APIKeys.Delete(ctx, a); return err },
			segments: func(a, _ string) []string { return []string{"apikeys", a} },
			check:    ids("apiKey"),
		},
		{
			name: "Notifications.DeletePushToken (push token)",
			call: func(c clients, a, _ string) error {
				_, err := c.chat.Notifications.DeletePushToken(ctx, a, &chat.DeletePushTokenRequest{AuthToken: "cometchat-uid-1_token"})
				return err
			},
			segments: func(a, _ string) []string { return []string{"notifications", "push", "v1", "tokens", a} },
			check:    ids("pushToken"),
		},
		{
			name:     "Calls.Get (session id)",
			call:     func(c clients, a, _ string) error { _, err := c.chat.Calls.Get(ctx, a); return err },
			host:     callsHost,
			segments: func(a, _ string) []string { return []string{"calls", a} },
			check:    ids("sessionID"),
		},
		{
			name:     "management Webhooks.Get (appId, webhookId)",
			call:     func(c clients, a, b string) error { _, err := c.mgmt.Webhooks.Get(ctx, a, b); return err },
			host:     mgmtHost,
			prefix:   "/",
			segments: func(a, b string) []string { return []string{"apps", a, "webhooks", b} },
			check:    ids("appID", "webhookID"),
		},
		{
			name: "management Extensions.GetSettings (appId, extId)",
			call: func(c clients, a, b string) error {
				_, err := c.mgmt.Extensions.GetSettings(ctx, a, management.ExtensionID(b))
				return err
			},
			host:     mgmtHost,
			prefix:   "/",
			segments: func(a, b string) []string { return []string{"apps", a, "extensions", b, "v1", "settings"} },
			check:    ids("appID", "extID"),
		},
	}

	f.Fuzz(func(t *testing.T, a, b string) {
		for _, tg := range targets {
			rt := &recordingTransport{reply: tg.reply}
			hc := &http.Client{Transport: rt}
			cc, err := chat.NewClient(wiretest.AppID, wiretest.APIKey, chat.WithHTTPClient(hc), chat.WithoutRetries())
			if err != nil {
				t.Fatal(err)
			}
			mc, err := management.NewClient("mgmt-key", "mgmt-secret", chat.WithHTTPClient(hc), chat.WithoutRetries())
			if err != nil {
				t.Fatal(err)
			}
			err = tg.call(clients{cc, mc}, a, b)
			reqs := rt.requests()

			if want := tg.check(a, b); want != "" {
				var ae *chat.ArgumentError
				if !errors.As(err, &ae) || ae.Name != want {
					t.Fatalf("%s(%q, %q): want an ArgumentError naming %s, got %v", tg.name, a, b, want, err)
				}
				if len(reqs) != 0 {
					t.Fatalf("%s(%q, %q): %d requests sent despite the argument error", tg.name, a, b, len(reqs))
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s(%q, %q): %v", tg.name, a, b, err)
			}
			if len(reqs) != 1 {
				t.Fatalf("%s(%q, %q): %d requests sent, want 1", tg.name, a, b, len(reqs))
			}
			host, prefix := cmp.Or(tg.host, wiretest.Host), cmp.Or(tg.prefix, "/v3/")
			u := reqs[0].URL
			if u.Scheme != "https" || u.Host != host || u.User != nil || u.Opaque != "" {
				t.Fatalf("%s(%q, %q): sent to %s://%v@%s (opaque %q)", tg.name, a, b, u.Scheme, u.User, u.Host, u.Opaque)
			}
			if u.Fragment != "" || u.RawFragment != "" {
				t.Fatalf("%s(%q, %q): fragment %q added", tg.name, a, b, u.Fragment)
			}
			if tg.query == nil {
				if u.RawQuery != "" || u.ForceQuery {
					t.Fatalf("%s(%q, %q): query %q added", tg.name, a, b, u.RawQuery)
				}
			} else if q, err := url.ParseQuery(u.RawQuery); err != nil || !reflect.DeepEqual(q, tg.query(a, b)) {
				t.Fatalf("%s(%q, %q): query %q decodes to %v (%v), want %v", tg.name, a, b, u.RawQuery, q, err, tg.query(a, b))
			}
			escaped := u.EscapedPath()
			if !strings.HasPrefix(escaped, prefix) {
				t.Fatalf("%s(%q, %q): path %q", tg.name, a, b, escaped)
			}
			want := tg.segments(a, b)
			got := strings.Split(strings.TrimPrefix(escaped, prefix), "/")
			if len(got) != len(want) {
				t.Fatalf("%s(%q, %q): path %q has %d segments after %s, want %d", tg.name, a, b, escaped, len(got), prefix, len(want))
			}
			for i := range want {
				seg, err := url.PathUnescape(got[i])
				if err != nil || seg != want[i] {
					t.Fatalf("%s(%q, %q): segment %d of %q is %q (%v), want %q", tg.name, a, b, i, escaped, seg, err, want[i])
				}
			}
			h := reqs[0].Header.Values("onBehalfOf")
			switch {
			case tg.header == nil && len(h) != 0:
				t.Fatalf("%s(%q, %q): onBehalfOf header %q sent", tg.name, a, b, h)
			case tg.header != nil && (len(h) != 1 || h[0] != tg.header(a, b)):
				t.Fatalf("%s(%q, %q): onBehalfOf header %q", tg.name, a, b, h)
			}
			if host == mgmtHost {
				if reqs[0].Header.Get("key") != "mgmt-key" || reqs[0].Header.Get("apikey") != "" {
					t.Fatalf("%s(%q, %q): credential headers %v", tg.name, a, b, reqs[0].Header)
				}
			} else if got := reqs[0].Header.Get("apikey"); got != wiretest.APIKey {
				t.Fatalf("%s(%q, %q): apikey header %q", tg.name, a, b, got)
			}
		}
	})
}

// roundTrip checks that v, decoded from data, encodes to JSON that decodes
// and encodes again without change. The first encoding may normalise (a
// null timestamp disappears, and so does an empty metadata map, though the
// then empty "data" object stays once: MessageData is omitzero while its
// maps are omitempty); after it, decoding and encoding is a fixed point.
func roundTrip[T any](t *testing.T, v *T) {
	t.Helper()
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal of a decoded value: %v", err)
	}
	var v2 T
	if err := json.Unmarshal(b1, &v2); err != nil {
		t.Fatalf("Unmarshal of %s: %v", b1, err)
	}
	b2, err := json.Marshal(&v2)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	var v3 T
	if err := json.Unmarshal(b2, &v3); err != nil {
		t.Fatalf("Unmarshal of %s: %v", b2, err)
	}
	b3, err := json.Marshal(&v3)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if !bytes.Equal(b2, b3) || !reflect.DeepEqual(withoutUnencoded(v2), withoutUnencoded(v3)) {
		t.Fatalf("not stable:\n%s\n%s\n%s", b1, b2, b3)
	}
	if !bytes.Equal(withoutEmptyData(b1), withoutEmptyData(b2)) {
		// Beyond the empty data object, the first encoding is already final.
		t.Fatalf("first encoding not final:\n%s\n%s", b1, b2)
	}
}

// withoutEmptyData removes empty "data" objects, however nested: an
// emptied one may leave its parent empty.
func withoutEmptyData(b []byte) []byte {
	for {
		before := len(b)
		for _, s := range []string{`,"data":{}`, `"data":{},`, `"data":{}`} {
			b = bytes.ReplaceAll(b, []byte(s), nil)
		}
		if len(b) == before {
			return b
		}
	}
}

// withoutUnencoded returns v with its fields tagged json:"-" zeroed: the
// Raw copies some models keep of the bytes they were decoded from, which
// differ from one encoding to the next by design.
func withoutUnencoded[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	if rv.Kind() != reflect.Struct {
		return v
	}
	for i := range rv.NumField() {
		if rv.Type().Field(i).Tag.Get("json") == "-" && rv.Field(i).CanSet() {
			rv.Field(i).SetZero()
		}
	}
	return v
}

// fuzzDecode decodes data strictly (encoding/json) and as the SDK does
// (rest.Unmarshal, lenient); neither may panic, and what they decode must
// round-trip.
func fuzzDecode[T any](t *testing.T, data []byte) {
	var strict T
	strictErr := json.Unmarshal(data, &strict)
	if strictErr == nil {
		roundTrip(t, &strict)
	}
	var lenient T
	if err := rest.Unmarshal(data, &lenient); err == nil {
		checkTimes(t, reflect.ValueOf(&lenient).Elem(), 0)
		roundTrip(t, &lenient)
	} else if strictErr == nil {
		t.Fatalf("the lenient decoder refused what encoding/json accepts: %v", err)
	}
}

// timestampTypes are the SDK's timestamp types, in Unix seconds.
var timestampTypes = map[reflect.Type]bool{
	reflect.TypeFor[chat.Timestamp](): true, reflect.TypeFor[chat.Timestamp](): true, reflect.TypeFor[management.Timestamp](): true,
}

// checkTimes fails when a timestamp in v decoded out of the range the SDK
// keeps (a value that wrapped round would be far outside it), or to a
// time.Time before the year -9999 or after 9999.
func checkTimes(t *testing.T, v reflect.Value, depth int) {
	if depth > 12 || !v.IsValid() {
		return
	}
	if timestampTypes[v.Type()] {
		if n := v.Int(); n > rest.MaxUnix || n < -rest.MaxUnix {
			t.Fatalf("a %s decoded to %d, out of range", v.Type(), n)
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkTimes(t, v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			checkTimes(t, v.Field(i), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			checkTimes(t, v.Index(i), depth+1)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			checkTimes(t, it.Value(), depth+1)
		}
	}
}

// decodeSeedStrings are answers of the shapes the service sends, with the
// oddities the lenient decoder smooths over.
var decodeSeedStrings = []string{
	textMessageJSON, mediaMessageJSON, memberAddedJSON, messageEditedJSON, userJSON, authTokenJSON,
	`{"id":65,"parentId":64,"editedBy":7,"editedAt":null,"replyCount":"3","data":{"attachments":[{"size":"4761"}]}}`,
	`{"sentAt":"1638423490","updatedAt":1.5e9,"deletedAt":""}`,
	`{"data":{"entities":{"on":{"entityType":"call","entity":{"x":[1,{"y":null}]}}}}}`,
	`{"data":[],"meta":{"pagination":{"total":"0","count":5,"per_page":"100","current_page":1,"total_pages":1}},"cursor":{"updatedAt":1,"affix":"prepend"}}`,
	`{"data":[{"id":1}],"meta":{"current":{"limit":"10","count":1},"next":{"affix":"append","sentAt":1,"id":2}}}`,
	`{"data":{"metadata":{}}}`, `{"id":"1","data":{"metadata":{},"entities":{}}}`, `{"id":"1","data":{"metadata":{}},"sentAt":1}`, `{"data":[{"data":{"customData":{}}}]}`,
	`[{"id":"1"}]`, `null`, `{}`, `{"id":{"a":1}}`, `{"sentAt":1e400}`, `{"sentAt":"NaN"}`,
	`{"createdAt":1e300,"sentAt":99999999999999999999999,"updatedAt":"Infinity","deletedAt":"-Infinity","editedAt":-1e300}`, `{"n":` + strings.Repeat("[", 100),
}

func decodeSeeds(f *testing.F) {
	for _, s := range decodeSeedStrings {
		f.Add([]byte(s))
	}
}

func FuzzDecodeMessage(f *testing.F) {
	decodeSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode[chat.Message](t, data) })
}

func FuzzDecodeUser(f *testing.F) {
	decodeSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode[chat.User](t, data) })
}

func FuzzDecodePage(f *testing.F) {
	decodeSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode[chat.Page[chat.Message]](t, data)
		fuzzDecode[chat.Page[chat.User]](t, data)
		fuzzDecode[chat.Page[chat.AuthToken]](t, data)
	})
}

// modelDecoders decode data into every model the SDK returns, in the
// chat and management packages, as fuzzDecode does.
var modelDecoders = []struct {
	name   string
	decode func(t *testing.T, data []byte)
}{
	// Chat: users, groups, members, messages, conversations.
	{"User", fuzzDecode[chat.User]},
	{"Group", fuzzDecode[chat.Group]},
	{"GroupMember", fuzzDecode[chat.GroupMember]},
	{"AddMembersResponse", fuzzDecode[chat.AddMembersResponse]},
	{"MemberResult", fuzzDecode[chat.MemberResult]},
	{"ScopeChange", fuzzDecode[chat.ScopeChange]},
	{"Message", fuzzDecode[chat.Message]},
	{"Reaction", fuzzDecode[chat.Reaction]},
	{"Conversation", fuzzDecode[chat.Conversation]},
	{"AuthToken", fuzzDecode[chat.AuthToken]},
	{"APIKey", fuzzDecode[chat.APIKey]},
	{"Role", fuzzDecode[chat.Role]},
	{"Permission", fuzzDecode[chat.Permission]},
	{"SetPermissionsResponse", fuzzDecode[chat.SetPermissionsResponse]},
	{"UnsetPermissionResponse", fuzzDecode[chat.UnsetPermissionResponse]},
	{"AddFriendsResponse", fuzzDecode[chat.AddFriendsResponse]},
	{"DeactivateUsersResponse", fuzzDecode[chat.DeactivateUsersResponse]},
	{"ReactivateUsersResponse", fuzzDecode[chat.ReactivateUsersResponse]},
	{"DeleteUserResponse", fuzzDecode[chat.DeleteUserResponse]},
	{"Result", fuzzDecode[chat.Result]},
	// Moderation.
	{"ModerationRule", fuzzDecode[chat.ModerationRule]},
	{"KeywordList", fuzzDecode[chat.KeywordList]},
	{"ModerationReason", fuzzDecode[chat.ModerationReason]},
	{"BlockedMessage", fuzzDecode[chat.BlockedMessage]},
	{"FlaggedMessage", fuzzDecode[chat.FlaggedMessage]},
	{"ReviewedMessage", fuzzDecode[chat.ReviewedMessage]},
	// Notifications.
	{"NotificationSettings", fuzzDecode[chat.NotificationSettings]},
	{"NotificationPreferences", fuzzDecode[chat.NotificationPreferences]},
	{"NotificationTemplates", fuzzDecode[chat.NotificationTemplates]},
	{"UserNotificationPreferences", fuzzDecode[chat.UserNotificationPreferences]},
	{"MutedConversation", fuzzDecode[chat.MutedConversation]},
	{"ContactDetails", fuzzDecode[chat.ContactDetails]},
	{"PushToken", fuzzDecode[chat.PushToken]},
	{"NotificationLog", fuzzDecode[chat.NotificationLog]},
	{"FCMProvider", fuzzDecode[chat.FCMProvider]},
	{"APNsProvider", fuzzDecode[chat.APNsProvider]},
	{"CustomPushProvider", fuzzDecode[chat.CustomPushProvider]},
	{"TwilioProvider", fuzzDecode[chat.TwilioProvider]},
	{"CustomSMSProvider", fuzzDecode[chat.CustomSMSProvider]},
	{"SendGridProvider", fuzzDecode[chat.SendGridProvider]},
	{"CustomEmailProvider", fuzzDecode[chat.CustomEmailProvider]},
	// AI agents, data import, metrics.
	{"Agent", fuzzDecode[chat.Agent]},
	{"Page[Agent]", fuzzDecode[chat.Page[chat.Agent]]},
	{"BYOAgent", fuzzDecode[chat.BYOAgent]},
	{"TestBYOAgentResult", fuzzDecode[chat.TestBYOAgentResult]},
	{"BulkResult[ImportedMember]", fuzzDecode[chat.BulkResult[chat.ImportedMember]]},
	{"UsageMetrics", fuzzDecode[chat.UsageMetrics]},
	{"MessageMetrics", fuzzDecode[chat.MessageMetrics]},
	// Pages.
	{"Page[Group]", fuzzDecode[chat.Page[chat.Group]]},
	{"Page[Conversation]", fuzzDecode[chat.Page[chat.Conversation]]},
	// Calls.
	{"chat.Call", fuzzDecode[chat.Call]},
	{"chat.CallTranscription", fuzzDecode[chat.CallTranscription]},
	{"chat.Page[Call]", fuzzDecode[chat.Page[chat.Call]]},
	// Management.
	{"management.App", fuzzDecode[management.App]},
	{"management.AppSettings", fuzzDecode[management.AppSettings]},
	{"management.Tenant", fuzzDecode[management.Tenant]},
	{"management.Collaborator", fuzzDecode[management.Collaborator]},
	{"management.CollaboratorsUpdate", fuzzDecode[management.CollaboratorsUpdate]},
	{"management.DeleteAppResult", fuzzDecode[management.DeleteAppResult]},
	{"management.Extension", fuzzDecode[management.Extension]},
	{"chat.Page[management.Extension]", fuzzDecode[chat.Page[management.Extension]]},
	{"management.ExtensionsUpdate", fuzzDecode[management.ExtensionsUpdate]},
	{"management.ExtensionReply[SettingsBody]", fuzzDecode[management.ExtensionReply[management.SettingsBody]]},
	{"management.ExtensionReply[WidgetBody]", fuzzDecode[management.ExtensionReply[management.WidgetBody]]},
	{"management.Results", fuzzDecode[management.Results]},
	{"management.Webhook", fuzzDecode[management.Webhook]},
	{"management.Trigger", fuzzDecode[management.Trigger]},
}

// referenceSeeds returns the reference's JSON examples
// (testdata/reference), each alone and as the "data" of an answer.
func referenceSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "reference", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no reference examples: %v", err)
	}
	var seeds [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b, []byte(`{"data":[`+string(b)+`]}`))
	}
	return seeds
}

// FuzzDecodeModels decodes arbitrary bytes into every model type, strictly
// and as the SDK does: no input may panic, and what decodes must encode
// and decode again to the same value. which picks the model, so that each
// input costs one decoding and the fuzzer learns which model it explores;
// every seed is tried with every model.
func FuzzDecodeModels(f *testing.F) {
	seeds := referenceSeeds(f)
	for _, s := range decodeSeedStrings {
		seeds = append(seeds, []byte(s))
	}
	for i := range modelDecoders {
		for _, s := range seeds {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		d := modelDecoders[int(which)%len(modelDecoders)]
		t.Log(d.name)
		d.decode(t, data)
	})
}

// FuzzHostileServer generates scenarios from its input (decodeHostile)
// and asserts what the hostile-server tests assert. It is seeded with the
// first scenarios of each section of their table.
func FuzzHostileServer(f *testing.F) {
	share := 1 // the seeds, run by go test, may run under the race detector
	if fuzz := flag.Lookup("test.fuzz"); fuzz != nil && fuzz.Value.String() != "" {
		share = hostileFuzzShare
	}
	env := hostileEnv{srv: wiretest.NewHostileServers(f), share: share}
	for _, s := range hostileTable() {
		seeds := 0
		for _, sc := range s.scenarios {
			if sc.ZeroPolicy {
				continue
			}
			if got := decodeHostile(sc.encode()); got != sc {
				f.Fatalf("%s encodes as %v, which decodes to %s", sc, sc.encode(), got)
			}
			if seeds < 3 {
				f.Add(sc.encode())
				seeds++
			}
		}
	}
	f.Add(append(hostileScenario{Call: "Users.All", Status: 200, Body: bodyRaw}.encode(),
		`{"data":[{"uid":"a"},{"uid":"b"}],"meta":{"pagination":{"per_page":2}}}`...))
	f.Fuzz(func(t *testing.T, data []byte) {
		env.check(t, decodeHostile(data))
	})
}
