package fake_test

import (
	"github.com/chatrest/chat/chattest/internal/dashboard"
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/journal"
	"github.com/chatrest/chat/chattest/internal/realtime"
	"github.com/chatrest/chat/chattest/internal/requestlog"
)

// The package's tests serve the core with the adapters that import it, as
// package chattest does: the websocket's pushes, the request log, the dashboard and the
// journal.
func init() {
	fake.TestAdapters = append(fake.TestAdapters, func(c *fake.Config) {
		c.Consumers = append(c.Consumers, realtime.Subscriber)
		log := requestlog.New()
		c.RequestLog = log
		c.OpenJournal = journal.Open
		c.Dashboard = func(core *fake.Core) fake.Dashboard { return dashboard.New(core, nil, log, c.LocalNetwork) }
	})
}
