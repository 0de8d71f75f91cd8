package chat

import "github.com/chatrest/chat/internal/rest"

// PermissionsService manages role permissions and group-scope permissions (RBAC). Get it from [Client.Permissions].
type PermissionsService struct{ rc *rest.Client }
