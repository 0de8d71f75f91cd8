package main

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// instrumentation names the tracer of the call spans.
const instrumentation = "github.com/chatrest/chat/examples/otel"

// operationKey is the attribute that names the SDK method a span or a
// request duration belongs to, e.g. "Messages.Send".
const operationKey = attribute.Key("chat.operation")

// redacted replaces every credential in what the telemetry records.
const redacted = "REDACTED"

// telemetry is what a program sets up once: a tracer provider and a meter
// provider, and from them the instrumented transport that its chat clients
// send through.
type telemetry struct {
	tracerProvider *sdktrace.TracerProvider
	meterProvider  *sdkmetric.MeterProvider
	tracer         trace.Tracer
}

// newTelemetry exports every span to spans as it ends, and lets reader
// collect the metrics. A service would give WithBatcher an OTLP exporter,
// and a PeriodicReader over one, instead.
func newTelemetry(spans sdktrace.SpanExporter, reader sdkmetric.Reader) *telemetry {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	return &telemetry{tracerProvider: tp, meterProvider: mp, tracer: tp.Tracer(instrumentation)}
}

// shutdown flushes and stops both providers.
func (t *telemetry) shutdown(ctx context.Context) error {
	return errors.Join(t.tracerProvider.Shutdown(ctx), t.meterProvider.Shutdown(ctx))
}

// httpClient returns the client to give chat.WithHTTPClient: every HTTP
// attempt the SDK makes through it (each retry too) is a span named by
// [spanName], and its duration is recorded in the histogram
// http.client.request.duration. base sends the requests.
//
// otelhttp records the URL it is handed, as the span's url.full attribute.
// So that no credential of a URL (an auth token or API key in the path, an
// authToken query parameter) reaches a span, otelhttp is handed a copy of
// each request with its URL redacted, and the transport beneath it puts the
// real URL back before sending.
func (t *telemetry) httpClient(base http.RoundTripper) *http.Client {
	traced := otelhttp.NewTransport(realURL{base},
		otelhttp.WithTracerProvider(t.tracerProvider),
		otelhttp.WithMeterProvider(t.meterProvider),
		otelhttp.WithSpanNameFormatter(spanName),
	)
	return &http.Client{Transport: redactedURL{traced}}
}

// call runs f as one SDK call, in a span named op (the SDK method, e.g.
// "Messages.Send"): the spans of its HTTP attempts are children of that
// span, and their durations carry op as chat.operation. An error f returns
// is the span's status; the SDK scrubs credentials from its errors.
func call[T any](ctx context.Context, t *telemetry, op string, f func(context.Context) (T, error)) (T, error) {
	ctx, span := t.tracer.Start(ctx, op, trace.WithAttributes(operationKey.String(op)))
	defer span.End()
	labels := &otelhttp.Labeler{}
	labels.Add(operationKey.String(op))
	v, err := f(otelhttp.ContextWithClientLabeler(ctx, labels))
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	return v, err
}

// spanName names the span of an HTTP attempt by its method and path, with
// every credential in the path redacted, e.g.
// "GET /v3/users/alice/auth_tokens/REDACTED".
func spanName(_ string, r *http.Request) string {
	return r.Method + " " + redactURL(r.URL).EscapedPath()
}

// secretFollows reports whether the path segment after seg is a credential:
// /users/{uid}/auth_tokens/{authToken}, /apikeys/{apiKey} and
// /notifications/push/v1/tokens/{pushToken}.
func secretFollows(seg string) bool {
	switch seg {
	case "auth_tokens", "apikeys", "tokens":
		return true
	}
	return false
}

// secretQuery reports whether the query parameter name carries a
// credential (the push token listing's authToken).
func secretQuery(name string) bool { return strings.EqualFold(name, "authToken") }

// redactURL returns a copy of u with [redacted] in place of each credential
// it carries (see secretFollows and secretQuery), or u itself when it
// carries none.
func redactURL(u *url.URL) *url.URL {
	segs := strings.Split(u.EscapedPath(), "/")
	pathChanged := false
	for i := 1; i < len(segs); i++ {
		if secretFollows(segs[i-1]) && segs[i] != "" && segs[i] != redacted {
			segs[i] = redacted
			pathChanged = true
		}
	}
	query, queryChanged := u.RawQuery, false
	if query != "" {
		if q, err := url.ParseQuery(query); err != nil {
			// The SDK sends no such query; redact all of it.
			query, queryChanged = redacted, true
		} else {
			for name, vs := range q {
				if !secretQuery(name) {
					continue
				}
				for i, v := range vs {
					if v != redacted {
						vs[i], queryChanged = redacted, true
					}
				}
			}
			if queryChanged {
				query = q.Encode()
			}
		}
	}
	if !pathChanged && !queryChanged {
		return u
	}
	shown := *u
	if pathChanged {
		shown.RawPath = strings.Join(segs, "/")
		p, err := url.PathUnescape(shown.RawPath)
		if err != nil {
			p = shown.RawPath // unreachable: EscapedPath is valid escaping
		}
		shown.Path = p
	}
	shown.RawQuery = query
	return &shown
}

// realURLKey is the context key under which redactedURL keeps the URL of
// the request it redacted, for realURL.
type realURLKey struct{}

// redactedURL hands next a copy of each request whose URL is redacted by
// redactURL, with the real URL in its context.
type redactedURL struct{ next http.RoundTripper }

func (t redactedURL) RoundTrip(r *http.Request) (*http.Response, error) {
	shown := r.WithContext(context.WithValue(r.Context(), realURLKey{}, r.URL))
	shown.URL = redactURL(r.URL)
	return t.next.RoundTrip(shown)
}

// realURL sends each request with the URL that redactedURL redacted.
type realURL struct{ next http.RoundTripper }

func (t realURL) RoundTrip(r *http.Request) (*http.Response, error) {
	if u, ok := r.Context().Value(realURLKey{}).(*url.URL); ok && u != r.URL {
		r = r.WithContext(r.Context())
		r.URL = u
	}
	return t.next.RoundTrip(r)
}
