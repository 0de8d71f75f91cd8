package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
)

// releaseFixture is what testdata/releases/make.sh made with the command of
// one release: a data directory, its export, and what the state issued
// (issued.json).
type releaseFixture struct {
	Commit    string `json:"commit"`
	AppID     string `json:"appId"`
	OwnAPIKey string `json:"ownAPIKey"`
	Message   string `json:"message"` // the id of the group message that has a thread and a reaction
	AuthToken string `json:"authToken"`
	APIKey    string `json:"apiKey"`

	dir string
}

// releaseFixtures returns the fixture of every release in
// testdata/releases: each release adds one (see its README.md).
func releaseFixtures(t *testing.T) []releaseFixture {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "releases"))
	require.NoError(t, err)
	var out []releaseFixture
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join("testdata", "releases", e.Name())
		b, err := os.ReadFile(filepath.Join(dir, "issued.json"))
		require.NoError(t, err)
		var f releaseFixture
		require.NoError(t, json.Unmarshal(b, &f), dir)
		f.dir = dir
		out = append(out, f)
	}
	require.GreaterOrEqual(t, len(out), 2, "the fixtures of e34b134 and 81b49ab at least")
	return out
}

// copyDir copies the files of the directory from into a new directory, and
// returns it: a fixture is opened as a copy, which opening may convert.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
	return to
}

// The data directories and exports written by earlier releases open with
// today's command, with every user, group, member, message, thread reply
// and reaction they hold, and the credentials they issued still valid: the
// API key authenticates, and so does the auth token, on the client API.
// A directory opened once opens again.
func TestEarlierReleasesOpen(t *testing.T) {
	for _, f := range releaseFixtures(t) {
		t.Run(filepath.Base(f.dir), func(t *testing.T) {
			common := []string{"-http", "-addr", "127.0.0.1:0", "-app-id", f.AppID, "-api-key", f.OwnAPIKey}
			dir := copyDir(t, filepath.Join(f.dir, "data"))
			for _, run := range []string{"first start", "second start"} {
				in := serve(t, append(common, "-data", dir)...)
				checkFixtureState(t, run+" on the data directory", f, in.base)
				require.NoError(t, in.stop())
			}
			in := serve(t, append(common, "-seed", filepath.Join(f.dir, "export.json"))...)
			checkFixtureState(t, "seeded from the export", f, in.base)
			require.NoError(t, in.stop())
		})
	}
}

// checkFixtureState checks that the server at base holds the state that
// testdata/releases/make.sh makes.
func checkFixtureState(t *testing.T, what string, f releaseFixture, base string) {
	t.Helper()
	ctx := context.Background()
	c, err := chat.NewClient(f.AppID, f.OwnAPIKey, chat.WithBaseURL(base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	defer c.CloseIdleConnections()

	names := map[string]string{}
	for u, err := range c.Users.All(ctx, nil) {
		require.NoError(t, err, what)
		names[u.UID] = u.Name
	}
	assert.Equal(t, map[string]string{"alice": "Alice", "bob": "Bob", "carol": "Carol"}, names, "%s: the users, the repeated create changing nothing", what)
	alice, err := c.Users.Get(ctx, "alice")
	require.NoError(t, err, what)
	assert.Equal(t, map[string]any{"team": "blue"}, alice.Metadata, what)

	g, err := c.Groups.Get(ctx, "team")
	require.NoError(t, err, what)
	assert.Equal(t, "Team", g.Name, what)
	scopes := map[string]string{}
	for m, err := range c.Members.All(ctx, "team", nil) {
		require.NoError(t, err, what)
		scopes[m.UID] = string(m.Scope)
	}
	assert.Equal(t, map[string]string{"alice": "participant", "bob": "participant", "carol": "moderator"}, scopes, "%s: the members", what)

	var texts []string
	for m, err := range c.Messages.All(ctx, nil) {
		require.NoError(t, err, what)
		if m.Category == chat.CategoryMessage {
			texts = append(texts, m.Sender+": "+m.Data.Text)
		}
	}
	slices.Sort(texts)
	assert.Equal(t, []string{"alice: hello team", "alice: hi bob", "bob: a reply"}, texts, "%s: the messages", what)
	replies, err := c.Messages.ListThreadMessages(ctx, f.Message, nil)
	require.NoError(t, err, what)
	require.Len(t, replies.Data, 1, what)
	assert.Equal(t, "a reply", replies.Data[0].Data.Text, what)
	reactions, err := c.Messages.ListReactions(ctx, f.Message, nil)
	require.NoError(t, err, what)
	require.Len(t, reactions.Data, 1, what)
	assert.Equal(t, "👍", reactions.Data[0].Reaction, what)
	assert.Equal(t, "carol", reactions.Data[0].UID, what)

	issued, err := chat.NewClient(f.AppID, f.APIKey, chat.WithBaseURL(base), chat.WithInsecureLoopback(), chat.WithoutRetries())
	require.NoError(t, err)
	defer issued.CloseIdleConnections()
	_, err = issued.Users.Get(ctx, "bob")
	assert.NoError(t, err, "%s: the API key the state issued authenticates", what)

	req, err := http.NewRequest(http.MethodGet, base+"/v3.0/me", nil)
	require.NoError(t, err)
	req.Header.Set("appId", f.AppID)
	req.Header.Set("authToken", f.AuthToken)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: the auth token the state issued authenticates: %s", what, body)
	assert.Contains(t, string(body), `"uid":"alice"`, what)
}
