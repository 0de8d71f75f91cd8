package fake

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// newMgmtMux serves the management routes, sharing the state, the faults
// and the request log of the chat API.
func (h *Core) newMgmtMux() http.Handler {
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
func (h *Core) Management() http.Handler { return h.mgmt }

// ManagementKey is the management key the handler accepts.
func (h *Core) ManagementKey() string { return h.mgmtKey }

// ManagementSecret is the management secret the handler accepts.
func (h *Core) ManagementSecret() string { return h.mgmtSecret }

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
