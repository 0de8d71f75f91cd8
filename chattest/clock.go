package chattest

import (
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/engine"
)

// pacedClock is the server's clock when its pace is known: the real clock
// (speed 0), or [WithFastClock]'s, which reads base at the real time start
// and runs speed times as fast; ahead moves either forward (see
// [WithStore]). A client's limiter paces by it ([Server.RateLimiter]).
type pacedClock struct {
	start, base time.Time
	speed       time.Duration
	ahead       time.Duration
}

// At returns the server's time when the real clock reads t.
func (c *pacedClock) At(t time.Time) time.Time {
	if c.speed == 0 {
		return t.Add(c.ahead)
	}
	return c.base.Add(t.Sub(c.start)*c.speed + c.ahead)
}

// Real returns how long d of the server's time lasts on the real clock.
func (c *pacedClock) Real(d time.Duration) time.Duration {
	if c.speed == 0 {
		return d
	}
	return d / c.speed
}

// now is the server's time.
func (c *pacedClock) now() time.Time { return c.At(time.Now()) }

// notBefore returns c, moved forward by whole minutes of its time when it
// reads earlier than last, so that it reads later: the server's minutes
// stay aligned as they were.
func (c *pacedClock) notBefore(last time.Time) *pacedClock {
	behind := last.Sub(c.now())
	if behind < 0 {
		return c
	}
	moved := *c
	moved.ahead += behind.Truncate(time.Minute) + time.Minute
	return &moved
}

// RateLimiter returns a [chat.RateLimiter] that paces by the server's
// clock, for a client of the server to stay within its budgets
// ([WithRateLimit]) in the server's time: with [WithFastClock](60), a
// minute of budget lasts a real second. A server made with [WithClock],
// whose pace it cannot know, gives a limiter that paces by the real clock.
//
//	client := srv.Client(chat.WithLimiter(srv.RateLimiter(chat.RateLimits{})))
//
// Zero budgets in limits take the server's ([WithRateLimit]), else the
// service's; limits.Per, when set, is in the server's time (zero: its
// minute, as the server counts).
func (s *Server) RateLimiter(limits chat.RateLimits) *chat.RateLimiter {
	if limits.Core <= 0 && s.h.rateCore >= 1 {
		limits.Core = s.h.rateCore
	}
	if limits.Standard <= 0 && s.h.rateStandard >= 1 {
		limits.Standard = s.h.rateStandard
	}
	if s.h.paced == nil {
		return chat.NewRateLimiter(limits)
	}
	return engine.NewPacedRateLimiter(limits, s.h.paced)
}
