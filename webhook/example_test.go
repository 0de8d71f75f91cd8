package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/webhook"
)

// A receiver that logs every message sent. The test server stands for
// your HTTPS endpoint, and NewDelivery for the service delivering
// message_sent to it.
func Example_receiver() {
	// Log to stdout without the time, to show what the receiver logs.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))

	v := &webhook.Verifier{Username: "hooks", Password: "s3cretPassw0rd"}
	receiver := webhook.NewHandler(v, func(ctx context.Context, ev webhook.Event) error {
		if ev, ok := ev.(*webhook.MessageEvent); ok && ev.Trigger() == webhook.TriggerMessageSent {
			logger.InfoContext(ctx, "message sent",
				"app", ev.Envelope().AppID,
				"from", ev.Message.Sender,
				"to", ev.Message.Receiver,
				"text", ev.Message.Data.Text)
		}
		return nil
	}, webhook.WithLogger(logger))
	srv := httptest.NewServer(receiver)
	defer srv.Close()

	// The service delivers a message_sent with the webhook's credentials.
	env, err := webhook.NewEnvelope(webhook.TriggerMessageSent, &webhook.MessageEvent{Message: chat.Message{
		ID: "101", Sender: "alice", Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Category: chat.CategoryMessage, Type: chat.MessageTypeText, Data: chat.MessageData{Text: "Lunch at noon?"},
	}})
	if err != nil {
		log.Fatal(err)
	}
	env.AppID, env.Region, env.Webhook = "app-1", "us", "chat-events"
	for _, password := range []string{"s3cretPassw0rd", "guess"} {
		req, err := webhook.NewRequest(context.Background(), srv.URL, env, "hooks", password)
		if err != nil {
			log.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		fmt.Println("answered", resp.StatusCode)
	}
	// Output:
	// level=INFO msg="message sent" app=app-1 from=alice to=bob text="Lunch at noon?"
	// answered 200
	// level=WARN msg="webhook: delivery rejected" status=401 error="webhook: missing or wrong Basic auth credentials"
	// answered 401
}

// A delivery decoded by a receiver that reads the body itself. The
// recording's duration and start time arrive as strings.
func ExampleDecode() {
	body := []byte(`{"trigger":"recording_generated","data":{"recordingDate":"2023-10-10","duration":"21.433000",
		"startTime":"1696934692","sessionId":"v1.us.sess-1","recording_url":"https://example.com/rec.mp4"},
		"appId":"app-1","region":"us","webhook":"calls-hook"}`)
	ev, err := webhook.Decode(body)
	if err != nil {
		log.Fatal(err)
	}
	switch ev := ev.(type) {
	case *webhook.RecordingEvent:
		fmt.Println(ev.SessionID, ev.Duration.Duration(), ev.StartTime.Time().UTC())
		fmt.Println(ev.RecordingURL)
	case *webhook.UnknownEvent:
		fmt.Println("unknown trigger", ev.Trigger())
	}
	// Output:
	// v1.us.sess-1 21.433s 2023-10-10 10:44:52 +0000 UTC
	// https://example.com/rec.mp4
}

// A trigger added to the service after this package was written is not an
// error: its data is kept as sent.
func ExampleUnknownEvent() {
	ev, err := webhook.Decode([]byte(`{"trigger":"poll_closed","data":{"pollId":"p-7"},"appId":"app-1","region":"eu","webhook":"w"}`))
	if err != nil {
		log.Fatal(err)
	}
	if u, ok := ev.(*webhook.UnknownEvent); ok {
		fmt.Println(u.Trigger(), u.Trigger().Known(), string(u.Envelope().Data))
	}
	// Output:
	// poll_closed false {"pollId":"p-7"}
}

// Verify in a receiver that does not use NewHandler: answer StatusCode of
// the error.
func ExampleVerifier_Verify() {
	v := &webhook.Verifier{Username: "hooks", Password: "s3cretPassw0rd"}
	receive := func(w http.ResponseWriter, r *http.Request) {
		ev, err := v.Verify(r)
		if err != nil {
			fmt.Println("rejected:", err, errors.Is(err, webhook.ErrUnauthorized))
			http.Error(w, http.StatusText(webhook.StatusCode(err)), webhook.StatusCode(err))
			return
		}
		fmt.Println("received", ev.Trigger())
	}

	for _, password := range []string{"s3cretPassw0rd", "S3cretPassw0rd"} {
		req, err := webhook.NewDelivery(context.Background(), "https://example.com/hook", webhook.TriggerCallStarted,
			map[string]any{"sessionId": "v1.us.sess-1", "created_at": 1696934692}, "hooks", password)
		if err != nil {
			log.Fatal(err)
		}
		w := httptest.NewRecorder()
		receive(w, req)
		fmt.Println(w.Code)
	}
	// Output:
	// received call_started
	// 200
	// rejected: webhook: missing or wrong Basic auth credentials true
	// 401
}

// One event type serves all group triggers; Trigger says what happened.
func ExampleGroupEvent() {
	body := []byte(`{"trigger":"group_member_scope_changed","data":{
		"group":{"guid":"hikers","name":"Hikers","type":"public","membersCount":3,"owner":"alice"},
		"members":{"bob":{"uid":"bob","name":"Bob","scope":"moderator","oldScope":"participant"}},
		"by":{"uid":"alice","name":"Alice"}},"appId":"app-1","region":"us","webhook":"w"}`)
	ev, err := webhook.Decode(body)
	if err != nil {
		log.Fatal(err)
	}
	g := ev.(*webhook.GroupEvent)
	switch g.Trigger() {
	case webhook.TriggerGroupMemberScopeChanged:
		for _, m := range g.Members {
			fmt.Printf("%s made %s a %s (was %s) in %s\n", g.By.Name, m.Name, m.Scope, m.OldScope, g.Group.Name)
		}
	case webhook.TriggerGroupMemberAdded:
		fmt.Println(len(g.Members), "added")
	}
	// Output:
	// Alice made Bob a moderator (was participant) in Hikers
}

// Test the function given to NewHandler without HTTP: build the event with
// NewEnvelope and DecodeEnvelope.
func ExampleDecodeEnvelope() {
	onEvent := func(_ context.Context, ev webhook.Event) error {
		if ev, ok := ev.(*webhook.ParticipantEvent); ok {
			fmt.Printf("%s joined %s (audio only: %t)\n", ev.Occupant.Name, ev.SessionID, ev.Occupant.AudioCall)
		}
		return nil
	}

	env, err := webhook.NewEnvelope(webhook.TriggerMeetingParticipantJoined,
		[]byte(`{"occupant":{"joined_at":1696934692,"audio_call":"true","name":"Andrew"},"sessionId":"v1.us.sess-1"}`))
	if err != nil {
		log.Fatal(err)
	}
	ev, err := webhook.DecodeEnvelope(env)
	if err != nil {
		log.Fatal(err)
	}
	if err := onEvent(context.Background(), ev); err != nil {
		log.Fatal(err)
	}
	fmt.Println(env.Type)
	// Output:
	// Andrew joined v1.us.sess-1 (audio only: true)
	// meet
}

// The trigger ids to subscribe a webhook to, e.g. with the management
// package's AddTriggers.
func ExampleTriggers() {
	all := webhook.Triggers()
	fmt.Println(len(all), all[0], all[len(all)-1])
	// Output:
	// 48 message_sent after_push_notification_clicked
}
