package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxRecordBytes caps one record of an import file: a longer one is
// refused, so that memory stays flat whatever the file holds.
const maxRecordBytes = 1 << 20

// rawRecord is one record of an import file.
type rawRecord struct {
	json []byte // the record as JSON: a JSON line, or a CSV row made an object
	line int64  // the line it starts on, from 1
	end  int64  // the byte offset after it
	// endLine is the number of lines up to end.
	endLine int64
	// err says why the record cannot be read; it is refused.
	err error
}

// source reads the records of an import file one after another, from a
// byte offset, holding one record at a time.
type source interface {
	// next returns the next record, or io.EOF after the last. Another
	// error means the rest of the file cannot be read.
	next() (rawRecord, error)
}

// The formats of import files.
const (
	formatJSONL = "jsonl"
	formatCSV   = "csv"
)

// formatOf returns the format of the file at path from its extension.
func formatOf(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson", ".json":
		return formatJSONL, nil
	case ".csv":
		return formatCSV, nil
	}
	return "", usageErrorf("cannot tell the format of %s from its extension: give --format jsonl or --format csv", path)
}

// openSource returns the records of f from offset, at line line.
func openSource(f *os.File, format string, kind *importKind, offset, line int64) (source, error) {
	if format == formatCSV {
		return newCSVSource(f, kind, offset, line)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return &jsonlSource{r: bufio.NewReaderSize(f, 64<<10), off: offset, line: line}, nil
}

// jsonlSource reads JSON Lines: one record per line, blank lines skipped.
type jsonlSource struct {
	r    *bufio.Reader
	off  int64
	line int64
}

var utf8BOM = []byte("\xef\xbb\xbf")

func (s *jsonlSource) next() (rawRecord, error) {
	for {
		b, n, tooLong, err := readLine(s.r, maxRecordBytes)
		if n == 0 {
			if err == nil || errors.Is(err, io.EOF) {
				return rawRecord{}, io.EOF
			}
			return rawRecord{}, err
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return rawRecord{}, err
		}
		if s.off == 0 {
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		s.off += n
		s.line++
		rec := rawRecord{line: s.line, end: s.off, endLine: s.line}
		if tooLong {
			rec.err = fmt.Errorf("the line is longer than %d bytes", maxRecordBytes)
			return rec, nil
		}
		if b = bytes.TrimSpace(b); len(b) == 0 {
			continue
		}
		rec.json = bytes.Clone(b)
		return rec, nil
	}
}

// readLine reads a line of r, its line break included in n but not in
// line; a line longer than max is read through but not kept (tooLong).
func readLine(r *bufio.Reader, max int) (line []byte, n int64, tooLong bool, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		n += int64(len(frag))
		if !tooLong {
			if len(line)+len(frag) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), n, tooLong, err
	}
}

// csvSource reads CSV with a header row naming the record's fields; a
// nested field is named by its path, e.g. groupDetails.name.
type csvSource struct {
	kind     *importKind
	header   []string
	r        *csv.Reader
	base     int64 // the offset the reader started at
	baseLine int64
}

func newCSVSource(f *os.File, kind *importKind, offset, line int64) (*csvSource, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	hr := csv.NewReader(bufio.NewReader(f))
	header, err := hr.Read()
	if errors.Is(err, io.EOF) {
		return nil, usageErrorf("the CSV file has no header row")
	}
	if err != nil {
		return nil, usageErrorf("reading the CSV header: %v", err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], string(utf8BOM))
	}
	if err := kind.checkColumns(header); err != nil {
		return nil, err
	}
	s := &csvSource{kind: kind, header: slices.Clone(header)}
	if offset == 0 {
		// Start after the header row.
		offset = hr.InputOffset()
		last, _ := hr.FieldPos(len(header) - 1)
		line = int64(last) + int64(strings.Count(header[len(header)-1], "\n"))
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	s.r = csv.NewReader(bufio.NewReaderSize(f, 64<<10))
	s.r.FieldsPerRecord = len(header)
	s.r.ReuseRecord = true
	s.base, s.baseLine = offset, line
	return s, nil
}

func (s *csvSource) next() (rawRecord, error) {
	row, err := s.r.Read()
	if errors.Is(err, io.EOF) {
		return rawRecord{}, io.EOF
	}
	var pe *csv.ParseError
	if err != nil && !(errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount)) {
		if errors.As(err, &pe) {
			return rawRecord{}, usageErrorf("line %d of the CSV file: %v: fix the file and run the command again (it resumes there)", s.baseLine+int64(pe.StartLine), pe.Err)
		}
		return rawRecord{}, err
	}
	start, _ := s.r.FieldPos(0)
	last, _ := s.r.FieldPos(len(row) - 1)
	rec := rawRecord{
		line:    s.baseLine + int64(start),
		end:     s.base + s.r.InputOffset(),
		endLine: s.baseLine + int64(last) + int64(strings.Count(row[len(row)-1], "\n")),
	}
	if err != nil {
		rec.err = fmt.Errorf("the row has %d fields, the header %d", len(row), len(s.header))
		rec.json, _ = json.Marshal(row)
		return rec, nil
	}
	rec.json, rec.err = s.kind.csvRecord(s.header, row)
	return rec, nil
}

