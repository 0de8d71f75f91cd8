package fake

import (
	"path"
	"strings"
)

// allRoutes lists every collection's routes.
func allRoutes() []route {
	var routes []route
	routes = append(routes, userRoutes()...)
	routes = append(routes, authTokenRoutes()...)
	routes = append(routes, apiKeyRoutes()...)
	routes = append(routes, messageRoutes()...)
	routes = append(routes, groupRoutes()...)
	routes = append(routes, extraMessageRoutes()...)
	routes = append(routes, socialRoutes()...)
	routes = append(routes, callRoutes()...)
	routes = append(routes, notificationRoutes()...)
	routes = append(routes, moderationRuleRoutes()...)
	routes = append(routes, moderationMessageRoutes()...)
	routes = append(routes, dataImportRoutes()...)
	routes = append(routes, metricsRoutes()...)
	routes = append(routes, aiAgentRoutes()...)
	return append(routes, clientRoutes(routes)...)
}

// allMgmtRoutes lists the management API's routes, served by
// [Core.Management].
func allMgmtRoutes() []route {
	var routes []route
	routes = append(routes, mgmtAppRoutes()...)
	routes = append(routes, mgmtWebhookRoutes()...)
	routes = append(routes, mgmtModerationRoutes()...)
	for i := range routes {
		if routes[i].auth == authAPIKey {
			routes[i].auth = authMgmt
		}
	}
	return routes
}

// oboRule says what an operation does with the onBehalfOf header.
type oboRule int

const (
	oboIgnored  oboRule = iota // the operation takes no onBehalfOf: the header is ignored
	oboOptional                // when present, it must name an active user
	oboRequired                // it must be present and name an active user
)

// route is one operation: its ServeMux pattern, who may call it, what it
// reaches (the access policy decides from it whether the acting user may
// call it: policy.go) and its handler. Each collection's file lists its
// routes.
type route struct {
	pattern  string
	authOnly bool // an authOnly key may call it too
	obo      oboRule
	auth     authKind // how the caller authenticates; zero: the apikey header
	reach    reach
	handle   func(*state, *call) (any, error)
}

// authKind says how a route authenticates its caller.
type authKind int

const (
	authAPIKey authKind = iota // the app's apikey header (chat and calls APIs)
	authMgmt                   // the management key and secret headers
	authBasic                  // HTTP Basic auth with the management key and secret (add-tenant)
	authClient                 // the appId and authToken headers of the client API (client_api.go)
)

// cleanPath is path.Clean keeping a trailing slash, as ServeMux cleans.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

func (st *state) notFound(c *call) (any, error) {
	return nil, errAPINotFound(c.r.Method, c.r.URL.Path)
}
