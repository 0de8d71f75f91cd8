package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// buildCommand builds the command into a temporary directory.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chattest")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// startOnDir builds the command and starts it with -data on a new
// directory; under -short, it skips the test.
func startOnDir(t *testing.T) (bin, dir string, p *process) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin, dir = buildCommand(t), t.TempDir()
	return bin, dir, start(t, bin, "-data", dir)
}

// process is the command running as a process of its own.
type process struct {
	cmd  *exec.Cmd
	base string
	out  bytes.Buffer
}

// start runs the built command with -http on a free loopback port and
// args, and waits until it answers.
func start(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	p := &process{base: "http://" + addr}
	p.cmd = exec.Command(bin, append([]string{"-http", "-addr", addr}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() { p.kill() })
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := hc.Get(p.base + "/v3/users")
		if err == nil {
			resp.Body.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not answer within 30s: %v\n%s", err, p.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to end.
func (p *process) kill() {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

func (p *process) client(t *testing.T) *chat.Client {
	t.Helper()
	c, err := chat.NewClient("test-app", chattestKey(), chat.WithBaseURL(p.base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// chattestKey is the API key of a command started without -api-key.
func chattestKey() string { return chattest.NewHandler().APIKey() }

// TestKillLosesNothingAcknowledged runs the command with -data, sends
// messages from 8 goroutines, kills the process with SIGKILL in the middle
// of the sends, and starts it again on the same directory: every message
// whose send was answered is there, as sent, and so are the users, the
// group and the auth token created before.
func TestKillLosesNothingAcknowledged(t *testing.T) {
	bin, dir, first := startOnDir(t)
	c := first.client(t)
	ctx := context.Background()
	for _, uid := range []string{"alice", "bob"} {
		_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
		require.NoError(t, err)
	}
	_, err := c.Groups.Create(ctx, &chat.CreateGroupRequest{GUID: "team", Name: "Team", Owner: "alice"})
	require.NoError(t, err)
	tok, err := c.AuthTokens.Create(ctx, "bob", &chat.CreateAuthTokenRequest{})
	require.NoError(t, err)

	var mu sync.Mutex
	acked := map[string]string{} // message id: text
	enough := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				text := "message " + strconv.Itoa(g) + "-" + strconv.Itoa(i)
				m, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "team", ReceiverType: chat.ReceiverGroup,
					Data: chat.MessageData{Text: text}}, chat.OnBehalfOf("alice"))
				if err != nil {
					return // killed
				}
				mu.Lock()
				acked[m.ID] = text
				if len(acked) >= 300 {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		}()
	}
	select {
	case <-enough:
	case <-time.After(time.Minute):
		t.Fatal("300 sends were not answered within a minute")
	}
	first.kill() // SIGKILL, sends in flight
	wg.Wait()
	require.Equal(t, "signal: killed", first.cmd.ProcessState.String())

	second := start(t, bin, "-data", dir)
	c = second.client(t)
	for _, uid := range []string{"alice", "bob"} {
		_, err := c.Users.Get(ctx, uid)
		assert.NoError(t, err, uid)
	}
	_, err = c.Groups.Get(ctx, "team")
	assert.NoError(t, err)
	tokens, err := c.AuthTokens.List(ctx, "bob", nil)
	require.NoError(t, err)
	require.Len(t, tokens.Data, 1)
	assert.Equal(t, tok.AuthToken, tokens.Data[0].AuthToken)
	t.Logf("%d sends answered before the kill", len(acked))
	for id, text := range acked {
		m, err := c.Messages.Get(ctx, id)
		if assert.NoError(t, err, "message %s", id) {
			assert.Equal(t, text, m.Data.Text)
		}
	}
	// A send in flight when the process died may or may not be there;
	// none is there twice, and nothing but the sends is.
	page, err := c.Messages.ListGroupMessages(ctx, "team", &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1000}})
	require.NoError(t, err)
	texts := map[string]bool{}
	for _, m := range page.Data {
		if m.Category == chat.CategoryMessage {
			assert.False(t, texts[m.Data.Text], "%q twice", m.Data.Text)
			texts[m.Data.Text] = true
		}
	}
	assert.GreaterOrEqual(t, len(texts), len(acked))
}

// TestExportSeedRoundTrip exports the state of a data directory with
// -export, starts the command from the file with -seed, and reads back
// what the file holds through the SDK; exporting the seeded server's
// directory again gives the same file.
func TestExportSeedRoundTrip(t *testing.T) {
	bin, dir, p := startOnDir(t)
	c := p.client(t)
	ctx := context.Background()
	_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err)
	sent, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "demo"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	p.kill()

	file := filepath.Join(t.TempDir(), "demo.json")
	out, err := exec.Command(bin, "-data", dir, "-export", file).CombinedOutput()
	require.NoError(t, err, "%s", out)

	seededDir := t.TempDir()
	q := start(t, bin, "-data", seededDir, "-seed", file)
	c = q.client(t)
	m, err := c.Messages.Get(ctx, sent.ID)
	require.NoError(t, err)
	assert.Equal(t, "demo", m.Data.Text)
	assert.Equal(t, sent.SentAt, m.SentAt)
	u, err := c.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, "Bob", u.Name)
	q.kill()

	again := filepath.Join(t.TempDir(), "again.json")
	out, err = exec.Command(bin, "-data", seededDir, "-export", again).CombinedOutput()
	require.NoError(t, err, "%s", out)
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	got, err := os.ReadFile(again)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// TestStateFlagsReportTheirProblems: -export without a state, a data
// directory of another app, and a seed file that is not one.
func TestStateFlagsReportTheirProblems(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, runMain([]string{"-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-export needs -data or -seed")

	dir := t.TempDir()
	h, err := chattest.OpenHandler(chattest.WithAppID("other-app"), chattest.WithDataDir(dir))
	require.NoError(t, err)
	require.NoError(t, h.Close())
	stderr.Reset()
	assert.Equal(t, 1, runMain([]string{"-data", dir, "-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `it holds the state of app "other-app", not of "test-app"`)

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"users": []}`), 0o600))
	stderr.Reset()
	assert.Equal(t, 1, runMain([]string{"-seed", bad, "-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "is not a state file of format 1")
}
