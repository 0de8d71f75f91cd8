package chattest

import (
	"crypto/subtle"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// WithManagementCredentials sets the management key and secret the fake's
// management API accepts (defaults: 40 random hex characters each, kept in
// the store with [WithStore]). Both must be
// printable ASCII without spaces; NewServer keeps the defaults otherwise,
// and [Server.ManagementKey] and [Server.ManagementSecret] report the
// values in use.
func WithManagementCredentials(key, secret string) Option {
	return func(c *config) { c.mgmtKey, c.mgmtSecret = key, secret }
}

// newMgmtMux serves the management routes, sharing the state, the faults
// and the request log of the chat API.
func (h *Handler) newMgmtMux() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range allMgmtRoutes() {
		mux.Handle(rt.pattern, h.endpoint(rt))
		h.routes[rt.pattern] = true
	}
	notFound := h.endpoint(route{auth: authMgmt, handle: (*state).notFound})
	mux.Handle("/", notFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; !strings.HasPrefix(p, "/") || cleanPath(p) != p {
			notFound.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// Management is the fake's Management API as an [http.Handler] (paths
// /apps/... and /tenants, no version prefix), authenticated with the
// management key and secret. It shares the handler's state: the fake's own
// app is one of its apps, and webhooks created through it receive the
// deliveries of that app's events.
func (h *Handler) Management() http.Handler { return h.mgmt }

// ManagementKey is the management key the handler accepts.
func (h *Handler) ManagementKey() string { return h.mgmtKey }

// ManagementSecret is the management secret the handler accepts.
func (h *Handler) ManagementSecret() string { return h.mgmtSecret }

// authorizeMgmt checks a management route's credentials: the key and
// secret headers, or for add-tenant HTTP Basic auth with the key as user
// name and the secret as password (see CHOICES.md).
func (st *state) authorizeMgmt(rt route, c *call) error {
	if rt.auth == authBasic {
		user, pass, ok := c.r.BasicAuth()
		if !ok {
			return errMgmtEmptyAuth()
		}
		if !secretEqual(user, st.mgmtKey) || !secretEqual(pass, st.mgmtSecret) {
			return errMgmtBadCredentials()
		}
		return nil
	}
	key, secret := c.r.Header.Get("key"), c.r.Header.Get("secret")
	if key == "" || secret == "" {
		return errMgmtEmptyAuth()
	}
	if !secretEqual(key, st.mgmtKey) || !secretEqual(secret, st.mgmtSecret) {
		return errMgmtBadCredentials()
	}
	return nil
}

func secretEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func errMgmtEmptyAuth() *apiError {
	return newAPIError(http.StatusUnauthorized, "AUTH_ERR_EMPTY_AUTH_HEADER",
		"The management credentials are missing.",
		"Send the management key and secret in the key and secret headers.")
}

func errMgmtBadCredentials() *apiError {
	return newAPIError(http.StatusUnauthorized, "AUTH_ERR_APIKEY_NOT_FOUND",
		"The management key or secret is not valid.",
		"Check the management key and secret.")
}

// startMgmt starts the management API's HTTPS server beside the chat API's.
func (s *Server) startMgmt() {
	s.mts = httptest.NewUnstartedServer(s.h.mgmt)
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
func (s *Server) ManagementKey() string { return s.h.mgmtKey }

// ManagementSecret is the management secret the server accepts.
func (s *Server) ManagementSecret() string { return s.h.mgmtSecret }

// ManagementClient returns a [management.Client] for the fake's Management
// API with its key and secret, over a transport that trusts the server's
// certificate; opts are applied after those settings. Like [Server.Client]
// it never returns nil: if opts are invalid, every call fails with an error
// wrapping the [*chat.ArgumentError].
func (s *Server) ManagementClient(opts ...chat.Option) *management.Client {
	return s.ManagementClientWith(s.h.mgmtKey, s.h.mgmtSecret, opts...)
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
	c, err = management.NewClient(s.h.mgmtKey, s.h.mgmtSecret, chat.WithBaseURL(s.ManagementURL()),
		chat.WithHTTPClient(broken), chat.WithoutRetries())
	if err != nil {
		panic("chattest: unreachable: " + err.Error())
	}
	return c
}
