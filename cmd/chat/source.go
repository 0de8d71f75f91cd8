package main

import (
	"bufio"
	"bytes"
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
// nested field is named by its path, e.g. groupDetails.name. It splits the
// file into records itself, holding at most maxRecordBytes of one: a
// longer record, or one whose quotes do not pair, is refused and the
// reading goes on (see splitter.next).
type csvSource struct {
	kind   *importKind
	header []string
	sp     *splitter
}

func newCSVSource(f *os.File, kind *importKind, offset, line int64) (*csvSource, error) {
	sp := newSplitter(f, 0, 0)
	head, err := sp.next()
	if errors.Is(err, io.EOF) {
		return nil, usageErrorf("the CSV file has no header row")
	}
	if err != nil {
		return nil, err
	}
	if head.problem != "" {
		return nil, usageErrorf("reading the CSV header: %s", head.problem)
	}
	header := head.fields
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], string(utf8BOM))
	}
	if err := kind.checkColumns(header); err != nil {
		return nil, err
	}
	s := &csvSource{kind: kind, header: header, sp: sp}
	if offset > 0 {
		s.sp = newSplitter(f, offset, line)
	}
	return s, nil
}

func (s *csvSource) next() (rawRecord, error) {
	for {
		r, err := s.sp.next()
		if err != nil {
			return rawRecord{}, err
		}
		rec := rawRecord{line: r.line, end: r.end, endLine: r.endLine}
		switch {
		case r.problem != "":
			rec.err = errors.New(r.problem)
			rec.json = r.data
		case len(r.fields) == 1 && r.fields[0] == "" && len(s.header) > 1:
			continue // a blank line
		case len(r.fields) != len(s.header):
			rec.err = fmt.Errorf("the row has %d fields, the header %d", len(r.fields), len(s.header))
			rec.json = r.data
		default:
			rec.json, rec.err = s.kind.csvRecord(s.header, r.fields)
		}
		return rec, nil
	}
}

// splitter cuts a CSV file into the bytes of its records, following the
// quotes of RFC 4180 (a quoted field may hold commas, quotes doubled and
// line breaks), with at most maxRecordBytes of a record in memory.
type splitter struct {
	f    io.ReadSeeker
	r    *bufio.Reader
	off  int64 // the offset of the next byte
	line int64 // the line breaks before off
}

func newSplitter(f io.ReadSeeker, offset, line int64) *splitter {
	s := &splitter{f: f, off: offset, line: line}
	s.seek(offset, line)
	return s
}

func (s *splitter) seek(offset, line int64) {
	s.off, s.line = offset, line
	if _, err := s.f.Seek(offset, io.SeekStart); err != nil {
		s.r = bufio.NewReader(failedReader{err})
		return
	}
	if s.r == nil {
		s.r = bufio.NewReaderSize(s.f, 64<<10)
	} else {
		s.r.Reset(s.f)
	}
}

// csvPiece is one record as the splitter cut it.
type csvPiece struct {
	fields       []string // the fields, when it is not refused
	data         []byte   // the record, without its line break; at most a preview when refused
	line         int64    // the line it starts on, from 1
	end, endLine int64    // the offset after it, and the lines up to there
	problem      string   // why it is refused; empty when it is not
}

// The states of the splitter within a record.
const (
	atFieldStart = iota
	inUnquoted
	inQuoted
	quoteInQuoted // a quote inside a quoted field: its end, or the first of two
	skipLine      // a refused record's rest, up to the line break
)

// maxPreview is how much of a refused record the errors file shows.
const maxPreview = 4 << 10

// next returns the next record, or io.EOF after the last.
//
// A record whose quotes do not pair (a quote inside an unquoted field, a
// character after a closing quote, a quoted field still open at the end of
// the file) is refused with its first line, and the reading goes on at the
// line after it: a stray quote costs one line, not the rest of the file. A
// record longer than maxRecordBytes is read through without being kept,
// and refused whole.
func (s *splitter) next() (csvPiece, error) {
	start, startLine := s.off, s.line
	var (
		buf          []byte
		over         bool
		state        = atFieldStart
		problem      string
		firstNL      int64 = -1 // the offset after the record's first line break
		firstNLLine  int64
		endedByBreak bool
		field        []byte
		fields       []string
	)
	push := func() {
		fields = append(fields, string(field))
		field = field[:0]
	}
	refuseFirstLine := func(p string) csvPiece {
		n := min(int(firstNL-start), len(buf))
		piece := csvPiece{data: preview(buf[:n]), line: startLine + 1, end: firstNL, endLine: firstNLLine,
			problem: "a quoted field opened on this line does not close properly (a stray quote?): " + p + "; the line is refused, the reading goes on at the next"}
		s.seek(firstNL, firstNLLine)
		return piece
	}
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return csvPiece{}, err
			}
			if s.off == start {
				return csvPiece{}, io.EOF
			}
			if state == inQuoted {
				if firstNL >= 0 {
					return refuseFirstLine("a quoted field is not closed"), nil
				}
				problem = "a quoted field is not closed"
			}
			break
		}
		s.off++
		if c == '\n' {
			s.line++
			if firstNL < 0 {
				firstNL, firstNLLine = s.off, s.line
			}
		}
		if !over {
			if len(buf) < maxRecordBytes {
				buf = append(buf, c)
			} else {
				over = true
			}
		}
		bad := ""
		keep := !over && state != skipLine
		switch state {
		case atFieldStart, inUnquoted:
			switch c {
			case '"':
				if state == atFieldStart {
					state = inQuoted
				} else {
					bad = "a quote inside an unquoted field (a field holding quotes must be quoted, its quotes doubled)"
				}
			case ',':
				push()
				state = atFieldStart
			case '\n':
				field = bytes.TrimSuffix(field, []byte("\r"))
				push()
				endedByBreak = true
			default:
				if keep {
					field = append(field, c)
				}
				state = inUnquoted
			}
		case inQuoted:
			if c == '"' {
				state = quoteInQuoted
			} else if keep {
				field = append(field, c)
			}
		case quoteInQuoted:
			switch c {
			case '"':
				if keep {
					field = append(field, c)
				}
				state = inQuoted
			case ',':
				push()
				state = atFieldStart
			case '\n':
				push()
				endedByBreak = true
			case '\r':
			default:
				bad = "a character after the closing quote of a field (a quote inside a quoted field must be doubled)"
			}
		case skipLine:
			if c == '\n' {
				endedByBreak = true
			}
		}
		if bad != "" {
			if firstNL >= 0 && firstNL < s.off {
				return refuseFirstLine(bad), nil
			}
			problem, state = bad, skipLine
		}
		if endedByBreak {
			break
		}
	}
	piece := csvPiece{line: startLine + 1, end: s.off, endLine: s.line}
	if !endedByBreak {
		piece.endLine++ // the last line, without a line break
		if state != skipLine && state != inQuoted {
			field = bytes.TrimSuffix(field, []byte("\r"))
			push()
		}
	}
	switch {
	case over:
		piece.data = preview(buf)
		piece.problem = fmt.Sprintf("the record is longer than %d bytes", maxRecordBytes)
	case problem != "":
		piece.data = preview(buf)
		piece.problem = problem
	default:
		piece.data = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		piece.fields = fields
	}
	return piece, nil
}

// preview returns the first maxPreview bytes of b, without a line break
// at the end.
func preview(b []byte) []byte {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > maxPreview {
		b = append(b[:maxPreview:maxPreview], "..."...)
	}
	return b
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

// failedReader fails every read with err.
type failedReader struct{ err error }

func (r failedReader) Read([]byte) (int, error) { return 0, r.err }
