package fake

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

// DashboardPrefix is where the dashboard is served, beside the API.
const DashboardPrefix = "/_chattest/"

// dashRows is how many rows a dashboard list shows at most.
const dashRows = 200

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

// The values the pages show, read from the state by dashboard_state.go.
type (
	// dashList is the first rows of a list, and how long the list is.
	dashList[T any] struct {
		Rows  []T
		Total int
	}
	dashOverview struct {
		AppID                                                        string
		Users, Groups, Conversations, Messages, Webhooks, Deliveries int
		Requests                                                     int
		APIKeys                                                      []dashAPIKey
	}
	dashAPIKey struct {
		Name, Scope, Key string // Key masked
		CreatedAt        chat.Timestamp
	}
	dashUser struct {
		UID, Name, Role, Status, State string
		CreatedAt                      chat.Timestamp
		Tokens                         []string // masked
	}
	dashGroup struct {
		GUID, Name, Type, Owner string
		CreatedAt               chat.Timestamp
		MembersCount            int
		Members                 []dashMember
	}
	dashMember       struct{ UID, Scope string }
	dashConversation struct {
		ID, Type    string
		With, Name  string // the two users, or the group's guid and name
		Messages    int
		Last        string // the last message, "sender: text"
		LastAt      chat.Timestamp
		OwnersCount int
		Unread      []dashUnread
	}
	dashUnread struct {
		UID   string
		Count int
	}
	dashMessage struct {
		ID, ConversationID, Sender, Receiver, Kind, Text string
		SentAt                                           chat.Timestamp
		Edited, Deleted                                  bool
		Reactions                                        []dashReaction
		Replies                                          []dashMessage
	}
	dashReaction struct {
		Emoji string
		By    []string
	}
	dashWebhooks struct {
		Webhooks   []dashWebhook
		Deliveries dashList[dashDelivery]
	}
	dashWebhook struct {
		ID, Name, URL  string
		Enabled, Retry bool
		Triggers       []string
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
type dashboard struct {
	h         *Core
	anyClient bool // WithLocalNetwork: not only loopback clients
	pages     map[string]*template.Template
	mux       *http.ServeMux
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

// newDashboard returns the dashboard of h; anyClient lets clients on any
// address see it.
func (h *Core) newDashboard(anyClient bool) http.Handler {
	d := &dashboard{h: h, anyClient: anyClient, pages: map[string]*template.Template{}, mux: http.NewServeMux()}
	funcs := template.FuncMap{"when": when, "clock": func(t time.Time) string { return t.UTC().Format("15:04:05.000") }}
	for _, p := range dashPages {
		d.pages[p.file] = template.Must(template.New("layout.html").Funcs(funcs).
			ParseFS(dashboardFiles, "dashboard/layout.html", "dashboard/"+p.file+".html"))
	}
	static, _ := fs.Sub(dashboardFiles, "dashboard/static") // a directory of the embedded tree
	d.mux.Handle("GET "+DashboardPrefix+"static/", http.StripPrefix(DashboardPrefix+"static/", http.FileServerFS(static)))
	d.mux.HandleFunc("GET "+DashboardPrefix+"events", d.events)
	d.mux.HandleFunc("GET "+DashboardPrefix+"{$}", d.page("overview", func(*http.Request) any { return h.dashOverviewOf() }))
	d.mux.HandleFunc("GET "+DashboardPrefix+"users", d.page("users", func(*http.Request) any { return h.dashUsersOf() }))
	d.mux.HandleFunc("GET "+DashboardPrefix+"groups", d.page("groups", func(*http.Request) any { return h.dashGroupsOf() }))
	d.mux.HandleFunc("GET "+DashboardPrefix+"conversations", d.page("conversations", func(*http.Request) any { return h.dashConversationsOf() }))
	d.mux.HandleFunc("GET "+DashboardPrefix+"messages", d.page("messages", func(r *http.Request) any {
		id := r.URL.Query().Get("conversation")
		return struct {
			Conversation string
			List         dashList[dashMessage]
		}{id, h.dashMessagesOf(id)}
	}))
	d.mux.HandleFunc("GET "+DashboardPrefix+"webhooks", d.page("webhooks", func(*http.Request) any { return h.dashWebhooksOf() }))
	d.mux.HandleFunc("GET "+DashboardPrefix+"requests", d.page("requests", func(*http.Request) any { return h.dashRequestsOf() }))
	d.mux.HandleFunc(DashboardPrefix, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "chattest: no such dashboard page", http.StatusNotFound)
	})
	return d
}

// isDashboardPath reports whether p is the dashboard's.
func isDashboardPath(p string) bool {
	return p == strings.TrimSuffix(DashboardPrefix, "/") || strings.HasPrefix(p, DashboardPrefix)
}

// ServeHTTP serves a dashboard page to a client allowed to see it: a
// loopback one, addressing the server by a loopback name, unless the
// handler has WithLocalNetwork.
func (d *dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	if r.URL.Path == strings.TrimSuffix(DashboardPrefix, "/") {
		http.Redirect(w, r, DashboardPrefix, http.StatusMovedPermanently)
		return
	}
	d.mux.ServeHTTP(w, r)
}

// page serves the page of template file with the data read returns.
func (d *dashboard) page(file string, read func(*http.Request) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := dashPage{AppID: d.h.appID, Data: read(r)}
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
func (d *dashboard) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	events, arrivals, deliveries := d.h.dashChanges()
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
		case <-d.h.closing:
			return
		}
		// The next event tells of the changes from now on, those made
		// while this one is sent and during the wait after it included.
		events, arrivals, deliveries = d.h.dashChanges()
		if _, err := w.Write([]byte("data: change\n\n")); err != nil || rc.Flush() != nil {
			return
		}
		t := time.NewTimer(dashMinInterval)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		case <-d.h.closing:
			t.Stop()
			return
		}
	}
}

// mask shows the last 4 characters of a secret: enough to tell two apart,
// too few to use one.
func mask(secret string) string {
	if len(secret) < 12 {
		return "••••"
	}
	return "••••" + secret[len(secret)-4:]
}

// when shows a timestamp in UTC; "" for none.
func when(t chat.Timestamp) string {
	if t == 0 {
		return ""
	}
	return t.Time().UTC().Format("2006-01-02 15:04:05")
}
