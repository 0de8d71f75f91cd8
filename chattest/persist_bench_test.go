package chattest_test

import (
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
)

// BenchmarkSendDataDir sends messages through the SDK from 32 goroutines
// to two servers side by side, one keeping its state in memory only and
// one in a data directory (synced before each answer), in batches of 256
// that alternate between the two (which goes first alternates too), so
// that both see the same load on the machine. It reports each one's sends
// a second, and datadir/memory: the data directory's rate as a share of
// the memory's.
func BenchmarkSendDataDir(b *testing.B) {
	const batch, goroutines = 256, 32
	memory := chattest.NewServer()
	defer memory.Close()
	kept, err := chattest.OpenServer(chattest.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer kept.Close()
	var clients [2]*chat.Client
	for i, srv := range []*chattest.Server{memory, kept} {
		seed(srv, "alice", "bob")
		clients[i] = srv.Client()
		defer clients[i].CloseIdleConnections()
		if err := sendMany(clients[i], batch, goroutines); err != nil { // the connections made
			b.Fatal(err)
		}
	}
	var spent [2]time.Duration
	n := 0
	for b.Loop() {
		for k := range 2 {
			i := (n + k) % 2
			start := time.Now()
			if err := sendMany(clients[i], batch, goroutines); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
		n++
	}
	sends := float64(n * batch)
	b.ReportMetric(sends/spent[0].Seconds(), "memory-req/s")
	b.ReportMetric(sends/spent[1].Seconds(), "datadir-req/s")
	b.ReportMetric(spent[0].Seconds()/spent[1].Seconds(), "datadir/memory")
}
