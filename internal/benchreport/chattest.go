package main

import (
	"fmt"
	"time"
)

// chattest's benchmarks: its throughput, a list page at two store sizes,
// Users.Get against a trivial handler, the memory of a stored message, and
// what keeping the state costs.

// listKinds are the sub-benchmarks of BenchmarkListPage.
var listKinds = []struct{ name, title string }{
	{"group-messages", "Messages of a group (`GET /v3/groups/{guid}/messages`, newest 50)"},
	{"user-messages", "Messages of a user pair (`GET /v3/users/{uid}/messages`, newest 50)"},
	{"all-messages", "Messages of the app (`GET /v3/messages`, newest 50)"},
	{"thread", "Replies in a thread (`GET /v3/messages/{id}/thread`, newest 50)"},
	{"users", "Users (`GET /v3/users`, page 2 of 50)"},
	{"groups", "Groups (`GET /v3/groups`, page 2 of 50, onBehalfOf)"},
	{"members", "Members of a group (`GET /v3/groups/{guid}/members`, page 2 of 50)"},
	{"conversations", "Conversations of a user (`GET /v3/conversations`, page 2 of 50, onBehalfOf)"},
}

// keptKinds are the sub-benchmarks of BenchmarkSendKept.
var keptKinds = []struct{ name, title string }{
	{"memory", "in memory (the default)"},
	{"export", "in memory, changes kept for Export (`WithExport`)"},
	{"datadir", "in a data directory (`platform.WithDataDir`): written before each answer, synced in the background"},
	{"datadir-sync", "in a data directory synced before each answer (`platform.SyncEachChange`)"},
}

// chattest's targets.
const (
	pageGrowth = 1.5 // a page's time with 100,000 items stored / with 1,000, at most
	keptShare  = 0.8 // a data directory's send rate / the memory's, side by side, at least
	floorShare = 0.8 // chattest's Users.Get throughput / a trivial handler's, at least
)

// chattest's benchmark runs: -test.benchtime of each.
const (
	floorBenchtime = "400x"  // BenchmarkUsersGetFloor: iterations of 128 requests to each side
	sendBenchtime  = "200x"  // BenchmarkMessagesSendFloor: iterations of 128 sends to each side
	listBenchtime  = "20x"   // BenchmarkListPage: iterations of 10 pages from each server
	keptBenchtime  = "5000x" // BenchmarkSendKept: messages sent
	sideBenchtime  = "60x"   // BenchmarkSendDataDir: iterations of 256 sends to each server
)

// chattestBenchmarks are the benchmarks the chattest section needs.
func chattestBenchmarks() []string {
	names := []string{"ServerThroughput/users-get/serial", "ServerThroughput/users-get/parallel32",
		"ServerThroughput/messages-send/serial", "ServerThroughput/messages-send/parallel32",
		"UsersGetFloor", "MessagesSendFloor", "StoredMessageMemory", "Replay/replay", "Replay/load", "SendDataDir"}
	for _, k := range listKinds {
		names = append(names, "ListPage/"+k.name)
	}
	for _, k := range keptKinds {
		names = append(names, "SendKept/"+k.name)
	}
	return names
}

// runChattest runs chattest's benchmarks (bin) and the local platform's
// (platformBin), cfg.serverCount times each; the comparisons (the Floor
// benchmarks, BenchmarkSendDataDir) cfg.rounds times.
func runChattest(res results, bin, platformBin string, cfg config, start time.Time) error {
	for _, b := range []struct {
		what, pattern, benchtime string
		count                    int
		platform                 bool
	}{
		{"chattest throughput", "^BenchmarkServerThroughput$", cfg.benchtime, cfg.serverCount, false},
		{"a list page at 1,000 and 100,000 items stored", "^BenchmarkListPage$", listBenchtime, cfg.serverCount, false},
		{"Users.Get against a trivial handler", "^BenchmarkUsersGetFloor$", floorBenchtime, cfg.rounds, false},
		{"Messages.Send against a trivial handler", "^BenchmarkMessagesSendFloor$", sendBenchtime, cfg.rounds, false},
		{"the memory of a stored message", "^BenchmarkStoredMessageMemory$", "1x", cfg.serverCount, false},
		{"sends with the state kept", "^BenchmarkSendKept$", keptBenchtime, cfg.serverCount, true},
		{"sends to a data directory and to memory, side by side", "^BenchmarkSendDataDir$", sideBenchtime, cfg.rounds, true},
		{"replaying 100,000 messages", "^BenchmarkReplay$", "1x", cfg.serverCount, false},
	} {
		progress(start, "%s, %d runs", b.what, b.count)
		run := bin
		if b.platform {
			run = platformBin
		}
		if err := bench(res, run, b.pattern, b.benchtime, b.count); err != nil {
			return err
		}
	}
	return nil
}

