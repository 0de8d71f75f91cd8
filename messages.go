package chat

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// MessagesService sends, lists, edits and deletes messages, and manages
// what hangs off them: threads and thread subscriptions, reactions, pins,
// saves, interactions with interactive messages, and flags. Get it from
// [Client.Messages].
type MessagesService struct{ c *caller }

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
	// MUID is a client-side unique id for the message. When it is empty,
	// the send methods set a random one (26 base-32 characters from
	// crypto/rand, on their own copy of the request) and send that same muid in every attempt of the call, so
	// that the retries of one call are recognisable as the same message.
	// Callers who retry across calls, or who want to find the message by
	// its muid later, set their own. The returned [Message] carries the
	// muid the service answers with, or the one sent when the answer has
	// none.
	//
	// The SDK does not count on the service to recognise a repeated muid:
	// a send is retried only when the service did not act on it (see
	// [WithRetryPolicy]).
	MUID string `json:"muid,omitempty"`
	// QuotedMessageID quotes another message; the response then carries it
	// as QuotedMessage.
	QuotedMessageID string `json:"quotedMessageId,omitempty"`
	// MultipleReceivers sends the same message to several users and groups.
	MultipleReceivers *MultipleReceivers `json:"multipleReceivers,omitempty"`
	// Tags are up to 25 tags of up to 100 characters.
	Tags []string `json:"tags,omitempty"`
}

// send checks req, gives it a muid when it has none, encodes it once and
// sends it to p; an answer without a muid gets the one sent.
func (s *MessagesService) send(ctx context.Context, p []string, req *SendMessageRequest, onBehalfOf string, opts []RequestOption) (*Message, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.checkFields(); err != nil {
		return nil, err
	}
	r := *req
	if r.MUID == "" {
		r.MUID = rand.Text()
	}
	body, err := messageBody(&r)
	if err != nil {
		return nil, err
	}
	msg, err := do[Message](ctx, s.c, &Request{Method: http.MethodPost, Path: p, Body: body, OnBehalfOf: onBehalfOf}, opts)
	if err != nil {
		return nil, err
	}
	if msg.MUID == "" {
		msg.MUID = r.MUID
	}
	return msg, nil
}

// MultipleReceivers lists further receivers of one message.
type MultipleReceivers struct {
	// UIDs are further receiving users.
	UIDs []string `json:"uids,omitempty"`
	// GUIDs are further receiving groups.
	GUIDs []string `json:"guids,omitempty"`
}

// Send sends a message and returns it as stored. The sender is the user
// named by the [OnBehalfOf] option; without it, the service picks the
// sender.
//
// The request is checked before anything is sent: at most [MaxTags] tags
// of [MaxTagLength] characters, and at most [MaxMessageChars] characters
// of JSON in all. A request without a muid gets a random one, the same in
// every retry of the call; see [SendMessageRequest.MUID]. req itself is
// not changed.
//
// API: POST /v3/messages (onBehalfOf optional)
func (s *MessagesService) Send(ctx context.Context, req *SendMessageRequest, opts ...RequestOption) (*Message, error) {
	return s.send(ctx, messagesPath, req, "", opts)
}

// messagesPath is the path of a send; requests only read their paths.
var messagesPath = []string{"messages"}

// Get returns the message id. With the [OnBehalfOf] option, fields such as
// SavedAt and reactedByMe are relative to that user.
//
// API: GET /v3/messages/{id} (onBehalfOf optional)
func (s *MessagesService) Get(ctx context.Context, id string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"messages", id}}, opts)
}

// UpdateMessageRequest is the body of [MessagesService.Update]: the new
// text and metadata, and the tags.
type UpdateMessageRequest struct {
	// Data carries the new Text and Metadata.
	Data MessageData `json:"data,omitzero"`
	// Tags replace the message's tags.
	Tags []string `json:"tags,omitempty"`
}

