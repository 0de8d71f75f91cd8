package chattest

import (
	"time"

	"github.com/chatrest/chat/chattest/internal/fake"
)

// Option configures a [Server] in [NewServer].
type Option func(*config)

// config is what the options set: the core's configuration.
type config = fake.Config

// WithAppID sets the app id (default "test-app"). It must be one DNS label
// (letters, digits and hyphens, at most 63, no hyphen at either end), as
// [chat.NewClient] requires; NewServer keeps the default otherwise, and
// [Server.AppID] reports the id in use.
func WithAppID(id string) Option { return func(c *config) { c.AppID = id } }

// WithAPIKey sets the fullAccess API key the server is seeded with
// (default: 40 random hex characters, kept in the store with
// [WithStore]). It must be printable ASCII without spaces; NewServer
// keeps the default otherwise, and [Server.APIKey] reports the key in use.
func WithAPIKey(key string) Option { return func(c *config) { c.APIKey = key } }

// WithClock makes the server read the time from now instead of [time.Now],
// for createdAt, sentAt and the other timestamps. The server calls now with
// its lock held, so never concurrently; now must not call the server back.
// A nil now keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.Clock, c.Paced = now, nil }
}

// WithFastClock makes the server's clock run speed times as fast as the
// real one, from the real time at which the option is called, so that a
// test of the budgets per minute ([WithRateLimit]) lasts seconds: with
// speed 60, a minute of the server's lasts a real second. A client's
// limiter paces by the server's clock when it comes from
// [Server.RateLimiter]. The server's minutes start when the real clock is
// at a multiple of a minute / speed. A speed below 2 keeps the real clock.
// Like [WithClock], which it replaces.
func WithFastClock(speed int) Option {
	if speed < 2 {
		return WithClock(nil)
	}
	pc := fake.NewFastClock(speed)
	return func(c *config) { c.Clock, c.Paced = pc.Now, pc }
}

// configure applies opts to the defaults.
func configure(opts []Option) config {
	cfg := fake.DefaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	cfg.Check()
	return cfg
}

// WithRealtimeAuthTimeout sets how long a websocket of the client API may
// stay open without a valid auth frame before the server closes it (1008);
// the default is 5 seconds. A d of zero or less keeps the default.
func WithRealtimeAuthTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.RTAuthTimeout = d
		}
	}
}

// WithDataImportLimit sets how many requests per minute each data import
// endpoint (POST /v3/data_import/users, groups, members and messages)
// accepts; perMinute below 1 accepts any number. Without this option the
// server enforces the service's limit of 60, so that code importing more
// than 3,000 entities a minute meets the 429s it would meet in production.
// Lower it to test pacing and retries without waiting for 60 requests.
//
// Each endpoint counts its own requests in fixed windows of one minute of
// the server's clock ([WithClock]), aligned on the minute, as
// [WithRateLimit] counts its classes: advance the clock to reach the next
// window. A request over the limit is not processed: it is answered 429
// ERR_TOO_MANY_REQUESTS with Retry-After (the whole seconds until the
// window ends, at least 1) and X-Rate-Limit-Reset (the window's end, in
// Unix seconds). The answers of these endpoints report this limit in
// X-Rate-Limit and what is left of it in X-Rate-Limit-Remaining. The
// requests also count against [WithRateLimit]'s standard class, which is
// checked first.
//
// With a clock that does not move, a window never ends: keep the imports
// of such a test within the limit, or lift it.
func WithDataImportLimit(perMinute int) Option {
	return func(c *config) {
		c.ImportLimit = perMinute
		if perMinute < 1 {
			c.ImportLimit = -1
		}
	}
}

// WithLocalNetwork opens the fake to the networks of the machine it runs
// on, e.g. for the other containers of a compose setup: its dashboard
// (/_chattest/) answers clients on any address instead of loopback ones
// only, and its webhook deliveries may go to receivers whose address is on
// the network of one of the machine's interfaces (as a host name in a
// webhook URL resolves when the delivery is made) instead of loopback ones
// only. Any other receiver is refused with [ErrNotLocalNetwork], without a
// connection. Without this option, the fake only answers the dashboard to
// loopback clients and only delivers to loopback receivers.
//
// The fake has no real security: serve it with this option only on a
// network you trust.
func WithLocalNetwork() Option { return func(c *config) { c.LocalNetwork = true } }

// WithManagementCredentials sets the management key and secret the fake's
// management API accepts (defaults: 40 random hex characters each, kept in
// the store with [WithStore]). Both must be
// printable ASCII without spaces; NewServer keeps the defaults otherwise,
// and [Server.ManagementKey] and [Server.ManagementSecret] report the
// values in use.
func WithManagementCredentials(key, secret string) Option {
	return func(c *config) { c.MgmtKey, c.MgmtSecret = key, secret }
}

