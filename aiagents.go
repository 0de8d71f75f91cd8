package chat

import "github.com/chatrest/chat/internal/rest"

// AIAgentsService manages AI agents. Get it from [Client.AIAgents].
type AIAgentsService struct{ rc *rest.Client }
