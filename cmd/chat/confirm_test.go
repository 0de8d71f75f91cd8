//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the side the test reads and types on
// (the master) and the terminal the command runs on.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	require.NoError(t, unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0), "unlocking the pseudo-terminal")
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// terminalRun is a run of the command on a pseudo-terminal.
type terminalRun struct {
	master *os.File
	cmd    *exec.Cmd
	out    chan byte // what the command wrote on the terminal
	seen   bytes.Buffer
}

// runOnTerminal starts the command with args on a new pseudo-terminal
// (its standard input, output and error), as a user at a terminal runs it.
func (f *fake) runOnTerminal(t *testing.T, args ...string) *terminalRun {
	t.Helper()
	master, tty := openPTY(t)
	cmd := exec.Command(chatBin, args...)
	cmd.Env = append(baseEnv(f.dir), f.env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	require.NoError(t, cmd.Start())
	tty.Close() // the command holds the terminal now: the master reads EIO when it ends
	r := &terminalRun{master: master, cmd: cmd, out: make(chan byte, 1<<16)}
	go func() {
		defer close(r.out)
		buf := make([]byte, 1024)
		for {
			n, err := master.Read(buf)
			for _, b := range buf[:n] {
				r.out <- b
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

// waitFor reads what the command writes until text shows.
func (r *terminalRun) waitFor(t *testing.T, text string) {
	t.Helper()
	for !strings.Contains(r.seen.String(), text) {
		b, ok := <-r.out
		if !ok {
			require.Failf(t, "the command ended", "before writing %q; it wrote %q", text, r.seen.String())
		}
		r.seen.WriteByte(b)
	}
}

// wait waits for the command to end, and returns its exit status and all
// it wrote.
func (r *terminalRun) wait(t *testing.T) (int, string) {
	t.Helper()
	for b := range r.out {
		r.seen.WriteByte(b)
	}
	err := r.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), r.seen.String()
	}
	require.NoError(t, err)
	return 0, r.seen.String()
}

// TestDestructiveCommandAsksOnATerminal runs a destructive command on a
// pseudo-terminal: it asks first, sends nothing when the answer is no,
// and deletes when it is yes.
func TestDestructiveCommandAsksOnATerminal(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "alice", "--name", "Alice")
	f.ok(t, "groups", "create", "team", "--name", "Team", "--type", "public", "--owner", "alice")
	prompt := "chat groups delete team in app " + f.srv.AppID() + " deletes or takes away data. Type yes to go on: "

	t.Run("no", func(t *testing.T) {
		f.rec.reset()
		r := f.runOnTerminal(t, "groups", "delete", "team")
		r.waitFor(t, prompt)
		_, err := r.master.WriteString("n\n")
		require.NoError(t, err)
		code, out := r.wait(t)
		assert.Equal(t, exitUsage, code, out)
		assert.Contains(t, out, "not confirmed: nothing was changed")
		f.rec.mu.Lock()
		assert.Empty(t, f.rec.exchanges, "nothing sent")
		f.rec.mu.Unlock()
		_, err = f.client(t).Groups.Get(t.Context(), "team")
		require.NoError(t, err, "the group is still there")
	})
	t.Run("yes", func(t *testing.T) {
		f.rec.reset()
		r := f.runOnTerminal(t, "groups", "delete", "team")
		r.waitFor(t, prompt)
		_, err := r.master.WriteString("y\n")
		require.NoError(t, err)
		code, out := r.wait(t)
		assert.Equal(t, exitOK, code, out)
		assert.Len(t, f.rec.matching(http.MethodDelete, "/v3/groups/team"), 1)
		_, err = f.client(t).Groups.Get(t.Context(), "team")
		require.Error(t, err, "the group is deleted")
	})
}
