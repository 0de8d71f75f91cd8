package chat

import "github.com/chatrest/chat/internal/engine"

// OperationClass is a rate-limit class. The service counts each app's
// requests of a class against a budget of its own, per minute. The values
// are short lower-case words, usable in keys.
type OperationClass = engine.OperationClass

const (
	// ClassCore is the core operations: creating and deleting a user
	// (POST /v3/users, DELETE /v3/users/{uid}), creating a group
	// (POST /v3/groups) and joining one, which for the REST API is adding
	// members (POST /v3/groups/{guid}/members). The service also counts
	// users' connections, which are not REST calls, as core. Their budget
	// is [DefaultCoreBudget] requests a minute.
	ClassCore = engine.ClassCore
	// ClassStandard is every other operation, the calls API's included.
	// Its budget is [DefaultStandardBudget] requests a minute. The data
	// import endpoints count as standard, and each also has a budget of
	// its own (60 requests a minute) which their answers report and the
	// BulkImport methods keep to: a [Limiter] makes them wait for a
	// standard permit but does not learn from their answers.
	ClassStandard = engine.ClassStandard
)

// The service's budgets per minute, which a [RateLimiter] uses when
// [RateLimits] sets none.
const (
	DefaultCoreBudget     = engine.DefaultCoreBudget
	DefaultStandardBudget = engine.DefaultStandardBudget
)

// LimitKey names the budget a request draws on: its app (AppID) and its
// class (Class).
type LimitKey = engine.LimitKey

// RateObservation is what one answer said about the budget of its
// request's class, read from its headers: its Status, X-Rate-Limit
// (Limit), X-Rate-Limit-Remaining (Remaining, -1 when absent), Retry-After
// (RetryAfter), X-Rate-Limit-Reset (Reset), and when the attempt was Sent
// and its answer Received.
type RateObservation = engine.RateObservation

// Limiter paces the requests of clients built with [WithLimiter], so that
// they stay within the app's budgets instead of meeting 429s. The client
// calls Wait before every attempt, retries included, and Observe with
// every answer it receives (except the data import endpoints' answers,
// which report budgets of their own). A Limiter is used by many goroutines
// at once.
//
// [RateLimiter] is the in-process implementation. Another, for instance
// one that shares the budgets of several processes through a store, only
// needs these two methods: the key names the app and the class.
type Limiter = engine.Limiter

// RateLimits are the budgets of a [RateLimiter]: Core and Standard
// requests per Per (a minute when zero). The zero value is the service's.
type RateLimits = engine.RateLimits

// RateLimiter is the in-process [Limiter], over golang.org/x/time/rate:
// a token bucket per app and class. Create it with [NewRateLimiter] and
// give it to [WithLimiter]; one RateLimiter may serve several clients,
// which then share the budgets of their app (each app has its own). It is
// safe for concurrent use.
//
// It lets through 97% of a class's budget per window, evenly, in bursts
// of at most 1% of the budget, and adapts to what the service says: a
// smaller X-Rate-Limit, a smaller X-Rate-Limit-Remaining than it would
// let through, and a 429's wait.
type RateLimiter = engine.RateLimiter

// NewRateLimiter returns a RateLimiter with the budgets of limits; zero
// fields take the service's values: 10,000 core and 20,000 standard
// requests a minute.
func NewRateLimiter(limits RateLimits) *RateLimiter { return engine.NewRateLimiter(limits) }
