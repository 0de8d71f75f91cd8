package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// chromium returns the path of the Chromium (or Chrome) to drive. Without
// one, the test is skipped, unless CHAT_E2E=1, when it fails.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHAT_E2E_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CHAT_E2E") == "1" {
		t.Fatal("no Chromium found (install Debian's chromium, or set CHAT_E2E_CHROMIUM)")
	}
	t.Skip("no Chromium found; install Debian's chromium (CHAT_E2E=1 makes this a failure)")
	return ""
}

// browser starts a headless Chromium with a fresh profile that trusts
// cert, the certificate of the chattest under test (and no other
// self-signed one), and returns a tab. chromedp.NewContext on the tab
// opens another tab of the same browser.
func browser(t *testing.T, cert *x509.Certificate) context.Context {
	t.Helper()
	spki := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("ignore-certificate-errors-spki-list", base64.StdEncoding.EncodeToString(spki[:])),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)), "starting Chromium")
	return ctx
}

// screenshots is the folder name of $CHAT_E2E_ARTIFACTS (else of
// chattest-e2e in the temporary directory), where a test writes a PNG of
// each page it checks, for a person to look at.
func screenshots(t *testing.T, name string) string {
	dir := os.Getenv("CHAT_E2E_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "chattest-e2e")
	}
	dir = filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// tab drives one browser tab through the dashboard.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
	dir  string
}

// open navigates to a dashboard page and waits for its live stream.
func (b *tab) open(page string) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, chromedp.Navigate(b.base+page)))
	b.await(`document.getElementById("live").dataset.state === "live"`)
}

// click follows the menu link named label, as a person does, and waits for
// the page it opens to go live.
func (b *tab) click(label string) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, chromedp.Click(chromedp.Search(`//nav/a[text()="`+label+`"]`))))
	b.await(`document.title.startsWith(` + quote(label+" ·") + `) && document.getElementById("live").dataset.state === "live"`)
}

// await waits until the JavaScript condition holds on the page, across a
// navigation that replaces the page, for at most 30 seconds (Chromium is
// slow on a busy machine).
func (b *tab) await(cond string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		// The page the condition was polled on was left for the next one.
		navigated := false
		for _, m := range []string{"Cannot find context", "context was destroyed", "Inspected target navigated"} {
			navigated = navigated || strings.Contains(err.Error(), m)
		}
		if !navigated || time.Now().After(deadline) {
			require.NoError(b.t, err, "waiting for %s; the page shows:\n%s", cond, b.text("main"))
		}
	}
}

// awaitText waits until the element sel shows want.
func (b *tab) awaitText(sel, want string) {
	b.t.Helper()
	b.await(fmt.Sprintf(`(document.querySelector(%s)?.innerText ?? "").trim() === %s`, quote(sel), quote(want)))
}

