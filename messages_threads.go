package chat

import (
	"context"
	"iter"
	"net/http"
)

// SendThread sends a message on behalf of onBehalfOf as a reply in the
// thread of the message parentID, and returns the created message (its
// ParentID is parentID). Both arguments, and the request as for
// [MessagesService.Send], are checked before anything is sent; the muid is
// set as Send sets it.
//
// API: POST /v3/messages/{id}/thread (onBehalfOf required)
func (s *MessagesService) SendThread(ctx context.Context, parentID, onBehalfOf string, req *SendMessageRequest, opts ...RequestOption) (*Message, error) {
	if err := required("parentID", parentID, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return s.send(ctx, []string{"messages", parentID, "thread"}, req, onBehalfOf, opts)
}

// ListThreadOptions filters and positions a list of thread replies.
type ListThreadOptions struct {
	CursorOptions
}

// ListThreadMessages returns one page of the replies in the thread of the message
// parentID. Page through with Meta.Next, or use [MessagesService.AllThreadMessages].
//
// API: GET /v3/messages/{id}/thread (onBehalfOf optional)
func (s *MessagesService) ListThreadMessages(ctx context.Context, parentID string, opts *ListThreadOptions, reqOpts ...RequestOption) (*Page[Message], error) {
	if err := required("parentID", parentID); err != nil {
		return nil, err
	}
	return list[Message](ctx, s.c, &Request{Path: []string{"messages", parentID, "thread"}, Query: opts}, reqOpts)
}

// AllThreadMessages iterates over every reply in the thread of parentID, fetching
// pages as needed from the position opts gives (nil: the start). It stops
// at the first error, which it yields, and when ctx is done.
//
// Items come in id order: oldest first with [DirectionAfter] (the default),
// newest first with [DirectionBefore].
//
// API: GET /v3/messages/{id}/thread (onBehalfOf optional)
func (s *MessagesService) AllThreadMessages(ctx context.Context, parentID string, opts *ListThreadOptions, reqOpts ...RequestOption) iter.Seq2[*Message, error] {
	return cursorIter(ctx, opts, func(ctx context.Context, o *ListThreadOptions) (*Page[Message], error) {
		return s.ListThreadMessages(ctx, parentID, o, reqOpts...)
	})
}

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
