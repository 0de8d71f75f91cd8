//go:build unix

package main

import "syscall"

// oNoFollow makes opening a symbolic link fail, where the system has it.
const oNoFollow = syscall.O_NOFOLLOW
