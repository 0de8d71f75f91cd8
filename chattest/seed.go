package chattest

import (
	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
)

// AddAPIKey creates an API key without going through the API and returns
// it; scope defaults to authOnly when empty. Unlike the API it neither
// validates name and scope nor enforces the limit of 25 keys per app.
func (s *Server) AddAPIKey(name string, scope chat.Scope) chat.APIKey {
	return s.h.core.AddAPIKey(name, scope)
}

// AddManagementApp creates an app of the management account without going
// through the API, as POST /apps does (its id derives from name, with two
// new API keys), and returns it as the API lists it. Like the API it
// refuses beyond [MaxManagementApps] active apps, with an error; unlike it,
// it validates neither name nor region. The app is a record: the chat API
// serves only the fake's own app.
func (s *Server) AddManagementApp(name string, region chat.Region) (management.App, error) {
	return s.h.core.AddManagementApp(name, region)
}

// EnableExtensions enables extensions of the app appID without going
// through the API, e.g. before a test stores their settings. It reports
// false, enabling nothing, when the app does not exist or an id is not one
// of [management.KnownExtensionIDs].
func (s *Server) EnableExtensions(appID string, ids ...management.ExtensionID) bool {
	return s.h.core.EnableExtensions(appID, ids...)
}

// AddCall stores c as a call of the app, as if it had been made, and
// returns it as stored; the calls API (client.Calls) then lists and gets
// it. It fires the webhook triggers a real call would, in order:
// call_initiated (mode "call" only), call_started or meeting_started (when
// the call started), call_participant_joined / _left or their meeting_
// counterparts (per participant, as they joined and left), call_ended or
// meeting_ended (when it ended), and recording_generated per recording.
// Meetings are the modes "meet" and "presenter".
//
// Missing values are filled in: SessionID (a new "v1.us.{appId}...." id),
// Type "audio", Mode "call", ReceiverType "user", Status from the times
// (ended when EndedAt is set, ongoing when StartedAt is, else initiated),
// InitiatedAt (StartedAt, or the server's time), MID, and for each
// participant IsJoined, State, MID and minutes (from JoinedAt to LeftAt, or
// to the call's end), and the call's totals from its participants, its
// TotalDuration timer from StartedAt to EndedAt, HasRecording from
// Recordings, and each recording's RID and Duration. UIDs are lower-cased.
// Transcriptions in c are stored as [Server.AddTranscription] stores them.
//
// AddCall returns an error, and stores nothing, when c is not a call the
// API could have: an Initiator missing, a Receiver missing for mode "call",
// a type, mode, status, receiver type or participant state that package
// chat does not name, more than 50 participants, a participant without UID,
// times out of order, MetaData that is not JSON, or a SessionID already
// stored.
func (s *Server) AddCall(c chat.Call) (chat.Call, error) {
	return s.h.core.AddCall(c)
}

// AddTranscription stores t as a transcription of the call sessionID, as
// if it had just been generated, and fires transcription_generated. The
// call's HasTranscription becomes true. Missing values are filled in: TID
// (a new id), RoomName (the session id), TranscriptDate (the server's
// time, ISO-8601), StartTime and EndTime (the call's start and end). It
// returns an error, and stores nothing, for an unknown call, a TID the
// call already has, or an EndTime before StartTime.
func (s *Server) AddTranscription(sessionID string, t chat.CallTranscription) error {
	return s.h.core.AddTranscription(sessionID, t)
}

// AddGroup stores g without going through the API, with members, and
// returns it as stored: GUID and Owner lower-cased, Type "public" when
// empty, ConversationID "group_{guid}", CreatedAt the server's time when
// zero, UpdatedAt CreatedAt when zero (a group whose UpdatedAt differs
// from CreatedAt shows it, as one updated through the API does),
// MembersCount counted, and Scope,
// HasJoined and JoinedAt cleared (answers compute them for the acting
// user). An empty Owner is app_system, as when the API creates a group
// without owner and onBehalfOf. A group with the same guid is replaced,
// members and bans included; no action messages are emitted.
//
// A user Owner is a member with scope admin. Each of members is a UID,
// optionally followed by ":admin", ":moderator" or ":participant" (the
// default), e.g. "bob:moderator". Members join at CreatedAt, in the order
// given. AddGroup does not validate g, and members need not be users yet,
// but only members that are active users are listed and counted. A
// GroupPassword group seeded here has no password: give it one with
// [chat.GroupsService.Update]. Metadata must be JSON-encodable.
func (s *Server) AddGroup(g chat.Group, members ...string) chat.Group {
	return s.h.core.AddGroup(g, members...)
}

