// Command benchreport runs the SDK's benchmarks against their hand-written
// baselines and writes BENCHMARKS.md: medians, ratios against targets, the
// iterator's peak heap, chattest's requests per second, and the profile
// notes (profile.md, kept by hand):
//
//	go run ./internal/benchreport               # writes BENCHMARKS.md, about 5 minutes
//	go run ./internal/benchreport -rounds 4     # quicker, noisier
//	go run ./internal/benchreport -o /tmp/b.md  # elsewhere
//
// It builds the test binaries once, then runs every comparison benchmark
// once per round, so that each SDK benchmark and its baseline run seconds
// apart; a ratio is the median of the rounds' ratios. That holds on a noisy
// machine where absolute times do not. It prints its progress to stderr and
// fails, writing nothing, when a benchmark fails or is missing.
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed profile.md
var profileNotes string

// metrics are one run of one benchmark: ns/op, B/op, allocs/op and any
// custom metric, by unit.
type metrics map[string]float64

// results holds every run of every benchmark, by name without the
// -GOMAXPROCS suffix.
type results map[string][]metrics

// median is the median of a unit over a benchmark's runs.
func (r results) median(name, unit string) float64 {
	var v []float64
	for _, m := range r[name] {
		v = append(v, m[unit])
	}
	return median(v)
}

// ratio is the median over rounds of num's unit divided by den's: each
// round's two figures were measured seconds apart.
func (r results) ratio(num, den, unit string) float64 {
	a, b := r[num], r[den]
	var v []float64
	for i := range min(len(a), len(b)) {
		if b[i][unit] != 0 {
			v = append(v, a[i][unit]/b[i][unit])
		}
	}
	return median(v)
}

// within is the median over rounds of one benchmark's num metric divided
// by its den metric: two figures measured call by call, alternating.
func (r results) within(name, num, den string) float64 {
	var v []float64
	for _, m := range r[name] {
		if m[den] != 0 {
			v = append(v, m[num]/m[den])
		}
	}
	return median(v)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// operations are the compared operations: each has the sub-benchmarks
// serial/sdk, serial/handwritten, serial/alternating,
// parallel32/alternating, parallel32/sdk,
// parallel32/handwritten-tuned and parallel32/handwritten-default.
var operations = []struct{ bench, title string }{
	{"Send", "Send (`Messages.Send`, POST /v3/messages)"},
	{"SendThread", "Threaded reply (`Messages.SendThread`, POST /v3/messages/{id}/thread)"},
	{"GetUser", "Get (`Users.Get`, GET /v3/users/{uid})"},
	{"ListUsers", "One list page (`Users.List`, 25 users, GET /v3/users?perPage=25&page=2&withTags=true)"},
}

// Targets.
const (
	serialTime    = 1.03 // SDK time / hand-written time, at most
	serialAllocs  = 1.00 // SDK allocations / hand-written allocations, at most
	tunedParallel = 0.97 // SDK throughput / tuned hand-written throughput, at least
	defaultClient = 1.8  // SDK throughput / http.DefaultClient throughput, at least
	heapGrowth    = 1.10 // peak heap at 100k / peak heap at 10k, at most
)

type config struct {
	rounds, iterCount, serverCount int
	benchtime                      string
	out                            string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.rounds, "rounds", 8, "runs of each comparison benchmark; the report uses medians")
	flag.StringVar(&cfg.benchtime, "benchtime", "1s", "-test.benchtime of the comparison and chattest benchmarks")
	flag.IntVar(&cfg.iterCount, "iter-count", 3, "runs of the 100,000-message iteration")
	flag.IntVar(&cfg.serverCount, "server-count", 3, "runs of the chattest benchmarks")
	flag.StringVar(&cfg.out, "o", "BENCHMARKS.md", "report file")
	flag.Parse()
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func run(cfg config) error {
	start := time.Now()
	dir, err := os.MkdirTemp("", "benchreport")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sdkBin, serverBin, platformBin := filepath.Join(dir, "chat.test"), filepath.Join(dir, "chattest.test"), filepath.Join(dir, "platform.test")
	for _, b := range []struct{ bin, module, pkg string }{{sdkBin, ".", "."}, {serverBin, ".", "./chattest"}, {platformBin, "cmd/chattest", "./platform"}} {
		progress(start, "building the test binary of %s", filepath.Join(b.module, b.pkg))
		cmd := exec.Command("go", "test", "-c", "-o", b.bin, b.pkg)
		cmd.Dir = b.module // the local platform is a module of its own
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go test -c %s: %w", b.pkg, err)
		}
	}

	res := results{}
	var compared []string
	for _, op := range operations {
		compared = append(compared, op.bench)
	}
	compared = append(compared, "Decode")
	comparePattern := "^Benchmark(" + strings.Join(compared, "|") + ")$"
	for i := range cfg.rounds {
		progress(start, "comparisons, round %d of %d (about %d s a round)", i+1, cfg.rounds, 35*seconds(cfg.benchtime))
		if err := bench(res, sdkBin, comparePattern, cfg.benchtime, 1); err != nil {
			return err
		}
	}
	progress(start, "iterating 10,000 and 100,000 messages, %d runs", cfg.iterCount)
	if err := bench(res, sdkBin, "^BenchmarkIterateMessages$", "1x", cfg.iterCount); err != nil {
		return err
	}
	if err := runChattest(res, serverBin, platformBin, cfg, start); err != nil { // chattest.go
		return err
	}

	if err := checkPresent(res); err != nil {
		return err
	}
	report, missed := write(res, cfg, time.Since(start))
	if err := os.WriteFile(cfg.out, []byte(report), 0o644); err != nil {
		return err
	}
	progress(start, "wrote %s: %d of the targets missed", cfg.out, missed)
	return nil
}

