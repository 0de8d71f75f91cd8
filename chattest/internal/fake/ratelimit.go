package fake

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"
)

// The service's budgets per minute, which the fake
// reports when [WithRateLimit] is not given.
const (
	serviceCoreLimit     = 10000
	serviceStandardLimit = 20000
	codeTooManyRequests  = "ERR_TOO_MANY_REQUESTS"
)

// rateClass is a rate-limit class of operations.
type rateClass int

const (
	rateStandard rateClass = iota
	rateCore
)

func (c rateClass) String() string {
	if c == rateCore {
		return "core"
	}
	return "standard"
}

// corePatterns are the core operations, with wildcard names left out so
// that the name a route gives its wildcard does not matter.
var corePatterns = map[string]bool{
	"POST /v3/users":             true,
	"DELETE /v3/users/{}":        true,
	"POST /v3/groups":            true,
	"POST /v3/groups/{}/members": true,
}

var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// classify returns the class of the route pattern; a request that matches
// no route is standard.
func classify(pattern string) rateClass {
	if corePatterns[wildcard.ReplaceAllString(pattern, "{}")] {
		return rateCore
	}
	return rateStandard
}

// rateLimiter counts requests per class in fixed one-minute windows. It is
// guarded by the state's lock.
type rateLimiter struct {
	limit   [2]int  // budget per minute, by class
	enforce [2]bool // whether the class is refused over budget
	window  int64   // the minute counted: Unix seconds / 60
	used    [2]int  // requests counted in the window, by class
}

func newRateLimiter(core, standard int) rateLimiter {
	rl := rateLimiter{limit: [2]int{rateStandard: serviceStandardLimit, rateCore: serviceCoreLimit}}
	for class, n := range map[rateClass]int{rateCore: core, rateStandard: standard} {
		if n >= 1 {
			rl.limit[class], rl.enforce[class] = n, true
		}
	}
	return rl
}

// rateInfo is what an answer says about the budget of its request's class.
type rateInfo struct {
	class      rateClass
	limit      int
	remaining  int
	refused    bool
	reset      time.Time // the window's end, when refused
	retryAfter int       // seconds, when refused
}

// roll starts a new window when now is past the counted one.
func (rl *rateLimiter) roll(now time.Time) {
	if w := now.Unix() / 60; w != rl.window {
		rl.window, rl.used = w, [2]int{}
	}
}

// admit counts one request of class at now, unless its budget is used up;
// then the request is refused and not counted.
func (rl *rateLimiter) admit(class rateClass, now time.Time) rateInfo {
	rl.roll(now)
	if rl.enforce[class] && rl.used[class] >= rl.limit[class] {
		end := time.Unix((rl.window+1)*60, 0)
		wait := int((end.Sub(now) + time.Second - 1) / time.Second) // rounded up
		return rateInfo{class: class, limit: rl.limit[class], refused: true, reset: end, retryAfter: max(wait, 1)}
	}
	rl.used[class]++
	return rl.peek(class, now)
}

// peek reports the budget of class at now without counting a request.
func (rl *rateLimiter) peek(class rateClass, now time.Time) rateInfo {
	rl.roll(now)
	return rateInfo{class: class, limit: rl.limit[class], remaining: max(rl.limit[class]-rl.used[class], 0)}
}

// setHeaders writes the rate-limit headers of an answer.
func (ri rateInfo) setHeaders(h http.Header) {
	h["X-Rate-Limit"] = []string{strconv.Itoa(ri.limit)} // canonical keys, set without canonicalizing
	h["X-Rate-Limit-Remaining"] = []string{strconv.Itoa(ri.remaining)}
	if ri.refused {
		h.Set("Retry-After", strconv.Itoa(ri.retryAfter))
		h.Set("X-Rate-Limit-Reset", strconv.FormatInt(ri.reset.Unix(), 10))
	}
}

func errTooManyRequests(ri rateInfo) *apiError {
	return newAPIError(http.StatusTooManyRequests, codeTooManyRequests,
		fmt.Sprintf("Too many requests: the app has used its %d %s requests of this minute.", ri.limit, ri.class),
		fmt.Sprintf("Retry after %d seconds.", ri.retryAfter))
}
