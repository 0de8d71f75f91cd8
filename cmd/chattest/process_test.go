package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/management"
	"github.com/chatrest/chat/webhook"
)

// build compiles the command and the other main packages pkgs (paths
// relative to the repository's root, built with the module's go.work)
// into a temporary directory, and returns each binary's path by its base
// name.
func build(t *testing.T, pkgs ...string) map[string]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "the go command")
	dir := t.TempDir()
	args := []string{"build", "-o", dir + string(filepath.Separator), "."}
	for _, p := range pkgs {
		args = append(args, "."+string(filepath.Separator)+filepath.Join("..", "..", p))
	}
	cmd := exec.CommandContext(t.Context(), goBin, args...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	bins := map[string]string{"chattest": filepath.Join(dir, "chattest")}
	for _, p := range pkgs {
		bins[filepath.Base(p)] = filepath.Join(dir, filepath.Base(p))
	}
	return bins
}

// process is the built command running as a child process.
type process struct {
	cmd    *exec.Cmd
	stderr *output
	rest   chan string // stdout after the banner
	printed
	banner string
}

// start runs the binary with args and env (added to the test's), and
// returns once it printed its banner.
func startProcess(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	p := &process{cmd: cmd, stderr: newOutput(), rest: make(chan string, 100)}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var b strings.Builder
	timeout := time.After(30 * time.Second)
	for p.banner == "" {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the command ended before it was ready: %s", p.stderr)
			b.WriteString(line + "\n")
			if line == bannerEnd {
				p.banner = b.String()
			}
		case <-timeout:
			t.Fatalf("no banner; so far: %s", b.String())
		}
	}
	go func() {
		for l := range lines {
			p.rest <- l
		}
		close(p.rest)
	}()
	p.printed = parseBanner(t, p.banner)
	return p
}

// stop sends sig and returns the exit code and what the command printed
// after its banner.
func (p *process) stop(t *testing.T, sig os.Signal) (int, string) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(sig))
	var after []string
	for l := range p.rest { // ends when the process closes its stdout
		after = append(after, l)
	}
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !assert.ErrorAs(t, err, &exit) {
		return -1, ""
	}
	return p.cmd.ProcessState.ExitCode(), strings.Join(after, "\n")
}

// The built command stops cleanly on SIGINT and on SIGTERM: with a
// dashboard page listening to its live stream, it ends the stream, says
// so, removes the directory it made for the certificate in the temporary
// directory and
// exits 0.
func TestProcessStopsOnSignals(t *testing.T) {
	bins := build(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startProcess(t, bins["chattest"], nil, "-addr", "127.0.0.1:0")
			require.FileExists(t, p.certFile)
			assert.Equal(t, os.TempDir(), filepath.Dir(filepath.Dir(p.certFile)))
			hc := trusting(t, p.certFile)

			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, "GET", p.base+"/_chattest/events", nil)
			require.NoError(t, err)
			resp, err := hc.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			streamEnded := make(chan error, 1)
			go func() {
				_, err := io.Copy(io.Discard, resp.Body)
				streamEnded <- err
			}()

			code, after := p.stop(t, sig)
			assert.Equal(t, 0, code, "stderr: %s", p.stderr)
			assert.Equal(t, "chattest: shutting down", after)
			assert.Empty(t, p.stderr.String())
			assert.NoDirExists(t, filepath.Dir(p.certFile), "the certificate made for the run is removed, with its directory")
			select {
			case <-streamEnded:
			case <-time.After(10 * time.Second):
				t.Fatal("the live stream did not end")
			}
		})
	}
}

