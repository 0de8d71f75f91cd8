package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// UserUpdate is one item of [UsersService.BulkUpdate]: the user and the
// changes.
type UserUpdate struct {
	// UID is the user to update.
	UID string
	// Request holds the changes, as for [UsersService.Update].
	Request UpdateUserRequest
}

// BulkCreate creates the users reqs and returns one result per user, in
// the order given, each with the user created or the reason it was not. It
// sends one request per user, opts.Concurrency (default
// [DefaultBulkConcurrency]) at a time, at the pace of the client's
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
// Running BulkCreate again for the failed users then reports, for those
// that do, ERR_UID_ALREADY_EXISTS.
//
// When ctx ends, BulkCreate returns at once with the results so far and
// ctx's error: the requests in flight carry it (whether the service
// processed them is unknown), and the users not sent carry [ErrNotSent]. An
// answer 401 (a wrong API key) stops it the same way, with that error, as
// every request would meet it.
//
// API: POST /v3/users (onBehalfOf not supported)
func (s *UsersService) BulkCreate(ctx context.Context, reqs []CreateUserRequest, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[User], error) {
	if err := checkBulkOptions(opts); err != nil {
		return nil, err
	}
	results := make([]BulkResult[User], len(reqs))
	for i := range reqs {
		results[i] = BulkResult[User]{Index: i, Key: reqs[i].UID}
	}
	jobs := singles(results, "reqs", func(i int) string { return reqs[i].UID })
	return results, runBulk(ctx, opts, results, jobs, func(ctx context.Context, job []int) {
		i := job[0]
		results[i].Data, results[i].Err = s.Create(ctx, &reqs[i], reqOpts...)
	})
}

// BulkUpdate applies the changes updates and returns one result per
// update, in the order given, each with the user as changed or the reason
// it was not. It sends one request per update, opts.Concurrency (default
// [DefaultBulkConcurrency]) at a time, at the pace of the client's
// [Limiter] if it has one.
//
// Updates the SDK refuses (an empty UID, one that repeats an earlier
// update's, case-insensitively, or a field over the service's limits) get
// an [*ArgumentError] and are not sent; updates the service refuses get its
// [*Error] (an unknown user: ERR_UID_NOT_FOUND, matching [ErrNotFound]).
// Neither stops the others, and the error is nil when every update was
// sent. A context that ends, or an answer 401, stops BulkUpdate as it stops
// [UsersService.BulkCreate]. An update is idempotent: the client's retry
// policy may send it again after a 5xx.
//
// API: PUT /v3/users/{uid} (onBehalfOf not supported)
func (s *UsersService) BulkUpdate(ctx context.Context, updates []UserUpdate, opts *BulkOptions, reqOpts ...RequestOption) ([]BulkResult[User], error) {
	if err := checkBulkOptions(opts); err != nil {
		return nil, err
	}
	results := make([]BulkResult[User], len(updates))
	for i := range updates {
		results[i] = BulkResult[User]{Index: i, Key: updates[i].UID}
	}
	jobs := singles(results, "updates", func(i int) string { return updates[i].UID })
	return results, runBulk(ctx, opts, results, jobs, func(ctx context.Context, job []int) {
		i := job[0]
		results[i].Data, results[i].Err = s.Update(ctx, updates[i].UID, &updates[i].Request, reqOpts...)
	})
}

// checkBulkOptions refuses options no concurrent run can use: those
// methods use Concurrency alone of the fields [BulkOptions.Validate]
// checks.
func checkBulkOptions(o *BulkOptions) error {
	if o == nil {
		return nil
	}
	return checkConcurrency(o.Concurrency)
}

// singles returns one job per item whose id is given and not seen before
// (case-insensitively), and sets the Err of the others; arg names the
// items' argument.
func singles[T any](results []BulkResult[T], arg string, id func(int) string) [][]int {
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

// runBulk sends jobs (each a set of item indexes) with send, up to
// opts.Concurrency at a time, and reports progress as they finish. send
// writes the results of its job's items. Items that already have an Err
// count as failed without being sent. runBulk returns when every job has
// finished, or, once ctx ends or an item fails with ErrUnauthorized, when
// the jobs in flight have; the items of the jobs not started then carry
// ErrNotSent wrapping the cause, which is returned.
func runBulk[T any](ctx context.Context, opts *BulkOptions, results []BulkResult[T], jobs [][]int, send func(context.Context, []int)) error {
	var o BulkOptions
	if opts != nil {
		o = *opts
	}
	workers := min(o.Concurrency, len(jobs))
	if o.Concurrency == 0 {
		workers = min(DefaultBulkConcurrency, len(jobs))
	}
	prog := BulkProgress{Total: len(results)}
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
					results[i].Success = true
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
