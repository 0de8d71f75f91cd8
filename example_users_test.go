package chat_test

import (
	"context"
	"fmt"
	"log"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func ExampleUsersService_Deactivate() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})

	res, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"alice", "Nobody"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deactivated:", res.DeactivatedUIDs, "not found:", res.NotFound)

	res, err = client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"alice", "bob"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deactivated:", res.DeactivatedUIDs, "already:", res.AlreadyDeactivatedUIDs)
	// Output:
	// deactivated: [alice] not found: [Nobody]
	// deactivated: [bob] already: [alice]
}

func ExampleUsersService_Reactivate() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	srv.AddUser(chat.User{UID: "bob", Name: "Bob"})
	if _, err := client.Users.Deactivate(ctx, &chat.DeactivateUsersRequest{UIDs: []string{"bob"}}); err != nil {
		log.Fatal(err)
	}

	res, err := client.Users.Reactivate(ctx, &chat.ReactivateUsersRequest{UIDs: []string{"bob", "alice", "Ghost"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reactivated:", res.ReactivatedUIDs)
	fmt.Println("not deactivated:", res.NonDeactivatedUIDs)
	fmt.Println("not found:", res.NotFound)
	// Output:
	// reactivated: [bob]
	// not deactivated: [alice]
	// not found: [Ghost]
}

func ExampleUsersService_Delete() {
	srv := chattest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})

	// A soft delete deactivates the user, who can be reactivated.
	res, err := client.Users.Delete(ctx, "alice", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Success, res.DeactivatedUIDs)

	// A permanent delete removes the user and their messages.
	res, err = client.Users.Delete(ctx, "alice", &chat.DeleteUserRequest{Permanent: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Success, res.Message)
	// Output:
	// true [alice]
	// true User alice has been deleted successfully.
}
