package chattest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/internal/rest"
	"github.com/chatrest/chat/webhook"
)

// How the fake delivers: its own retry schedule, attempt count and timeout
// (see CHOICES.md), short so that tests stay fast.
const (
	// deliveryRegion is the region every envelope names.
	deliveryRegion = "us"
	// deliveryRetries is how many times a failed delivery is retried when
	// its webhook has retryOnFailure: 4 attempts in all.
	deliveryRetries = 3
	// deliveryBackoff is the wait before the first retry; it doubles
	// before each further one (10ms, 20ms, 40ms).
	deliveryBackoff = 10 * time.Millisecond
	// deliveryTimeout bounds one attempt, connection included.
	deliveryTimeout = 5 * time.Second
	// maxDeliveries is how many deliveries [Server.Deliveries] keeps, the
	// most recent.
	maxDeliveries = 10000
)

// Errors a [Delivery] can end with besides the receiver's own failures.
var (
	// ErrNotLoopback is the error of a delivery to a webhook URL whose host
	// is not a loopback address: without [WithLocalNetwork] the fake never
	// connects anywhere else, so it records the delivery as failed without
	// calling it.
	ErrNotLoopback = errors.New("chattest: not delivered: the fake only calls loopback addresses")
	// ErrDeliveryStopped is the error of a delivery the server was closed
	// before it could finish.
	ErrDeliveryStopped = errors.New("chattest: not delivered: the server was closed")
)

// DeliveryState is where a [Delivery] stands.
type DeliveryState string

// Delivery states.
const (
	// DeliveryPending: queued or being sent (or waiting to be retried).
	DeliveryPending DeliveryState = "pending"
	// DeliveryDelivered: the receiver answered with a 2xx status.
	DeliveryDelivered DeliveryState = "delivered"
	// DeliveryFailed: the last attempt failed and no retry is left.
	DeliveryFailed DeliveryState = "failed"
)

// Delivery is one webhook delivery the fake made, or is making: an event
// of the app sent to one webhook subscribed to its trigger. See
// [Server.Deliveries]. It never holds the webhook's password.
type Delivery struct {
	// Trigger is the trigger that fired, e.g. "message_sent".
	Trigger string
	// WebhookID is the webhook delivered to.
	WebhookID string
	// AppID is the app the event happened in.
	AppID string
	// URL is the webhook's URL when the event fired (a password in it shown
	// as "xxxxx").
	URL string
	// Type is the envelope's type: "call" for call_* triggers, "meet" for
	// meeting_* triggers, empty otherwise.
	Type string
	// Data is the envelope's data, the trigger's payload, as sent.
	Data json.RawMessage
	// State says whether the delivery is pending, delivered or failed.
	State DeliveryState
	// StatusCode is the status the receiver answered to the last attempt;
	// 0 when it did not answer.
	StatusCode int
	// Err is why the last attempt got no answer (a connection error, a
	// timeout, [ErrNotLoopback], [ErrDeliveryStopped]); nil when the
	// receiver answered, even with a failure status.
	Err error
	// Attempts is how many times the delivery was sent: 1, or up to 4
	// with retryOnFailure; 0 when it was never sent.
	Attempts int
}

// deliveryState holds the deliveries and the goroutine that makes them.
// Guarded by the lock of the webhooks' consumer (webhookEvents.mu).
type deliveryState struct {
	log     []*Delivery    // the most recent deliveries, at most 2*maxDeliveries
	queue   []*deliveryJob // waiting for the delivery goroutine, in order
	settled int            // deliveries that reached their final state
	changed chan struct{}  // closed, and replaced, when a delivery is attempted or settles, or delivery stops
	wake    chan struct{}  // a token when the queue grows
	roots   *x509.CertPool // certificates https receivers may use
	cancel  context.CancelFunc
	done    chan struct{} // closed when the goroutine has returned
	running bool          // the goroutine was started
	closing bool          // no new delivery goes out
	stopped bool          // closing, and every delivery has settled

	localNetwork bool // receivers may be on the machine's networks: localnetwork.go
}

func (d *deliveryState) init() {
	d.changed = make(chan struct{})
	d.wake = make(chan struct{}, 1)
}

// deliveryJob is a delivery waiting to be sent, with what sending it takes.
type deliveryJob struct {
	d                  *Delivery
	env                *webhook.Envelope
	url                string
	username, password string // empty unless the webhook uses Basic auth
	retry              bool
	durable            func() error // returns once the change that fired it is kept: its event's
}

