module github.com/chatrest/chat/e2e

go 1.26.0

// The end-to-end tests always run against the SDK beside them.
replace github.com/chatrest/chat => ../
