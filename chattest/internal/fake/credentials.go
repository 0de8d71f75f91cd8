package fake

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"time"
)

// The credentials the fake issues (auth tokens, API keys, the keys of the
// management API's apps, and its own API key and management credentials
// when none are given) come from crypto/rand: a credential of one server
// is worth nothing on another, whatever their app ids. A journal
// (journal.go) records each credential a change issued, and a replay of
// the change issues the recorded one again, so that what a data
// directory or a state file issued stays valid on the servers that start
// from it.

// OwnCredentials are the server's own API key and management credentials.
// A store keeps those generated at its creation (store.go),
// which its servers use unless they are given others.
type OwnCredentials struct {
	APIKey     string `json:"apiKey"`
	MgmtKey    string `json:"mgmtKey"`
	MgmtSecret string `json:"mgmtSecret"`
}

// Valid reports whether the credentials can be used: each is printable
// ASCII without spaces.
func (o OwnCredentials) Valid() bool {
	return validAPIKey(o.APIKey) && validAPIKey(o.MgmtKey) && validAPIKey(o.MgmtSecret)
}

// defaultCredentials gives the configuration the credentials of own that
// the options left unset.
func (c *Config) defaultCredentials(own OwnCredentials) {
	if c.APIKey == "" {
		c.APIKey = own.APIKey
	}
	if c.MgmtKey == "" {
		c.MgmtKey, c.MgmtSecret = own.MgmtKey, own.MgmtSecret
	}
}

// issuer mints the credentials of the change in progress. It is guarded
// by st.mu.
type issuer struct {
	issued []string // what the change in progress issued, for the journal
	given  []string // while a change is replayed: what it issued when it was made, not yet issued again
	// legacy, while a change of a journal written before credentials
	// were random and recorded is replayed, turns what was minted into
	// the credential that journal's server issued (journal.go).
	legacy func(minted string) string
}

// issue returns a new credential made by mint, or, while a change is
// replayed, the one the change issued when it was made. With a journal,
// the credential is recorded for the change in progress (take).
func (st *state) issue(mint func() string) string {
	var v string
	if g := st.issuer.given; st.replaying && len(g) > 0 {
		v, st.issuer.given = g[0], g[1:]
	} else {
		v = mint()
		if st.replaying && st.issuer.legacy != nil {
			v = st.issuer.legacy(v)
		}
	}
	if st.journal != nil || st.replaying {
		st.issuer.issued = append(st.issuer.issued, v)
	}
	return v
}

// take returns the credentials the change in progress issued, and starts
// the next change with none.
func (is *issuer) take() []string {
	v := is.issued
	is.issued = nil
	return v
}

// RandomHex returns 40 random hex characters, the form of the service's
// API keys.
func RandomHex() string { return randomHexOf(20) }

// randomHexOf returns n random bytes in hex.
func randomHexOf(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: crypto/rand panics rather than return an error
	return hex.EncodeToString(b)
}

// authTokenFor returns a new auth token of uid made at, in the form of the
// service's: "{uid}_" then the time in Unix seconds and random hex, 40
// characters in all.
func authTokenFor(uid string, at time.Time) string {
	ts := strconv.FormatInt(at.Unix(), 10)
	if len(ts) > 10 || at.Unix() < 0 {
		ts = ""
	}
	h := randomHexOf(20)
	return uid + "_" + ts + h[:40-len(ts)]
}
