package chat_test

// Benchmarks of the SDK against hand-written net/http + encoding/json calls
// of the same shape, on the same loopback HTTPS server, in the same run.
// BENCHMARKS.md is produced from them by `go run ./internal/benchreport`.
//
// Each operation has seven sub-benchmarks: serial/sdk,
// serial/handwritten and serial/alternating (one goroutine), and
// parallel32/alternating, parallel32/sdk, parallel32/handwritten-tuned and
// parallel32/handwritten-default (32 goroutines; see the clients below).

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatrest/chat"
)

const benchAPIKey = "0123456789abcdef0123456789abcdef01234567"

// benchMessage is a message as the reference shows one, entities included;
// parentID "" leaves parentId out, as a message outside a thread has none.
func benchMessage(id, parentID string) string {
	parent := ""
	if parentID != "" {
		parent = `"parentId":"` + parentID + `",`
	}
	return `{"id":"` + id + `","muid":"","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-2","receiverType":"user","receiver":"cometchat-uid-1","category":"message","type":"text","data":{"text":"On it!","metadata":{"key1":"val1"},"entities":{"sender":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1638361550},"entityType":"user"},"receiver":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default","createdAt":1638361550,"conversationId":"cometchat-uid-1_user_cometchat-uid-2"},"entityType":"user"}}},"sentAt":1638423490,"updatedAt":1638423490,` + parent + `"editedAt":null,"editedBy":"","deliveredAt":null,"readAt":null,"deletedAt":null}`
}

// benchUser is a user as the reference's get-user example shows one.
func benchUser(i int) string {
	return fmt.Sprintf(`{"uid":"cometchat-uid-%d","name":"Andrew Joseph %d","avatar":"https://data-us.cometchat.io/assets/images/avatars/ironman.png","link":"https://example.com/u/%d","metadata":{"@private":{"email":"user%d@example.com","contactNumber":"0123456789"}},"status":"offline","role":"default","tags":["tag1","tag2"],"createdAt":1638361550,"updatedAt":1638361590,"lastActiveAt":1638423490,"conversationId":"cometchat-uid-1_user_cometchat-uid-%d"}`, i, i, i, i, i)
}

// benchUsersPage is one page of the user list: 25 users and the meta.
func benchUsersPage() string {
	users := make([]string, 25)
	for i := range users {
		users[i] = benchUser(i + 1)
	}
	return `{"data":[` + strings.Join(users, ",") + `],"meta":{"pagination":{"total":100,"count":25,"per_page":25,"current_page":2,"total_pages":4},"cursor":{"updatedAt":1638361590,"affix":"prepend"}}}`
}

type benchServer struct {
	*httptest.Server
	pool *x509.CertPool
}

// newBenchServer serves h over HTTPS/1.1 on loopback: the service speaks
// HTTPS, and HTTP/1.1 is where connection reuse matters.
func newBenchServer(b *testing.B, h http.Handler) *benchServer {
	srv := httptest.NewUnstartedServer(h)
	// Connections the default-transport client drops mid-handshake are
	// expected under 32-way load; keep their log lines out of the output.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	b.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &benchServer{Server: srv, pool: pool}
}

// newCannedServer answers each benchmarked operation with a canned body, the
// same for the SDK and the hand-written code.
func newCannedServer(b *testing.B) *benchServer {
	mux := http.NewServeMux()
	canned := func(pattern, body string) {
		data := []byte(body)
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(data)
		})
	}
	canned("POST /v3/messages", `{"data":`+benchMessage("402", "")+`}`)
	canned("POST /v3/messages/{id}/thread", `{"data":`+benchMessage("402", "401")+`}`)
	canned("GET /v3/users/{uid}", `{"data":`+benchUser(1)+`}`)
	canned("GET /v3/users", benchUsersPage())
	canned("GET /v3/messages/402", `{"data":`+benchMessage("402", "401")+`}`)
	// The same message as the API sometimes types it: a numeric id and
	// parent id, a reply count in a string.
	canned("GET /v3/messages/403", `{"data":`+strings.Replace(strings.Replace(benchMessage("403", "401"), `"id":"403"`, `"id":403,"replyCount":"0"`, 1), `"parentId":"401"`, `"parentId":401`, 1)+`}`)
	return newBenchServer(b, mux)
}

