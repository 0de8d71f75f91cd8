package fake_test

import (
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/realtime"
	"github.com/chatrest/chat/chattest/internal/requestlog"
)

// The package's tests serve the core with the adapters that import it, as
// package chattest does: the websocket's pushes and the request log.
func init() {
	fake.TestAdapters = append(fake.TestAdapters, func(c *fake.Config) {
		c.Consumers = append(c.Consumers, realtime.Subscriber)
		c.RequestLog = requestlog.New()
	})
}
