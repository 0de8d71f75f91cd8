package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows how an import advances: a bar with the rate and the time
// left on a terminal, a plain line every interval otherwise (a log, a CI
// job's output).
type progress struct {
	kind     string
	total    int64 // records in the file; -1 when unknown
	start    int64 // records done when the run began
	began    time.Time
	bar      *progressbar.ProgressBar
	w        io.Writer
	interval time.Duration
	last     time.Time
	printed  string // the last line written
}

func newProgress(w io.Writer, terminal bool, interval time.Duration, kind string, total, start int64) *progress {
	p := &progress{kind: kind, total: total, start: start, began: time.Now(), w: w, interval: interval}
	p.last = p.began
	if terminal {
		max := total
		if max < 0 {
			max = -1 // a spinner
		}
		p.bar = progressbar.NewOptions64(max,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(kind),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("records"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		p.bar.Set64(start)
	}
	return p
}

// update shows the counts of cp, on a terminal at once, otherwise when the
// interval has passed since the last line.
func (p *progress) update(cp *checkpoint) {
	if p.bar != nil {
		p.bar.Set64(cp.Records)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= p.interval {
		p.last = now
		p.printed = p.counts(cp)
		fmt.Fprintln(p.w, p.line(cp, now))
	}
}

// finish ends the bar, or writes a last line when the counts changed since
// the one before.
func (p *progress) finish(cp *checkpoint) {
	if p.bar != nil {
		if p.total >= 0 && cp.Records >= p.total {
			p.bar.Finish()
		} else {
			p.bar.Exit()
			fmt.Fprintln(p.w)
		}
		return
	}
	if p.counts(cp) != p.printed {
		fmt.Fprintln(p.w, p.line(cp, time.Now()))
	}
}

// counts identifies the counts of cp, to tell whether a line shows them.
func (p *progress) counts(cp *checkpoint) string {
	return fmt.Sprint(cp.Records, cp.Imported, cp.AlreadyPresent, cp.Refused)
}

// line is the plain progress line: done/total records, the rate of this
// run, the time left at that rate, and the counts.
func (p *progress) line(cp *checkpoint, now time.Time) string {
	s := "chat: " + p.kind + ": " + thousands(cp.Records)
	if p.total >= 0 {
		s += "/" + thousands(p.total) + " records"
		if p.total > 0 {
			s += fmt.Sprintf(" (%.1f%%)", 100*float64(cp.Records)/float64(p.total))
		}
	} else {
		s += " records"
	}
	elapsed := now.Sub(p.began)
	if done := cp.Records - p.start; done > 0 && elapsed > 0 {
		rate := float64(done) / elapsed.Seconds()
		s += fmt.Sprintf(", %s records/s", thousands(int64(rate+0.5)))
		if p.total > cp.Records {
			left := time.Duration(float64(p.total-cp.Records) / rate * float64(time.Second))
			s += ", " + left.Round(time.Second).String() + " left"
		}
	}
	return s + fmt.Sprintf(": %s imported, %s already present, %s refused",
		thousands(cp.Imported), thousands(cp.AlreadyPresent), thousands(cp.Refused))
}

// thousands writes n with thousands separators, e.g. 100,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
