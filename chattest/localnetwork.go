package chattest

import (
	"net"
	"net/http"
	"strings"

	"github.com/chatrest/chat/internal/rest"
)

// WithLocalNetwork opens the fake to the networks of the machine it runs
// on, e.g. for the other containers of a compose setup: its dashboard
// (/_chattest/) answers clients on any address instead of loopback ones
// only, and its webhook deliveries may go to receivers whose address is on
// the network of one of the machine's interfaces (as a host name in a
// webhook URL resolves when the delivery is made) instead of loopback ones
// only. Any other receiver is refused with [ErrNotLocalNetwork], without a
// connection. Without this option, the fake only answers the dashboard to
// loopback clients and only delivers to loopback receivers.
//
// The fake has no real security: serve it with this option only on a
// network you trust.
func WithLocalNetwork() Option { return func(c *config) { c.localNetwork = true } }

// loopbackRequest reports whether r came from a loopback address, and was
// addressed to a loopback name: a page of a web site that a browser on the
// machine was made to point at the fake (DNS rebinding) names another
// host.
func loopbackRequest(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return false
	}
	name := r.Host
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	return rest.IsLoopback(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
}
