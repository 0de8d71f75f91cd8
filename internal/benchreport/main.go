// Command benchreport runs the SDK's benchmarks against their hand-written
// baselines and writes BENCHMARKS.md with medians and ratios:
//
//	go run ./internal/benchreport            # writes BENCHMARKS.md
//	go run ./internal/benchreport -count 10  # more runs per benchmark
//
// The benchmarks compare the SDK with hand-written net/http code on the same
// loopback server in the same run, so the ratios hold on a noisy machine
// where absolute times do not.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// result is the median of a benchmark's runs.
type result struct {
	nsPerOp, allocsPerOp, bytesPerOp float64
}

// comparison is one line of the report: an SDK benchmark against a baseline.
type comparison struct {
	title, sdk, base string
	// throughput compares operations per second (higher is better for the
	// SDK) instead of time and allocations per operation.
	throughput bool
	target     string
}

var comparisons = []comparison{
	{"SendThread, serial", "SendThread/serial/sdk", "SendThread/serial/handwritten", false, "time ≤ 1.05×, allocations ≤ 1.15×"},
	{"SendThread, 32 goroutines vs hand-written tuned pooled client", "SendThread/parallel32/sdk", "SendThread/parallel32/handwritten-tuned", true, "throughput ≥ 0.97×"},
	{"SendThread, 32 goroutines vs hand-written through http.DefaultClient's transport", "SendThread/parallel32/sdk", "SendThread/parallel32/handwritten-default", true, "throughput ≥ 1.8×"},
}

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) B/op)?(?:\s+([\d.]+) allocs/op)?`)

func main() {
	count := flag.Int("count", 6, "runs per benchmark (the report uses medians)")
	benchtime := flag.String("benchtime", "1s", "go test -benchtime")
	out := flag.String("o", "BENCHMARKS.md", "report file")
	flag.Parse()

	args := []string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-count", strconv.Itoa(*count), "-benchtime", *benchtime, "."}
	cmd := exec.Command("go", args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	fmt.Fprintln(os.Stderr, "running: go", strings.Join(args, " "))
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}

	runs := map[string][]result{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := result{nsPerOp: num(m[2]), bytesPerOp: num(m[3]), allocsPerOp: num(m[4])}
		runs[m[1]] = append(runs[m[1]], r)
	}
	med := map[string]result{}
	for name, rs := range runs {
		med[name] = median(rs)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\n")
	fmt.Fprintf(&b, "Produced by `go run ./internal/benchreport` (which runs `go %s`) on %s, %s/%s, GOMAXPROCS=%d, %s.\n\n",
		strings.Join(args, " "), time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintf(&b, "Each figure is the median of %d runs. The SDK and a hand-written `net/http` + `encoding/json` call of the same shape hit the same loopback HTTPS/1.1 server in the same run; compare the ratios, not the absolute times, which depend on the machine.\n\n", *count)
	fmt.Fprintf(&b, "## Ratios\n\n| Comparison | SDK | Baseline | Ratio | Target |\n|---|---|---|---|---|\n")
	for _, c := range comparisons {
		s, okS := med[c.sdk]
		base, okB := med[c.base]
		if !okS || !okB {
			fmt.Fprintf(&b, "| %s | missing | missing | — | %s |\n", c.title, c.target)
			continue
		}
		if c.throughput {
			fmt.Fprintf(&b, "| %s | %.0f ops/s | %.0f ops/s | **%.2f×** throughput | %s |\n",
				c.title, 1e9/s.nsPerOp, 1e9/base.nsPerOp, base.nsPerOp/s.nsPerOp, c.target)
			continue
		}
		fmt.Fprintf(&b, "| %s | %.0f ns/op, %.0f allocs/op | %.0f ns/op, %.0f allocs/op | **%.2f×** time, **%.2f×** allocations | %s |\n",
			c.title, s.nsPerOp, s.allocsPerOp, base.nsPerOp, base.allocsPerOp, s.nsPerOp/base.nsPerOp, s.allocsPerOp/base.allocsPerOp, c.target)
	}
	fmt.Fprintf(&b, "\n## All benchmarks (medians)\n\n| Benchmark | ns/op | B/op | allocs/op |\n|---|---|---|---|\n")
	names := make([]string, 0, len(med))
	for n := range med {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		r := med[n]
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.0f |\n", n, r.nsPerOp, r.bytesPerOp, r.allocsPerOp)
	}
	fmt.Fprintf(&b, "\n## What is measured\n\n")
	fmt.Fprintf(&b, "- **serial**: one goroutine; the SDK's `Messages.SendThread` against a hand-written request with the same headers and body, decoding the same reply into a struct of the same shape (entities kept as raw JSON, as the SDK keeps them until asked). Both use a pooled transport.\n")
	fmt.Fprintf(&b, "- **parallel32**: 32 goroutines. *handwritten-tuned* is a hand-written client whose transport keeps 256 idle connections per host; *handwritten-default* uses `http.DefaultTransport`'s settings (what `http.DefaultClient` uses), whose 2 idle connections per host force new TLS connections under concurrency. The SDK's default transport (`chat.NewTransport`) is tuned for this.\n")
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "wrote", *out)
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func median(rs []result) result {
	pick := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return result{
		nsPerOp:     pick(func(r result) float64 { return r.nsPerOp }),
		bytesPerOp:  pick(func(r result) float64 { return r.bytesPerOp }),
		allocsPerOp: pick(func(r result) float64 { return r.allocsPerOp }),
	}
}