// WithSeedFile starts the server from the state in the file path, as
// written by [Server.Export] (and cmd/chattest -export). With [WithStore],
// the file seeds a store that holds no state yet, and is ignored
// otherwise, so that the same options start a server every time. The
// file's app id must be the server's ([WithAppID]).
//
// A state file is JSON: {"chattest": 3, "appId": ..., "created": ...,
// "at": ..., "records": [...]}, the state itself as records: each user,
// API key, group (with its members and bans), message (with its reactions
// and receipts), conversation mark, friendship, block, call and setting
// the server held is an array [collection, key, value], with the
// credentials it issued (auth tokens, API keys) but not the server's own
// API key: keep a state file as you keep a password. Loading it sets the
// records and serves no request, so a file reads the same whatever the
// handlers of the release that reads it answer.
//
// The state files that releases before wrote are read too: format 2
// ({"state": {...}}, the state as a whole) and format 1 ({"changes":
// [...]}, the changes that made the state, replayed once through the
// handlers at their times). Format 1 may be written by hand, e.g. as
// fixture data: a change is a request ({"at", "method", "path",
// "onBehalfOf", "key", "header", "body", "status", "issued"}: key is the
// API key it was sent with, by creation order, 1 being the server's own;
// for the client API (paths under /v3.0), onBehalfOf is the user whose
// auth token sent it; status is what it answered, which replaying checks
// when present, a request answered with an error being skipped, as it
// changed nothing; issued lists the credentials it issued, which its
// replay issues again), a seeding call ({"at", "seed": "AddUser", "args":
// {...}}), or what a websocket changed ({"at", "seed": "receipt", "args":
// {"uid", "receiver", "receiverType", "action", "messageId"}} or {"at",
// "seed": "presence", "args": {"uid", "online"}}). A change without
// "issued" issues new credentials, unless it has a "status" (written by a
// release before credentials were recorded): it issues those that release
// issued.
func WithSeedFile(path string) Option { return func(c *config) { c.SeedFile = path } }

// WithExport does nothing: [Server.Export] writes the state of every
// server. (It made a server without a store keep the changes of its
// state, which Export wrote, before Export wrote the state itself.)
func WithExport() Option { return func(*config) {} }

// WithRateLimit makes the server enforce budgets per minute, as the service
// does: core requests (create and delete a user, create a group, add group
// members) may use core per minute, and all other requests standard. A
// budget below 1 leaves its class unenforced.
//
// Without this option nothing is refused, and the headers report the
// service's budgets: 10000 core and 20000 standard requests per minute.
//
// Budgets are counted in fixed windows of one minute of the server's clock
// ([WithClock]), aligned on the minute, so that a test moves to the next
// window by advancing its clock instead of sleeping. Every answer of the
// API carries X-Rate-Limit (the budget of the request's class) and
// X-Rate-Limit-Remaining (what is left of it in the window). A request over
// budget is not processed: it is answered 429 ERR_TOO_MANY_REQUESTS with
// Retry-After (the whole seconds until the window ends, at least 1) and
// X-Rate-Limit-Reset (the window's end, in Unix seconds).
//
// Every request the service sees counts, whatever its answer; a request
// answered by a [Fault] in place of the service (FaultStatus, FaultHTML,
// FaultInvalidJSON, FaultDropBefore) does not.
//
// The service also counts user connections (not a REST call) as core, and
// its "join group" is, for the REST API, adding members: the fake counts
// every POST /v3/groups/{guid}/members as core, whoever the members are.
func WithRateLimit(core, standard int) Option {
	return func(c *config) { c.RateCore, c.RateStandard = core, standard }
}

// WithRealtime serves the client API's websocket through t (see
// [RealtimeTransport]). Without it, a websocket upgrade request at "/"
// answers 501 Not Implemented; the local platform's
// github.com/chatrest/chat/cmd/chattest/platform.WithWebSocket gives a
// transport on github.com/coder/websocket.
func WithRealtime(t RealtimeTransport) Option {
	return func(c *config) {
		c.Realtime = nil
		if t != nil {
			c.Realtime = transport{t}
		}
	}
}

// WithStore keeps the server's state in s (see [Store]): opening the
// server sets the records of the last snapshot s holds, then those of the
// changes made after it, and serves on; no request is served again, so
// what s holds reads the same whatever the handlers of the release that
// opens it answer. Closing the server appends a snapshot of its state.
// Each change (the records a request, a seeding call or the client API's
// websocket set or removed) is kept in s before the request that made it
// is answered (a read waits until the changes it may show are kept), and
// a receipt of the client API's websocket before its next frame is read.
// Users whom the state leaves online (the server was killed) go offline
// as of the last change. The request log, faults, the rate limits' counts
// and webhook deliveries are not kept. The store also keeps the key that
// signs the client API's jwts, so that the client SDKs' logins stay valid
// across restarts, and the server's own API key and management
// credentials generated when it was created, used unless [WithAPIKey] or
// [WithManagementCredentials] give others.
//
// A store written by a release that kept requests instead of records is
// read once by replaying its requests through the handlers, at their
// times, and its state is kept as a snapshot at once: a request there
// answered otherwise today than it was then (success then, an error now)
// fails the opening.
//
// A store holds the state of one app: opening it for another app id fails.
// The server's own API key is kept without its secret: the server opening
// the store has its own. When the clock the
// server starts with ([WithFastClock], or the real clock) reads earlier
// than the last change, it is moved forward by whole minutes, so that time
// does not go back; a [WithClock] clock is left as given.
//
// Use [OpenServer] or [OpenHandler], which report a store that cannot be
// opened; [NewServer] and [NewHandler] answer every request with the error
// instead. Close the server ([Server.Close], [Handler.Close]) to close the
// store.
func WithStore(s Store) Option { return func(c *config) { c.Store = s } }
