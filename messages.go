package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// MessagesService sends and lists messages and threaded replies. Get it
// from [Client.Messages].
type MessagesService struct{ rc *rest.Client }

// SendMessageRequest is the body of a message to send: a text or media
// message (category "message"), a custom message (category "custom", with
// Data.CustomData) or an interactive one.
type SendMessageRequest struct {
	// Receiver is the receiving user's UID or group's GUID.
	Receiver string `json:"receiver,omitempty"`
	// ReceiverType says whether Receiver is a user or a group.
	ReceiverType ReceiverType `json:"receiverType,omitempty"`
	// Category defaults to "message" on the service.
	Category Category `json:"category,omitempty"`
	// Type defaults to "text" on the service.
	Type MessageType `json:"type,omitempty"`
	// Data is the content: Text, Metadata, Attachments, CustomData, ...
	Data MessageData `json:"data,omitzero"`
	// MUID is a client-side unique id for the message.
	MUID string `json:"muid,omitempty"`
	// QuotedMessageID quotes another message; the response then carries it
	// as QuotedMessage.
	QuotedMessageID string `json:"quotedMessageId,omitempty"`
	// MultipleReceivers sends the same message to several users and groups.
	MultipleReceivers *MultipleReceivers `json:"multipleReceivers,omitempty"`
	// Tags are up to 25 tags of up to 100 characters.
	Tags []string `json:"tags,omitempty"`
}

// MultipleReceivers lists further receivers of one message.
type MultipleReceivers struct {
	UIDs  []string `json:"uids,omitempty"`
	GUIDs []string `json:"guids,omitempty"`
}

// Send sends a message and returns it as stored. The sender is the user
// named by the [OnBehalfOf] option; without it, the service decides (the
// reference does not say who the sender is then).
//
// API: POST /v3/messages (onBehalfOf optional)
func (s *MessagesService) Send(ctx context.Context, req *SendMessageRequest, opts ...RequestOption) (*Message, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[Message](ctx, s.rc, http.MethodPost, path("messages"), req, "", opts)
}

// SendThread sends a message on behalf of onBehalfOf as a reply in the
// thread of the message parentID, and returns the created message (its
// ParentID is parentID). Both arguments are checked before anything is sent.
//
// API: POST /v3/messages/{id}/thread (onBehalfOf required)
func (s *MessagesService) SendThread(ctx context.Context, parentID, onBehalfOf string, req *SendMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := s.rc.Required("parentID", parentID, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[Message](ctx, s.rc, http.MethodPost, path("messages", parentID, "thread"), req, onBehalfOf, opts)
}

// ListThreadOptions filters and positions a list of thread replies.
type ListThreadOptions struct {
	CursorOptions
}

// ListThread returns one page of the replies in the thread of the message
// parentID. Page through with Meta.Next, or use [MessagesService.AllThread].
//
// API: GET /v3/messages/{id}/thread (onBehalfOf optional)
func (s *MessagesService) ListThread(ctx context.Context, parentID string, opts *ListThreadOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	if err := s.rc.Required("parentID", parentID); err != nil {
		return nil, err
	}
	return list[Message](ctx, s.rc, path("messages", parentID, "thread"), opts, "", reqOpts)
}

// AllThread iterates over every reply in the thread of parentID, fetching
// pages as needed from the position opts gives (nil: the start). It stops
// at the first error, which it yields, and when ctx is done.
//
// API: GET /v3/messages/{id}/thread (onBehalfOf optional)
func (s *MessagesService) AllThread(ctx context.Context, parentID string, opts *ListThreadOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListThreadOptions) (*Page[Message], error) {
		return s.ListThread(ctx, parentID, o, reqOpts...)
	})
}

// ReceiverType says whether a message goes to a user or a group.
type ReceiverType string

// Receiver types.
const (
	ReceiverUser  ReceiverType = "user"
	ReceiverGroup ReceiverType = "group"
)

// Category is a message's category. Unknown values decode as they are.
type Category string

// Message categories.
const (
	CategoryMessage     Category = "message"     // text and media messages
	CategoryCustom      Category = "custom"      // app-defined messages with customData
	CategoryInteractive Category = "interactive" // forms, cards, schedulers
	CategoryAction      Category = "action"      // emitted by the service (member added, message edited, ...)
	CategoryCall        Category = "call"        // call events
)

// MessageType is a message's type within its category. Custom messages may
// use any string; unknown values decode as they are.
type MessageType string