// Update edits the message id and returns the answer of the service: an
// action message (category "action", type "message", Data.Action
// "edited") whose Data.Entities.On holds the edited message, with EditedAt
// and EditedBy set. [Message.Target] returns the edited message whether
// the service answers with the action or with the message itself. With
// the [OnBehalfOf] option the user
// edits, as far as their permissions allow; without it the app does. The
// tags and the size are checked as for [MessagesService.Send].
//
// API: PUT /v3/messages/{id} (onBehalfOf optional)
func (s *MessagesService) Update(ctx context.Context, id string, req *UpdateMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.checkFields(); err != nil {
		return nil, err
	}
	body, err := messageBody(req)
	if err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"messages", id}, Body: body}, opts)
}

// DeleteMessageRequest is the body of [MessagesService.Delete].
type DeleteMessageRequest struct {
	// Permanent deletes the message for good; otherwise it is soft-deleted
	// (it stays, with DeletedAt set).
	Permanent bool `json:"permanent"`
}

// Delete deletes the message id; a nil req is a soft delete. The answer is
// the action message the service emits (Data.Action "deleted", the message
// in Data.Entities.On; see [Message.Target]). With the
// [OnBehalfOf] option the user deletes; without it the app does.
//
// API: DELETE /v3/messages/{id} (onBehalfOf optional)
func (s *MessagesService) Delete(ctx context.Context, id string, req *DeleteMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		req = &DeleteMessageRequest{}
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"messages", id}, Body: req}, opts)
}

// AttachmentType is a kind of attachment, for the AttachmentTypes filters.
type AttachmentType string

// Attachment types.
const (
	AttachmentImage AttachmentType = "image"
	AttachmentVideo AttachmentType = "video"
	AttachmentAudio AttachmentType = "audio"
	AttachmentFile  AttachmentType = "file"
)

// ListMessagesOptions filters and positions the list of all messages. Zero
// fields are not sent.
type ListMessagesOptions struct {
	CursorOptions
	// SearchKey searches the messages' text.
	SearchKey string `url:"searchKey,omitempty"`
	// HideMessagesFromBlockedUsers leaves out messages of users the acting
	// user blocked.
	HideMessagesFromBlockedUsers bool `url:"hideMessagesFromBlockedUsers,omitempty"`
	// HasAttachments keeps media messages only.
	HasAttachments bool `url:"hasAttachments,omitempty"`
	// AttachmentTypes keeps messages with this kind of attachment.
	AttachmentTypes AttachmentType `url:"attachmentTypes,omitempty"`
	// HasMentions keeps messages that mention someone.
	HasMentions bool `url:"hasMentions,omitempty"`
	// HasLinks keeps messages with links.
	HasLinks bool `url:"hasLinks,omitempty"`
	// MentionedUIDs keeps messages mentioning these users (sent
	// comma-separated).
	MentionedUIDs []string `url:"mentionedUids,comma,omitempty"`
	// HasReactions keeps messages with reactions.
	HasReactions bool `url:"hasReactions,omitempty"`
	// ReceiverType keeps messages to users or to groups.
	ReceiverType ReceiverType `url:"receiverType,omitempty"`
	// Category keeps one category ("message", "action", "custom").
	Category Category `url:"category,omitempty"`
	// Categories keeps several categories.
	Categories []Category `url:"categories,comma,omitempty"`
	// Type keeps one type.
	Type MessageType `url:"type,omitempty"`
	// Types keeps several types (sent comma-separated).
	Types []MessageType `url:"types,comma,omitempty"`
	// Sender keeps one sender's messages; with onBehalfOf, only from the
	// conversations the two users share.
	Sender string `url:"sender,omitempty"`
	// Senders keeps several senders' messages.
	Senders []string `url:"senders,comma,omitempty"`
	// ConversationID keeps one conversation.
	ConversationID string `url:"conversationId,omitempty"`
	// MentionsWithBlockedInfo adds the blocked state of mentioned users,
	// relative to the acting user.
	MentionsWithBlockedInfo bool `url:"mentionsWithBlockedInfo,omitempty"`
	// MentionsWithTagInfo adds the tags of mentioned users.
	MentionsWithTagInfo bool `url:"mentionsWithTagInfo,omitempty"`
	// HideDeleted leaves out deleted messages.
	HideDeleted bool `url:"hideDeleted,omitempty"`
	// OnlyDeleted keeps deleted messages only.
	OnlyDeleted bool `url:"onlyDeleted,omitempty"`
	// HideReplies leaves out thread replies.
	HideReplies bool `url:"hideReplies,omitempty"`
	// Count asks the service for the unread count; the SDK does not
	// decode it.
	Count bool `url:"count,omitempty"`
	// Unread keeps unread messages only; it needs Count.
	Unread bool `url:"unread,omitempty"`
	// WithTags includes each message's tags.
	WithTags bool `url:"withTags,omitempty"`
	// Tags keeps messages having these tags.
	Tags []string `url:"tags,comma,omitempty"`
	// FromTimestamp and ToTimestamp bound sentAt (Unix seconds);
	// ToTimestamp is ignored without FromTimestamp.
	FromTimestamp Timestamp `url:"fromTimestamp,omitempty"`
	ToTimestamp   Timestamp `url:"toTimestamp,omitempty"`
	// SentFrom and SentTo bound sentAt (inclusive, Unix seconds).
	SentFrom Timestamp `url:"sentAt[from],omitempty"`
	SentTo   Timestamp `url:"sentAt[to],omitempty"`
	// UpdatedFrom and UpdatedTo bound updatedAt, keeping only messages
	// that were updated.
	UpdatedFrom Timestamp `url:"updatedAt[from],omitempty"`
	UpdatedTo   Timestamp `url:"updatedAt[to],omitempty"`
	// EditedFrom and EditedTo bound editedAt.
	EditedFrom Timestamp `url:"editedAt[from],omitempty"`
	EditedTo   Timestamp `url:"editedAt[to],omitempty"`
	// HideQuotedMessages strips the QuotedMessage of each message.
	HideQuotedMessages bool `url:"hideQuotedMessages,omitempty"`
}

