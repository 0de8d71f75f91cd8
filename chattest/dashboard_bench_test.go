package chattest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// BenchmarkDashboardPages renders each dashboard page of an app with 1,000
// users, 50 groups of 20 members and 20,000 messages in 1,050
// conversations, against the baseline of the API's first page of users,
// served the same way (no network, no TLS).
func BenchmarkDashboardPages(b *testing.B) {
	srv := chattest.NewServer()
	defer srv.Close()
	for i := range 1000 {
		srv.AddUser(chat.User{UID: fmt.Sprintf("user%04d", i), Name: fmt.Sprintf("User %d", i)})
	}
	for g := range 50 {
		members := make([]string, 20)
		for j := range members {
			members[j] = fmt.Sprintf("user%04d", g*20+j)
		}
		srv.AddGroup(chat.Group{GUID: fmt.Sprintf("group%02d", g), Name: fmt.Sprintf("Group %d", g), Type: chat.GroupPublic, Owner: members[0]}, members...)
	}
	for i := range 20000 {
		m := chat.Message{Sender: fmt.Sprintf("user%04d", i%1000), Category: chat.CategoryMessage, Type: chat.MessageTypeText,
			Data: chat.MessageData{Text: fmt.Sprintf("message %d", i)}}
		if i%2 == 0 {
			m.ReceiverType, m.Receiver = chat.ReceiverGroup, fmt.Sprintf("group%02d", i%50)
		} else {
			m.ReceiverType, m.Receiver = chat.ReceiverUser, fmt.Sprintf("user%04d", (i+1)%1000)
		}
		srv.AddMessage(m)
	}
	h := srv.Handler()
	serve := func(b *testing.B, path string, header http.Header) {
		for b.Loop() {
			r := httptest.NewRequest("GET", path, nil)
			r.Header = header.Clone()
			r.RemoteAddr, r.Host = "127.0.0.1:50000", "127.0.0.1:8443" // a loopback client
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: %d %s", path, w.Code, w.Body)
			}
		}
	}
	b.Run("baseline: GET /v3/users", func(b *testing.B) {
		serve(b, "/v3/users?perPage=100", http.Header{"Apikey": {srv.APIKey()}})
	})
	for _, page := range []string{"", "users", "groups", "conversations", "messages", "messages?conversation=group_group07", "webhooks", "requests"} {
		b.Run("/_chattest/"+page, func(b *testing.B) { serve(b, "/_chattest/"+page, http.Header{}) })
	}
}
