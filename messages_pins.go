package chat

import (
	"context"
	"net/http"
)

// Pin pins the message id in its conversation and returns it with
// PinnedBy and PinnedAt. Without the [OnBehalfOf] option the app pins
// (PinnedBy "app_system"); with it the user pins, as their role and scope
// permit. A conversation holds at most 100 pinned messages
// (ERR_PINNED_MESSAGES_LIMIT_EXCEEDED).
//
// API: POST /v3/messages/{id}/pin (onBehalfOf optional)
func (s *MessagesService) Pin(ctx context.Context, id string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"messages", id, "pin"}}, opts)
}

// Unpin unpins the message id and returns it without PinnedBy and
// PinnedAt. It is idempotent, and any user allowed to unpin may unpin a
// message another pinned. Without the [OnBehalfOf] option the app unpins.
//
// API: DELETE /v3/messages/{id}/pin (onBehalfOf optional)
func (s *MessagesService) Unpin(ctx context.Context, id string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"messages", id, "pin"}}, opts)
}

// Save saves the message id for onBehalfOf and returns it with SavedAt,
// which only that user sees. It is idempotent (the first SavedAt stays). A
// user can save at most 100 messages (ERR_SAVED_MESSAGES_LIMIT_EXCEEDED);
// the API has no endpoint listing them.
//
// API: POST /v3/messages/{id}/save (onBehalfOf required)
func (s *MessagesService) Save(ctx context.Context, id, onBehalfOf string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodPost, Path: []string{"messages", id, "save"}, OnBehalfOf: onBehalfOf}, opts)
}

// Unsave removes the message id from onBehalfOf's saved messages and
// returns it without SavedAt. It is idempotent.
//
// API: DELETE /v3/messages/{id}/save (onBehalfOf required)
func (s *MessagesService) Unsave(ctx context.Context, id, onBehalfOf string, opts ...RequestOption) (*Message, error) {
	if err := required("id", id, "onBehalfOf", onBehalfOf); err != nil {
		return nil, err
	}
	return do[Message](ctx, s.c, &Request{Method: http.MethodDelete, Path: []string{"messages", id, "save"}, OnBehalfOf: onBehalfOf}, opts)
}
