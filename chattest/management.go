package chattest

import (
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// The account behind the management key and secret: the owner of the fake's
// own app and of the apps created with [management.AppsService.Create].
const (
	// ManagementOwnerEmail is the email address of the account the
	// management credentials belong to. Adding it as a collaborator is
	// refused with ERR_SELF_ACTION_DENIED.
	ManagementOwnerEmail = "owner@chattest.example"
)

// MaxManagementApps is how many active apps the fake's account may have,
// its own app and tenants' apps included; creating one more fails with 403
// ERR_APP_CREATION_FAILED_MAX_LIMIT. Archived apps do not count.
const MaxManagementApps = 10

// startMgmt starts the management API's HTTPS server beside the chat API's.
func (s *Server) startMgmt() {
	s.mts = httptest.NewUnstartedServer(s.h.core.Management())
	s.mts.EnableHTTP2 = true
	s.mts.Config.ErrorLog = log.New(quietHandshakes{os.Stderr}, "", log.LstdFlags)
	s.mts.TLS = s.ts.TLS // the same certificate, so one pool trusts both
	s.mts.StartTLS()
}

// ManagementURL is the address of the fake's Management API, e.g.
// "https://127.0.0.1:41235": pass it to [chat.WithBaseURL]. It uses
// the same certificate as [Server.URL].
func (s *Server) ManagementURL() string { return s.mts.URL }

// ManagementKey is the management key the server accepts.
func (s *Server) ManagementKey() string { return s.h.ManagementKey() }

// ManagementSecret is the management secret the server accepts.
func (s *Server) ManagementSecret() string { return s.h.ManagementSecret() }

// ManagementClient returns a [management.Client] for the fake's Management
// API with its key and secret, over a transport that trusts the server's
// certificate; opts are applied after those settings. Like [Server.Client]
// it never returns nil: if opts are invalid, every call fails with an error
// wrapping the [*chat.ArgumentError].
func (s *Server) ManagementClient(opts ...chat.Option) *management.Client {
	return s.ManagementClientWith(s.h.ManagementKey(), s.h.ManagementSecret(), opts...)
}

// ManagementClientWith is [Server.ManagementClient] with other credentials,
// e.g. wrong ones.
func (s *Server) ManagementClientWith(key, secret string, opts ...chat.Option) *management.Client {
	base := []chat.Option{chat.WithBaseURL(s.ManagementURL()), chat.WithHTTPClient(&http.Client{Transport: s.transport()})}
	c, err := management.NewClient(key, secret, append(base, opts...)...)
	if err == nil {
		return c
	}
	broken := &http.Client{Transport: failingTransport{wrapClientErr("management.NewClient", err)}}
	c, err = management.NewClient(s.h.ManagementKey(), s.h.ManagementSecret(), chat.WithBaseURL(s.ManagementURL()),
		chat.WithHTTPClient(broken), chat.WithoutRetries())
	if err != nil {
		panic("chattest: unreachable: " + err.Error())
	}
	return c
}
