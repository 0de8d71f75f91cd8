package redislimit

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/chatrest/chat"
)

// Defaults of a [Limiter]'s options.
const (
	// DefaultPrefix starts the names of the keys a Limiter keeps in Redis.
	DefaultPrefix = "chat:"
	// DefaultFallbackShare is the share of each budget a process paces at
	// on its own while Redis is unreachable: 10%, so that a fleet of up to
	// ten processes stays within the budgets.
	DefaultFallbackShare = 0.1
	// DefaultTimeout bounds each command sent to Redis.
	DefaultTimeout = 250 * time.Millisecond
	// DefaultProbeInterval is how often a Limiter whose Redis is
	// unreachable tries it again.
	DefaultProbeInterval = time.Second
)

// Option configures a [Limiter].
type Option func(*config)

// config is what the options set.
type config struct {
	limits        chat.RateLimits
	prefix        string
	failClosed    bool
	share         float64
	logger        *slog.Logger
	timeout       time.Duration
	probeInterval time.Duration
	problem       string // the first invalid option, reported by New
}

func (c *config) invalid(format string, args ...any) {
	if c.problem == "" {
		c.problem = fmt.Sprintf(format, args...)
	}
}

// WithLimits sets the budgets the fleet shares, per app and class, as for
// [chat.NewRateLimiter]: zero fields take the service's values (10,000
// core and 20,000 standard requests a minute). Every process sharing a
// budget must be given the same limits.
func WithLimits(limits chat.RateLimits) Option {
	return func(c *config) { c.limits = limits }
}

// WithPrefix sets the prefix of the keys the Limiter keeps in Redis
// (default [DefaultPrefix]). Processes share a budget when they use the
// same Redis, the same prefix and the same app id; a different prefix
// keeps, say, a staging fleet apart from production's on one Redis.
func WithPrefix(prefix string) Option {
	return func(c *config) { c.prefix = prefix }
}

// WithFallback makes the Limiter, while Redis is unreachable, pace each
// process on its own at share of each budget (0 < share ≤ 1). This is the
// default, at [DefaultFallbackShare]. Choose share as 1 / the number of
// processes, or less, for the fleet to stay within the budgets during an
// outage.
func WithFallback(share float64) Option {
	return func(c *config) {
		if !(share > 0 && share <= 1) { // also refuses NaN
			c.invalid("fallback share %v is not in (0, 1]", share)
			return
		}
		c.failClosed, c.share = false, share
	}
}

// WithFailClosed makes the Limiter refuse every request while Redis is
// unreachable: Wait returns an error matching [ErrUnavailable] at once, and
// the client's call fails without being sent. Choose it when exceeding the
// budgets is worse than failing calls.
func WithFailClosed() Option {
	return func(c *config) { c.failClosed = true }
}

// WithLogger sets where the Limiter reports that Redis became unreachable
// (at warning level, once per outage) and reachable again (at info level).
// The default, and nil, is [slog.Default].
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithTimeout bounds each command the Limiter sends to Redis (default
// [DefaultTimeout]): a Redis that does not answer within it counts as
// unreachable, so that a dead connection never holds a request longer.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.invalid("timeout %v is not positive", d)
			return
		}
		c.timeout = d
	}
}

// WithProbeInterval sets how often a Limiter whose Redis is unreachable
// tries it again (default [DefaultProbeInterval]). Between tries, requests
// take the fallback at once, without waiting for Redis.
func WithProbeInterval(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.invalid("probe interval %v is not positive", d)
			return
		}
		c.probeInterval = d
	}
}
