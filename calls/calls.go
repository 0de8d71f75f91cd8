// Package calls is the Calls API: the calls made in an app, their
// participants, recordings and transcriptions. It is served on its own
// address, https://{appId}.call-{region}.cometchat.io/v3, with the app's
// API key; use it through [github.com/chatrest/chat.Client.Calls].
package calls

import "github.com/chatrest/chat/internal/rest"

// Service lists calls and their transcriptions. Get it from
// [github.com/chatrest/chat.Client.Calls]; it is safe for concurrent use.
type Service struct{ rc *rest.Client }

// NewService returns the service that sends through rc. It is how
// [github.com/chatrest/chat.NewClient] builds [github.com/chatrest/chat.Client.Calls];
// use that instead.
func NewService(rc *rest.Client) *Service { return &Service{rc: rc} }
