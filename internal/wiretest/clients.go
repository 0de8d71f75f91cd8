package wiretest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// The app, key and hosts of the chat client [Chat] makes. The key has the
// shape of a real one (40 hex characters), so that a leak is recognisable.
const (
	AppID    = "myapp"
	APIKey   = "f1915e328e249ffaaafd97fb46a57ba55d233fbf"
	Host     = "myapp.api-us.cometchat.io"
	CallHost = "myapp.call-us.cometchat.io" // the Calls API's own address
)

// The credentials and host of the management client [Management] makes,
// shaped so that a leak is recognisable.
const (
	MgmtKey    = "mk-4f6c2b9e0d1a7c3e5b8f"
	MgmtSecret = "ms-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d"
	MgmtHost   = "apimgmt.cometchat.io"
)

// Chat returns a chat client for AppID and APIKey whose requests go to a
// fresh Mock, answering 200 until told otherwise; retries are off unless
// opts turn them on.
func Chat(t testing.TB, opts ...chat.Option) (*chat.Client, *Mock) {
	t.Helper()
	m := New(t)
	all := append([]chat.Option{chat.WithoutRetries()}, opts...)
	c, err := chat.NewClient(AppID, APIKey, append(all, chat.WithHTTPClient(m.HTTPClient()))...)
	require.NoError(t, err)
	return c, m
}

// Management returns a management client for MgmtKey and MgmtSecret whose
// requests go to a fresh Mock, answering 200 until told otherwise; retries
// are off unless opts turn them on.
func Management(t testing.TB, opts ...chat.Option) (*management.Client, *Mock) {
	t.Helper()
	m := New(t)
	all := append([]chat.Option{chat.WithoutRetries()}, opts...)
	c, err := management.NewClient(MgmtKey, MgmtSecret, append(all, chat.WithHTTPClient(m.HTTPClient()))...)
	require.NoError(t, err)
	return c, m
}

// ChatHost is the host a chat client's request to the escaped path goes
// to: the Calls API's for /v3/calls, the app's otherwise.
func ChatHost(escapedPath string) string {
	if strings.HasPrefix(escapedPath, "/v3/calls") {
		return CallHost
	}
	return Host
}

// ChatWire is the chat client as the runners drive it: [Chat]'s client,
// its requests to [ChatHost], each with its API key.
var ChatWire = Harness[*chat.Client]{
	New: func(t testing.TB) (*Mock, *chat.Client) {
		c, m := Chat(t)
		return m, c
	},
	Host:        ChatHost,
	Credentials: map[string]string{"apikey": APIKey},
}

// ManagementWire is the management client as the runners drive it:
// [Management]'s client, its requests to MgmtHost, each with the key and
// secret and never an apikey.
var ManagementWire = Harness[*management.Client]{
	New: func(t testing.TB) (*Mock, *management.Client) {
		c, m := Management(t)
		return m, c
	},
	Host:        func(string) string { return MgmtHost },
	Credentials: map[string]string{"key": MgmtKey, "secret": MgmtSecret},
	Absent:      []string{"apikey"},
}
