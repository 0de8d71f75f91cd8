package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatrest/chat/webhook"
)

const (
	hookUser     = "hooks"
	hookPassword = "Sup3rSecretPassw0rd"
)

func verifier() *webhook.Verifier {
	return &webhook.Verifier{Username: hookUser, Password: hookPassword}
}

// delivery returns a message_sent delivery to the test verifier's webhook.
func delivery(t *testing.T) *http.Request {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(envelope(webhook.TriggerMessageSent, payload(t, webhook.TriggerMessageSent))))
	r.Header.Set("Content-Type", "application/json")
	r.SetBasicAuth(hookUser, hookPassword)
	return r
}

func TestVerifyAuth(t *testing.T) {
	cases := []struct {
		name string
		v    *webhook.Verifier
		auth func(r *http.Request)
		want error
	}{
		{"right credentials", verifier(), func(r *http.Request) {}, nil},
		{"wrong username", verifier(), func(r *http.Request) { r.SetBasicAuth("hook", hookPassword) }, webhook.ErrUnauthorized},
		{"wrong password", verifier(), func(r *http.Request) { r.SetBasicAuth(hookUser, hookPassword+"x") }, webhook.ErrUnauthorized},
		{"password prefix", verifier(), func(r *http.Request) { r.SetBasicAuth(hookUser, hookPassword[:5]) }, webhook.ErrUnauthorized},
		{"both wrong", verifier(), func(r *http.Request) { r.SetBasicAuth("a", "b") }, webhook.ErrUnauthorized},
		{"credentials swapped", verifier(), func(r *http.Request) { r.SetBasicAuth(hookPassword, hookUser) }, webhook.ErrUnauthorized},
		{"empty password", verifier(), func(r *http.Request) { r.SetBasicAuth(hookUser, "") }, webhook.ErrUnauthorized},
		{"no Authorization header", verifier(), func(r *http.Request) { r.Header.Del("Authorization") }, webhook.ErrUnauthorized},
		{"not Basic", verifier(), func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+hookPassword) }, webhook.ErrUnauthorized},
		{"malformed Basic", verifier(), func(r *http.Request) { r.Header.Set("Authorization", "Basic !!!") }, webhook.ErrUnauthorized},
		{"a Verifier without credentials", &webhook.Verifier{}, func(r *http.Request) {}, webhook.ErrNoCredentials},
		{"a nil Verifier", nil, func(r *http.Request) {}, webhook.ErrNoCredentials},
		{"unauthenticated, without a header", &webhook.Verifier{Unauthenticated: true}, func(r *http.Request) { r.Header.Del("Authorization") }, nil},
		{"unauthenticated, with any header", &webhook.Verifier{Unauthenticated: true}, func(r *http.Request) { r.SetBasicAuth("x", "y") }, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := delivery(t)
			tc.auth(r)
			ev, err := tc.v.Verify(r)
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, "hi", as[*webhook.MessageEvent](t, ev).Message.Data.Text)
				return
			}
			require.ErrorIs(t, err, tc.want)
			assert.Nil(t, ev)
			assert.NotContains(t, err.Error(), hookPassword)
			assert.NotContains(t, err.Error(), hookPassword[:5])
		})
	}
}

func TestVerifyRequest(t *testing.T) {
	cases := []struct {
		name   string
		change func(r *http.Request)
		want   error
		status int
	}{
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, webhook.ErrMethod, 405},
		{"PUT", func(r *http.Request) { r.Method = http.MethodPut }, webhook.ErrMethod, 405},
		{"form body", func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }, webhook.ErrContentType, 415},
		{"text", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, webhook.ErrContentType, 415},
		{"bad media type", func(r *http.Request) { r.Header.Set("Content-Type", "//") }, webhook.ErrContentType, 415},
		{"JSON with charset", func(r *http.Request) { r.Header.Set("Content-Type", "application/json; charset=utf-8") }, nil, 200},
		{"a +json type", func(r *http.Request) { r.Header.Set("Content-Type", "application/vnd.chat+json") }, nil, 200},
		{"no Content-Type", func(r *http.Request) { r.Header.Del("Content-Type") }, nil, 200},
		{"no body", func(r *http.Request) { r.Body = nil; r.ContentLength = 0 }, webhook.ErrInvalidPayload, 400},
		{"empty body", func(r *http.Request) { r.Body = http.NoBody; r.ContentLength = 0 }, webhook.ErrInvalidPayload, 400},
		{"invalid JSON", func(r *http.Request) { setBody(r, `{"trigger":"message_sent",`) }, webhook.ErrInvalidPayload, 400},
		{"not a delivery", func(r *http.Request) { setBody(r, `[]`) }, webhook.ErrInvalidPayload, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := delivery(t)
			tc.change(r)
			_, err := verifier().Verify(r)
			require.ErrorIs(t, err, tc.want)
			assert.Equal(t, tc.status, webhook.StatusCode(err))
		})
	}
}

