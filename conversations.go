package chat

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// ConversationsService lists conversations and reads, tags, pins and marks
// them for a user. Get it from [Client.Conversations].
//
// A conversation belongs to a user: the one-on-one conversation of Alice and
// Bob is one conversation with two owners, each with their own unread count,
// tags, pin and read marks. The per-conversation operations therefore take
// the owner as their onBehalfOf argument, and the other party (a user's uid
// or a group's guid) as the path id.
type ConversationsService struct{ c *caller }

// ConversationType says whether a conversation is with a user or a group.
type ConversationType string

// Conversation types.
const (
	ConversationUser  ConversationType = "user"
	ConversationGroup ConversationType = "group"
)

// Conversation is a user's one-on-one or group conversation, as the acting
// user (onBehalfOf) sees it.
//
// The pin operations and the app-pinned list return only ConversationID,
// ConversationType, PinnedBy and PinnedAt.
type Conversation struct {
	// ConversationID is "{uidA}_user_{uidB}" (the uids sorted) for
	// one-on-one conversations and "group_{guid}" for groups.
	ConversationID string `json:"conversationId"`
	// ConversationType says whether ConversationWith is a user or a group.
	ConversationType ConversationType `json:"conversationType,omitempty"`
	// UnreadMessageCount is the number of messages to the acting user after
	// their read mark. The API sends it as a string ("0"); the client
	// decodes it as a number.
	UnreadMessageCount int `json:"unreadMessageCount"`
	// CreatedAt is when the conversation started.
	CreatedAt Timestamp `json:"createdAt,omitempty"`
	// UpdatedAt is when it last changed (its last message, usually).
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// LastMessage is the latest message; nil when it was deleted or a group
	// has no messages.
	LastMessage *Message `json:"lastMessage,omitempty"`
	// ConversationWith is the other party as JSON: a user or a group,
	// relative to the acting user. Decode it with [Conversation.User] or
	// [Conversation.Group].
	ConversationWith json.RawMessage `json:"conversationWith,omitempty"`
	// Tags are the acting user's tags on the conversation; lists may
	// leave them out unless asked WithTags.
	Tags []string `json:"tags,omitempty"`
	// PinnedBy is who pinned the conversation: the acting user's uid, or
	// "app_system" for an app pin. Empty when not pinned.
	PinnedBy string `json:"pinnedBy,omitempty"`
	// PinnedAt is when it was pinned; zero when not pinned.
	PinnedAt Timestamp `json:"pinnedAt,omitempty"`
}

// User decodes ConversationWith as the user the conversation is with. It
// fails for a group conversation and when ConversationWith is absent.
func (c *Conversation) User() (*User, error) {
	return decodeConversationWith[User](c, ConversationUser)
}

// Group decodes ConversationWith as the group the conversation is in. It
// fails for a one-on-one conversation and when ConversationWith is absent.
func (c *Conversation) Group() (*Group, error) {
	return decodeConversationWith[Group](c, ConversationGroup)
}

func decodeConversationWith[T any](c *Conversation, want ConversationType) (*T, error) {
	if c == nil || len(c.ConversationWith) == 0 || string(c.ConversationWith) == "null" {
		return nil, errors.New("chat: the conversation has no conversationWith")
	}
	if c.ConversationType != "" && c.ConversationType != want {
		return nil, errors.New("chat: the conversation is with a " + string(c.ConversationType) + ", not a " + string(want))
	}
	v := new(T)
	if err := rest.Unmarshal(c.ConversationWith, v); err != nil {
		return nil, err
	}
	return v, nil
}

