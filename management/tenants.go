package management

import "github.com/chatrest/chat/internal/rest"

// TenantsService adds tenants. Get it from [Client.Tenants].
type TenantsService struct{ rc *rest.Client }
