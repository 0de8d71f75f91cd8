package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timeoutErr is a transport error that times out and quotes a secret.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout at /auth_tokens/secret-token" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestDetails(t *testing.T) {
	in := map[string]json.RawMessage{
		"list":   json.RawMessage(`["a","b"]`),
		"string": json.RawMessage(`"c"`),
		"number": json.RawMessage(`12`),
		"object": json.RawMessage(`{"x":1}`),
		"empty":  json.RawMessage(`[]`),
		"null":   json.RawMessage(`null`),
	}
	assert.Equal(t, map[string][]string{
		"list":   {"a", "b"},
		"string": {"c"},
		"number": {"12"},
		"object": {`{"x":1}`},
		"empty":  {},
		"null":   nil,
	}, details(in))
	assert.Nil(t, details(nil))
}

func TestJSONString(t *testing.T) {
	for raw, want := range map[string]string{`"ERR_X"`: "ERR_X", `404`: "404", `1.5`: "1.5", `null`: "", `{}`: "", `true`: "", ``: ""} {
		assert.Equal(t, want, jsonString(json.RawMessage(raw)), raw)
	}
}

func TestRedactErr(t *testing.T) {
	const shown = "https://app.example.com/v3/users/u1/auth_tokens/REDACTED"
	secrets := []string{"secret-token", "the-api-key-1234"}

	t.Run("url.Error gets the shown URL and a scrubbed cause", func(t *testing.T) {
		in := &url.Error{Op: "Get", URL: "https://app.example.com/v3/users/u1/auth_tokens/secret-token",
			Err: fmt.Errorf("proxy said GET /auth_tokens/secret-token with the-api-key-1234: %w", syscall.ECONNRESET)}
		out := redactErr(in, shown, secrets)
		assert.NotContains(t, out.Error(), "secret-token")
		assert.NotContains(t, out.Error(), "the-api-key-1234")
		assert.Contains(t, out.Error(), "proxy said GET /auth_tokens/REDACTED with REDACTED")
		var ue *url.Error
		require.ErrorAs(t, out, &ue)
		assert.Equal(t, shown, ue.URL)
		assert.Equal(t, "Get", ue.Op)
		assert.ErrorIs(t, out, syscall.ECONNRESET)
	})

	t.Run("a clean cause is kept as it is", func(t *testing.T) {
		in := &url.Error{Op: "Get", URL: "https://app.example.com/v3/users/u1/auth_tokens/secret-token", Err: syscall.ECONNREFUSED}
		out := redactErr(in, shown, secrets)
		var ue *url.Error
		require.ErrorAs(t, out, &ue)
		assert.Equal(t, syscall.ECONNREFUSED, ue.Err)
	})

	t.Run("a scrubbed timeout is still a timeout", func(t *testing.T) {
		in := &url.Error{Op: "Get", URL: "x", Err: timeoutErr{}}
		out := redactErr(in, shown, secrets)
		var ue *url.Error
		require.ErrorAs(t, out, &ue)
		assert.True(t, ue.Timeout())
		assert.NotContains(t, out.Error(), "secret-token")
		assert.False(t, errors.As(out, new(timeoutErr)), "the cause whose text shows the secret is not handed out")
		assert.ErrorIs(t, redactErr(fmt.Errorf("%w at secret-token", context.DeadlineExceeded), shown, secrets), context.DeadlineExceeded,
			"errors.Is still sees through")
	})

	t.Run("not a url.Error", func(t *testing.T) {
		assert.Same(t, context.Canceled, redactErr(context.Canceled, shown, secrets))
		out := redactErr(errors.New("boom secret-token"), shown, secrets)
		assert.Equal(t, "boom REDACTED", out.Error())
	})

	t.Run("short secrets are scrubbed only as words", func(t *testing.T) {
		err := errors.New("xabcx")
		assert.Same(t, err, redactErr(err, shown, []string{"abc"}))
		assert.Equal(t, "bad REDACTED", redactErr(errors.New("bad abc"), shown, []string{"abc"}).Error())
	})
}
