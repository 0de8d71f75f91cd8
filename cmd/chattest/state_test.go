package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// stateKey is the API key the tests of the state give the command, the
// same at every start.
const stateKey = "state-test-key-0123456789"

// startOnDir builds the command and starts it with -data on a new
// directory and args; under -short, it skips the test.
func startOnDir(t *testing.T, args ...string) (bin, dir string, p *process) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin, dir = build(t)["chattest"], t.TempDir()
	return bin, dir, startHTTP(t, bin, append([]string{"-data", dir}, args...)...)
}

// startHTTP starts the built command with -http on a free loopback port,
// the API key stateKey and args, and returns once it is ready.
func startHTTP(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	return startProcess(t, bin, nil, append([]string{"-http", "-addr", "127.0.0.1:0", "-api-key", stateKey}, args...)...)
}

// kill sends SIGKILL and waits for the process to end.
func kill(p *process) {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// client returns a client of the process p.
func client(t *testing.T, p *process) *chat.Client {
	t.Helper()
	c, err := chat.NewClient("test-app", stateKey, chat.WithBaseURL(p.base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestKillLosesNothingAcknowledged runs the command with -data, its log
// synced in the background (the default) or before each answer (-sync),
// sends messages from 32 goroutines (their changes written together, and
// copied from the log into the database at checkpoints), kills the
// process with SIGKILL in the middle of the sends, and starts it again on
// the same directory: every message whose send was answered is there, as
// sent, once, and so are the users, the group and the auth token created
// before.
func TestKillLosesNothingAcknowledged(t *testing.T) {
	for mode, args := range map[string][]string{
		"(every change is saved before it is answered, and synced to the disk within 100 ms)": nil,
		"(every change is synced to the disk before it is answered)":                          {"-sync"},
	} {
		t.Run(strings.Join(append([]string{"-data"}, args...), " "), func(t *testing.T) { killLosesNothingAcknowledged(t, mode, args...) })
	}
}

// killLosesNothingAcknowledged is TestKillLosesNothingAcknowledged with
// args, whose banner says mode.
func killLosesNothingAcknowledged(t *testing.T, mode string, args ...string) {
	bin, dir, first := startOnDir(t, args...)
	assert.Contains(t, first.banner, fmt.Sprintf("kept in %q %s", dir, mode))
	c := client(t, first)
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
	for g := range 32 {
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
				if len(acked) >= 6000 { // more than a checkpoint's worth of changes (1 MB)
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		}()
	}
	select {
	case <-enough:
	case <-time.After(2 * time.Minute):
		t.Fatal("6000 sends were not answered within two minutes")
	}
	kill(first) // SIGKILL, sends in flight
	wg.Wait()
	require.Equal(t, "signal: killed", first.cmd.ProcessState.String())

	second := startHTTP(t, bin, append([]string{"-data", dir}, args...)...)
	c = client(t, second)
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
	texts := map[string]bool{}
	for m, err := range c.Messages.AllGroupMessages(ctx, "team", &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 1000}}) {
		require.NoError(t, err)
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
	c := client(t, p)
	ctx := context.Background()
	_, err := c.Users.Create(ctx, &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	_, err = c.Users.Create(ctx, &chat.CreateUserRequest{UID: "bob", Name: "Bob"})
	require.NoError(t, err)
	sent, err := c.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser, Data: chat.MessageData{Text: "demo"}}, chat.OnBehalfOf("alice"))
	require.NoError(t, err)
	kill(p)

	file := filepath.Join(t.TempDir(), "demo.json")
	out, err := exec.Command(bin, "-data", dir, "-export", file).CombinedOutput()
	require.NoError(t, err, "%s", out)

	seededDir := t.TempDir()
	q := startHTTP(t, bin, "-data", seededDir, "-seed", file)
	c = client(t, q)
	m, err := c.Messages.Get(ctx, sent.ID)
	require.NoError(t, err)
	assert.Equal(t, "demo", m.Data.Text)
	assert.Equal(t, sent.SentAt, m.SentAt)
	u, err := c.Users.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, "Bob", u.Name)
	kill(q)

	again := filepath.Join(t.TempDir(), "again.json")
	out, err = exec.Command(bin, "-data", seededDir, "-export", again).CombinedOutput()
	require.NoError(t, err, "%s", out)
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	got, err := os.ReadFile(again)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// TestDataKeepsTheGeneratedCredentials: started on a data directory
// without a key, the command generates the API key and management
// credentials once and keeps them there, owner-readable only; a restart
// prints the same ones, and the environment printed at the first start
// still reaches the users created then.
func TestDataKeepsTheGeneratedCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin, dir := build(t)["chattest"], t.TempDir()
	args := []string{"-http", "-addr", "127.0.0.1:0", "-data", dir}
	first := startProcess(t, bin, nil, args...)
	assert.Contains(t, first.banner, "# API key, kept in the data directory: "+first.apiKey+"\n")
	require.Len(t, first.apiKey, 40)
	require.NotEmpty(t, first.mgmtSecret)
	c, err := chat.NewClient("test-app", first.apiKey, chat.WithBaseURL(first.base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	_, err = c.Users.Create(context.Background(), &chat.CreateUserRequest{UID: "alice", Name: "Alice"})
	require.NoError(t, err)
	kill(first)

	info, err := os.Stat(filepath.Join(dir, "credentials.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	second := startProcess(t, bin, nil, args...)
	assert.Equal(t, first.apiKey, second.apiKey)
	assert.Equal(t, first.mgmtKey, second.mgmtKey)
	assert.Equal(t, first.mgmtSecret, second.mgmtSecret)
	c, err = chat.NewClient("test-app", first.apiKey, chat.WithBaseURL(second.base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	u, err := c.Users.Get(context.Background(), "alice")
	require.NoError(t, err)
	assert.Equal(t, "Alice", u.Name)
	kill(second)

	// Without -data, each start generates its own.
	a := startProcess(t, bin, nil, "-http", "-addr", "127.0.0.1:0")
	assert.Contains(t, a.banner, "# API key, generated at start: "+a.apiKey+"\n")
	b := startProcess(t, bin, nil, "-http", "-addr", "127.0.0.1:0")
	assert.NotEqual(t, a.apiKey, b.apiKey)
	assert.NotEqual(t, a.mgmtSecret, b.mgmtSecret)
}

// TestStateFlagsReportTheirProblems: -export without a state, -sync
// without a data directory, a data
// directory of another app, a seed file that is not one, and a data
// directory whose credentials file is not one.
func TestStateFlagsReportTheirProblems(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, runMain([]string{"-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-export needs -data or -seed")
	stderr.Reset()
	assert.Equal(t, 2, runMain([]string{"-sync", "-addr", "127.0.0.1:0"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-sync needs -data")

	dir := t.TempDir()
	h, err := chattest.OpenHandler(chattest.WithAppID("other-app"), platform.WithDataDir(dir))
	require.NoError(t, err)
	require.NoError(t, h.Close())
	stderr.Reset()
	assert.Equal(t, 1, runMain([]string{"-data", dir, "-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "chattest: the data directory "+dir+` holds the state of app "other-app", not of "test-app"`)

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"users": []}`), 0o600))
	stderr.Reset()
	assert.Equal(t, 1, runMain([]string{"-seed", bad, "-export", "-"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "is not a state file of format 1")

	broken := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(broken, "credentials.json"), []byte(`{"apiKey":"half-written`), 0o600))
	stderr.Reset()
	assert.Equal(t, 1, runMain([]string{"-data", broken, "-addr", "127.0.0.1:0"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "credentials.json holds no credentials (remove it to generate new ones)")
	assert.NotContains(t, stderr.String(), "half-written")
}
