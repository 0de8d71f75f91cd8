package chattest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// A data directory's changes are made durable in a write-ahead log
// (chattest.wal) before they are answered: a batch of changes is one
// write and one fdatasync there, where a bbolt transaction costs two
// (its pages, then its meta page), on a file filled in advance, so that
// the sync flushes data and no file size. The changes logged are copied
// into the database (chattest.db) in a checkpoint, one transaction for
// many batches, once the log holds walCheckpoint bytes, when the journal
// is read or closed, and when the directory is opened: then the log is
// written again from its start.
//
// A record is its length (4 bytes), the CRC-32C of the rest (4), the
// change's sequence number (8) and the change; a zero length follows the
// last. Reading stops at the first record that is torn (its CRC does not
// match) or does not follow the one before (a record of an earlier round
// of the log, whose numbers are lower), or at a zero length. A torn record
// was never answered: its sync did not return.
//
// Batches are written one at a time: syncs of the same file at once were
// measured slower than one after the other, each taking the changes
// added while the one before was synced.

// walFile is the log's file in the data directory.
const walFile = "chattest.wal"

const (
	walHeader     = 16      // length, CRC, sequence number
	walSize       = 4 << 20 // the log's size, filled at its creation
	walCheckpoint = 1 << 20 // the bytes logged that make a checkpoint
)

var walTable = crc32.MakeTable(crc32.Castagnoli)

// wal is the write-ahead log of a data directory. Its methods are called
// by one goroutine at a time: the journal's writer.
type wal struct {
	f    *os.File
	path string
	size int64  // the file's size: filled with zeros, or records
	off  int64  // where the next record goes
	buf  []byte // the batch being written
}

// openWAL opens the log of the data directory dir, creating it and
// filling it to walSize.
func openWAL(dir string) (*wal, error) {
	path := filepath.Join(dir, walFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	w := &wal{f: f, path: path}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if w.size = fi.Size(); w.size < walSize {
		if err := w.fill(walSize); err != nil {
			f.Close()
			return nil, err
		}
	}
	return w, nil
}

// fill extends the file with zeros to size bytes, durably.
func (w *wal) fill(size int64) error {
	zeros := make([]byte, 64<<10)
	for at := w.size; at < size; at += int64(len(zeros)) {
		if _, err := w.f.WriteAt(zeros[:min(int64(len(zeros)), size-at)], at); err != nil {
			return err
		}
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	w.size = size
	return nil
}

// records returns the changes the log holds from its start, in order,
// with the sequence number of the first; none for a log just reset.
func (w *wal) records() (first uint64, changes [][]byte, err error) {
	var off int64
	var h [walHeader]byte
	for {
		if _, err := w.f.ReadAt(h[:], off); err != nil {
			if errors.Is(err, io.EOF) {
				return first, changes, nil
			}
			return 0, nil, err
		}
		n := int64(binary.LittleEndian.Uint32(h[0:]))
		seq := binary.LittleEndian.Uint64(h[8:])
		if n == 0 || off+walHeader+n > w.size || len(changes) > 0 && seq != first+uint64(len(changes)) {
			return first, changes, nil
		}
		rec := make([]byte, 8+n)
		copy(rec, h[8:])
		if _, err := w.f.ReadAt(rec[8:], off+walHeader); err != nil {
			return 0, nil, err
		}
		if crc32.Checksum(rec, walTable) != binary.LittleEndian.Uint32(h[4:]) {
			return first, changes, nil
		}
		if len(changes) == 0 {
			first = seq
		}
		changes = append(changes, rec[8:])
		off += walHeader + n
	}
}

// append writes the changes of batch, the first numbered first, after
// those logged, and syncs them: one write, one fdatasync.
func (w *wal) append(first uint64, batch [][]byte) error {
	w.buf = w.buf[:0]
	for i, ch := range batch {
		var h [walHeader]byte
		binary.LittleEndian.PutUint32(h[0:], uint32(len(ch)))
		binary.LittleEndian.PutUint64(h[8:], first+uint64(i))
		crc := crc32.Update(crc32.Checksum(h[8:], walTable), walTable, ch)
		binary.LittleEndian.PutUint32(h[4:], crc)
		w.buf = append(append(w.buf, h[:]...), ch...)
	}
	// A zero length after the batch ends the log where a record of an
	// earlier round would otherwise follow.
	end := w.off + int64(len(w.buf))
	if need := end + 4; need > w.size {
		if err := w.fill(max(need, 2*w.size)); err != nil {
			return fmt.Errorf("extending %s: %w", w.path, err)
		}
	}
	w.buf = append(w.buf, 0, 0, 0, 0)
	if _, err := w.f.WriteAt(w.buf, w.off); err != nil {
		return err
	}
	if err := fdatasync(w.f); err != nil {
		return err
	}
	w.off = end
	return nil
}

// reset makes the next record go at the log's start: the changes logged
// are in the database.
func (w *wal) reset() { w.off = 0 }

func (w *wal) close() error { return w.f.Close() }
