// Package dashboard serves the fake's dashboard: the pages under
// fake.DashboardPrefix that show its state, its webhook deliveries and its
// request log, live. It is an adapter around the core: a consumer of its
// outbox, whose published changes wake the live pages.
package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest/internal/fake"
	"github.com/chatrest/chat/chattest/internal/requestlog"
	"github.com/chatrest/chat/chattest/internal/webhooks"
)

// dashBodyChars is how much of a request body the request log page shows.
const dashBodyChars = 600

// dashMinInterval is the least time between two change events of a live
// page, so that a burst of requests costs a page a few refreshes rather
// than one each.
const dashMinInterval = 100 * time.Millisecond

//go:embed dashboard
var dashboardFiles embed.FS

// dashPages are the dashboard's pages, in the order of its menu: path
// (below the prefix), menu label and template file.
var dashPages = []struct{ path, label, file string }{
	{"", "Overview", "overview"},
	{"users", "Users", "users"},
	{"groups", "Groups", "groups"},
	{"conversations", "Conversations", "conversations"},
	{"messages", "Messages", "messages"},
	{"webhooks", "Webhooks", "webhooks"},
	{"requests", "Requests", "requests"},
}

// The values the pages of the webhooks and the requests show.
type (
	dashWebhooks struct {
		Webhooks   []fake.DashWebhook
		Deliveries fake.DashList[dashDelivery]
	}
	dashDelivery struct {
		Seq                       int
		Trigger, WebhookID, State string
		StatusCode, Attempts      int
		Err                       string
	}
	dashRequest struct {
		Time                                   time.Time
		Method, Path, Route, Fault, OnBehalfOf string
		Status                                 int
		Body                                   string
	}
)

// dashboard serves the pages under /_chattest/.
type Dashboard struct {
	core      *fake.Core
	hooks     *webhooks.Events // the deliveries; nil: none
	log       *requestlog.Log
	anyClient bool // WithLocalNetwork: not only loopback clients
	pages     map[string]*template.Template
	mux       *http.ServeMux

	mu   sync.Mutex
	live fake.Signal // a change is published
}

// dashPage is what the layout of every page is given.
type dashPage struct {
	Title, AppID string
	Menu         []dashMenuItem
	Data         any
}

type dashMenuItem struct {
	Href, Label string
	Current     bool
}

// New returns the dashboard of core, its webhook deliveries hooks (nil:
// none) and its request log; anyClient lets clients on any address see it.
func New(core *fake.Core, hooks *webhooks.Events, log *requestlog.Log, anyClient bool) *Dashboard {
	d := &Dashboard{core: core, hooks: hooks, log: log, anyClient: anyClient, pages: map[string]*template.Template{}, mux: http.NewServeMux()}
	h := core
	funcs := template.FuncMap{"when": when, "clock": func(t time.Time) string { return t.UTC().Format("15:04:05.000") }}
	for _, p := range dashPages {
		d.pages[p.file] = template.Must(template.New("layout.html").Funcs(funcs).
			ParseFS(dashboardFiles, "dashboard/layout.html", "dashboard/"+p.file+".html"))
	}
	static, _ := fs.Sub(dashboardFiles, "dashboard/static") // a directory of the embedded tree
	d.mux.Handle("GET "+fake.DashboardPrefix+"static/", http.StripPrefix(fake.DashboardPrefix+"static/", http.FileServerFS(static)))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"events", d.events)
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"{$}", d.page("overview", func(*http.Request) any { return d.overviewOf() }))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"users", d.page("users", func(*http.Request) any { return h.DashUsersOf() }))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"groups", d.page("groups", func(*http.Request) any { return h.DashGroupsOf() }))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"conversations", d.page("conversations", func(*http.Request) any { return h.DashConversationsOf() }))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"messages", d.page("messages", func(r *http.Request) any {
		id := r.URL.Query().Get("conversation")
		return struct {
			Conversation string
			List         fake.DashList[fake.DashMessage]
		}{id, h.DashMessagesOf(id)}
	}))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"webhooks", d.page("webhooks", func(*http.Request) any { return d.webhooksOf() }))
	d.mux.HandleFunc("GET "+fake.DashboardPrefix+"requests", d.page("requests", func(*http.Request) any { return d.requestsOf() }))
	d.mux.HandleFunc(fake.DashboardPrefix, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "chattest: no such dashboard page", http.StatusNotFound)
	})
	return d
}

// ServeHTTP serves a dashboard page to a client allowed to see it: a
// loopback one, addressing the server by a loopback name, unless the
// handler has WithLocalNetwork.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !d.anyClient && !loopbackRequest(r) {
		http.Error(w, "chattest: the dashboard answers loopback clients only (see chattest.WithLocalNetwork)", http.StatusForbidden)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "chattest: the dashboard only shows", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == strings.TrimSuffix(fake.DashboardPrefix, "/") {
		http.Redirect(w, r, fake.DashboardPrefix, http.StatusMovedPermanently)
		return
	}
	d.mux.ServeHTTP(w, r)
}

