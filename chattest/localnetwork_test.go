package chattest_test

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// interfaceIP returns an IPv4 address of one of the machine's network
// interfaces other than loopback.
func interfaceIP(t *testing.T) net.IP {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP
		}
	}
	t.Skip("this machine has no network interface besides loopback to receive on")
	return nil
}

// A receiver on the machine's network is called only with
// WithLocalNetwork; an address beyond the machine's networks never is, and
// no connection is attempted. (The receiver here only counts connections:
// the delivery itself then fails.)
func TestWebhookLocalNetwork(t *testing.T) {
	ip := interfaceIP(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
	require.NoError(t, err)
	defer ln.Close()
	conns := make(chan struct{}, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- struct{}{}
			c.Close()
		}
	}()
	lan := "https://" + ln.Addr().String() + "/in"
	// TEST-NET-3: on no network of this machine (as 192.0.2.0/24 may be).
	const beyond = "https://203.0.113.9:8443/in"

	cases := []struct {
		name    string
		opts    []chattest.Option
		wantErr error
	}{
		{"loopback only", nil, chattest.ErrNotLoopback},
		{"WithLocalNetwork", []chattest.Option{chattest.WithLocalNetwork()}, chattest.ErrNotLocalNetwork},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, client := start(t, tc.opts...)
			seed(srv, "alice", "bob")
			hookTo(t, srv, "lan", lan, "message_sent")
			hookTo(t, srv, "far", beyond, "message_sent")
			_, err := client.Messages.Send(t.Context(), toUser("bob", "hi"), chat.OnBehalfOf("alice"))
			require.NoError(t, err)
			awaitHooks(t, srv, 2)
			ds := srv.Deliveries()
			require.Len(t, ds, 2)
			near, far := ds[0], ds[1]
			require.Equal(t, "lan", near.WebhookID)
			assert.Equal(t, chattest.DeliveryFailed, far.State)
			assert.ErrorIs(t, far.Err, tc.wantErr, "refused before connecting")
			assert.Zero(t, far.StatusCode)
			if tc.wantErr == chattest.ErrNotLoopback {
				assert.ErrorIs(t, near.Err, chattest.ErrNotLoopback)
				assert.Zero(t, near.Attempts)
				assert.Empty(t, conns, "no connection")
				return
			}
			assert.Equal(t, 1, near.Attempts)
			assert.NotErrorIs(t, near.Err, chattest.ErrNotLocalNetwork)
			assert.Len(t, conns, 1, "the receiver on the machine's network was called")
		})
	}
}