func setBody(r *http.Request, body string) {
	r.Body = io.NopCloser(strings.NewReader(body))
	r.ContentLength = int64(len(body))
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestVerifyBodyLimit(t *testing.T) {
	const limit = 1000
	v := verifier()
	v.MaxBodyBytes = limit
	// A valid delivery padded with spaces to exactly size bytes.
	body := func(size int) []byte {
		b := []byte(envelope(webhook.TriggerCallStarted, payload(t, webhook.TriggerCallStarted)))
		require.LessOrEqual(t, len(b), size)
		return append(b, bytes.Repeat([]byte(" "), size-len(b))...)
	}
	post := func(b []byte, declared int64) (*countingReader, error) {
		cr := &countingReader{r: bytes.NewReader(b)}
		r := delivery(t)
		r.Body = io.NopCloser(cr)
		r.ContentLength = declared
		_, err := v.Verify(r)
		return cr, err
	}

	t.Run("exactly the limit", func(t *testing.T) {
		_, err := post(body(limit), limit)
		require.NoError(t, err)
		_, err = post(body(limit), -1)
		require.NoError(t, err)
	})
	t.Run("declared over the limit is not read", func(t *testing.T) {
		cr, err := post(body(10*limit), 10*limit)
		require.ErrorIs(t, err, webhook.ErrTooLarge)
		assert.Equal(t, 413, webhook.StatusCode(err))
		assert.Zero(t, cr.n.Load(), "bytes read")
	})
	t.Run("undeclared over the limit is read up to the limit", func(t *testing.T) {
		cr, err := post(body(100*limit), -1)
		require.ErrorIs(t, err, webhook.ErrTooLarge)
		// bytes.Reader hands out what is asked: the limit and one byte.
		assert.LessOrEqual(t, cr.n.Load(), int64(limit+1), "bytes read")
	})
	t.Run("one byte over", func(t *testing.T) {
		_, err := post(body(limit+1), -1)
		require.ErrorIs(t, err, webhook.ErrTooLarge)
	})
	t.Run("the default limit is 1 MiB", func(t *testing.T) {
		cr := &countingReader{r: io.MultiReader(strings.NewReader(`{"trigger":"x","data":"`), neverEnding('a'))}
		r := delivery(t)
		r.Body = io.NopCloser(cr)
		r.ContentLength = -1
		_, err := verifier().Verify(r)
		require.ErrorIs(t, err, webhook.ErrTooLarge)
		assert.LessOrEqual(t, cr.n.Load(), int64(webhook.DefaultMaxBodyBytes+1))
		assert.GreaterOrEqual(t, cr.n.Load(), int64(webhook.DefaultMaxBodyBytes))
	})
}

// neverEnding is an endless stream of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// serve sends r to h and returns the answer.
func serve(h http.Handler, r *http.Request) *http.Response {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func TestHandler(t *testing.T) {
	var got []webhook.Event
	var gotCtx context.Context
	h := webhook.NewHandler(verifier(), func(ctx context.Context, ev webhook.Event) error {
		got = append(got, ev)
		gotCtx = ctx
		return nil
	})

	type ctxKey struct{}
	r := delivery(t)
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, "request"))
	resp := serve(h, r)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, got, 1)
	e := as[*webhook.MessageEvent](t, got[0])
	assert.Equal(t, "hi", e.Message.Data.Text)
	assert.Equal(t, "hook-1", e.Envelope().Webhook)
	assert.Equal(t, "request", gotCtx.Value(ctxKey{}), "fn gets the request's context")

	// An unknown trigger is acknowledged, and fn gets its raw data.
	r = delivery(t)
	setBody(r, envelope("poll_created", `{"pollId":"p1"}`))
	assert.Equal(t, http.StatusOK, serve(h, r).StatusCode)
	require.Len(t, got, 2)
	assert.JSONEq(t, `{"pollId":"p1"}`, string(as[*webhook.UnknownEvent](t, got[1]).Envelope().Data))
}

