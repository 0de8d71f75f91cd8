package fake

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

func TestHidePrivate(t *testing.T) {
	for _, tt := range []struct {
		name, viewer, in, want string
	}{
		{"a user, members in order", "alice",
			`{"uid":"bob","name":"Bob","metadata":{"team":"x","@private":{"email":"b@x"},"z":1},"status":"offline"}`,
			`{"uid":"bob","name":"Bob","metadata":{"team":"x","z":1},"status":"offline"}`},
		{"metadata left empty goes", "alice",
			`{"metadata":{"@private":{"email":"b@x"}},"uid":"bob"}`,
			`{"uid":"bob"}`},
		{"the viewer's own stays", "bob",
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`,
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`},
		{"the app sees everything", "",
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`,
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`},
		{"app_system sees everything", appSystem,
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`,
			`{"uid":"bob","metadata":{"@private":{"email":"b@x"}}}`},
		{"entities of a message in an action message, in a page", "alice",
			`{"data":[{"id":"2","data":{"entities":{"on":{"entity":{"id":"1","data":{"text":"\"@private\"","entities":{` +
				`"sender":{"entity":{"uid":"bob","metadata":{"@private":{"email":"b@x"},"k":"v"}},"entityType":"user"},` +
				`"receiver":{"entity":{"uid":"alice","metadata":{"@private":{"email":"a@x"}}},"entityType":"user"}}}},"entityType":"message"}}}}],"meta":{}}`,
			`{"data":[{"id":"2","data":{"entities":{"on":{"entity":{"id":"1","data":{"text":"\"@private\"","entities":{` +
				`"sender":{"entity":{"uid":"bob","metadata":{"k":"v"}},"entityType":"user"},` +
				`"receiver":{"entity":{"uid":"alice","metadata":{"@private":{"email":"a@x"}}},"entityType":"user"}}}},"entityType":"message"}}}}],"meta":{}}`},
		{"free-form members are not searched", "alice",
			`{"id":"1","data":{"customData":{"uid":"bob","metadata":{"@private":1}},"metadata":{"uid":"bob","metadata":{"@private":1}}}}`,
			`{"id":"1","data":{"customData":{"uid":"bob","metadata":{"@private":1}},"metadata":{"uid":"bob","metadata":{"@private":1}}}}`},
		{"not a user: no string uid", "alice",
			`{"uid":7,"metadata":{"@private":1}}`,
			`{"uid":7,"metadata":{"@private":1}}`},
		{"a user whose metadata is not an object", "alice",
			`{"uid":"bob","metadata":"@private"}`,
			`{"uid":"bob","metadata":"@private"}`},
		{"a key that only looks private", "alice",
			`{"uid":"bob","metadata":{"@private ":1,"x":"@private"}}`,
			`{"uid":"bob","metadata":{"@private ":1,"x":"@private"}}`},
		{"HTML-escaped keys and values keep their escapes", "alice",
			`{"uid":"bob","metadata":{"\u003cb\u003e":"\u0026","@private":1}}`,
			`{"uid":"bob","metadata":{"\u003cb\u003e":"\u0026"}}`},
		{"not JSON: as it is", "alice", `{"uid":"bob","metadata":{"@private":1}`, `{"uid":"bob","metadata":{"@private":1}`},
		{"more than one value: as it is", "alice", `{"uid":"bob","metadata":{"@private":1}} {}`, `{"uid":"bob","metadata":{"@private":1}} {}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(hidePrivate(tt.viewer, []byte(tt.in))))
		})
	}
}

// TestHidePrivateKeepsWhatItHidesNothingFrom: an answer with nothing to
// hide comes back as the very same bytes.
func TestHidePrivateKeepsWhatItHidesNothingFrom(t *testing.T) {
	in := []byte(`{"data":[{"uid":"bob","metadata":{"team":"x"}},{"uid":"alice","metadata":{"@private":1}}]}`)
	out := hidePrivate("alice", in)
	assert.Same(t, &in[0], &out[0])
}

