package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/spf13/cobra"
)

// clientOptions returns the options of a client of the API at base (empty:
// the SDK's default address): the CA file's certificates trusted beside
// the system's, plain http only for a loopback address, the answers
// recorded for --json, and --timeout, --debug and extra.
func (c *cli) clientOptions(s *settings, base string, extra ...chat.Option) ([]chat.Option, error) {
	tr := chat.NewTransport()
	if err := trustCAFile(tr, s.CAFile); err != nil {
		return nil, err
	}
	opts := []chat.Option{
		chat.WithHTTPClient(&http.Client{Transport: recordingTransport{base: tr, net: &c.net}}),
		chat.WithUserAgent("chat-cli/" + version() + " chat-go/" + chat.Version),
		chat.WithTimeout(c.timeout),
	}
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || u.Host == "" {
			return nil, usageErrorf("the base URL %q is not an absolute URL", base)
		}
		opts = append(opts, chat.WithBaseURL(base))
		if u.Scheme == "http" && isLoopback(u.Hostname()) {
			opts = append(opts, chat.WithInsecureLoopback())
		}
	}
	if c.debug {
		opts = append(opts, chat.WithLogger(slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	return append(opts, extra...), nil
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// version is the command's module version, e.g. v0.2.0 when installed with
// go install, "devel" in a build from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// chatClient returns a client of the app the settings name.
func (c *cli) chatClient(cmd *cobra.Command, extra ...chat.Option) (*chat.Client, error) {
	s, err := c.resolveSettings(cmd)
	if err != nil {
		return nil, err
	}
	switch {
	case s.AppID == "":
		return nil, usageErrorf("no app: set $CHAT_APP_ID, --app-id, or app-id in a profile (chat config set app-id ID)")
	case s.APIKey == "":
		return nil, usageErrorf("no API key: set $CHAT_API_KEY, or api-key in a profile (chat config set api-key -)")
	}
	opts, err := c.clientOptions(s, s.BaseURL, extra...)
	if err != nil {
		return nil, err
	}
	if s.Region != "" {
		opts = append(opts, chat.WithRegion(chat.Region(s.Region)))
	}
	return chat.NewClient(s.AppID, s.APIKey, opts...)
}

// mgmtClient returns a management API client with the settings'
// management key and secret.
func (c *cli) mgmtClient(cmd *cobra.Command) (*management.Client, *settings, error) {
	s, err := c.resolveSettings(cmd)
	if err != nil {
		return nil, nil, err
	}
	if s.MgmtKey == "" || s.MgmtSecret == "" {
		return nil, nil, usageErrorf("no management credentials: set $CHAT_MGMT_KEY and $CHAT_MGMT_SECRET, or mgmt-key and mgmt-secret in a profile")
	}
	opts, err := c.clientOptions(s, s.MgmtBaseURL)
	if err != nil {
		return nil, nil, err
	}
	mc, err := management.NewClient(s.MgmtKey, s.MgmtSecret, opts...)
	return mc, s, err
}

// The answers of a call are recorded at the transport, below the SDK, for
// --json: the SDK's methods return typed values, which hold what the SDK
// knows of an answer, while --json prints all the API answered.

// answers receives the bodies of the successful answers of the calls made
// with its context (see withAnswers), in order.
type answers func(body []byte)

type answersKey struct{}

// withAnswers returns ctx with the successful answers of its calls given to
// rec.
func withAnswers(ctx context.Context, rec answers) context.Context {
	return context.WithValue(ctx, answersKey{}, rec)
}

// maxAnswerBytes caps an answer the transport keeps a copy of: more than
// the SDK reads of one.
const maxAnswerBytes = 64 << 20

// recordingTransport gives the bodies of 2xx answers to the context's
// answers, if any, and hands the SDK the same bytes.
type recordingTransport struct {
	base http.RoundTripper
	net  *netAttempts // counts the attempts that got no answer
}

func (t recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if t.net != nil {
		t.net.record(r, err)
	}
	rec, _ := r.Context().Value(answersKey{}).(answers)
	if err != nil || rec == nil || resp.StatusCode/100 != 2 {
		return resp, err
	}
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	resp.Body.Close()
	switch {
	case readErr != nil:
		// The SDK sees the same failure, after the bytes read.
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
		return resp, nil
	case len(body) > maxAnswerBytes:
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{errors.New("the answer is too large to keep")}))
		return resp, nil
	}
	rec(body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// lastAnswer records the last successful answer of a call.
type lastAnswer struct{ body []byte }

func (l *lastAnswer) record(body []byte) { l.body = body }

// data returns the "data" member of the answer, or the whole answer when it
// has none.
func (l *lastAnswer) data() ([]byte, error) {
	if l.body == nil {
		return nil, fmt.Errorf("no answer was recorded")
	}
	return answerData(l.body), nil
}

// trustCAFile makes tr trust the certificates of the CA file at path (the
// --ca-file setting) beside the system's; an empty path changes nothing.
func trustCAFile(tr *http.Transport, path string) error {
	if path == "" {
		return nil
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return usageErrorf("the CA file (--ca-file, $CHAT_CA_FILE or ca-file in the profile): %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return usageErrorf("the CA file %s (--ca-file, $CHAT_CA_FILE or ca-file in the profile) holds no PEM certificate", path)
	}
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return nil
}
