package chattest

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

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

// ErrNotLocalNetwork is the error of a delivery, under [WithLocalNetwork],
// to a webhook URL that is not http or https, or whose host is neither a
// loopback address nor on the network of one of the machine's interfaces:
// the fake records it as failed without calling it.
var ErrNotLocalNetwork = errors.New("chattest: not delivered: the fake only calls loopback addresses and the networks of its machine's interfaces")

// refuse returns why a delivery to the webhook URL raw is not made, or nil
// when it may be attempted. Under WithLocalNetwork, the address the URL's
// host resolves to is checked when the delivery connects (localOnly).
func (d *deliveryState) refuse(raw string) error {
	if !d.localNetwork {
		if !loopbackURL(raw) {
			return ErrNotLoopback
		}
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
		return ErrNotLocalNetwork
	}
	return nil
}

// dialControl is the check every delivery's connection passes before it
// is made: loopbackOnly, or localOnly under WithLocalNetwork.
func (d *deliveryState) dialControl() func(network, address string, c syscall.RawConn) error {
	if d.localNetwork {
		return localOnly
	}
	return loopbackOnly
}

// localOnly refuses to connect to any address but a loopback one or one on
// the network of an interface of the machine.
func localOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || onLocalNetwork(ip)) {
		return nil
	}
	return ErrNotLocalNetwork
}

// onLocalNetwork reports whether ip is a unicast address on the network of
// one of the machine's interfaces, as they are now. Link-local addresses
// (169.254.0.0/16, fe80::/10) are never local networks here: they reach
// cloud metadata services rather than receivers.
func onLocalNetwork(ip net.IP) bool {
	if ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || ip.Equal(net.IPv4bcast) {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() && n.Contains(ip) {
			return true
		}
	}
	return false
}

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