// List returns one page of the app's messages (all conversations). With
// the [OnBehalfOf] option the list is limited to what that user can see.
// Page through with Meta.Next, or use [MessagesService.All].
//
// API: GET /v3/messages (onBehalfOf optional)
func (s *MessagesService) List(ctx context.Context, opts *ListMessagesOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	return list[Message](ctx, s.c, &Request{Path: []string{"messages"}, Query: opts}, reqOpts)
}

// All iterates over every message matching opts, from the position opts
// gives (nil: the start), following Meta.Next. It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in id order: oldest first with [DirectionAfter] (the default),
// newest first with [DirectionBefore].
//
// API: GET /v3/messages (onBehalfOf optional)
func (s *MessagesService) All(ctx context.Context, opts *ListMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListMessagesOptions) (*Page[Message], error) {
		return s.List(ctx, o, reqOpts...)
	})
}

// ConversationFilters are the filters shared by the message lists of one
// conversation: [MessagesService.ListUserMessages] and
// [MessagesService.ListGroupMessages]. Zero fields are not sent.
type ConversationFilters struct {
	// SearchKey searches the messages' text.
	SearchKey string `url:"searchKey,omitempty"`
	// HasAttachments keeps media messages only.
	HasAttachments bool `url:"hasAttachments,omitempty"`
	// AttachmentTypes keeps messages with this kind of attachment.
	AttachmentTypes AttachmentType `url:"attachmentTypes,omitempty"`
	// HasMentions keeps messages that mention someone.
	HasMentions bool `url:"hasMentions,omitempty"`
	// HasLinks keeps messages with links.
	HasLinks bool `url:"hasLinks,omitempty"`
	// MentionedUIDs keeps messages mentioning these users.
	MentionedUIDs []string `url:"mentionedUids,comma,omitempty"`
	// MyMentionsOnly keeps messages mentioning the acting user.
	MyMentionsOnly bool `url:"myMentionsOnly,omitempty"`
	// HasReactions keeps messages with reactions.
	HasReactions bool `url:"hasReactions,omitempty"`
	// Unread keeps unread messages only.
	Unread bool `url:"unread,omitempty"`
	// Undelivered keeps undelivered messages only.
	Undelivered bool `url:"undelivered,omitempty"`
	// Count asks the service for the unread count; the SDK does not
	// decode it.
	Count bool `url:"count,omitempty"`
	// HideReplies leaves out thread replies.
	HideReplies bool `url:"hideReplies,omitempty"`
	// Category keeps one category.
	Category Category `url:"category,omitempty"`
	// Categories keeps several categories (sent comma-separated).
	Categories []Category `url:"categories,comma,omitempty"`
	// Type keeps one type.
	Type MessageType `url:"type,omitempty"`
	// Types keeps several types (sent comma-separated).
	Types []MessageType `url:"types,comma,omitempty"`
	// Sender keeps one sender's messages.
	Sender string `url:"sender,omitempty"`
	// MentionsWithBlockedInfo adds the blocked state of mentioned users.
	MentionsWithBlockedInfo bool `url:"mentionsWithBlockedInfo,omitempty"`
	// MentionsWithTagInfo adds the tags of mentioned users.
	MentionsWithTagInfo bool `url:"mentionsWithTagInfo,omitempty"`
	// FromTimestamp and ToTimestamp bound sentAt (Unix seconds).
	FromTimestamp Timestamp `url:"fromTimestamp,omitempty"`
	ToTimestamp   Timestamp `url:"toTimestamp,omitempty"`
	// WithTags includes each message's tags.
	WithTags bool `url:"withTags,omitempty"`
	// Tags keeps messages having these tags (sent comma-separated).
	Tags []string `url:"tags,comma,omitempty"`
	// HideQuotedMessages strips the QuotedMessage of each message.
	HideQuotedMessages bool `url:"hideQuotedMessages,omitempty"`
}

