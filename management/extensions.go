package management

import "github.com/chatrest/chat/internal/rest"

// ExtensionsService lists, enables and configures extensions. Get it from [Client.Extensions].
type ExtensionsService struct{ rc *rest.Client }
