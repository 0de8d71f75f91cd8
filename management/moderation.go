package management

import "github.com/chatrest/chat/internal/rest"

// ModerationService is the deprecated management variant of moderation. Get it from [Client.Moderation].
type ModerationService struct{ rc *rest.Client }