// With -listen-any, webhook events reach an https receiver on the
// machine's network whose certificate the process trusts (SSL_CERT_FILE);
// without it, the same receiver gets nothing and the dashboard shows why.
func TestProcessDeliversOnTheLocalNetwork(t *testing.T) {
	ip := interfaceIP(t)
	bins := build(t)
	cert, certPEM, _, err := selfSigned(nil, []net.IP{ip})
	require.NoError(t, err)
	caFile := filepath.Join(t.TempDir(), "receiver.pem")
	require.NoError(t, os.WriteFile(caFile, certPEM, 0o600))
	got := make(chan string, 10)
	recv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- string(body)
	}))
	recv.Listener.Close()
	recv.Listener, err = net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
	require.NoError(t, err)
	recv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	recv.StartTLS()
	defer recv.Close()

	for _, listenAny := range []bool{true, false} {
		name := "loopback only"
		args := []string{"-addr", "127.0.0.1:0"}
		if listenAny {
			name = "-listen-any"
			args = append(args, "-listen-any")
		}
		t.Run(name, func(t *testing.T) {
			p := startProcess(t, bins["chattest"], []string{"SSL_CERT_FILE=" + caFile}, args...)
			hc := trusting(t, p.certFile)
			ctx := t.Context()
			mc, err := management.NewClient(p.mgmtKey, p.mgmtSecret, chat.WithBaseURL(p.base), chat.WithHTTPClient(hc))
			require.NoError(t, err)
			_, err = mc.Webhooks.Create(ctx, "test-app", &management.CreateWebhookRequest{ID: "lan", Name: "LAN", URL: recv.URL + "/in"})
			require.NoError(t, err)
			_, err = mc.Webhooks.AddTriggers(ctx, "test-app", "lan", []webhook.Trigger{"message_sent"})
			require.NoError(t, err)
			client, err := chat.NewClient("test-app", p.apiKey, chat.WithBaseURL(p.base), chat.WithHTTPClient(hc))
			require.NoError(t, err)
			for _, uid := range []string{"alice", "bob"} {
				_, err = client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: uid})
				require.NoError(t, err)
			}
			_, err = client.Messages.Send(ctx, &chat.SendMessageRequest{Receiver: "bob", ReceiverType: chat.ReceiverUser,
				Data: chat.MessageData{Text: "over the network"}}, chat.OnBehalfOf("alice"))
			require.NoError(t, err)

			if listenAny {
				select {
				case body := <-got:
					assert.Contains(t, body, "over the network")
				case <-time.After(10 * time.Second):
					t.Fatal("no delivery reached the receiver")
				}
			}
			page := pollPage(t, hc, p.base+"/_chattest/webhooks", func(page string) bool {
				return !strings.Contains(page, `<td class="state">pending</td>`) && strings.Contains(page, `data-delivery="1"`)
			})
			if listenAny {
				assert.Contains(t, page, `<td class="state">delivered</td>`)
			} else {
				assert.Contains(t, page, `<td class="state">failed</td>`)
				assert.Contains(t, page, "the fake only calls loopback addresses")
				assert.Empty(t, got)
			}
			hc.CloseIdleConnections()
			code, _ := p.stop(t, syscall.SIGTERM)
			assert.Equal(t, 0, code)
			if listenAny { // all of stderr is read once it exited
				assert.Contains(t, p.stderr.String(), "WARNING: -listen-any")
			} else {
				assert.Empty(t, p.stderr.String())
			}
		})
	}
}

// pollPage fetches url until ok accepts the page, for at most 30 seconds,
// and returns the page.
func pollPage(t *testing.T, hc *http.Client, url string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := hc.Get(url)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
		if ok(string(b)) {
			return string(b)
		}
		require.True(t, time.Now().Before(deadline), "the page never showed what was awaited:\n%s", b)
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
}

// interfaceIP returns an IPv4 address of one of the machine's network
// interfaces other than loopback.
func interfaceIP(t *testing.T) net.IP {
	t.Helper()
	_, ips := machineAddrs()
	for _, ip := range ips {
		if ip.To4() != nil {
			return ip
		}
	}
	t.Skip("this machine has no network interface besides loopback to receive on")
	return nil
}
