package requestlog

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRequestLogEntry measures what logging a request costs: making
// its redacted log entry, for bodies of several shapes, beside the
// baseline of decoding the same body as JSON (what serving a JSON request
// costs at least). The server knows the request's API key, as it does
// when it serves it.
func BenchmarkRequestLogEntry(b *testing.B) {
	var imp strings.Builder
	imp.WriteString(`{"messages":{`)
	for i := range 200 {
		if i > 0 {
			imp.WriteString(",")
		}
		fmt.Fprintf(&imp, `"%d":{"muid":"%d","sender":"u%d","receiverType":"user","receiver":"r%d","type":"text","category":"message",`+
			`"data":{"text":"Hello number %d, see https://example.com/a?b=c","metadata":{"team":"blue"}},"sentAt":"1674104348"}`, i, i, i, i, i)
	}
	imp.WriteString(`}}`)
	bodies := []struct{ name, ct, body string }{
		{"message", "application/json", `{"receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"Hi Bob, how are you?"},"muid":"m1"}`},
		{"group-password", "application/json", `{"guid":"locked","name":"Locked","type":"password","password":"grp-password-123"}`},
		{"import-64KiB", "application/json", imp.String()},
		{"form", "application/x-www-form-urlencoded", "user=bob&password=form-password-1&note=hello+there"},
		{"malformed-json", "application/json", `{"guid":"broken","password":"malformed-pw", "text": "Hello there, general Kenobi",}`},
	}
	for _, c := range bodies {
		b.Run(c.name+"/decode-baseline", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v any
				_ = json.Unmarshal([]byte(c.body), &v)
			}
		})
		b.Run(c.name+"/log-entry", func(b *testing.B) {
			r := httptest.NewRequest("POST", "/v3/anything", strings.NewReader(c.body))
			r.Header.Set("Content-Type", c.ct)
			r.Header.Set("apikey", "0123456789abcdef0123456789abcdef")
			l := New()
			l.Learn("0123456789abcdef0123456789abcdef") // the server's key
			b.ReportAllocs()
			for b.Loop() {
				l.Arrive("", r, []byte(c.body))
			}
		})
	}
}
