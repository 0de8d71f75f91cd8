package chat

import "github.com/chatrest/chat/internal/rest"

// BlockedService manages the users a user has blocked. Get it from [Client.Blocked].
type BlockedService struct{ rc *rest.Client }
