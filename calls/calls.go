// Package calls is the Calls API: the calls made in an app, their
// participants, recordings and transcriptions. It is served on its own
// address, https://{appId}.call-{region}.cometchat.io/v3, with the app's
// API key; use it through [github.com/chatrest/chat.Client.Calls]:
//
//	client, err := chat.NewClient(appID, apiKey)
//	if err != nil { ... }
//	call, err := client.Calls.Get(ctx, sessionID)
//
// The package does not import package chat (chat imports it), so it has
// its own [Page], [Timestamp] and [ErrPaginationStalled]; failed calls
// still return a [*github.com/chatrest/chat.Error] and bad arguments a
// [*github.com/chatrest/chat.ArgumentError], so the same [errors.Is]
// checks (chat.ErrNotFound, ...) apply.
package calls

import (
	"context"
	"errors"
	"iter"
	"net/http"

	"github.com/chatrest/chat/internal/rest"
)

// Service lists calls and their transcriptions. Get it from
// [github.com/chatrest/chat.Client.Calls]; it is safe for concurrent use.
//
// Every method returns a [*github.com/chatrest/chat.Error] when the API
// answers with an error (unknown session: 404 ERR_CALL_SESSION_NOT_FOUND)
// and a [*github.com/chatrest/chat.ArgumentError] for a bad argument,
// before anything is sent.
type Service struct{ rc *rest.Client }

// NewService returns the service that sends through rc. It is how
// [github.com/chatrest/chat.NewClient] builds [github.com/chatrest/chat.Client.Calls];
// use that instead. A Service without a client (NewService(nil), or the
// zero Service) fails every call with [ErrNoClient].
func NewService(rc *rest.Client) *Service { return &Service{rc: rc} }

// RequestOption changes a single call. It is the same type as
// [github.com/chatrest/chat.RequestOption]: pass
// [github.com/chatrest/chat.OnBehalfOf](uid) to scope results to a user
// (the calls that user took part in), or
// [github.com/chatrest/chat.WithHeader] for another header.
type RequestOption = rest.RequestOption

// ErrNoClient is returned by a [Service] that was not made by
// [github.com/chatrest/chat.NewClient].
var ErrNoClient = errors.New("calls: the Service has no client; use chat.Client.Calls")

// ErrPaginationStalled is yielded by an iterator whose next page would
// repeat one already fetched. It is the same value as
// [github.com/chatrest/chat.ErrPaginationStalled].
var ErrPaginationStalled = rest.ErrPaginationStalled

// ready returns ErrNoClient when s cannot send.
func (s *Service) ready() error {
	if s == nil || s.rc == nil {
		return ErrNoClient
	}
	return nil
}

// ListCallsOptions filters and pages the list of calls. Every filter is
// optional; unset fields are not sent.
//
// The reference declares no page or perPage parameter for this list,
// though it answers with meta.pagination. This sends page and perPage (the
// names every other page-numbered list of the API uses) when they are set,
// and nothing when they are zero, so that a server that ignores them is
// asked the same as without.
type ListCallsOptions struct {
	// Type keeps audio or video calls.
	Type Type `url:"type,omitempty"`
	// Mode keeps calls of one mode: call, meet or presenter.
	Mode Mode `url:"mode,omitempty"`
	// ParticipantsCount keeps calls with exactly this many participants;
	// a pointer, so that 0 can be asked for.
	ParticipantsCount *int `url:"participantsCount,omitempty"`
	// StartedAt filters on the start time (Unix seconds). The reference
	// says only that it is a 10-digit Unix time, not whether it matches
	// exactly or bounds a range.
	StartedAt Timestamp `url:"startedAt,omitempty"`
	// EndedAt filters on the end time (Unix seconds), as StartedAt.
	EndedAt Timestamp `url:"endedAt,omitempty"`
	// Status keeps calls in one status. The schema lists rejected, ongoing
	// and ended; its description also names unanswered.
	Status Status `url:"status,omitempty"`
	// ReceiverType keeps calls made to users or to groups.
	ReceiverType ReceiverType `url:"receiverType,omitempty"`
	// HasRecording keeps recorded (true) or unrecorded (false) calls.
	HasRecording *bool `url:"hasRecording,omitempty"`
	// HasTranscription keeps transcribed (true) or untranscribed (false)
	// calls.
	HasTranscription *bool `url:"hasTranscription,omitempty"`
	// UID keeps the calls that user took part in.
	UID string `url:"uid,omitempty"`
	// PerPage is the page size (not declared by the reference; see above).
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1 (not declared by the reference).
	Page int `url:"page,omitempty"`
}

