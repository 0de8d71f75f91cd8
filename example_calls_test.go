package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// callsNoon is the fake's clock in the examples.
var callsNoon = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// newServer starts a fake at callsNoon with two ended calls and an unanswered
// one: the kind of history the Calls API lists.
func newCallsServer() *chattest.Server {
	srv := chattest.NewServer(chattest.WithClock(func() time.Time { return callsNoon }))
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	srv.AddUser(chat.User{UID: "carol", Name: "Carol"})
	at := func(minutes int) chat.Timestamp {
		return chat.TimestampOf(callsNoon.Add(time.Duration(minutes) * time.Minute))
	}
	for _, c := range []chat.Call{
		{SessionID: "v1.us.demo.1", Type: chat.CallTypeAudio, Initiator: "alice", Receiver: "bob", StartedAt: at(-60), EndedAt: at(-55),
			Participants: []chat.CallParticipant{{UID: "alice", JoinedAt: at(-60)}, {UID: "bob", JoinedAt: at(-60)}},
			Recordings:   []chat.CallRecording{{StartTime: at(-59), EndTime: at(-56), RecordingURL: "https://recordings.example/1.mp4"}}},
		{SessionID: "v1.us.demo.2", Type: chat.CallTypeVideo, Initiator: "bob", ReceiverType: chat.ReceiverGroup, Receiver: "team",
			StartedAt: at(-30), EndedAt: at(-10), Participants: []chat.CallParticipant{
				{UID: "bob", JoinedAt: at(-30)}, {UID: "carol", JoinedAt: at(-29), LeftAt: at(-20)}, {UID: "alice"}}},
		{SessionID: "v1.us.demo.3", Type: chat.CallTypeVideo, Initiator: "carol", Receiver: "alice", InitiatedAt: at(-5),
			Status: chat.CallStatusUnanswered, Participants: []chat.CallParticipant{{UID: "alice"}}},
	} {
		if _, err := srv.AddCall(c); err != nil {
			log.Fatal(err)
		}
	}
	return srv
}

func ExampleCallsService_List() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()

	// The ended video calls, newest first.
	page, err := client.Calls.List(context.Background(), &chat.ListCallsOptions{Type: chat.CallTypeVideo, Status: chat.CallStatusEnded})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range page.Data {
		fmt.Printf("%s: %s %s call by %s to %s %s, %s, %d joined\n",
			c.SessionID, c.Status, c.Type, c.Initiator, c.ReceiverType, c.Receiver, c.Duration(), c.TotalParticipants)
	}
	// Output:
	// v1.us.demo.2: ended video call by bob to group team, 20m0s, 2 joined
}

func ExampleCallsService_List_onBehalfOf() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()

	// Alice's call history: chat.OnBehalfOf scopes the list to the calls
	// she made, was called in, or took part in.
	page, err := client.Calls.List(context.Background(), nil, chat.OnBehalfOf("alice"))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range page.Data {
		fmt.Println(c.SessionID, c.Status)
	}
	// Output:
	// v1.us.demo.3 unanswered
	// v1.us.demo.2 ended
	// v1.us.demo.1 ended
}

func ExampleCallsService_All() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()

	// Every recorded call, a page of 50 at a time.
	recorded := true
	for c, err := range client.Calls.All(context.Background(), &chat.ListCallsOptions{HasRecording: &recorded, PageOptions: chat.PageOptions{PerPage: 50}}) {
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range c.Recordings {
			fmt.Printf("%s: %.0f minutes at %s\n", c.SessionID, r.Duration, r.RecordingURL)
		}
	}
	// Output:
	// v1.us.demo.1: 3 minutes at https://recordings.example/1.mp4
}

func ExampleCallsService_Get() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()

	c, err := client.Calls.Get(context.Background(), "v1.us.demo.2")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("started %s, ended %s, %.0f video minutes\n",
		c.StartedTime().UTC().Format(time.Kitchen), c.EndedTime().UTC().Format(time.Kitchen), c.TotalVideoMinutes)
	for _, p := range c.Participants {
		fmt.Printf("%s: %s, %.0f minutes\n", p.UID, p.State, p.TotalDuration)
	}

	// An unknown session is a *chat.Error that matches chat.ErrNotFound.
	_, err = client.Calls.Get(context.Background(), "v1.us.nope")
	var ce *chat.Error
	if errors.As(err, &ce) && errors.Is(err, chat.ErrNotFound) {
		fmt.Println(ce.StatusCode, ce.Code)
	}
	// Output:
	// started 11:30AM, ended 11:50AM, 29 video minutes
	// bob: ended, 20 minutes
	// carol: ended, 9 minutes
	// alice: unanswered, 0 minutes
	// 404 ERR_CALL_SESSION_NOT_FOUND
}

func ExampleCallsService_ListTranscriptions() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()
	// Transcripts are generated after the call ends; the fake adds them
	// when told.
	if err := srv.AddTranscription("v1.us.demo.1", chat.CallTranscription{TID: "tr-1", TranscriptURL: "https://transcripts.example/1.txt"}); err != nil {
		log.Fatal(err)
	}

	page, err := client.Calls.ListTranscriptions(context.Background(), "v1.us.demo.1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range page.Data {
		fmt.Println(t.TID, t.TranscriptURL, t.Date().Format(time.RFC3339))
	}
	// Output:
	// tr-1 https://transcripts.example/1.txt 2024-05-01T12:00:00Z
}

func ExampleCallsService_AllTranscriptions() {
	srv := newCallsServer()
	defer srv.Close()
	client := srv.Client()
	for _, tid := range []string{"a", "b", "c"} {
		if err := srv.AddTranscription("v1.us.demo.2", chat.CallTranscription{TID: tid}); err != nil {
			log.Fatal(err)
		}
	}

	// Newest first, two per request.
	for t, err := range client.Calls.AllTranscriptions(context.Background(), "v1.us.demo.2", &chat.ListTranscriptionsOptions{PageOptions: chat.PageOptions{PerPage: 2}}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(t.TID, " ")
	}
	fmt.Println()
	// Output:
	// c b a
}
