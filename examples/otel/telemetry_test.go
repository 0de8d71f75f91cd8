package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"auth token", "https://h/v3/users/alice/auth_tokens/tok123", "https://h/v3/users/alice/auth_tokens/REDACTED"},
		{"auth tokens of a user", "https://h/v3/users/alice/auth_tokens", "https://h/v3/users/alice/auth_tokens"},
		{"auth token escaped", "https://h/v3/users/a%2Fb/auth_tokens/t%2Fo%20k", "https://h/v3/users/a%2Fb/auth_tokens/REDACTED"},
		{"api key", "https://h/v3/apikeys/key123", "https://h/v3/apikeys/REDACTED"},
		{"api key with a query", "https://h/v3/apikeys/key123?x=1", "https://h/v3/apikeys/REDACTED?x=1"},
		{"push token", "https://h/v3/notifications/push/v1/tokens/push123", "https://h/v3/notifications/push/v1/tokens/REDACTED"},
		{"authToken query", "https://h/v3/notifications/push/v1/tokens?authToken=tok123&all=true", "https://h/v3/notifications/push/v1/tokens?all=true&authToken=REDACTED"},
		{"authToken query twice", "https://h/v3/x?authToken=a&authToken=b", "https://h/v3/x?authToken=REDACTED&authToken=REDACTED"},
		{"authtoken query in another case", "https://h/v3/x?AUTHTOKEN=a", "https://h/v3/x?AUTHTOKEN=REDACTED"},
		{"unreadable query", "https://h/v3/x?authToken=a%zz", "https://h/v3/x?REDACTED"},
		{"no credential", "https://h/v3/users/alice/messages?perPage=10&authTokenless=1", "https://h/v3/users/alice/messages?perPage=10&authTokenless=1"},
		{"escaped uid kept", "https://h/v3/users/a%2Fb", "https://h/v3/users/a%2Fb"},
		{"already redacted", "https://h/v3/users/alice/auth_tokens/REDACTED?authToken=REDACTED", "https://h/v3/users/alice/auth_tokens/REDACTED?authToken=REDACTED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(tc.in)
			require.NoError(t, err)
			orig := *u
			got := redactURL(u)
			assert.Equal(t, tc.want, got.String())
			assert.Equal(t, orig, *u, "the URL given is left as it was")
			if tc.in == tc.want {
				assert.Same(t, u, got, "a URL without a credential is returned as it is")
			}
		})
	}
}

// TestRedirectsSendTheirOwnURL follows redirects through the instrumented
// client: each hop is sent to its real URL, and each hop's span holds that
// URL redacted.
func TestRedirectsSendTheirOwnURL(t *testing.T) {
	var mu sync.Mutex
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.RequestURI())
		mu.Unlock()
		switch r.URL.Path {
		case "/v3/users/alice/auth_tokens/first-secret":
			http.Redirect(w, r, "/v3/apikeys/second-secret", http.StatusTemporaryRedirect)
		case "/v3/apikeys/second-secret":
			http.Redirect(w, r, "/v3/done?page=2", http.StatusFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer ts.Close()
	spans := tracetest.NewInMemoryExporter()
	tel := newTelemetry(spans, sdkmetric.NewManualReader())
	defer tel.shutdown(context.Background())

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/v3/users/alice/auth_tokens/first-secret?authToken=third-secret", nil)
	require.NoError(t, err)
	resp, err := tel.httpClient(ts.Client().Transport).Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, ts.URL+"/v3/done?page=2", resp.Request.URL.String())

	mu.Lock()
	assert.Equal(t, []string{"/v3/users/alice/auth_tokens/first-secret?authToken=third-secret", "/v3/apikeys/second-secret", "/v3/done?page=2"}, got)
	mu.Unlock()

	var names, urls []string
	for _, s := range spans.GetSpans() {
		names = append(names, s.Name)
		attrs := attribute.NewSet(s.Attributes...)
		full, _ := attrs.Value(semconv.URLFullKey)
		urls = append(urls, strings.TrimPrefix(full.AsString(), ts.URL))
		for _, kv := range s.Attributes {
			assert.NotContains(t, kv.Value.String(), "secret", "%s %s", s.Name, kv.Key)
		}
	}
	assert.Equal(t, []string{"GET /v3/users/alice/auth_tokens/REDACTED", "GET /v3/apikeys/REDACTED", "GET /v3/done"}, names)
	assert.Equal(t, []string{"/v3/users/alice/auth_tokens/REDACTED?authToken=REDACTED", "/v3/apikeys/REDACTED", "/v3/done?page=2"}, urls)
}

// BenchmarkUsersGet measures a Users.Get against chattest through the
// fake's own transport (plain), through otelhttp alone, and through the
// example's client (otelhttp with the URL redaction), so that the cost of
// the instrumentation reads as a ratio to plain.
func BenchmarkUsersGet(b *testing.B) {
	srv := chattest.NewServer()
	defer srv.Close()
	srv.AddUser(chat.User{UID: "alice", Name: "Alice"})
	spans := tracetest.NewNoopExporter()
	tel := newTelemetry(spans, sdkmetric.NewManualReader())
	defer tel.shutdown(context.Background())
	otelOnly := otelhttp.NewTransport(srv.HTTPClient().Transport,
		otelhttp.WithTracerProvider(tel.tracerProvider), otelhttp.WithMeterProvider(tel.meterProvider))
	for _, bc := range []struct {
		name string
		hc   *http.Client
	}{
		{"plain", srv.HTTPClient()},
		{"otelhttp", &http.Client{Transport: otelOnly}},
		{"otelhttp+redaction", tel.httpClient(srv.HTTPClient().Transport)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			client := srv.Client(chat.WithHTTPClient(bc.hc))
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Users.Get(ctx, "alice"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
