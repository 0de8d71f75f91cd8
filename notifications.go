package chat

import "github.com/chatrest/chat/internal/rest"

// NotificationsService manages push, email and SMS notifications. Get it from [Client.Notifications].
type NotificationsService struct{ rc *rest.Client }
