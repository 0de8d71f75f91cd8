package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// The official React UI Kit test bundles uikit/app.jsx, a small React app
// on the UI Kit that uikit/package-lock.json pins (installed from the npm
// registry by npm ci when the test starts), with esbuild, and drives it in
// Chromium against cmd/chattest, as a person uses a customer's product.

// buildUIKit installs uikit/'s pinned packages and bundles its app into a
// temporary folder, which it returns.
func buildUIKit(t *testing.T) string {
	t.Helper()
	node := requireTool(t, "node")
	npmCI(t, "uikit")
	dist := t.TempDir()
	cmd := exec.Command(node, "build.mjs", dist)
	cmd.Dir = "uikit"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bundling the UI Kit's app: %v\n%s", err, out)
	}
	var built struct{ Files, Bytes int }
	if err := json.Unmarshal(out, &built); err != nil {
		t.Fatalf("build.mjs printed %q: %v", out, err)
	}
	t.Logf("the UI Kit's app, bundled: %d files, %d bytes", built.Files, built.Bytes)
	return dist
}

// uikitSession is the session.json the app reads: chattest's HOST:PORT,
// the app, and the auth token to log in with.
type uikitSession struct {
	AppID     string `json:"appId"`
	Host      string `json:"host"`
	AuthToken string `json:"authToken"`
}

// servePage serves the bundled app in dist, and its session.json, on a
// loopback address until the test ends; it returns the page's URL.
func servePage(t *testing.T, dist string, session uikitSession) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServer(http.Dir(dist)))
	mux.HandleFunc("GET /session.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(session)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// pageLog records what a tab requests and is answered, and what its page
// reports as broken: exceptions and console errors.
type pageLog struct {
	mu       sync.Mutex
	requests map[network.RequestID]*pageRequest
	order    []network.RequestID
	sockets  []string      // the URLs of its websockets
	errors   []string      // exceptions and console errors
	changed  chan struct{} // closed, and replaced, when a request is answered or fails
}

// pageRequest is one request of a page, and its answer.
type pageRequest struct {
	method, url string
	status      int64  // 0 without an answer
	failed      string // why it failed without an answer; "" if it did not
	canceled    bool   // the page gave it up
}

// watchPage records the requests and errors of the tab ctx from now on.
func watchPage(t *testing.T, ctx context.Context) *pageLog {
	t.Helper()
	l := &pageLog{requests: map[network.RequestID]*pageRequest{}, changed: make(chan struct{})}
	// The listener runs in the tab's reading loop: it only records.
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if _, ok := l.requests[e.RequestID]; !ok { // else a redirect, under the same id
				l.order = append(l.order, e.RequestID)
			}
			l.requests[e.RequestID] = &pageRequest{method: e.Request.Method, url: e.Request.URL}
		case *network.EventResponseReceived:
			if r := l.requests[e.RequestID]; r != nil {
				r.status = e.Response.Status
				l.change()
			}
		case *network.EventLoadingFailed:
			if r := l.requests[e.RequestID]; r != nil {
				r.failed, r.canceled = e.ErrorText, e.Canceled
				l.change()
			}
		case *network.EventWebSocketCreated:
			l.sockets = append(l.sockets, e.URL)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					if a.Value != nil {
						args = append(args, string(a.Value))
					} else {
						args = append(args, a.Description)
					}
				}
				l.errors = append(l.errors, fmt.Sprintf("console.%s: %.500s", e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			if d := e.ExceptionDetails; d != nil {
				msg := d.Text
				if d.Exception != nil {
					msg += " " + d.Exception.Description
				}
				l.errors = append(l.errors, fmt.Sprintf("exception: %.500s", msg))
			}
		}
	}))
	return l
}

// change wakes those waiting for the log to change; l.mu is held.
func (l *pageLog) change() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// settled waits until every request sent so far is answered or failed, for
// at most browserTimeout.
func (l *pageLog) settled(t *testing.T) {
	t.Helper()
	deadline := time.NewTimer(browserTimeout)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		var pending []string
		for _, id := range l.order {
			if r := l.requests[id]; r.status == 0 && r.failed == "" {
				pending = append(pending, r.method+" "+r.url)
			}
		}
		changed := l.changed
		l.mu.Unlock()
		if len(pending) == 0 {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("requests unanswered after %v: %v", browserTimeout, pending)
		}
	}
}

