package chat

import "github.com/chatrest/chat/internal/engine"

// RetryPolicy says how often and how long the client retries a failed
// request: MaxRetries (0 turns retries off), MinWait and MaxWait (the
// exponential backoff's bounds, 250ms and 10s when zero) and
// MaxServerWait (the longest Retry-After or X-Rate-Limit-Reset the client
// waits for, 60s when zero; beyond it the error is returned at once). See
// [WithRetryPolicy] for which requests are retried. No value may be
// negative.
type RetryPolicy = engine.RetryPolicy

// DefaultRetryPolicy is the policy of a client built without
// [WithRetryPolicy]: 3 retries, backoff from 250ms to 10s, server-requested
// waits up to 60s.
func DefaultRetryPolicy() RetryPolicy { return engine.DefaultRetryPolicy() }