// Message types.
const (
	// Category message.
	MessageTypeText  MessageType = "text"
	MessageTypeImage MessageType = "image"
	MessageTypeFile  MessageType = "file"
	MessageTypeAudio MessageType = "audio"
	MessageTypeVideo MessageType = "video"
	// Category interactive.
	MessageTypeCard              MessageType = "card"
	MessageTypeForm              MessageType = "form"
	MessageTypeCustomInteractive MessageType = "customInteractive"
	MessageTypeScheduler         MessageType = "scheduler"
	// Category action.
	MessageTypeGroupMember MessageType = "groupMember" // a member was added, kicked, banned, ...
	MessageTypeMessage     MessageType = "message"     // a message was edited or deleted
)

// Message is a message as the API returns it: a text, media, custom or
// interactive message, an action the service emitted, or a call event.
//
// Timestamps are Unix seconds; [Timestamp.Time] converts them.
type Message struct {
	// ID is the message id (a numeric string).
	ID string `json:"id,omitempty"`
	// MUID is the client-side unique id the sender set, if any.
	MUID string `json:"muid,omitempty"`
	// ConversationID is the conversation the message belongs to, e.g.
	// "uid-a_user_uid-b" or "group_{guid}".
	ConversationID string `json:"conversationId,omitempty"`
	// Sender is the sender's UID, or "app_system" for the app.
	Sender string `json:"sender,omitempty"`
	// ReceiverType says whether Receiver is a UID or a GUID.
	ReceiverType ReceiverType `json:"receiverType,omitempty"`
	// Receiver is the receiving user's UID or group's GUID.
	Receiver string `json:"receiver,omitempty"`
	// Category is the message's category.
	Category Category `json:"category,omitempty"`
	// Type is the message's type within its category.
	Type MessageType `json:"type,omitempty"`
	// Data is the message's content.
	Data MessageData `json:"data,omitzero"`
	// SentAt is when the message was sent.
	SentAt Timestamp `json:"sentAt,omitempty"`
	// UpdatedAt is when the message last changed.
	UpdatedAt Timestamp `json:"updatedAt,omitempty"`
	// EditedAt is when the message was edited; zero if never.
	EditedAt Timestamp `json:"editedAt,omitempty"`
	// EditedBy is who edited it (a UID or "app_system"); empty if never.
	EditedBy string `json:"editedBy,omitempty"`
	// DeliveredAt is when the message was delivered, when known.
	DeliveredAt Timestamp `json:"deliveredAt,omitempty"`
	// ReadAt is when the message was read, when known.
	ReadAt Timestamp `json:"readAt,omitempty"`
	// DeletedAt is when the message was deleted; zero if not.
	DeletedAt Timestamp `json:"deletedAt,omitempty"`
	// Tags are the message's tags (returned with withTags or when set).
	Tags []string `json:"tags,omitempty"`
	// ParentID is the id of the thread's parent, on thread replies.
	ParentID string `json:"parentId,omitempty"`
	// ReplyCount is the number of replies, on thread parents.
	ReplyCount int `json:"replyCount,omitempty"`
	// LastReply is the latest reply, on thread parents.
	LastReply *Message `json:"lastReply,omitempty"`
	// QuotedMessage is the message this one quotes, when it quotes one.
	QuotedMessage *Message `json:"quotedMessage,omitempty"`
	// PinnedBy is who pinned the message (a UID or "app_system").
	PinnedBy string `json:"pinnedBy,omitempty"`
	// PinnedAt is when it was pinned; zero if not pinned.
	PinnedAt Timestamp `json:"pinnedAt,omitempty"`
	// SavedAt is when the acting user saved it; zero if not saved.
	SavedAt Timestamp `json:"savedAt,omitempty"`
	// Receipts is kept as the API sends it; its shape is not documented.
	Receipts json.RawMessage `json:"receipts,omitempty"`
}

