package platform

import (
	"os"
	"syscall"
)

// fdatasync makes what was written to f durable, its data without the
// metadata that reading it back does not need (times). It may run while
// the file is written, and fails, rather than syncing another file, once
// the file is closed.
func fdatasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.Fdatasync(int(fd)) }); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}
