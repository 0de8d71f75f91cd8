package chat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
)

// recordingTransport keeps every request it is asked to send and answers
// 200 with an empty data object.
type recordingTransport struct {
	mu   sync.Mutex
	reqs []*http.Request
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
		Body:       io.NopCloser(strings.NewReader(`{"data":{}}`)),
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

// FuzzPathEscaping sends hostile ids through the methods that put them in a
// path: each must stay exactly one segment, or be refused before sending.
func FuzzPathEscaping(f *testing.F) {
	seeds := []string{
		"", ".", "..", "...", "a/b", "../../admin", "..%2F..%2Fadmin", "?x=1", "#frag", "%2F", "a%2Fb", "%", "%zz",
		"\x00", "\r\nHost: evil", "\t", "\x7f", "😀", "👍", "🏳️‍🌈", ":reaction", "user name", " ", "@evil.com",
		"http://evil", "//evil.com/x", `\..\`, "a;b,c", "\xff\xfe", strings.Repeat("a", 5000), strings.Repeat("../", 300),
		"cometchat-uid-1", "42",
	}
	for _, s := range seeds {
		f.Add(s, "cometchat-uid-2")
		f.Add("42", s)
	}

	type target struct {
		name string
		call func(c *chat.Client, a, b string) error
		// segments is the expected path after /v3, and which argument, if
		// bad, must be named in the error.
		segments func(a, b string) []string
		check    func(a, b string) (argName string)
		header   func(a, b string) string // the onBehalfOf header expected, or ""
	}
	ctx := context.Background()
	targets := []target{
		{
			name: "Messages.SendThread",
			call: func(c *chat.Client, a, b string) error {
				_, err := c.Messages.SendThread(ctx, a, b, &chat.SendMessageRequest{Receiver: "r", Data: chat.MessageData{Text: "hi"}},
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
			name:     "Users.Get",
			call:     func(c *chat.Client, a, _ string) error { _, err := c.Users.Get(ctx, a); return err },
			segments: func(a, _ string) []string { return []string{"users", a} },
			check: func(a, _ string) string {
				if badSegment(a) {
					return "uid"
				}
				return ""
			},
		},
		{
			// The second id plays a reaction-like segment (an emoji) and a
			// secret one (an auth token).
			name:     "AuthTokens.Get",
			call:     func(c *chat.Client, a, b string) error { _, err := c.AuthTokens.Get(ctx, a, b); return err },
			segments: func(a, b string) []string { return []string{"users", a, "auth_tokens", b} },
			check: func(a, b string) string {
				switch {
				case badSegment(a):
					return "uid"
				case badSegment(b):
					return "authToken"
				}
				return ""
			},
		},
	}

	f.Fuzz(func(t *testing.T, a, b string) {
		for _, tg := range targets {
			rt := &recordingTransport{}
			c, err := chat.NewClient("myapp", testAPIKey, chat.WithHTTPClient(&http.Client{Transport: rt}), chat.WithoutRetries())
			if err != nil {
				t.Fatal(err)
			}
			err = tg.call(c, a, b)
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
			u := reqs[0].URL
			if u.Scheme != "https" || u.Host != testHost || u.User != nil {
				t.Fatalf("%s(%q, %q): sent to %s://%v@%s", tg.name, a, b, u.Scheme, u.User, u.Host)
			}
			if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "" {
				t.Fatalf("%s(%q, %q): query %q / fragment %q added", tg.name, a, b, u.RawQuery, u.Fragment)
			}
			escaped := u.EscapedPath()
			if !strings.HasPrefix(escaped, "/v3/") {
				t.Fatalf("%s(%q, %q): path %q", tg.name, a, b, escaped)
			}
			want := append([]string{"", "v3"}, tg.segments(a, b)...)
			got := strings.Split(escaped, "/")
			if len(got) != len(want) {
				t.Fatalf("%s(%q, %q): path %q has %d segments, want %d", tg.name, a, b, escaped, len(got)-1, len(want)-1)
			}
			for i := range want {
				seg, err := url.PathUnescape(got[i])
				if err != nil || seg != want[i] {
					t.Fatalf("%s(%q, %q): segment %d of %q is %q (%v), want %q", tg.name, a, b, i, escaped, seg, err, want[i])
				}
			}
			if tg.header != nil {
				if h := reqs[0].Header.Values("onBehalfOf"); len(h) != 1 || h[0] != tg.header(a, b) {
					t.Fatalf("%s(%q, %q): onBehalfOf header %q", tg.name, a, b, h)
				}
			}
			if got := reqs[0].Header.Get("apikey"); got != testAPIKey {
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
	if !bytes.Equal(b2, b3) || !reflect.DeepEqual(v2, v3) {
		t.Fatalf("not stable:\n%s\n%s\n%s", b1, b2, b3)
	}
	if !bytes.Equal(withoutEmptyData(b1), withoutEmptyData(b2)) {
		// Beyond the empty data object, the first encoding is already final.
		t.Fatalf("first encoding not final:\n%s\n%s", b1, b2)
	}
}

func withoutEmptyData(b []byte) []byte {
	for _, s := range []string{`,"data":{}`, `"data":{},`, `"data":{}`} {
		b = bytes.ReplaceAll(b, []byte(s), nil)
	}
	return b
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
		roundTrip(t, &lenient)
	} else if strictErr == nil {
		t.Fatalf("the lenient decoder refused what encoding/json accepts: %v", err)
	}
}

func decodeSeeds(f *testing.F, extra ...string) {
	for _, s := range append([]string{
		textMessageJSON, mediaMessageJSON, memberAddedJSON, messageEditedJSON, userJSON, authTokenJSON,
		`{"id":65,"parentId":64,"editedBy":7,"editedAt":null,"replyCount":"3","data":{"attachments":[{"size":"4761"}]}}`,
		`{"sentAt":"1638423490","updatedAt":1.5e9,"deletedAt":""}`,
		`{"data":{"entities":{"on":{"entityType":"call","entity":{"x":[1,{"y":null}]}}}}}`,
		`{"data":[],"meta":{"pagination":{"total":"0","count":5,"per_page":"100","current_page":1,"total_pages":1}},"cursor":{"updatedAt":1,"affix":"prepend"}}`,
		`{"data":[{"id":1}],"meta":{"current":{"limit":"10","count":1},"next":{"affix":"append","sentAt":1,"id":2}}}`,
		`{"data":{"metadata":{}}}`, `{"id":"1","data":{"metadata":{},"entities":{}}}`, `{"id":"1","data":{"metadata":{}},"sentAt":1}`, `{"data":[{"data":{"customData":{}}}]}`,
		`[{"id":"1"}]`, `null`, `{}`, `{"id":{"a":1}}`, `{"sentAt":1e400}`, `{"sentAt":"NaN"}`, `{"n":` + strings.Repeat("[", 100),
	}, extra...) {
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