// AddMessage stores m without going through the API, with the next
// message id, and returns it as stored: Sender and Receiver lower-cased,
// Sender "app_system" when empty, Category "message" and Type "text" when
// empty, ConversationID computed from the sender and receiver when empty,
// SentAt the server's time when zero, UpdatedAt SentAt when zero. A
// ParentID naming a stored message that is not a reply makes m a reply in
// its thread (the parent's ReplyCount and LastReply follow); any other
// ParentID is dropped. Data.Reactions, Data.Interactions, ReplyCount and
// LastReply are computed by the server and ignored; PinnedBy and PinnedAt
// are kept (and count towards the conversation's pin limit); SavedAt is
// dropped.
//
// AddMessage does not validate m: its sender and receiver need not exist,
// and no receiver rule (membership, blocks) applies. Data.Entities is kept
// as given. m must be JSON-encodable.
func (s *Server) AddMessage(m chat.Message) chat.Message {
	return s.h.core.AddMessage(m)
}

// AddFriends makes uid and each of friends friends (both ways), without
// going through the API; existing friendships are kept. UIDs are
// lower-cased and need not be users yet, but only active users are listed.
// The limit of 1000 friends is not enforced.
func (s *Server) AddFriends(uid string, friends ...string) {
	s.h.core.AddFriends(uid, friends...)
}

// Block makes blocker block blocked, without going through the API, as of
// the server's time; blocking again keeps the first time. Messages call
// isBlocked, so a blocked user's messages to blocker are refused.
func (s *Server) Block(blocker, blocked string) {
	s.h.core.Block(blocker, blocked)
}

// AddRole stores r without going through the API and returns it as stored:
// Role lower-cased, Name the role id when empty, CreatedAt the server's
// time when zero, UpdatedAt CreatedAt when zero. A role with the same id
// ("default" included) is replaced, keeping its place in the list. AddRole
// does not validate r nor enforce the limit of 25 roles; its Metadata must
// be JSON-encodable.
func (s *Server) AddRole(r chat.Role) chat.Role {
	return s.h.core.AddRole(r)
}

// SetRolePermissions sets permissions of role without going through the
// API (or checking that the role exists), keyed by permission id with a
// string or []string value each; values are not checked against the
// definitions. A nil value returns the permission to its default.
func (s *Server) SetRolePermissions(role string, perms map[string]any) {
	s.h.core.SetRolePermissions(role, perms)
}

// SetScopePermissions sets permissions of the members of the group guid
// with scope, as [Server.SetRolePermissions] does for roles.
func (s *Server) SetScopePermissions(guid string, scope chat.MemberScope, perms map[string]any) {
	s.h.core.SetScopePermissions(guid, scope, perms)
}

// AddModerationReason stores r without going through the API and returns
// it as stored: CreatedAt the server's time when zero, UpdatedAt CreatedAt
// when zero. Set Default for a built-in reason. A reason with the same id
// is replaced, keeping its place in the list.
func (s *Server) AddModerationReason(r chat.ModerationReason) chat.ModerationReason {
	return s.h.core.AddModerationReason(r)
}

// AddUser stores u as an active user without going through the API, and
// returns it as stored: UID lower-cased, Role "default" and Status "offline"
// when empty, CreatedAt the server's time when zero, UpdatedAt CreatedAt
// when zero (a user whose UpdatedAt differs from CreatedAt shows it, as
// one updated through the API does), AuthToken dropped. A user with the
// same uid, deactivated or not, is replaced, auth tokens included. AddUser does not
// validate u; its Metadata must be JSON-encodable.
func (s *Server) AddUser(u chat.User) chat.User {
	return s.h.core.AddUser(u)
}
