package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPICommand sends requests with chat api against chattest.
func TestAPICommand(t *testing.T) {
	f := newFake(t)

	t.Run("POST when fields are given", func(t *testing.T) {
		f.rec.reset()
		r := f.ok(t, "api", "/users", "-f", "uid=carol", "-f", "name=Carol", "-F", `metadata={"plan":"pro"}`)
		sent := f.rec.matching(http.MethodPost, "/v3/users")
		require.Len(t, sent, 1)
		assert.JSONEq(t, string(sent[0].body), r.stdout, "the whole answer")
		u, err := f.client(t).Users.Get(t.Context(), "carol")
		require.NoError(t, err)
		assert.Equal(t, "Carol", u.Name)
		assert.Equal(t, map[string]any{"plan": "pro"}, u.Metadata)
	})
	t.Run("GET by default", func(t *testing.T) {
		r := f.ok(t, "api", "/users/carol")
		var body struct {
			Data struct{ UID, Name string }
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &body))
		assert.Equal(t, "carol", body.Data.UID)
	})
	t.Run("a query, from PATH and from fields", func(t *testing.T) {
		f.rec.reset()
		f.ok(t, "api", "/users?perPage=1", "-X", "GET", "-f", "searchKey=car")
		sent := f.rec.matching(http.MethodGet, "/v3/users")
		require.Len(t, sent, 1)
		assert.Contains(t, sent[0].query, "perPage=1")
		assert.Contains(t, sent[0].query, "searchKey=car")
	})
	t.Run("-X with a body from a file", func(t *testing.T) {
		f.ok(t, "api", "-X", "PUT", "/users/carol", "-f", "name=Caroline")
		u, err := f.client(t).Users.Get(t.Context(), "carol")
		require.NoError(t, err)
		assert.Equal(t, "Caroline", u.Name)
	})
	t.Run("the management API for /apps", func(t *testing.T) {
		f.rec.reset()
		f.ok(t, "api", "/apps")
		assert.Len(t, f.rec.matching(http.MethodGet, "/apps"), 1)
	})
	t.Run("an error of the API", func(t *testing.T) {
		r := f.run(t, []string{"api", "/users/nobody"})
		assert.Equal(t, exitAPI, r.code)
		assert.Contains(t, r.stderr, "ERR_UID_NOT_FOUND")
	})
	t.Run("a DELETE needs --yes without a terminal", func(t *testing.T) {
		f.rec.reset()
		r := f.run(t, []string{"api", "-X", "DELETE", "/users/carol"})
		assert.Equal(t, exitUsage, r.code)
		assert.Empty(t, f.rec.matching(http.MethodDelete, "/v3/users/carol"))
		f.ok(t, "api", "-X", "DELETE", "/users/carol", "--yes")
		assert.Len(t, f.rec.matching(http.MethodDelete, "/v3/users/carol"), 1)
	})
	t.Run("a bad method", func(t *testing.T) {
		r := f.run(t, []string{"api", "-X", "BREW", "/users"})
		assert.Equal(t, exitUsage, r.code)
	})
}
