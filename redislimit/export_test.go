package redislimit

import (
	"context"
	"time"

	"github.com/chatrest/chat"
)

// SetClock makes l read the time from now: a process whose clock is set
// apart from the others'. Call it before l is used.
func SetClock(l *Limiter, now func() time.Time) { l.now = now }

// HoldLeft returns how long l holds key back, as it reads the hold from
// Redis when asked for a permit.
func HoldLeft(ctx context.Context, l *Limiter, key chat.LimitKey) (time.Duration, error) {
	ks := l.state(key)
	ks.mu.Lock()
	ks.holdRead = time.Time{} // read Redis, not what the process knows
	ks.mu.Unlock()
	return l.hold(ctx, ks)
}
