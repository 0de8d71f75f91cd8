package chat

import "github.com/chatrest/chat/internal/rest"

// GroupsService manages groups. Get it from [Client.Groups].
type GroupsService struct{ rc *rest.Client }

// GroupType is a group's access type.
type GroupType string

// Group types.
const (
	GroupPublic   GroupType = "public"   // anyone may join
	GroupPassword GroupType = "password" // joining needs the password
	GroupPrivate  GroupType = "private"  // members are added by admins
)

// MemberScope is a member's scope in a group.
type MemberScope string

// Member scopes.
const (
	MemberAdmin       MemberScope = "admin"
	MemberModerator   MemberScope = "moderator"
	MemberParticipant MemberScope = "participant"
)

// Group is a group of users. Scope, HasJoined and JoinedAt are relative to
// the acting user (onBehalfOf).
type Group struct {
	// GUID is the group's id: up to 100 characters of a-z, 0-9, - and _,
	// lower-cased by the service.
	GUID        string    `json:"guid"`
	Name        string    `json:"name,omitempty"`
	Description string    `json:"description,omitempty"`
	Icon        string    `json:"icon,omitempty"`
	Type        GroupType `json:"type,omitempty"`
	// Scope is the acting user's scope, when they are a member.
	Scope MemberScope `json:"scope,omitempty"`
	// MembersCount is the number of members.
	MembersCount int `json:"membersCount,omitempty"`
	// JoinedAt is when the acting user joined.
	JoinedAt Timestamp `json:"joinedAt,omitempty"`
	// HasJoined reports whether the acting user is a member.
	HasJoined bool `json:"hasJoined,omitempty"`
	// ConversationID is "group_{guid}".
	ConversationID string `json:"conversationId,omitempty"`
	// Owner is the owner's UID.
	Owner     string         `json:"owner,omitempty"`
	Tags      []string       `json:"tags,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt Timestamp      `json:"createdAt,omitempty"`
	UpdatedAt Timestamp      `json:"updatedAt,omitempty"`
	// UpdatedBy is the UID of who last changed the group.
	UpdatedBy string `json:"updatedBy,omitempty"`
}