// text is what the element sel shows.
func (b *tab) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%s)?.innerText ?? ""`, quote(sel))))
	require.NoError(b.t, err)
	return strings.TrimSpace(s)
}

// cells is what each cell of the table row sel shows.
func (b *tab) cells(sel string) []string {
	b.t.Helper()
	c, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(
		`Array.from(document.querySelectorAll(%s + " > td"), td => td.innerText.trim().replace(/\s+/g, " "))`, quote(sel))))
	require.NoError(b.t, err)
	return c
}

// html is the page's whole markup.
func (b *tab) html() string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	require.NoError(b.t, err)
	return s
}

// shoot writes a full-page PNG of the page as name.png and checks it is
// one.
func (b *tab) shoot(name string) {
	b.t.Helper()
	buf, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	require.NoError(b.t, err)
	img, err := png.Decode(bytes.NewReader(buf))
	require.NoError(b.t, err, "a PNG")
	assert.GreaterOrEqual(b.t, img.Bounds().Dx(), 1280)
	require.NoError(b.t, os.WriteFile(filepath.Join(b.dir, name+".png"), buf, 0o644))
}

func quote(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

// TestDashboardInABrowser drives the dashboard in headless Chromium
// through a session: the app changes through the SDK while pages are
// open, and each page shows the change without a reload; then it clicks
// through every page, checks what a person sees on each, and writes a
// screenshot of each.
func TestDashboardInABrowser(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	srv := chattest.NewServer()
	t.Cleanup(srv.Close)
	b := &tab{t: t, ctx: browser(t, srv.Certificate()), base: srv.DashboardURL(), dir: screenshots(t, "dashboard")}
	t.Logf("screenshots in %s", b.dir)
	ctx := t.Context()
	client := srv.Client(chat.WithoutRetries())
	var secrets []string

	// The overview counts what arrives, live: the document stays the same.
	b.open("")
	b.awaitText("#count-users", "0")
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(window.sameDocument = true)`))
	require.NoError(t, err)
	for _, u := range []struct{ uid, name string }{{"alice", "Alice Liddell"}, {"bob", "Bob"}, {"carol", "Carol <admin>"}} {
		created, err := client.Users.Create(ctx, &chat.CreateUserRequest{UID: u.uid, Name: u.name, WithAuthToken: true})
		require.NoError(t, err)
		secrets = append(secrets, string(created.AuthToken))
	}
	b.awaitText("#count-users", "3")
	b.await(`window.sameDocument === true`)
	assert.Equal(t, "••••"+srv.APIKey()[36:], b.cells("#apikeys tbody tr")[2], "the API key, masked")
	b.shoot("overview")

	// Users, with their tokens masked.
	b.click("Users")
	assert.Equal(t, []string{"alice", "Alice Liddell", "default", "offline", "active"}, b.cells(`tr[data-uid="alice"]`)[:5])
	assert.Equal(t, "1 ••••"+secrets[0][len(secrets[0])-4:], b.cells(`tr[data-uid="alice"]`)[6])
	assert.Equal(t, "Carol <admin>", b.cells(`tr[data-uid="carol"]`)[1], "shown as written, not as markup")
	_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: "dave", Name: "Dave"})
	require.NoError(t, err)
	b.await(`document.querySelector('tr[data-uid="dave"]') !== null`)
	b.shoot("users")

	// Groups and their members, as they join.
	b.click("Groups")
	b.awaitText("#groups tbody", "No groups yet.")
	_, err = client.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "book-club", Name: "Book club", Type: chat.GroupPublic, Owner: "alice"})
	require.NoError(t, err)
	b.await(`document.querySelector('tr[data-guid="book-club"]') !== null`)
	_, err = client.Members.Add(ctx, "book-club", &chat.AddMembersRequest{Participants: []string{"bob", "carol"}})
	require.NoError(t, err)
	b.awaitText(`tr[data-guid="book-club"] .members .count`, "3")
	assert.Equal(t, []string{"book-club", "Book club", "public", "alice"}, b.cells(`tr[data-guid="book-club"]`)[:4])
	assert.Equal(t, "3 alice admin bob participant carol participant", b.cells(`tr[data-guid="book-club"]`)[5])
	b.shoot("groups")

	// Conversations and their unread counts, as messages arrive and are read.
	b.click("Conversations")
	hi, err := client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Did you finish the book?"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	_, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "book-club", ReceiverType: chat.ReceiverGroup,
		Data: chat.MessageData{Text: "Next meeting on Friday"}}, chat.OnBehalfOf("carol"))
	require.NoError(t, err)
	b.awaitText(`tr[data-conversation="alice_user_bob"] td.unread`, "alice: 0 bob: 1")
	b.awaitText(`tr[data-conversation="group_book-club"] td.unread`, "alice: 1 bob: 1 carol: 0")
	_, err = client.Conversations.MarkUserRead(ctx, "alice", "bob", &chat.MarkReadRequest{})
	require.NoError(t, err)
	b.awaitText(`tr[data-conversation="alice_user_bob"] td.unread`, "alice: 0 bob: 0")
	b.shoot("conversations")

	// A conversation's messages, with a thread and reactions, live.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`tr[data-conversation="alice_user_bob"] a`))))
	b.await(`location.search === "?conversation=alice_user_bob" && document.getElementById("live").dataset.state === "live"`)
	_, err = client.Messages.SendThread(ctx, hi.ID, "bob", &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Almost, two chapters left"}})
	require.NoError(t, err)
	for _, r := range []struct{ emoji, uid string }{{"📚", "bob"}, {"📚", "alice"}, {"👍", "bob"}} {
		_, err = client.Messages.AddReaction(ctx, hi.ID, r.emoji, r.uid)
		require.NoError(t, err)
	}
	parent := fmt.Sprintf(`article[data-id="%s"]`, hi.ID)
	b.awaitText(parent+" ul.reactions", "📚 2 bob, alice\n👍 1 bob")
	b.awaitText(parent+" + ol.thread .text", "Almost, two chapters left")
	assert.Equal(t, "Did you finish the book?", b.text(parent+" .text"))
	assert.NotContains(t, b.text("#messages"), "Next meeting", "another conversation's")
	b.shoot("messages")

	// Webhooks, and each delivery's status and attempts.
	b.click("Webhooks")
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer recv.Close()
	mc := srv.ManagementClient(chat.WithoutRetries())
	_, err = mc.Webhooks.Create(ctx, srv.AppID(), &management.CreateWebhookRequest{ID: "bot", Name: "Reading bot", URL: recv.URL + "/events",
		UseBasicAuth: true, Username: "bot", Password: "bot-secret-password"})
	require.NoError(t, err)
	secrets = append(secrets, "bot-secret-password")
	_, err = mc.Webhooks.AddTriggers(ctx, srv.AppID(), "bot", []webhook.Trigger{"message_sent", "message_reaction_added"})
	require.NoError(t, err)
	b.await(`document.querySelector('tr[data-webhook="bot"]') !== null`)
	_, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "alice", ReceiverType: chat.ReceiverUser,
		Data: chat.MessageData{Text: "Finished!"}}, chat.OnBehalfOf("bob"))
	require.NoError(t, err)
	b.awaitText(`tr[data-delivery="1"] td.state`, "delivered")
	assert.Equal(t, []string{"1", "message_sent", "bot", "delivered", "200", "1", ""}, b.cells(`tr[data-delivery="1"]`))
	assert.Equal(t, []string{"bot", "Reading bot", recv.URL + "/events", "yes", "no", "message_reaction_added message_sent"}, b.cells(`tr[data-webhook="bot"]`))
	b.shoot("webhooks")

	// The request log, redacted, the most recent first.
	b.click("Requests")
	assert.Equal(t, "POST", b.cells("#requests tbody tr")[1], "the last request: the message sent")
	assert.Equal(t, "/v3/messages", b.cells("#requests tbody tr")[2])
	assert.Equal(t, "bob", b.cells("#requests tbody tr")[4])
	_, err = client.Users.Get(ctx, "dave")
	require.NoError(t, err)
	b.awaitText("#requests tbody tr:first-child td:nth-child(3)", "/v3/users/dave")
	assert.Contains(t, b.text("#requests"), "REDACTED", "the webhook's password in its body")
	b.shoot("requests")

	// No page shows a secret.
	secrets = append(secrets, srv.APIKey(), srv.ManagementKey(), srv.ManagementSecret())
	for _, page := range []string{"", "users", "groups", "conversations", "messages", "webhooks", "requests"} {
		b.open(page)
		html := b.html()
		for _, s := range secrets {
			assert.NotContains(t, html, s, "page %q", page)
		}
	}

	srv.Close()
	b.await(`document.getElementById("live").dataset.state === "offline"`)
	recv.Close()
	chromedp.Cancel(b.ctx)
	goleak.VerifyNone(t, opt)
}
