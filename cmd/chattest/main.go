// Command chattest serves the in-memory fake of the chat REST API v3
// (package chattest) as a local chat platform: to try code against it by
// hand, to run the quickstart or a demo, or to serve the tests of programs
// in other languages and other containers.
//
// Usage:
//
//	chattest [flags]
//
// It serves HTTPS (HTTP/2 and HTTP/1.1) with a self-signed certificate made
// at start, valid for localhost, 127.0.0.1 and ::1 (and, with -listen-any,
// for the machine's host name and addresses), and writes the certificate's
// PEM to a file for clients to trust; with -data, the certificate is made
// at the first start and kept in the directory (cert.pem, and cert-key.pem
// readable by its owner only), so that the clients that trust or pin it
// keep doing so across restarts. With -http it serves plain HTTP instead. The chat and calls APIs (paths /v3/...), the Management API
// (paths /apps/... and /tenants) and a live dashboard (/_chattest/) share
// one address.
//
// At start it prints, ready to paste into a shell: the base URLs, the app
// id, the API key and management credentials it generated, a curl line
// that works as printed, and the environment lines (CHAT_APP_ID,
// CHAT_REGION, CHAT_API_KEY, CHAT_BASE_URL, CHAT_CA_FILE, the certificate's
// PEM) that point the quickstart at it, and those of the Management API
// (CHAT_MGMT_KEY, CHAT_MGMT_SECRET, CHAT_MGMT_BASE_URL). The API key is
// generated at start unless one is given with -api-key or
// $CHATTEST_API_KEY; a key given is never printed: the lines read it from
// a file of the user's only ($TMPDIR/chattest-*.apikey), removed at the
// stop.
//
// The Management API is served on the same address (paths /apps... and
// /tenants), with the management key and secret it generates at start, and so is the
// client API of the platform's official client SDKs (paths /v3.0/..., and
// its websocket at /: see package chattest), which needs HTTPS.
//
// It listens on loopback addresses only, and refuses another -addr, unless
// -listen-any is given: then it listens on every interface by default (or
// on -addr), warns so on start, shows its dashboard to clients on any
// address, and delivers webhook events to receivers on the networks of the
// machine's interfaces as well as on loopback (see
// chattest.WithLocalNetwork). An https receiver's certificate is checked
// against the system's roots (SSL_CERT_FILE adds yours on Linux and BSD).
//
// It stops cleanly on SIGINT (Ctrl+C) or SIGTERM: it ends the dashboard's
// live streams and the webhook deliveries, waits up to 5 seconds for the
// requests in flight, removes the directory it made for the certificate
// in the temporary directory (chattest-PORT-*, the owner's only, made
// anew at each start so that nothing prepared there can redirect the
// write), and exits 0.
//
// The state lives in memory and is gone when it stops, unless -data keeps
// it in a directory: every change is written there before it is
// answered, so a later start on the directory, even after a crash or
// kill -9 of the process, has everything the clients were answered, the
// client API's logins included (platform.WithDataDir). The directory is
// synced to the disk in the background, at least every 100 ms, and at the
// stop: a crash of the machine or a power loss loses the changes of about
// the last 100 ms. With -sync, each change is synced before it is
// answered, and a machine crash loses nothing answered either, at a cost
// in throughput (platform.SyncEachChange). -export writes the state as a
// JSON state file, which -seed starts from, so that a team can share demo
// data (chattest.WithSeedFile); the file is readable by its owner only, as
// it holds the credentials the state issued. A damaged database in the
// directory stops the start with one line that names it. The API key is
// the server's own: given, or generated. Without -data the key and the
// management credentials are generated at each start; with -data they are
// generated at the first start and kept in the directory
// (credentials.json), so that the environment lines printed then stay good
// across restarts.
//
// Flags:
//
//	-addr host:port  address to listen on (default 127.0.0.1:8443; :8443 with -listen-any)
//	-listen-any      listen beyond loopback, for containers and other machines
//	-app-id id       the app to fake (default test-app)
//	-api-key key     its fullAccess API key (default $CHATTEST_API_KEY, else generated)
//	-rate-limit c,s  enforce c core and s standard requests per minute
//	-http            serve plain HTTP (clients need chat.WithInsecureLoopback)
//	-cert file       where to write the certificate (default cert.pem in -data, else in a new temporary directory)
//	-data dir        keep the state in dir across stops and crashes
//	-sync            with -data, sync each change to the disk before answering it (survives a machine crash, slower)
//	-seed file       start from the state file (with -data: only when dir holds no state yet)
//	-export file     write the state of -data (or -seed) to file (- for stdout) and exit
package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/internal/rest"
)

