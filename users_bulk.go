package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// DefaultManyConcurrency is how many requests [UsersService.CreateMany],
// [UsersService.UpdateMany] and [MembersService.AddMany] have in flight at
// once when [ManyOptions] sets no Concurrency.
const DefaultManyConcurrency = 8

// ManyOptions tunes the methods that send many requests at once:
// [UsersService.CreateMany], [UsersService.UpdateMany] and
// [MembersService.AddMany]. The zero value (or nil) suits most uses.
//
// These methods do not pace their requests themselves: give the client a
// [Limiter] ([WithLimiter]) to keep them within the app's budgets, or they
// go as fast as Concurrency allows and meet the service's 429s (which the
// client's retries then absorb, when the service's wait is short enough).
type ManyOptions struct {
	// Concurrency is how many requests are in flight at once; 0 means
	// [DefaultManyConcurrency].
	Concurrency int
	// Progress, when set, is called after each request is answered (or
	// fails), from the goroutine that called the method: one call at a
	// time, in the order the answers arrive. It should return quickly, as
	// no result is taken in meanwhile.
	Progress func(ManyProgress)
}

// ManyProgress reports how far a [UsersService.CreateMany],
// [UsersService.UpdateMany] or [MembersService.AddMany] is.
type ManyProgress struct {
	// Total is the number of items given.
	Total int
	// Done is the number of items with a result: succeeded or failed.
	Done int
	// Succeeded is the number of items the service acted on.
	Succeeded int
	// Failed is the number of items refused by the SDK or the service, or
	// whose request failed.
	Failed int
}

// ManyResult is the outcome for one item of [UsersService.CreateMany],
// [UsersService.UpdateMany] or [MembersService.AddMany].
type ManyResult[T any] struct {
	// Index is the item's position in the slice given.
	Index int
	// ID is the item's id: the user's uid.
	ID string
	// Value is what the service answered for the item when it succeeded
	// (the user created or updated, or the member's result); nil
	// otherwise.
	Value *T
	// Err says why the item failed; nil when it succeeded. It is an
	// [*ArgumentError] for an item refused before sending (a missing or
	// repeated id, an invalid field), an [*Error] (or a transport or
	// context error) for a request that failed, or [ErrNotSent] wrapping
	// the cause for an item the method stopped before sending.
	Err error
}

// UserUpdate is one item of [UsersService.UpdateMany]: the user and the
// changes.
type UserUpdate struct {
	// UID is the user to update.
	UID string
	// Request holds the changes, as for [UsersService.Update].
	Request UpdateUserRequest
}

// CreateMany creates the users reqs and returns one result per user, in
// the order given, each with the user created or the reason it was not. It
// sends one request per user, opts.Concurrency (default
// [DefaultManyConcurrency]) at a time, at the pace of the client's
// [Limiter] if it has one ([WithLimiter]): with a [RateLimiter] at the
// service's budgets, 97% of the core budget, 9,700 users a minute, with no
// 429.
//
// A user the SDK refuses (an empty UID or Name, a UID that repeats an
// earlier one, case-insensitively, or a field over the service's limits)
// gets an [*ArgumentError] and is not sent; a user the service refuses gets
// its [*Error] (a UID in use: ERR_UID_ALREADY_EXISTS, matching
// [ErrConflict]). Neither stops the others, and the error is nil when every
// user was sent, however many failed.
//
// No user is created twice: a request is sent again only when the service
// did not process it (a 429, or a connection that failed before sending),
// as the client's retry policy says. When a request's outcome is unknown (a
// 5xx or a timeout), its user carries that error: the user may exist.
// Running CreateMany again for the failed users then reports, for those
// that do, ERR_UID_ALREADY_EXISTS.
//
// When ctx ends, CreateMany returns at once with the results so far and
// ctx's error: the requests in flight carry it (whether the service
// processed them is unknown), and the users not sent carry [ErrNotSent]. An
// answer 401 (a wrong API key) stops it the same way, with that error, as
// every request would meet it.
//
// API: POST /v3/users (onBehalfOf not supported)
func (s *UsersService) CreateMany(ctx context.Context, reqs []CreateUserRequest, opts *ManyOptions, reqOpts ...RequestOption) ([]ManyResult[User], error) {
	if err := checkManyOptions(opts); err != nil {
		return nil, err
	}
	results := make([]ManyResult[User], len(reqs))
	for i := range reqs {
		results[i] = ManyResult[User]{Index: i, ID: reqs[i].UID}
	}
	jobs := singles(results, "reqs", func(i int) string { return reqs[i].UID })
	return results, runMany(ctx, opts, results, jobs, func(ctx context.Context, job []int) {
		i := job[0]
		results[i].Value, results[i].Err = s.Create(ctx, &reqs[i], reqOpts...)
	})
}

