//go:build race

package chattest_test

// checkRecordsInTests is whether TestMain checks the records of every
// change: not under the race detector, where the check costs ten times
// what it costs elsewhere; CI runs the tests without it too, on Go 1.27.
const checkRecordsInTests = false
