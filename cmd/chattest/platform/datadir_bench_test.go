package platform_test

import (
	"testing"
	"time"

	"github.com/chatrest/chat"
	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
	"github.com/chatrest/chat/internal/faketest"
)

// BenchmarkSendDataDir sends messages through the SDK from 32 goroutines
// to three servers side by side: one keeping its state in memory only,
// one in a data directory (its log synced in the background, the
// default) and one in a data directory synced before each answer
// (SyncEachChange). The sends go in batches of 256 that take turns among
// the three (which goes first turns too), so that all see the same load
// on the machine. It reports each one's sends a second, and datadir/memory
// and datadir-sync/memory: a data directory's rate as a share of the
// memory's.
func BenchmarkSendDataDir(b *testing.B) {
	const batch, goroutines = 256, 32
	memory := chattest.NewServer()
	defer memory.Close()
	kept, err := chattest.OpenServer(platform.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer kept.Close()
	synced, err := chattest.OpenServer(platform.WithDataDir(b.TempDir(), platform.SyncEachChange()))
	if err != nil {
		b.Fatal(err)
	}
	defer synced.Close()
	servers := []*chattest.Server{memory, kept, synced}
	clients := make([]*chat.Client, len(servers))
	for i, srv := range servers {
		seed(srv, "alice", "bob")
		clients[i] = srv.Client()
		defer clients[i].CloseIdleConnections()
		if err := faketest.SendMany(clients[i], batch, goroutines); err != nil { // the connections made
			b.Fatal(err)
		}
	}
	spent := make([]time.Duration, len(servers))
	n := 0
	for b.Loop() {
		for k := range servers {
			i := (n + k) % len(servers)
			start := time.Now()
			if err := faketest.SendMany(clients[i], batch, goroutines); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
		n++
	}
	sends := float64(n * batch)
	b.ReportMetric(sends/spent[0].Seconds(), "memory-req/s")
	b.ReportMetric(sends/spent[1].Seconds(), "datadir-req/s")
	b.ReportMetric(sends/spent[2].Seconds(), "datadir-sync-req/s")
	b.ReportMetric(spent[0].Seconds()/spent[1].Seconds(), "datadir/memory")
	b.ReportMetric(spent[0].Seconds()/spent[2].Seconds(), "datadir-sync/memory")
}