func main() { os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr)) }

// runMain runs the command until SIGINT or SIGTERM, and returns its exit
// status: 0 when it stopped on a signal, 2 for bad flags, 1 for any other
// failure.
func runMain(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, args, stdout, stderr)
	var usage usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		if usage.msg != "" {
			printError(stderr, err)
		}
		return 2
	}
	printError(stderr, err)
	return 1
}

// printError prints err to w, each of its lines with one "chattest: "
// prefix: the package's errors start with one already, and the command's
// may wrap them.
func printError(w io.Writer, err error) {
	for line := range strings.Lines(err.Error()) {
		line = strings.TrimRight(line, "\n")
		for strings.HasPrefix(line, "chattest: ") {
			line = strings.TrimPrefix(line, "chattest: ")
		}
		for strings.Contains(line, ": chattest: ") {
			line = strings.ReplaceAll(line, ": chattest: ", ": ")
		}
		fmt.Fprintln(w, "chattest: "+line)
	}
}

// usageError is a problem with the flags; its msg is empty when the flag
// package has already reported it.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// shutdownTimeout bounds the wait for requests in flight when stopping.
const shutdownTimeout = 5 * time.Second

// run serves the fake as args say until ctx ends, then shuts it down.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chattest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "`host:port` to listen on (default 127.0.0.1:8443; :8443 with -listen-any)")
	listenAny := fs.Bool("listen-any", false, "listen beyond loopback, for containers: the dashboard answers any client, and webhooks may be delivered on the machine's networks")
	appID := fs.String("app-id", "test-app", "the app `id` to fake")
	apiKey := fs.String("api-key", "", "its fullAccess API `key`, never printed (default $CHATTEST_API_KEY, else one generated and printed)")
	rateLimit := fs.String("rate-limit", "", "enforce `core,standard` requests per minute (default: nothing refused)")
	plainHTTP := fs.Bool("http", false, "serve plain HTTP instead of HTTPS")
	certFile := fs.String("cert", "", "`file` to write the certificate's PEM to (default cert.pem in -data, else cert.pem in a new directory chattest-PORT-* of the temporary directory, removed on stop)")
	state := addStateFlags(fs) // -data, -sync, -seed, -export: state.go
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{} // the flag package reported it
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments: %q", fs.Args())
	}

	if *addr == "" {
		*addr = "127.0.0.1:8443"
		if *listenAny {
			*addr = ":8443"
		}
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("-addr %q: %v", *addr, err)
	}
	if !*listenAny && !rest.IsLoopback(host) {
		return usagef("-addr %q: the host must be loopback (localhost, 127.0.0.1, ::1) unless -listen-any is given: the fake has no real security", *addr)
	}
	key := *apiKey
	if key == "" {
		key = os.Getenv("CHATTEST_API_KEY")
	}
	given := key != ""
	// A handler keeps the default of a setting it cannot use: check them
	// before a data directory is opened (or made) for them.
	if probe := chattest.NewHandler(chattest.WithAppID(*appID), chattest.WithAPIKey(key)); probe.AppID() != *appID {
		return usagef("-app-id %q: must be one DNS label (letters, digits and hyphens, at most 63)", *appID)
	} else if given && probe.APIKey() != key {
		return usagef("the API key must be printable ASCII without spaces")
	}
	creds, kept, err := state.credentials()
	if err != nil {
		return err
	}
	if !given {
		key = creds.APIKey
	}
	opts := []chattest.Option{chattest.WithAppID(*appID), chattest.WithAPIKey(key), chattest.WithManagementCredentials(creds.ManagementKey, creds.ManagementSecret),
		platform.WithWebSocket()}
	if *listenAny {
		opts = append(opts, chattest.WithLocalNetwork())
	}
	if *rateLimit != "" {
		core, standard, err := parseRateLimit(*rateLimit)
		if err != nil {
			return err
		}
		opts = append(opts, chattest.WithRateLimit(core, standard))
	}
	h, err := state.open(opts, stdout)
	if h == nil || err != nil {
		return err // exported, or the state cannot be used
	}
	defer h.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	b := banner{appID: h.AppID(), state: state.where(), mgmtKey: creds.ManagementKey, mgmtSec: creds.ManagementSecret, kept: kept, http: *plainHTTP}
	if !given {
		b.apiKey = key
	} else {
		// Never printed: the lines printed read it from a file of the
		// user's only, there while the command runs.
		f, err := os.CreateTemp("", "chattest-*.apikey")
		if err != nil {
			return fmt.Errorf("writing the API key's file: %w", err)
		}
		defer os.Remove(f.Name())
		_, err = f.WriteString(key)
		if err = errors.Join(err, f.Close()); err != nil {
			return fmt.Errorf("writing the API key's file: %w", err)
		}
		b.keyFile = f.Name()
	}
	// Clients on this machine use the address listened on, or loopback
	// when it is every interface's.
	local := host
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		local = "127.0.0.1"
	}
	var names []string
	var ips []net.IP
	if *listenAny {
		names, ips = machineAddrs()
		for _, n := range names {
			b.others = append(b.others, urlOf(*plainHTTP, n, port))
		}
		for _, ip := range ips {
			b.others = append(b.others, urlOf(*plainHTTP, ip.String(), port))
		}
	}
	if ip := net.ParseIP(local); ip != nil {
		ips = append(ips, ip)
	} else {
		names = append(names, local)
	}
	b.base = urlOf(*plainHTTP, local, port)

	srv := &http.Server{Handler: withManagement(h), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(stderr, "chattest: ", 0)}
	if !*plainHTTP {
		var cert tls.Certificate
		var certPEM []byte
		kept := ""
		if dir := *state.data; dir != "" {
			// Kept with the state, so that clients that trust it, or pin
			// it, keep doing so across restarts.
			kept = filepath.Join(dir, certFileName)
			cert, certPEM, err = keptCertificate(dir, names, ips)
		} else {
			cert, certPEM, _, err = selfSigned(names, ips)
		}
		if err != nil {
			return err
		}
		switch {
		case *certFile == "" && kept != "":
			*certFile = kept
		case *certFile == "":
			// Made for this run only, in a directory of its own that no
			// one else can have prepared.
			dir, err := os.MkdirTemp("", "chattest-"+port+"-")
			if err != nil {
				return fmt.Errorf("writing the certificate: %w", err)
			}
			defer os.RemoveAll(dir)
			*certFile = filepath.Join(dir, certFileName)
			if err := writeNew(*certFile, certPEM); err != nil {
				return fmt.Errorf("writing the certificate: %w", err)
			}
		case *certFile != kept:
			if err := os.WriteFile(*certFile, certPEM, 0o644); err != nil {
				return fmt.Errorf("writing the certificate: %w", err)
			}
		}
		b.certFile = *certFile
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}

	served := make(chan error, 1)
	go func() {
		if *plainHTTP {
			served <- srv.Serve(ln)
		} else {
			served <- srv.ServeTLS(ln, "", "")
		}
	}()
	if *listenAny {
		fmt.Fprintf(stderr, "chattest: WARNING: -listen-any: listening on %s, beyond loopback. Anyone who can reach it "+
			"can use the API with the printed key and see the dashboard, and webhook events go to receivers on this "+
			"machine's networks. The fake has no real security: use it on a network you trust only.\n", ln.Addr())
	}
	b.print(stdout)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "chattest: shutting down")
	h.Close() // the dashboard's streams would hold Shutdown
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// urlOf is the base URL of host and port.
func urlOf(plainHTTP bool, host, port string) string {
	scheme := "https"
	if plainHTTP {
		scheme = "http"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// randomKey returns 40 random hex characters, the form of the service's
// API keys.
func randomKey() string {
	b := make([]byte, 20)
	rand.Read(b) // never fails: crypto/rand panics rather than return an error
	return hex.EncodeToString(b)
}

// withManagement serves the fake's Management API (paths /apps... and
// /tenants, which the chat API does not use) beside its chat API (/v3/...)
// and its dashboard, on the same address.
func withManagement(h *chattest.Handler) http.Handler {
	mgmt := h.Management()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/apps" || strings.HasPrefix(p, "/apps/") || p == "/tenants" {
			mgmt.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// parseRateLimit reads "core,standard", two budgets per minute; 0 leaves a
// class unenforced.
func parseRateLimit(v string) (core, standard int, err error) {
	c, s, ok := strings.Cut(v, ",")
	if ok {
		core, err = strconv.Atoi(strings.TrimSpace(c))
	}
	if ok && err == nil {
		standard, err = strconv.Atoi(strings.TrimSpace(s))
	}
	if !ok || err != nil || core < 0 || standard < 0 {
		return 0, 0, usagef("-rate-limit %q: want two budgets per minute, core,standard, e.g. 10000,20000", v)
	}
	return core, standard, nil
}
