//go:build !linux

package platform

import "os"

// fdatasync makes what was written to f durable.
func fdatasync(f *os.File) error { return f.Sync() }