func progress(start time.Time, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchreport [%s] %s\n", time.Since(start).Round(time.Second), fmt.Sprintf(format, args...))
}

func seconds(benchtime string) int {
	d, err := time.ParseDuration(benchtime)
	if err != nil {
		return 1
	}
	return max(1, int(d.Round(time.Second)/time.Second))
}

// line is a benchmark result line: name, iterations, then value-unit pairs.
var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// bench runs the benchmarks of bin matching pattern and adds their results
// to res.
func bench(res results, bin, pattern, benchtime string, count int) error {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", pattern, "-test.benchmem",
		"-test.benchtime", benchtime, "-test.count", strconv.Itoa(count))
	cmd.Dir = "."
	if strings.HasSuffix(bin, "chattest.test") {
		cmd.Dir = "chattest"
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	err := cmd.Run()
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		text := sc.Text()
		if strings.HasPrefix(text, "--- FAIL") || strings.HasPrefix(text, "FAIL") || strings.Contains(text, "panic:") {
			err = errors.Join(err, errors.New(text))
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		ms := metrics{}
		for i := 0; i+1 < len(f); i += 2 {
			v, perr := strconv.ParseFloat(f[i], 64)
			if perr != nil {
				return fmt.Errorf("cannot read %q", text)
			}
			ms[f[i+1]] = v
		}
		res[m[1]] = append(res[m[1]], ms)
	}
	if err != nil {
		return fmt.Errorf("%s -test.bench %s: %w\n%s", filepath.Base(bin), pattern, err, out.String())
	}
	return nil
}