// eventType is the envelope's type for trigger: "call" for call_* and
// "meet" for meeting_* triggers, as [webhook.NewEnvelope] sets it;
// recording_generated and transcription_generated carry none (see
// CHOICES.md).
func eventType(trigger string) string {
	switch {
	case strings.HasPrefix(trigger, "call_"):
		return "call"
	case strings.HasPrefix(trigger, "meeting_"):
		return "meet"
	}
	return ""
}

// settle puts d in its final state: delivered when the last attempt got a
// 2xx answer, failed otherwise. err is the last attempt's error, if any.
// It runs with dv's lock held.
func (dv *deliveryState) settle(d *Delivery, err error) {
	d.Err = err
	d.State = DeliveryFailed
	if err == nil && d.StatusCode >= 200 && d.StatusCode <= 299 {
		d.State = DeliveryDelivered
	}
	dv.settled++
	dv.notify()
}

// notify wakes the AwaitDeliveries calls. It runs with d's lock held.
func (d *deliveryState) notify() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// deliverLoop sends the queued deliveries one at a time, in the order the
// events fired, until ctx is cancelled.
func (w *webhookEvents) deliverLoop(ctx context.Context, hc *http.Client, done chan<- struct{}, wake <-chan struct{}) {
	defer close(done)
	defer hc.CloseIdleConnections()
	for ctx.Err() == nil {
		w.mu.Lock()
		var j *deliveryJob
		if q := w.deliv.queue; len(q) > 0 {
			j = q[0]
			q[0] = nil
			w.deliv.queue = q[1:]
		}
		w.mu.Unlock()
		if j != nil {
			if err := kept(j); err != nil {
				w.mu.Lock()
				w.deliv.settle(j.d, err)
				w.mu.Unlock()
				continue
			}
			w.deliver(ctx, hc, j)
			continue
		}
		select {
		case <-ctx.Done():
		case <-wake:
		}
	}
}

// kept waits until the change that fired j is kept, so that no delivery
// tells of a change a crash could lose. A change that could not be kept
// is not delivered: the request that made it was answered with the error.
func kept(j *deliveryJob) error {
	if j.durable == nil {
		return nil
	}
	if err := j.durable(); err != nil {
		return fmt.Errorf("chattest: not delivered: the change was not saved: %w", err)
	}
	return nil
}

// deliver sends j, retrying a failed attempt (no answer, or not 2xx) when
// its webhook has retryOnFailure, and records each attempt's outcome.
func (w *webhookEvents) deliver(ctx context.Context, hc *http.Client, j *deliveryJob) {
	wait := deliveryBackoff
	for attempt := 1; ; attempt++ {
		status, err := post(ctx, hc, j)
		if ctx.Err() != nil {
			status, err = 0, ErrDeliveryStopped
		}
		ok := err == nil && status >= 200 && status <= 299
		last := ok || !j.retry || attempt > deliveryRetries || ctx.Err() != nil
		w.mu.Lock()
		j.d.Attempts, j.d.StatusCode, j.d.Err = attempt, status, err
		if last {
			w.deliv.settle(j.d, err)
		} else {
			w.deliv.notify() // the dashboard shows each attempt
		}
		w.mu.Unlock()
		if last {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			w.mu.Lock()
			w.deliv.settle(j.d, ErrDeliveryStopped)
			w.mu.Unlock()
			return
		case <-t.C:
		}
		wait *= 2
	}
}

// post makes one attempt: it POSTs the envelope with webhook.NewRequest
// (Basic auth when the webhook uses it) and returns the answer's status.
func post(ctx context.Context, hc *http.Client, j *deliveryJob) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
	defer cancel()
	req, err := webhook.NewRequest(ctx, j.url, j.env, j.username, j.password)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "chattest-webhooks/"+chat.Version)
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// newDeliveryClient returns the client deliveries go through: it dials
// only the addresses control accepts (whatever a host name resolves to),
// uses no proxy, follows no redirect (a 3xx is a failed delivery), keeps
// no idle connection, and trusts roots for https receivers.
func newDeliveryClient(roots *x509.CertPool, control func(network, address string, c syscall.RawConn) error) *http.Client {
	dialer := &net.Dialer{Timeout: deliveryTimeout, Control: control}
	return &http.Client{
		Transport: &http.Transport{
			DialContext:            dialer.DialContext,
			TLSClientConfig:        &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:    deliveryTimeout,
			ResponseHeaderTimeout:  deliveryTimeout,
			DisableKeepAlives:      true,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// loopbackOnly refuses to connect to any address but a loopback one.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return ErrNotLoopback
	}
	return nil
}

// loopbackURL reports whether raw is an http or https URL whose host is a
// loopback address or "localhost".
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && rest.IsLoopback(u.Hostname())
}

