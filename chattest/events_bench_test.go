package chattest_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// BenchmarkHandlerEvents serves requests straight through the server's
// handler, without the network, so that what a change records and its
// consumers render shows: Users.Get (a change of no event), and
// Messages.Send with no webhook and with one listening to message_sent
// (its deliveries refused at once: the URL is not a loopback address).
func BenchmarkHandlerEvents(b *testing.B) {
	const send = `{"receiver":"bob","receiverType":"user","category":"message","type":"text","data":{"text":"Hello Bob"}}`
	cases := []struct {
		name         string
		method, path string
		body         string
		hooked       bool
	}{
		{"users-get", http.MethodGet, "/v3/users/bob", "", false},
		{"messages-send", http.MethodPost, "/v3/messages", send, false},
		{"messages-send-hooked", http.MethodPost, "/v3/messages", send, true},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			srv := chattest.NewServer(chattest.WithAPIKey("bench-key"))
			defer srv.Close()
			srv.AddUser(chat.User{UID: "sender", Name: "Sender"})
			srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
			if tc.hooked {
				mc := srv.ManagementClient(chat.WithoutRetries())
				_, err := mc.Webhooks.Create(b.Context(), srv.AppID(), &management.CreateWebhookRequest{ID: "h", Name: "h", URL: "https://192.0.2.1/hook"})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := mc.Webhooks.AddTriggers(b.Context(), srv.AppID(), "h", []webhook.Trigger{webhook.TriggerMessageSent}); err != nil {
					b.Fatal(err)
				}
			}
			h := srv.Handler()
			body := []byte(tc.body)
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(tc.method, tc.path, bytes.NewReader(body))
				r.Header.Set("apikey", "bench-key")
				r.Header.Set("onBehalfOf", "sender")
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