// List returns one page of the app's calls; with
// [github.com/chatrest/chat.OnBehalfOf], only the calls that user took part
// in.
//
// API: GET /v3/calls (onBehalfOf optional)
func (s *Service) List(ctx context.Context, opts *ListCallsOptions, reqOpts ...RequestOption) (*Page[Call], error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	return list[Call](ctx, s.rc, rest.NewPath("calls"), opts, reqOpts)
}

// All iterates over every call opts selects, page after page from
// opts.Page (default 1). It stops after an empty or short page or the last
// page the meta names, at the first error, which it yields, and when ctx
// is done. opts is not modified.
//
// API: GET /v3/calls (onBehalfOf optional)
func (s *Service) All(ctx context.Context, opts *ListCallsOptions, reqOpts ...RequestOption) iter.Seq2[*Call, error] {
	o := ListCallsOptions{}
	if opts != nil {
		o = *opts
	}
	return walk(ctx, o.Page, o.PerPage, func(ctx context.Context, page int) (*Page[Call], error) {
		q := o
		q.Page = page
		return s.List(ctx, &q, reqOpts...)
	})
}

// Get returns the call sessionID with its participants, recordings and
// latest transcriptions. With [github.com/chatrest/chat.OnBehalfOf], the
// call must be one that user took part in.
//
// API: GET /v3/calls/{sessionId} (onBehalfOf optional)
func (s *Service) Get(ctx context.Context, sessionID string, opts ...RequestOption) (*Call, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	if err := s.rc.Required("sessionID", sessionID); err != nil {
		return nil, err
	}
	return rest.Get[Call](ctx, s.rc, rest.NewPath("calls", sessionID), nil, "", opts)
}

// ListTranscriptionsOptions pages the transcriptions of a call.
type ListTranscriptionsOptions struct {
	// PerPage is the page size: default 100, at most 1000.
	PerPage int `url:"perPage,omitempty"`
	// Page is the page number, from 1 (the default).
	Page int `url:"page,omitempty"`
}

// ListTranscriptions returns one page of the transcriptions of the call
// sessionID, newest first. The list is empty until the transcripts are
// generated, asynchronously after the call ends.
//
// API: GET /v3/calls/{sessionId}/transcriptions (onBehalfOf optional)
func (s *Service) ListTranscriptions(ctx context.Context, sessionID string, opts *ListTranscriptionsOptions, reqOpts ...RequestOption) (*Page[Transcription], error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	if err := s.rc.Required("sessionID", sessionID); err != nil {
		return nil, err
	}
	return list[Transcription](ctx, s.rc, rest.NewPath("calls", sessionID, "transcriptions"), opts, reqOpts)
}

// AllTranscriptions iterates over every transcription of the call
// sessionID, newest first, page after page from opts.Page (default 1), as
// [Service.All] does.
//
// API: GET /v3/calls/{sessionId}/transcriptions (onBehalfOf optional)
func (s *Service) AllTranscriptions(ctx context.Context, sessionID string, opts *ListTranscriptionsOptions, reqOpts ...RequestOption) iter.Seq2[*Transcription, error] {
	o := ListTranscriptionsOptions{}
	if opts != nil {
		o = *opts
	}
	return walk(ctx, o.Page, o.PerPage, func(ctx context.Context, page int) (*Page[Transcription], error) {
		q := o
		q.Page = page
		return s.ListTranscriptions(ctx, sessionID, &q, reqOpts...)
	})
}

// list fetches one page of a list; query is a struct with url tags.
func list[T any](ctx context.Context, rc *rest.Client, p rest.Path, query any, opts []RequestOption) (*Page[T], error) {
	var page Page[T]
	if err := rc.Do(ctx, &rest.Call{Method: http.MethodGet, Path: p, Query: query, Options: opts}, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// walk iterates over a page-numbered list from page first, fetching each
// page with fetch.
func walk[T any](ctx context.Context, first, perPage int, fetch func(context.Context, int) (*Page[T], error)) iter.Seq2[*T, error] {
	return rest.WalkPages(ctx, first, perPage, func(ctx context.Context, page int) ([]T, *rest.PageInfo, error) {
		p, err := fetch(ctx, page)
		if err != nil {
			return nil, nil, err
		}
		var info *rest.PageInfo
		if pg := p.Meta.Pagination; pg != nil {
			info = &rest.PageInfo{CurrentPage: pg.CurrentPage, PerPage: pg.PerPage, TotalPages: pg.TotalPages}
		}
		return p.Data, info, nil
	})
}
