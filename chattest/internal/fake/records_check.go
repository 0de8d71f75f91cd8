package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// CheckRecords makes every core opened after it is set check each change
// it records: the records are set in a copy of the state, which must then
// hold what the state holds, record for record. A change whose records
// miss something a handler changed (a touch forgotten) fails the check,
// which RecordsCheckFailures reports. Tests set it before any core opens;
// it costs two encodings of the whole state a change.
var CheckRecords bool

var recordsCheck struct {
	sync.Mutex
	failures []string
}

// RecordsCheckFailures returns what the checks of CheckRecords found.
func RecordsCheckFailures() []string {
	recordsCheck.Lock()
	defer recordsCheck.Unlock()
	return recordsCheck.failures
}

// startCheck makes st check its changes against a copy of itself, a
// state of cfg.
func (st *state) startCheck(cfg Config) error {
	sh := newState(cfg)
	recs, err := st.allRecords()
	if err != nil {
		return err
	}
	sh.rec.ownKey = sh.ownKeyString()
	if _, err := sh.applySnapshot(recs); err != nil {
		return err
	}
	st.rec.shadow = sh
	return nil
}

// check sets recs, the records of the change just made, in the copy of
// st, and reports where the copy then differs from st.
func (st *state) check(recs []json.RawMessage) {
	sh := st.rec.shadow
	fail := func(format string, args ...any) {
		recordsCheck.Lock()
		if len(recordsCheck.failures) < 500 {
			recordsCheck.failures = append(recordsCheck.failures, fmt.Sprintf(format, args...))
		}
		recordsCheck.Unlock()
	}
	if _, err := sh.applyRecords(recs, sh.rec.ownKey); err != nil {
		fail("setting the records of a change: %v", err)
		return
	}
	want, err := st.allRecords()
	if err != nil {
		fail("encoding the state: %v", err)
		return
	}
	got, err := sh.allRecords()
	if err != nil {
		fail("encoding the copy: %v", err)
		return
	}
	for i := range max(len(want), len(got)) {
		var w, g json.RawMessage
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if !bytes.Equal(w, g) {
			fail("%s: its records miss what it changed: the state holds\n\t%.300s\nwhere the records make\n\t%.300s", st.rec.what, w, g)
			if _, err := sh.applySnapshot(want); err != nil {
				fail("copying the state: %v", err)
			}
			return
		}
	}
}
