// Command localproduct is a whole chat product running locally, against
// cmd/chattest, with no account and no network: a Go backend on this SDK,
// and a web app on the platform's official JavaScript client SDK.
//
// The backend creates the users alice and bob, mints auth tokens for their
// logins (a real backend does so once it has authenticated its own user),
// and replies in a message's thread on a user's behalf. The web app logs in
// with the minted token and chats live with the other user.
//
// From the repository's root, in one terminal, the platform (a module of
// its own):
//
//	(cd cmd/chattest && CHATTEST_API_KEY=local-dev-key go run . -cert ~/chattest.pem)
//
// In another, the product (after npm ci in examples/localproduct/web, which
// installs the client SDK), trusting the certificate chattest wrote:
//
//	CHATTEST_API_KEY=local-dev-key go run ./examples/localproduct -cert ~/chattest.pem
//
// Then open http://127.0.0.1:8080/?user=alice and
// http://127.0.0.1:8080/?user=bob, in a browser that trusts chattest's
// certificate (see "Your whole product locally" in cmd/chattest/README.md).
//
// Flags:
//
//	-addr host:port   where to serve the web app (default 127.0.0.1:8080)
//	-chattest url     chattest's address (default https://127.0.0.1:8443)
//	-cert file        chattest's certificate, as its -cert wrote it (default ~/chattest.pem)
//	-app-id id        the app chattest fakes (default test-app)
//	-sdk file         the client SDK's bundle (default examples/localproduct/web/node_modules/@cometchat/chat-sdk-javascript/CometChat.js)
package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/chatrest/chat"
)

//go:embed web/index.html web/app.js
var web embed.FS

// person is a user of the product: their name, and who they chat with.
type person struct{ name, peer string }

// users are the product's users, by uid, each chatting with the other.
var users = map[string]person{
	"alice": {"Alice", "bob"},
	"bob":   {"Bob", "alice"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "localproduct:", err)
		os.Exit(1)
	}
}

// run serves the product as args say until ctx ends.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("localproduct", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "`host:port` to serve the web app on")
	base := fs.String("chattest", "https://127.0.0.1:8443", "chattest's `url`")
	certFile := fs.String("cert", defaultCert(), "chattest's certificate `file`, as its -cert wrote it")
	appID := fs.String("app-id", "test-app", "the app `id` chattest fakes")
	sdk := fs.String("sdk", filepath.FromSlash("examples/localproduct/web/node_modules/@cometchat/chat-sdk-javascript/CometChat.js"), "the client SDK's bundle `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	apiKey := os.Getenv("CHATTEST_API_KEY")
	if apiKey == "" {
		return errors.New("set CHATTEST_API_KEY to the API key chattest runs with")
	}
	u, err := url.Parse(*base)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("-chattest %q: want chattest's https URL, e.g. https://127.0.0.1:8443", *base)
	}
	if *certFile == "" {
		return errors.New("-cert: name chattest's certificate, the file its -cert wrote")
	}
	if _, err := os.Stat(*certFile); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("-cert %s: no such file: start chattest with -cert %s, or give -cert the file its -cert wrote", *certFile, *certFile)
	}
	client, err := chat.NewClient(*appID, apiKey, chat.WithBaseURL(*base), chat.WithCAFile(*certFile))
	if err != nil {
		return fmt.Errorf("-cert: %w", err)
	}
	p := &product{client: client, appID: *appID, host: u.Host, sdk: *sdk}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: p.routes(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "localproduct: open http://%s/?user=alice and http://%s/?user=bob\n", ln.Addr(), ln.Addr())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// defaultCert is where the manual has chattest write its certificate,
// chattest.pem in the home directory; "" when there is no home directory.
func defaultCert() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, "chattest.pem")
}

// product is the backend: the web app's pages, and its API.
type product struct {
	client *chat.Client
	appID  string
	host   string // chattest's HOST:PORT, where the client SDK goes
	sdk    string
}

func (p *product) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.file("web/index.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /app.js", p.file("web/app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /sdk/CometChat.js", p.serveSDK)
	mux.HandleFunc("POST /api/login", p.login)
	mux.HandleFunc("POST /api/reply", p.reply)
	return mux
}

func (p *product) file(name, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := web.ReadFile(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(b)
	}
}

// serveSDK serves the client SDK's bundle, which npm ci installs.
func (p *product) serveSDK(w http.ResponseWriter, r *http.Request) {
	if _, err := os.Stat(p.sdk); err != nil {
		http.Error(w, "the client SDK is not installed: run npm ci in examples/localproduct/web", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	http.ServeFile(w, r, p.sdk)
}

// login creates the user when needed and mints an auth token for the web
// app's login. This demo trusts the user it is asked for; a real backend
// authenticates its own user first.
func (p *product) login(w http.ResponseWriter, r *http.Request) {
	var req struct {
		User string `json:"user"`
	}
	who, ok := decodeFor(w, r, &req, &req.User)
	if !ok {
		return
	}
	for _, uid := range []string{req.User, who.peer} {
		if err := p.ensureUser(r.Context(), uid); err != nil {
			answer(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
			return
		}
	}
	tok, err := p.client.AuthTokens.Create(r.Context(), req.User, nil)
	if err != nil {
		answer(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	answer(w, http.StatusOK, map[string]string{"appId": p.appID, "host": p.host, "uid": req.User, "peer": who.peer, "authToken": string(tok.AuthToken)})
}

// ensureUser creates uid unless it exists.
func (p *product) ensureUser(ctx context.Context, uid string) error {
	_, err := p.client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: users[uid].name})
	var ae *chat.Error
	if errors.As(err, &ae) && ae.Code == "ERR_UID_ALREADY_EXISTS" {
		return nil
	}
	return err
}

// reply answers a message in its thread, on behalf of the user who asks.
func (p *product) reply(w http.ResponseWriter, r *http.Request) {
	var req struct {
		User     string `json:"user"`
		ParentID string `json:"parentId"`
	}
	who, ok := decodeFor(w, r, &req, &req.User)
	if !ok {
		return
	}
	m, err := p.client.Messages.SendThread(r.Context(), req.ParentID, req.User, &chat.SendMessageRequest{
		Receiver: who.peer, ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Thanks, noted. (sent by the backend on " + who.name + "'s behalf)"},
	})
	if err != nil {
		answer(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	answer(w, http.StatusOK, m)
}

// decodeFor reads a small JSON body into v, whose field *user names one of
// the users, and returns that user; it answers 400 otherwise.
func decodeFor(w http.ResponseWriter, r *http.Request, v any, user *string) (who person, ok bool) {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(v); err != nil {
		answer(w, http.StatusBadRequest, map[string]string{"error": "a JSON body is needed"})
		return who, false
	}
	if who, ok = users[*user]; !ok {
		answer(w, http.StatusBadRequest, map[string]string{"error": "no such user: try alice or bob"})
	}
	return who, ok
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Printf("localproduct: answering: %v", err)
	}
}