// MessageData is a message's "data" object.
type MessageData struct {
	// Text is the text of a text message, or the caption of a media message.
	Text string `json:"text,omitempty"`
	// Metadata is free-form JSON the sender attached.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Attachments are the files of a media message.
	Attachments []Attachment `json:"attachments,omitempty"`
	// URL is the media URL of a media message.
	URL string `json:"url,omitempty"`
	// Resource is set on media messages; the API does not document it.
	Resource string `json:"resource,omitempty"`
	// CustomData is the content of a custom message.
	CustomData map[string]any `json:"customData,omitempty"`
	// Entities are the users, groups or messages the message involves:
	// Sender and Receiver on ordinary messages, By, On and For on actions.
	Entities *Entities `json:"entities,omitempty"`
	// Action is what an action or call message reports, e.g. "added",
	// "edited", "initiated".
	Action string `json:"action,omitempty"`
	// Reactions summarises the reactions, after adding or removing one.
	Reactions []ReactionCount `json:"reactions,omitempty"`
	// Moderation is the moderation state, when moderation applies.
	Moderation *Moderation `json:"moderation,omitempty"`
	// InteractionGoal says which elements of an interactive message must be
	// interacted with to complete it.
	InteractionGoal *InteractionGoal `json:"interactionGoal,omitempty"`
	// AllowSenderInteraction lets the sender interact with their own
	// interactive message.
	AllowSenderInteraction *bool `json:"allowSenderInteraction,omitempty"`
	// InteractiveData is the form, card or other interactive content, kept
	// as JSON.
	InteractiveData json.RawMessage `json:"interactiveData,omitempty"`
}

// Attachment is a file of a media message.
type Attachment struct {
	URL       string `json:"url,omitempty"`
	Name      string `json:"name,omitempty"`
	MimeType  string `json:"mimeType,omitempty"`
	Extension string `json:"extension,omitempty"`
	// Size is the file size in bytes.
	Size int64 `json:"size,omitempty"`
}

// ReactionCount is one reaction's tally on a message.
type ReactionCount struct {
	Reaction string `json:"reaction"`
	Count    int    `json:"count"`
	// ReactedByMe reports whether the acting user reacted so, when known.
	ReactedByMe *bool `json:"reactedByMe,omitempty"`
}

// Moderation is a message's moderation state.
type Moderation struct {
	// Status is "pending", "approved" or "disapproved".
	Status string `json:"status,omitempty"`
	// Rule is the rule that matched, if any.
	Rule *ModerationRuleRef `json:"rule,omitempty"`
}

// ModerationRuleRef names a moderation rule.
type ModerationRuleRef struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// InteractionGoal says when an interactive message counts as completed.
type InteractionGoal struct {
	// Type is "anyOf", "allOf", "oneOf" or "none".
	Type string `json:"type,omitempty"`
	// ElementIDs are the elements the goal is about.
	ElementIDs []string `json:"elementIds,omitempty"`
}

// Entities are the parties of a message: Sender and Receiver on ordinary
// messages; By (who acted), On (what was acted on) and For (where) on action
// and call messages.
type Entities struct {
	Sender   *Entity `json:"sender,omitempty"`
	Receiver *Entity `json:"receiver,omitempty"`
	By       *Entity `json:"by,omitempty"`
	On       *Entity `json:"on,omitempty"`
	For      *Entity `json:"for,omitempty"`
}

// EntityType says what an [Entity] holds.
type EntityType string

// Entity types.
const (
	EntityUser    EntityType = "user"
	EntityGroup   EntityType = "group"
	EntityMessage EntityType = "message"
	EntityCall    EntityType = "call"
)

// Entity is a user, group, message or call inside a message's entities:
// {"entity": ..., "entityType": ...}. The entity is kept as JSON and decoded
// on demand by [Entity.User], [Entity.Group] and [Entity.Message], so that
// decoding a message costs no more than its bytes.
type Entity struct {
	// Entity is the entity's JSON.
	Entity json.RawMessage `json:"entity,omitempty"`
	// EntityType says what Entity holds.
	EntityType EntityType `json:"entityType,omitempty"`
}

// User decodes the entity as a user. It fails if EntityType is not
// EntityUser.
func (e *Entity) User() (*User, error) { return decodeEntity[User](e, EntityUser) }

// Group decodes the entity as a group. It fails if EntityType is not
// EntityGroup.
func (e *Entity) Group() (*Group, error) { return decodeEntity[Group](e, EntityGroup) }

// Message decodes the entity as a message (the message an action is about).
// It fails if EntityType is not EntityMessage.
func (e *Entity) Message() (*Message, error) { return decodeEntity[Message](e, EntityMessage) }

func decodeEntity[T any](e *Entity, want EntityType) (*T, error) {
	if e == nil {
		return nil, fmt.Errorf("chat: no %s entity", want)
	}
	if e.EntityType != want {
		return nil, fmt.Errorf("chat: entity is a %q, not a %q", e.EntityType, want)
	}
	v := new(T)
	if err := rest.Unmarshal(e.Entity, v); err != nil {
		return nil, err
	}
	return v, nil
}
