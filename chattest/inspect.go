package chattest

import (
	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// Messages returns every stored message, thread replies and action
// messages included, in id order, as the app sees them (reaction counts
// included, no per-user fields). The copies share nothing with the server.
func (s *Server) Messages() []chat.Message {
	return s.h.core.Messages()
}

// Message returns the stored message id (a decimal string such as "1"), as
// the app sees it.
func (s *Server) Message(id string) (chat.Message, bool) {
	return s.h.core.Message(id)
}

// ManagementApp returns the app id as the management API lists it (the
// fake's own app has id [Server.AppID]); ok is false when there is none.
func (s *Server) ManagementApp(id string) (app management.App, ok bool) {
	return s.h.core.ManagementApp(id)
}

// NotificationLogs returns every notification log entry, oldest first,
// after turning the messages sent since the last notifications call into
// entries (see [chat.NotificationsService.ListLogs] for what the fake
// logs). It is for tests to check which notifications a scenario sent.
func (s *Server) NotificationLogs() []chat.NotificationLog {
	return s.h.core.NotificationLogs()
}

// PushTokens returns the push tokens registered for the user uid, in the
// order registered, as [chat.NotificationsService.ListPushTokens] shows
// them with All. It is for tests to check what an app registered.
func (s *Server) PushTokens(uid string) []chat.PushToken {
	return s.h.core.PushTokens(uid)
}

// Call returns the stored call sessionID as the API shows it.
func (s *Server) Call(sessionID string) (chat.Call, bool) {
	return s.h.core.Call(sessionID)
}

// Group returns the stored group guid (matched case-insensitively) with
// its own fields, tags included, and MembersCount; Scope, HasJoined and
// JoinedAt are left empty. ok is false for an unknown or deleted group.
func (s *Server) Group(guid string) (g chat.Group, ok bool) {
	return s.h.core.Group(guid)
}

// ThreadSubscribers returns the uids subscribed to the thread of the
// message id, sorted.
func (s *Server) ThreadSubscribers(id string) []string {
	return s.h.core.ThreadSubscribers(id)
}

// MessageAs returns the stored message id as the user uid sees it: with
// reactedByMe, and uid's savedAt and interactions.
func (s *Server) MessageAs(id, uid string) (chat.Message, bool) {
	return s.h.core.MessageAs(id, uid)
}

// Friends returns the uids of uid's friends, in the order they became
// friends, deleted and deactivated users included.
func (s *Server) Friends(uid string) []string {
	return s.h.core.Friends(uid)
}

// Blocked returns the uids blocker has blocked, in the order blocked.
func (s *Server) Blocked(blocker string) []string {
	return s.h.core.Blocked(blocker)
}

// Role returns the stored role (matched case-insensitively); the "default"
// role always exists.
func (s *Server) Role(role string) (chat.Role, bool) {
	return s.h.core.Role(role)
}

// RolePermissions returns the role permissions in force for role: every
// role permission, at its default or as set.
func (s *Server) RolePermissions(role string) map[string]any {
	return s.h.core.RolePermissions(role)
}

// ScopePermissions returns the scope permissions in force for the members
// of the group guid with scope.
func (s *Server) ScopePermissions(guid string, scope chat.MemberScope) map[string]any {
	return s.h.core.ScopePermissions(guid, scope)
}

// Conversation returns the conversation conversationID (e.g.
// "alice_user_bob" or "group_team") as the API shows it to the user uid,
// tags included. ok is false when uid does not own it or cannot see it
// (no message yet, or reset since the last one).
func (s *Server) Conversation(uid, conversationID string) (c chat.Conversation, ok bool) {
	return s.h.core.Conversation(uid, conversationID)
}

// User returns the stored user uid (matched case-insensitively) with all its
// fields, tags included, whether deactivated (or soft-deleted, which
// deactivates) or not. ok is false for an unknown or permanently deleted
// user.
func (s *Server) User(uid string) (u chat.User, ok bool) {
	return s.h.core.User(uid)
}

// MessageFlag is a user's report of a message, as [Server.MessageFlags]
// returns it.
type MessageFlag struct {
	// UID is the user who flagged the message.
	UID string
	// ReasonID is the moderation reason given.
	ReasonID string
	// Remark is the user's comment, if any.
	Remark string
	// FlaggedAt is when the message was (last) flagged by UID.
	FlaggedAt chat.Timestamp
}

// MessageFlags returns the flags users put on the message id, in the order
// first flagged.
func (s *Server) MessageFlags(id string) []MessageFlag {
	flags := s.h.core.MessageFlags(id)
	if flags == nil {
		return nil
	}
	out := make([]MessageFlag, len(flags))
	for i, f := range flags {
		out[i] = MessageFlag(f)
	}
	return out
}