// ListUserMessagesOptions filters and positions the messages between the
// acting user and another user. Zero fields are not sent.
//
// The list takes both page-based (PerPage) and cursor-based (Limit,
// Affix, ID) parameters; its answer carries meta.pagination and a
// meta.cursor, whose id may come as a number. SentAt is not a parameter
// of this list: position with ID.
type ListUserMessagesOptions struct {
	CursorOptions
	ConversationFilters
	// PerPage is the page size of the page-based form: default 100, at
	// most 1000.
	PerPage int `url:"perPage,omitempty"`
}

// ListUserMessages returns one page of the messages between the acting
// user (the [OnBehalfOf] option) and the user uid. Use
// [MessagesService.AllUserMessages] to walk every page.
//
// API: GET /v3/users/{uid}/messages (onBehalfOf optional)
func (s *MessagesService) ListUserMessages(ctx context.Context, uid string, opts *ListUserMessagesOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	if err := required("uid", uid); err != nil {
		return nil, err
	}
	return list[Message](ctx, s.c, &Request{Path: []string{"users", uid, "messages"}, Query: opts}, reqOpts)
}

// AllUserMessages iterates over the messages between the acting user and
// uid. It follows the cursor each page gives: Meta.Next when present,
// otherwise Meta.Cursor (or a cursor beside meta). It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in id order: oldest first with [DirectionAfter] (the default),
// newest first with [DirectionBefore].
//
// API: GET /v3/users/{uid}/messages (onBehalfOf optional)
func (s *MessagesService) AllUserMessages(ctx context.Context, uid string, opts *ListUserMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIterVia(ctx, opts, func(ctx context.Context, o *ListUserMessagesOptions) (*Page[Message], error) {
		return s.ListUserMessages(ctx, uid, o, reqOpts...)
	}, anyCursor[Message])
}

