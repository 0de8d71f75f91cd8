package chat

import "github.com/chatrest/chat/internal/rest"

// BansService bans users from groups, unbans them and lists the banned. Get it from [Client.Bans].
type BansService struct{ rc *rest.Client }
