package chat

import (
	"cmp"
	"context"
	"fmt"

	"golang.org/x/time/rate"

	"github.com/chatrest/chat/internal/engine"
)

// BulkImportUsers imports any number of users and returns one result per
// user, in the order given. It splits them into requests of at most
// opts.BatchSize (default [MaxImportEntities]) and sends those one after
// another, paced at opts.RequestsPerMinute (default
// [DefaultImportRequestsPerMinute]). One at a time is enough: at 60
// requests a minute one is due every second, longer than a request
// usually takes, so sending several at once would not finish sooner.
//
// Users the SDK refuses (an empty UID, or one that repeats an earlier
// user's, case-insensitively) get an [*ArgumentError] and are not sent;
// users the service refuses get an [*ImportError]; neither stops the
// import. The error is nil when every request was answered, however many
// users failed.
//
// A request answered 429 was not processed, so it is sent again (after the
// client's own retries) once the wait the server asks for has passed
// (Retry-After, else X-Rate-Limit-Reset), up to opts.RateLimitRetries
// times; when that wait is longer than the client's cap on server waits
// ([RetryPolicy].MaxServerWait) or would pass ctx's deadline, or the
// retries run out, the 429 stops the import. No other failed request is sent again, so that
// no user is imported twice: the import stops, the users of that request
// carry its error (whether the service imported them is then unknown,
// unless it is a 429), the users not sent yet carry [ErrNotSent], and the
// error is returned. When ctx ends, the import stops at once, waits
// included, and returns the results so far with ctx's error.
//
// API: POST /v3/data_import/users (onBehalfOf not supported)
func (s *DataImportService) BulkImportUsers(ctx context.Context, users []ImportUser, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[User], error) {
	return bulkImport[ImportUser, User](ctx, s, &userImport, users, opts, reqOpts)
}

// BulkImportGroups imports any number of groups and returns one result per
// group, in the order given, as [DataImportService.BulkImportUsers] does
// for users.
//
// API: POST /v3/data_import/groups (onBehalfOf not supported)
func (s *DataImportService) BulkImportGroups(ctx context.Context, groups []ImportGroup, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[Group], error) {
	return bulkImport[ImportGroup, Group](ctx, s, &groupImport, groups, opts, reqOpts)
}

// BulkImportMembers imports any number of group memberships and returns
// one result per membership, in the order given, as
// [DataImportService.BulkImportUsers] does for users.
//
// API: POST /v3/data_import/members (onBehalfOf not supported)
func (s *DataImportService) BulkImportMembers(ctx context.Context, members []ImportMember, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[ImportedMember], error) {
	return bulkImport[ImportMember, ImportedMember](ctx, s, &memberImport, members, opts, reqOpts)
}

// BulkImportMessages imports any number of messages and returns one result
// per message, in the order given, as [DataImportService.BulkImportUsers]
// does for users. The requests go in the order of messages: give them in
// chronological order, as the service asks.
//
// API: POST /v3/data_import/messages (onBehalfOf not supported)
func (s *DataImportService) BulkImportMessages(ctx context.Context, messages []ImportMessage, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[Message], error) {
	return bulkImport[ImportMessage, Message](ctx, s, &messageImport, messages, opts, reqOpts)
}

// pacer returns the pace of a bulk import to the endpoint prop: the
// client's shared default, or a pace of its own at perMinute.
func (s *DataImportService) pacer(prop string, perMinute int) *rate.Limiter {
	if perMinute > 0 {
		return newPacer(perMinute)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pacers == nil {
		s.pacers = map[string]*rate.Limiter{}
	}
	p := s.pacers[prop]
	if p == nil {
		p = newPacer(DefaultImportRequestsPerMinute)
		s.pacers[prop] = p
	}
	return p
}

// newPacer lets perMinute requests through a minute, evenly: a burst of one
// means no two requests closer than a minute / perMinute.
func newPacer(perMinute int) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(float64(perMinute)/60), 1)
}

// bulkRun is one bulk import in progress.
type bulkRun[In any] struct {
	s       *DataImportService
	sp      *importSpec[In]
	items   []In
	keys    []string
	pacer   *rate.Limiter
	retries int
	reqOpts []RequestOption
	prog    BulkProgress
}

func bulkImport[In, Out any](ctx context.Context, s *DataImportService, sp *importSpec[In], items []In, o *BulkOptions, reqOpts []RequestOption) ([]BulkResult[Out], error) {
	var opt BulkOptions
	if o != nil {
		opt = *o
	}
	switch {
	case opt.BatchSize < 0 || opt.BatchSize > MaxImportEntities:
		return nil, newArgError("opts.BatchSize", fmt.Sprintf("must be between 0 and %d", MaxImportEntities))
	case opt.RequestsPerMinute < 0:
		return nil, newArgError("opts.RequestsPerMinute", "must not be negative")
	}
	batch := cmp.Or(opt.BatchSize, MaxImportEntities)
	retries := cmp.Or(opt.RateLimitRetries, defaultRateLimitRetries)
	run := &bulkRun[In]{s: s, sp: sp, items: items, pacer: s.pacer(sp.prop, opt.RequestsPerMinute),
		retries: max(retries, 0), reqOpts: reqOpts, prog: BulkProgress{Total: len(items)}}

	keys, errs := sp.keys(items)
	run.keys = keys
	results := make([]BulkResult[Out], len(items))
	pending := make([]int, 0, len(items))
	for i := range items {
		results[i] = BulkResult[Out]{Index: i, Key: keys[i], Err: errs[i]}
		if errs[i] != nil {
			run.prog.Done++
			run.prog.Failed++
		} else {
			pending = append(pending, i)
		}
	}
	report := func() {
		if opt.Progress != nil {
			opt.Progress(run.prog)
		}
	}

	for len(pending) > 0 {
		chunk := pending[:min(batch, len(pending))]
		pending = pending[len(chunk):]
		got, itemErr, err := sendChunk[In, Out](ctx, run, chunk)
		if err != nil {
			fail(results, chunk, itemErr)
			fail(results, pending, fmt.Errorf("%w: %w", ErrNotSent, err))
			run.prog.Done += len(chunk)
			run.prog.Failed += len(chunk)
			report()
			return results, err
		}
		for n, i := range chunk {
			results[i] = got[n]
			if got[n].Success {
				run.prog.Succeeded++
			} else {
				run.prog.Failed++
			}
		}
		run.prog.Done += len(chunk)
		report()
	}
	return results, nil
}

// fail sets err as the result of the entities idx.
func fail[T any](results []BulkResult[T], idx []int, err error) {
	for _, i := range idx {
		results[i].Err = err
	}
}

// sendChunk sends the entities idx in one request when the pace allows.
// The request goes through the client's one retry loop with the import's
// pace before every attempt and run.retries further retries of a 429 (the
// service did not process the request), each after the wait the server
// asks for, within the client's cap on server waits. On failure, itemErr
// is what the entities carry and err what stops the import.
func sendChunk[In, Out any](ctx context.Context, run *bulkRun[In], idx []int) (got []BulkResult[Out], itemErr, err error) {
	var attempts int
	got, err = importChunk[In, Out](ctx, run.s.c, run.sp, run.items, run.keys, idx, run.reqOpts,
		engine.CallConfig{Pace: run.pacer, RateLimitRetries: run.retries, Attempts: &attempts})
	run.prog.Requests += attempts
	switch {
	case err == nil:
		return got, nil, nil
	case attempts == 0: // never sent: its pace or the context ended first
		return nil, fmt.Errorf("%w: %w", ErrNotSent, err), err
	}
	return nil, err, err
}