// anyCursor is the cursor a page gives: meta.next, else meta.cursor, else
// a cursor beside meta.
func anyCursor[T any](page *Page[T]) *Cursor {
	switch {
	case page.Meta.Next != nil:
		return page.Meta.Next
	case page.Meta.Cursor != nil:
		return page.Meta.Cursor
	}
	return page.Cursor
}

// ListGroupMessagesOptions filters and positions the messages of a group.
// Zero fields are not sent.
type ListGroupMessagesOptions struct {
	CursorOptions
	ConversationFilters
	// HideMessagesFromBlockedUsers leaves out messages of users the acting
	// user blocked.
	HideMessagesFromBlockedUsers bool `url:"hideMessagesFromBlockedUsers,omitempty"`
}

// ListGroupMessages returns one page of the messages of the group guid.
// With the [OnBehalfOf] option the acting user must be a member. Use
// [MessagesService.AllGroupMessages] to walk every page.
//
// API: GET /v3/groups/{guid}/messages (onBehalfOf optional)
func (s *MessagesService) ListGroupMessages(ctx context.Context, guid string, opts *ListGroupMessagesOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	if err := required("guid", guid); err != nil {
		return nil, err
	}
	return list[Message](ctx, s.c, &Request{Path: []string{"groups", guid, "messages"}, Query: opts}, reqOpts)
}

// AllGroupMessages iterates over the messages of the group guid matching
// opts, following Meta.Next. It stops at the first error, which it yields,
// and when ctx is done.
//
// Items come in id order: oldest first with [DirectionAfter] (the default),
// newest first with [DirectionBefore].
//
// API: GET /v3/groups/{guid}/messages (onBehalfOf optional)
func (s *MessagesService) AllGroupMessages(ctx context.Context, guid string, opts *ListGroupMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListGroupMessagesOptions) (*Page[Message], error) {
		return s.ListGroupMessages(ctx, guid, o, reqOpts...)
	})
}

// SendAsBot sends a message from the bot botUID (a user of the app) and
// returns it. The body is that of [MessagesService.Send], checked and
// given a muid as Send does; bots typically send interactive forms and
// cards (see [InteractiveData]).
//
// API: POST /v3/bots/{uid}/messages (onBehalfOf not supported)
func (s *MessagesService) SendAsBot(ctx context.Context, botUID string, req *SendMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := required("botUID", botUID); err != nil {
		return nil, err
	}
	return s.send(ctx, []string{"bots", botUID, "messages"}, req, "", opts)
}

// FlagMessageRequest is the body of [MessagesService.Flag].
type FlagMessageRequest struct {
	// ReasonID is the id of a moderation reason (required); see
	// [ModerationService].
	ReasonID string `json:"reasonId"`
	// Remark is the flagging user's comment.
	Remark string `json:"remark,omitempty"`
}

// FlagResult is the answer of [MessagesService.Flag], often an empty
// object: Success and Message are read when the service sends them, and
// Raw keeps the answer as sent.
type FlagResult struct {
	// Success reports success, when the service says so.
	Success bool `json:"success,omitempty"`
	// Message is the service's description, when it sends one.
	Message string `json:"message,omitempty"`
	// Raw is the "data" object as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// Validate checks r as [MessagesService.Flag] does before sending:
// ReasonID set. It returns an [*ArgumentError] naming the field at fault,
// or nil.
func (r *FlagMessageRequest) Validate() error { return required("req.ReasonID", r.ReasonID) }

// Flag reports the message id on behalf of onBehalfOf for moderation, with
// one of the app's moderation reasons. The message then shows in the
// flagged-messages review list.
//
// API: POST /v3/messages/{id}/flagged (onBehalfOf required)
func (s *MessagesService) Flag(ctx context.Context, id, onBehalfOf string, req *FlagMessageRequest, opts ...RequestOption) (*FlagResult, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	raw, err := do[json.RawMessage](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"messages", id, "flagged"}, Body: req, OnBehalfOf: onBehalfOf}, opts)
	if err != nil {
		return nil, err
	}
	out := &FlagResult{}
	if len(*raw) > 0 && (*raw)[0] == '{' && rest.Unmarshal(*raw, out) != nil {
		// A shape other than documented is still returned, in Raw.
		out = &FlagResult{}
	}
	out.Raw = *raw
	return out, nil
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
	// DeletedBy is who deleted it (a UID or "app_system"); empty if not
	// deleted.
	DeletedBy string `json:"deletedBy,omitempty"`
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
	// Receipts is kept as the API sends it, undecoded.
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
	// Resource is set by the service on media messages.
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
	// InteractiveData is the form, card or other interactive content.
	InteractiveData *InteractiveData `json:"interactiveData,omitempty"`
	// Interactions are the elements of an interactive message the acting
	// user interacted with, each an element id and when it was
	// interacted with.
	Interactions []Interaction `json:"interactions,omitempty"`
	// Mentions are the users the text mentions (as <@uid:UID>), by UID.
	Mentions map[string]*User `json:"mentions,omitempty"`
}