// ListConversationsOptions filters a list of conversations. Zero fields are
// not sent.
type ListConversationsOptions struct {
	PageOptions
	// SearchKey matches the name of the user or group.
	SearchKey string `url:"searchKey,omitempty"`
	// ConversationType keeps only user or only group conversations.
	ConversationType ConversationType `url:"conversationType,omitempty"`
	// WithTags includes each conversation's tags.
	WithTags bool `url:"withTags,omitempty"`
	// Tags keeps conversations having these tags.
	Tags []string `url:"tags,comma,omitempty"`
	// WithUserAndGroupTags includes the tags of ConversationWith.
	WithUserAndGroupTags bool `url:"withUserAndGroupTags,omitempty"`
	// UserTags keeps conversations with users having these tags.
	UserTags []string `url:"userTags,comma,omitempty"`
	// GroupTags keeps conversations in groups having these tags.
	GroupTags []string `url:"groupTags,comma,omitempty"`
	// Unread keeps conversations with unread messages.
	Unread bool `url:"unread,omitempty"`
	// IncludeBlockedUsers includes conversations with blocked users.
	IncludeBlockedUsers bool `url:"includeBlockedUsers,omitempty"`
	// WithBlockedInfo adds the block status of the users.
	WithBlockedInfo bool `url:"withBlockedInfo,omitempty"`
	// HideAgentic leaves out conversations with AI agents.
	HideAgentic bool `url:"hideAgentic,omitempty"`
	// OnlyAgentic keeps only conversations with AI agents.
	OnlyAgentic bool `url:"onlyAgentic,omitempty"`
	// UseCursoredIndex is sent as 1 or 0 when set; the service defaults to
	// 1.
	UseCursoredIndex *bool `url:"useCursoredIndex,int,omitempty"`
	// Unique (sent as 1) is for super-admins; it cannot be combined with
	// onBehalfOf, and List refuses the combination before sending.
	Unique bool `url:"unique,int,omitempty"`
}

// List returns one page of conversations. With the [OnBehalfOf] option they
// are that user's conversations, ordered by updatedAt then conversationWith;
// without it, every user's conversations, ordered by uid, updatedAt, then
// conversationWith. Use [ConversationsService.All] to walk every page.
//
// API: GET /v3/conversations (onBehalfOf optional)
func (s *ConversationsService) List(ctx context.Context, opts *ListConversationsOptions, reqOpts ...RequestOption) (*Page[Conversation], error) {
	if opts != nil && opts.Unique && actingUser(reqOpts) != "" {
		return nil, newArgError("opts.Unique", "cannot be combined with onBehalfOf")
	}
	return list[Conversation](ctx, s.c, &Request{Path: []string{"conversations"}, Query: opts}, reqOpts)
}

