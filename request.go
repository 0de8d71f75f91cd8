package chat

import (
	"context"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// path builds a request path from segments, each escaped on its own.
func path(segments ...string) rest.Path { return rest.NewPath(segments...) }

// do sends one call and returns the decoded "data" of its response.
// body is sent as JSON (nil sends none); for GET the request has no body.
func do[T any](ctx context.Context, rc *rest.Client, method string, p rest.Path, body any, onBehalfOf string, opts []RequestOption) (*T, error) {
	return rest.Data[T](ctx, rc, &rest.Call{Method: method, Path: p, Body: body, OnBehalfOf: onBehalfOf, Options: opts})
}

// list fetches one page of a list; query is a struct with url tags. The
// query is encoded with the cached plan of its type (rest.QueryValues), not
// by go-querystring's reflection on every call.
func list[T any](ctx context.Context, rc *rest.Client, p rest.Path, query any, onBehalfOf string, opts []RequestOption) (*Page[T], error) {
	q, err := rest.QueryValues(query)
	if err != nil {
		return nil, rc.NewArgError("query", err.Error())
	}
	var page Page[T]
	if err := rc.Do(ctx, &rest.Call{Method: http.MethodGet, Path: p, Query: q, OnBehalfOf: onBehalfOf, Options: opts}, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// nonNil returns *p, or the zero value when p is nil, as a fresh copy the
// iterators may change.
func nonNil[T any](p *T) *T {
	var v T
	if p != nil {
		v = *p
	}
	return &v
}