// page serves the page of template file with the data read returns.
func (d *Dashboard) page(file string, read func(*http.Request) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := dashPage{AppID: d.core.AppID(), Data: read(r)}
		for _, pg := range dashPages {
			cur := pg.file == file
			p.Menu = append(p.Menu, dashMenuItem{Href: "./" + pg.path, Label: pg.label, Current: cur})
			if cur {
				p.Title = pg.label
			}
		}
		var b bytes.Buffer
		if err := d.pages[file].Execute(&b, p); err != nil {
			http.Error(w, "chattest: rendering the page: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b.Bytes())
	}
}

// events streams a Server-Sent Event, "change", each time what the pages
// show may have changed, at most every dashMinInterval, until the client
// leaves or the handler is closed.
func (d *Dashboard) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	events, arrivals, deliveries := d.changes()
	if _, err := w.Write([]byte(": chattest\n\n")); err != nil || rc.Flush() != nil {
		return
	}
	for {
		select {
		case <-events:
		case <-arrivals:
		case <-deliveries:
		case <-r.Context().Done():
			return
		case <-d.core.Closing():
			return
		}
		// The next event tells of the changes from now on, those made
		// while this one is sent and during the wait after it included.
		events, arrivals, deliveries = d.changes()
		if _, err := w.Write([]byte("data: change\n\n")); err != nil || rc.Flush() != nil {
			return
		}
		t := time.NewTimer(dashMinInterval)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		case <-d.core.Closing():
			t.Stop()
			return
		}
	}
}

// when shows a timestamp in UTC; "" for none.
func when(t chat.Timestamp) string {
	if t == 0 {
		return ""
	}
	return t.Time().UTC().Format("2006-01-02 15:04:05")
}

// faultName names a fault applied to a request; "" for none.
func faultName(k fake.FaultKind) string {
	if k == fake.FaultNone {
		return ""
	}
	return k.String()
}

// shorten cuts s to at most n bytes, on a character boundary, marking the
// cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Recorded reads nothing of the events: the live pages show the state.
func (d *Dashboard) Recorded(*fake.Commit, fake.Event) {}

// Published wakes the live pages.
func (d *Dashboard) Published(*fake.Commit) {
	d.mu.Lock()
	d.live.Notify()
	d.mu.Unlock()
}

// changes returns three channels, one of which is closed at the next
// change the dashboard shows: an event of the outbox (a request answered,
// a change of the state), a request arriving, or a webhook delivery
// attempted or settled.
func (d *Dashboard) changes() (events, arrivals, deliveries <-chan struct{}) {
	d.mu.Lock()
	events = d.live.Wait()
	d.mu.Unlock()
	if d.hooks != nil {
		deliveries = d.hooks.Changed()
	}
	return events, d.log.Arrived(), deliveries
}

// overviewOf counts what the app holds, its deliveries and its requests,
// and lists its API keys.
func (d *Dashboard) overviewOf() fake.DashOverview {
	o := d.core.DashOverviewOf()
	if d.hooks != nil {
		o.Deliveries = d.hooks.Count()
	}
	o.Requests, _ = d.log.Recent(0)
	return o
}

// webhooksOf lists the app's webhooks and its deliveries, the most recent
// first.
func (d *Dashboard) webhooksOf() dashWebhooks {
	out := dashWebhooks{Webhooks: d.core.DashWebhooksOf()}
	if d.hooks == nil {
		return out
	}
	total, recent := d.hooks.Recent(fake.DashRows)
	out.Deliveries.Total = total
	for i := len(recent) - 1; i >= 0; i-- {
		dl := recent[i]
		dd := dashDelivery{Seq: total - len(recent) + i + 1, Trigger: dl.Trigger, WebhookID: dl.WebhookID, State: string(dl.State), StatusCode: dl.StatusCode, Attempts: dl.Attempts}
		if dl.Err != nil {
			dd.Err = d.log.Shown(dl.Err.Error())
		}
		out.Deliveries.Rows = append(out.Deliveries.Rows, dd)
	}
	return out
}

// requestsOf lists the request log, the most recent first: its entries
// are redacted when they are recorded.
func (d *Dashboard) requestsOf() fake.DashList[dashRequest] {
	total, entries := d.log.Recent(fake.DashRows)
	out := fake.DashList[dashRequest]{Total: total}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		out.Rows = append(out.Rows, dashRequest{Time: e.Time, Method: e.Method, Path: e.Path, Route: e.Route,
			Status: e.Status, Fault: faultName(e.Fault.Kind), OnBehalfOf: e.Header.Get("onBehalfOf"), Body: shorten(e.Body, dashBodyChars)})
	}
	return out
}
