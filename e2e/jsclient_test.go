package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatrest/chat/chattest"
)

// The end-to-end tests of the client API run the platform's official
// JavaScript client SDK under Node: node/client.js, one process per
// logged-in user, with the SDK that node/package-lock.json pins, installed
// from the npm registry by npm ci when the tests start.

// How long the Node side may take: a call of the SDK, and an event after
// what causes it.
const (
	callTimeout  = 20 * time.Second
	eventTimeout = 10 * time.Second
)

// requireTool returns the path of a command the tests need. Without it the
// test is skipped, unless CHAT_E2E=1 (as in CI), when it fails.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CHAT_E2E") == "1" {
		t.Fatalf("%s is needed by the end-to-end tests: %v", name, err)
	}
	t.Skipf("%s is not installed (CHAT_E2E=1 makes this a failure)", name)
	return ""
}

// npmDone records the directories npm ci has installed, once per test run.
var npmDone sync.Map // dir -> *npmRun

type npmRun struct {
	once sync.Once
	err  error
}

// npmCI installs the packages dir's package-lock.json pins, with npm ci,
// once per test run: its devDependencies too, whatever npm's
// configuration omits.
func npmCI(t *testing.T, dir string) {
	t.Helper()
	npm := requireTool(t, "npm")
	v, _ := npmDone.LoadOrStore(dir, &npmRun{})
	r := v.(*npmRun)
	r.once.Do(func() {
		cmd := exec.Command(npm, "ci", "--include=dev", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			r.err = fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
}

// requireSDK installs node/'s pinned packages, and returns the path of
// node.
func requireSDK(t *testing.T) string {
	t.Helper()
	node := requireTool(t, "node")
	npmCI(t, "node")
	return node
}

// writeCert writes the PEM of srv's certificate for Node to trust, and
// returns its path.
func writeCert(t *testing.T, srv *chattest.Server) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "chattest.pem")
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsEvent is what a listener of the SDK received (see client.js).
type jsEvent struct {
	Event   string     `json:"event"`
	Message *jsMessage `json:"message"`
	Receipt *struct {
		MessageID    string `json:"messageId"`
		Sender       string `json:"sender"`
		Receiver     string `json:"receiver"`
		ReceiverType string `json:"receiverType"`
		ReceiptType  string `json:"receiptType"`
	} `json:"receipt"`
	Sender   string `json:"sender"`
	Receiver string `json:"receiver"`
	User     string `json:"user"`
	Group    string `json:"group"`
	Stack    string `json:"stack"` // of a crash
	at       time.Time
}

// jsMessage is a message as the SDK shows it.
type jsMessage struct {
	ID           string `json:"id"`
	Category     string `json:"category"`
	Type         string `json:"type"`
	Text         string `json:"text"`
	Action       string `json:"action"`
	Sender       string `json:"sender"`
	Receiver     string `json:"receiver"`
	ReceiverType string `json:"receiverType"`
	ParentID     string `json:"parentId"`
}

// jsError is an error the SDK reported.
type jsError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *jsError) Error() string { return e.Code + ": " + e.Message }

// jsClient is one running client.js: one user's session of the SDK.
type jsClient struct {
	t      *testing.T
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	exited chan struct{}
	once   sync.Once // stop

	mu      sync.Mutex
	nextID  int
	replies map[int]chan jsReply
	events  []jsEvent
	changed chan struct{} // closed, and replaced, when an event arrives
}

type jsReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *jsError        `json:"error"`
}

// startJS starts client.js for the app appID at host (HOST:PORT), trusting
// the certificate at certFile, and initializes the SDK. It stops when the
// test ends.
func startJS(t *testing.T, name, appID, host, certFile string) *jsClient {
	t.Helper()
	node := requireSDK(t)
	c := &jsClient{t: t, name: name, replies: map[int]chan jsReply{}, changed: make(chan struct{}), exited: make(chan struct{})}
	c.cmd = exec.Command(node, "client.js", appID, host)
	c.cmd.Dir = "node"
	c.cmd.Env = append(os.Environ(), "NODE_EXTRA_CA_CERTS="+certFile)
	c.cmd.Stderr = &c.stderr
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(stdout)
	t.Cleanup(c.stop)
	c.call("init", nil, nil)
	return c
}

