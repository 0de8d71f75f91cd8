//go:build !race

package fake

// checkRecordsInTests is whether TestMain checks the records of every
// change (see race_internal_test.go).
const checkRecordsInTests = true
