package chat

import "github.com/chatrest/chat/internal/rest"

// ConversationsService lists conversations and reads, tags, pins and marks them for a user. Get it from [Client.Conversations].
type ConversationsService struct{ rc *rest.Client }