// privateRef is what hidePrivate does, on a decoded JSON value: every
// user object (a string uid, an object metadata) but viewer's loses
// metadata["@private"], and its metadata when nothing is left; free-form
// members are not searched.
func privateRef(viewer string, v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = privateRef(viewer, x[i])
		}
	case map[string]any:
		uid, isUID := x["uid"].(string)
		if meta, ok := x["metadata"].(map[string]any); ok && isUID && uid != viewer && !isApp(viewer) {
			if _, ok := meta["@private"]; ok {
				delete(meta, "@private")
				if len(meta) == 0 {
					delete(x, "metadata")
				}
			}
		}
		for k, m := range x {
			if k != "metadata" && k != "customData" && !isApp(viewer) {
				x[k] = privateRef(viewer, m)
			}
		}
	}
	return v
}

// FuzzHidePrivate holds hidePrivate, on any JSON as encoding/json writes
// it, to privateRef: its output is JSON, and decodes to the input less
// exactly what privateRef takes out.
func FuzzHidePrivate(f *testing.F) {
	for _, s := range []string{
		`{"uid":"bob","metadata":{"@private":{"email":"b@x"},"team":"x"}}`,
		`[{"uid":"alice","metadata":{"@private":1}},{"uid":"bob","metadata":{"@private":2}}]`,
		`{"data":{"entities":{"sender":{"entity":{"uid":"bob","metadata":{"@private":1}},"entityType":"user"}}}}`,
		`{"customData":{"uid":"bob","metadata":{"@private":1}},"x":{"uid":"carol","metadata":{"@private":{"uid":"bob","metadata":{"@private":1}}}}}`,
		`"@private"`,
	} {
		f.Add("alice", s)
	}
	f.Fuzz(func(t *testing.T, viewer, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return
		}
		out, err := json.Marshal(v) // an answer as the server writes it
		require.NoError(t, err)
		hidden := hidePrivate(viewer, out)
		var got any
		require.NoError(t, json.Unmarshal(hidden, &got), "%s", hidden)
		var want any
		require.NoError(t, json.Unmarshal(out, &want))
		assert.Equal(t, privateRef(viewer, want), got)
	})
}

// messagePage is a page of n one-on-one messages between alice and the
// users u0, u1, ..., as a message list answers it; with private set,
// every user has private metadata.
func messagePage(n int, private bool) chat.Page[chat.Message] {
	user := func(uid string) json.RawMessage {
		u := chat.User{UID: uid, Name: "User " + uid, Avatar: "https://example.com/" + uid + ".png", Status: chat.UserOffline,
			Role: "default", CreatedAt: 1700000000, Metadata: map[string]any{"team": "blue"}}
		if private {
			u.Metadata["@private"] = map[string]any{"email": uid + "@example.com", "contactNumber": "0123456789"}
		}
		b, _ := json.Marshal(u)
		return b
	}
	page := chat.Page[chat.Message]{Data: make([]chat.Message, n)}
	for i := range page.Data {
		other := "u" + strconv.Itoa(i)
		page.Data[i] = chat.Message{ID: strconv.Itoa(i + 1), ConversationID: "alice_user_" + other, Sender: other, Receiver: "alice",
			ReceiverType: chat.ReceiverUser, Category: chat.CategoryMessage, Type: chat.MessageTypeText, SentAt: 1700000000,
			Data: chat.MessageData{Text: "Hello " + other, Entities: &chat.Entities{
				Sender:   &chat.Entity{Entity: user(other), EntityType: chat.EntityUser},
				Receiver: &chat.Entity{Entity: user("alice"), EntityType: chat.EntityUser},
			}}}
	}
	return page
}

// BenchmarkHidePrivate measures what hiding costs an answer of 100
// messages to alice, beside encoding it (what every answer costs
// already): with nothing to hide (a scan), and with every user's private
// metadata to take out but alice's.
func BenchmarkHidePrivate(b *testing.B) {
	plain, private := messagePage(100, false), messagePage(100, true)
	plainOut, _ := json.Marshal(plain)
	privateOut, _ := json.Marshal(private)
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(privateOut)))
		for b.Loop() {
			if _, err := json.Marshal(private); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("nothing-to-hide", func(b *testing.B) {
		b.SetBytes(int64(len(plainOut)))
		for b.Loop() {
			hidePrivate("alice", plainOut)
		}
	})
	b.Run("hide-100", func(b *testing.B) {
		b.SetBytes(int64(len(privateOut)))
		for b.Loop() {
			hidePrivate("alice", privateOut)
		}
	})
}