// snapshot returns the requests so far, in the order they were sent, the
// websockets' URLs and the page's errors.
func (l *pageLog) snapshot() (reqs []pageRequest, sockets, errors []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range l.order {
		reqs = append(reqs, *l.requests[id])
	}
	return reqs, slices.Clone(l.sockets), slices.Clone(l.errors)
}

// TestUIKitInABrowser logs the official React UI Kit in to cmd/chattest
// with a token the Go SDK minted, and checks what a person sees in it: the
// conversations with their last messages, a conversation oldest first
// (across pages too), a thread, a message typed in the composer reaching
// the backend, a message the backend sends appearing live, and a group.
// Every request the page makes goes to the page's server or to chattest,
// and is answered without an error; the page reports none either.
func TestUIKitInABrowser(t *testing.T) {
	started := time.Now()
	dist := buildUIKit(t)
	addr, certFile := startCommand(t)
	api, cert := commandClient(t, addr, certFile)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	// The backend's users, conversations, a thread and a group.
	for _, u := range []struct{ uid, name string }{{"alice", "Alice"}, {"bob", "Bob"}, {"carol", "Carol"}} {
		_, err := api.Users.Create(ctx, &chat.CreateUserRequest{UID: u.uid, Name: u.name})
		require.NoError(t, err)
	}
	send := func(from, to string, rt chat.ReceiverType, text string) *chat.Message {
		t.Helper()
		m, err := api.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: to, ReceiverType: rt, Data: chat.MessageData{Text: text}},
			chat.OnBehalfOf(from))
		require.NoError(t, err)
		return m
	}
	reply := func(parent *chat.Message, from, to, text string) {
		t.Helper()
		_, err := api.Messages.SendThread(ctx, parent.ID, from, &chat.SendMessageRequest{Receiver: to, ReceiverType: chat.ReceiverUser,
			Data: chat.MessageData{Text: text}})
		require.NoError(t, err)
	}
	// With carol, more messages than the message list's first page (30).
	var notes []string
	for i := 1; i <= 36; i++ {
		from, to := "carol", "alice"
		if i%3 == 0 {
			from, to = to, from
		}
		notes = append(notes, fmt.Sprintf("Slide %d, noted", i))
		send(from, to, chat.ReceiverUser, notes[len(notes)-1])
	}
	bobWithAlice := []string{"Hi Alice, are you free this week?", "Hi Bob! Thursday works.", "Great, see you then."}
	send("bob", "alice", chat.ReceiverUser, bobWithAlice[0])
	thursday := send("alice", "bob", chat.ReceiverUser, bobWithAlice[1])
	replies := []string{"Thursday at noon?", "Noon is perfect."}
	reply(thursday, "bob", "alice", replies[0])
	reply(thursday, "alice", "bob", replies[1])
	newest := send("bob", "alice", chat.ReceiverUser, bobWithAlice[2])
	_, err := api.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "book-club", Name: "Book club", Type: chat.GroupPublic, Owner: "carol"})
	require.NoError(t, err)
	_, err = api.Members.Add(ctx, "book-club", &chat.AddMembersRequest{Participants: []string{"alice", "bob"}})
	require.NoError(t, err)
	club := []string{"Next meeting on Friday", "I will bring snacks"}
	send("carol", "book-club", chat.ReceiverGroup, club[0])
	send("bob", "book-club", chat.ReceiverGroup, club[1])

	// bob is online on the JavaScript SDK, to receive what alice's UI Kit
	// sends him.
	bobTok, err := api.AuthTokens.Create(ctx, "bob", nil)
	require.NoError(t, err)
	bob := startJS(t, "bob", "test-app", addr, certFile)
	bob.login(string(bobTok.AuthToken), "bob")
	awaitOnline(t, api, "bob")

	// alice logs in to the UI Kit with a token the backend minted.
	tok, err := api.AuthTokens.Create(ctx, "alice", nil)
	require.NoError(t, err)
	page := servePage(t, dist, uikitSession{AppID: "test-app", Host: addr, AuthToken: string(tok.AuthToken)})
	b := &tab{t: t, ctx: browser(t, cert), base: page, dir: screenshots(t, "uikit")}
	t.Logf("screenshots in %s", b.dir)
	log := watchPage(t, b.ctx)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(page)))
	b.await(`document.getElementById("status")?.className === "ready"`)

	// The conversations, each with its last message, the newest first
	// (their last messages may share a second: the newer message wins).
	const convItems, convTitle = `.cometchat-conversations__item`, `.cometchat-conversations__item-title`
	b.await(fmt.Sprintf(`document.querySelectorAll(%s).length === 3`, quote(convItems)))
	assert.Equal(t, []string{
		"Book club|Bob: " + club[1],
		"Bob|" + bobWithAlice[2],
		"Carol|" + notes[len(notes)-1],
	}, b.strings(`Array.from(document.querySelectorAll(`+quote(convItems)+`), e =>
		e.querySelector(`+quote(convTitle)+`).innerText.trim() + "|" +
		e.querySelector(".cometchat-conversations__item-subtitle").innerText.trim().replace(/\s+/g, " "))`))
	b.shoot("conversations")

	// bob's conversation, oldest at the top; opening it tells bob that
	// alice's client received his newest message.
	b.clickItem(convItems, convTitle, "Bob")
	const conversation = `.conversation .cometchat-message-list`
	b.awaitTexts(conversation, bobWithAlice)
	bob.await("alice's delivery receipt of the newest message", func(e jsEvent) bool {
		return e.Event == "receipt" && e.Receipt.ReceiptType == "delivery" && e.Receipt.MessageID == newest.ID
	})
	b.shoot("conversation")

	// The thread of alice's message, its replies in order under it.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(
		fmt.Sprintf(`.conversation [data-message-id="%s"] .cometchat-thread-view`, thursday.ID)))))
	b.awaitTexts(".thread .cometchat-message-list", replies)
	assert.Equal(t, bobWithAlice[1], b.text(".thread .cometchat-thread-header .cometchat-text-bubble__text"), "the thread's parent")
	assert.Equal(t, "2 Replies", b.text(".thread .cometchat-thread-header__reply-count-text"))
	b.shoot("thread")

	// alice types a message and presses enter: bob receives it, the server
	// API serves it as alice's, and it shows last.
	typed := "Typed in the composer"
	composer := `.conversation .cometchat-message-composer__input`
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(composer)), chromedp.SendKeys(chromedp.CSS(composer), typed+kb.Enter)))
	got := bob.await("alice's typed message", func(e jsEvent) bool { return e.Event == "message" && e.Message.Text == typed })
	assert.Equal(t, "alice", got.Message.Sender)
	last, err := api.Messages.ListUserMessages(ctx, "bob", &chat.ListUserMessagesOptions{
		CursorOptions: chat.CursorOptions{Direction: chat.DirectionBefore, Limit: 1}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	require.Len(t, last.Data, 1)
	assert.Equal(t, typed, last.Data[0].Data.Text)
	assert.Equal(t, "alice", last.Data[0].Sender)
	assert.Equal(t, "bob", last.Data[0].Receiver)
	b.awaitTexts(conversation, append(slices.Clone(bobWithAlice), typed))
	b.shoot("composed")

	// A message the backend sends on bob's behalf appears live, last.
	live := "Sent by the backend on Bob's behalf"
	send("bob", "alice", chat.ReceiverUser, live)
	b.awaitTexts(conversation, append(slices.Clone(bobWithAlice), typed, live))
	b.shoot("live")

	// carol's conversation: its newest 30 messages in order; scrolled up,
	// the older ones above them. The list loads more when its top comes
	// into view: scroll to the top, and a little down and up again, as a
	// person does until it loads.
	b.clickItem(convItems, convTitle, "Carol")
	b.awaitTexts(conversation, notes[len(notes)-30:])
	_, err = chromedp.Run(b.ctx, chromedp.Poll[bool](fmt.Sprintf(`(() => {
		const list = document.querySelector(".conversation .cometchat-message-list__scroll-container");
		if (document.querySelectorAll(%s).length >= %d) return true;
		list.scrollTop = list.scrollTop === 0 ? 200 : 0;
		return false;
	})()`, quote(conversation+" [data-message-id]"), len(notes)), chromedp.WithPollingInterval(500*time.Millisecond),
		chromedp.WithPollingTimeout(browserTimeout)))
	require.NoError(t, err, "scrolling up for the older messages")
	b.awaitTexts(conversation, notes)
	b.shoot("history")

	// The group, from the list of groups: who joined, then its messages.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tab-groups`))))
	b.clickItem(`.cometchat-groups__item`, `.cometchat-groups__item-title`, "Book club")
	b.awaitTexts(conversation, []string{"System added Alice", "System added Bob", "Carol: " + club[0], "Bob: " + club[1]})
	assert.Equal(t, "Book club", b.text(".conversation .cometchat-message-header__title"))
	b.shoot("group")

	// Every request went to the page's server or to chattest, and was
	// answered without an error; the websocket is chattest's.
	log.settled(t)
	reqs, sockets, problems := log.snapshot()
	pageHost := strings.TrimSuffix(strings.TrimPrefix(page, "http://"), "/")
	routes := map[string]bool{}
	for _, r := range reqs {
		u, err := url.Parse(r.url)
		require.NoError(t, err)
		if u.Scheme == "data" {
			continue
		}
		assert.Truef(t, u.Host == addr || u.Host == pageHost, "a request beyond the page and chattest: %s %s", r.method, r.url)
		assert.Truef(t, r.canceled || r.failed == "" && r.status < 400, "%s %s answered %d %s", r.method, r.url, r.status, r.failed)
		if u.Host == addr && r.method != http.MethodOptions {
			routes[r.method+" "+u.Path] = true
		}
	}
	assert.Equal(t, []string{"wss://" + addr + "/"}, sockets)
	assert.Empty(t, problems, "what the page reported")
	t.Logf("the UI Kit's requests to chattest: %s", strings.Join(slices.Sorted(maps.Keys(routes)), ", "))
	t.Logf("the UI Kit test took %v", time.Since(started).Round(time.Millisecond))
}

// clickItem clicks the item of a list, an element matching sel, whose
// title (the element title within it) shows text, as a person picks it.
func (b *tab) clickItem(sel, title, text string) {
	b.t.Helper()
	item := fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).find(e => e.querySelector(%s)?.innerText.trim() === %s)`,
		quote(sel), quote(title), quote(text))
	b.await(item + ` !== undefined`)
	require.NoError(b.t, chromedp.Do(b.ctx, chromedp.Click(chromedp.JSPath(item))))
}

// awaitTexts waits until the message list sel shows want, from the top:
// each message's text, after its sender's name and ": " where the list
// names senders (in groups), or the text of an action message ("System
// added Alice").
func (b *tab) awaitTexts(sel string, want []string) {
	b.t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%s), e => {
		const action = e.querySelector(".cometchat-action-bubble__text");
		if (action) return action.innerText.trim();
		const name = e.querySelector(".cometchat-message-bubble__sender-name");
		const text = e.querySelector(".cometchat-text-bubble__text");
		return (name ? name.innerText.trim() + ": " : "") + (text ? text.innerText.trim() : "");
	})`, quote(sel+` [data-message-id]`))
	w, _ := json.Marshal(want) // strings always encode
	cond := fmt.Sprintf(`JSON.stringify(%s) === %s`, js, quote(string(w)))
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		b.t.Fatalf("%s shows %q, want %q: %v", sel, b.strings(js), want, err)
	}
}

// strings evaluates js, an array of strings, on the page.
func (b *tab) strings(js string) []string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
	require.NoError(b.t, err)
	return s
}
