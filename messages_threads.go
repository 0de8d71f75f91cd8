package chat

import (
	"context"
	"iter"
	"net/http"
)

// ListThreadsOptions filters and positions the list of threads. Zero
// fields are not sent.
type ListThreadsOptions struct {
	UpdateCursorOptions
	// ParticipatedByMe keeps the threads the acting user took part in.
	ParticipatedByMe bool `url:"participatedByMe,omitempty"`
	// WithUnreadReplyCount asks the service to add the acting user's
	// unread reply count to each thread; the SDK does not decode it.
	WithUnreadReplyCount bool `url:"withUnreadReplyCount,omitempty"`
	// WithMentionCount asks the service to add the acting user's mention
	// count to each thread; the SDK does not decode it.
	WithMentionCount bool `url:"withMentionCount,omitempty"`
}

// ListThreads returns one page of threads: the parent messages, each with
// ReplyCount and LastReply, ordered by when the thread last changed. With
// the [OnBehalfOf] option the list is that user's. Page through with
// Meta.Next (an UpdatedAt cursor), or use [MessagesService.AllThreads].
//
// API: GET /v3/threads (onBehalfOf optional)
func (s *MessagesService) ListThreads(ctx context.Context, opts *ListThreadsOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	return list[Message](ctx, s.c, &Request{Path: []string{"threads"}, Query: opts}, reqOpts)
}

// AllThreads iterates over every thread matching opts, following
// Meta.Next's UpdatedAt cursor. It stops at the first error, which it
// yields, and when ctx is done.
//
// Threads come by the time of their last update: least recent first with
// [DirectionAfter] (the default), most recent first with [DirectionBefore].
//
// API: GET /v3/threads (onBehalfOf optional)
func (s *MessagesService) AllThreads(ctx context.Context, opts *ListThreadsOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return updateCursorIter(ctx, opts, func(ctx context.Context, o *ListThreadsOptions) (*Page[Message], error) {
		return s.ListThreads(ctx, o, reqOpts...)
	})
}

// SubscribeThread subscribes onBehalfOf to the thread of the message id,
// so that they are notified of its replies.
//
// API: POST /v3/messages/{id}/thread/subscription (onBehalfOf required)
func (s *MessagesService) SubscribeThread(ctx context.Context, id, onBehalfOf string, opts ...RequestOption) (*Result, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"messages", id, "thread", "subscription"}, OnBehalfOf: onBehalfOf}, opts)
}

// UnsubscribeThread unsubscribes onBehalfOf from the thread of the message
// id.
//
// API: DELETE /v3/messages/{id}/thread/subscription (onBehalfOf required)
func (s *MessagesService) UnsubscribeThread(ctx context.Context, id, onBehalfOf string, opts ...RequestOption) (*Result, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Result](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"messages", id, "thread", "subscription"}, OnBehalfOf: onBehalfOf}, opts)
}
