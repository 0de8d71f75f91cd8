package chat_test

// Benchmarks of the SDK against hand-written net/http + encoding/json calls
// of the same shape, on the same loopback HTTPS server, in the same run.
// BENCHMARKS.md is produced from them by `go run ./internal/benchreport`.

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/chatrest/chat"
)

// threadReply is the body the bench server answers with: a threaded reply
// as the reference shows one, entities included.
const threadReply = `{"data":{"id":"402","muid":"","conversationId":"cometchat-uid-1_user_cometchat-uid-2","sender":"cometchat-uid-2","receiverType":"user","receiver":"cometchat-uid-1","category":"message","type":"text","data":{"text":"On it!","metadata":{"key1":"val1"},"entities":{"sender":{"entity":{"uid":"cometchat-uid-2","name":"George Alan","status":"offline","role":"default","createdAt":1638361550},"entityType":"user"},"receiver":{"entity":{"uid":"cometchat-uid-1","name":"Andrew Joseph","status":"offline","role":"default","createdAt":1638361550,"conversationId":"cometchat-uid-1_user_cometchat-uid-2"},"entityType":"user"}}},"sentAt":1638423490,"updatedAt":1638423490,"parentId":"401","editedAt":null,"editedBy":"","deliveredAt":null,"readAt":null,"deletedAt":null}}`

type benchServer struct {
	*httptest.Server
	pool *x509.CertPool
}

// newBenchServer serves the canned reply over HTTPS/1.1 on loopback: the
// service speaks HTTPS, and HTTP/1.1 is where connection reuse matters.
func newBenchServer(b *testing.B) *benchServer {
	body := []byte(threadReply)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	// Connections the default-transport client drops mid-handshake are
	// expected under 32-way load; keep their log lines out of the output.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	b.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &benchServer{Server: srv, pool: pool}
}

// sdkClient is the SDK as a user builds it: default (tuned) transport with
// only the test certificate trusted.
func (s *benchServer) sdkClient(b *testing.B) *chat.Client {
	t := chat.NewTransport()
	t.TLSClientConfig = &tls.Config{RootCAs: s.pool}
	c, err := chat.NewClient("bench-app", "0123456789abcdef0123456789abcdef01234567",
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

// Hand-written types of the same shape as the SDK's, without its lenient
// decoding.
type (
	hwSendMessage struct {
		Receiver     string        `json:"receiver"`
		ReceiverType string        `json:"receiverType"`
		Category     string        `json:"category,omitempty"`
		Type         string        `json:"type,omitempty"`
		Data         hwMessageData `json:"data"`
	}
	hwMessageData struct {
		Text     string         `json:"text,omitempty"`
		Metadata map[string]any `json:"metadata,omitempty"`
		Entities *struct {
			Sender   *hwEntity `json:"sender,omitempty"`
			Receiver *hwEntity `json:"receiver,omitempty"`
		} `json:"entities,omitempty"`
	}
	// hwEntity keeps the entity as JSON, as the SDK does until asked.
	hwEntity struct {
		Entity     json.RawMessage `json:"entity"`
		EntityType string          `json:"entityType"`
	}
	hwMessage struct {
		ID             string        `json:"id"`
		MUID           string        `json:"muid"`
		ConversationID string        `json:"conversationId"`
		Sender         string        `json:"sender"`
		ReceiverType   string        `json:"receiverType"`
		Receiver       string        `json:"receiver"`
		Category       string        `json:"category"`
		Type           string        `json:"type"`
		Data           hwMessageData `json:"data"`
		SentAt         int64         `json:"sentAt"`
		UpdatedAt      int64         `json:"updatedAt"`
		ParentID       string        `json:"parentId"`
		EditedAt       *int64        `json:"editedAt"`
		EditedBy       string        `json:"editedBy"`
		DeliveredAt    *int64        `json:"deliveredAt"`
		ReadAt         *int64        `json:"readAt"`
		DeletedAt      *int64        `json:"deletedAt"`
	}
)

var benchReq = &chat.SendMessageRequest{
	Receiver: "cometchat-uid-1", ReceiverType: chat.ReceiverUser,
	Data: chat.MessageData{Text: "On it!", Metadata: map[string]any{"key1": "val1"}},
}

var hwReq = &hwSendMessage{
	Receiver: "cometchat-uid-1", ReceiverType: "user",
	Data: hwMessageData{Text: "On it!", Metadata: map[string]any{"key1": "val1"}},
}

// handWrittenSendThread is what a user would write without the SDK.
func handWrittenSendThread(ctx context.Context, hc *http.Client, base, parentID, onBehalfOf string) (*hwMessage, error) {
	body, err := json.Marshal(hwReq)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v3/messages/"+parentID+"/thread", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("apikey", "0123456789abcdef0123456789abcdef01234567")
	req.Header.Set("onBehalfOf", onBehalfOf)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var env struct {
		Data hwMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, err
	}
	return &env.Data, nil
}

func BenchmarkSendThread(b *testing.B) {
	ctx := context.Background()
	srv := newBenchServer(b)

	b.Run("serial/sdk", func(b *testing.B) {
		c := srv.sdkClient(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Messages.SendThread(ctx, "401", "cometchat-uid-2", benchReq); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("serial/handwritten", func(b *testing.B) {
		hc := srv.tunedHTTPClient(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := handWrittenSendThread(ctx, hc, srv.URL, "401", "cometchat-uid-2"); err != nil {
				b.Fatal(err)
			}
		}
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
	b.Run("parallel32/sdk", func(b *testing.B) {
		c := srv.sdkClient(b)
		parallel(b, func() error {
			_, err := c.Messages.SendThread(ctx, "401", "cometchat-uid-2", benchReq)
			return err
		})
	})
	b.Run("parallel32/handwritten-tuned", func(b *testing.B) {
		hc := srv.tunedHTTPClient(b)
		parallel(b, func() error {
			_, err := handWrittenSendThread(ctx, hc, srv.URL, "401", "cometchat-uid-2")
			return err
		})
	})
	b.Run("parallel32/handwritten-default", func(b *testing.B) {
		hc := srv.defaultHTTPClient(b)
		parallel(b, func() error {
			_, err := handWrittenSendThread(ctx, hc, srv.URL, "401", "cometchat-uid-2")
			return err
		})
	})
}