// sdkClient is the SDK as a user builds it: default (tuned) transport with
// only the test certificate trusted.
func (s *benchServer) sdkClient(b *testing.B) *chat.Client {
	t := chat.NewTransport()
	t.TLSClientConfig = &tls.Config{RootCAs: s.pool}
	c, err := chat.NewClient("bench-app", benchAPIKey,
		chat.WithBaseURL(s.URL), chat.WithHTTPClient(&http.Client{Transport: t}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(t.CloseIdleConnections)
	return c
}

// tunedHTTPClient is a hand-written pooled client, tuned as a careful
// engineer would: as many idle connections per host as goroutines.
func (s *benchServer) tunedHTTPClient(b *testing.B) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 256, 256
	t.TLSClientConfig = &tls.Config{RootCAs: s.pool}
	b.Cleanup(t.CloseIdleConnections)
	return &http.Client{Transport: t}
}

// defaultHTTPClient is http.DefaultClient's configuration (DefaultTransport:
// 2 idle connections per host) trusting the test certificate.
func (s *benchServer) defaultHTTPClient(b *testing.B) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: s.pool}
	b.Cleanup(t.CloseIdleConnections)
	return &http.Client{Transport: t}
}

// Hand-written types of the same shape as the SDK's models (every field of
// chat.Message and chat.User), without its lenient decoding.
type (
	hwSendMessage struct {
		Receiver     string        `json:"receiver"`
		ReceiverType string        `json:"receiverType"`
		Category     string        `json:"category,omitempty"`
		Type         string        `json:"type,omitempty"`
		Data         hwMessageData `json:"data"`
		MUID         string        `json:"muid,omitempty"`
	}
	hwMessageData struct {
		Text        string            `json:"text,omitempty"`
		Metadata    map[string]any    `json:"metadata,omitempty"`
		Attachments []json.RawMessage `json:"attachments,omitempty"`
		URL         string            `json:"url,omitempty"`
		Resource    string            `json:"resource,omitempty"`
		CustomData  map[string]any    `json:"customData,omitempty"`
		Entities    *struct {
			Sender   *hwEntity `json:"sender,omitempty"`
			Receiver *hwEntity `json:"receiver,omitempty"`
			By       *hwEntity `json:"by,omitempty"`
			On       *hwEntity `json:"on,omitempty"`
			For      *hwEntity `json:"for,omitempty"`
		} `json:"entities,omitempty"`
		Action    string            `json:"action,omitempty"`
		Reactions []json.RawMessage `json:"reactions,omitempty"`
	}
	// hwEntity keeps the entity as JSON, as the SDK does until asked.
	hwEntity struct {
		Entity     json.RawMessage `json:"entity"`
		EntityType string          `json:"entityType"`
	}
	hwMessage struct {
		ID             string          `json:"id"`
		MUID           string          `json:"muid"`
		ConversationID string          `json:"conversationId"`
		Sender         string          `json:"sender"`
		ReceiverType   string          `json:"receiverType"`
		Receiver       string          `json:"receiver"`
		Category       string          `json:"category"`
		Type           string          `json:"type"`
		Data           hwMessageData   `json:"data"`
		SentAt         int64           `json:"sentAt"`
		UpdatedAt      int64           `json:"updatedAt"`
		EditedAt       *int64          `json:"editedAt"`
		EditedBy       string          `json:"editedBy"`
		DeliveredAt    *int64          `json:"deliveredAt"`
		ReadAt         *int64          `json:"readAt"`
		DeletedAt      *int64          `json:"deletedAt"`
		Tags           []string        `json:"tags"`
		ParentID       string          `json:"parentId"`
		ReplyCount     int             `json:"replyCount"`
		LastReply      *hwMessage      `json:"lastReply"`
		QuotedMessage  *hwMessage      `json:"quotedMessage"`
		PinnedBy       string          `json:"pinnedBy"`
		PinnedAt       int64           `json:"pinnedAt"`
		SavedAt        int64           `json:"savedAt"`
		Receipts       json.RawMessage `json:"receipts"`
	}
	hwUser struct {
		UID            string         `json:"uid"`
		Name           string         `json:"name"`
		Avatar         string         `json:"avatar"`
		Link           string         `json:"link"`
		Metadata       map[string]any `json:"metadata"`
		Status         string         `json:"status"`
		StatusMessage  string         `json:"statusMessage"`
		Role           string         `json:"role"`
		Tags           []string       `json:"tags"`
		CreatedAt      int64          `json:"createdAt"`
		UpdatedAt      int64          `json:"updatedAt"`
		LastActiveAt   int64          `json:"lastActiveAt"`
		ConversationID string         `json:"conversationId"`
		BlockedByMe    bool           `json:"blockedByMe"`
		BlockedByMeAt  int64          `json:"blockedByMeAt"`
		BlockedAt      int64          `json:"blockedAt"`
		AuthToken      string         `json:"authToken"`
	}
	hwCursor struct {
		Affix     string `json:"affix"`
		ID        string `json:"id"`
		SentAt    int64  `json:"sentAt"`
		UpdatedAt int64  `json:"updatedAt"`
	}
	hwUsersPage struct {
		Data []hwUser `json:"data"`
		Meta struct {
			Pagination *struct {
				Total       int `json:"total"`
				Count       int `json:"count"`
				PerPage     int `json:"per_page"`
				CurrentPage int `json:"current_page"`
				TotalPages  int `json:"total_pages"`
			} `json:"pagination"`
			Current *struct {
				Limit int `json:"limit"`
				Count int `json:"count"`
			} `json:"current"`
			Next     *hwCursor `json:"next"`
			Previous *hwCursor `json:"previous"`
			Cursor   *hwCursor `json:"cursor"`
		} `json:"meta"`
		Cursor *hwCursor `json:"cursor"`
	}
)

