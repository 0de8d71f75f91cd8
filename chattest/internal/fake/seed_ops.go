package fake

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/chatrest/chat"
)

// The seeding methods of Server change the state without a request: each
// runs a state method with its arguments under the lock through seeded,
// which journals the call (its name and arguments as JSON) when the server
// keeps a journal, so that replaying it makes the same change (journal.go).

// seeded runs apply(st, args), the work of the seeding method op, with
// st.mu held, and journals the call. A seeding method has no error to
// report a journal that cannot be written: the next request that changes
// the state answers it (see errNotSaved).
func seeded[A, R any](s *Core, op string, args A, apply func(*state, A) R) R {
	st := s.st
	st.mu.Lock()
	restore := st.freezeClock()
	e := st.out.begin() // outbox.go: what the call does
	r := apply(st, args)
	wait := st.keepCall()
	st.out.publish(e)
	restore()
	st.mu.Unlock()
	_ = wait() // reported by the next request, as above
	return r
}

// keepCall journals a change made outside a request, with st.mu held: a
// call of a seeding method, or an event of the client API's websocket
// (realtime.go). It returns what waits until the change is written.
func (st *state) keepCall() (wait func() error) {
	st.issuer.take()
	st.rec.what = "a seeding call or websocket event"
	if st.journal == nil {
		return st.keepRecords(time.Time{}) // checked (records.go), not kept
	}
	st.lastAt = st.clock()
	return st.keepRecords(st.lastAt)
}

// synced runs read, an inspection method that may bring lazily kept state
// up to date (see lazyParts), with st.mu held, and journals what it
// brought up to date as a call of "sync", which replays it.
func synced[R any](s *Core, read func(st *state) R) R {
	st := s.st
	st.mu.Lock()
	restore := st.freezeClock()
	st.lazy = 0
	r := read(st)
	wait := noWait
	if st.lazy != 0 {
		e := st.out.begin() // outbox.go: what bringing the state up to date did
		wait = st.keepCall()
		st.out.publish(e)
	}
	restore()
	st.mu.Unlock()
	_ = wait() // reported by the next request, as seeded's
	return r
}

// syncArgs name what a call of "sync" brings up to date.
type syncArgs struct {
	Parts lazyParts `json:"parts"`
}

// seedSync brings the parts a of the state up to date, as an inspection
// method did.
func (st *state) seedSync(a syncArgs) struct{} {
	now := st.clock()
	if a.Parts&lazyNotifications != 0 {
		st.notifSync()
	}
	if a.Parts&lazyModeration != 0 {
		st.stampModeration(chat.TimestampOf(now))
	}
	if a.Parts&lazyRoles != 0 {
		st.stampDefaults(chat.TimestampOf(now))
	}
	return struct{}{}
}

// freezeClock makes the clock read what it reads now until restore is
// called, so that a seeding method's change happens at one time, the time
// it is journaled at. It runs with st.mu held.
func (st *state) freezeClock() (restore func()) {
	clock, now := st.clock, st.clock()
	st.clock = func() time.Time { return now }
	return func() { st.clock = clock }
}

// seedOps are the seeding methods a journal replays, by name.
func seedOps() map[string]func(*state, json.RawMessage) error {
	return map[string]func(*state, json.RawMessage) error{
		"AddAPIKey":           replayOf((*state).seedAPIKey),
		"AddUser":             replayOf((*state).seedUser),
		"AddGroup":            replayOf((*state).seedGroup),
		"AddMessage":          replayOf((*state).seedMessage),
		"AddFriends":          replayOf((*state).seedFriends),
		"Block":               replayOf((*state).seedBlock),
		"AddRole":             replayOf((*state).seedRole),
		"SetRolePermissions":  replayOf((*state).seedRolePermissions),
		"SetScopePermissions": replayOf((*state).seedScopePermissions),
		"AddModerationReason": replayOf((*state).seedReason),
		"AddCall":             replayOf((*state).seedCall),
		"AddTranscription":    replayOf((*state).seedTranscription),
		"AddManagementApp":    replayOf((*state).seedApp),
		"EnableExtensions":    replayOf((*state).seedExtensions),
		"sync":                replayOf((*state).seedSync),
		receiptOp:             replayOf(func(st *state, a receiptArgs) struct{} { return st.markReceipt(a, "") }),
		presenceOp:            replayOf((*state).replayPresence),
	}
}

// replayOf replays a call of the seeding method apply from its arguments
// as JSON.
func replayOf[A, R any](apply func(*state, A) R) func(*state, json.RawMessage) error {
	return func(st *state, raw json.RawMessage) error {
		var a A
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &a); err != nil {
				return fmt.Errorf("the arguments: %w", err)
			}
		}
		apply(st, a)
		return nil
	}
}
