package platform

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// A data directory's changes are written to a write-ahead log before they
// are answered: a batch of changes is one write there, on a file filled
// in advance, so that a sync flushes data and no file size. By default
// the log is synced in the background, at least every syncEvery (and a
// kill of the process loses nothing written: the kernel holds it); with
// SyncEachChange, each batch is synced before its changes are answered,
// one fdatasync, where a bbolt transaction costs two (its pages, then its
// meta page).
//
// The log is two files, written in turn. Once the one being written holds
// walCheckpoint bytes, it is synced, its changes are copied into the
// database (chattest.db) in one transaction, by a goroutine of its own,
// and the writer goes on in the other file, from its start: its changes
// were copied by the checkpoint before, which must have ended (else the
// writer stays in its file, which grows). The changes logged are also
// copied when the changes are read or the directory closed, and when it is
// opened. The file left behind is synced before the other is written, so
// that a machine crash never keeps the later changes of the other without
// these: the changes the two hold beyond the database always follow each
// other.
//
// A record is its length (4 bytes), the CRC-32C of the rest (4), the
// change's sequence number (8) and the change; a zero length follows the
// last. Reading stops at a zero length, and at the first record that is
// torn (its CRC does not match) or does not follow the one before (a
// record of an earlier round of the file, whose numbers are lower): what
// follows it is dropped. A torn record was never answered (its write did
// not return) or was written after the last sync before a machine crash.
// Opening a directory whose log was read up to a torn record fills that
// file with zeros, once its changes are in the database, so that no record
// past the tear is ever read after the numbers it holds are given to
// other changes.
//
// Batches are written one at a time: syncs of the same file at once were
// measured slower than one after the other, each taking the changes
// added while the one before was synced.

// walFiles are the log's files in the data directory.
var walFiles = [2]string{"chattest.wal", "chattest-2.wal"}

const (
	walHeader     = 16      // length, CRC, sequence number
	walSize       = 2 << 20 // the size of a log file, filled at its creation
	walCheckpoint = 1 << 20 // the bytes logged in a file that make a checkpoint
)

var walTable = crc32.MakeTable(crc32.Castagnoli)

// wal is one file of the write-ahead log of a data directory. Its methods
// but sync are called with the directory's lock held.
type wal struct {
	f    *os.File
	path string
	size int64  // the file's size: filled with zeros, or records
	off  int64  // where the next record goes
	buf  []byte // the batch being written
}

// openWAL opens the log file path, creating it and filling it to walSize.
func openWAL(path string) (*wal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	w := &wal{f: f, path: path}
	if err := f.Chmod(0o600); err != nil { // it holds credentials: the owner's only, whatever it had
		f.Close()
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if w.size = fi.Size(); w.size < walSize {
		if err := w.fill(w.size, walSize); err != nil {
			f.Close()
			return nil, err
		}
	}
	return w, nil
}

// openWALs opens the log files of the data directory dir.
func openWALs(dir string) ([2]*wal, error) {
	var logs [2]*wal
	for i, name := range walFiles {
		w, err := openWAL(filepath.Join(dir, name))
		if err != nil {
			if i > 0 {
				logs[0].close()
			}
			return logs, err
		}
		logs[i] = w
	}
	return logs, nil
}

// fill writes zeros from the offset from to size, extending the file to
// size if it is shorter, durably.
func (w *wal) fill(from, size int64) error {
	zeros := make([]byte, 64<<10)
	for at := from; at < size; at += int64(len(zeros)) {
		if _, err := w.f.WriteAt(zeros[:min(int64(len(zeros)), size-at)], at); err != nil {
			return err
		}
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	w.size = max(w.size, size)
	return nil
}

// records returns the changes the file holds from its start, in order,
// with the sequence number of the first; none for a file just reset.
// clean reports that reading stopped at a zero length, not at a record
// torn or out of order.
func (w *wal) records() (first uint64, changes [][]byte, clean bool, err error) {
	var off int64
	var h [walHeader]byte
	for {
		if _, err := w.f.ReadAt(h[:], off); err != nil {
			if errors.Is(err, io.EOF) {
				return first, changes, false, nil
			}
			return 0, nil, false, err
		}
		n := int64(binary.LittleEndian.Uint32(h[0:]))
		seq := binary.LittleEndian.Uint64(h[8:])
		if n == 0 {
			return first, changes, true, nil
		}
		if off+walHeader+n > w.size || len(changes) > 0 && seq != first+uint64(len(changes)) {
			return first, changes, false, nil
		}
		rec := make([]byte, 8+n)
		copy(rec, h[8:])
		if _, err := w.f.ReadAt(rec[8:], off+walHeader); err != nil {
			return 0, nil, false, err
		}
		if crc32.Checksum(rec, walTable) != binary.LittleEndian.Uint32(h[4:]) {
			return first, changes, false, nil
		}
		if len(changes) == 0 {
			first = seq
		}
		changes = append(changes, rec[8:])
		off += walHeader + n
	}
}

// write writes the changes of batch, the first numbered first, after
// those logged: one write, into the kernel's cache, which a sync makes
// durable.
func (w *wal) write(first uint64, batch [][]byte) error {
	w.buf = w.buf[:0]
	for i, ch := range batch {
		var h [walHeader]byte
		binary.LittleEndian.PutUint32(h[0:], uint32(len(ch)))
		binary.LittleEndian.PutUint64(h[8:], first+uint64(i))
		crc := crc32.Update(crc32.Checksum(h[8:], walTable), walTable, ch)
		binary.LittleEndian.PutUint32(h[4:], crc)
		w.buf = append(append(w.buf, h[:]...), ch...)
	}
	// A zero length after the batch ends the file where a record of an
	// earlier round would otherwise follow.
	end := w.off + int64(len(w.buf))
	if need := end + 4; need > w.size {
		if err := w.fill(w.size, max(need, 2*w.size)); err != nil {
			return fmt.Errorf("extending %s: %w", w.path, err)
		}
	}
	w.buf = append(w.buf, 0, 0, 0, 0)
	if _, err := w.f.WriteAt(w.buf, w.off); err != nil {
		return err
	}
	w.off = end
	return nil
}

// reset makes the next record go at the file's start: the changes it
// holds are in the database.
func (w *wal) reset() { w.off = 0 }

// clear fills the file with zeros, durably, and resets it: no record it
// held is read again.
func (w *wal) clear() error {
	if err := w.fill(0, w.size); err != nil {
		return fmt.Errorf("clearing %s: %w", w.path, err)
	}
	w.reset()
	return nil
}

func (w *wal) close() error { return w.f.Close() }
