// Command quickstart runs the SDK's headline flow: create two users, mint an
// auth token for one, send a message, reply in its thread on behalf of the
// other user, and list the thread.
//
// With CHAT_APP_ID, CHAT_REGION and CHAT_API_KEY set it talks to the real
// service; with CHAT_BASE_URL set too, to that address instead, e.g. a
// running cmd/chattest, trusting the certificate in the PEM file
// CHAT_CA_FILE when one is given (cmd/chattest prints these lines at
// start). Otherwise it starts the in-memory fake (package chattest) and
// runs the same flow against it:
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	client, done, err := newClient()
	if err != nil {
		return err
	}
	defer done()

	alice, err := ensureUser(ctx, client, "quickstart-alice", "Alice")
	if err != nil {
		return err
	}
	bob, err := ensureUser(ctx, client, "quickstart-bob", "Bob")
	if err != nil {
		return err
	}
	fmt.Printf("1. users ready: %s (%s) and %s (%s)\n", alice.UID, alice.Name, bob.UID, bob.Name)

	token, err := client.AuthTokens.Create(ctx, alice.UID, nil)
	if err != nil {
		return fmt.Errorf("minting an auth token: %w", err)
	}
	fmt.Printf("2. auth token minted for %s (%d characters; hand it to her client to log in)\n", token.UID, len(token.AuthToken))

	msg, err := client.Messages.Send(ctx, &chat.SendMessageRequest{
		Receiver:     bob.UID,
		ReceiverType: chat.ReceiverUser,
		Data:         chat.MessageData{Text: "Hi Bob, can you review the report?"},
	}, chat.OnBehalfOf(alice.UID))
	if err != nil {
		return fmt.Errorf("sending the message: %w", err)
	}
	fmt.Printf("3. %s sent message %s to %s: %q\n", msg.Sender, msg.ID, msg.Receiver, msg.Data.Text)

	reply, err := client.Messages.SendThread(ctx, msg.ID, bob.UID, &chat.SendMessageRequest{
		Receiver:     alice.UID,
		ReceiverType: chat.ReceiverUser,
		Data:         chat.MessageData{Text: "On it, I'll send notes by noon."},
	})
	if err != nil {
		return fmt.Errorf("replying in the thread: %w", err)
	}
	fmt.Printf("4. %s replied in the thread of %s with message %s: %q\n", reply.Sender, reply.ParentID, reply.ID, reply.Data.Text)

	fmt.Printf("5. thread of message %s:\n", msg.ID)
	for m, err := range client.Messages.AllThreadMessages(ctx, msg.ID, nil) {
		if err != nil {
			return fmt.Errorf("listing the thread: %w", err)
		}
		fmt.Printf("   - [%s] %s: %q\n", m.ID, m.Sender, m.Data.Text)
	}
	return nil
}

// newClient returns a client for the real service when CHAT_APP_ID,
// CHAT_REGION and CHAT_API_KEY are set (for CHAT_BASE_URL when it is set
// too, trusting CHAT_CA_FILE), and otherwise one for an in-memory chattest
// server, which done closes.
func newClient() (client *chat.Client, done func(), err error) {
	appID, region, apiKey := os.Getenv("CHAT_APP_ID"), os.Getenv("CHAT_REGION"), os.Getenv("CHAT_API_KEY")
	if appID != "" || apiKey != "" {
		if region == "" {
			region = string(chat.RegionUS)
		}
		opts := []chat.Option{chat.WithRegion(chat.Region(region))}
		// CHAT_BASE_URL and CHAT_CA_FILE, when set, send to another
		// address (such as cmd/chattest's) trusting its certificate.
		base := os.Getenv("CHAT_BASE_URL")
		opts = append(opts, chat.WithBaseURL(base), chat.WithCAFile(os.Getenv("CHAT_CA_FILE")))
		if strings.HasPrefix(base, "http://") {
			opts = append(opts, chat.WithInsecureLoopback()) // a loopback address only
		}
		client, err = chat.NewClient(appID, apiKey, opts...)
		if err != nil {
			return nil, nil, err
		}
		fmt.Printf("Talking to %s\n", client.BaseURL())
		return client, func() {}, nil
	}
	srv := chattest.NewServer()
	fmt.Printf("CHAT_APP_ID, CHAT_REGION and CHAT_API_KEY are not set: using the in-memory chattest server at %s\n", srv.URL())
	return srv.Client(), srv.Close, nil
}

// ensureUser creates a user, or updates it when it exists already, so that
// the quickstart can run more than once against the real service.
func ensureUser(ctx context.Context, client *chat.Client, uid, name string) (*chat.User, error) {
	u, err := client.Users.Upsert(ctx, &chat.CreateUserRequest{UID: uid, Name: name})
	if err != nil {
		return nil, fmt.Errorf("creating user %s: %w", uid, err)
	}
	return u, nil
}
