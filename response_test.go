package chat_test

import (
	"context"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/wiretest"
)

// TestCaptureResponse checks what CaptureResponse fills: the final
// attempt's status, headers, request id and rate-limit budget, and the
// number of attempts, on success and on error; no status when no answer
// came.
func TestCaptureResponse(t *testing.T) {
	user := `{"data":{"uid":"u1","name":"One"}}`
	t.Run("success after a retry", func(t *testing.T) {
		client, m := wiretest.Chat(t, fastRetries)
		m.Serve(func(attempt int, _ *http.Request) (*http.Response, error) {
			if attempt == 1 {
				return wiretest.JSONResponse(503, `{"error":{"code":"ERR_X"}}`, "X-Request-Id", "first"), nil
			}
			return wiretest.JSONResponse(200, user, "X-Request-Id", "req-42", "X-Rate-Limit", "20000", "X-Rate-Limit-Remaining", "19990"), nil
		})
		var resp chat.Response
		got, err := client.Users.Get(context.Background(), "u1", chat.CaptureResponse(&resp))
		require.NoError(t, err)
		assert.Equal(t, "One", got.Name)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "req-42", resp.RequestID)
		assert.Equal(t, "req-42", resp.Header.Get("X-Request-Id"))
		assert.Equal(t, 2, resp.Attempts)
		assert.Equal(t, 20000, resp.RateLimit.Limit)
		assert.Equal(t, 19990, resp.RateLimit.Remaining)
		assert.Equal(t, http.StatusOK, resp.RateLimit.Status)
		assert.False(t, resp.RateLimit.Received.Before(resp.RateLimit.Sent), "received after sent")
	})
	t.Run("error answer", func(t *testing.T) {
		client, m := wiretest.Chat(t, fastRetries)
		m.Reply(404, `{"error":{"code":"ERR_UID_NOT_FOUND","message":"no such user"}}`, "X-Request-Id", "req-404")
		var resp chat.Response
		_, err := client.Users.Get(context.Background(), "u1", chat.CaptureResponse(&resp))
		require.ErrorIs(t, err, chat.ErrNotFound)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Equal(t, "req-404", resp.RequestID)
		assert.Equal(t, 1, resp.Attempts)
	})
	t.Run("429s beyond the retries", func(t *testing.T) {
		client, m := wiretest.Chat(t, fastRetries)
		m.Reply(429, `{"error":{"code":"ERR_TOO_MANY_REQUESTS"}}`, "Retry-After", "0", "X-Rate-Limit-Remaining", "0")
		var resp chat.Response
		_, err := client.Users.Get(context.Background(), "u1", chat.CaptureResponse(&resp))
		require.ErrorIs(t, err, chat.ErrRateLimited)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.Equal(t, 4, resp.Attempts)
		assert.Equal(t, 0, resp.RateLimit.Remaining)
		assert.Equal(t, time.Duration(0), resp.RateLimit.RetryAfter)
	})
	t.Run("no answer", func(t *testing.T) {
		client, m := wiretest.Chat(t, fastRetries)
		m.Serve(func(int, *http.Request) (*http.Response, error) { return nil, syscall.ECONNREFUSED })
		var resp chat.Response
		_, err := client.Users.Get(context.Background(), "u1", chat.CaptureResponse(&resp))
		require.ErrorIs(t, err, syscall.ECONNREFUSED)
		assert.Zero(t, resp.StatusCode)
		assert.Equal(t, 4, resp.Attempts)
	})
}
