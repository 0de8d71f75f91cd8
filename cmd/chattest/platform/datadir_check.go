package platform

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
)

// bbolt maps its file into memory and trusts the pages it reads there: a
// file cut short faults (SIGBUS) where a page is missing, and pages
// overwritten make it panic. A data directory's database is checked
// before bbolt opens it (checkDB), as bbolt checks it and beyond, and what
// bbolt does while it opens and reads the file runs guarded, so that a
// damaged file is an error naming it, never a crash.

// The layout of a bbolt file (go.etcd.io/bbolt's internal/common): pages
// of pageSize bytes, each with a header of 16 bytes; pages 0 and 1 are
// meta pages, of which bbolt uses the valid one with the higher
// transaction id.
const (
	boltPageHeader = 16         // page id (8), flags (2), count (2), overflow (4)
	boltMetaSize   = 64         // the meta after the page header
	boltMagic      = 0xED0CDAED // a meta's magic
	boltVersion    = 2          // the file format bbolt writes
	boltNoFreelist = ^uint64(0) // the freelist page of a file whose freelist is not synced
	boltBranchPage = 0x01       // the flags of a branch page
	boltLeafPage   = 0x02       // of a leaf page
	boltFreePage   = 0x10       // of the freelist's page
	boltMinPage    = 1024       // the smallest page size bbolt looks for
	boltMaxPage    = 1 << 24    // the largest
)

// boltMeta is what checkDB reads of a meta page.
type boltMeta struct {
	pageSize       uint64
	root, freelist uint64 // page ids
	pages          uint64 // the high-water mark: pages below it are in the file
	txid           uint64
}

// readBoltMeta reads the meta page at off of f, which is size bytes long,
// and reports whether it is valid as bbolt validates it: magic, version
// and checksum.
func readBoltMeta(f io.ReaderAt, off, size int64) (boltMeta, bool) {
	var b [boltPageHeader + boltMetaSize]byte
	if off+int64(len(b)) > size {
		return boltMeta{}, false
	}
	if _, err := f.ReadAt(b[:], off); err != nil {
		return boltMeta{}, false
	}
	m := b[boltPageHeader:]
	le := binary.NativeEndian // bbolt writes its structs as they are in memory
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: uint64(le.Uint32(m[8:])), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pages: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// checkDB checks the database file path before bbolt opens it: that it is
// not empty, that a meta page is valid and gives a page size, that every
// page the meta bbolt will use counts lies within the file, and that its
// root and freelist pages are pages of their kinds. A missing file is no
// error: bbolt creates it.
func checkDB(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return damagedDB(path, "it is empty (0 bytes)")
	}
	// The first meta page gives the page size, where the second is; if it
	// is invalid, the second is looked for where bbolt looks.
	m0, ok0 := readBoltMeta(f, 0, size)
	pageSize := m0.pageSize
	if !ok0 {
		for ps := int64(boltMinPage); ps <= boltMaxPage && ps < size; ps <<= 1 {
			if m, ok := readBoltMeta(f, ps, size); ok && int64(m.pageSize) == ps {
				pageSize = m.pageSize
				break
			}
		}
	}
	if pageSize < boltMinPage || pageSize > boltMaxPage {
		return damagedDB(path, "it is no bbolt database, or its first pages were overwritten")
	}
	m1, ok1 := readBoltMeta(f, int64(pageSize), size)
	m := m0
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		m = m1
	case !ok0 && !ok1:
		return damagedDB(path, "both its meta pages are invalid")
	}
	if m.pageSize != pageSize {
		return damagedDB(path, "its meta pages disagree on the page size")
	}
	if m.pages > uint64(size)/pageSize {
		return damagedDB(path, fmt.Sprintf("it is cut short: %d bytes, where its meta page counts %d pages of %d bytes", size, m.pages, pageSize))
	}
	if m.root < 2 || m.root >= m.pages || m.freelist != boltNoFreelist && (m.freelist < 2 || m.freelist >= m.pages) {
		return damagedDB(path, "its meta page names pages outside the file")
	}
	flags := func(id uint64) uint16 {
		var h [boltPageHeader]byte
		if _, err := f.ReadAt(h[:], int64(id*pageSize)); err != nil {
			return 0
		}
		return binary.NativeEndian.Uint16(h[8:])
	}
	if fl := flags(m.root); fl != boltBranchPage && fl != boltLeafPage {
		return damagedDB(path, "its root page was overwritten")
	}
	if m.freelist != boltNoFreelist && flags(m.freelist) != boltFreePage {
		return damagedDB(path, "its freelist page was overwritten")
	}
	return nil
}

// damagedDB is the error of the damaged database file path, and what to
// do about it.
func damagedDB(path, why string) error {
	return fmt.Errorf("chattest: the database %s is damaged: %s. Restore it from a backup, or move it away to start the data directory anew", path, why)
}

// guarded runs f, which reads a bbolt file, and returns a panic of f, or
// a fault reading the file's memory map, as an error.
func guarded(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = panicked{fmt.Sprintf("reading it failed: %v", p)}
		}
	}()
	return f()
}

// panicked is a panic of bbolt, or a fault reading its file, as an error.
type panicked struct{ msg string }

func (p panicked) Error() string { return p.msg }
