package main

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"

	"github.com/chatrest/chat"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// withoutCredentials clears the variables that would make the example talk
// to the real service.
func withoutCredentials(t *testing.T) {
	for _, v := range []string{"CHAT_APP_ID", "CHAT_REGION", "CHAT_API_KEY"} {
		t.Setenv(v, "")
	}
}

// TestRun runs the example as `go run .` does, and reads what it prints:
// the calls, their attempt spans (the retried listing twice, 503 then
// 200; the auth token redacted), and the durations per call and status.
func TestRun(t *testing.T) {
	withoutCredentials(t)
	var out strings.Builder
	require.NoError(t, run(t.Context(), &out))
	got := out.String()
	t.Log("\n" + got)

	for _, want := range []string{
		`using the in-memory chattest server at https://127\.0\.0\.1:\d+\n`,
		`1\. users ready: otel-alice and otel-bob\n`,
		`\n  AuthTokens\.Get +[0-9.]+ms\n    GET /v3/users/otel-alice/auth_tokens/REDACTED +200 +[0-9.]+ms\n  Messages\.Send `,
		`\n  Messages\.AllThreadMessages +[0-9.]+ms\n    GET /v3/messages/1/thread +503 +[0-9.]+ms\n    GET /v3/messages/1/thread +200 +[0-9.]+ms\n`,
		`\n  Messages\.AllThreadMessages +GET +503 +1 +[0-9.]+ms\n`,
		`\n  Users\.Create +POST +200 +2 +[0-9.]+ms\n`,
	} {
		assert.Regexp(t, regexp.MustCompile(want), got)
	}
}

// attempt is what a user reads from the span of one HTTP attempt.
type attempt struct {
	call, name, method, status string
}

