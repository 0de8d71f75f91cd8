// Command chat is the command line of the chat platform, for the people who
// run an app on it and for their scripts: look up and manage users, mint
// auth tokens, send messages and threaded replies on a user's behalf, see
// groups and their members, manage API keys, and, through the management
// API, apps and webhooks. It migrates a whole community onto the platform
// with the Data Import API: users, groups, members and messages from JSON
// Lines or CSV files, paced at the app's budget, resumable after a kill, a
// crash or a network failure.
//
// Install it with
//
//	go install github.com/chatrest/chat/cmd/chat@latest
//
// and run "chat --help" for the commands, the configuration (environment,
// flags and profiles) and the exit statuses.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
