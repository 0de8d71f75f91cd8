package fake

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatrest/chat/internal/rest"
)

// TestCoreOperationsMatchTheSDK keeps the fake's table of core operations
// and the SDK's (the class its Limiter waits for) the same: they live in
// two packages, so a test compares them, table to table and route by
// route.
func TestCoreOperationsMatchTheSDK(t *testing.T) {
	var fake []string
	for p := range corePatterns {
		method, path, _ := strings.Cut(p, " ")
		fake = append(fake, method+" "+strings.TrimPrefix(path, "/v3"))
	}
	assert.ElementsMatch(t, fake, rest.CoreOperations())

	for _, rt := range allRoutes() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		path = wildcard.ReplaceAllString(strings.TrimPrefix(path, "/v3"), "x")
		core, _ := rest.Core(method, path)
		assert.Equal(t, classify(rt.pattern) == rateCore, core, "%s", rt.pattern)
	}
}
