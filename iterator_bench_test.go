package chat_test

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chatrest/chat"
)

// newMessagePagesServer serves GET /v3/groups/{guid}/messages for the
// groups "g-<total>": pages of generated messages with ids 1 to total, each
// page's meta.next naming its last id, the last page without one. Pages are
// generated on the fly, so the server holds no list of total messages.
func newMessagePagesServer(b *testing.B) *benchServer {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v3/groups/{guid}/messages", func(w http.ResponseWriter, r *http.Request) {
		total, err := strconv.Atoi(strings.TrimPrefix(r.PathValue("guid"), "g-"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		after, _ := strconv.Atoi(q.Get("id"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		limit = min(max(limit, 1), 1000)
		last := min(after+limit, total)
		var sb strings.Builder
		sb.Grow((last - after + 1) * 1024)
		sb.WriteString(`{"data":[`)
		for id := after + 1; id <= last; id++ {
			if id > after+1 {
				sb.WriteByte(',')
			}
			sb.WriteString(benchMessage(strconv.Itoa(id), ""))
		}
		sb.WriteString(`],"meta":{"current":{"limit":` + strconv.Itoa(limit) + `,"count":` + strconv.Itoa(max(last-after, 0)) + `}`)
		if last < total {
			sb.WriteString(`,"next":{"affix":"append","id":"` + strconv.Itoa(last) + `","sentAt":1638423490}`)
		}
		sb.WriteString(`}}`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(sb.String()))
	})
	return newBenchServer(b, mux)
}

// liveHeap is the heap still in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkIterateMessages ranges over Messages.AllGroupMessages, 100
// messages a page, to the end of a group of 10,000 and of 100,000 messages.
// Every 1,000 messages it collects garbage and samples the live heap; it
// reports the peak above the heap in use before the range (peak-heap-B),
// which must not grow with the number of messages, and the time per message
// (ns/msg).
func BenchmarkIterateMessages(b *testing.B) {
	srv := newMessagePagesServer(b)
	for _, total := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(total/1000)+"k", func(b *testing.B) {
			ctx := context.Background()
			c := srv.sdkClient(b)
			guid := "g-" + strconv.Itoa(total)
			opts := &chat.ListGroupMessagesOptions{CursorOptions: chat.CursorOptions{Limit: 100}}
			// One request first, so that the connection and its buffers are
			// part of the baseline.
			if _, err := c.Messages.ListGroupMessages(ctx, guid, opts); err != nil {
				b.Fatal(err)
			}
			base := liveHeap()
			var peak uint64
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for m, err := range c.Messages.AllGroupMessages(ctx, guid, opts) {
					if err != nil {
						b.Fatal(err)
					}
					n++
					if n%1000 == 0 {
						peak = max(peak, liveHeap())
					}
					_ = m
				}
				if n != total {
					b.Fatalf("iterated %d messages, want %d", n, total)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*total), "ns/msg")
			b.ReportMetric(float64(peak-min(peak, base)), "peak-heap-B")
		})
	}
}