// All iterates over every conversation matching opts, page after page,
// starting at opts.Page (default 1). It walks meta.pagination, not a
// cursor the service may add with useCursoredIndex. It stops at the first
// error, which it yields, and when ctx is done.
//
// Conversations come in the service's order: with the [OnBehalfOf] option by
// update time, otherwise by user, then update time.
//
// API: GET /v3/conversations (onBehalfOf optional)
func (s *ConversationsService) All(ctx context.Context, opts *ListConversationsOptions, reqOpts ...RequestOption) iter.Seq2[*Conversation, error] {
	return pageIter(ctx, opts, func(ctx context.Context, o *ListConversationsOptions) (*Page[Conversation], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// ListAppPinned returns the conversations the app pinned for every user, in
// display order. Each has only ConversationID, ConversationType, PinnedBy
// ("app_system") and PinnedAt.
//
// API: GET /v3/conversations/pinned (onBehalfOf not supported)
func (s *ConversationsService) ListAppPinned(ctx context.Context, opts ...RequestOption) ([]Conversation, error) {
	out, err := do[[]Conversation](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"conversations", "pinned"}}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// ConversationRef names a conversation to pin for the app: set UID for the
// one-on-one conversations with a user, or GUID for a group's.
type ConversationRef struct {
	UID  string `json:"uid,omitempty"`
	GUID string `json:"guid,omitempty"`
}

// ReplaceAppPinnedRequest is the body of
// [ConversationsService.ReplaceAppPinned].
type ReplaceAppPinnedRequest struct {
	// PinnedConversations is the whole new list, in display order (at most
	// 5; a repeated entry is kept once, at its first position). Empty
	// unpins every app-pinned conversation.
	PinnedConversations []ConversationRef `json:"pinnedConversations"`
}

// ReplaceAppPinned replaces the list of conversations the app pins for
// every user and returns the new list (see
// [ConversationsService.ListAppPinned]). Conversations left out are
// unpinned; an empty list clears it.
//
// API: PUT /v3/conversations/pinned (onBehalfOf not supported)
func (s *ConversationsService) ReplaceAppPinned(ctx context.Context, req *ReplaceAppPinnedRequest, opts ...RequestOption) ([]Conversation, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	body := *req
	if body.PinnedConversations == nil {
		body.PinnedConversations = []ConversationRef{} // [] clears; null would not validate
	}
	out, err := do[[]Conversation](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"conversations", "pinned"}, Body: &body}, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// UpdateConversationRequest is the body of [ConversationsService.UpdateUser]
// and [ConversationsService.UpdateGroup].
type UpdateConversationRequest struct {
	// Tags replace the conversation's tags (at most 25 of up to 100
	// characters); empty clears them.
	Tags []string `json:"tags"`
}

// ResetConversationRequest is the body of [ConversationsService.ResetUser]
// and [ConversationsService.ResetGroup].
type ResetConversationRequest struct {
	// DeleteMessagesPermanently also deletes the messages (one-on-one
	// conversations only).
	DeleteMessagesPermanently bool `json:"deleteMessagesPermanently,omitempty"`
	// PreserveOrder keeps the conversation's position in the list.
	PreserveOrder bool `json:"preserveOrder,omitempty"`
}

// MarkReadRequest is the body of [ConversationsService.MarkUserRead] and
// [ConversationsService.MarkGroupRead].
type MarkReadRequest struct {
	// MessageID marks the messages up to this one (a numeric message id,
	// e.g. from strconv.ParseInt(msg.ID, 10, 64)); zero marks them all.
	MessageID int64 `json:"messageId,omitempty"`
}

// MarkDeliveredRequest is the body of
// [ConversationsService.MarkUserDelivered] and
// [ConversationsService.MarkGroupDelivered].
type MarkDeliveredRequest struct {
	// MessageID marks the messages up to this one; zero marks them all.
	MessageID int64 `json:"messageId,omitempty"`
}

// MarkUnreadRequest is the body of [ConversationsService.MarkUserUnread] and
// [ConversationsService.MarkGroupUnread].
type MarkUnreadRequest struct {
	// MessageID is the last message that stays read: the messages after it
	// become unread.
	MessageID int64 `json:"messageId,omitempty"`
}

// conversation returns the path of the conversation of onBehalfOf with a
// user ("users") or a group ("groups"), with more segments appended.
func (s *ConversationsService) conversation(kind, id, idName, onBehalfOf string, more ...string) ([]string, error) {
	if err := required(idName, id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return append([]string{kind, id, "conversation"}, more...), nil
}

// GetUser returns onBehalfOf's one-on-one conversation with the user uid.
// It fails with ERR_CONVERSATION_NOT_ACCESSIBLE while they have no messages.
//
// API: GET /v3/users/{uid}/conversation (onBehalfOf required)
func (s *ConversationsService) GetUser(ctx context.Context, uid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	p, err := s.conversation("users", uid, "uid", onBehalfOf)
	if err != nil {
		return nil, err
	}
	return do[Conversation](ctx, s.c, &Request{Method: http.MethodGet, Path: p, OnBehalfOf: onBehalfOf}, opts)
}

// GetGroup returns onBehalfOf's conversation in the group guid; onBehalfOf
// must be a member.
//
// API: GET /v3/groups/{guid}/conversation (onBehalfOf required)
func (s *ConversationsService) GetGroup(ctx context.Context, guid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	p, err := s.conversation("groups", guid, "guid", onBehalfOf)
	if err != nil {
		return nil, err
	}
	return do[Conversation](ctx, s.c, &Request{Method: http.MethodGet, Path: p, OnBehalfOf: onBehalfOf}, opts)
}

// UpdateUser sets onBehalfOf's tags on their conversation with the user uid
// and returns the conversation.
//
// API: PUT /v3/users/{uid}/conversation (onBehalfOf required)
func (s *ConversationsService) UpdateUser(ctx context.Context, uid, onBehalfOf string, req *UpdateConversationRequest, opts ...RequestOption) (*Conversation, error) {
	return s.update(ctx, "users", uid, "uid", onBehalfOf, req, opts)
}

// UpdateGroup sets onBehalfOf's tags on their conversation in the group
// guid and returns the conversation.
//
// API: PUT /v3/groups/{guid}/conversation (onBehalfOf required)
func (s *ConversationsService) UpdateGroup(ctx context.Context, guid, onBehalfOf string, req *UpdateConversationRequest, opts ...RequestOption) (*Conversation, error) {
	return s.update(ctx, "groups", guid, "guid", onBehalfOf, req, opts)
}

func (s *ConversationsService) update(ctx context.Context, kind, id, idName, onBehalfOf string, req *UpdateConversationRequest, opts []RequestOption) (*Conversation, error) {
	p, err := s.conversation(kind, id, idName, onBehalfOf)
	if err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	body := *req
	if body.Tags == nil {
		body.Tags = []string{}
	}
	return do[Conversation](ctx, s.c, &Request{Method: http.MethodPut, Path: p, Body: &body, OnBehalfOf: onBehalfOf}, opts)
}

// ResetUser deletes onBehalfOf's conversation with the user uid for
// onBehalfOf only: it leaves their list until a new message arrives. The
// other user keeps it. A nil req uses the defaults.
//
// API: DELETE /v3/users/{uid}/conversation (onBehalfOf required)
func (s *ConversationsService) ResetUser(ctx context.Context, uid, onBehalfOf string, req *ResetConversationRequest, opts ...RequestOption) (*Result, error) {
	p, err := s.conversation("users", uid, "uid", onBehalfOf)
	if err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: p, Body: req, OnBehalfOf: onBehalfOf}, opts)
}

// ResetGroup deletes onBehalfOf's conversation in the group guid for
// onBehalfOf only. A nil req uses the defaults; DeleteMessagesPermanently
// does not apply to groups.
//
// API: DELETE /v3/groups/{guid}/conversation (onBehalfOf required)
func (s *ConversationsService) ResetGroup(ctx context.Context, guid, onBehalfOf string, req *ResetConversationRequest, opts ...RequestOption) (*Result, error) {
	p, err := s.conversation("groups", guid, "guid", onBehalfOf)
	if err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: p, Body: req, OnBehalfOf: onBehalfOf}, opts)
}

