package management

import "github.com/chatrest/chat/internal/rest"

// CollaboratorsService manages an app's collaborators. Get it from [Client.Collaborators].
type CollaboratorsService struct{ rc *rest.Client }
