package management

import "github.com/chatrest/chat/internal/rest"

// SettingsService manages an app's settings. Get it from [Client.Settings].
type SettingsService struct{ rc *rest.Client }
