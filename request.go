package chat

// The request engine is internal/engine, shared with packages management
// and chattest; its request.go gives the reading order of a call. A
// method's side of a call is here: it fills a [Request] and hands it to do
// or list, which hand it to the engine's Caller.Send.

import (
	"context"
	"net/http"

	"github.com/chatrest/chat/internal/engine"
	"github.com/chatrest/chat/internal/rest"
)

// Request describes one API call: what [Client.Do] sends. Every method of
// the SDK fills one and hands it to the same function. Its fields are
// Method, Path (segments, each escaped on its own), Query (a struct with
// url tags, or a url.Values), Body (sent as JSON), OnBehalfOf (the acting
// user, which wins over the [OnBehalfOf] option) and Secrets (credentials
// the request carries where no [Secret] field shows them, such as an auth
// token in its path: hidden from its errors and log lines).
type Request = engine.Request

// caller is the engine's sender for one address and set of credentials;
// every service holds one.
type caller = engine.Caller

// ErrNoClient is returned by a method of a service that has no client to
// send through: a service value made by hand rather than taken from a
// [Client].
var ErrNoClient = engine.ErrNoClient

// ErrPaceDeadline is the cause, with [context.DeadlineExceeded], of a bulk
// import request that was not sent because its turn in the pace would come
// after the context's deadline.
var ErrPaceDeadline = engine.ErrPaceDeadline

// do sends req and returns the decoded "data" member of its answer, the
// envelope every operation of the APIs answers with.
func do[T any](ctx context.Context, c *caller, req *Request, opts []RequestOption) (*T, error) {
	return doWith[T](ctx, c, req, engine.CallConfig{}, opts)
}

// doWith is do with what cfg adds to the call.
func doWith[T any](ctx context.Context, c *caller, req *Request, cfg engine.CallConfig, opts []RequestOption) (*T, error) {
	// One allocation holds the envelope and the result, which is returned
	// in place (the envelope has no other field to keep alive).
	env := new(envelope[T])
	if err := c.SendWith(ctx, req, cfg, env, opts); err != nil {
		return nil, err
	}
	return &env.Data, nil
}

// envelope is the success body: {"data": ...}.
type envelope[T any] struct {
	Data T `json:"data"`
}

// list sends a GET of a list and returns the page it answers: its data and
// meta.
func list[T any](ctx context.Context, c *caller, req *Request, opts []RequestOption) (*Page[T], error) {
	req.Method = http.MethodGet
	page := new(Page[T])
	if err := c.Send(ctx, req, page, opts); err != nil {
		return nil, err
	}
	return page, nil
}

// required checks name/value pairs and returns an [*ArgumentError] naming
// the first argument that is empty or a dot segment (which would change a
// path's shape).
func required(nameValues ...string) error {
	if name, problem := rest.Required(nameValues...); name != "" {
		return newArgError(name, problem)
	}
	return nil
}
