package main

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chatrest/chat/chattest"
	"github.com/stretchr/testify/require"
)

// BenchmarkImportRate imports 15,000 users (300 requests) into a fake
// whose data import endpoint takes 60 requests a window, a window lasting
// a second (a fast clock), and reports the pace the fake saw: requests a
// second between the first and the last, as a share of the budget (the
// ceiling), and the requests it refused (429).
//
//	go test -run '^$' -bench ImportRate -benchtime 1x
func BenchmarkImportRate(b *testing.B) {
	const users, budget = 15_000, 60
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			var pct, refused, perSecond float64
			for range b.N {
				b.StopTimer()
				f := newFake(b, chattest.WithDataImportLimit(budget), chattest.WithFastClock(60))
				path := writeUsers(b, f.dir, users)
				b.StartTimer()
				r := f.run(b, []string{"import", "users", path, "--budget", fmt.Sprintf("%d/1s", budget), "--concurrency", fmt.Sprint(conc)})
				b.StopTimer()
				require.Equal(b, 0, r.code, r.stderr)
				xs := f.rec.matching(http.MethodPost, "/v3/data_import/users")
				span := xs[len(xs)-1].at.Sub(xs[0].at).Seconds()
				rate := float64(len(xs)-1) / span
				pct += 100 * rate / budget
				perSecond += rate * 50
				refused += float64(status429(f, "/v3/data_import/users"))
			}
			b.ReportMetric(pct/float64(b.N), "%budget")
			b.ReportMetric(perSecond/float64(b.N), "users/s")
			b.ReportMetric(refused/float64(b.N), "429s")
		})
	}
}
