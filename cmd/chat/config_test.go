package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfilesAndPrecedence configures two profiles in the user's
// configuration directory and checks that a flag wins over the
// environment, which wins over the profile.
func TestProfilesAndPrecedence(t *testing.T) {
	f := newFake(t)
	f.ok(t, "users", "create", "alice", "--name", "Alice")
	home := t.TempDir()
	env := baseEnv(home) // no CHAT_* variable
	set := func(profile, name, value string) {
		t.Helper()
		args := []string{"config", "set", name, value}
		stdin := ""
		if strings.Contains(name, "key") || strings.Contains(name, "secret") {
			args[3], stdin = "-", value+"\n"
		}
		if profile != "" {
			args = append(args, "--profile", profile)
		}
		r := runChat(t, env, stdin, args...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	for _, kv := range [][2]string{{"app-id", f.srv.AppID()}, {"api-key", f.srv.APIKey()}, {"base-url", f.url}, {"ca-file", f.caFile}} {
		set("", kv[0], kv[1])
		set("staging", kv[0], kv[1])
	}
	set("staging", "base-url", "https://127.0.0.1:1") // nothing listens there

	path := filepath.Join(home, "config", "chat", "config.toml")
	r := runChat(t, env, "", "config", "path")
	assert.Equal(t, path+"\n", r.stdout)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the file holds credentials")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "[staging]")

	list := runChat(t, env, "", "config", "list").stdout
	assert.Regexp(t, `(?m)^default\s+api-key\s+\(set\)$`, list)
	assert.Regexp(t, `(?m)^staging\s+base-url\s+https://127.0.0.1:1$`, list)

	// The default profile reaches the fake.
	r = runChat(t, env, "", "users", "get", "alice", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	// The staging profile, selected by flag or environment, does not.
	r = runChat(t, env, "", "users", "get", "alice", "--profile", "staging", "--timeout", "5s")
	assert.Equal(t, 1, r.code)
	r = runChat(t, append(slices.Clone(env), "CHAT_PROFILE=staging"), "", "users", "get", "alice", "--timeout", "5s")
	assert.Equal(t, 1, r.code)
	// The environment wins over the profile, and a flag over both.
	r = runChat(t, append(slices.Clone(env), "CHAT_PROFILE=staging", "CHAT_BASE_URL="+f.url), "", "users", "get", "alice")
	assert.Equal(t, 0, r.code, r.stderr)
	r = runChat(t, append(slices.Clone(env), "CHAT_PROFILE=staging"), "", "users", "get", "alice", "--base-url", f.url)
	assert.Equal(t, 0, r.code, r.stderr)
	r = runChat(t, append(slices.Clone(env), "CHAT_BASE_URL=https://127.0.0.1:1"), "", "users", "get", "alice", "--base-url", f.url)
	assert.Equal(t, 0, r.code, r.stderr)

	r = runChat(t, env, "", "users", "get", "alice", "--profile", "nope")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `no profile "nope"`)

	set("staging", "base-url", f.url)
	r = runChat(t, env, "", "config", "unset", "api-key", "--profile", "staging")
	require.Equal(t, 0, r.code)
	r = runChat(t, env, "", "users", "get", "alice", "--profile", "staging")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "no API key")

	r = runChat(t, env, "", "config", "set", "colour", "blue")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `unknown setting "colour"`)
}

// TestConfigErrorsShowNoCredential: a configuration file that does not
// parse is reported by its line, never with the text of a value, which may
// be a credential.
func TestConfigErrorsShowNoCredential(t *testing.T) {
	const key = "brokenfilekeyvalue7"
	for i, line := range []string{
		`api-key = ` + key,             // unquoted
		`api-key = "` + key,            // unterminated
		`api-key = "` + key + `" tail`, // text after the value
		`mgmt-secret = ` + key + `x y`,
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) { // a name without the key: it names the temporary directory
			dir := t.TempDir()
			path := filepath.Join(dir, "config.toml")
			require.NoError(t, os.WriteFile(path, []byte("[default]\napp-id = \"a\"\n"+line+"\n"), 0o600))
			r := runChat(t, append(baseEnv(dir), "CHAT_CONFIG="+path), "", "users", "list")
			assert.Equal(t, 2, r.code)
			assert.Contains(t, r.stderr, path+": line 3")
			for i := 4; i <= len(key); i++ {
				assert.NotContains(t, r.stderr, key[:i], "no part of the key is shown")
			}
		})
	}
}
