package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chatrest/chat/webhook"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhooksTrigger delivers each trigger a webhook can subscribe to, to
// a receiver that decodes the body with package webhook and checks the
// webhook's Basic auth.
func TestWebhooksTrigger(t *testing.T) {
	const user, password = "hooks", "rec3iv3r-pa55w0rd"
	var (
		mu   sync.Mutex
		got  []webhook.Event
		fail []string
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != password {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		ev, err := webhook.Decode(body)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			fail = append(fail, err.Error()+": "+string(body))
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = append(got, ev)
		io.WriteString(w, `{"received":true}`)
	}))
	t.Cleanup(receiver.Close)
	env := append(baseEnv(t.TempDir()), "CHAT_APP_ID=myapp", "CHAT_REGION=eu")

	triggers := webhook.Triggers()
	require.Len(t, triggers, 48)
	for _, tr := range triggers {
		r := runChat(t, env, password+"\n", "webhooks", "trigger", string(tr), "--to", receiver.URL+"/hooks", "--username", user, "--password-stdin")
		if !assert.Equal(t, 0, r.code, "%s: %s", tr, r.stderr) {
			continue
		}
		assert.Equal(t, "HTTP/1.1 200 OK\n{\"received\":true}\n", r.stdout, tr)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, fail)
	require.Len(t, got, len(triggers))
	for i, ev := range got {
		assert.Equal(t, triggers[i], ev.Trigger())
		_, unknown := ev.(*webhook.UnknownEvent)
		assert.False(t, unknown, "%s decodes as an event of its own", triggers[i])
		assert.Equal(t, "myapp", ev.Envelope().AppID)
		assert.Equal(t, "eu", ev.Envelope().Region)
	}
	// A few of the shapes, as the service sends them.
	for _, ev := range got {
		switch e := ev.(type) {
		case *webhook.MessageEvent:
			assert.Equal(t, "alice", e.Message.Sender)
			assert.Equal(t, "hello", e.Message.Data.Text)
		case *webhook.GroupEvent:
			assert.Equal(t, "team", e.Group.GUID)
			assert.Contains(t, e.Members, "bob")
		case *webhook.MessageActionEvent:
			require.NotNil(t, e.Target, "%s names the message it acts on", e.Trigger())
			assert.Equal(t, "1001", e.Target.ID)
		case *webhook.ReceiptEvent:
			assert.Equal(t, "1001", e.Body.MessageID)
		}
	}

	t.Run("a receiver that refuses", func(t *testing.T) {
		r := runChat(t, env, "wrong-password\n", "webhooks", "trigger", "message_sent", "--to", receiver.URL, "--username", user, "--password-stdin")
		assert.Equal(t, exitAPI, r.code)
		assert.Contains(t, r.stdout, "401 Unauthorized")
		assert.Contains(t, r.stderr, "the receiver answered 401 Unauthorized")
	})
	t.Run("an unknown trigger", func(t *testing.T) {
		r := runChat(t, env, "", "webhooks", "trigger", "message_sneezed", "--to", receiver.URL)
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, `unknown trigger "message_sneezed"`)
	})
	t.Run("plain http only on loopback", func(t *testing.T) {
		r := runChat(t, env, "", "webhooks", "trigger", "message_sent", "--to", "http://hooks.example.com/x")
		assert.Equal(t, exitUsage, r.code)
		assert.True(t, strings.Contains(r.stderr, "loopback"), r.stderr)
	})
}
