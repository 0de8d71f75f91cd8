package engine

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a goroutine is still running
// after they end: no test, client call or fake server may leave one behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