// writeChattest writes the chattest section; check counts a missed target.
func writeChattest(w func(string, ...any), res results, cfg config, check func(bool) string) {
	w("\n## chattest\n\n")
	w("Through the SDK against one `chattest.NewServer()` (HTTPS, HTTP/2), medians of %d runs unless said otherwise. ", cfg.serverCount)
	w("Each is a benchmark of `./chattest`, or of the local platform's `./platform` in `cmd/chattest` (its module); to run one alone:\n\n```sh\n")
	w("go test ./chattest -run '^$' -bench '^BenchmarkServerThroughput$' -count %d\n", cfg.serverCount)
	w("go test ./chattest -run '^$' -bench '^BenchmarkListPage$' -benchtime %s -count %d\n", listBenchtime, cfg.serverCount)
	w("go test ./chattest -run '^$' -bench '^BenchmarkUsersGetFloor$' -benchtime %s -count %d\n", floorBenchtime, cfg.rounds)
	w("go test ./chattest -run '^$' -bench '^BenchmarkMessagesSendFloor$' -benchtime %s -count %d\n", sendBenchtime, cfg.rounds)
	w("go test ./chattest -run '^$' -bench '^BenchmarkStoredMessageMemory$' -benchtime 1x -count %d\n", cfg.serverCount)
	w("(cd cmd/chattest && go test ./platform -run '^$' -bench '^BenchmarkSendKept$' -benchtime %s -count %d)\n", keptBenchtime, cfg.serverCount)
	w("(cd cmd/chattest && go test ./platform -run '^$' -bench '^BenchmarkSendDataDir$' -benchtime %s -count %d)\n", sideBenchtime, cfg.rounds)
	w("go test ./chattest -run '^$' -bench '^BenchmarkReplay$' -benchtime 1x -count %d\n", cfg.serverCount)
	w("```\n\n")

	w("### Requests a second\n\n")
	w("The server stores every message sent, so the send figure is for a store of that many messages.\n\n")
	w("| Operation | 1 goroutine | 32 goroutines |\n|---|---|---|\n")
	for _, op := range []struct{ name, title string }{{"users-get", "`Users.Get`"}, {"messages-send", "`Messages.Send`"}} {
		w("| %s | %.0f req/s | %.0f req/s |\n", op.title,
			res.median("ServerThroughput/"+op.name+"/serial", "req/s"), res.median("ServerThroughput/"+op.name+"/parallel32", "req/s"))
	}

	w("\n### A list page as the store grows\n\n")
	w("The same page from a server with 1,000 and from one with 100,000 items stored (`BenchmarkListPage`), in batches ")
	w("of 10 alternating between the two within each run, so that both see the same load: messages of a group or a user pair ")
	w("(half the messages stored are theirs), of the app, and replies in a thread; users; groups and members (the acting ")
	w("user is in every group); the conversations of a user who has one with every other user. The ratio is the median of ")
	w("each run's 100,000 / 1,000 time.\n\n")
	w("| List | 1,000 stored | 100,000 stored | Ratio | Target | |\n|---|---|---|---|---|---|\n")
	for _, k := range listKinds {
		name := "ListPage/" + k.name
		r := res.median(name, "ratio")
		w("| %s | %s | %s | **%.2f×** | ≤ %.2f× | %s |\n", k.title, micros(res.median(name, "1k-ns/page")), micros(res.median(name, "100k-ns/page")),
			r, pageGrowth, check(r <= pageGrowth))
	}
	w("\nA filter that no index serves (a search, a tag, a status...) is applied as the walk goes: a cursor page costs what it ")
	w("skips, and a page-based page with such a filter walks the whole list to count its total. The conversations of the ")
	w("whole app (`GET /v3/conversations` without onBehalfOf) are counted user by user, so that page grows with the users.\n")

	w("\n### Against a trivial handler\n\n")
	r := res.median("UsersGetFloor", "ratio")
	w("`Users.Get` and `Messages.Send` from 32 goroutines against chattest, and against a handler that answers the same bytes ")
	w("chattest answers (its X-Rate-Limit-Remaining counted down as chattest counts it; for a send, chattest's answer to the first ")
	w("send) on the same TLS stack (httptest, HTTP/2) and client, in batches of 128 alternating between the two within each run, ")
	w("so that both see the same load (`BenchmarkUsersGetFloor`, `BenchmarkMessagesSendFloor`, %d runs of %s and %s).\n\n",
		cfg.rounds, floorBenchtime, sendBenchtime)
	w("| Operation | chattest | Trivial handler | Ratio | Target | |\n|---|---|---|---|---|---|\n")
	w("| `Users.Get` | %.0f req/s | %.0f req/s | **%.2f×** | ≥ %.2f× | %s |\n", res.median("UsersGetFloor", "chattest-req/s"),
		res.median("UsersGetFloor", "floor-req/s"), r, floorShare, check(r >= floorShare))
	w("| `Messages.Send` | %.0f req/s | %.0f req/s | **%.2f×** | | |\n", res.median("MessagesSendFloor", "chattest-req/s"),
		res.median("MessagesSendFloor", "floor-req/s"), res.median("MessagesSendFloor", "ratio"))

	w("\n### Memory per stored message\n\n")
	w("20,000 one-on-one messages sent through the SDK: the live heap after a collection, less the heap before the sends, ")
	w("per message (`BenchmarkStoredMessageMemory`): **%.0f bytes**, the message with its entities, and its ", res.median("StoredMessageMemory", "B/msg"))
	w("places in the indexes (the app's, the pair's, each user's and the conversation's).\n")

	w("\n### Keeping the state\n\n")
	w("`Messages.Send` from 32 goroutines (`BenchmarkSendKept`, %s sends a run), the state kept:\n\n", keptBenchtime)
	w("| State | Sends a second | Against the default |\n|---|---|---|\n")
	for _, k := range keptKinds {
		name := "SendKept/" + k.name
		w("| %s | %.0f req/s | %.2f× |\n", k.title, res.median(name, "req/s"), res.ratio(name, "SendKept/memory", "req/s"))
	}
	side := res.median("SendDataDir", "datadir/memory")
	w("\nSide by side, in one process (`BenchmarkSendDataDir`, %d runs of %s batches of 256 sends from 32 goroutines to each server, alternating): ", cfg.rounds, sideBenchtime)
	w("a data directory sends %.0f a second where memory sends %.0f, **%.2f×** (the median of the runs' ratios; target ≥ %.2f×: %s).\n",
		res.median("SendDataDir", "datadir-req/s"), res.median("SendDataDir", "memory-req/s"), side, keptShare, check(side >= keptShare))
	w("\nA server whose seed file of format 1 (the changes) holds 1,000 users and 100,000 messages starts in **%.1f s** ", res.median("Replay/replay", "s/100k-messages"))
	w("(%.0f µs a change replayed, `BenchmarkReplay/replay`); from the same state as records (format 3, what `Export` writes) in **%.1f s** (`BenchmarkReplay/load`).\n",
		res.median("Replay/replay", "ns/change")/1e3, res.median("Replay/load", "s/100k-messages"))
}

// micros formats nanoseconds as microseconds or milliseconds.
func micros(ns float64) string {
	if ns >= 1e6 {
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
	return fmt.Sprintf("%.0f µs", ns/1e3)
}
