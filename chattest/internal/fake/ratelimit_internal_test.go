package fake

import "testing"

func TestClassify(t *testing.T) {
	cases := map[string]rateClass{
		"POST /v3/users":                         rateCore,
		"DELETE /v3/users/{uid}":                 rateCore,
		"POST /v3/groups":                        rateCore,
		"POST /v3/groups/{guid}/members":         rateCore,
		"POST /v3/groups/{id}/members":           rateCore, // whatever the wildcard's name
		"DELETE /v3/users":                       rateStandard,
		"PUT /v3/users/{uid}":                    rateStandard,
		"GET /v3/users/{uid}":                    rateStandard,
		"POST /v3/users/{uid}/auth_tokens":       rateStandard,
		"GET /v3/groups/{guid}/members":          rateStandard,
		"DELETE /v3/groups/{guid}/members/{uid}": rateStandard,
		"DELETE /v3/groups/{guid}":               rateStandard,
		"POST /v3/messages":                      rateStandard,
		"":                                       rateStandard, // no route matched
	}
	for pattern, want := range cases {
		if got := classify(pattern); got != want {
			t.Errorf("classify(%q) = %v, want %v", pattern, got, want)
		}
	}
	// Every registered core route is one of the four core operations.
	for _, rt := range allRoutes() {
		if classify(rt.pattern) == rateCore && cases[rt.pattern] != rateCore {
			t.Errorf("route %q is core", rt.pattern)
		}
	}
}
