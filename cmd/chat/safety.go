package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// The size of what a list shows unless asked for more.
const (
	defaultLimit = 30  // rows a list shows by default: one page
	maxPageLimit = 100 // the most --limit may ask for without --all
)

// addLimitFlag adds --limit and --all to a list command: one page of
// --limit items by default (at most maxPageLimit); every page with --all,
// at most --limit items when it is given. Before the command runs, limit
// holds the most items to show, 0 for all.
func addLimitFlag(cmd *cobra.Command, limit *int) {
	f := cmd.Flags()
	f.IntVar(limit, "limit", defaultLimit, fmt.Sprintf("show at most this many items, on one page (at most %d; with --all, the most across pages)", maxPageLimit))
	all := f.Bool("all", false, "show every item, page after page: each page is a call on the app's rate budget")
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		limitGiven := cmd.Flags().Changed("limit")
		switch {
		case *limit < 1:
			return usageErrorf("--limit must be at least 1")
		case *all && !limitGiven:
			*limit = 0
		case !*all && *limit > maxPageLimit:
			return usageErrorf("--limit is at most %d on one page: add --all to walk the pages", maxPageLimit)
		}
		return nil
	}
}

// guard makes a destructive command ask before it runs on a terminal, and
// refuse without one unless --yes is given: nothing is sent until then.
func (c *cli) guard(cmd *cobra.Command) {
	cmd.Flags().BoolP("yes", "y", false, "do it without asking (needed without a terminal)")
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := c.confirm(cmd, args); err != nil {
			return err
		}
		return run(cmd, args)
	}
}

// confirm asks on the terminal whether to run cmd with args, unless --yes
// was given; without a terminal it refuses.
func (c *cli) confirm(cmd *cobra.Command, args []string) error {
	if yes, _ := cmd.Flags().GetBool("yes"); yes {
		return nil
	}
	// The arguments are not shown: one may be a credential (an auth
	// token, an API key).
	what := cmd.CommandPath()
	if !c.inTerminal {
		return usageErrorf("%s deletes or takes away data: without a terminal to confirm it, it runs only with --yes; nothing was sent", what)
	}
	where := ""
	if s, err := c.resolveSettings(cmd); err == nil && s.AppID != "" {
		where = " in app " + s.AppID
	}
	fmt.Fprintf(c.stderr, "%s %s%s deletes or takes away data. Type yes to go on: ", what, strings.Join(args, " "), where)
	c.stderr.Flush()
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if a := strings.ToLower(strings.TrimSpace(line)); a != "yes" && a != "y" {
		return &exitError{code: exitUsage, err: errors.New("not confirmed: nothing was changed")}
	}
	return nil
}

// versionText is the command's version, with the commit of a build from a
// checkout.
func versionText() string {
	v := version()
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if v == "devel" && rev != "" {
		v += " (" + rev + modified + ")"
	}
	return v + " chat-go/" + chat.Version + " " + bi.GoVersion
}

// netAttempts counts the attempts of the run's calls that got no answer,
// since the last answer, and where they went.
type netAttempts struct {
	mu     sync.Mutex
	failed int
	addr   string
}

func (n *netAttempts) record(r *http.Request, err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err == nil {
		n.failed = 0
		return
	}
	n.failed++
	n.addr = r.URL.Scheme + "://" + r.URL.Host
}

func (n *netAttempts) last() (int, string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.failed, n.addr
}

// nextStep says what to do about an error that ends the command, "" when
// there is nothing to add.
func (c *cli) nextStep(err error) string {
	var (
		apiErr   *chat.Error
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		opErr    *net.OpError
		dnsErr   *net.DNSError
	)
	if errors.As(err, &apiErr) {
		return ""
	}
	failed, addr := c.net.last()
	msg := err.Error()
	switch {
	case errors.As(err, &unknown), errors.As(err, &verify), errors.As(err, &invalid), errors.As(err, &hostname),
		strings.Contains(msg, "x509: "), strings.Contains(msg, "tls: failed to verify"):
		return fmt.Sprintf("The certificate of %s is not trusted: give the PEM file of the CA that signed it with --ca-file or $CHAT_CA_FILE (or ca-file in a profile); chattest prints its CA file when it starts.", orAddr(addr))
	case failed > 0 && (errors.As(err, &opErr) || errors.As(err, &dnsErr) || strings.Contains(msg, "dial tcp") ||
		strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host") || strings.Contains(msg, "EOF")):
		return fmt.Sprintf("Could not reach %s after %d attempt%s: check the address (--base-url or $CHAT_BASE_URL; --mgmt-base-url or $CHAT_MGMT_BASE_URL for the management API; else --region), and that the network lets it through.",
			addr, failed, plural(failed))
	}
	return ""
}

func orAddr(addr string) string {
	if addr == "" {
		return "the server"
	}
	return addr
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