// read dispatches client.js's output lines until it exits.
func (c *jsClient) read(stdout io.Reader) {
	defer close(c.exited)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var ev jsEvent
		var r jsReply
		if json.Unmarshal(sc.Bytes(), &ev) != nil || json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		c.mu.Lock()
		if ev.Event != "" {
			ev.at = time.Now()
			c.events = append(c.events, ev)
			close(c.changed)
			c.changed = make(chan struct{})
		} else if ch := c.replies[r.ID]; ch != nil {
			ch <- r
			delete(c.replies, r.ID)
		}
		c.mu.Unlock()
	}
}

// stop ends client.js: closing its stdin makes it exit. Calling it again
// does nothing.
func (c *jsClient) stop() { c.once.Do(c.end) }

func (c *jsClient) end() {
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd.Wait()
	if c.t.Failed() && c.stderr.Len() > 0 {
		c.t.Logf("%s's Node stderr:\n%s", c.name, tail(c.stderr.String(), 4000))
	}
}

// tail is the end of s, at most n bytes, without the lines longer than
// 300 bytes: Node prints the line of the SDK's minified bundle where an
// error happened, which is all of it.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return len(l) > 300 })
	s = strings.Join(lines, "\n")
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// try runs op with args and decodes its result into out (if not nil); it
// returns the SDK's error, if any. It fails the test if client.js does not
// answer in time.
func (c *jsClient) try(op string, args map[string]any, out any) error {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan jsReply, 1)
	c.replies[id] = ch
	c.mu.Unlock()
	cmd := map[string]any{"id": id, "op": op}
	for k, v := range args {
		cmd[k] = v
	}
	b, _ := json.Marshal(cmd) // strings, numbers and maps of them always encode
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		c.t.Fatalf("%s: sending %s: %v", c.name, op, err)
	}
	var r jsReply
	select {
	case r = <-ch:
	case <-c.exited:
		select {
		case r = <-ch: // it answered, then exited
		default:
			c.t.Fatalf("%s: Node exited during %s; events: %+v", c.name, op, c.snapshot())
		}
	case <-time.After(callTimeout):
		c.t.Fatalf("%s: %s did not answer within %v", c.name, op, callTimeout)
	}
	if r.Error != nil {
		return r.Error
	}
	if out != nil {
		if err := json.Unmarshal(r.Result, out); err != nil {
			c.t.Fatalf("%s: %s answered %s: %v", c.name, op, r.Result, err)
		}
	}
	return nil
}

// call is try failing the test on the SDK's error.
func (c *jsClient) call(op string, args map[string]any, out any) {
	c.t.Helper()
	if err := c.try(op, args, out); err != nil {
		c.t.Fatalf("%s: %s: %v", c.name, op, err)
	}
}

// await returns the first event received (since the client started) for
// which match holds, waiting for it at most eventTimeout.
func (c *jsClient) await(what string, match func(jsEvent) bool) jsEvent {
	c.t.Helper()
	deadline := time.NewTimer(eventTimeout)
	defer deadline.Stop()
	for seen, exited := 0, false; ; {
		c.mu.Lock()
		events, changed := c.events, c.changed
		c.mu.Unlock()
		for ; seen < len(events); seen++ {
			if match(events[seen]) {
				return events[seen]
			}
		}
		if exited { // and every event it printed is in events
			c.t.Fatalf("%s: Node exited awaiting %s; events: %+v", c.name, what, events)
		}
		select {
		case <-changed:
		case <-deadline.C:
			c.t.Fatalf("%s: no %s within %v; events: %+v", c.name, what, eventTimeout, events)
		case <-c.exited:
			exited = true
		}
	}
}

// login logs the SDK in with token and checks that it is uid's session.
func (c *jsClient) login(token, uid string) {
	c.t.Helper()
	var me struct{ UID string }
	c.call("login", map[string]any{"token": token}, &me)
	if me.UID != uid {
		c.t.Fatalf("%s: logged in as %q, want %q", c.name, me.UID, uid)
	}
	c.await("connection", func(e jsEvent) bool { return e.Event == "connected" })
}

// host is the HOST:PORT of an https URL.
func host(url string) string { return strings.TrimPrefix(url, "https://") }

// ctxFor returns a context for the Go SDK's calls that ends with the test.
func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
	t.Cleanup(cancel)
	return ctx
}