func TestHandlerRejects(t *testing.T) {
	called := 0
	v := verifier()
	v.MaxBodyBytes = 4096
	h := webhook.NewHandler(v, func(context.Context, webhook.Event) error { called++; return nil })
	cases := []struct {
		name   string
		change func(r *http.Request)
		status int
		header [2]string
	}{
		{"wrong password", func(r *http.Request) { r.SetBasicAuth(hookUser, "nope") }, 401, [2]string{"WWW-Authenticate", `Basic realm="webhook", charset="UTF-8"`}},
		{"no credentials", func(r *http.Request) { r.Header.Del("Authorization") }, 401, [2]string{"WWW-Authenticate", `Basic realm="webhook", charset="UTF-8"`}},
		{"GET", func(r *http.Request) { r.Method = http.MethodGet }, 405, [2]string{"Allow", "POST"}},
		{"XML", func(r *http.Request) { r.Header.Set("Content-Type", "application/xml") }, 415, [2]string{}},
		{"too large", func(r *http.Request) { setBody(r, strings.Repeat(" ", 5000)) }, 413, [2]string{}},
		{"invalid JSON", func(r *http.Request) { setBody(r, `{"trigger":`) }, 400, [2]string{}},
		{"bad data for its trigger", func(r *http.Request) { setBody(r, envelope(webhook.TriggerGroupCreated, `{"group":"g"}`)) }, 400, [2]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := delivery(t)
			tc.change(r)
			resp := serve(h, r)
			assert.Equal(t, tc.status, resp.StatusCode)
			if tc.header[0] != "" {
				assert.Equal(t, tc.header[1], resp.Header.Get(tc.header[0]))
			}
			b, _ := io.ReadAll(resp.Body)
			assert.Equal(t, http.StatusText(tc.status)+"\n", string(b), "the answer says only the status")
		})
	}
	assert.Zero(t, called, "fn is not called for rejected deliveries")

	// A Verifier without credentials is a set-up mistake: 500, so that the
	// service retries once it is fixed.
	resp := serve(webhook.NewHandler(&webhook.Verifier{}, nil), delivery(t))
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	resp = serve(webhook.NewHandler(nil, nil), delivery(t))
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
}

func TestHandlerFnError(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	boom := errors.New("database is down")
	h := webhook.NewHandler(verifier(), func(context.Context, webhook.Event) error { return boom }, webhook.WithLogger(logger))
	resp := serve(h, delivery(t))
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	b, _ := io.ReadAll(resp.Body)
	assert.NotContains(t, string(b), "database", "the error is not sent back")
	assert.Equal(t, `level=ERROR msg="webhook: handling the delivery failed" trigger=message_sent error="database is down"`+"\n", logs.String())

	// Rejections are logged without the credentials.
	logs.Reset()
	r := delivery(t)
	r.SetBasicAuth(hookUser, hookPassword+"!")
	assert.Equal(t, http.StatusUnauthorized, serve(h, r).StatusCode)
	assert.Equal(t, `level=WARN msg="webhook: delivery rejected" status=401 error="webhook: missing or wrong Basic auth credentials"`+"\n", logs.String())
	assert.NotContains(t, logs.String(), hookPassword)
}

func TestHandlerOuterBodyLimit(t *testing.T) {
	// A body cut by http.MaxBytesHandler answers 413 as well.
	h := http.MaxBytesHandler(webhook.NewHandler(verifier(), nil), 100)
	r := delivery(t)
	r.ContentLength = -1
	assert.Equal(t, http.StatusRequestEntityTooLarge, serve(h, r).StatusCode)
}

// TestHandlerConcurrent delivers to one handler from many goroutines over
// real HTTP, with right and wrong credentials; run with -race.
func TestHandlerConcurrent(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(webhook.NewHandler(verifier(), func(_ context.Context, ev webhook.Event) error {
		m, ok := ev.(*webhook.MessageEvent)
		if !ok {
			t.Errorf("event is a %T", ev)
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		seen[m.Message.ID]++
		return nil
	}))
	defer srv.Close()

	const n = 40
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Go(func() {
			ctx := context.Background()
			password := hookPassword
			if i%4 == 3 {
				password = "wrong"
			}
			data := fmt.Sprintf(`{"message":{"id":"%d","data":{"text":"hi"}}}`, i)
			req, err := webhook.NewDelivery(ctx, srv.URL, webhook.TriggerMessageSent, []byte(data), hookUser, password)
			if err != nil {
				t.Error(err)
				return
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			_ = resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, s := range statuses {
		want := http.StatusOK
		if i%4 == 3 {
			want = http.StatusUnauthorized
		}
		assert.Equal(t, want, s, "delivery %d", i)
	}
	assert.Len(t, seen, n*3/4)
	for id, c := range seen {
		assert.Equal(t, 1, c, "message %s", id)
	}
}
