package fake

import (
	"net/http"
	"time"
)

// Config is what a [Core] is made with: the options of package chattest,
// applied and checked.
type Config struct {
	AppID        string
	APIKey       string           // the fullAccess API key; empty: one of its own (or the store's)
	Clock        func() time.Time // the server's clock; called with the state's lock held only
	MgmtKey      string           // the management credentials; empty: their own (or the store's)
	MgmtSecret   string
	RateCore     int // budgets per minute; below 1: not enforced (ratelimit.go)
	RateStandard int
	ImportLimit  int         // data import requests per minute and endpoint; 0: default, -1: not enforced (dataimport.go)
	Paced        *PacedClock // the clock a client's limiter paces by: the real clock, or a fast one; nil for a clock of the caller's
	LocalNetwork bool        // serve the machine's networks, not only loopback (the dashboard, the webhooks)

	RTAuthTimeout time.Duration // how long a websocket may stay unauthenticated; 0: the default (access.go)
	Realtime      Transport     // carries the client API's websocket; nil: none (realtime.go)

	// Consumers make the consumers of the outbox the core does not make
	// itself (the webhooks'), each reading the state through the Reader
	// it is given; they are subscribed first, in order.
	Consumers  []func(Reader) Subscriber
	RequestLog RequestLog // records the requests served; nil: none
	// Dashboard makes the dashboard served under DashboardPrefix from the
	// core it shows; it is subscribed to the outbox last. nil: none (404).
	Dashboard func(*Core) Dashboard

	Store Store // keeps the state; nil: none (store.go)
	// OpenJournal opens the journal of Store for the app appID, creating
	// its state with the creation time created when it is new, and
	// returns it with the changes the store holds, encoded. Required
	// with a Store.
	OpenJournal func(s Store, appID string, created time.Time) (Journal, [][]byte, error)

	SeedFile string // the state file the state starts from; empty: none (persist.go)
}

// defaultAppID is the app id of a configuration that gives none.
const defaultAppID = "test-app"

// DefaultConfig is the configuration the options change.
func DefaultConfig() Config {
	return Config{AppID: defaultAppID, Clock: time.Now, Paced: &PacedClock{}}
}

// Check replaces the values the options set that the server cannot use
// with the defaults.
func (c *Config) Check() {
	if !validAppID(c.AppID) {
		c.AppID = defaultAppID
	}
	if !validAPIKey(c.APIKey) {
		c.APIKey = "" // the default: newHandler
	}
	if c.Clock == nil {
		c.Clock, c.Paced = time.Now, &PacedClock{}
	}
	if !validAPIKey(c.MgmtKey) || !validAPIKey(c.MgmtSecret) {
		c.MgmtKey, c.MgmtSecret = "", "" // the defaults: newHandler
	}
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

// Dashboard is the dashboard of a core: its pages, and a consumer of its
// outbox, which wakes its live pages.
type Dashboard interface {
	http.Handler
	Subscriber
}
