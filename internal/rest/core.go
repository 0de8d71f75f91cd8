package rest

import (
	"slices"
	"strings"
)

// coreOperations are the operations the service counts as core: creating
// and deleting a user, creating a group, and joining one, which for the
// REST API is adding members. chattest counts the same routes (its
// corePatterns; a test keeps the two tables equal). "{}" is one path
// segment.
var coreOperations = []string{
	"POST /users",
	"DELETE /users/{}",
	"POST /groups",
	"POST /groups/{}/members",
}

// coreSegments is coreOperations split into method and path segments.
var coreSegments = func() [][]string {
	out := make([][]string, len(coreOperations))
	for i, op := range coreOperations {
		method, p, _ := strings.Cut(op, " ")
		out[i] = append([]string{method}, strings.Split(strings.TrimPrefix(p, "/"), "/")...)
	}
	return out
}()

// CoreOperations returns the operations counted as core, as "METHOD /path"
// patterns relative to the API's version prefix, with "{}" for a path
// parameter.
func CoreOperations() []string { return slices.Clone(coreOperations) }

// ownBudgetPrefix starts the paths of the data import endpoints, whose
// answers report a budget of their own (60 requests a minute per endpoint),
// not their class's: they wait for a standard permit, but the limiter does
// not learn from them.
const ownBudgetPrefix = "/data_import/"

// Core reports, for a request with this method and escaped path
// (relative to the version prefix), whether it is a core operation, and
// whether its answers report its class's budget (the data import
// endpoints' report their own).
func Core(method, escapedPath string) (core, observe bool) {
	if strings.HasPrefix(escapedPath, ownBudgetPrefix) {
		return false, false
	}
	segs := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	for _, op := range coreSegments {
		if op[0] == method && matchSegments(op[1:], segs) {
			return true, true
		}
	}
	return false, true
}

func matchSegments(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, p := range pattern {
		if p != "{}" && p != segs[i] || segs[i] == "" {
			return false
		}
	}
	return true
}
