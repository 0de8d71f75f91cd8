package dashboard

import (
	"net"
	"net/http"
	"strings"

	"github.com/chatrest/chat/internal/rest"
)

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
