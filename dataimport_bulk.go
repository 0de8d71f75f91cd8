package chat

import (
	"cmp"
	"context"
	"fmt"

	"golang.org/x/time/rate"
)

// BulkImportUsers imports any number of users and returns one result per
// user, in the order given, through the same pipeline as
// [DataImportService.StreamUsers]. It splits them into requests of at most
// opts.BatchSize (default [MaxImportEntities]) and sends those one after
// another, paced at opts.RequestsPerMinute (default
// [DefaultImportRequestsPerMinute]). One at a time is enough: at 60
// requests a minute one is due every second, longer than a request
// usually takes, so sending several at once would not finish sooner.
//
// Users the SDK refuses (an empty UID, one that repeats an earlier
// user's, case-insensitively, one [ImportUser.Validate] refuses, or one
// too large for a request of its own) get an [*ArgumentError] and are not
// sent; each request also stays under [MaxImportRequestBytes];
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

// bulkImport imports items through the one pipeline of the imports,
// streamImport, and returns one result per item: those it did not yield
// (the import stopped first) carry ErrNotSent wrapping the cause.
func bulkImport[In, Out any](ctx context.Context, s *DataImportService, sp *importSpec[In], items []In, o *BulkOptions, reqOpts []RequestOption) ([]BulkResult[Out], error) {
	if o != nil {
		if err := o.Validate(); err != nil {
			return nil, err
		}
	}
	// A slice refuses an id repeated anywhere in it, not only within a
	// request: keys says which.
	keys, errs := sp.keys(items)
	seq := func(yield func(In, error) bool) {
		for i := range items {
			if !yield(items[i], errs[i]) {
				return
			}
		}
	}
	results := make([]BulkResult[Out], len(items))
	got := 0
	var stop error
	for r, err := range streamImport[In, Out](ctx, s, sp, seq, o, len(items), reqOpts) {
		if err != nil {
			stop = err
			break
		}
		results[r.Index] = r.BulkResult
		got = r.Index + 1
	}
	for i := range results {
		results[i].Index = i
		results[i].Key = cmp.Or(results[i].Key, keys[i])
		if i >= got && stop != nil {
			results[i].Err = fmt.Errorf("%w: %w", ErrNotSent, stop)
		}
	}
	return results, stop
}
