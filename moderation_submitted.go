package chat

import (
	"context"
	"iter"
	"net/http"
)

// SubmitMessageRequest is the body of [ModerationService.SubmitMessage]: a
// message of a chat the app runs elsewhere. Sender, Receiver and
// ReceiverType are required.
type SubmitMessageRequest struct {
	// MUID is the message's id in the other chat.
	MUID string `json:"muid,omitempty"`
	// Category is message or custom; empty leaves it to the service
	// (message).
	Category Category `json:"category,omitempty"`
	// Type is the message's type within its category; empty leaves it to
	// the service (text).
	Type MessageType `json:"type,omitempty"`
	// Sender is the sender's UID (required).
	Sender string `json:"sender"`
	// Receiver is the receiving user's UID or group's GUID (required).
	Receiver string `json:"receiver"`
	// ReceiverType says whether Receiver is a user or a group (required).
	ReceiverType ReceiverType `json:"receiverType"`
	// Data is the content the rules test: Text, Metadata, Attachments,
	// CustomData.
	Data MessageData `json:"data,omitzero"`
	// SenderUserDetails describes the sender, created when it does not
	// exist.
	SenderUserDetails *UserDetails `json:"senderUserDetails,omitempty"`
	// ReceiverUserDetails describes a user receiver, created when it does
	// not exist.
	ReceiverUserDetails *UserDetails `json:"receiverUserDetails,omitempty"`
	// ReceiverGroupDetails describes a group receiver, created when it does
	// not exist.
	ReceiverGroupDetails *GroupDetails `json:"receiverGroupDetails,omitempty"`
	// Tags are the message's tags.
	Tags []string `json:"tags,omitempty"`
	// SentAt is when the message was sent in the other chat; zero leaves
	// it to the service (the time it is submitted).
	SentAt Timestamp `json:"sentAt,omitempty"`
}

// Validate checks r as [ModerationService.SubmitMessage] does before
// sending: Sender and Receiver set, ReceiverType user or group, the tags,
// and the details of the sender and receiver, which must name the ids the
// message names. It returns an [*ArgumentError] naming the field at fault
// (e.g. "req.SenderUserDetails.uid"), or nil.
func (r *SubmitMessageRequest) Validate() error {
	return firstErr(
		required("req.Sender", r.Sender),
		checkReceiver(r.Receiver, r.ReceiverType, false),
		checkTags("req.Tags", r.Tags),
		checkPartyDetails(partyFields{"req.SenderUserDetails.", "req.ReceiverUserDetails.", "req.ReceiverGroupDetails."},
			r.Sender, r.Receiver, r.SenderUserDetails, r.ReceiverUserDetails, r.ReceiverGroupDetails),
	)
}

// SubmitMessage submits a message of a chat the app runs elsewhere to the
// app's moderation rules and returns it as kept, with its verdict in
// Data.Moderation.Status: "approved" when no rule matches, "pending" when
// a rule that blocks messages matches (the review is the app's to make),
// "disapproved" otherwise, with Data.Moderation.Rule naming the rule. The
// message is sent to no one: it is not in the app's conversations.
//
// API: POST /v3/moderation/messages (onBehalfOf not supported)
func (s *ModerationService) SubmitMessage(ctx context.Context, req *SubmitMessageRequest, opts ...RequestOption) (*Message, error) {
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"moderation", "messages"}, Body: req}, opts)
}

// ListSubmittedMessagesOptions filters and positions a list of submitted
// messages; the fields are sent when set.
type ListSubmittedMessagesOptions struct {
	CursorOptions
	// Sender keeps one sender's messages.
	Sender string `url:"sender,omitempty"`
	// ReceiverUID keeps the messages to one user.
	ReceiverUID string `url:"receiverUID,omitempty"`
	// ReceiverGUID keeps the messages to one group.
	ReceiverGUID string `url:"receiverGUID,omitempty"`
	// Category keeps one category ("message" or "custom").
	Category Category `url:"category,omitempty"`
	// Type keeps one type.
	Type MessageType `url:"type,omitempty"`
	// ModerationStatus keeps the messages with one verdict: "pending" or
	// "disapproved".
	ModerationStatus string `url:"moderationStatus,omitempty"`
}

// ListSubmittedMessages returns one page of the messages submitted with
// [ModerationService.SubmitMessage], each with its verdict.
//
// API: GET /v3/moderation/messages (onBehalfOf not supported)
func (s *ModerationService) ListSubmittedMessages(ctx context.Context, opts *ListSubmittedMessagesOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	return list[Message](ctx, s.c, &Request{Path: []string{"moderation", "messages"}, Query: opts}, reqOpts)
}

// AllSubmittedMessages iterates over every submitted message opts keeps,
// following meta.next while the service sends one. It stops at the first
// error, which it yields, and when ctx is done.
//
// Items come in the order the service lists them, page by page.
//
// API: GET /v3/moderation/messages (onBehalfOf not supported)
func (s *ModerationService) AllSubmittedMessages(ctx context.Context, opts *ListSubmittedMessagesOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListSubmittedMessagesOptions) (*Page[Message], error) {
		return s.ListSubmittedMessages(ctx, o, reqOpts...)
	})
}

// GetSubmittedMessage returns the submitted message id with its verdict.
//
// API: GET /v3/moderation/messages/{id} (onBehalfOf not supported)
func (s *ModerationService) GetSubmittedMessage(ctx context.Context, id string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodGet, Path: []string{"moderation", "messages", id}}, opts)
}

// UpdateSubmittedMessageRequest is the body of
// [ModerationService.UpdateSubmittedMessage].
type UpdateSubmittedMessageRequest struct {
	// Data carries the new Text and Metadata.
	Data MessageData `json:"data,omitzero"`
}

// UpdateSubmittedMessage edits the submitted message id and returns it,
// moderated again: its verdict is the rules' on the new content, and
// EditedAt and EditedBy are set.
//
// API: PUT /v3/moderation/messages/{id} (onBehalfOf not supported)
func (s *ModerationService) UpdateSubmittedMessage(ctx context.Context, id string, req *UpdateSubmittedMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, newArgError("req", "must not be nil")
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPut, Path: []string{"moderation", "messages", id}, Body: req}, opts)
}

// DeleteSubmittedMessage deletes the submitted message id.
//
// API: DELETE /v3/moderation/messages/{id} (onBehalfOf not supported)
func (s *ModerationService) DeleteSubmittedMessage(ctx context.Context, id string, opts ...RequestOption) (*Result, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"moderation", "messages", id}}, opts)
}
