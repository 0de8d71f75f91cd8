package fake_test

import (
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/realtime"
)

// The package's tests serve the core with the websocket's pushes, an
// adapter that imports the core, as package chattest does.
func init() {
	fake.TestConsumers = append(fake.TestConsumers, realtime.Subscriber)
}