// UpdateMany applies the changes updates and returns one result per
// update, in the order given, each with the user as changed or the reason
// it was not. It sends one request per update, opts.Concurrency (default
// [DefaultManyConcurrency]) at a time, at the pace of the client's
// [Limiter] if it has one.
//
// Updates the SDK refuses (an empty UID, one that repeats an earlier
// update's, case-insensitively, or a field over the service's limits) get
// an [*ArgumentError] and are not sent; updates the service refuses get its
// [*Error] (an unknown user: ERR_UID_NOT_FOUND, matching [ErrNotFound]).
// Neither stops the others, and the error is nil when every update was
// sent. A context that ends, or an answer 401, stops UpdateMany as it stops
// [UsersService.CreateMany]. An update is idempotent: the client's retry
// policy may send it again after a 5xx.
//
// API: PUT /v3/users/{uid} (onBehalfOf not supported)
func (s *UsersService) UpdateMany(ctx context.Context, updates []UserUpdate, opts *ManyOptions, reqOpts ...RequestOption) ([]ManyResult[User], error) {
	if err := checkManyOptions(opts); err != nil {
		return nil, err
	}
	results := make([]ManyResult[User], len(updates))
	for i := range updates {
		results[i] = ManyResult[User]{Index: i, ID: updates[i].UID}
	}
	jobs := singles(results, "updates", func(i int) string { return updates[i].UID })
	return results, runMany(ctx, opts, results, jobs, func(ctx context.Context, job []int) {
		i := job[0]
		results[i].Value, results[i].Err = s.Update(ctx, updates[i].UID, &updates[i].Request, reqOpts...)
	})
}

// checkManyOptions refuses options no run can use.
func checkManyOptions(o *ManyOptions) error {
	if o != nil && o.Concurrency < 0 {
		return newArgError("opts.Concurrency", "must not be negative")
	}
	return nil
}

// singles returns one job per item whose id is given and not seen before
// (case-insensitively), and sets the Err of the others; arg names the
// items' argument.
func singles[T any](results []ManyResult[T], arg string, id func(int) string) [][]int {
	jobs := make([][]int, 0, len(results))
	idx := make([]int, len(results)) // backing array of the jobs
	seen := make(map[string]int, len(results))
	for i := range results {
		if err := uniqueID(seen, i, id(i), arg); err != nil {
			results[i].Err = err
			continue
		}
		idx[i] = i
		jobs = append(jobs, idx[i:i+1:i+1])
	}
	return jobs
}

// uniqueID refuses an empty id, or one seen before (case-insensitively, as
// the service lower-cases ids); it records the id of item i of the
// argument arg in seen.
func uniqueID(seen map[string]int, i int, id, arg string) error {
	field := arg + "[" + strconv.Itoa(i) + "].UID"
	if id == "" {
		return newArgError(field, "must not be empty")
	}
	key := strings.ToLower(id)
	if first, ok := seen[key]; ok {
		return newArgError(field, "repeats "+arg+"["+strconv.Itoa(first)+"].UID")
	}
	seen[key] = i
	return nil
}

// runMany sends jobs (each a set of item indexes) with send, up to
// opts.Concurrency at a time, and reports progress as they finish. send
// writes the results of its job's items. Items that already have an Err
// count as failed without being sent. runMany returns when every job has
// finished, or, once ctx ends or an item fails with ErrUnauthorized, when
// the jobs in flight have; the items of the jobs not started then carry
// ErrNotSent wrapping the cause, which is returned.
func runMany[T any](ctx context.Context, opts *ManyOptions, results []ManyResult[T], jobs [][]int, send func(context.Context, []int)) error {
	var o ManyOptions
	if opts != nil {
		o = *opts
	}
	workers := min(o.Concurrency, len(jobs))
	if o.Concurrency == 0 {
		workers = min(DefaultManyConcurrency, len(jobs))
	}
	prog := ManyProgress{Total: len(results)}
	for _, r := range results {
		if r.Err != nil {
			prog.Done++
			prog.Failed++
		}
	}

	todo := make(chan []int)
	done := make(chan []int, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for job := range todo {
				send(ctx, job)
				done <- job
			}
		})
	}

	var stop error
	ctxDone := ctx.Done()
	started, running := 0, 0
	for {
		if stop == nil && ctx.Err() != nil {
			stop = ctx.Err()
		}
		var feed chan []int
		var next []int
		if stop == nil && started < len(jobs) {
			feed, next = todo, jobs[started]
		}
		if feed == nil && running == 0 {
			break
		}
		select {
		case feed <- next:
			started++
			running++
		case job := <-done:
			running--
			for _, i := range job {
				prog.Done++
				if err := results[i].Err; err != nil {
					prog.Failed++
					if stop == nil && errors.Is(err, ErrUnauthorized) {
						stop = err
					}
				} else {
					prog.Succeeded++
				}
			}
			if o.Progress != nil {
				o.Progress(prog)
			}
		case <-ctxDone:
			ctxDone = nil
			if stop == nil {
				stop = ctx.Err()
			}
		}
	}
	close(todo)
	wg.Wait()

	if stop == nil {
		return nil
	}
	notSent := fmt.Errorf("%w: %w", ErrNotSent, stop)
	for _, job := range jobs[started:] {
		for _, i := range job {
			results[i].Err = notSent
		}
	}
	if started < len(jobs) && o.Progress != nil {
		n := 0
		for _, job := range jobs[started:] {
			n += len(job)
		}
		prog.Done += n
		prog.Failed += n
		o.Progress(prog)
	}
	return stop
}
