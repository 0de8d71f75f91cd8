// Command otel traces and measures the SDK's HTTP requests with
// OpenTelemetry, through chat.WithHTTPClient and otelhttp's transport: one
// span for each SDK call, under it one span for each HTTP attempt (a retry
// is a span of its own, with its status code), and the attempts' durations
// in the histogram http.client.request.duration, per call and status. No
// credential reaches a span name or attribute: the auth token in
// /users/{uid}/auth_tokens/{authToken} shows as REDACTED.
//
// With CHAT_APP_ID, CHAT_REGION and CHAT_API_KEY set it talks to the real
// service; otherwise it starts the in-memory fake (package chattest), which
// answers the first listing of the thread with a 503 to show a retry:
//
//	go run .   # from the examples/otel directory
//
// The spans and metrics are kept in memory and printed at the end; a
// service exports them instead (see newTelemetry).
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "otel:", err)
		os.Exit(1)
	}
}

// retryFault makes the fake answer the first listing of a thread with a
// 503, which the SDK retries.
func retryFault() chattest.Fault {
	return chattest.Fault{Route: "GET /v3/messages/{id}/thread", Kind: chattest.FaultStatus, Status: http.StatusServiceUnavailable, Times: 1}
}

// run makes the calls and prints what they did, then their spans and
// request durations.
func run(ctx context.Context, w io.Writer) error {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tel := newTelemetry(spans, reader)
	defer tel.shutdown(context.Background())

	client, srv, done, err := newClient(w, tel)
	if err != nil {
		return err
	}
	defer done()
	if srv != nil {
		if err := srv.Fail(retryFault()); err != nil {
			return err
		}
		fmt.Fprintln(w, "The server answers the first listing of the thread with 503, which the SDK retries.")
	}
	if err := converse(ctx, tel, client, w); err != nil {
		return err
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return fmt.Errorf("collecting the metrics: %w", err)
	}
	printSpans(w, spans.GetSpans())
	printDurations(w, durations(rm))
	return nil
}

// newClient returns a client for the real service when CHAT_APP_ID,
// CHAT_REGION and CHAT_API_KEY are set, and otherwise one for an in-memory
// chattest server, which it returns too (nil for the real service). Either
// client sends through tel's instrumented transport; done closes what
// newClient opened.
func newClient(w io.Writer, tel *telemetry) (client *chat.Client, srv *chattest.Server, done func(), err error) {
	appID, region, apiKey := os.Getenv("CHAT_APP_ID"), os.Getenv("CHAT_REGION"), os.Getenv("CHAT_API_KEY")
	if appID != "" || apiKey != "" {
		if region == "" {
			region = string(chat.RegionUS)
		}
		base := chat.NewTransport()
		client, err = chat.NewClient(appID, apiKey, chat.WithRegion(chat.Region(region)), chat.WithHTTPClient(tel.httpClient(base)))
		if err != nil {
			return nil, nil, nil, err
		}
		fmt.Fprintf(w, "Talking to %s\n", client.BaseURL())
		return client, nil, base.CloseIdleConnections, nil
	}
	srv = chattest.NewServer()
	fmt.Fprintf(w, "CHAT_APP_ID, CHAT_REGION and CHAT_API_KEY are not set: using the in-memory chattest server at %s\n", srv.URL())
	// The fake's own HTTP client trusts its certificate: instrument its transport.
	client = srv.Client(chat.WithHTTPClient(tel.httpClient(srv.HTTPClient().Transport)))
	return client, srv, srv.Close, nil
}

// converse makes the SDK calls, each in its own span: two users, an auth
// token minted and read back, a message, a reply in its thread, and the
// thread's listing.
func converse(ctx context.Context, tel *telemetry, client *chat.Client, w io.Writer) error {
	alice, err := ensureUser(ctx, tel, client, "otel-alice", "Alice")
	if err != nil {
		return err
	}
	bob, err := ensureUser(ctx, tel, client, "otel-bob", "Bob")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "1. users ready: %s and %s\n", alice.UID, bob.UID)

	token, err := call(ctx, tel, "AuthTokens.Create", func(ctx context.Context) (*chat.AuthToken, error) {
		return client.AuthTokens.Create(ctx, alice.UID, nil)
	})
	if err != nil {
		return fmt.Errorf("minting an auth token: %w", err)
	}
	if _, err := call(ctx, tel, "AuthTokens.Get", func(ctx context.Context) (*chat.AuthToken, error) {
		return client.AuthTokens.Get(ctx, alice.UID, string(token.AuthToken))
	}); err != nil {
		return fmt.Errorf("reading the auth token back: %w", err)
	}
	fmt.Fprintf(w, "2. auth token minted for %s and read back by its value (in the path)\n", token.UID)

	msg, err := call(ctx, tel, "Messages.Send", func(ctx context.Context) (*chat.Message, error) {
		return client.Messages.Send(ctx, &chat.SendMessageRequest{
			Receiver:     bob.UID,
			ReceiverType: chat.ReceiverUser,
			Data:         chat.MessageData{Text: "Hi Bob, can you review the report?"},
		}, chat.OnBehalfOf(alice.UID))
	})
	if err != nil {
		return fmt.Errorf("sending the message: %w", err)
	}
	fmt.Fprintf(w, "3. %s sent message %s to %s\n", msg.Sender, msg.ID, msg.Receiver)

	reply, err := call(ctx, tel, "Messages.SendThread", func(ctx context.Context) (*chat.Message, error) {
		return client.Messages.SendThread(ctx, msg.ID, bob.UID, &chat.SendMessageRequest{
			Receiver:     alice.UID,
			ReceiverType: chat.ReceiverUser,
			Data:         chat.MessageData{Text: "On it."},
		})
	})
	if err != nil {
		return fmt.Errorf("replying in the thread: %w", err)
	}
	fmt.Fprintf(w, "4. %s replied in the thread of %s with message %s\n", reply.Sender, reply.ParentID, reply.ID)

	replies, err := call(ctx, tel, "Messages.AllThreadMessages", func(ctx context.Context) (int, error) {
		n := 0
		for _, err := range client.Messages.AllThreadMessages(ctx, msg.ID, nil) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	})
	if err != nil {
		return fmt.Errorf("listing the thread: %w", err)
	}
	fmt.Fprintf(w, "5. the thread of message %s listed: %d message(s)\n", msg.ID, replies)
	return nil
}

