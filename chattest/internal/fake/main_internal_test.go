package fake

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain checks the records of every change the tests make
// (CheckRecords): a change whose records miss what it changed fails the
// package. Benchmarks, which the check would measure, run without it.
func TestMain(m *testing.M) {
	flag.Parse()
	CheckRecords = checkRecordsInTests && flag.Lookup("test.bench").Value.String() == ""
	code := m.Run()
	if f := RecordsCheckFailures(); len(f) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d changes' records miss what they changed:\n%s\n", len(f), strings.Join(f, "\n\n"))
		code = 1
	}
	os.Exit(code)
}