// Attachment is a file of a media message.
type Attachment struct {
	// URL is where the file can be downloaded.
	URL string `json:"url,omitempty"`
	// Name is the file name.
	Name string `json:"name,omitempty"`
	// MimeType is the file's media type, e.g. "image/jpeg".
	MimeType string `json:"mimeType,omitempty"`
	// Extension is the file name's extension, e.g. "jpeg".
	Extension string `json:"extension,omitempty"`
	// Size is the file size in bytes.
	Size int64 `json:"size,omitempty"`
}

// ReactionCount is one reaction's tally on a message.
type ReactionCount struct {
	// Reaction is the emoji or reaction code.
	Reaction string `json:"reaction"`
	// Count is how many users reacted so.
	Count int `json:"count"`
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
	// ID is the rule's id.
	ID string `json:"id,omitempty"`
	// Name is the rule's name.
	Name string `json:"name,omitempty"`
}

// Entities are the parties of a message: Sender and Receiver on ordinary
// messages; By (who acted), On (what was acted on) and For (where) on action
// and call messages.
type Entities struct {
	// Sender is the sending user, on ordinary messages.
	Sender *Entity `json:"sender,omitempty"`
	// Receiver is the receiving user or group, on ordinary messages.
	Receiver *Entity `json:"receiver,omitempty"`
	// By is who acted, on action and call messages.
	By *Entity `json:"by,omitempty"`
	// On is what was acted on (a user, message or call).
	On *Entity `json:"on,omitempty"`
	// For is where the action happened (a group or user).
	For *Entity `json:"for,omitempty"`
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

// Actions reported in Data.Action of the action messages the service emits
// when a message changes (category "action", type "message").
const (
	ActionEdited  = "edited"
	ActionDeleted = "deleted"
)

// IsAction reports whether m is an action message: one the service emitted
// to report a change (a member added, a message edited, ...).
func (m *Message) IsAction() bool { return m.Category == CategoryAction }

// Target returns the message m is about. For an action message of type
// "message" (Data.Action "edited" or "deleted"), that is the message in
// Data.Entities.On, decoded. A message that is not an action is its own
// target, so that the answer of [MessagesService.Update] and
// [MessagesService.Delete] gives the changed message whichever shape the
// service uses. Other actions (a group member added, ...) are not about a
// message, and Target fails for them.
func (m *Message) Target() (*Message, error) {
	if !m.IsAction() {
		return m, nil
	}
	if m.Type != MessageTypeMessage || m.Data.Entities == nil {
		return nil, fmt.Errorf("chat: a %q action is not about a message", m.Type)
	}
	return m.Data.Entities.On.Message()
}

// Actor returns who performed the action m reports (Data.Entities.By), or
// for an ordinary message its sender (Data.Entities.Sender). The app shows
// as the user "app_system".
func (m *Message) Actor() (*User, error) {
	e := m.Data.Entities
	if e == nil {
		return nil, fmt.Errorf("chat: message has no entities")
	}
	if m.IsAction() {
		return e.By.User()
	}
	return e.Sender.User()
}
