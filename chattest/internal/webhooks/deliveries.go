// Package webhooks makes chattest's webhook deliveries: it posts each
// envelope to the webhooks subscribed to its trigger, from one goroutine,
// in order, retrying as a webhook with retryOnFailure asks, and keeps what
// became of each delivery. It connects only to loopback receivers, or to
// those on the machine's networks when it is told to; it renders nothing
// (chattest's webhooks consumer hands it envelopes).
package webhooks

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
	"sync"
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
	// maxDeliveries is how many deliveries a Deliverer keeps, the most
	// recent.
	maxDeliveries = 10000
)

// Errors a [Delivery] can end with besides the receiver's own failures.
var (
	// ErrNotLoopback is the error of a delivery to a webhook URL whose host
	// is not a loopback address: without chattest.WithLocalNetwork the fake never
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
// chattest's Server.Deliveries. It never holds the webhook's password.
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

// Deliverer holds the deliveries and the goroutine that makes them, under
// its own lock. Make one with New.
type Deliverer struct {
	mu      sync.Mutex
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

	localNetwork bool // receivers may be on the machine's networks
}

// New returns a Deliverer that delivers to loopback receivers, and, with
// localNetwork, to receivers on the machine's networks too.
func New(localNetwork bool) *Deliverer {
	return &Deliverer{changed: make(chan struct{}), wake: make(chan struct{}, 1), localNetwork: localNetwork}
}

// Target is a webhook as a delivery needs it.
type Target struct {
	ID, URL            string
	Retry              bool   // retryOnFailure
	BasicAuth          bool   // useBasicAuth: Username and Password go as HTTP Basic auth
	Username, Password string // the webhook's credentials
}

// Fired is a trigger fired, with its payload, and the webhooks it goes to.
type Fired struct {
	Trigger string
	Data    json.RawMessage // the envelope's data
	Err     error           // why the payload could not be encoded: its deliveries fail with it
	Targets []Target        // the enabled webhooks subscribed to Trigger
}

// Deliver records, for each trigger of fired (the triggers of one change
// of the app app, in order), a pending [Delivery] per target, and leaves
// the sending to the delivery goroutine, which it starts on first use; a
// delivery leaves once durable returns (nil: at once). A delivery to a
// URL whose host is not a loopback address fails at once
// ([ErrNotLoopback]; on the local network, one that may not be called
// fails with [ErrNotLocalNetwork]). It does no I/O.
func (d *Deliverer) Deliver(app string, fired []Fired, durable func() error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, f := range fired {
		for _, t := range f.Targets {
			dl := &Delivery{Trigger: f.Trigger, WebhookID: t.ID, AppID: app, URL: shownURL(t.URL),
				Type: eventType(f.Trigger), Data: f.Data, State: DeliveryPending}
			d.log = append(d.log, dl)
			refused := d.refuse(t.URL)
			switch {
			case f.Err != nil:
				d.settle(dl, f.Err)
			case d.closing:
				d.settle(dl, ErrDeliveryStopped)
			case refused != nil:
				d.settle(dl, refused)
			default:
				j := &deliveryJob{d: dl, url: t.URL, retry: t.Retry, durable: durable, env: &webhook.Envelope{
					Trigger: f.Trigger, Data: f.Data, AppID: app, Region: deliveryRegion, Webhook: t.ID, Type: dl.Type,
				}}
				if t.BasicAuth {
					j.username, j.password = t.Username, t.Password
				}
				d.queue = append(d.queue, j)
			}
		}
	}
	if len(d.log) > 2*maxDeliveries {
		d.log = slices.Clone(d.log[len(d.log)-maxDeliveries:])
	}
	if len(d.queue) == 0 {
		return
	}
	if !d.running {
		d.running = true
		ctx, cancel := context.WithCancel(context.Background())
		d.cancel, d.done = cancel, make(chan struct{})
		go d.deliverLoop(ctx, newDeliveryClient(d.roots, d.dialControl()), d.done, d.wake)
	}
	select {
	case d.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
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
// It runs with d.mu held.
func (dv *Deliverer) settle(d *Delivery, err error) {
	d.Err = err
	d.State = DeliveryFailed
	if err == nil && d.StatusCode >= 200 && d.StatusCode <= 299 {
		d.State = DeliveryDelivered
	}
	dv.settled++
	dv.notify()
}

// notify wakes the Await calls. It runs with d.mu held.
func (d *Deliverer) notify() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// deliverLoop sends the queued deliveries one at a time, in the order the
// events fired, until ctx is cancelled.
func (w *Deliverer) deliverLoop(ctx context.Context, hc *http.Client, done chan<- struct{}, wake <-chan struct{}) {
	defer close(done)
	defer hc.CloseIdleConnections()
	for ctx.Err() == nil {
		w.mu.Lock()
		var j *deliveryJob
		if q := w.queue; len(q) > 0 {
			j = q[0]
			q[0] = nil
			w.queue = q[1:]
		}
		w.mu.Unlock()
		if j != nil {
			if err := kept(j); err != nil {
				w.mu.Lock()
				w.settle(j.d, err)
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
func (w *Deliverer) deliver(ctx context.Context, hc *http.Client, j *deliveryJob) {
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
			w.settle(j.d, err)
		} else {
			w.notify() // the dashboard shows each attempt
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
			w.settle(j.d, ErrDeliveryStopped)
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

// Trust makes https deliveries trust cert: the server's own
// certificate, which is also the one every httptest.NewTLSServer uses.
func (w *Deliverer) Trust(cert *x509.Certificate) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.roots == nil {
		w.roots = x509.NewCertPool()
	}
	w.roots.AddCert(cert)
}

// Stop ends the delivery goroutine, cancelling the attempt in
// flight, and fails the deliveries still queued with ErrDeliveryStopped.
// It returns once the goroutine has; calling it again does nothing more.
func (w *Deliverer) Stop() {
	w.mu.Lock()
	dv := w
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

// ErrNotLocalNetwork is the error of a delivery, under chattest.WithLocalNetwork,
// to a webhook URL that is not http or https, or whose host is neither a
// loopback address nor on the network of one of the machine's interfaces:
// the fake records it as failed without calling it.
var ErrNotLocalNetwork = errors.New("chattest: not delivered: the fake only calls loopback addresses and the networks of its machine's interfaces")

// refuse returns why a delivery to the webhook URL raw is not made, or nil
// when it may be attempted. On the local network, the address the URL's
// host resolves to is checked when the delivery connects (localOnly).
func (d *Deliverer) refuse(raw string) error {
	if !d.localNetwork {
		if !loopbackURL(raw) {
			return ErrNotLoopback
		}
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
		return ErrNotLocalNetwork
	}
	return nil
}

// dialControl is the check every delivery's connection passes before it
// is made: loopbackOnly, or localOnly on the local network.
func (d *Deliverer) dialControl() func(network, address string, c syscall.RawConn) error {
	if d.localNetwork {
		return localOnly
	}
	return loopbackOnly
}

// localOnly refuses to connect to any address but a loopback one or one on
// the network of an interface of the machine.
func localOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || onLocalNetwork(ip)) {
		return nil
	}
	return ErrNotLocalNetwork
}

// onLocalNetwork reports whether ip is a unicast address on the network of
// one of the machine's interfaces, as they are now. Link-local addresses
// (169.254.0.0/16, fe80::/10) are never local networks here: they reach
// cloud metadata services rather than receivers.
func onLocalNetwork(ip net.IP) bool {
	if ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || ip.Equal(net.IPv4bcast) {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() && n.Contains(ip) {
			return true
		}
	}
	return false
}

// Changed returns a channel closed when a delivery is next attempted or
// settles, or delivery stops.
func (w *Deliverer) Changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// Count is how many deliveries are kept.
func (w *Deliverer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.log)
}

// Recent returns how many deliveries are kept, and copies of the most
// recent n of them, oldest first.
func (w *Deliverer) Recent(n int) (total int, out []Delivery) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.log[max(len(w.log)-n, 0):] {
		out = append(out, *d)
	}
	return len(w.log), out
}

// Deliveries returns copies of the deliveries kept, in the order their
// triggers fired; they share nothing with the Deliverer.
func (w *Deliverer) Deliveries() []Delivery {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Delivery, len(w.log))
	for i, d := range w.log {
		out[i] = *d
		out[i].Data = slices.Clone(d.Data)
	}
	return out
}

// Await waits until n deliveries have settled since the Deliverer was
// made, counting those it no longer keeps. It returns an error when ctx
// is done first, or when delivery stops with fewer than n settled.
func (w *Deliverer) Await(ctx context.Context, n int) error {
	for {
		w.mu.Lock()
		got, stopped, changed := w.settled, w.stopped, w.changed
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
