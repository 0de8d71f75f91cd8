package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatrest/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeywordListCommands creates and replaces keyword lists with the
// commands of the chat API and of the management API's variant: the list
// goes as the SDK's multipart form, with the terms of the flags and the
// cells of the CSV file of --file, and the fake keeps them.
func TestKeywordListCommands(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	words := filepath.Join(dir, "words.csv")
	require.NoError(t, os.WriteFile(words, []byte("darn,heck\nblast\n"), 0o644))
	stored := func(t *testing.T, id string) *chat.KeywordList {
		t.Helper()
		k, err := f.client(t).Moderation.GetKeywordList(t.Context(), id)
		require.NoError(t, err)
		return k
	}

	t.Run("chat API", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "moderation", "create-keyword-list", "--id", "mild", "--category", "word", "--name", "Mild",
			"--search-terms", "gosh,golly", "--file", words, "--json")
		require.Len(t, f.rec.matching(http.MethodPost, "/v3/moderation/keywords"), 1)
		k := stored(t, "mild")
		assert.Equal(t, []string{"gosh", "golly", "darn", "heck", "blast"}, k.SearchTerms)
		assert.True(t, k.IsCSV)
		assert.Equal(t, "Mild", k.Name)
		var shown chat.KeywordList
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &shown), r.stdout)
		assert.Equal(t, *k, shown, "--json shows the list as answered")

		table := f.ok(t, "moderation", "update-keyword-list", "mild", "--category", "word", "--search-terms", "shoot").stdout
		assert.Regexp(t, `(?m)^searchTerms\s+\["shoot"\]$`, table)
		k = stored(t, "mild")
		assert.Equal(t, []string{"shoot"}, k.SearchTerms)
		assert.False(t, k.IsCSV)
		assert.Empty(t, k.Name, "a replacement: the name not given is gone")

		f.ok(t, "moderation", "create-keyword-list", "--id", "greetings", "--category", "sentence-similarity",
			"--disallowed-sentences", "Hello, world", "--disallowed-sentences", "see you")
		assert.Equal(t, []string{"Hello, world", "see you"}, stored(t, "greetings").DisallowedSentences)
	})
	t.Run("management API", func(t *testing.T) {
		f.rec.reset()
		f.ok(t, "app-moderation", "create-keyword-list", "--id", "legacy", "--category", "pattern", "--search-terms", `^b[a4]d$`)
		require.Len(t, f.rec.matching(http.MethodPost, "/apps/"+f.srv.AppID()+"/moderation/keywords"), 1)
		assert.Equal(t, []string{`^b[a4]d$`}, stored(t, "legacy").SearchTerms)

		r := f.ok(t, "app-moderation", "update-keyword-list", "legacy", "--category", "word", "--file", words, "--json")
		require.Len(t, f.rec.matching(http.MethodPut, "/apps/"+f.srv.AppID()+"/moderation/keywords/legacy"), 1)
		k := stored(t, "legacy")
		assert.Equal(t, []string{"darn", "heck", "blast"}, k.SearchTerms)
		assert.Equal(t, chat.KeywordWord, k.Category)
		assert.Contains(t, r.stdout, `"revisionId"`)
	})
	t.Run("the service's refusal", func(t *testing.T) {
		r := f.run(t, []string{"moderation", "create-keyword-list", "--id", "empty", "--category", "word"})
		assert.Equal(t, exitAPI, r.code, r.stderr)
		assert.Contains(t, r.stderr, "searchTerms")
	})

	large := filepath.Join(dir, "large.csv")
	require.NoError(t, os.WriteFile(large, nil, 0o644))
	require.NoError(t, os.Truncate(large, chat.MaxKeywordFileBytes+1))
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"a missing file", []string{"moderation", "create-keyword-list", "--id", "x", "--category", "word", "--file", filepath.Join(dir, "missing.csv")},
			"chat: --file: open " + filepath.Join(dir, "missing.csv") + ": no such file or directory"},
		{"a file too large", []string{"app-moderation", "update-keyword-list", "legacy", "--category", "word", "--file", large},
			"chat: --file " + large + " is larger than 32 MiB (33554433 bytes), the most a keyword list's file may be"},
		{"a directory", []string{"moderation", "update-keyword-list", "mild", "--category", "word", "--file", dir},
			"chat: --file " + dir + " is not a regular file"},
		{"no category", []string{"moderation", "create-keyword-list", "--id", "x", "--search-terms", "a"},
			"chat: --category must not be empty"},
		{"no id", []string{"app-moderation", "create-keyword-list", "--category", "word", "--search-terms", "a"},
			"chat: --id must not be empty"},
		{"an empty term", []string{"moderation", "update-keyword-list", "mild", "--category", "word", "--search-terms", "a,,b"},
			"chat: --search-terms (term 2) must not be empty"},
	} {
		t.Run(tt.name+" sends nothing", func(t *testing.T) {
			f.rec.reset()
			r := f.run(t, tt.args)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, tt.want+"\n")
			assert.Empty(t, r.stdout)
			f.rec.mu.Lock()
			assert.Empty(t, f.rec.exchanges, "nothing sent")
			f.rec.mu.Unlock()
		})
	}
	assert.Equal(t, []string{"shoot"}, stored(t, "mild").SearchTerms, "unchanged")
}
