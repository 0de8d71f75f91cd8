// Command chattest serves the in-memory fake of the chat REST API v3
// (package chattest) on a loopback address, to try code against it by hand,
// or from tests that cannot start it in-process, e.g. in another language.
//
// Usage:
//
//	chattest [flags]
//
// It serves HTTPS (HTTP/2 and HTTP/1.1) with a self-signed certificate made
// at start, valid for localhost, 127.0.0.1 and ::1, and writes the
// certificate's PEM to a file for clients to trust; with -http it serves
// plain HTTP instead. It prints the base URL, the app id and a line of Go
// that makes a client of it, and stops gracefully on SIGINT (Ctrl+C) or
// SIGTERM. The state lives in memory and is gone when it stops.
//
// The Management API is served on the same address (paths /apps... and
// /tenants), with chattest's fixed management key and secret, and so is the
// client API of the platform's official client SDKs (paths /v3.0/..., and
// its websocket at /: see package chattest), which needs HTTPS.
//
// The API key is never printed unless -print-key is given. It is, in order:
// -api-key, the environment variable CHATTEST_API_KEY, or the fixed default
// key of package chattest.
//
// Flags:
//
//	-addr host:port       loopback address to listen on (default 127.0.0.1:8443)
//	-app-id id            the app to fake (default test-app)
//	-api-key key          its fullAccess API key
//	-rate-limit c,s       enforce c core and s standard requests per minute
//	-http                 serve plain HTTP (clients need chat.WithInsecureLoopback)
//	-cert file            where to write the certificate (default chattest-PORT.pem in the temporary directory)
//	-print-key            print the API key and the management key and secret
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
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
			fmt.Fprintln(stderr, "chattest:", err)
		}
		return 2
	}
	fmt.Fprintln(stderr, "chattest:", err)
	return 1
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
	addr := fs.String("addr", "127.0.0.1:8443", "loopback `host:port` to listen on")
	appID := fs.String("app-id", "test-app", "the app `id` to fake")
	apiKey := fs.String("api-key", "", "its fullAccess API `key` (default $CHATTEST_API_KEY, else chattest's fixed key)")
	rateLimit := fs.String("rate-limit", "", "enforce `core,standard` requests per minute (default: nothing refused)")
	plainHTTP := fs.Bool("http", false, "serve plain HTTP instead of HTTPS")
	certFile := fs.String("cert", "", "`file` to write the certificate's PEM to (default chattest-PORT.pem in the temporary directory)")
	printKey := fs.Bool("print-key", false, "print the API key and the management key and secret")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{} // the flag package reported it
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments: %q", fs.Args())
	}

	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("-addr %q: %v", *addr, err)
	}
	if !loopback(host) {
		return usagef("-addr %q: the host must be loopback (localhost, 127.0.0.1, ::1): the fake has no real security", *addr)
	}
	opts := []chattest.Option{chattest.WithAppID(*appID)}
	key := *apiKey
	if key == "" {
		key = os.Getenv("CHATTEST_API_KEY")
	}
	if key != "" {
		opts = append(opts, chattest.WithAPIKey(key))
	}
	if *rateLimit != "" {
		core, standard, err := parseRateLimit(*rateLimit)
		if err != nil {
			return err
		}
		opts = append(opts, chattest.WithRateLimit(core, standard))
	}
	h := chattest.NewHandler(opts...)
	if h.AppID() != *appID {
		return usagef("-app-id %q: must be one DNS label (letters, digits and hyphens, at most 63)", *appID)
	}
	if key != "" && h.APIKey() != key {
		return usagef("the API key must be printable ASCII without spaces")
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{Handler: withManagement(h), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(stderr, "chattest: ", 0)}
	scheme := "http"
	if !*plainHTTP {
		scheme = "https"
		cert, certPEM, err := selfSigned(host)
		if err != nil {
			return err
		}
		if *certFile == "" {
			*certFile = filepath.Join(os.TempDir(), "chattest-"+port+".pem")
		}
		if err := os.WriteFile(*certFile, certPEM, 0o644); err != nil {
			return fmt.Errorf("writing the certificate: %w", err)
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	base := scheme + "://" + net.JoinHostPort(host, port)

	served := make(chan error, 1)
	go func() {
		if *plainHTTP {
			served <- srv.Serve(ln)
		} else {
			served <- srv.ServeTLS(ln, "", "")
		}
	}()
	printBanner(stdout, h, base, *certFile, *plainHTTP, *printKey)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "chattest: shutting down")
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

// withManagement serves the fake's Management API (paths /apps... and
// /tenants, which the chat API does not use) beside its chat API (/v3/...),
// on the same address.
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

// printBanner says where the fake is and how to reach it, without the API
// key unless printKey.
func printBanner(w io.Writer, h *chattest.Handler, base, certFile string, plainHTTP, printKey bool) {
	fmt.Fprintf(w, "chattest: serving the chat API v3 of app %q at %s\n", h.AppID(), base)
	opts := fmt.Sprintf("chat.WithBaseURL(%q)", base)
	if plainHTTP {
		opts += ", chat.WithInsecureLoopback()"
	} else {
		fmt.Fprintf(w, "chattest: self-signed certificate, for clients to trust: %s (e.g. SSL_CERT_FILE=%s on Linux)\n", certFile, certFile)
	}
	keyArg := "apiKey"
	if printKey {
		fmt.Fprintf(w, "chattest: API key: %s\n", h.APIKey())
		keyArg = strconv.Quote(h.APIKey())
	} else {
		fmt.Fprintln(w, "chattest: API key: not shown (-api-key, $CHATTEST_API_KEY or -print-key)")
	}
	fmt.Fprintf(w, "chattest: Go: client, err := chat.NewClient(%q, %s, %s)\n", h.AppID(), keyArg, opts)
	mgmtOpts := strings.ReplaceAll(opts, "chat.", "management.")
	if printKey {
		fmt.Fprintf(w, "chattest: management key and secret: %s %s\n", h.ManagementKey(), h.ManagementSecret())
		fmt.Fprintf(w, "chattest: Go: mc, err := management.NewClient(%q, %q, %s)\n", h.ManagementKey(), h.ManagementSecret(), mgmtOpts)
	} else {
		fmt.Fprintf(w, "chattest: Go: mc, err := management.NewClient(key, secret, %s)\n", mgmtOpts)
	}
	fmt.Fprintln(w, "chattest: stop with Ctrl+C")
}

// loopback reports whether host names the local machine only.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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

// selfSigned makes a certificate for localhost, 127.0.0.1, ::1 and host,
// valid from an hour ago for 30 days, and returns it with its PEM.
func selfSigned(host string) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "chattest", Organization: []string{"chattest"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if ip := net.ParseIP(host); ip != nil && !ip.Equal(net.IPv4(127, 0, 0, 1)) && !ip.Equal(net.IPv6loopback) {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
