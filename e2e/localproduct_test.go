package e2e

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// browserTimeout bounds each step of a page.
const browserTimeout = 30 * time.Second

// startLocalProduct builds and runs examples/localproduct against srv,
// whose API key is apiKey and certificate is in certFile, and returns the
// web app's base URL. It stops when the test ends.
func startLocalProduct(t *testing.T, srv *chattest.Server, apiKey, certFile string) string {
	t.Helper()
	npmCI(t, "../examples/localproduct/web")
	sdk, err := filepath.Abs("../examples/localproduct/web/node_modules/@cometchat/chat-sdk-javascript/CometChat.js")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "localproduct")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/chatrest/chat/examples/localproduct").CombinedOutput(); err != nil {
		t.Fatalf("building examples/localproduct: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-chattest", srv.URL(), "-cert", certFile, "-app-id", srv.AppID(), "-sdk", sdk)
	cmd.Env = append(os.Environ(), "CHATTEST_API_KEY="+apiKey)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	// It prints "localproduct: open http://ADDR/?user=alice and ..." once
	// it listens.
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("localproduct printed no address: %v", err)
	}
	_, rest, _ := strings.Cut(line, "open ")
	base, _, ok := strings.Cut(rest, "/?user=")
	if !ok {
		t.Fatalf("localproduct printed %q", line)
	}
	go func() { bufio.NewReader(stdout).WriteTo(discard{}) }() // it prints nothing more; keep the pipe drained
	return base
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// The runnable example, as a person runs it: the Go backend, and its web
// app in two tabs of a headless Chromium, one per user, against chattest.
func TestLocalProductInABrowser(t *testing.T) {
	const apiKey = "local-dev-key-0000"
	srv := chattest.NewServer(chattest.WithAPIKey(apiKey), platform.WithWebSocket())
	t.Cleanup(srv.Close)
	certFile := writeCert(t, srv)
	base := startLocalProduct(t, srv, apiKey, certFile)

	// One browser, which trusts chattest's certificate; a tab per user.
	b := browser(t, srv.Certificate())

	// tab opens the web app as uid in a tab of its own, and waits until it
	// is online.
	tab := func(uid string) context.Context {
		t.Helper()
		ctx, cancel := chromedp.NewContext(b, chromedp.WithListener(func(ev any) {
			if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
				d := e.ExceptionDetails
				if d.Exception != nil {
					t.Logf("%s's page: %s %s", uid, d.Text, d.Exception.Description)
				} else {
					t.Logf("%s's page: %s", uid, d.Text)
				}
			}
		}))
		t.Cleanup(cancel)
		if err := chromedp.Do(ctx); err != nil { // opens the tab, for as long as ctx lasts
			t.Fatal(err)
		}
		t.Cleanup(func() { // what the page showed, when the test failed
			if t.Failed() {
				shot, cancel := context.WithTimeout(ctx, 5*time.Second)
				defer cancel()
				text, err := chromedp.Run(shot, chromedp.Text(chromedp.CSS("body")))
				t.Logf("%s's page (%v):\n%s", uid, err, text)
			}
		})
		browse(t, ctx, chromedp.Navigate(base+"/?user="+uid), chromedp.WaitVisible(chromedp.CSS("#status.ready")))
		awaitCtx, cancelAwait := context.WithTimeout(t.Context(), browserTimeout)
		defer cancelAwait()
		if err := srv.AwaitOnline(awaitCtx, uid); err != nil {
			t.Fatal(err)
		}
		return ctx
	}
	alice := tab("alice")
	bob := tab("bob")

	// alice writes; bob's page shows it live.
	browse(t, alice, chromedp.SendKeys(chromedp.CSS("#text"), "Lunch at noon?"), chromedp.Click(chromedp.CSS("#send")))
	bobSees := `//li[starts-with(., "alice: Lunch at noon?")]`
	browse(t, bob, chromedp.WaitVisible(bobSees))

	// bob asks the backend to reply in its thread on his behalf; alice's
	// page shows the reply, as a reply.
	browse(t, bob, chromedp.Click(bobSees+"/button"))
	replySel := `//li[contains(@class, "reply") and starts-with(., "bob: Thanks, noted.")]`
	browse(t, alice, chromedp.WaitVisible(replySel))
	reply := browseValue(t, alice, chromedp.Text(replySel))
	if !strings.Contains(reply, "sent by the backend on Bob's behalf") {
		t.Errorf("alice's page shows %q", reply)
	}
	// The backend's view: the reply is in the thread of alice's message.
	msgs := srv.Messages()
	last := msgs[len(msgs)-1]
	if last.Sender != "bob" || last.ParentID == "" || last.Data.Text != "Thanks, noted. (sent by the backend on Bob's behalf)" {
		t.Errorf("the last message: %+v", last)
	}
	if parent, _ := srv.Message(last.ParentID); parent.Data.Text != "Lunch at noon?" || parent.Sender != "alice" {
		t.Errorf("the reply's parent: %+v", parent)
	}
}

// browse runs steps in a page, failing the test after browserTimeout.
func browse(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// browseValue runs an action that reads a page and returns its value.
func browseValue[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