var benchReq = &chat.SendMessageRequest{
	Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser,
	Data: chat.MessageData{Text: "On it!", Metadata: map[string]any{"key1": "val1"}},
}

// hwSendReq is the body of a hand-written send: what the SDK sends, with a
// fresh muid as the SDK generates one for each message.
func hwSendReq() *hwSendMessage {
	return &hwSendMessage{
		Receiver: "cometchat-uid-1", ReceiverType: "user",
		Data: hwMessageData{Text: "On it!", Metadata: map[string]any{"key1": "val1"}},
		MUID: rand.Text(),
	}
}

var benchUsersQuery = &chat.ListUsersOptions{PageOptions: chat.PageOptions{PerPage: 25, Page: 2}, WithTags: true}

// handWritten is what a user would write without the SDK: one request with
// the API's headers, the reply's "data" (or the whole page) decoded into
// out.
func handWritten(ctx context.Context, hc *http.Client, method, u, onBehalfOf string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header.Set("apikey", benchAPIKey)
	if onBehalfOf != "" {
		req.Header.Set("onBehalfOf", onBehalfOf)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return json.Unmarshal(raw, out)
}

type hwData[T any] struct {
	Data T `json:"data"`
}

func hwSend(ctx context.Context, hc *http.Client, base string) error {
	var env hwData[hwMessage]
	return handWritten(ctx, hc, http.MethodPost, base+"/v3/messages", "cometchat-uid-2", hwSendReq(), &env)
}

func hwSendThread(ctx context.Context, hc *http.Client, base string) error {
	var env hwData[hwMessage]
	return handWritten(ctx, hc, http.MethodPost, base+"/v3/messages/"+url.PathEscape("401")+"/thread", "cometchat-uid-2", hwSendReq(), &env)
}

func hwGetUser(ctx context.Context, hc *http.Client, base string) error {
	var env hwData[hwUser]
	return handWritten(ctx, hc, http.MethodGet, base+"/v3/users/"+url.PathEscape("cometchat-uid-1"), "", nil, &env)
}

func hwListUsers(ctx context.Context, hc *http.Client, base string) error {
	q := url.Values{"perPage": {"25"}, "page": {"2"}, "withTags": {"true"}}
	var page hwUsersPage
	return handWritten(ctx, hc, http.MethodGet, base+"/v3/users?"+q.Encode(), "", nil, &page)
}

// compare runs one operation through the SDK and by hand, serially and
// with 32 goroutines.
func compare(b *testing.B, sdk func(context.Context, *chat.Client) error, hw func(context.Context, *http.Client, string) error) {
	ctx := context.Background()
	srv := newCannedServer(b)

	b.Run("serial/sdk", func(b *testing.B) {
		c := srv.sdkClient(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := sdk(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("serial/handwritten", func(b *testing.B) {
		hc := srv.tunedHTTPClient(b)
		b.ReportAllocs()
		for b.Loop() {
			if err := hw(ctx, hc, srv.URL); err != nil {
				b.Fatal(err)
			}
		}
	})

	// serial/alternating times the two sides call by call, alternating
	// which goes first, so that both see the same moment of a noisy
	// machine: the time ratio of the report is read from it.
	b.Run("serial/alternating", func(b *testing.B) {
		c, hc := srv.sdkClient(b), srv.tunedHTTPClient(b)
		calls := [2]func() error{
			func() error { return sdk(ctx, c) },
			func() error { return hw(ctx, hc, srv.URL) },
		}
		var took [2]time.Duration
		i := 0
		for b.Loop() {
			for k := range 2 {
				side := (i + k) % 2
				start := time.Now()
				if err := calls[side](); err != nil {
					b.Fatal(err)
				}
				took[side] += time.Since(start)
			}
			i++
		}
		b.ReportMetric(float64(took[0].Nanoseconds())/float64(i), "sdk-ns/call")
		b.ReportMetric(float64(took[1].Nanoseconds())/float64(i), "handwritten-ns/call")
	})

	parallel := func(b *testing.B, call func() error) {
		// RunParallel starts parallelism × GOMAXPROCS goroutines: 32 here.
		b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	// parallel32/alternating runs 32 goroutines that switch together
	// between the SDK and the tuned hand-written client every 50 ms: both
	// sides see the same load, within tenths of a second, and each side's
	// throughput is the calls started in its turns over their time.
	b.Run("parallel32/alternating", func(b *testing.B) {
		c, hc := srv.sdkClient(b), srv.tunedHTTPClient(b)
		const turn = 50 * time.Millisecond
		var calls [2]atomic.Int64
		b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				side := int(time.Since(start)/turn) & 1
				var err error
				if side == 0 {
					err = sdk(ctx, c)
				} else {
					err = hw(ctx, hc, srv.URL)
				}
				if err != nil {
					b.Error(err)
					return
				}
				calls[side].Add(1)
			}
		})
		elapsed := time.Since(start)
		turns := int64(elapsed / turn)
		var spent [2]time.Duration
		spent[0], spent[1] = time.Duration((turns+1)/2)*turn, time.Duration(turns/2)*turn
		spent[turns&1] += elapsed - time.Duration(turns)*turn
		if spent[0] > 0 && spent[1] > 0 {
			b.ReportMetric(float64(calls[0].Load())/spent[0].Seconds(), "sdk-ops/s")
			b.ReportMetric(float64(calls[1].Load())/spent[1].Seconds(), "handwritten-ops/s")
		}
	})
	b.Run("parallel32/sdk", func(b *testing.B) {
		c := srv.sdkClient(b)
		parallel(b, func() error { return sdk(ctx, c) })
	})
	b.Run("parallel32/handwritten-tuned", func(b *testing.B) {
		hc := srv.tunedHTTPClient(b)
		parallel(b, func() error { return hw(ctx, hc, srv.URL) })
	})
	b.Run("parallel32/handwritten-default", func(b *testing.B) {
		hc := srv.defaultHTTPClient(b)
		parallel(b, func() error { return hw(ctx, hc, srv.URL) })
	})
}

// BenchmarkSend is Messages.Send with the OnBehalfOf option: POST
// /v3/messages.
func BenchmarkSend(b *testing.B) {
	compare(b, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Messages.Send(ctx, benchReq, chat.OnBehalfOf("cometchat-uid-2"))
		return err
	}, hwSend)
}

// BenchmarkSendThread is Messages.SendThread: POST /v3/messages/{id}/thread.
func BenchmarkSendThread(b *testing.B) {
	compare(b, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Messages.SendThread(ctx, "401", "cometchat-uid-2", benchReq)
		return err
	}, hwSendThread)
}

// BenchmarkGetUser is Users.Get: GET /v3/users/{uid}.
func BenchmarkGetUser(b *testing.B) {
	compare(b, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Users.Get(ctx, "cometchat-uid-1")
		return err
	}, hwGetUser)
}

// BenchmarkListUsers is one page of Users.List (25 users, a query string):
// GET /v3/users.
func BenchmarkListUsers(b *testing.B) {
	compare(b, func(ctx context.Context, c *chat.Client) error {
		_, err := c.Users.List(ctx, benchUsersQuery)
		return err
	}, hwListUsers)
}

// BenchmarkDecode is Messages.Get of the same message typed as documented
// (strict) and with the type inconsistencies the API is known for
// (lenient): the cost of the SDK's second, lenient decoding pass.
func BenchmarkDecode(b *testing.B) {
	ctx := context.Background()
	srv := newCannedServer(b)
	for _, tc := range []struct{ name, id string }{{"strict", "402"}, {"lenient", "403"}} {
		b.Run(tc.name, func(b *testing.B) {
			c := srv.sdkClient(b)
			b.ReportAllocs()
			for b.Loop() {
				m, err := c.Messages.Get(ctx, tc.id)
				if err != nil {
					b.Fatal(err)
				}
				if m.ID != tc.id || m.ParentID != "401" {
					b.Fatalf("decoded %+v", m)
				}
			}
		})
	}
}