// ensureUser creates a user, or fetches it when the service refuses to
// create it (it exists already), so that the example can run more than once
// against the real service.
func ensureUser(ctx context.Context, tel *telemetry, client *chat.Client, uid, name string) (*chat.User, error) {
	u, err := call(ctx, tel, "Users.Create", func(ctx context.Context) (*chat.User, error) {
		return client.Users.Create(ctx, &chat.CreateUserRequest{UID: uid, Name: name})
	})
	var apiErr *chat.Error
	if err == nil || !errors.As(err, &apiErr) || apiErr.StatusCode >= 500 {
		return u, err
	}
	return call(ctx, tel, "Users.Get", func(ctx context.Context) (*chat.User, error) {
		return client.Users.Get(ctx, uid)
	})
}

// printSpans prints each call span in the order the calls started, and
// under it the spans of its HTTP attempts with their status codes.
func printSpans(w io.Writer, spans tracetest.SpanStubs) {
	slices.SortStableFunc(spans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	fmt.Fprintln(w, "\nSpans: one per SDK call, and under it one per HTTP attempt (status, duration, query of url.full):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range spans {
		if c.Parent.IsValid() {
			continue
		}
		fmt.Fprintf(tw, "  %s\t\t%s\n", c.Name, ms(c.EndTime.Sub(c.StartTime)))
		for _, a := range spans {
			if a.Parent.SpanID() != c.SpanContext.SpanID() {
				continue
			}
			attrs := attribute.NewSet(a.Attributes...)
			fmt.Fprintf(tw, "    %s\t%s\t%s%s\n", a.Name, statusCode(attrs), ms(a.EndTime.Sub(a.StartTime)), query(attrs))
		}
	}
	tw.Flush()
}

// duration is one series of http.client.request.duration.
type duration struct {
	operation, method, status string
	count                     uint64
	sum                       time.Duration
}

// durations returns the series of http.client.request.duration in rm, by
// call, method and status code.
func durations(rm metricdata.ResourceMetrics) []duration {
	var out []duration
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if m.Name != "http.client.request.duration" || !ok {
				continue
			}
			for _, p := range h.DataPoints {
				op, _ := p.Attributes.Value(operationKey)
				method, _ := p.Attributes.Value(semconv.HTTPRequestMethodKey)
				out = append(out, duration{
					operation: op.AsString(),
					method:    method.AsString(),
					status:    statusCode(p.Attributes),
					count:     p.Count,
					sum:       time.Duration(p.Sum * float64(time.Second)),
				})
			}
		}
	}
	slices.SortFunc(out, func(a, b duration) int {
		return cmp.Or(cmp.Compare(a.operation, b.operation), cmp.Compare(a.method, b.method), cmp.Compare(a.status, b.status))
	})
	return out
}

// printDurations prints the series of http.client.request.duration.
func printDurations(w io.Writer, ds []duration) {
	fmt.Fprintln(w, "\nMetric http.client.request.duration, per call, method and status:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  chat.operation\tmethod\tstatus\tcount\tsum")
	for _, d := range ds {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\n", d.operation, d.method, d.status, d.count, ms(d.sum))
	}
	tw.Flush()
}

// statusCode is the http.response.status_code of attrs, or "no answer".
func statusCode(attrs attribute.Set) string {
	if v, ok := attrs.Value(semconv.HTTPResponseStatusCodeKey); ok {
		return v.String()
	}
	return "no answer"
}

// query is the query of the url.full of attrs after two spaces, e.g.
// "  ?perPage=100", or "" when it has none.
func query(attrs attribute.Set) string {
	v, _ := attrs.Value(semconv.URLFullKey)
	u, err := url.Parse(v.AsString())
	if err != nil || u.RawQuery == "" {
		return ""
	}
	return "  ?" + u.RawQuery
}

// ms shows d in milliseconds.
func ms(d time.Duration) string { return strconv.FormatFloat(d.Seconds()*1000, 'f', 1, 64) + "ms" }
