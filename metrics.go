package chat

import "github.com/chatrest/chat/internal/rest"

// MetricsService reports usage and message metrics. Get it from [Client.Metrics].
type MetricsService struct{ rc *rest.Client }
