package management

import (
	"context"
	"net/http"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/rest"
)

// caller sends the Management API's requests: the SDK's request engine
// (path escaping, credentials, retries, errors, scrubbing), the same as
// package chat's.
type caller = *engine.Caller

// do sends req and returns the decoded "data" member of its answer.
func do[T any](ctx context.Context, c caller, req *chat.Request, opts []chat.RequestOption) (*T, error) {
	env := new(struct {
		Data T `json:"data"`
	})
	if err := c.Send(ctx, req, env, opts); err != nil {
		return nil, err
	}
	return &env.Data, nil
}

// listPage sends a GET of a list and returns the page it answers.
func listPage[T any](ctx context.Context, c caller, req *chat.Request, opts []chat.RequestOption) (*chat.Page[T], error) {
	req.Method = http.MethodGet
	page := new(chat.Page[T])
	if err := c.Send(ctx, req, page, opts); err != nil {
		return nil, err
	}
	return page, nil
}

// required checks name/value pairs and returns a [*chat.ArgumentError]
// naming the first argument that is empty or a dot segment.
func required(nameValues ...string) error {
	if name, problem := rest.Required(nameValues...); name != "" {
		return argError(name, problem)
	}
	return nil
}

func argError(name, problem string) error { return engine.NewArgError(name, problem) }
