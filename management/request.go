package management

import (
	"context"

	"github.com/chatrest/chat/internal/rest"
)

// path builds a request path from segments, each escaped on its own.
func path(segments ...string) rest.Path { return rest.NewPath(segments...) }

// do sends one call and returns the decoded "data" of its response; body is
// sent as JSON (nil sends none).
func do[T any](ctx context.Context, rc *rest.Client, method string, p rest.Path, body any, opts []RequestOption) (*T, error) {
	return rest.Data[T](ctx, rc, &rest.Call{Method: method, Path: p, Body: body, Options: opts})
}
