package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatrest/chat"
)

// commandKey is the API key the command under test is started with.
const commandKey = "e2e0000000000000000000000000000000000e2e"

// startCommand builds cmd/chattest and runs it on a free loopback port
// until the test ends. It returns its address (HOST:PORT) and the file of
// its certificate, once it accepts connections and has written it.
func startCommand(t *testing.T) (addr, certFile string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "chattest")
	build := exec.Command("go", "build", "-o", bin, "github.com/chatrest/chat/cmd/chattest")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/chattest: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	certFile = filepath.Join(dir, "cert.pem")
	cmd := exec.Command(bin, "-addr", addr, "-cert", certFile, "-api-key", commandKey)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	deadline := time.After(callTimeout)
	for {
		// The command listens, then writes the file: wait for a whole
		// PEM block in it.
		if b, err := os.ReadFile(certFile); err == nil && bytes.Contains(b, []byte("-----END CERTIFICATE-----")) {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				return addr, certFile
			}
		}
		select {
		case <-deadline:
			t.Fatalf("cmd/chattest does not listen on %s", addr)
		case <-time.After(20 * time.Millisecond): // polling, with the deadline above
		}
	}
}

// commandClient returns a Go SDK client of the app of the command at addr
// (test-app, with commandKey), trusting only the certificate in certFile,
// and that certificate.
func commandClient(t *testing.T, addr, certFile string) (*chat.Client, *x509.Certificate) {
	t.Helper()
	b, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s holds no PEM", certFile)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	t.Cleanup(hc.CloseIdleConnections)
	api, err := chat.NewClient("test-app", commandKey, chat.WithBaseURL("https://"+addr), chat.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	return api, cert
}

// The command serves the client API on the address of the server API: a
// backend on the Go SDK and two users on the JavaScript SDK, all pointed at
// the one address.
func TestCommandServesTheClientAPI(t *testing.T) {
	requireSDK(t)
	addr, certFile := startCommand(t)
	api, _ := commandClient(t, addr, certFile)
	ctx := ctxFor(t)
	tokens := map[string]string{}
	for _, uid := range []string{"alice", "bob"} {
		if _, err := api.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid}); err != nil {
			t.Fatal(err)
		}
		tok, err := api.AuthTokens.Create(ctx, uid, nil)
		if err != nil {
			t.Fatal(err)
		}
		tokens[uid] = string(tok.AuthToken)
	}
	alice := startJS(t, "alice", "test-app", addr, certFile)
	alice.login(tokens["alice"], "alice")
	bob := startJS(t, "bob", "test-app", addr, certFile)
	bob.login(tokens["bob"], "bob")
	awaitOnline(t, api, "alice", "bob")

	var sent jsMessage
	alice.call("send", map[string]any{"to": "bob", "receiverType": "user", "text": "over the command"}, &sent)
	bob.await("alice's message", func(e jsEvent) bool { return e.Event == "message" && e.Message.ID == sent.ID })
	m, err := api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "from the backend"}}, chat.OnBehalfOf("bob"))
	if err != nil {
		t.Fatal(err)
	}
	got := alice.await("the backend's message", func(e jsEvent) bool { return e.Event == "message" && e.Message.ID == m.ID })
	if got.Message.Text != "from the backend" || got.Message.Sender != "bob" {
		t.Errorf("alice received %+v", *got.Message)
	}
}

// awaitOnline waits until each user shows available to the backend: their
// client's websocket has authenticated. It polls, until callTimeout.
func awaitOnline(t *testing.T, api *chat.Client, uids ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
	defer cancel()
	for _, uid := range uids {
		for {
			u, err := api.Users.Get(ctx, uid)
			if err != nil {
				t.Fatalf("%s never came online: %v", uid, err)
			}
			if u.Status == chat.UserAvailable {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s never came online", uid)
			case <-time.After(20 * time.Millisecond): // polling, with the deadline above
			}
		}
	}
}
