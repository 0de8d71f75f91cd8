package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// checkpoint is how far the import of a file got, kept beside it in
// FILE.checkpoint: every record before Offset was answered (imported,
// already present or refused) and is counted, and its refusals are the
// first ErrorsSize bytes of FILE.errors.jsonl. It is written atomically
// after each batch answered, so that a run killed at any point resumes
// after the last batch it recorded; the batches sent after it, whose
// answers were lost, are sent again, and the service answers that their
// entities already exist.
type checkpoint struct {
	Version int    `json:"version"`
	Kind    string `json:"kind"`
	Format  string `json:"format"`
	// App and BaseURL are where the records go: a checkpoint of a
	// rehearsal against chattest is not resumed against the service.
	App     string `json:"app"`
	BaseURL string `json:"baseURL"`
	// Offset is the byte offset in the file after the last record done,
	// and Line the number of lines up to it.
	Offset int64 `json:"offset"`
	Line   int64 `json:"line"`
	// Records counts the records done: Imported, AlreadyPresent and
	// Refused (by the service, or before sending).
	Records        int64 `json:"records"`
	Imported       int64 `json:"imported"`
	AlreadyPresent int64 `json:"alreadyPresent"`
	Refused        int64 `json:"refused"`
	// Requests counts the requests sent, retries included.
	Requests   int64 `json:"requests"`
	ErrorsSize int64 `json:"errorsSize"`
	// Head and Tail fingerprint the file: the SHA-256 of its first 64 KiB
	// before Offset and of the 4 KiB just before Offset. A resumed run
	// checks them, so that it does not resume in another file.
	Head     string    `json:"head"`
	Tail     string    `json:"tail"`
	Complete bool      `json:"complete"`
	Updated  time.Time `json:"updated"`
}

const checkpointVersion = 1

// loadCheckpoint reads the checkpoint at path; nil when there is none.
func loadCheckpoint(path string) (*checkpoint, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(b, &cp); err != nil || cp.Version != checkpointVersion {
		return nil, usageErrorf("%s is not a checkpoint this command can read: remove it, or run with --restart", path)
	}
	if field := cp.damaged(); field != "" {
		return nil, usageErrorf("%s is damaged (its %s cannot be right): remove it, or run with --restart to import the file from its start", path, field)
	}
	return &cp, nil
}

// damaged names a field of the checkpoint that no import writes: a
// negative count or offset, or counts that do not add up; empty when
// there is none.
func (cp *checkpoint) damaged() string {
	for _, f := range []struct {
		name string
		v    int64
	}{{"offset", cp.Offset}, {"line", cp.Line}, {"records", cp.Records}, {"imported", cp.Imported},
		{"alreadyPresent", cp.AlreadyPresent}, {"refused", cp.Refused}, {"requests", cp.Requests}, {"errorsSize", cp.ErrorsSize}} {
		if f.v < 0 {
			return f.name
		}
	}
	if cp.Imported+cp.AlreadyPresent+cp.Refused != cp.Records {
		return "records"
	}
	if cp.Line > cp.Offset || cp.Records > cp.Offset {
		return "offset"
	}
	return ""
}

// save writes the checkpoint to path atomically, with the fingerprint of
// the file f up to Offset.
func (cp *checkpoint) save(path string, f io.ReaderAt) error {
	var err error
	if cp.Head, cp.Tail, err = fingerprint(f, cp.Offset); err != nil {
		return err
	}
	cp.Updated = time.Now().UTC().Truncate(time.Millisecond)
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'), 0o600)
}

// matches reports whether f still holds, up to Offset, the bytes the
// checkpoint was written for.
func (cp *checkpoint) matches(f io.ReaderAt) (bool, error) {
	head, tail, err := fingerprint(f, cp.Offset)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return false, nil // shorter than the offset
	}
	return head == cp.Head && tail == cp.Tail, err
}

const (
	headBytes = 64 << 10
	tailBytes = 4 << 10
)

// fingerprint returns the SHA-256 of f's first min(offset, 64 KiB) bytes
// and of the min(offset, 4 KiB) bytes before offset.
func fingerprint(f io.ReaderAt, offset int64) (head, tail string, err error) {
	sum := func(from, n int64) (string, error) {
		b := make([]byte, n)
		if _, err := f.ReadAt(b, from); err != nil && !(errors.Is(err, io.EOF) && n == 0) {
			return "", err
		}
		h := sha256.Sum256(b)
		return hex.EncodeToString(h[:]), nil
	}
	if head, err = sum(0, min(offset, headBytes)); err != nil {
		return "", "", err
	}
	n := min(offset, tailBytes)
	if tail, err = sum(offset-n, n); err != nil {
		return "", "", err
	}
	return head, tail, nil
}

// describe says what the checkpoint holds, for a person.
func (cp *checkpoint) describe() string {
	return fmt.Sprintf("%d records done (line %d): %d imported, %d already present, %d refused",
		cp.Records, cp.Line, cp.Imported, cp.AlreadyPresent, cp.Refused)
}
