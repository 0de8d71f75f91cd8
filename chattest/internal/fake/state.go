package fake

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// state is everything the fake stores for its one app. Every field is
// guarded by mu; handlers run with mu held, from authentication to the
// encoding of the answer, so each request sees and leaves a consistent state.
type state struct {
	mu    sync.Mutex
	clock func() time.Time // called with mu held only
	appID string

	mgmtKey, mgmtSecret string // the management API's credentials

	users      map[string]*UserRec // by (lower-case) uid; deactivated (and soft-deleted) users stay, flagged
	usersIndex                     // the users in list order: users_index.go

	apiKeys   map[string]*apiKeyRec // by key
	apiKeySeq int64                 // creation order of keys

	messages      []*MsgRec // every stored message, in id order
	msgByID       map[int64]*MsgRec
	msgByMUID     map[muidKey]*MsgRec // the newest message of each sender and muid: messages.go
	lastMsgID     int64
	messagesIndex // the messages of each group, user pair and user: messages_index.go

	issuer issuer // the credentials the change in progress issued: credentials.go

	rate rateLimiter // requests per minute and class: ratelimit.go

	journal   Journal   // the changes kept (WithStore), once replayed; nil: none: journal.go
	replaying bool      // a journal is being replayed: journal.go
	lazy      lazyParts // what the request or call in progress brought up to date lazily: journal.go
	lastAt    time.Time // the time of the last change: a snapshot's (snapshot.go)
	rec       recorder  // what the change in progress touched: records.go

	groupsState        // groups, members, bans: groups.go
	extrasState        // reactions, pins, saves, thread subscriptions, flags: message_extras.go
	socialState        // conversations, friends, blocked users, roles, permissions, moderation reasons: social.go
	conversationsIndex // the conversations the messages make: conversations_index.go

	callsState         // calls and transcriptions: calls.go
	notificationsState // notification settings, providers, preferences, tokens, logs: notifications.go
	rulesState         // moderation rules, keyword lists, blocked, flagged, reviewed messages: moderation_rules.go
	modMessagesState   // messages submitted for moderation: moderation_messages.go
	importState        // data import pacing: dataimport.go
	agentsState        // AI agents: aiagents.go
	mgmtState          // management apps, tenants, collaborators, settings, extensions: mgmt_apps.go
	hooksState         // webhooks and their triggers: mgmt_webhooks.go
	realtimeState      // the client API's websockets: realtime.go

	out outbox // the events of the changes, for every consumer (the Core subscribes them): outbox.go
}

func newState(cfg Config) *state {
	st := &state{
		clock:   cfg.Clock,
		appID:   cfg.AppID,
		mgmtKey: cfg.MgmtKey, mgmtSecret: cfg.MgmtSecret,
		users:     map[string]*UserRec{},
		apiKeys:   map[string]*apiKeyRec{},
		msgByID:   map[int64]*MsgRec{},
		msgByMUID: map[muidKey]*MsgRec{},
		rate:      newRateLimiter(cfg.RateCore, cfg.RateStandard),
	}
	st.usersIndex.init()
	st.messagesIndex.init()
	st.groupsState.init()
	st.extrasState.init()
	st.socialState.init()
	st.conversationsIndex.init()
	st.callsState.init()
	st.notificationsState.init()
	st.rulesState.init()
	st.importState.init(cfg.ImportLimit)
	st.agentsState.init()
	st.mgmtState.init(st)
	st.hooksState.init()
	st.realtimeState.init(cfg.RTAuthTimeout)
	st.addAPIKey(cfg.APIKey, "Default key", scopeFullAccess, st.clock())
	return st
}

// Signal wakes the goroutines that wait for the next of some event. It
// makes a channel only when one waits, for events that come at every
// request. The zero value is ready to use; it is guarded by the lock of
// what holds it.
type Signal struct{ ch chan struct{} }

// Wait returns a channel that is closed at the next notify.
func (s *Signal) Wait() <-chan struct{} {
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Notify wakes the waiters.
func (s *Signal) Notify() {
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// hexID returns a deterministic 40-hex-character id, the n-th of its kind in
// this app, so that runs of a test see the same ids. Credentials are
// random instead (credentials.go).
func (st *state) hexID(kind string, n int64) string {
	sum := sha1.Sum([]byte(st.appID + "\x00" + kind + "\x00" + strconv.FormatInt(n, 10)))
	return hex.EncodeToString(sum[:])
}

// clone returns a deep copy of v made through its JSON encoding, so that
// values handed to callers share no maps or slices with the state. A value
// that cannot be encoded is returned as it is.
func clone[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}
