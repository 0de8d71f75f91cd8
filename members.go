package chat

import "github.com/chatrest/chat/internal/rest"

// MembersService adds, lists, re-scopes and kicks the members of groups. Get it from [Client.Members].
type MembersService struct{ rc *rest.Client }
