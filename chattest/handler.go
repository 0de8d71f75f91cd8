package chattest

import (
	"fmt"
	"io"
	"net/http"

	"github.com/chatrest/chat/chattest/internal/dashboard"
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/journal"
	"github.com/chatrest/chat/chattest/internal/realtime"
	"github.com/chatrest/chat/chattest/internal/requestlog"
	"github.com/chatrest/chat/chattest/internal/webhooks"
)

// Handler is the fake API as an [http.Handler], without a server around it:
// serve it yourself, e.g. on a fixed address over your own TLS
// configuration, as cmd/chattest does. Create it with [NewHandler]. It
// enforces [WithRateLimit] as a [Server] does; seeding, inspection, fault
// injection and the request log's accessors are methods of [Server], which
// serves a Handler over HTTPS. Call [Handler.Close] when you stop serving
// it.
//
// Printing a Handler (with any fmt verb) shows its app id, never its API
// key.
type Handler struct {
	core  *fake.Core       // the service, its routes and what serves them
	hooks *webhooks.Events // the webhook deliveries of the core's events
	log   *requestlog.Log  // the requests the core serves
}

// NewHandler returns the fake API for one app, seeded with a fullAccess API
// key and nothing else, configured as [NewServer] is. It serves the server
// API under /v3, the client API under /v3.0 with its websocket at / (see
// [WithRealtime]; the client SDKs need them served over TLS), and its dashboard
// under /_chattest/; any other path answers 404 ERR_API_NOT_FOUND. With
// [WithStore] or [WithSeedFile], use [OpenHandler], which reports what
// stops them: NewHandler returns a handler that answers every request with
// that error.
func NewHandler(opts ...Option) *Handler {
	h, err := OpenHandler(opts...)
	if err != nil {
		h = &Handler{}
		h.core = fake.NewBroken(h.adapt(configure(opts)), err)
	}
	return h
}

// OpenHandler is [NewHandler] that reports what stops [WithStore] or
// [WithSeedFile]: a directory or file that cannot be read or written, a
// file that is not a state file, a state of another app, or a record that
// cannot be read.
func OpenHandler(opts ...Option) (*Handler, error) {
	h := &Handler{}
	core, err := fake.Open(h.adapt(configure(opts)))
	if err != nil {
		return nil, err
	}
	h.core = core
	return h, nil
}

// adapt returns cfg with the adapters of h around the core: the consumers
// of its outbox.
func (h *Handler) adapt(cfg config) config {
	h.hooks = webhooks.NewEvents(cfg.LocalNetwork)
	cfg.Consumers = append(cfg.Consumers, h.hooks.Subscriber, realtime.Subscriber)
	h.log = requestlog.New()
	cfg.RequestLog = h.log
	cfg.OpenJournal = journal.Open
	cfg.Dashboard = func(core *fake.Core) fake.Dashboard {
		return dashboard.New(core, h.hooks, h.log, cfg.LocalNetwork)
	}
	return cfg
}

// halt ends what the handler runs beside the requests it answers (see
// [Handler.Close]), leaving its store open. Calling it again does nothing
// more.
func (h *Handler) halt() {
	h.core.Halt()
	h.hooks.Stop()
}

// ServeHTTP serves one request of the API.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.core.ServeHTTP(w, r) }

// AppID is the app the handler fakes.
func (h *Handler) AppID() string { return h.core.AppID() }

// APIKey is the fullAccess API key the handler was seeded with.
func (h *Handler) APIKey() string { return h.core.APIKey() }

// Management is the fake's Management API as an [http.Handler] (paths
// /apps/... and /tenants, no version prefix), authenticated with the
// management key and secret. It shares the handler's state: the fake's own
// app is one of its apps, and webhooks created through it receive the
// deliveries of that app's events.
func (h *Handler) Management() http.Handler { return h.core.Management() }

// ManagementKey is the management key the handler accepts.
func (h *Handler) ManagementKey() string { return h.core.ManagementKey() }

// ManagementSecret is the management secret the handler accepts.
func (h *Handler) ManagementSecret() string { return h.core.ManagementSecret() }

// Close ends what the handler runs beside the requests it answers: the
// dashboard's live streams, the client API's websockets and the requests
// held by a [Fault.Delay] end at once, and webhook deliveries stop,
// failing those not yet made with [ErrDeliveryStopped]. With
// [WithStore], it then closes the store once the
// requests in flight have kept their changes. Call it when you stop
// serving the handler, before [http.Server.Shutdown], which would
// otherwise wait for the streams. The handler still answers requests after
// Close, but with a store it refuses those that would change the
// state (500 ERR_EXCEPTION). [Server.Close] closes its handler. Calling it
// again does nothing more.
func (h *Handler) Close() error {
	h.halt()
	return h.core.Close()
}

// Export writes the state to w as a state file (see [WithSeedFile]), for
// [WithSeedFile] to start another server from: every record the state
// holds, not the requests that made them, so that what was deleted for
// good is not in it.
func (h *Handler) Export(w io.Writer) error { return h.core.Export(w) }

// String describes the handler without its API key. It has a value
// receiver, so that a Handler printed as a value shows no more than
// through a pointer.
func (h Handler) String() string {
	if h.core == nil {
		return "chattest.Handler{}"
	}
	return fmt.Sprintf("chattest.Handler{AppID: %q}", h.core.AppID())
}

// GoString is String, so that %#v does not show the API key either.
func (h Handler) GoString() string { return h.String() }

// Format prints [Handler.String] for every verb.
func (h Handler) Format(f fmt.State, verb rune) { io.WriteString(f, h.String()) }
