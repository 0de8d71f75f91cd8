package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// banner is what the command prints when it is ready: where it is and how
// to reach it, as lines to paste into a shell (every other line is a
// comment).
type banner struct {
	appID    string
	state    string   // where the state lives: stateFlags.where
	base     string   // the base URL for clients on this machine
	others   []string // the base URLs for other machines, with -listen-any
	certFile string   // the certificate's PEM; "" with -http
	apiKey   string   // the API key; "" when the user gave it: never printed then
	keyFile  string   // when the user gave it, the file that holds it, readable by the user only
	mgmtKey  string
	mgmtSec  string
	kept     bool // the generated credentials are kept in the data directory
	http     bool
}

// bannerEnd is the banner's last line.
const bannerEnd = "# Stop with Ctrl+C."

// print writes the banner to w.
func (b banner) print(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("# chattest: the chat API v3 of app %q, %s", b.appID, b.state)
	p("# Chat, calls and management APIs: %s", b.base)
	p("# Dashboard: %s/_chattest/", b.base)
	if len(b.others) > 0 {
		p("# From other machines: %s", strings.Join(b.others, ", "))
	}
	if b.certFile != "" {
		p("# Certificate (self-signed, trust it): %s", b.certFile)
	}
	generated := "generated at start"
	if b.kept {
		generated = "kept in the data directory"
	}
	if b.apiKey != "" {
		p("# API key, %s: %s", generated, b.apiKey)
	} else {
		p("# API key: the one given with -api-key or $CHATTEST_API_KEY, not shown: the lines below read it from %s (yours only, removed at the stop)", b.keyFile)
	}
	p("# Management key and secret, %s: %s %s", generated, b.mgmtKey, b.mgmtSec)

	p("# Environment for the quickstart (go run ./examples/quickstart) and your own program:")
	env := []string{"CHAT_APP_ID=" + shellQuote(b.appID), "CHAT_REGION=us", "CHAT_BASE_URL=" + shellQuote(b.base)}
	if b.certFile != "" {
		env = append(env, "CHAT_CA_FILE="+shellQuote(b.certFile))
	}
	p("export %s", strings.Join(env, " "))
	key := shellQuote("apikey: " + b.apiKey)
	if b.apiKey != "" {
		p("export CHAT_API_KEY=%s", shellQuote(b.apiKey))
	} else {
		read := "$(cat " + shellQuote(b.keyFile) + ")"
		p(`export CHAT_API_KEY="%s"`, read)
		key = `"apikey: ` + read + `"`
	}
	p("# Management API, for management.NewClient and your own program:")
	p("export CHAT_MGMT_KEY=%s CHAT_MGMT_SECRET=%s CHAT_MGMT_BASE_URL=%s", shellQuote(b.mgmtKey), shellQuote(b.mgmtSec), shellQuote(b.base))

	p("# Try it:")
	curl := "curl"
	if b.certFile != "" {
		curl += " --cacert " + shellQuote(b.certFile)
	}
	p("%s -H %s %s", curl, key, shellQuote(b.base+"/v3/users"))

	opts := fmt.Sprintf("chat.WithBaseURL(%q)", b.base)
	if b.http {
		opts += ", chat.WithInsecureLoopback()"
	} else {
		opts += fmt.Sprintf(", chat.WithCAFile(%q)", b.certFile)
	}
	p("# Go: client, err := chat.NewClient(appID, apiKey, %s)", opts)
	p("# Go: mc, err := management.NewClient(key, secret, %s)", opts)
	p("%s", bannerEnd)
}

// shellSafe matches the words a POSIX shell reads as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
