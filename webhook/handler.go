package webhook

import (
	"context"
	"log/slog"
	"net/http"
)

// HandlerOption configures [NewHandler].
type HandlerOption func(*handler)

// WithLogger logs, to l, every delivery the handler rejects (at level
// Warn, with the status answered and the reason) and every error fn returns
// (at level Error, with the trigger). Credentials are never logged.
func WithLogger(l *slog.Logger) HandlerOption {
	return func(h *handler) { h.log = l }
}

// NewHandler returns an http.Handler that receives the deliveries of the
// webhook v verifies: it checks and decodes each one with
// [Verifier.Verify], passes the event to fn with the request's context,
// and answers:
//
//   - 200 when fn returns nil (or fn is nil);
//   - 500 when fn returns an error, so that a webhook with retryOnFailure
//     delivers the event again (as often and as late as the service
//     decides: expect the same event more than once and deduplicate);
//   - 405 (with Allow: POST) for a method other than POST, 401 (with
//     WWW-Authenticate) for missing or wrong credentials, 415 for a body
//     that is not JSON, 413 for a body over the limit and 400 for one that
//     does not decode, without calling fn: see [StatusCode].
//
// The service expects receivers to answer at once: fn runs before the
// answer, so keep it short, and hand long work to a queue of your own.
// Answers carry only the status text, never the error. The handler is
// safe for concurrent use; fn is called concurrently for concurrent
// deliveries.
func NewHandler(v *Verifier, fn func(ctx context.Context, ev Event) error, opts ...HandlerOption) http.Handler {
	h := &handler{v: v, fn: fn}
	for _, o := range opts {
		if o != nil {
			o(h)
		}
	}
	return h
}

type handler struct {
	v   *Verifier
	fn  func(ctx context.Context, ev Event) error
	log *slog.Logger
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ev, err := h.v.Verify(r)
	if err != nil {
		code := StatusCode(err)
		switch code {
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", http.MethodPost)
		case http.StatusUnauthorized:
			w.Header().Set("WWW-Authenticate", `Basic realm="webhook", charset="UTF-8"`)
		}
		if h.log != nil {
			h.log.LogAttrs(r.Context(), slog.LevelWarn, "webhook: delivery rejected",
				slog.Int("status", code), slog.String("error", err.Error()))
		}
		http.Error(w, http.StatusText(code), code)
		return
	}
	if h.fn != nil {
		if err := h.fn(r.Context(), ev); err != nil {
			if h.log != nil {
				h.log.LogAttrs(r.Context(), slog.LevelError, "webhook: handling the delivery failed",
					slog.String("trigger", string(ev.Trigger())), slog.String("error", err.Error()))
			}
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}