// checkPresent fails when a benchmark the report needs did not run.
func checkPresent(res results) error {
	var missing []string
	need := func(name string) {
		if len(res[name]) == 0 {
			missing = append(missing, name)
		}
	}
	for _, op := range operations {
		for _, sub := range []string{"serial/sdk", "serial/handwritten", "serial/alternating", "parallel32/alternating", "parallel32/sdk", "parallel32/handwritten-tuned", "parallel32/handwritten-default"} {
			need(op.bench + "/" + sub)
		}
	}
	for _, n := range append([]string{"Decode/strict", "Decode/lenient", "IterateMessages/10k", "IterateMessages/100k"}, chattestBenchmarks()...) {
		need(n)
	}
	if len(missing) > 0 {
		return fmt.Errorf("benchmarks missing from the run (renamed or removed?): %s", strings.Join(missing, ", "))
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "**FAIL**"
}

// write renders the report and counts the targets missed.
func write(res results, cfg config, took time.Duration) (string, int) {
	missed := 0
	check := func(ok bool) string {
		if !ok {
			missed++
		}
		return verdict(ok)
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	w("# Benchmarks\n\n")
	w("Regenerate with:\n\n```sh\ngo run ./internal/benchreport\n```\n\n")
	w("It took %d minutes for this report (%s, %s/%s, GOMAXPROCS=%d, %s, %s); flags: `-rounds` (default 8), `-benchtime` (default 1s), `-o`. ",
		int(took.Round(time.Minute)/time.Minute), revision(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	w("It builds the test binaries once and runs each comparison benchmark once per round (%d rounds, `-test.benchtime %s`), ", cfg.rounds, cfg.benchtime)
	w("so that the SDK and its hand-written baseline run seconds apart against the same loopback HTTPS/1.1 server; ")
	w("a ratio is the median of the rounds' ratios, absolute figures are medians. Compare the ratios: absolute times depend on the machine and its load.\n\n")

	w("## SDK against hand-written code\n\n")
	w("| Operation | Comparison | SDK | Hand-written | Ratio | Target | |\n|---|---|---|---|---|---|---|\n")
	for _, op := range operations {
		sdk, hw := op.bench+"/serial/sdk", op.bench+"/serial/handwritten"
		alt := op.bench + "/serial/alternating"
		tr, ar := res.within(alt, "sdk-ns/call", "handwritten-ns/call"), res.ratio(sdk, hw, "allocs/op")
		w("| %s | serial | %.0f ns/op, %.0f allocs/op | %.0f ns/op, %.0f allocs/op | **%.2f×** time, **%.2f×** allocations | ≤ %.2f× time, ≤ %.2f× allocations | %s |\n",
			op.title, res.median(alt, "sdk-ns/call"), res.median(sdk, "allocs/op"), res.median(alt, "handwritten-ns/call"), res.median(hw, "allocs/op"),
			tr, ar, serialTime, serialAllocs, check(tr <= serialTime && ar <= serialAllocs))
		psdk := op.bench + "/parallel32/sdk"
		for _, base := range []struct {
			sub, title string
			target     float64
		}{{"handwritten-tuned", "32 goroutines, vs a tuned pooled client", tunedParallel}, {"handwritten-default", "32 goroutines, vs http.DefaultClient's transport", defaultClient}} {
			pb := op.bench + "/parallel32/" + base.sub
			r := res.ratio(pb, psdk, "ns/op") // throughput ratio: their time per op over ours
			if base.sub == "handwritten-tuned" {
				// Against the tuned client the ratio is read from the
				// run in which the two take turns on one load.
				r = res.within(op.bench+"/parallel32/alternating", "sdk-ops/s", "handwritten-ops/s")
			}
			w("| | %s | %.0f ops/s | %.0f ops/s | **%.2f×** throughput | ≥ %.2f× throughput | %s |\n",
				base.title, 1e9/res.median(psdk, "ns/op"), 1e9/res.median(pb, "ns/op"), r, base.target, check(r >= base.target))
		}
	}

	w("\n## Iterating 100,000 messages\n\n")
	w("`Messages.AllGroupMessages` over a group of 10,000 and of 100,000 messages, 100 a page, from a loopback server that generates each page on the fly (median of %d runs). ", cfg.iterCount)
	w("Every 1,000 messages the benchmark collects garbage and samples the live heap; *peak heap* is the highest sample above the heap in use before the range. It must not grow with the number of messages.\n\n")
	w("| Messages | Peak heap | Time per message | Allocated per message | Allocations per message |\n|---|---|---|---|---|\n")
	for _, n := range []struct {
		name  string
		count float64
	}{{"10k", 10_000}, {"100k", 100_000}} {
		name := "IterateMessages/" + n.name
		w("| %s | %s | %.1f µs | %.0f B | %.1f |\n", strings.Replace(n.name, "k", ",000", 1),
			kib(res.median(name, "peak-heap-B")), res.median(name, "ns/msg")/1e3,
			res.median(name, "B/op")/n.count, res.median(name, "allocs/op")/n.count)
	}
	growth := res.median("IterateMessages/100k", "peak-heap-B") / res.median("IterateMessages/10k", "peak-heap-B")
	w("\nPeak heap at 100,000 / at 10,000: **%.2f×** (target ≤ %.2f×: %s).\n", growth, heapGrowth, check(growth <= heapGrowth))

	writeChattest(w, res, cfg, check) // chattest.go
	w("\n## All benchmarks (medians)\n\n| Benchmark | ns/op | B/op | allocs/op | runs |\n|---|---|---|---|---|\n")
	names := make([]string, 0, len(res))
	for n := range res {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		w("| %s | %.0f | %.0f | %.0f | %d |\n", n, res.median(n, "ns/op"), res.median(n, "B/op"), res.median(n, "allocs/op"), len(res[n]))
	}

	w("\n## What is measured\n\n")
	w("- **serial**: one goroutine; times from *serial/alternating*, which calls the two sides in turn (alternating which goes first) and times each call, so that both see the same moments of the machine's load; allocations from *serial/sdk* and *serial/handwritten*, each alone. The SDK call against a hand-written `net/http` + `encoding/json` request with the same method, path, headers (apikey, onBehalfOf where the SDK sends it, Accept, Content-Type) and JSON body, decoding the same reply into structs of the same shape as the SDK's models (every field; entities kept as raw JSON, as the SDK keeps them until asked). Both use a pooled transport. The SDK also sends a `muid` it generates (for retries without duplicates) and a User-Agent; the hand-written send builds the same body, muid included.\n")
	w("- **parallel32**: 32 goroutines. The throughput ratio against the tuned client is read from *parallel32/alternating*, in which the 32 goroutines switch together between the SDK and the tuned client every 50 ms, so that both see the same load; the ops/s columns are from the runs of each alone. *handwritten-tuned* is a hand-written client whose transport keeps 256 idle connections per host; *handwritten-default* uses `http.DefaultTransport`'s settings (what `http.DefaultClient` uses), whose 2 idle connections per host force new TLS connections under concurrency. The SDK's default transport (`chat.NewTransport`) is tuned for this.\n")
	w("- **Decode**: `Messages.Get` of a message typed as documented (*strict*) and of the same message with a numeric id and parent id and a count in a string (*lenient*): the cost of the SDK's second, lenient decoding pass, which only runs on a type mismatch.\n")
	w("- Allocation and byte counts are the whole process's: they include the loopback server's, the same for both sides.\n")

	w("\n%s", profileNotes)
	return b.String(), missed
}

// revision names the code measured: the commit, and whether the working
// tree had changes.
func revision() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "revision unknown"
	}
	rev := "commit " + strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += " with uncommitted changes"
	}
	return rev
}

func kib(bytes float64) string {
	return strconv.FormatFloat(bytes/1024, 'f', 0, 64) + " KiB"
}
