package fake

import (
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/engine"
)

// PacedClock is the server's clock when its pace is known: the real clock
// (speed 0), or [WithFastClock]'s, which reads base at the real time start
// and runs speed times as fast; ahead moves either forward (see
// [WithStore]). A client's limiter paces by it ([Server.RateLimiter]).
type PacedClock struct {
	start, base time.Time
	speed       time.Duration
	ahead       time.Duration
}

// At returns the server's time when the real clock reads t.
func (c *PacedClock) At(t time.Time) time.Time {
	if c.speed == 0 {
		return t.Add(c.ahead)
	}
	return c.base.Add(t.Sub(c.start)*c.speed + c.ahead)
}

// Real returns how long d of the server's time lasts on the real clock.
func (c *PacedClock) Real(d time.Duration) time.Duration {
	if c.speed == 0 {
		return d
	}
	return d / c.speed
}

// NewFastClock returns a clock that runs speed times as fast as the real
// one, from the real time at which it is called: its minutes start when
// the real clock is at a multiple of a minute / speed.
func NewFastClock(speed int) *PacedClock {
	start := time.Now()
	window := time.Minute / time.Duration(speed)
	into := start.Sub(start.Truncate(window)) // how far start is into its real window
	return &PacedClock{start: start, base: start.Truncate(time.Minute).Add(into * time.Duration(speed)), speed: time.Duration(speed)}
}

// Now is the server's time.
func (c *PacedClock) Now() time.Time { return c.At(time.Now()) }

// notBefore returns c, moved forward by whole minutes of its time when it
// reads earlier than last, so that it reads later: the server's minutes
// stay aligned as they were.
func (c *PacedClock) notBefore(last time.Time) *PacedClock {
	behind := last.Sub(c.Now())
	if behind < 0 {
		return c
	}
	moved := *c
	moved.ahead += behind.Truncate(time.Minute) + time.Minute
	return &moved
}

// RateLimiter does the work of chattest.Server.RateLimiter, which documents it.
func (s *Core) RateLimiter(limits chat.RateLimits) *chat.RateLimiter {
	if limits.Core <= 0 && s.rateCore >= 1 {
		limits.Core = s.rateCore
	}
	if limits.Standard <= 0 && s.rateStandard >= 1 {
		limits.Standard = s.rateStandard
	}
	if s.paced == nil {
		return chat.NewRateLimiter(limits)
	}
	return engine.NewPacedRateLimiter(limits, s.paced)
}
