package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandPaths returns the path of every hand-written command, e.g.
// ["users", "list"], the root's included (empty); cobra's completion and
// help commands aside, and those made from the table of operations, which
// share one code path (TestOperationCommands runs each).
func commandPaths(t *testing.T, leavesOnly bool) [][]string {
	t.Helper()
	c := &cli{stdout: newRedactor(io.Discard), stderr: newRedactor(io.Discard), getenv: os.Getenv}
	root := c.rootCmd()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	var paths [][]string
	var walk func(cmd *cobra.Command, path []string)
	walk = func(cmd *cobra.Command, path []string) {
		if cmd.Name() == "help" || cmd.Name() == "completion" || cmd.Hidden || cmd.Annotations[annotPlain] == "true" {
			return
		}
		if !leavesOnly || !cmd.HasSubCommands() {
			paths = append(paths, path)
		}
		for _, sub := range cmd.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(root, nil)
	return paths
}

// TestHelp compares the help of every command with testdata/help; run
// with -update to rewrite the files after changing a command.
func TestHelp(t *testing.T) {
	env := baseEnv(t.TempDir())
	seen := map[string]bool{}
	for _, path := range commandPaths(t, false) {
		name := strings.Join(append([]string{"chat"}, path...), "_")
		t.Run(name, func(t *testing.T) {
			r := runChat(t, env, "", append(path, "--help")...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden := filepath.Join("testdata", "help", name+".golden")
			seen[filepath.Base(golden)] = true
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, []byte(r.stdout), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden help: go test -run TestHelp -update")
			assert.Equal(t, string(want), r.stdout)
		})
	}
	// No golden file of a command that no longer exists.
	files, err := filepath.Glob(filepath.Join("testdata", "help", "*.golden"))
	require.NoError(t, err)
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			if *update {
				require.NoError(t, os.Remove(f))
				continue
			}
			t.Errorf("%s is the help of no command", f)
		}
	}
}

// TestCompletion checks that the shell completion knows the commands and
// the import's kinds.
func TestCompletion(t *testing.T) {
	env := baseEnv(t.TempDir())
	r := runChat(t, env, "", "__complete", "import", "")
	require.Equal(t, 0, r.code, r.stderr)
	for _, k := range []string{"users", "groups", "members", "messages"} {
		assert.Contains(t, r.stdout, k+"\n")
	}
	r = runChat(t, env, "", "__complete", "webhooks", "triggers", "add", "hook", "message_s")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "message_sent\n")
	r = runChat(t, env, "", "__complete", "webhooks", "trigger", "group_member_")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "group_member_joined\n")
	r = runChat(t, env, "", "__complete", "notifications", "")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "update-settings\t", "the commands made from the table complete too")
	for shell, marker := range map[string]string{"bash": "__start_chat", "zsh": "#compdef chat", "fish": "complete -c chat", "powershell": "Register-ArgumentCompleter"} {
		r = runChat(t, env, "", "completion", shell)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, marker, shell)
	}
}
