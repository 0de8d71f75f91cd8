package chat

import (
	"context"
	"iter"
	"net/http"
)

// Reaction is one user's reaction to a message.
type Reaction struct {
	// ID is the reaction's id.
	ID string `json:"id,omitempty"`
	// MessageID is the message reacted to.
	MessageID string `json:"messageId,omitempty"`
	// Reaction is the emoji (or a text code such as ":thumbsup:").
	Reaction string `json:"reaction,omitempty"`
	// UID is the user who reacted.
	UID string `json:"uid,omitempty"`
	// ReactedAt is when they reacted.
	ReactedAt Timestamp `json:"reactedAt,omitempty"`
	// ReactedBy is the user who reacted (uid, name, avatar, status, role,
	// createdAt, lastActiveAt, conversationId).
	ReactedBy *User `json:"reactedBy,omitempty"`
}

// ListReactionsOptions positions a list of reactions, which answers with
// meta.next {affix, id}: Limit, Affix and ID are sent as for messages;
// SentAt does not apply.
type ListReactionsOptions struct {
	CursorOptions
}

// ListReactions returns one page of the reactions to the message id, all
// emojis together. With the [OnBehalfOf] option the acting user's
// permissions apply. Use [MessagesService.AllReactions] to walk every page.
//
// API: GET /v3/messages/{id}/reactions (onBehalfOf optional)
func (s *MessagesService) ListReactions(ctx context.Context, id string, opts *ListReactionsOptions, reqOpts ...RequestOption) (*Page[Reaction], error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return list[Reaction](ctx, s.c, &Request{Path: []string{"messages", id, "reactions"}, Query: opts}, reqOpts)
}

// AllReactions iterates over every reaction to the message id, following
// Meta.Next. It stops at the first error, which it yields, and when ctx is
// done.
//
// Reactions come in id order: oldest first with [DirectionAfter] (the
// default), newest first with [DirectionBefore].
//
// API: GET /v3/messages/{id}/reactions (onBehalfOf optional)
func (s *MessagesService) AllReactions(ctx context.Context, id string, opts *ListReactionsOptions, reqOpts ...RequestOption) iter.Seq2[*Reaction, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListReactionsOptions) (*Page[Reaction], error) {
		return s.ListReactions(ctx, id, o, reqOpts...)
	})
}

// ListReactionsFor returns one page of the reactions to the message id
// with one emoji, reaction (sent as one escaped path segment). Use
// [MessagesService.AllReactionsFor] to walk every page.
//
// API: GET /v3/messages/{id}/reactions/{reaction} (onBehalfOf optional)
func (s *MessagesService) ListReactionsFor(ctx context.Context, id, reaction string, opts *ListReactionsOptions, reqOpts ...RequestOption) (*Page[Reaction], error) {
	if err := required("id", id, "reaction", reaction); err != nil {
		return nil, err
	}
	return list[Reaction](ctx, s.c, &Request{Path: []string{"messages", id, "reactions", reaction}, Query: opts}, reqOpts)
}

// AllReactionsFor iterates over every reaction with the emoji reaction to
// the message id, following Meta.Next. It stops at the first error, which
// it yields, and when ctx is done.
//
// Reactions come in id order: oldest first with [DirectionAfter] (the
// default), newest first with [DirectionBefore].
//
// API: GET /v3/messages/{id}/reactions/{reaction} (onBehalfOf optional)
func (s *MessagesService) AllReactionsFor(ctx context.Context, id, reaction string, opts *ListReactionsOptions, reqOpts ...RequestOption) iter.Seq2[*Reaction, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListReactionsOptions) (*Page[Reaction], error) {
		return s.ListReactionsFor(ctx, id, reaction, o, reqOpts...)
	})
}

// AddReaction adds the emoji reaction to the message id on behalf of
// onBehalfOf, and returns the message with its reaction counts
// (Data.Reactions). The emoji travels percent-encoded as one path segment.
//
// API: POST /v3/messages/{id}/reactions/{reaction} (onBehalfOf required)
func (s *MessagesService) AddReaction(ctx context.Context, id, reaction, onBehalfOf string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id, "reaction", reaction, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"messages", id, "reactions", reaction}, OnBehalfOf: onBehalfOf}, opts)
}

// RemoveReaction removes onBehalfOf's emoji reaction from the message id,
// and returns the message with its reaction counts (Data.Reactions).
//
// API: DELETE /v3/messages/{id}/reactions/{reaction} (onBehalfOf required)
func (s *MessagesService) RemoveReaction(ctx context.Context, id, reaction, onBehalfOf string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id, "reaction", reaction, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"messages", id, "reactions", reaction}, OnBehalfOf: onBehalfOf}, opts)
}