// TestSpansOfEachCall runs the example's calls against chattest with an
// in-memory exporter and reader, and checks the spans and durations a
// backend would receive: one span per attempt, under the span of its SDK
// call, with the method and status; the retried listing as two spans; the
// durations counted per call and status; no credential anywhere.
func TestSpansOfEachCall(t *testing.T) {
	withoutCredentials(t)
	ctx := t.Context()
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tel := newTelemetry(spans, reader)
	defer tel.shutdown(context.Background())
	client, srv, done, err := newClient(io.Discard, tel)
	require.NoError(t, err)
	defer done()
	require.NotNil(t, srv)
	require.NoError(t, srv.Fail(retryFault()))

	require.NoError(t, converse(ctx, tel, client, io.Discard))

	// The auth token converse minted, read with a client the test does not trace.
	tokens, err := srv.Client().AuthTokens.List(ctx, "otel-alice", nil)
	require.NoError(t, err)
	require.Len(t, tokens.Data, 1)
	authToken := string(tokens.Data[0].AuthToken)
	require.NotEmpty(t, authToken)

	// The auth token in a query: the fake answers only when it gets the real one.
	_, err = call(ctx, tel, "Notifications.ListPushTokens", func(ctx context.Context) ([]chat.PushToken, error) {
		return client.Notifications.ListPushTokens(ctx, &chat.ListPushTokensOptions{AuthToken: chat.Secret(authToken)})
	})
	require.NoError(t, err)

	stubs := spans.GetSpans()
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range stubs {
		byID[s.SpanContext.SpanID()] = s
	}
	var attempts []attempt
	var firstPage []tracetest.SpanStub
	for _, s := range stubs {
		if !s.Parent.IsValid() {
			assert.Equal(t, trace.SpanKindInternal, s.SpanKind, s.Name)
			attrs := attribute.NewSet(s.Attributes...)
			op, _ := attrs.Value(operationKey)
			assert.Equal(t, s.Name, op.AsString(), "the call span's chat.operation")
			continue
		}
		parent, ok := byID[s.Parent.SpanID()]
		require.True(t, ok, "the parent of %s", s.Name)
		assert.Equal(t, trace.SpanKindClient, s.SpanKind, s.Name)
		attrs := attribute.NewSet(s.Attributes...)
		method, _ := attrs.Value(semconv.HTTPRequestMethodKey)
		attempts = append(attempts, attempt{parent.Name, s.Name, method.AsString(), statusCode(attrs)})
		if full, _ := attrs.Value(semconv.URLFullKey); parent.Name == "Messages.AllThreadMessages" && !strings.Contains(full.AsString(), "?") {
			firstPage = append(firstPage, s)
		}
	}
	tokensPath := "GET /v3/notifications/push/v1/tokens"
	assert.Equal(t, []attempt{
		{"Users.Create", "POST /v3/users", "POST", "200"},
		{"Users.Create", "POST /v3/users", "POST", "200"},
		{"AuthTokens.Create", "POST /v3/users/otel-alice/auth_tokens", "POST", "200"},
		{"AuthTokens.Get", "GET /v3/users/otel-alice/auth_tokens/REDACTED", "GET", "200"},
		{"Messages.Send", "POST /v3/messages", "POST", "200"},
		{"Messages.SendThread", "POST /v3/messages/1/thread", "POST", "200"},
		{"Messages.AllThreadMessages", "GET /v3/messages/1/thread", "GET", "503"},
		{"Messages.AllThreadMessages", "GET /v3/messages/1/thread", "GET", "200"},
		{"Notifications.ListPushTokens", tokensPath, "GET", "200"},
	}, attempts)

	// The retried request: two spans of one call, for the same URL.
	require.Len(t, firstPage, 2)
	assert.Equal(t, firstPage[0].Parent.SpanID(), firstPage[1].Parent.SpanID())
	assert.NotEqual(t, firstPage[0].SpanContext.SpanID(), firstPage[1].SpanContext.SpanID())
	assert.True(t, firstPage[0].EndTime.Before(firstPage[1].StartTime), "the retry starts after the 503")

	// url.full carries the redacted URLs, and the fake got the real ones (it answered 200).
	fullURLs := map[string]string{}
	for _, s := range stubs {
		attrs := attribute.NewSet(s.Attributes...)
		if v, ok := attrs.Value(semconv.URLFullKey); ok {
			fullURLs[s.Name] = strings.TrimPrefix(v.AsString(), srv.URL())
		}
	}
	assert.Equal(t, "/v3/users/otel-alice/auth_tokens/REDACTED", fullURLs["GET /v3/users/otel-alice/auth_tokens/REDACTED"])
	assert.Equal(t, "/v3/notifications/push/v1/tokens?authToken=REDACTED", fullURLs[tokensPath])

	// No credential in any name, attribute, event or status.
	secrets := []string{srv.APIKey(), authToken}
	for _, s := range stubs {
		texts := []string{s.Name, s.Status.Description}
		for _, kv := range s.Attributes {
			texts = append(texts, kv.Value.String())
		}
		for _, e := range s.Events {
			texts = append(texts, e.Name)
			for _, kv := range e.Attributes {
				texts = append(texts, kv.Value.String())
			}
		}
		for _, text := range texts {
			for _, secret := range secrets {
				assert.NotContains(t, text, secret, "span %s", s.Name)
			}
		}
	}

	// The durations: one measurement per attempt, per call and status.
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	counts := map[attempt]uint64{}
	for _, d := range durations(rm) {
		counts[attempt{call: d.operation, method: d.method, status: d.status}] = d.count
		assert.Positive(t, d.sum, "%+v", d)
	}
	want := map[attempt]uint64{}
	for _, a := range attempts {
		want[attempt{call: a.call, method: a.method, status: a.status}]++
	}
	assert.Equal(t, want, counts)
	assert.Equal(t, uint64(1), counts[attempt{call: "Messages.AllThreadMessages", method: "GET", status: "503"}])
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				continue
			}
			for _, p := range h.DataPoints {
				for _, kv := range p.Attributes.ToSlice() {
					for _, secret := range secrets {
						assert.NotContains(t, kv.Value.String(), secret, "%s %s", m.Name, kv.Key)
					}
				}
			}
		}
	}
}

// TestRealServiceClient: with the credentials set, the example builds a
// client for the region's address, or rejects a region the SDK does not
// know, without sending anything, starting a fake or showing the key.
func TestRealServiceClient(t *testing.T) {
	for _, tc := range []struct {
		name, region, baseURL string
	}{
		{"eu", "eu", "https://app1.api-eu.cometchat.io/v3"},
		{"us by default", "", "https://app1.api-us.cometchat.io/v3"},
		{"unknown region", "mars", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const key = "key-that-must-not-show"
			t.Setenv("CHAT_APP_ID", "app1")
			t.Setenv("CHAT_REGION", tc.region)
			t.Setenv("CHAT_API_KEY", key)
			tel := newTelemetry(tracetest.NewInMemoryExporter(), sdkmetric.NewManualReader())
			defer tel.shutdown(context.Background())
			var out strings.Builder
			client, srv, done, err := newClient(&out, tel)
			if tc.baseURL == "" {
				var argErr *chat.ArgumentError
				require.ErrorAs(t, err, &argErr)
				assert.NotContains(t, err.Error(), key)
				assert.Empty(t, out.String())
				return
			}
			require.NoError(t, err)
			defer done()
			assert.Nil(t, srv)
			assert.Equal(t, tc.baseURL, client.BaseURL())
			assert.Equal(t, "Talking to "+tc.baseURL+"\n", out.String())
		})
	}
}
