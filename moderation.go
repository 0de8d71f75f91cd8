package chat

import "github.com/chatrest/chat/internal/rest"

// ModerationService manages moderation reasons, used when flagging messages. Get it from [Client.Moderation].
type ModerationService struct{ rc *rest.Client }
