package management

import "github.com/chatrest/chat/internal/rest"

// WebhooksService manages webhooks and their triggers. Get it from [Client.Webhooks].
type WebhooksService struct{ rc *rest.Client }
