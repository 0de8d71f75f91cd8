package chat

import "github.com/chatrest/chat/internal/rest"

// FriendsService manages users' friend lists. Get it from [Client.Friends].
type FriendsService struct{ rc *rest.Client }
