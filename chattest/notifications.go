package chattest

// notificationsState holds notification settings, providers, preferences,
// push tokens and logs.
type notificationsState struct{}

func (n *notificationsState) init() {}

func notificationRoutes() []route { return nil }
