//go:build !race

package chattest_test

// checkRecordsInTests is whether TestMain checks the records of every
// change (see race_test.go).
const checkRecordsInTests = true