// PinUser pins onBehalfOf's conversation with the user uid to the top of
// their list (at most 5 pins per user: ERR_PINNED_CONVERSATIONS_LIMIT_EXCEEDED)
// and returns the pin. Pinning again keeps the first PinnedAt. A
// conversation the app pinned cannot be pinned by a user
// (ERR_SYSTEM_PINNED_CONVERSATION).
//
// API: POST /v3/users/{uid}/conversation/pin (onBehalfOf required)
func (s *ConversationsService) PinUser(ctx context.Context, uid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	return s.pin(ctx, http.MethodPost, "users", uid, "uid", onBehalfOf, opts)
}

// UnpinUser unpins onBehalfOf's conversation with the user uid; unpinning
// an unpinned conversation succeeds. The answer has only ConversationID and
// ConversationType.
//
// API: DELETE /v3/users/{uid}/conversation/pin (onBehalfOf required)
func (s *ConversationsService) UnpinUser(ctx context.Context, uid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	return s.pin(ctx, http.MethodDelete, "users", uid, "uid", onBehalfOf, opts)
}

// PinGroup pins onBehalfOf's conversation in the group guid; see
// [ConversationsService.PinUser].
//
// API: POST /v3/groups/{guid}/conversation/pin (onBehalfOf required)
func (s *ConversationsService) PinGroup(ctx context.Context, guid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	return s.pin(ctx, http.MethodPost, "groups", guid, "guid", onBehalfOf, opts)
}

// UnpinGroup unpins onBehalfOf's conversation in the group guid; see
// [ConversationsService.UnpinUser].
//
// API: DELETE /v3/groups/{guid}/conversation/pin (onBehalfOf required)
func (s *ConversationsService) UnpinGroup(ctx context.Context, guid, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	return s.pin(ctx, http.MethodDelete, "groups", guid, "guid", onBehalfOf, opts)
}

func (s *ConversationsService) pin(ctx context.Context, method, kind, id, idName, onBehalfOf string, opts []RequestOption) (*Conversation, error) {
	p, err := s.conversation(kind, id, idName, onBehalfOf, "pin")
	if err != nil {
		return nil, err
	}
	return do[Conversation](ctx, s.c, &Request{Method: method, Path: p, OnBehalfOf: onBehalfOf}, opts)
}