// checkColumns refuses a header whose columns are not fields of the
// kind's records, repeat one another, or name both a field and a field
// inside it.
func (k *importKind) checkColumns(header []string) error {
	seen := map[string]bool{}
	for _, col := range header {
		if col == "" {
			return usageErrorf("the CSV header has an empty column name")
		}
		if seen[col] {
			return usageErrorf("the CSV header names %q twice", col)
		}
		seen[col] = true
	}
	for _, col := range header {
		for other := range seen {
			if strings.HasPrefix(other, col+".") {
				return usageErrorf("the CSV header names both %q and %q, a field inside it", col, other)
			}
		}
		probe := map[string]any{}
		setPath(probe, strings.Split(col, "."), json.RawMessage("null"))
		b, _ := json.Marshal(probe)
		if _, err := k.decode(b); err != nil {
			return usageErrorf("the CSV column %q is not a field of a %s (%v)", col, k.entity, err)
		}
	}
	return nil
}

// csvRecord makes a CSV row a JSON object: each non-empty cell is the
// field its column names, read as the field's type (Unix seconds or an
// RFC 3339 time for timestamps, true or false, JSON for free-form fields,
// a JSON array or comma-separated values for lists, text otherwise).
func (k *importKind) csvRecord(header, row []string) ([]byte, error) {
	obj := map[string]any{}
	for i, col := range header {
		v := row[i]
		if v == "" {
			continue
		}
		val, err := k.csvValue(col, v)
		if err != nil {
			return nil, fieldError{col, err.Error()}
		}
		setPath(obj, strings.Split(col, "."), val)
	}
	return json.Marshal(obj)
}

func (k *importKind) csvValue(col, v string) (any, error) {
	switch {
	case slices.Contains(k.timestamps, col):
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			return json.Number(v), nil
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return nil, errors.New("must be Unix seconds or an RFC 3339 time, e.g. 2024-05-01T09:30:00Z")
		}
		return t.Unix(), nil
	case slices.Contains(k.bools, col):
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, errors.New("must be true or false")
		}
		return b, nil
	case slices.Contains(k.jsonFields, col):
		if !json.Valid([]byte(v)) {
			return nil, errors.New("must be JSON")
		}
		return json.RawMessage(v), nil
	case slices.Contains(k.lists, col):
		if strings.HasPrefix(strings.TrimSpace(v), "[") {
			if !json.Valid([]byte(v)) {
				return nil, errors.New("must be a JSON array or comma-separated values")
			}
			return json.RawMessage(v), nil
		}
		var items []string
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
		return items, nil
	}
	return v, nil
}

// setPath sets obj's field at path, making the objects on the way.
func setPath(obj map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := obj[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	obj[path[len(path)-1]] = v
}
