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

func ExampleDataImportService_BulkImportUsers() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	// 120 users from another system: more than one request takes.
	users := make([]chat.ImportUser, 120)
	for i := range users {
		users[i] = chat.ImportUser{UID: fmt.Sprintf("user-%03d", i), Name: fmt.Sprint("User ", i)}
	}
	users[7].Role = "ghost" // the service refuses a role that does not exist

	opts := &chat.BulkOptions{
		// Against the service, leave the pace at its default (60 requests
		// a minute); a local fake needs none.
		RequestsPerMinute: 1_000_000,
		Progress: func(p chat.BulkProgress) {
			fmt.Printf("request %d: %d of %d done\n", p.Requests, p.Done, p.Total)
		},
	}
	results, err := client.DataImport.BulkImportUsers(ctx, users, opts)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		var ie *chat.ImportError
		if errors.As(r.Err, &ie) {
			fmt.Printf("users[%d] (%s) not imported: %s\n", r.Index, r.Key, ie.Code)
		}
	}
	// Output:
	// request 1: 50 of 120 done
	// request 2: 100 of 120 done
	// request 3: 120 of 120 done
	// users[7] (user-007) not imported: ERR_IMPORT_INVALID_USER_FORMAT
}

func ExampleDataImportService_ImportMessages() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	sentAt := time.Date(2023, 1, 19, 9, 30, 0, 0, time.UTC)
	msg := chat.ImportMessage{
		MUID: "legacy-3118", Sender: "alice", ReceiverType: chat.ReceiverUser, Receiver: "bob",
		Data:   chat.ImportMessageData{Text: "Hi Bob"},
		SentAt: chat.TimestampOf(sentAt),
		// The users were not imported first: describe them.
		SenderUserDetails:   &chat.UserDetails{UID: "alice", Name: "Alice"},
		ReceiverUserDetails: &chat.UserDetails{UID: "bob", Name: "Bob"},
	}
	results, err := client.DataImport.ImportMessages(ctx, []chat.ImportMessage{msg})
	if err != nil {
		log.Fatal(err)
	}
	m := results[0].Data
	fmt.Println(m.MUID, m.ConversationID, m.SentAt.Time().UTC().Format(time.RFC3339), m.Data.Text)

	// A muid is imported once.
	results, err = client.DataImport.ImportMessages(ctx, []chat.ImportMessage{msg})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(results[0].Success, results[0].Err.(*chat.ImportError).Code)
	// Output:
	// legacy-3118 alice_user_bob 2023-01-19T09:30:00Z Hi Bob
	// false ERR_IMPORT_MUID_ALREADY_EXISTS
}

func ExampleDataImportService_ImportMembers() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	created := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := client.DataImport.ImportGroups(ctx, []chat.ImportGroup{
		{GUID: "hikers", Name: "Hikers", Type: chat.GroupPublic, CreatedAt: chat.TimestampOf(created)},
	}); err != nil {
		log.Fatal(err)
	}
	results, err := client.DataImport.ImportMembers(ctx, []chat.ImportMember{
		{GUID: "hikers", UID: "alice", Scope: chat.MemberAdmin, JoinedAt: chat.TimestampOf(created.Add(24 * time.Hour)),
			UserDetails: &chat.UserDetails{UID: "alice", Name: "Alice"}},
		// Joined before the group existed: refused.
		{GUID: "hikers", UID: "bob", JoinedAt: chat.TimestampOf(created.Add(-time.Hour)),
			UserDetails: &chat.UserDetails{UID: "bob", Name: "Bob"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		if r.Success {
			fmt.Println(r.Key, r.Data.Scope, r.Data.JoinedAt.Time().UTC().Format(time.DateOnly))
		} else {
			fmt.Println(r.Key, r.Err.(*chat.ImportError).Code)
		}
	}
	// Output:
	// hikers_member_alice admin 2023-01-02
	// hikers_member_bob ERR_IMPORT_INVALID_JOINEDAT
}

func ExampleDataImportService_StreamUsers() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	// Users from any source, read one at a time: a file, a database
	// cursor. A user that cannot be read is paired with its error.
	users := func(yield func(chat.ImportUser, error) bool) {
		for i := range 120 {
			u := chat.ImportUser{UID: fmt.Sprintf("user-%03d", i), Name: fmt.Sprint("User ", i)}
			var err error
			if i == 7 {
				err = errors.New("row 7 cannot be read")
			}
			if !yield(u, err) {
				return
			}
		}
	}
	// A run that stopped would be started again from done, skipping the
	// users already done.
	var imported, done int
	for r, err := range client.DataImport.StreamUsers(ctx, users, &chat.BulkOptions{RequestsPerMinute: 1_000_000}) {
		if err != nil {
			fmt.Println("stopped:", err)
			break
		}
		if r.Err != nil {
			fmt.Printf("users[%d]: %v\n", r.Index, r.Err)
		} else {
			imported++
		}
		done = r.Done
	}
	fmt.Println(imported, "imported;", done, "done")
	// Output:
	// users[7]: row 7 cannot be read
	// 119 imported; 120 done
}