// MarkUserRead marks the messages the user uid sent to onBehalfOf (the
// reader) as read, up to req.MessageID, or all of them when req is nil or
// MessageID is zero.
//
// API: POST /v3/users/{uid}/conversation/read (onBehalfOf required)
func (s *ConversationsService) MarkUserRead(ctx context.Context, uid, onBehalfOf string, req *MarkReadRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodPost, "users", uid, "uid", onBehalfOf, "read", req, opts)
}

// MarkGroupRead marks the messages of the group guid as read by onBehalfOf,
// up to req.MessageID, or all of them when req is nil or MessageID is zero.
//
// API: POST /v3/groups/{guid}/conversation/read (onBehalfOf required)
func (s *ConversationsService) MarkGroupRead(ctx context.Context, guid, onBehalfOf string, req *MarkReadRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodPost, "groups", guid, "guid", onBehalfOf, "read", req, opts)
}

// MarkUserDelivered marks the messages the user uid sent to onBehalfOf as
// delivered, up to req.MessageID, or all of them when req is nil or
// MessageID is zero.
//
// API: POST /v3/users/{uid}/conversation/delivered (onBehalfOf required)
func (s *ConversationsService) MarkUserDelivered(ctx context.Context, uid, onBehalfOf string, req *MarkDeliveredRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodPost, "users", uid, "uid", onBehalfOf, "delivered", req, opts)
}

// MarkGroupDelivered marks the messages of the group guid as delivered to
// onBehalfOf, up to req.MessageID, or all of them when req is nil or
// MessageID is zero.
//
// API: POST /v3/groups/{guid}/conversation/delivered (onBehalfOf required)
func (s *ConversationsService) MarkGroupDelivered(ctx context.Context, guid, onBehalfOf string, req *MarkDeliveredRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodPost, "groups", guid, "guid", onBehalfOf, "delivered", req, opts)
}

// MarkUserUnread marks the messages the user uid sent to onBehalfOf after
// req.MessageID as unread again.
//
// API: DELETE /v3/users/{uid}/conversation/read (onBehalfOf required)
func (s *ConversationsService) MarkUserUnread(ctx context.Context, uid, onBehalfOf string, req *MarkUnreadRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodDelete, "users", uid, "uid", onBehalfOf, "read", req, opts)
}

// MarkGroupUnread marks the messages of the group guid after req.MessageID
// as unread again for onBehalfOf, which is required.
//
// API: DELETE /v3/groups/{guid}/conversation/read (onBehalfOf required)
func (s *ConversationsService) MarkGroupUnread(ctx context.Context, guid, onBehalfOf string, req *MarkUnreadRequest, opts ...RequestOption) (*Result, error) {
	return s.mark(ctx, http.MethodDelete, "groups", guid, "guid", onBehalfOf, "read", req, opts)
}

func (s *ConversationsService) mark(ctx context.Context, method, kind, id, idName, onBehalfOf, what string, req any, opts []RequestOption) (*Result, error) {
	p, err := s.conversation(kind, id, idName, onBehalfOf, what)
	if err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: method, Path: p, Body: req, OnBehalfOf: onBehalfOf}, opts)
}

// Get returns onBehalfOf's conversation conversationID (e.g.
// "alice_user_bob" or "group_team").
//
// API: GET /v3/conversations/{conversationId} (onBehalfOf required)
//
// Deprecated: use [ConversationsService.GetUser] or
// [ConversationsService.GetGroup] instead.
func (s *ConversationsService) Get(ctx context.Context, conversationID, onBehalfOf string, opts ...RequestOption) (*Conversation, error) {
	if err := required("conversationID", conversationID, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Conversation](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"conversations", conversationID}, OnBehalfOf: onBehalfOf}, opts)
}

// Delete deletes the conversation conversationID for all its users; the
// replacements reset it for onBehalfOf only.
//
// API: DELETE /v3/conversations/{conversationId} (onBehalfOf required)
//
// Deprecated: use [ConversationsService.ResetUser] or
// [ConversationsService.ResetGroup] instead.
func (s *ConversationsService) Delete(ctx context.Context, conversationID, onBehalfOf string, opts ...RequestOption) (*Result, error) {
	if err := required("conversationID", conversationID, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"conversations", conversationID}, OnBehalfOf: onBehalfOf}, opts)
}
