package chattest

import (
	"time"
)

const defaultAppID = "test-app"

// Option configures a [Server] in [NewServer].
type Option func(*config)

type config struct {
	appID        string
	apiKey       string
	clock        func() time.Time
	mgmtKey      string // management credentials (management.go)
	mgmtSecret   string
	rateCore     int // budgets per minute; below 1: not enforced (ratelimit.go)
	rateStandard int
	importLimit  int         // data import requests per minute and endpoint; 0: default, -1: not enforced (dataimport.go)
	paced        *pacedClock // the clock a client's limiter paces by: the real clock, or WithFastClock's; nil for WithClock's (clock.go)
	localNetwork bool        // WithLocalNetwork: localnetwork.go

	rtAuthTimeout time.Duration     // WithRealtimeAuthTimeout: access.go
	realtime      RealtimeTransport // WithRealtime: realtime.go

	store    Store // store.go
	seedFile string
}

// WithAppID sets the app id (default "test-app"). It must be one DNS label
// (letters, digits and hyphens, at most 63, no hyphen at either end), as
// [chat.NewClient] requires; NewServer keeps the default otherwise, and
// [Server.AppID] reports the id in use.
func WithAppID(id string) Option { return func(c *config) { c.appID = id } }

// WithAPIKey sets the fullAccess API key the server is seeded with
// (default: 40 random hex characters, kept in the store with
// [WithStore]). It must be printable ASCII without spaces; NewServer
// keeps the default otherwise, and [Server.APIKey] reports the key in use.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithClock makes the server read the time from now instead of [time.Now],
// for createdAt, sentAt and the other timestamps. The server calls now with
// its lock held, so never concurrently; now must not call the server back.
// A nil now keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock, c.paced = now, nil }
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
	start := time.Now()
	window := time.Minute / time.Duration(speed)
	into := start.Sub(start.Truncate(window)) // how far start is into its real window
	pc := &pacedClock{start: start, base: start.Truncate(time.Minute).Add(into * time.Duration(speed)), speed: time.Duration(speed)}
	return func(c *config) { c.clock, c.paced = pc.now, pc }
}

// configure applies opts to the defaults.
func configure(opts []Option) config {
	cfg := config{appID: defaultAppID, clock: time.Now, paced: &pacedClock{}}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if !validAppID(cfg.appID) {
		cfg.appID = defaultAppID
	}
	if !validAPIKey(cfg.apiKey) {
		cfg.apiKey = "" // the default: newHandler
	}
	if cfg.clock == nil {
		cfg.clock, cfg.paced = time.Now, &pacedClock{}
	}
	if !validAPIKey(cfg.mgmtKey) || !validAPIKey(cfg.mgmtSecret) {
		cfg.mgmtKey, cfg.mgmtSecret = "", "" // the defaults: newHandler
	}
	return cfg
}

// validAppID reports whether id is one DNS label, the rule chat.NewClient
// applies.
func validAppID(id string) bool {
	if id == "" || len(id) > 63 || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// validAPIKey reports whether key is printable ASCII without spaces, so that
// it travels unchanged in a header.
func validAPIKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}
