package management

import "github.com/chatrest/chat/internal/rest"

// AppsService creates, lists and deletes apps and requests usage reports. Get it from [Client.Apps].
type AppsService struct{ rc *rest.Client }
