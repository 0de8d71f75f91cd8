package chat

import "github.com/chatrest/chat/internal/rest"

// RolesService manages roles and their (deprecated) restricted features. Get it from [Client.Roles].
type RolesService struct{ rc *rest.Client }