// shownURL is raw with any password in it replaced by "xxxxx".
func shownURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	return raw
}

// trustReceivers makes https deliveries trust cert: the server's own
// certificate, which is also the one every httptest.NewTLSServer uses.
func (w *webhookEvents) trustReceivers(cert *x509.Certificate) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.deliv.roots == nil {
		w.deliv.roots = x509.NewCertPool()
	}
	w.deliv.roots.AddCert(cert)
}

// stopDeliveries ends the delivery goroutine, cancelling the attempt in
// flight, and fails the deliveries still queued with ErrDeliveryStopped.
// It returns once the goroutine has; calling it again does nothing more.
func (w *webhookEvents) stopDeliveries() {
	w.mu.Lock()
	dv := &w.deliv
	dv.closing = true
	cancel, done := dv.cancel, dv.done
	w.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, j := range dv.queue {
		dv.settle(j.d, ErrDeliveryStopped)
	}
	dv.queue = nil
	dv.stopped = true
	dv.notify()
}

// Deliveries returns the webhook deliveries of the server's app, in the
// order their events fired: for each event, one per enabled webhook
// subscribed to its trigger, pending or settled. The copies share nothing
// with the server. The server keeps the most recent 10,000.
//
// Deliveries are made by one goroutine per server, in order, to webhooks
// whose URL is on a loopback address: an [net/http/httptest.Server]
// receiver, plain http, or https with httptest's certificate, which the
// fake trusts (it is the fake's own, [Server.Certificate]); under
// [WithLocalNetwork], to receivers on the machine's networks too. A webhook with
// useBasicAuth sends its username and password as HTTP Basic auth. A 2xx
// answer delivers; anything else fails, and with retryOnFailure the
// delivery is retried 3 times, after 10ms, 20ms and 40ms. Each attempt
// times out after 5 seconds. [Server.Close] stops the goroutine at once,
// failing what is left with [ErrDeliveryStopped].
func (s *Server) Deliveries() []Delivery {
	w := s.h.webhooks
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Delivery, len(w.deliv.log))
	for i, d := range w.deliv.log {
		out[i] = *d
		out[i].Data = slices.Clone(d.Data)
	}
	return out
}

// AwaitDeliveries waits until n deliveries have settled (delivered or
// failed) since the server started, counting those [Server.Deliveries] no
// longer keeps, so that a test can check a receiver without sleeping. It
// returns an error when ctx is done first, or when the server is closed
// with fewer than n settled.
func (s *Server) AwaitDeliveries(ctx context.Context, n int) error {
	w := s.h.webhooks
	for {
		w.mu.Lock()
		got, stopped, changed := w.deliv.settled, w.deliv.stopped, w.deliv.changed
		w.mu.Unlock()
		switch {
		case got >= n:
			return nil
		case stopped:
			return fmt.Errorf("chattest: AwaitDeliveries: the server is closed with %d of %d deliveries settled", got, n)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("chattest: AwaitDeliveries: %d of %d deliveries settled: %w", got, n, ctx.Err())
		case <-changed:
		}
	}
}

// Fire fires trigger with data as the event's payload (the envelope's
// "data"), as if it had happened in the server's app: every enabled webhook
// subscribed to trigger gets a delivery. Use it for the triggers the fake
// cannot produce itself (receipts, connection status, campaigns and
// notifications) or to send a payload of your own. trigger must be one of
// the 48 trigger ids ([webhook.Triggers]), and data must encode as JSON (a
// [json.RawMessage] is sent as it is).
func (s *Server) Fire(trigger string, data any) error {
	if !knownTrigger(trigger) {
		return fmt.Errorf("chattest: Fire: %q is not a trigger id", trigger)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("chattest: Fire: encoding data: %w", err)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	st.record(triggerFired{trigger: trigger, data: raw})
	return nil
}

// changed returns a channel closed when a delivery is next attempted or
// settles, or delivery stops.
func (w *webhookEvents) changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.deliv.changed
}

// count is how many deliveries are kept.
func (w *webhookEvents) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.deliv.log)
}

// recent returns how many deliveries are kept, and copies of the most
// recent n of them, oldest first.
func (w *webhookEvents) recent(n int) (total int, out []Delivery) {
	w.mu.Lock()
	defer w.mu.Unlock()
	log := w.deliv.log
	for _, d := range log[max(len(log)-n, 0):] {
		out = append(out, *d)
	}
	return len(log), out
}
