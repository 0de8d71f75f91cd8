package chattest

import (
	"os"
	"syscall"
)

// fdatasync makes what was written to f durable, its data without the
// metadata that reading it back does not need (times).
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
