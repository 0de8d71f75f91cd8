package chat

import (
	"errors"
	"strconv"
)

// The bulk methods send many items in as few calls as the API allows and
// return one [BulkResult] per item: [UsersService.BulkCreate],
// [UsersService.BulkUpdate] and [MembersService.BulkAdd] send their items
// concurrently, within the client's [Limiter]; the
// [DataImportService.BulkImportUsers] family sends batches of entities one
// after another, at the data import endpoints' pace, and the
// [DataImportService.StreamUsers] family does the same for entities from
// an iterator, however many, in flat memory.

// DefaultBulkConcurrency is how many requests [UsersService.BulkCreate],
// [UsersService.BulkUpdate] and [MembersService.BulkAdd] have in flight at
// once when [BulkOptions] sets no Concurrency.
const DefaultBulkConcurrency = 8

// DefaultImportRequestsPerMinute is the pace of the BulkImport methods when
// [BulkOptions] sets none: the service's limit of 60 requests per minute
// per data import endpoint.
const DefaultImportRequestsPerMinute = 60

// defaultRateLimitRetries is BulkOptions.RateLimitRetries when zero.
const defaultRateLimitRetries = 5

// BulkOptions tunes the bulk methods. The zero value (or nil) suits the
// service's limits; a field that a method does not use is ignored by it.
//
// The concurrent methods ([UsersService.BulkCreate],
// [UsersService.BulkUpdate], [MembersService.BulkAdd]) do not pace their
// requests themselves: give the client a [Limiter] ([WithLimiter]) to keep
// them within the app's budgets, or they go as fast as Concurrency allows
// and meet the service's 429s (which the client's retries then absorb,
// when the service's wait is short enough). The BulkImport methods keep to
// the data import endpoints' pace, and with a Limiter also wait for a
// permit of the standard budget.
type BulkOptions struct {
	// Concurrency is how many requests the concurrent methods have in
	// flight at once; 0 means [DefaultBulkConcurrency]. For the Stream
	// methods of the data import, 0 means 1.
	Concurrency int
	// BatchSize is how many entities each request of a BulkImport or
	// Stream method carries at most, 1 to [MaxImportEntities]; 0 means
	// MaxImportEntities. A request also stays under
	// [MaxImportRequestBytes].
	BatchSize int
	// RequestsPerMinute paces the requests of a BulkImport method. 0 means
	// [DefaultImportRequestsPerMinute] on a pace the client shares between
	// its bulk imports to the same endpoint, so that imports run one after
	// the other (or at once) stay within the service's limit together. Any
	// other value paces this import alone: set it for an account with
	// another limit, or high in tests against a fake.
	RequestsPerMinute int
	// RateLimitRetries is how many times a BulkImport request answered 429
	// is sent again, beyond the client's own retries ([WithRetryPolicy]);
	// 0 means 5, a negative value none.
	RateLimitRetries int
	// Progress, when set, is called after each request is answered (or
	// fails), from the goroutine that called the method: one call at a
	// time, in the order the answers arrive. It should return quickly, as
	// no result is taken in meanwhile.
	Progress func(BulkProgress)
}

// Validate checks o as the BulkImport and Stream methods of
// [DataImportService] do before sending: BatchSize from 0 to
// [MaxImportEntities], RequestsPerMinute and Concurrency not negative.
// [UsersService.BulkCreate], [UsersService.BulkUpdate] and
// [MembersService.BulkAdd] check Concurrency alone, the one of these
// fields they use. It returns an [*ArgumentError] naming the field at
// fault (e.g. "opts.BatchSize"), or nil.
func (o *BulkOptions) Validate() error {
	switch {
	case o.BatchSize < 0 || o.BatchSize > MaxImportEntities:
		return newArgError("opts.BatchSize", "must be between 0 and "+strconv.Itoa(MaxImportEntities))
	case o.RequestsPerMinute < 0:
		return newArgError("opts.RequestsPerMinute", "must not be negative")
	}
	return checkConcurrency(o.Concurrency)
}

// checkConcurrency refuses a negative BulkOptions.Concurrency.
func checkConcurrency(n int) error {
	if n < 0 {
		return newArgError("opts.Concurrency", "must not be negative")
	}
	return nil
}

// BulkProgress reports how far a bulk method is.
type BulkProgress struct {
	// Total is the number of items given.
	Total int
	// Done is the number of items with a result: succeeded or failed.
	Done int
	// Succeeded is the number of items the service acted on (created,
	// updated, added, imported).
	Succeeded int
	// Failed is the number of items refused by the SDK or the service, or
	// carried by a request that failed.
	Failed int
	// Requests is the number of requests sent, repeated ones included.
	Requests int
}

// BulkResult is the outcome for one item of a bulk method, or of a single
// import request ([DataImportService.ImportUsers], ...).
type BulkResult[T any] struct {
	// Index is the item's position in the slice given.
	Index int
	// Key is the item's id: the uid, the guid, "<guid>_member_<uid>" for
	// an imported membership, or the muid of an imported message. Empty
	// when the item had none.
	Key string
	// Success reports whether the service acted on the item; then Err is
	// nil.
	Success bool
	// Data is what the service answered for the item (the user created or
	// updated, the member's result, the entity imported); nil when it
	// answered nothing for it.
	Data *T
	// Err says why the item failed; nil when it succeeded. It is an
	// [*ArgumentError] for an item refused before sending (a missing or
	// repeated id, an invalid field), an [*ImportError] or
	// [*AddMemberError] for an item the service refused within a
	// successful answer, an [*Error] (or a transport or context error) for
	// a request that failed, or [ErrNotSent] wrapping the cause for an
	// item the method stopped before sending.
	Err error
}

// ErrNotSent is the Err of an item a bulk method stopped before sending,
// because its context ended or a request failed. It wraps that cause. The
// item was not sent: it may be sent again.
var ErrNotSent = errors.New("chat: not sent: the bulk operation stopped before this item's request")
